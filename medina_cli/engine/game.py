"""The Medina engine: position, legal-placement generator, turns, tiles, colour retirement.

`Game.legal_masks()` is the single source of truth: a placement is legal iff its cell is set in the
mask of its piece. Validation (`Game.push`) and simulation both draw from it. A piece's mask is the
AND of its constraint layers (`constraints.py`), the rules written once; `explain` names the layer
that refuses a placement. Every edition difference comes from the `Rules` object.

Every push records how to undo itself (`pop`): a frame with the position's scalar fields as one tuple
(`_scalars`, put back by `_restore`), and a log of the container entries it changed, each naming its
container and key (palaces by id), so that a `copy()` can share the log with its original.

Placements come in and go out as `Placement` values (or text); the variant converts them to and from
move codes (`Variant.encode`, `Variant.decode`), the engine plays (piece, cell) pairs.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

from . import position_text
from .board import bits, lowest_cell
from .events import Event
from .placement import TEA, TEA_PLACEMENT, IllegalPlacement, Placement
from .position import NEUTRAL, Palace, Plain, Position, holder_name
from .position_text import PositionKey
from .scoring import Outcome, outcome_of
from .variant import MOST_SUPPLIED, is_ruleset

if TYPE_CHECKING:
    from ..rules.loader import Ruleset
    from ..rules.typed import Rules
    from .variant import Variant

_Key = TypeVar("_Key")
# an undo entry: the container it changed, the key in it (a palace by id), then the old values
LogEntry = tuple[Any, ...]
# a push as `Game._begin` saves it: the `_Frame` fields
FrameTuple = tuple[str, int | None, int, tuple[Any, ...], int, int, int, int]


class _MaskCache(dict[object, int]):
    """piece -> board mask of a game: the AND of its board layers, the cells it may go on whoever
    places it. Computed on first lookup and kept until a placement changes it (see `_place`). It
    refers to its game weakly: no reference cycle, so a dropped game is freed at once rather than
    by the garbage collector."""

    def __init__(self, game: Game) -> None:
        super().__init__()
        self.game = weakref.ref(game)

    def __missing__(self, piece: str) -> int:
        game = self.game()
        assert (
            game is not None
        )  # the cache is its game's `_board_masks`: looked up, the game is alive
        cells = self[piece] = game._boards[piece](game, piece, None)
        return cells


class _Frame(NamedTuple):
    """What one push needs to be undone (built as a plain tuple by `Game._begin`: it is quicker)."""

    piece: str  # the piece placed, or "tea"
    cell: int | None
    seat: int
    scalars: tuple[Any, ...]  # `Game._scalars()` before the push: turn_placed and tea_used first
    events: int  # lengths of the append-only lists before the push
    palaces: int
    retired: int
    log: int  # entries of the undo log before the push


class Game(Position):
    """A game in progress: `Game(rules, ["Anna", "Ben", "Cleo"], merchant="K7")` (2014: `well="F5"`), a
    position with its turn state and its move stack. `rules` is a `Rules` or a `Ruleset` (then for as
    many players as are named); cells are names or square numbers. The first player starts. Seats are
    indices into `players`."""

    # a game knows every supply and tea count and the live merchant chain (a board/1 position may not)
    supply: list[dict[str, int]]
    tea: list[int]
    _chain_ends: tuple[int, int]

    def __init__(
        self,
        rules: Rules | Ruleset,
        players: list[str],
        merchant: str | int,
        well: str | int | None = None,
        supply: dict[str, dict[str, int]] | None = None,
    ) -> None:
        """`supply`: player -> {piece: count} where a player starts otherwise than the ruleset says."""
        rules = self._rules_for(rules, players)
        if len(players) != rules.players or len(set(players)) != len(players):
            raise ValueError(
                f"players {list(players)}: these rules are for {rules.players} distinct players"
            )
        Position.__init__(self, rules, players)
        variant = self.variant
        self._boards, self._seat_functions, self._cheap_first = (
            variant._board_functions,
            variant._seat_functions,
            variant._cheap_first,
        )  # the generator's, at hand
        merchant = self._setup_cell(merchant, "merchant")
        if rules.well.enabled != (well is not None):
            raise ValueError(
                f"{rules.ruleset_id} places a well at setup: give well=CELL"
                if rules.well.enabled
                else f"well {well!r}: {rules.ruleset_id} has no well"
            )
        well = None if well is None else self._setup_cell(well, "well")
        for _, words in self._geo.setup_refusals(
            {"merchant": merchant} | ({} if well is None else {"well": well})
        ):
            raise ValueError(words)  # as a record of this setup is refused
        self.start_supply = self._checked_supply(supply or {})
        for name, counts in self.start_supply.items():
            self.supply[self.players.index(name)].update(counts)
        self._start_merchant = merchant
        self.merchants = 1 << merchant
        self._chain_ends = (merchant, merchant)
        self.well = well
        self._index()  # the well's zone and bonus cells, the occupied cells
        self.events: list[Event] = []
        self.placements_made = 0
        self._board_masks = _MaskCache(self)  # piece -> the cells its board layers allow
        # turn state
        self.turns_started = 0
        self.turn_placed = 0
        self.turn_slots = 0
        self.tea_used = False
        self.forced = False  # this turn must still include one of the player's roofs
        last_seat = len(self.players) - 1  # so that the first seat that can place starts
        self.seat_to_move: int | None = last_seat
        self._frames: list[FrameTuple] = []  # one per push, for pop
        self._log: list[LogEntry] = []  # undo entries of every push, oldest first
        self._end_turn(last_seat)

    def _setup_cell(self, cell: str | int, what: str) -> int:
        geo = self._geo
        number = geo.parse(cell) if isinstance(cell, str) else geo.cell_of_square.get(cell)
        if number is None:
            raise ValueError(f"{what} {cell!r}: not a cell of this board ({geo.describe_extent()})")
        return number

    # --- the public surface ---------------------------------------------------------------------
    @property
    def to_move(self) -> str | None:
        """The name of the player to move; None once the game is over."""
        seat = self.seat_to_move
        return None if seat is None else self.players[seat]

    @property
    def setup(self) -> dict[str, str | None]:
        """The start merchant's and the well's cells by name: {"merchant": "K7", "well": None}."""
        name = self._geo.name
        return {
            "merchant": name(self._start_merchant),
            "well": None if self.well is None else name(self.well),
        }

    def is_over(self) -> bool:
        """Nobody can place anything any more."""
        return self.seat_to_move is None

    def legal_placements(self) -> list[Placement]:
        """Every legal placement for the player to move, in piece order then cell order, and
        `Placement("tea")` last where a tea tile may replace a placement."""
        return self._placements(self.legal_masks())

    def _placements(self, masks: list[tuple[str, int]]) -> list[Placement]:
        """The placements of (piece, cells) pairs, in order, and tea last where it may replace one."""
        on = self.variant.placements_on
        out = [placement for piece, cells in masks for placement in on(piece, cells)]
        if self.can_tea():
            out.append(TEA_PLACEMENT)
        return out

    def push(self, placement: str | Placement) -> None:
        """Make a placement (`"grey K8"`, `"tea"` or a Placement) for the player to move. Raises
        IllegalPlacement (with its `code` and the rule in words) and leaves the game unchanged if
        the rules refuse it."""
        variant = self.variant
        piece, cell = variant.piece_and_cell(variant.encode(placement))
        if cell is not None:
            self._play(piece, cell)
        elif piece == TEA:
            self._use_tea()
        elif self.seat_to_move is None:
            raise IllegalPlacement("game-over", "the game has already ended")
        else:
            raise IllegalPlacement(
                "pass-while-able", f"{self.to_move} passes but has a legal placement"
            )

    @property
    def move_stack(self) -> list[Placement]:
        """The placements pushed so far, oldest first."""
        return [self._placement_of(piece, cell) for piece, cell, *_ in self._frames]

    def _placement_of(self, piece: str, cell: int | None) -> Placement:
        """The Placement of an engine (piece, cell), or tea (cell None)."""
        return self.variant.decode(self.variant.code(piece, cell))

    def pop(self) -> Placement:
        """Undo the last push exactly (supplies, tiles, retirements, tower merchants, tea, events, the
        turn) and return it. Raises IndexError when nothing was pushed."""
        if not self._frames:
            raise IndexError("pop from an empty move stack")
        frame = _Frame._make(self._frames.pop())
        log = self._log
        for entry in reversed(log[frame.log :]):
            self._undo(entry)
        del log[frame.log :]
        if frame.cell is not None:
            self.supply[frame.seat][frame.piece] += 1
        del self.events[frame.events :]
        del self.palaces[frame.palaces :]
        del self.retired[frame.retired :]
        self._restore(frame.scalars)
        self._board_masks.clear()
        return self._placement_of(frame.piece, frame.cell)

    def _scalars(self) -> tuple[Any, ...]:
        """The position's scalar fields, as a push saves them for `_restore` (the turn's first)."""
        return (
            self.turn_placed,
            self.tea_used,
            self.seat_to_move,
            self.turn_slots,
            self.turns_started,
            self.forced,
            self.placements_made,
            self._stables,
            self.merchants,
            self.walls,
            self._occupied,
            self._roofed_buildings,
            self._reach_once,
            self._reach_twice,
            self._building_orth,
            self._chain_ends,
            self._tea_claims,
            self._claims,
        )

    def _restore(self, scalars: tuple[Any, ...]) -> None:
        """Put back the scalar fields `_scalars` saved."""
        (
            self.turn_placed,
            self.tea_used,
            self.seat_to_move,
            self.turn_slots,
            self.turns_started,
            self.forced,
            self.placements_made,
            self._stables,
            self.merchants,
            self.walls,
            self._occupied,
            self._roofed_buildings,
            self._reach_once,
            self._reach_twice,
            self._building_orth,
            self._chain_ends,
            self._tea_claims,
            self._claims,
        ) = scalars

    def _undo(self, entry: LogEntry) -> None:
        """Undo one entry of the log: the entry names its container (and the palace by id)."""
        what, key, *old = entry
        if what == "palace":
            palace = self.palaces[key]
            (
                palace.buildings,
                palace.stables,
                palace.owner,
                palace.roof,
                palace.claim_order,
                palace.building_orth,
                palace.reach,
                palace.connected,
            ) = old
        elif what == "_palace_at":
            del self._palace_at[key]
        elif what == "_buildings":
            self._buildings[key] = old[0]
        elif what == "_open_palace":
            self._open_palace[key] = self._palace_or_none(old[0])
        elif what == "supply":
            self.supply[key][old[0]] = old[1]
        elif what == "tea":
            self.tea[key] = old[0]
        elif what == "owned":
            self._owned[key].discard(old[0])
        elif what == "_wall_arm":
            del self._wall_arm[key]
        elif what == "palace_tile":
            self.palace_tile[key] = self._palace_or_none(old[0])
        elif what == "tower_tile":
            self.tower_tile[key] = self._palace_or_none(old[0])
        else:  # _tower_merchants_left
            self._tower_merchants_left[key] = old[0]

    def _palace_or_none(self, palace_id: int | None) -> Palace | None:
        return None if palace_id is None else self.palaces[palace_id]

    def copy(self) -> Game:
        """An independent game in the same position, with the same move stack (it can pop too)."""
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new.players = list(self.players)
        new.supply = [dict(s) for s in self.supply]
        new.tea = list(self.tea)
        new._owned = [set(o) for o in self._owned]
        new._buildings = dict(self._buildings)
        new.palaces = palaces = [Palace(*p.state()) for p in self.palaces]
        new._palace_at = {cell: palaces[p.id] for cell, p in self._palace_at.items()}
        new._open_palace, new.palace_tile, new.tower_tile = (
            _rebound(self._open_palace, palaces),
            _rebound(self.palace_tile, palaces),
            _rebound(self.tower_tile, palaces),
        )
        new._wall_arm = dict(self._wall_arm)
        new._tower_merchants_left = dict(self._tower_merchants_left)
        new.retired = list(self.retired)
        new.events = list(self.events)
        new._board_masks = _MaskCache(new)
        new._board_masks.update(self._board_masks)
        new._frames = list(self._frames)
        new._log = list(self._log)
        return new

    def to_plain(self) -> Plain:
        """The position as plain data (`Position.to_plain`), with the turn state: the seat to move
        (None once the game is over), turns started, placements and tea tiles of the turn so far and
        the placements it allows, whether a roof is due, placements made in the game."""
        return {
            **Position.to_plain(self),
            "turn": (
                self.seat_to_move,
                self.turns_started,
                self.turn_placed,
                self.tea_used,
                self.turn_slots,
                self.forced,
                self.placements_made,
            ),
        }

    def to_text(self) -> str:
        """The position and turn on one line, as `Game.from_text` reads it (`engine.position_text` says
        how): equal positions give equal texts, whatever order their placements came in."""
        return position_text.write(self)

    @classmethod
    def from_text(cls, rules: Rules | Variant | Ruleset, text: str) -> Game:
        """The game a `to_text()` line describes under `rules` (a `Rules`, its `Variant`, or a `Ruleset`:
        the text's players pick its `Rules`): it plays on as the game the text came from, with an empty
        move stack, no events and no start supply. ValueError naming the field for a text that is none."""
        return position_text.read(cls, rules, text)

    def key(self) -> PositionKey:
        """The position and turn as a hashable value (a transposition key): equal for games that stand
        alike, whatever order their placements came in; the history (moves, events, setup) aside."""
        return position_text.key(self)

    def __eq__(self, other: object) -> bool:
        """The same position and turn state, reached by the same placements, with the same events."""
        if not isinstance(other, Game):
            return NotImplemented
        return (
            Position.__eq__(self, other)
            and self._indices() == other._indices()
            and self._frames_key() == other._frames_key()
            and self.events == other.events
            and self.setup == other.setup
            and self.start_supply == other.start_supply
        )

    __hash__ = None

    def _frames_key(self) -> list[tuple[str, int | None, int]]:
        return [(piece, cell, seat) for piece, cell, seat, *_ in self._frames]

    def __repr__(self) -> str:
        """`Game.from_text(load_ruleset(REF), TEXT)`, which gives this position back (rules with overrides,
        which no reference names, as `<ID with overrides>`)."""
        ref = self.rules.record_ref
        rules = f"load_ruleset({ref!r})" if ref else f"<{self.rules.ruleset_id} with overrides>"
        return f"Game.from_text({rules}, {self.to_text()!r})"

    def to_record(self, ruleset: str | None = None) -> str:
        """The game so far as record/1 text (with its `result` once it is over), naming the ruleset as
        `ruleset` says, else by its built-in id or its file's absolute path (`rules.record_ref`).
        Raises ValueError for rules with overrides and no `ruleset`: a record cannot name overrides."""
        ref = ruleset or self.rules.record_ref
        if ref is None:
            raise ValueError(
                f"{self.rules.ruleset_id} with overrides: a record names a ruleset, not overrides; "
                "give to_record(ruleset=PATH) a ruleset file that holds them"
            )
        # the record writer sits above the engine: imported when used
        from ..records.model import game_record

        return game_record(self, ref)

    def turns(self) -> list[tuple[str, list[Placement]]]:
        """The move stack turn by turn: (player, the placements of his turn), oldest first."""
        turns: list[tuple[str, list[Placement]]] = []
        for frame in map(_Frame._make, self._frames):
            turn_placed, tea_used = frame.scalars[:2]
            if not turns or (turn_placed == 0 and not tea_used):
                turns.append((self.players[frame.seat], []))
            turns[-1][1].append(self._placement_of(frame.piece, frame.cell))
        return turns

    # --- names ----------------------------------------------------------------------------------
    def _owner_name(self, owner: int | None) -> str | None:
        """A palace owner (or tile holder) as named in events: a player, "neutral", or None."""
        return holder_name(self.players, owner)

    def _player(self, owner: int | None) -> str | None:
        """The player's name; None for nobody and for the neutral side."""
        return None if owner is None or owner == NEUTRAL else self.players[owner]

    # --- distinct moves ------------------------------------------------------------------------
    # A roof (or neutral roof) claims its palace whole: which of its buildings carries it changes
    # nothing but the cell a record names. These give each such move once, on the palace's lowest cell.
    def equivalent_placements(self, placement: str | Placement) -> list[Placement]:
        """The placements that make the same move as `placement`: for a roof or neutral roof on a
        building of an unroofed palace, that piece on each of the palace's buildings in cell order
        (the first is the one `distinct_placements()` lists); for any other placement, just it."""
        variant = self.variant
        code = variant.encode(placement)
        piece, cell = variant.piece_and_cell(code)
        palace = (
            self._palace_at.get(cell) if piece in ("roof", "neutral") and cell is not None else None
        )
        if (
            cell is None
            or palace is None
            or palace.owner is not None
            or not (palace.buildings >> cell) & 1
        ):
            return [variant.decode(code)]
        return [self._placement_of(piece, c) for c in bits(palace.buildings)]

    def _distinct_masks(self) -> list[tuple[str, int]]:
        """`legal_masks()` with each move once: a roof or neutral roof only on each palace's lowest cell."""
        return [
            (piece, self._lowest_of_each_palace(cells) if piece in ("roof", "neutral") else cells)
            for piece, cells in self.legal_masks()
        ]

    def distinct_placements(self) -> list[Placement]:
        """`legal_placements()` with each move once: a roof or neutral roof only on each palace's lowest cell."""
        return self._placements(self._distinct_masks())

    def _lowest_of_each_palace(self, cells: int) -> int:
        """The lowest cell of each palace whose buildings make up `cells`."""
        out = 0
        while cells:
            low = cells & -cells
            out |= low
            cells &= ~self._palace_at[low.bit_length() - 1].buildings
        return out

    # --- the generator -------------------------------------------------------------------------
    def _piece_mask(self, seat: int, piece: str) -> int:
        """Cells where `seat` may place `piece` now (all its layers: the board's, the player's supply
        and colours), ignoring turn restrictions (forced roofs)."""
        if not self.supply[seat][piece]:  # the Held rule
            return 0
        cells, per_seat = self._board_masks[piece], self.variant._seat_function_of[piece]
        return cells & per_seat(self, piece, seat) if cells and per_seat is not None else cells

    def _piece_masks(self, seat: int) -> list[tuple[str, int]]:
        """(piece, cells) for every piece `seat` holds (the `Held` rule) that can legally be placed now
        (its other layers: the board's, cached per position, and the player's own)."""
        supply, boards, out = self.supply[seat], self._board_masks, []
        for piece, per_seat in self._seat_functions:
            if supply[piece]:
                cells = boards[piece]
                if cells and per_seat is not None:
                    cells &= per_seat(self, piece, seat)
                if cells:
                    out.append((piece, cells))
        return out

    def can_place(self, seat: int) -> bool:
        """Has the player in `seat` anything he may place now? IndexError for a seat the game does not have."""
        if not 0 <= seat < len(self.players):
            raise IndexError(
                f"seat {seat!r}: the seats of this game are 0 to {len(self.players) - 1}"
            )
        supply, boards = self.supply[seat], self._board_masks
        for piece, per_seat in self._cheap_first:
            if supply[piece]:
                cells = boards[piece]
                if cells and (per_seat is None or cells & per_seat(self, piece, seat)):
                    return True
        return False

    def legal_masks(self) -> list[tuple[str, int]]:
        """(piece, cells) legal for the player to move at this point of the turn."""
        if self.seat_to_move is None:
            return []
        masks = self._piece_masks(self.seat_to_move)
        return self._forced_roof_filter(masks, self.seat_to_move) if self.forced else masks

    def _forced_roof_filter(self, masks: list[tuple[str, int]], seat: int) -> list[tuple[str, int]]:
        """Keep only placements that let this turn include one of the player's roofs.

        A roof stays legal after any other placement except a neutral roof on its last target; a
        roof becomes legal after a building of a colour the player does not own yet.
        """
        roof = next((m for piece, m in masks if piece == "roof"), 0)
        if self.turn_placed or self.tea_used or self.turn_slots == 1:
            return [("roof", roof)] if roof else masks
        if not roof:
            owned = self._owned[seat]
            return [
                (piece, m) for piece, m in masks if piece in self._buildings and piece not in owned
            ]
        out = []
        for piece, cells in masks:
            if piece == "neutral":
                cells = sum(1 << c for c in bits(cells) if roof & ~self._palace_at[c].buildings)
                if not cells:
                    continue
            out.append((piece, cells))
        return out

    def _is_legal(self, piece: str, cell: int) -> bool:
        if self.seat_to_move is None or piece not in self.supply[self.seat_to_move]:
            return False
        if self.forced:
            return any(p == piece and (m >> cell) & 1 for p, m in self.legal_masks())
        return bool((self._piece_mask(self.seat_to_move, piece) >> cell) & 1)

    def can_tea(self) -> bool:
        """May the player to move discard a tea tile now instead of a placement?"""
        seat = self.seat_to_move
        if seat is None or not self.tea[seat] or self.tea_used or self.turn_slots < 2:
            return False
        if self.turn_placed == 0:
            return self.rules.tea.replaces == "either_placement" and (
                not self.forced or any(p == "roof" for p, _ in self.legal_masks())
            )
        return self.turn_placed < self.turn_slots and not self.forced

    # --- playing -------------------------------------------------------------------------------
    def _play(self, piece: str, cell: int) -> None:
        """`push` for a canonical piece name and an engine cell number (the readers' fast path)."""
        if self.seat_to_move is None:
            raise IllegalPlacement("game-over", "the game has already ended")
        if not self._is_legal(piece, cell):
            from .explain import explain

            refusal = explain(self, piece, cell)
            assert refusal is not None  # `_is_legal` refused it
            raise IllegalPlacement(*refusal)
        self._begin(piece, cell, self.seat_to_move)
        self._place(self.seat_to_move, piece, cell)
        self.turn_placed += 1
        if piece == "roof":
            self.forced = False
        elif (
            self.turn_placed == 1
            and self.variant._roof_checked_after_first
            and not (piece == "neutral" and self.rules.turns.neutral_spares_forced_roof)
        ):
            self._force_second_roof(self.seat_to_move)
        if self.turn_made >= self.turn_slots or not (
            self.legal_masks() if self.forced else self._can_go_on(self.seat_to_move)
        ):
            self._end_turn(self.seat_to_move)

    def _can_go_on(self, seat: int) -> bool:
        """After a placement: has `seat` anything left to do this turn? A piece that fits, or (where
        the ruleset counts it) a tea tile, which must then be used."""
        return self.can_place(seat) or bool(
            self.rules.tea.keeps_turn_open and self.tea[seat] and not self.tea_used
        )

    def _use_tea(self) -> None:
        """`push("tea")`."""
        if not self.can_tea():
            raise IllegalPlacement("tea-not-allowed", self._tea_refusal())
        seat = self.seat_to_move
        assert seat is not None  # `can_tea` allowed it: a player is to move
        self._begin(TEA, None, seat)
        self._log.append(("tea", seat, self.tea[seat]))
        self.tea[seat] -= 1
        self.tea_used = True
        self.events.append(Event("tea", self.players[seat], reason="used", count=1))
        if self.turn_placed:
            self._end_turn(seat)

    def _tea_refusal(self) -> str:
        seat = self.seat_to_move
        if seat is None:
            return "the game has already ended"
        if not self.rules.tea.colour:
            return "this ruleset has no tea tiles"
        if not self.tea[seat]:
            return f"{self.players[seat]} holds no tea tile"
        if self.tea_used:
            return "only one tea tile may be used per turn"
        if not self.turn_placed and self.rules.tea.replaces == "second_placement":
            return "a tea tile may replace only the second placement of a turn"
        if self.turn_slots < 2:
            return "no tea tile in an opening single-placement turn"
        if self.forced:
            return "a roof is due this turn; a tea tile cannot replace it"
        return "a tea tile must replace a placement that could still be made"

    def _begin(self, piece: str, cell: int | None, seat: int) -> None:
        """Record what the push about to be made (by `seat`) needs for `pop`."""
        self._frames.append(
            (
                piece,
                cell,
                seat,
                self._scalars(),
                len(self.events),
                len(self.palaces),
                len(self.retired),
                len(self._log),
            )
        )

    def _touch(self, palace: Palace) -> None:
        """Log a palace's fields before this push changes them."""
        self._log.append(
            (
                "palace",
                palace.id,
                palace.buildings,
                palace.stables,
                palace.owner,
                palace.roof,
                palace.claim_order,
                palace.building_orth,
                palace.reach,
                palace.connected,
            )
        )

    def turn_open(self) -> bool:
        """True while the player to move has begun a turn (placed or used tea) and may go on."""
        return self.seat_to_move is not None and (self.turn_placed > 0 or self.tea_used)

    @property
    def turn_made(self) -> int:
        """The placements made in the turn so far, a tea tile used counted as one."""
        return self.turn_placed + self.tea_used

    @property
    def turn_left(self) -> int:
        """The placements the turn still allows at most, a tea tile counted as one (the turn ends sooner
        if nothing else fits); 0 once the game is over."""
        return 0 if self.seat_to_move is None else self.turn_slots - self.turn_made

    # --- turn sequence -------------------------------------------------------------------------
    def _start_turn(self, seat: int) -> None:
        self.seat_to_move = seat
        self.turn_placed = 0
        self.tea_used = False
        single = self.turns_started < self.rules.turns.opening_single
        self.turn_slots = 1 if single else self.rules.turns.placements
        self.turns_started += 1
        self.forced = (
            not self.variant._roof_checked_after_first
            and self._forced_trigger(seat)
            and self._roof_reachable(seat)
        )
        if self.forced:
            self._announce_forced_roof(seat)

    def _announce_forced_roof(self, seat: int) -> None:
        self.events.append(Event("forced-roof", self.players[seat]))

    def _force_second_roof(self, seat: int) -> None:
        """After a first piece that was not his roof: the second must be one of the player's roofs
        if one is legal now and the ruleset's trigger (`turns.forced_roof`) holds."""
        if self.turn_left and self._piece_mask(seat, "roof") and self._forced_trigger(seat):
            self.forced = True
            self._announce_forced_roof(seat)

    def _roof_reachable(self, seat: int) -> bool:
        """Does some legal turn include one of the player's roofs? (Now, or after a building of a
        colour he does not own yet, which makes a new roof target.)"""
        masks = self._piece_masks(seat)
        if any(piece == "roof" for piece, _ in masks):
            return True
        return (
            self.turn_slots > 1
            and self.supply[seat]["roof"] > 0
            and any(
                piece in self._buildings and piece not in self._owned[seat] for piece, _ in masks
            )
        )

    def _forced_trigger(self, seat: int) -> bool:
        """Does the ruleset's forced roof (`turns.forced_roof`) hold for `seat` now?"""
        trigger = self.variant._forced_roof
        return trigger is not None and trigger[0](self, seat)

    def _end_turn(self, seat: int) -> None:
        """After `seat`'s turn: the next seat that can place starts its turn; if none can, the game ends."""
        n = len(self.players)
        for step in range(1, n + 1):
            nxt = (seat + step) % n
            if self.can_place(nxt):
                self._start_turn(nxt)
                return
            if step < n:
                self.events.append(Event("pass", self.players[nxt]))
        self.seat_to_move = None
        self.events.append(Event("game-end"))

    # --- applying a placement ------------------------------------------------------------------
    def _place(self, seat: int, piece: str, cell: int) -> None:
        self.supply[seat][piece] -= 1
        self.placements_made += 1
        if piece in self._buildings:
            self._place_building(piece, cell)
        elif piece in ("roof", "neutral"):
            self._claim(self._palace_at[cell], seat if piece == "roof" else NEUTRAL, cell)
        elif piece == "stable":
            self._place_stable(cell)
        elif piece == "merchant":
            self._place_merchant(cell)
        else:
            self._place_wall(cell)
        # walls and interior pieces never constrain each other: a wall changes the wall mask only,
        # any other piece every mask but the wall's
        masks = self._board_masks
        if piece == "wall":
            masks.pop("wall", None)
        else:
            wall_mask = masks.get("wall")
            masks.clear()
            if wall_mask is not None:
                masks["wall"] = wall_mask
        if piece in self.variant._retirement_checks:
            self._check_retirement(piece)

    def _grow(self, palace: Palace, cell: int) -> None:
        """The palace (logged by the caller) takes `cell`."""
        new_reach = self._geo.king_of[cell] & ~palace.reach
        palace.reach |= new_reach
        self._reach_twice |= self._reach_once & new_reach
        self._reach_once |= new_reach
        self._log.append(("_palace_at", cell))
        self._palace_at[cell] = palace

    def _place_building(self, colour: str, cell: int) -> None:
        bit = 1 << cell
        palace = self._open_palace[colour]
        log = self._log
        if palace is None or not palace.building_orth & bit:
            log.append(("_open_palace", colour, None if palace is None else palace.id))
            palace = Palace(len(self.palaces), colour)
            self.palaces.append(palace)
            self._open_palace[colour] = palace
        else:
            self._touch(palace)
        palace.buildings |= bit
        orth = self._geo.orth_of[cell]
        palace.building_orth |= orth
        self._building_orth |= orth
        log.append(("_buildings", colour, self._buildings[colour]))
        self._buildings[colour] |= bit
        self._occupied |= bit
        self._grow(palace, cell)

    def _claim(self, palace: Palace, owner: int, cell: int) -> None:
        self._touch(palace)
        palace.owner = owner
        palace.roof = cell
        palace.claim_order = self._claims
        self._claims += 1
        self._roofed_buildings |= palace.buildings
        if self._open_palace[palace.colour] is palace:
            self._log.append(("_open_palace", palace.colour, palace.id))
            self._open_palace[palace.colour] = None
        if owner != NEUTRAL:
            self._log.append(("owned", owner, palace.colour))
            self._owned[owner].add(palace.colour)
        self.events.append(
            Event(
                "claim",
                self._player(owner),
                self._owner_name(owner),
                palace.colour,
                self._geo.name(cell),
                palace.size,
            )
        )
        self._palace_tile_check(palace)
        self._tea_award(palace)
        self._connect_walls(palace, self._geo.orth(palace.pieces) & self.walls)

    def _place_stable(self, cell: int) -> None:
        bit = 1 << cell
        palace = self._palace_at[lowest_cell(self._geo.orth_of[cell] & self._all_buildings())]
        self._touch(palace)
        palace.stables |= bit
        self._stables |= bit
        self._occupied |= bit
        self._grow(palace, cell)
        if palace.owner is not None:
            self._palace_tile_check(palace)
            walls = self._geo.orth_of[cell] & self.walls
            self._connect_walls(palace, self._stable_contact(cell, walls))
            palace.connected |= {
                self._wall_arm[wall] for wall in bits(walls)
            }  # every wall it touches

    def _stable_contact(self, cell: int, walls: int) -> int:
        """The walls a new stable next to `walls` connects through (`towers.stable_contact`)."""
        if self.rules.towers.stable_contact == "every_wall" or walls & (walls - 1) == 0:
            return walls
        width = self._geo.width
        return next(
            1 << (cell + step) for step in (width, -1, -width, 1) if walls >> (cell + step) & 1
        )

    def _place_merchant(self, cell: int) -> None:
        bit = 1 << cell
        first, last = self._chain_ends
        ends = (
            self.live_chain_ends()
        )  # the generator's ends: a merchant next to one extends the chain
        if self._geo.orth_of[cell] & ends and not self._geo.orth_of[cell] & self.merchants & ~ends:
            if first == last:
                self._chain_ends = (first, cell)
            elif self._geo.orth_of[cell] & (1 << first):
                self._chain_ends = (cell, last)
            else:
                self._chain_ends = (first, cell)
        else:
            self._chain_ends = (cell, cell)
        self.merchants |= bit
        self._occupied |= bit

    def _place_wall(self, cell: int) -> None:
        geo = self._geo
        anchor = lowest_cell(geo.orth_of[cell] & (self.walls | geo.towers))
        if anchor in geo.tower_of_cell:
            axis = "h" if abs(anchor - cell) == 1 else "v"
            arm = (geo.tower_of_cell[anchor], axis)
        else:
            arm = self._wall_arm[anchor]
        self._log.append(("_wall_arm", cell))
        self._wall_arm[cell] = arm
        self.walls |= 1 << cell
        palace = self._palace_at.get(geo.inner_of[cell])
        if palace is not None and palace.owner is not None:
            self._connect(palace, arm[0], {arm})

    # --- tiles ---------------------------------------------------------------------------------
    def _palace_tile_check(self, palace: Palace) -> None:
        holder = self.palace_tile[palace.colour]
        if holder is palace or (holder is not None and palace.size <= holder.size):
            return
        self._log.append(("palace_tile", palace.colour, None if holder is None else holder.id))
        self.palace_tile[palace.colour] = palace
        self.events.append(
            Event(
                "palace-tile",
                self._player(palace.owner),
                self._owner_name(palace.owner),
                palace.colour,
                size=palace.size,
                tile=palace.colour,
                previous=None if holder is None else self._owner_name(holder.owner),
            )
        )

    def _tea_award(self, palace: Palace) -> None:
        if palace.colour != self.rules.tea.colour:
            return
        awards = self.rules.tea.awards
        award = awards[self._tea_claims] if self._tea_claims < len(awards) else 0
        self._tea_claims += 1
        if not award:
            return
        owner = palace.owner
        assert owner is not None  # only a claim awards tea
        if owner != NEUTRAL:
            self._log.append(("tea", owner, self.tea[owner]))
            self.tea[owner] += award
        self.events.append(
            Event(
                "tea",
                self._player(palace.owner),
                self._owner_name(palace.owner),
                count=award,
                reason="awarded",
            )
        )

    def _connect_walls(self, palace: Palace, walls: int) -> None:
        arms_by_tower: dict[int, set[tuple[int, str]]] = {}
        for wall in bits(walls):
            arm = self._wall_arm[wall]
            arms_by_tower.setdefault(arm[0], set()).add(arm)
        for tower in sorted(arms_by_tower):
            self._connect(palace, tower, arms_by_tower[tower])

    def _connect(self, palace: Palace, tower: int, arms: set[tuple[int, str]]) -> None:
        assert (
            palace.owner is not None and palace.roof is not None
        )  # only a claimed palace connects to towers
        policy = self.rules.towers.reconnect
        if policy == "once_per_palace_tower" and any(a[0] == tower for a in palace.connected):
            return
        if policy == "once_per_palace_arm" and arms <= palace.connected:
            return
        log = self._log
        self._touch(palace)
        palace.connected |= arms
        previous = self.tower_tile[tower]
        log.append(("tower_tile", tower, None if previous is None else previous.id))
        self.tower_tile[tower] = palace
        player, holder = self._player(palace.owner), self._owner_name(palace.owner)
        if previous is None or previous.owner != palace.owner:
            previous_name = None if previous is None else self._owner_name(previous.owner)
            self.events.append(
                Event(
                    "tower-tile",
                    player,
                    holder,
                    palace.colour,
                    self._geo.name(palace.roof),
                    tile=tower,
                    previous=previous_name,
                )
            )
        if tower in self._tower_merchants_left:
            waiting = self._tower_merchants_left.pop(tower)
            log.append(("_tower_merchants_left", tower, waiting))
            if waiting:
                if palace.owner != NEUTRAL:
                    log.append(
                        ("supply", palace.owner, "merchant", self.supply[palace.owner]["merchant"])
                    )
                    self.supply[palace.owner]["merchant"] += waiting
                self.events.append(
                    Event("tower-merchants", player, holder, tile=tower, count=waiting)
                )

    # --- colour retirement ---------------------------------------------------------------------
    def _check_retirement(self, piece: str) -> None:
        """After a placement: a roof can complete `all_players_own`; anything placed inside the city
        (a roof too: it closes the palace that could still grow) can leave `no_building_fits`."""
        check_owners, check_room = self.variant._retirement_checks[piece]
        owned_by_all = set.intersection(*self._owned) if check_owners else set()
        for colour in self.variant.colours:
            if colour in self.retired:
                continue
            everyone = colour in owned_by_all
            no_room = check_room and not self._board_masks[colour]
            if everyone or no_room:
                self.retired.append(colour)
                self._board_masks.pop(colour, None)  # computed while the colour was still in play
                for seat, supply in enumerate(self.supply):
                    self._log.append(("supply", seat, colour, supply[colour]))
                    supply[colour] = 0
                self.events.append(
                    Event(
                        "retire",
                        colour=colour,
                        reason="all_players_own" if everyone else "no_building_fits",
                    )
                )

    # --- the API's habits (python-chess's) and the checks of the constructor -----------------------
    def is_legal(self, placement: str | Placement) -> bool:
        """Would `push(placement)` make it (a `Placement` or its text) for the player to move now? False
        for a placement the rules refuse, and for text that names no placement of this game."""
        try:
            piece, square = self.variant.parse(placement)
        except IllegalPlacement:
            return False
        if square is None:
            return piece == TEA and self.can_tea()
        return self._is_legal(piece, self._geo.cell_of_square[square])

    def peek(self) -> Placement:
        """The last placement pushed (what `pop` would undo); IndexError when nothing was pushed."""
        stack = self.move_stack
        if not stack:
            raise IndexError("peek at an empty move stack")
        return stack[-1]

    def outcome(self) -> Outcome | None:
        """How the game ended, once it is over (`winners`, `winner`, `totals`); None while it goes on."""
        return outcome_of(self)

    @classmethod
    def from_record(cls, path: str) -> Game:
        """The game a record file (record/1, or a boardspace.net record) holds, replayed to its end.
        Raises `MedinaError` with every problem found where the file cannot be read, or the replay stops
        at an illegal turn (`read_record` and `replay` say more)."""
        # the record reader sits above the engine: imported when used
        from ..records.record import game_of_record

        return game_of_record(path)

    def __str__(self) -> str:
        """The board as `medina` commands print it: a cell in 3 characters, the columns' letters above and
        below, the rows' numbers on both sides (north first). The text board sits above the engine:
        imported here, when it is drawn."""
        from ..render.text import render_board

        return render_board(self)

    @staticmethod
    def _rules_for(rules: Rules | Ruleset, players: object) -> Rules:
        """The `Rules` a game of `players` plays: `rules` itself, or a `Ruleset`'s for this many players;
        TypeError for anything else."""
        if not isinstance(players, (list, tuple)) or not all(
            isinstance(name, str) for name in players
        ):
            raise TypeError(f"players {players!r:.80}: a list of names")
        if is_ruleset(rules):
            rules = rules.for_players(len(players))
        if not hasattr(rules, "colour_names"):
            raise TypeError(
                f"rules {rules!r:.80}: a Rules or a Ruleset, as medina.load_ruleset gives them "
                "(e.g. load_ruleset(ID, players=3), ID one of `medina rules list`)"
            )
        return rules

    def _checked_supply(self, supply: object) -> dict[str, dict[str, int]]:
        """`supply` (player -> {piece: count}) checked as a record's `setup.supply` is, with its pieces'
        canonical names; ValueError (TypeError for what is no mapping) naming what is wrong."""
        if not isinstance(supply, dict):
            raise TypeError(f"supply {supply!r:.80}: a mapping of players to {{piece: count}}")
        variant = self.variant
        checked: dict[str, dict[str, int]] = {}
        pieces = {
            word: piece for word, piece in variant.spellings.items() if piece in variant.supplied
        }
        for name, counts in supply.items():
            if name not in self.players:
                raise ValueError(
                    f"supply names {name!r}, who is not a player ({', '.join(self.players)})"
                )
            if not isinstance(counts, dict):
                raise TypeError(
                    f"supply for {name}: {counts!r:.80} is not a mapping of pieces to counts"
                )
            checked[name] = {}
            for piece, count in counts.items():
                canonical = pieces.get(piece.lower()) if isinstance(piece, str) else None
                if canonical is None:
                    raise ValueError(
                        f"supply for {name}: {piece!r} is not a piece of {self.rules.ruleset_id} "
                        f"({variant.piece_list})"
                    )
                if (
                    isinstance(count, bool)
                    or not isinstance(count, int)
                    or not 0 <= count <= MOST_SUPPLIED
                ):
                    raise ValueError(
                        f"supply for {name}: {piece} {count!r} is not a whole number from 0 to "
                        f"{MOST_SUPPLIED}"
                    )
                checked[name][canonical] = count
        return checked


def _rebound(held: dict[_Key, Palace | None], palaces: list[Palace]) -> dict[_Key, Palace | None]:
    """A tile or open-palace table (key -> palace or None) pointing into `palaces`, a copy's palaces."""
    return {k: None if p is None else palaces[p.id] for k, p in held.items()}
