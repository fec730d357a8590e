"""A `Variant`: everything the engine compiles from one `Rules`, once, shared by every game of it.

`Variant.of(rules)` gives the variant of a `Rules` (compiled on first use, then cached); a variant
pickles as the `Rules` it compiles. Besides the compiled rules (the constraint layers of each
piece), it holds as plain data what a native core needs: the board (width, height, masks, the
neighbours of every cell), the pieces in order, the start supply and the rule parameters.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import fields, is_dataclass
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING, Any

from ..errors import did_you_mean
from ..rules.pieces import FIXED_PIECES
from .board import Geometry, bits, geometry_for, parse_square, square_name
from .constraints import constraints_of
from .placement import (
    PASS,
    PASS_PLACEMENT,
    TEA,
    TEA_PLACEMENT,
    IllegalPlacement,
    Placement,
    read_words,
)
from .turns import FORCED_ROOF

if TYPE_CHECKING:
    from typing_extensions import TypeIs  # typing's from Python 3.13

    from ..rules.loader import Ruleset
    from ..rules.typed import Rules

MOST_SUPPLIED = (
    99  # the most pieces of one kind a game's `supply` (a record's setup.supply) may give a player
)


def is_ruleset(rules: object) -> TypeIs[Ruleset]:
    """Is `rules` a `Ruleset` (every player count), rather than one count's `Rules`? (The engine does not
    import the ruleset loader, which reads YAML.)"""
    return hasattr(rules, "for_players")


class Variant:
    """The compiled form of one `Rules`: geometry, pieces and their spellings, constraint table."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.geometry: Geometry = geometry_for(rules)
        geo = self.geometry
        # the board, as plain data: bit i of a mask is cell i, `row * width + column` of this board
        self.width, self.height, self.size = geo.width, geo.height, geo.size
        self.ring, self.interior, self.towers, self.edge_row = (
            geo.ring,
            geo.interior,
            geo.towers,
            geo.edge_row,
        )
        self.orth_of, self.king_of = tuple(geo.orth_of), tuple(geo.king_of)
        self.tower_of_cell = dict(geo.tower_of_cell)  # corner cell -> tower number
        # the pieces, in the order the generator lists them: the colours, then the fixed pieces
        self.colours: tuple[str, ...] = rules.colour_names
        self.pieces: tuple[str, ...] = (*self.colours, *FIXED_PIECES)
        supply = rules.supply
        self.supply: dict[str, int] = {
            **dict.fromkeys(self.colours, supply.per_colour),
            **{piece: getattr(supply, key) for piece, key in FIXED_PIECES.items()},
        }
        # the pieces a player of this count is given (a merchant always: the start merchant, tower merchants)
        self.supplied: tuple[str, ...] = tuple(
            p for p in self.pieces if p == "merchant" or self.supply[p]
        )
        self.piece_list = ", ".join(sorted(self.supplied))  # the pieces as every message lists them
        self.spellings: dict[str, str] = {
            piece: piece for piece in self.pieces
        }  # any case -> canonical piece
        self.spellings.update((alias.lower(), c.name) for c in rules.colours for alias in c.aliases)
        # the compiled rules
        self._constraints = constraints_of(self.pieces)  # piece -> its layers, in order
        compiled = {piece: c.compile(geo) for piece, c in self._constraints.items()}
        self._board_functions = {
            piece: board for piece, (board, _) in compiled.items()
        }  # the AND of its board layers
        # (piece, the AND of its per-seat layers but Held, or None) in piece order, and walls first
        self._seat_functions = tuple((piece, per_seat) for piece, (_, per_seat) in compiled.items())
        self._seat_function_of = dict(self._seat_functions)
        self._cheap_first = self._seat_functions[::-1]  # walls are the cheapest mask to compute
        triggers = rules.retirement
        checks = {
            piece: (
                piece == "roof" and "all_players_own" in triggers,  # may complete all_players_own
                piece != "wall" and "no_building_fits" in triggers,
            )  # may leave no_building_fits
            for piece in self.pieces
        }
        self._retirement_checks = {
            piece: c for piece, c in checks.items() if any(c)
        }  # pieces that may retire
        self._roof_checked_after_first = rules.turns.forced_roof_check == "after_first_placement"
        self._forced_roof = FORCED_ROOF.get(
            rules.turns.forced_roof
        )  # (does it hold for a seat?, why) or None

    @staticmethod
    def of(rules: Rules) -> Variant:
        """The variant of `rules`, compiled once (equal `Rules` share it). Found by identity first: hashing
        a `Rules`, and comparing it with an equal one (a copy that came in a task), costs more than a game's
        setup, and a study asks for the variant once a game."""
        known = _BY_IDENTITY.get(id(rules))
        if known is None or known[0] is not rules:
            known = (rules, _compiled(rules))
            with _IDENTITIES_LOCK:  # a Dask worker may run tasks in threads
                _BY_IDENTITY[id(rules)] = known
                if len(_BY_IDENTITY) > IDENTITIES_KEPT:
                    _BY_IDENTITY.pop(next(iter(_BY_IDENTITY)))
        return known[1]

    def __reduce__(self) -> tuple[Callable[[Rules], Variant], tuple[Rules]]:
        return _compiled, (self.rules,)

    def __repr__(self) -> str:
        return f"<Variant {self.rules.ruleset_id}, {self.rules.players} players>"

    def parse(self, placement: str | Placement) -> Placement:
        """The placement a text (`"Grey k8"`, `"tea"`, `"pass"`) or a `Placement` names under these rules:
        its piece as the rules name it (a colour's alias resolved), its square on this board. Raises
        IllegalPlacement: `bad-placement`, `unknown-piece` or `bad-cell` (the first that applies)."""
        if isinstance(placement, Placement):
            if placement in self._codes:
                return placement
            piece, square = placement
            if square is None:  # neither tea nor pass: a piece without its cell
                read_words(placement.piece)  # raises
            cell = square_name(square)
        else:
            piece, written = read_words(placement)
            if written is None:
                return TEA_PLACEMENT if piece == TEA else PASS_PLACEMENT
            cell = f"{written[0].upper()}{int(written[1:])}"  # K8 for k08
            square = parse_square(cell)
        canonical = self.spellings.get(piece)
        if canonical is None:
            raise IllegalPlacement(
                "unknown-piece",
                f"{piece!r} is not a piece of {self.rules.ruleset_id}"
                f"{did_you_mean(piece, self.supplied)} (pieces: {self.piece_list})",
            )
        if square not in self.geometry.cell_of_square:
            raise IllegalPlacement(
                "bad-cell",
                f"{cell!r} is not a cell of this board ({self.geometry.describe_extent()})",
            )
        return tuple.__new__(Placement, (canonical, square))

    # --- move codes: the one conversion between a placement and an int ---------------------------
    def encode(self, placement: str | Placement) -> int:
        """The move code of a placement (a `Placement` or its text, in any spelling `parse` takes):
        `piece * size + cell`, the piece's index in `pieces` and its cell on this board; a tea tile is
        `len(pieces) * size`, a pass the code after it. The native core's moves are these codes.
        Raises IllegalPlacement as `parse` does."""
        code = self._codes.get(placement) if isinstance(placement, Placement) else None
        return self._codes[self.parse(placement)] if code is None else code

    def decode(self, code: int) -> Placement:
        """The placement of a move code (`encode`'s inverse); ValueError for an int that is none."""
        return self._placements[self._checked(code)]

    def code(self, piece: str, cell: int | None = None) -> int:
        """The move code of a canonical piece on a cell (`code("roof", 40)`); `code("tea")`, `code("pass")`."""
        return self._first_code[piece] + (cell or 0)

    def piece_and_cell(self, code: int) -> tuple[str, int | None]:
        """A move code's canonical piece and cell (`code`'s inverse): ("roof", 40), ("tea", None),
        ("pass", None). ValueError for an int that is no move code."""
        return self._pieces_and_cells[self._checked(code)]

    def placements_on(self, piece: str, cells: int) -> list[Placement]:
        """The placements of a canonical piece on each cell of a mask (bit i for cell i), in cell order."""
        first, placements = self._first_code[piece], self._placements
        return [placements[first + cell] for cell in bits(cells)]

    def _checked(self, code: int) -> int:
        """`code` if it is a move code; else ValueError."""
        if type(code) is int and 0 <= code < len(self._pieces_and_cells):
            return code
        raise ValueError(
            f"{code!r} is not a move code of {self.rules.ruleset_id} "
            f"(0 to {len(self._pieces_and_cells) - 1})"
        )

    @cached_property
    def _pieces_and_cells(self) -> tuple[tuple[str, int | None], ...]:
        """Every move code's (piece, cell), by its code: the one place the codes are laid out."""
        return (
            *((piece, cell) for piece in self.pieces for cell in range(self.size)),
            (TEA, None),
            (PASS, None),
        )

    @cached_property
    def _first_code(self) -> dict[str, int]:
        """Each piece's first move code (its cell 0), and tea's and pass's."""
        first: dict[str, int] = {}
        for code, (piece, _) in enumerate(self._pieces_and_cells):
            first.setdefault(piece, code)
        return first

    @cached_property
    def _placements(self) -> tuple[Placement, ...]:
        """Every placement by its move code."""
        square_of = self.geometry.square_of
        return tuple(
            tuple.__new__(Placement, (piece, None if cell is None else square_of[cell]))
            for piece, cell in self._pieces_and_cells
        )

    @cached_property
    def _codes(self) -> dict[Placement, int]:
        """Every canonical placement's move code."""
        return {placement: code for code, placement in enumerate(self._placements)}

    def params(self) -> dict[str, Any]:
        """Every rule parameter as plain data: {"turns.placements": 2, "towers.merchants": {2: 1}, ...}
        (sections flattened into dotted names, as in `--set`; a tuple of named sections, such as the
        colours, as a tuple of dicts)."""
        out: dict[str, Any] = {}
        for f in fields(self.rules):
            if f.name != "record_ref":
                _flatten(out, f.name, getattr(self.rules, f.name))
        return out


def _flatten(out: dict[str, Any], name: str, value: object) -> None:
    if is_dataclass(value):
        for f in fields(value):
            _flatten(out, f"{name}.{f.name}", getattr(value, f.name))
    elif isinstance(value, tuple) and value and is_dataclass(value[0]):
        out[name] = tuple({f.name: _plain(getattr(v, f.name)) for f in fields(v)} for v in value)
    else:
        out[name] = _plain(value)


def _plain(value: object) -> object:
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if isinstance(value, tuple):
        return tuple(_plain(v) for v in value)
    assert isinstance(value, Mapping)  # a FrozenMap: the rules hold no other kind of value
    return {key: _plain(v) for key, v in value.items()}


@lru_cache(maxsize=128)
def _compiled(rules: Rules) -> Variant:
    return Variant(rules)


IDENTITIES_KEPT = (
    64  # Rules objects known by identity (each kept alive here, so that its id is not reused)
)
_BY_IDENTITY: dict[int, tuple[Rules, Variant]] = {}  # id(rules) -> (rules, its variant)
_IDENTITIES_LOCK = threading.Lock()
