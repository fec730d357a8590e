"""A game's position on one line (`Game.to_text()`, `Game.from_text(rules, text)`), and its key.

Nine fields separated by single spaces (docs/format.md, section 6, is the specification):

    players setup turn palaces merchants walls tiles supply retired

Inside a field `/` separates entries, `:` an entry's parts, `.` the items of a list; `-` is nothing.
Palaces are listed by colour, each colour's in the order they were started, so equal positions give
equal texts and keys whatever order their placements came in. A game read from its text has no move
stack (no events, no start supply) and plays on as the game it came from; the counts of claims, tea
awards and placements so far are those of its board.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, NoReturn

from .board import bits
from .position import NEUTRAL, Palace, Plain
from .variant import is_ruleset

if TYPE_CHECKING:
    from ..rules.loader import Ruleset
    from ..rules.typed import Rules
    from .game import Game
    from .variant import Variant

PositionKey = tuple[
    Any, ...
]  # `key`: players, turn, palaces, merchants, ... (values of many kinds)
Turn = tuple[
    int | None, int, int, int, bool, bool
]  # seat to move, turns started, placed, slots, tea used, forced

FIELDS = ("players", "setup", "turn", "palaces", "merchants", "walls", "tiles", "supply", "retired")


def _escaped(name: str) -> str:
    """A player's name as the text writes it: `%`, `,`, spaces and what does not print as in URLs (`%20`)."""
    return "".join(
        ch
        if ch.isprintable() and not ch.isspace() and ch not in "%,"
        else "".join(f"%{byte:02X}" for byte in ch.encode())
        for ch in name
    )


def key(game: Game) -> PositionKey:
    """The position and turn of `game` as a hashable value, the same for equal positions reached by
    placements in another order (palaces by colour, tile holders by place in that order).
    Not the start merchant: two games that stand alike play alike."""
    colours = game.variant.colours
    palaces = sorted(
        game.palaces, key=lambda p: colours.index(p.colour)
    )  # each colour's in the order started
    place = {id(palace): i for i, palace in enumerate(palaces)}

    def holders(
        held: dict[str, Palace | None] | dict[int, Palace | None],
    ) -> tuple[int | None, ...]:
        return tuple(None if p is None else place[id(p)] for p in held.values())

    return (
        tuple(game.players),
        (
            game.seat_to_move,
            game.turns_started,
            game.turn_placed,
            game.turn_slots,
            game.tea_used,
            game.forced,
        ),
        tuple(
            (
                p.colour,
                p.buildings,
                p.stables,
                p.owner,
                p.roof,
                p.claim_order,
                tuple(sorted(p.connected)),
            )
            for p in palaces
        ),
        game.merchants,
        game._chain_ends,
        game.well,
        tuple(sorted(game._wall_arm.items())),
        holders(game.palace_tile),
        holders(game.tower_tile),
        tuple(game._tower_merchants_left.get(tower) for tower in game.tower_tile),
        tuple(tuple(s[p] for p in game.variant.pieces) for s in game.supply),
        tuple(game.tea),
        tuple(c for c in game.variant.colours if c in game.retired),
    )


def write(game: Game) -> str:
    """`game`'s position on one line (the module's docstring says how)."""
    name = game.variant.geometry.name
    (
        players,
        turn,
        palaces,
        _,
        chain_ends,
        _,
        wall_arms,
        palace_tiles,
        tower_tiles,
        waiting,
        supply,
        tea,
        retired,
    ) = key(game)

    def cells(mask: int) -> str:
        return ".".join(map(name, bits(mask))) or "-"

    def items(values: Iterable[int | None]) -> str:
        return ".".join("-" if v is None else str(int(v)) for v in values) or "-"

    def palace(
        colour: str,
        buildings: int,
        stables: int,
        owner: int | None,
        roof: int | None,
        claim: int | None,
        arms: Iterable[tuple[int, str]],
    ) -> str:
        return ":".join(
            (
                colour,
                cells(buildings),
                cells(stables),
                "-" if owner is None else "n" if owner == NEUTRAL else str(owner),
                "-" if roof is None else name(roof),
                items([claim]),
                ".".join(f"{tower}{axis}" for tower, axis in arms) or "-",
            )
        )

    setup = game.setup
    return " ".join(
        (
            ",".join(map(_escaped, players)),
            f"{setup['merchant']}.{setup['well'] or '-'}",
            items(turn),
            "/".join(palace(*p) for p in palaces) or "-",
            f"{cells(game.merchants)}:{'-' if chain_ends is None else '.'.join(map(name, chain_ends))}",
            ".".join(f"{name(cell)}@{tower}{axis}" for cell, (tower, axis) in wall_arms) or "-",
            f"{items(palace_tiles)}:{items(tower_tiles)}:{items(waiting)}",
            "/".join(f"{items(counts)}:{count}" for counts, count in zip(supply, tea, strict=True)),
            ".".join(retired) or "-",
        )
    )


