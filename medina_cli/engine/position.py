"""`Position`: the board as a value. What stands on each cell, the palaces with their owners, who
holds each tile, the supplies and tea tiles; what scoring, the pictures and board/1 files read.

A position is made by a game (`Game` is a position with its turn state and move stack), or from
plain data (`Position.from_plain`), as a board/1 file is read. Cells are a variant's cell numbers
(bit i of a mask is cell i; see `Variant`); owners and holders are seats, NEUTRAL or None.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .board import bits
from .events import NEUTRAL_HOLDER
from .variant import Variant

if TYPE_CHECKING:
    from ..rules.typed import Rules

NEUTRAL = -1  # the owner of a palace under a neutral roof, and the holder of its tiles


def holder_name(players: Sequence[str], owner: int | None) -> str | None:
    """A palace owner or tile holder by name: a player, "neutral", or None for nobody."""
    if owner is None:
        return None
    return NEUTRAL_HOLDER if owner == NEUTRAL else players[owner]


@dataclass(eq=False, slots=True)
class Palace:
    """A palace: its colour, its buildings and stables (masks), its owner (a seat, NEUTRAL, or None while
    unroofed), the cell of its roof and when it was claimed (0 for the first claim of the game)."""

    id: int
    colour: str
    buildings: int = 0
    stables: int = 0
    owner: int | None = None
    roof: int | None = None
    claim_order: int | None = None
    building_orth: int = 0  # cells orthogonally next to its buildings
    reach: int = 0  # cells within king distance 1 of its buildings and stables
    connected: frozenset[tuple[int, str]] = frozenset()  # (tower, axis) arms it has connected to

    @property
    def pieces(self) -> int:
        return self.buildings | self.stables

    @property
    def size(self) -> int:
        return self.buildings.bit_count() + self.stables.bit_count()

    def state(self) -> PalaceState:
        """Its fields, for `Palace(*state)`: a copy, or an undo entry."""
        return (
            self.id,
            self.colour,
            self.buildings,
            self.stables,
            self.owner,
            self.roof,
            self.claim_order,
            self.building_orth,
            self.reach,
            self.connected,
        )


# a palace's fields in order: id, colour, buildings, stables, owner, roof, claim_order, building_orth, reach, connected
PalaceState = tuple[
    int, str, int, int, int | None, int | None, int | None, int, int, frozenset[tuple[int, str]]
]
Plain = dict[str, Any]  # a position as plain data (`Position.to_plain`): its values of many kinds


class Position:
    """The board as a value: `palaces` (with owners), `merchants`, `walls` and `well`, who holds each
    tile (`palace_tile`, `tower_tile`: a Palace or None), the `supply` and `tea` tiles by seat (None
    where unknown, as on a board/1 file) and the `retired` colours, under `variant`'s rules."""

    def __init__(self, rules: Rules, players: Sequence[str]) -> None:
        """An empty board for `players` (every supply as the rules give it, no tea tiles)."""
        self.rules = rules
        self.variant = variant = Variant.of(rules)
        self._geo = variant.geometry
        self.players = list(players)
        self.palaces: list[Palace] = []
        self.merchants = self.walls = 0
        self.well: int | None = None
        self.well_bonus_cells = self._well_zone = 0
        self.palace_tile: dict[str, Palace | None] = dict.fromkeys(variant.colours)
        self.tower_tile: dict[int, Palace | None] = dict.fromkeys(
            sorted(variant.tower_of_cell.values())
        )
        self.supply: list[dict[str, int]] | None = [dict(variant.supply) for _ in players]
        self.tea: list[int] | None = [0] * len(players)
        self.retired: list[str] = []
        self._chain_ends: tuple[int, int] | None = (
            None  # the live merchant chain's first and last merchant
        )
        self._wall_arm: dict[
            int, tuple[int, str]
        ] = {}  # wall cell -> the (tower, axis) run it belongs to
        self._tower_merchants_left = dict(rules.towers.merchants)
        self._tea_claims = self._claims = 0
        self._index()

    def _index(self) -> None:
        """The position's indices (derived from its palaces and pieces), built afresh."""
        geo, variant = self._geo, self.variant
        self._buildings = dict.fromkeys(variant.colours, 0)
        self._open_palace: dict[str, Palace | None] = dict.fromkeys(variant.colours)
        self._palace_at: dict[int, Palace] = {}
        self._owned: list[set[str]] = [set() for _ in self.players]
        self._stables = self._roofed_buildings = self._reach_once = self._reach_twice = (
            self._building_orth
        ) = 0
        for palace in self.palaces:
            palace.building_orth = geo.orth(palace.buildings)
            palace.reach = geo.king(palace.pieces)
            self._buildings[palace.colour] |= palace.buildings
            self._stables |= palace.stables
            self._building_orth |= palace.building_orth
            self._reach_twice |= self._reach_once & palace.reach
            self._reach_once |= palace.reach
            self._palace_at.update((cell, palace) for cell in bits(palace.pieces))
            self._open_palace[palace.colour] = palace if palace.owner is None else None
            if palace.owner is not None:
                self._roofed_buildings |= palace.buildings
                if palace.owner != NEUTRAL:
                    self._owned[palace.owner].add(palace.colour)
        well = 0 if self.well is None else 1 << self.well
        self._occupied = self.merchants | well | self._stables | self._all_buildings()
        self._well_zone = geo.king(well) if well else 0
        self.well_bonus_cells = 0 if self.well is None else geo.straight_two(self.well)

    def _indices(self) -> tuple[object, ...]:
        """The indices, as plain data: equal for a position kept up to date move by move and for one
        built afresh from its plain data."""
        return (
            tuple(sorted((cell, p.id) for cell, p in self._palace_at.items())),
            tuple(None if p is None else p.id for p in self._open_palace.values()),
            tuple(tuple(sorted(colours)) for colours in self._owned),
            tuple(self._buildings.items()),
            tuple((p.building_orth, p.reach) for p in self.palaces),
            self._stables,
            self._occupied,
            self._roofed_buildings,
            self._reach_once,
            self._reach_twice,
            self._building_orth,
            self._well_zone,
            self.well_bonus_cells,
        )

    def _all_buildings(self) -> int:
        """Every building on the board."""
        total = 0
        for mask in self._buildings.values():
            total |= mask
        return total

    # --- what a position shows --------------------------------------------------------------------
    @property
    def to_move(self) -> str | None:
        """The player to move: None for a position alone (a game says who is to move)."""
        return None

    def live_chain_ends(self) -> int:
        """The live merchant chain's end cells (a mask): its first and last merchant, each while it
        touches at most one merchant; none where the position does not say (a board/1 file)."""
        if self._chain_ends is None:
            return 0
        orth_of, merchants = self._geo.orth_of, self.merchants
        ends = 0
        for end in self._chain_ends:
            if (orth_of[end] & merchants).bit_count() < 2:
                ends |= 1 << end
        return ends

    def _cell(self, cell: str | int) -> int:
        """The cell number of a cell's name or square number; ValueError for none of this board."""
        geo = self._geo
        number = geo.parse(cell) if isinstance(cell, str) else geo.cell_of_square.get(cell)
        if number is None:
            raise ValueError(f"{cell!r} is not a cell of this board ({geo.describe_extent()})")
        return number

    def palace_of(self, cell: str | int) -> Palace | None:
        """The palace whose building or stable stands on a cell (a name, or a square number); None."""
        return self._palace_at.get(self._cell(cell))

    def piece_at(self, cell: str | int) -> str | None:
        """What stands on a cell (a name, or a square number): a colour (a building), "stable",
        "merchant", "wall", "well" or "tower"; None where nothing does."""
        geo = self._geo
        number = self._cell(cell)
        bit = 1 << number
        palace = self._palace_at.get(number)
        if palace is not None:
            return palace.colour if palace.buildings & bit else "stable"
        for piece, mask in (
            ("merchant", self.merchants),
            ("wall", self.walls),
            ("tower", geo.towers),
        ):
            if mask & bit:
                return piece
        return "well" if number == self.well else None

    def __str__(self) -> str:
        return self.grid()

    def grid(self) -> str:
        """The board, north row first, a character a cell as in a board/1 file's grid: a building's colour
        letter, `s` stable, `m` merchant, `w` well, `#` wall, `T` tower, `.` nothing."""
        geo = self._geo
        glyph = dict.fromkeys(geo.tower_of_cell, "T")
        glyph.update((c, "#") for c in bits(self.walls))
        glyph.update((c, "m") for c in bits(self.merchants))
        if self.well is not None:
            glyph[self.well] = "w"
        letters = {c.name: c.letter for c in self.rules.colours}
        for palace in self.palaces:
            glyph.update((c, letters[palace.colour]) for c in bits(palace.buildings))
            glyph.update((c, "s") for c in bits(palace.stables))
        return "\n".join(
            " ".join(glyph.get(y * geo.width + x, ".") for x in range(geo.width))
            for y in range(geo.height - 1, -1, -1)
        )

    def __repr__(self) -> str:
        return f"<Position {self.rules.ruleset_id}, {', '.join(self.players)}: {len(self.palaces)} palaces>"

    def _repr_svg_(self) -> str:
        """A picture of the position, for notebooks. The SVG renderer sits above the engine: imported
        here, when a picture is drawn, and not before (python-chess's `_repr_svg_` imports `chess.svg`
        the same way)."""
        from ..render.svg import picture

        return picture(self)

    # --- as plain data ----------------------------------------------------------------------------
    def to_plain(self) -> Plain:
        """The position as plain data (ints, strings, tuples; None where unknown), as `from_plain` takes it:
        masks of cells, palaces in the order they were started, tile holders as palace indices, supplies
        in `variant.pieces` order."""
        index = {id(p): p.id for p in self.palaces}
        pieces = self.variant.pieces
        return {
            "players": tuple(self.players),
            "palaces": tuple(
                (
                    p.colour,
                    p.buildings,
                    p.stables,
                    p.owner,
                    p.roof,
                    p.claim_order,
                    tuple(sorted(p.connected)),
                )
                for p in self.palaces
            ),
            "merchants": self.merchants,
            "walls": self.walls,
            "well": self.well,
            "palace_tile": tuple(
                None if p is None else index[id(p)] for p in self.palace_tile.values()
            ),
            "tower_tile": tuple(
                (t, None if p is None else index[id(p)]) for t, p in self.tower_tile.items()
            ),
            "supply": None
            if self.supply is None
            else tuple(tuple(s[p] for p in pieces) for s in self.supply),
            "tea": None if self.tea is None else tuple(self.tea),
            "retired": tuple(self.retired),
            "chain_ends": self._chain_ends,
            "wall_arms": tuple(sorted((cell, *arm) for cell, arm in self._wall_arm.items())),
            "tower_merchants": tuple(sorted(self._tower_merchants_left.items())),
            "tea_claims": self._tea_claims,
            "claims": self._claims,
        }

    @classmethod
    def from_plain(cls, rules: Rules, plain: Plain) -> Position:
        """A position under `rules` from plain data as `to_plain` gives it (keys left out: as on an empty
        board; `supply`, `tea` and `chain_ends` None where unknown)."""
        position = cls.__new__(cls)
        Position.__init__(position, rules, plain["players"])
        position._set_plain(plain)
        return position

    def _set_plain(self, plain: Plain) -> None:
        self.palaces = [
            Palace(
                i, colour, buildings, stables, owner, roof, order, connected=frozenset(connected)
            )
            for i, (colour, buildings, stables, owner, roof, order, connected) in enumerate(
                plain.get("palaces", ())
            )
        ]
        self.merchants, self.walls = plain.get("merchants", 0), plain.get("walls", 0)
        self.well = plain.get("well")
        if "palace_tile" in plain:
            self.palace_tile = {
                c: None if i is None else self.palaces[i]
                for c, i in zip(self.palace_tile, plain["palace_tile"], strict=True)
            }
        for tower, i in plain.get("tower_tile", ()):
            self.tower_tile[tower] = None if i is None else self.palaces[i]
        if "supply" in plain:
            supply, pieces = plain["supply"], self.variant.pieces
            self.supply = (
                None
                if supply is None
                else [dict(zip(pieces, counts, strict=True)) for counts in supply]
            )
        if "tea" in plain:
            self.tea = None if plain["tea"] is None else list(plain["tea"])
        self.retired = list(plain.get("retired", ()))
        self._chain_ends = plain.get("chain_ends")
        self._wall_arm = {cell: (tower, axis) for cell, tower, axis in plain.get("wall_arms", ())}
        if "tower_merchants" in plain:
            self._tower_merchants_left = dict(plain["tower_merchants"])
        self._tea_claims, self._claims = plain.get("tea_claims", 0), plain.get("claims", 0)
        self._index()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return self.rules == other.rules and self.to_plain() == other.to_plain()

    __hash__ = None  # type: ignore[assignment]  # a position changes as a game goes on (typeshed: no unhashable type)