class _Reader:
    """Reads one position text; every refusal a ValueError naming the field."""

    def __init__(self, text: str) -> None:
        self.text, self.field = text, "text"

    def fail(self, why: str) -> NoReturn:
        raise ValueError(f"position text, field {self.field}: {why}")

    def cell(self, word: str) -> int:
        cell = self.variant.geometry.parse(word)
        if cell is None:
            self.fail(
                f"{word!r} is not a cell of this board ({self.variant.geometry.describe_extent()})"
            )
        return cell

    def cells(self, words: str) -> list[int]:
        return [] if words == "-" else [self.cell(w) for w in words.split(".")]

    def mask(self, words: str) -> int:
        return sum(1 << cell for cell in set(self.cells(words)))

    def number(self, word: str, below: int | None = None, none: bool = False) -> int | None:
        if none and word == "-":
            return None
        if not (word.isascii() and word.isdigit() and len(word) < 10) or (
            below is not None and int(word) >= below
        ):
            bound = "" if below is None else f" below {below}"
            self.fail(f"{word!r} is not {'- or ' if none else ''}a whole number{bound}")
        return int(word)

    def numbers(
        self, words: str, count: int, below: int | None = None, none: bool = False
    ) -> list[int | None]:
        values = [] if words == "-" and not count else words.split(".")
        if len(values) != count:
            self.fail(f"{words!r}: expected {count} entries separated by '.'")
        return [self.number(v, below, none) for v in values]

    def parts(self, words: str, count: int, separator: str = ":") -> list[str]:
        parts = words.split(separator)
        if len(parts) != count:
            self.fail(f"{words!r}: expected {count} parts separated by {separator!r}")
        return parts

    def arm(self, word: str) -> tuple[int, str]:
        tower, axis = word[:-1], word[-1:]
        if (
            not (tower.isascii() and tower.isdigit())
            or int(tower) not in self.towers
            or axis not in ("h", "v")
        ):
            self.fail(f"{word!r} is not a tower's arm (a tower's number, then h or v)")
        return int(tower), axis

    def check_palace(self, entry: str, palace: tuple[Any, ...], taken: int) -> None:
        """Refuses a palace that no game has: no buildings, cells off the city or of another palace, a
        roof off its buildings, or an owner, roof and claim that are not all given or all `-`."""
        _, buildings, stables, owner, roof, claim, arms = palace
        interior = self.variant.interior
        if not buildings or (buildings | stables) & (~interior | taken) or buildings & stables:
            self.fail(
                f"{entry!r}: a palace has buildings, and its buildings and stables stand inside the city, "
                "each cell in one palace only"
            )
        if len({owner is None, roof is None, claim is None}) > 1 or (
            roof is not None and not buildings >> roof & 1
        ):
            self.fail(
                f"{entry!r}: a claimed palace has its owner, a roof on one of its buildings and its claim's "
                "number; an unclaimed one - for each"
            )
        if arms and owner is None:
            self.fail(f"{entry!r}: only a claimed palace connects to towers")

    def read(
        self, rules: Rules | Ruleset
    ) -> tuple[Rules, list[str], tuple[str, str | None], Plain, Turn]:
        """(rules, players, setup (the merchant's and the well's cell names), the plain data
        `Position.from_plain` takes, the turn)."""
        fields = self.text.split(" ") if isinstance(self.text, str) else []
        if len(fields) != len(FIELDS):
            self.fail(
                f"expected {len(FIELDS)} fields separated by single spaces ({' '.join(FIELDS)})"
            )
        values = dict(zip(FIELDS, fields, strict=True))
        self.field = "players"
        from urllib.parse import unquote

        players = [unquote(name) for name in values["players"].split(",")]
        if is_ruleset(rules):
            refusal = rules.players_refusal(len(players))
            if refusal is not None:
                self.fail(refusal)
            rules = rules.for_players(len(players))
        if rules.players != len(players):
            self.fail(f"{len(players)} players; these rules are for {rules.players}")
        from .variant import Variant

        self.variant = variant = Variant.of(rules)
        self.towers = tuple(sorted(variant.tower_of_cell.values()))
        seats = len(players)

        self.field = "setup"
        merchant, well = self.parts(values["setup"], 2, ".")
        setup = (
            merchant,
            None if well == "-" else well,
        )  # a merchant "-" is refused as no cell by `Game`

        self.field = "turn"
        numbers = self.numbers(values["turn"], 6, none=True)
        seat, state = numbers[0], [n for n in numbers[1:] if n is not None]
        if (seat is not None and seat >= seats) or len(state) < 5 or state[3] > 1 or state[4] > 1:
            self.fail(
                f"{values['turn']!r}: the seat to move (below {seats}) or -, three whole numbers, then 0 or 1 "
                "twice"
            )
        turn = (seat, state[0], state[1], state[2], bool(state[3]), bool(state[4]))

        self.field = "palaces"
        palaces = []
        taken = 0  # the cells of the palaces read so far
        for entry in [] if values["palaces"] == "-" else values["palaces"].split("/"):
            colour, buildings, stables, owner, roof, claim, arms = self.parts(entry, 7)
            if colour not in variant.colours:
                self.fail(
                    f"{colour!r} is not a colour of these rules ({', '.join(variant.colours)})"
                )
            palace = (
                colour,
                self.mask(buildings),
                self.mask(stables),
                NEUTRAL if owner == "n" else self.number(owner, seats, none=True),
                None if roof == "-" else self.cell(roof),
                self.number(claim, none=True),
                frozenset(self.arm(a) for a in ([] if arms == "-" else arms.split("."))),
            )
            self.check_palace(entry, palace, taken)
            taken |= palace[1] | palace[2]
            palaces.append(palace)

        self.field = "merchants"
        merchants, ends = self.parts(values["merchants"], 2)
        merchant_cells, chain_ends = self.mask(merchants), tuple(self.cells(ends))
        if len(chain_ends) != 2 or any(not (merchant_cells >> end) & 1 for end in chain_ends):
            self.fail(f"{ends!r}: the live chain's two ends, merchants of this field")
        if merchant_cells & ~variant.interior or merchant_cells & taken:
            self.fail(f"{merchants!r}: merchants stand inside the city, off the palaces")

        self.field = "walls"
        wall_arms, walls = [], 0
        for entry in [] if values["walls"] == "-" else values["walls"].split("."):
            cell, arm = self.parts(entry, 2, "@")
            wall_arms.append((self.cell(cell), *self.arm(arm)))
            if not (variant.ring & ~variant.towers & ~walls) >> wall_arms[-1][0] & 1:
                self.fail(f"{entry!r}: a wall stands on the wall ring, once, not on a tower")
            walls |= 1 << wall_arms[-1][0]

        self.field = "tiles"
        palace_words, tower_words, waiting_words = self.parts(values["tiles"], 3)
        palace_tiles = self.numbers(palace_words, len(variant.colours), len(palaces), none=True)
        tower_tiles = self.numbers(tower_words, len(self.towers), len(palaces), none=True)
        if any(
            i is not None and (palaces[i][0] != colour or palaces[i][3] is None)
            for colour, i in zip(variant.colours, palace_tiles, strict=True)
        ):
            self.fail(f"{palace_words!r}: a palace tile is held by a claimed palace of its colour")
        if any(i is not None and palaces[i][3] is None for i in tower_tiles):
            self.fail(f"{tower_words!r}: a tower tile is held by a claimed palace")
        waiting = self.numbers(waiting_words, len(self.towers), none=True)

        self.field = "supply"
        supply: list[tuple[int | None, ...]] = []
        tea: list[int | None] = []
        for entry in values["supply"].split("/"):
            counts, count = self.parts(entry, 2)
            supply.append(tuple(self.numbers(counts, len(variant.pieces))))
            tea.append(self.number(count))
        if len(supply) != seats:
            self.fail(f"{len(supply)} supplies for {seats} players")

        self.field = "retired"
        retired = [] if values["retired"] == "-" else values["retired"].split(".")
        if not set(retired) <= set(variant.colours):
            self.fail(
                f"{values['retired']!r}: colours of these rules ({', '.join(variant.colours)}) or -"
            )

        claimed = [colour for colour, _, _, owner, *_ in palaces if owner is not None]
        plain: Plain = {
            "players": tuple(players),
            "palaces": tuple(palaces),
            "merchants": merchant_cells,
            "walls": walls,
            "palace_tile": tuple(palace_tiles),
            "tower_tile": tuple(zip(self.towers, tower_tiles, strict=True)),
            "supply": tuple(supply),
            "tea": tuple(tea),
            "retired": tuple(retired),
            "chain_ends": chain_ends,
            "wall_arms": tuple(wall_arms),
            "tower_merchants": tuple(
                (t, n) for t, n in zip(self.towers, waiting, strict=True) if n is not None
            ),
            "claims": len(claimed),
            "tea_claims": sum(colour == rules.tea.colour for colour in claimed),
        }
        return rules, players, setup, plain, turn


def read(cls: type[Game], rules: Rules | Variant | Ruleset, text: str) -> Game:
    """The game (of class `cls`) a position text describes under `rules` (a `Rules` or its `Variant`, or a
    `Ruleset`: the text's players pick its `Rules`); ValueError naming the field for a text that is none."""
    from .variant import Variant  # at run time, as `_Reader.read` imports it

    reader = _Reader(text)
    rules, players, (merchant, well), plain, turn = reader.read(
        rules.rules if isinstance(rules, Variant) else rules
    )
    reader.field = "players, setup"
    try:
        game = cls(rules, players, merchant, well)
    except ValueError as refused:
        reader.fail(str(refused))
    game._set_plain({**plain, "well": game.well})
    (
        game.seat_to_move,
        game.turns_started,
        game.turn_placed,
        game.turn_slots,
        game.tea_used,
        game.forced,
    ) = turn
    game.placements_made = (
        sum(p.size for p in game.palaces)
        + plain["claims"]
        + game.walls.bit_count()
        + game.merchants.bit_count()
        - 1
    )  # every piece on the board but the start merchant
    game.events = []
    game._board_masks.clear()
    return game
