"""The placement rules as constraint layers, each written once: the generator and `explain` read them.

Every piece kind has an ordered tuple of layers. A `Layer` is one rule: its `code` (documented in
`medina_cli.errors.CODES`), `allows(game, piece, seat)`, the cells the rule allows in the current
position, and its `words`, why it refuses a cell. A layer given `on_board` allows the same cells in
every position of a board (the interior, the wall ring): a function of the board's geometry. A
`Condition` allows every cell or none (`holds`: the player holds the piece; the colour has not
retired). Board layers read only the position; `per_seat` layers read the player's own supply or
palaces. An `Either` is a conditional rule: within the cells its `within` layers allow, its `first`
layers apply where they leave a cell (the open palace of the colour can still grow; the merchant
chain can still grow), else its `otherwise` layers (a new palace; a new chain).

The generator's mask for a piece is the AND of its layers: `Constraints.compile` composes them, once
per board (a variant), into plain functions, the AND of its board layers (cached per position in the
game) and the AND of its per-seat layers; `explain` walks the same layers in order and names the
first whose mask leaves the cell out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from ..rules.pieces import FIXED_PIECES
from .board import Geometry, bits

if TYPE_CHECKING:
    from .game import Game

ALL = -1  # the mask of every cell

Mask = Callable[..., int]  # (game, piece, seat) -> the cells allowed
Words = (
    str | Callable[..., str]
)  # a text with {piece}, {cell} and {player}, or (game, piece, cell, seat) -> text


class Layer:
    """One rule: the cells it allows (`allows`, or `on_board`: the same cells in every position of a
    board), and why it refuses a cell (`words`)."""

    __slots__ = ("allows", "code", "on_board", "per_seat", "words")

    def __init__(
        self,
        code: str,
        allows: Mask | None = None,
        words: Words = "",
        *,
        on_board: Callable[[Geometry], int] | None = None,
        per_seat: bool = False,
    ):
        self.code, self.words, self.per_seat, self.on_board = code, words, per_seat, on_board
        if on_board is not None:
            allows = _on_board_mask(on_board)
        assert allows is not None, "a layer allows cells by `allows` or `on_board`"
        self.allows: Mask = allows

    def refusal(self, game: Game, piece: str, cell: int, seat: int) -> str:
        """Why this rule refuses `piece` on `cell` to `seat`, in words."""
        if callable(self.words):
            return self.words(game, piece, cell, seat)
        return self.words.format(piece=piece, cell=game._geo.name(cell), player=game.players[seat])

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r})"


def _on_board_mask(on_board: Callable[[Geometry], int]) -> Mask:
    """A layer's mask function for cells that depend on the board only."""
    return lambda game, piece, seat: on_board(game._geo)


class Condition(Layer):
    """A rule that allows every cell or none: `holds(game, piece, seat)`, or not."""

    __slots__ = ("holds",)

    def __init__(
        self, code: str, holds: Callable[..., bool], words: Words, *, per_seat: bool = False
    ):
        super().__init__(
            code,
            lambda game, piece, seat: ALL if holds(game, piece, seat) else 0,
            words,
            per_seat=per_seat,
        )
        self.holds = holds


class Held(Condition):
    """The player holds the piece: every piece's first per-seat rule, which the generator checks in its
    own loop, before it reads the piece's other layers (`Constraints.compile`)."""

    __slots__ = ()


class Either:
    """A conditional rule: within the cells the `within` layers allow, the `first` layers where they
    leave a cell, else the `otherwise` layers. (Board layers only.)"""

    __slots__ = ("allows", "first", "first_cells", "otherwise", "within")
    per_seat = False
    on_board = None

    def __init__(
        self, within: tuple[Layer, ...], first: tuple[Layer, ...], otherwise: tuple[Layer, ...]
    ):
        self.within, self.first, self.otherwise = within, first, otherwise
        self.allows = self.compile(None)
        within_cells, first_only = _and_of(within), _and_of(first)

        def first_cells(game: Game, piece: str, seat: int | None) -> int:
            """The cells the first layers allow (none: the otherwise layers apply)."""
            return within_cells(game, piece, seat) & first_only(game, piece, seat)

        self.first_cells = first_cells

    def compile(self, geo: Geometry | None) -> Mask:
        """Its cells as one function (see `_and_of` for `geo`). On a board, the cells its `within` layers
        allow are kept with the game's board masks (they read the position, not the piece: the colours
        share them)."""
        within_cells, first_only, otherwise_only = (
            _and_of(self.within, geo),
            _and_of(self.first, geo),
            _and_of(self.otherwise, geo),
        )
        if geo is None:

            def allows(game: Game, piece: str, seat: int | None) -> int:
                within = within_cells(game, piece, seat)
                return within & first_only(game, piece, seat) or within & otherwise_only(
                    game, piece, seat
                )

            return allows

        firsts, otherwises = _plain_masks(self.first, geo), _plain_masks(self.otherwise, geo)
        if (
            firsts is not None
            and otherwises is not None
            and len(firsts) == 2
            and len(otherwises) in (1, 2)
        ):
            # the layer sets of every Either, written out (the generator's innermost loop)
            (first, second), third, fourth = firsts, otherwises[0], otherwises[-1]

            def allows_written_out(game: Game, piece: str, seat: int | None) -> int:
                cached = game._board_masks
                within = cached.get(self)
                if within is None:
                    within = cached[self] = within_cells(game, piece, seat)
                return within & first(game, piece, seat) & second(
                    game, piece, seat
                ) or within & third(game, piece, seat) & fourth(game, piece, seat)

            return allows_written_out

        def allows_on_board(game: Game, piece: str, seat: int | None) -> int:
            cached = game._board_masks
            within = cached.get(self)
            if within is None:
                within = cached[self] = within_cells(game, piece, seat)
            return within & first_only(game, piece, seat) or within & otherwise_only(
                game, piece, seat
            )

        return allows_on_board

    def layers(self, game: Game, piece: str) -> tuple[Layer, ...]:
        """The layers that apply in this position, in order."""
        return (
            *self.within,
            *(self.first if self.first_cells(game, piece, None) else self.otherwise),
        )


def _plain_masks(layers: Sequence[Layer | Either], geo: Geometry) -> list[Mask] | None:
    """The functions of `layers` when they are plain masks that read the position (no condition, no
    constant board cells, no Either), else None."""
    if all(type(layer) is Layer and layer.on_board is None for layer in layers):
        return [layer.allows for layer in layers]
    return None


def _and_of(layers: Sequence[Layer | Either], geo: Geometry | None = None) -> Mask:
    """The AND of `layers` as one function (game, piece, seat) -> cells: its conditions first (one
    failing: no cell), then its masks. With `geo`, the layers that allow the same cells in every
    position of that board are read once, here (an Either's too)."""
    conditions = [layer.holds for layer in layers if isinstance(layer, Condition)]
    mask_layers = [layer for layer in layers if not isinstance(layer, Condition)]
    constant = ALL
    masks: list[Mask]
    if geo is not None:
        constant = _fold(layer.on_board(geo) for layer in mask_layers if layer.on_board is not None)
        masks = [
            layer.compile(geo) if isinstance(layer, Either) else layer.allows
            for layer in mask_layers
            if layer.on_board is None
        ]
    else:
        masks = [layer.allows for layer in mask_layers]
    # written out up to three masks (every layer set of the pieces), without a wrapper where the AND is one
    # layer's own function: the generator's innermost loop
    if len(masks) > 3:

        def cells(game: Game, piece: str, seat: int | None) -> int:
            allowed = constant
            for allows in masks:
                allowed &= allows(game, piece, seat)
            return allowed
    elif len(masks) == 3:
        first, second, third = masks

        def cells(game: Game, piece: str, seat: int | None) -> int:
            return (
                constant
                & first(game, piece, seat)
                & second(game, piece, seat)
                & third(game, piece, seat)
            )
    elif len(masks) == 2:
        first, second = masks
        if constant == ALL:

            def cells(game: Game, piece: str, seat: int | None) -> int:
                return first(game, piece, seat) & second(game, piece, seat)
        else:

            def cells(game: Game, piece: str, seat: int | None) -> int:
                return constant & first(game, piece, seat) & second(game, piece, seat)
    elif len(masks) == 1:
        only = masks[0]
        if constant == ALL:
            cells = only
        else:

            def cells(game: Game, piece: str, seat: int | None) -> int:
                return constant & only(game, piece, seat)
    else:

        def cells(game: Game, piece: str, seat: int | None) -> int:
            return constant

    if not conditions:
        return cells
    if len(conditions) > 1:

        def cells_where_they_hold(game: Game, piece: str, seat: int | None) -> int:
            for holds in conditions:
                if not holds(game, piece, seat):
                    return 0
            return cells(game, piece, seat)

        return cells_where_they_hold
    holds = conditions[0]

    def cells_where_it_holds(game: Game, piece: str, seat: int | None) -> int:
        return cells(game, piece, seat) if holds(game, piece, seat) else 0

    return cells_where_it_holds


def _fold(masks: Iterable[int]) -> int:
    cells = ALL
    for mask in masks:
        cells &= mask
    return cells


class Constraints:
    """A piece kind's layers in order (for `explain`)."""

    __slots__ = ("layers",)

    def __init__(self, *layers: Layer | Either) -> None:
        self.layers = layers

    def compile(self, geo: Geometry) -> tuple[Mask, Mask | None]:
        """On `geo`'s board: the AND of its board layers (the game caches it per position), and the AND of
        its per-seat layers but `Held`, which the generator's loop checks itself (None: no other)."""
        assert sum(isinstance(layer, Held) for layer in self.layers) == 1, (
            "every piece has its Held rule"
        )
        board = _and_of([layer for layer in self.layers if not layer.per_seat], geo)
        per_seat = [
            layer for layer in self.layers if layer.per_seat and not isinstance(layer, Held)
        ]
        return board, _and_of(per_seat, geo) if per_seat else None


def refusing_layer(game: Game, piece: str, cell: int, seat: int) -> Layer | None:
    """The first layer of `piece` whose mask leaves `cell` out for `seat` (the player to move), or
    None if none does."""
    return _first_refusal(game.variant._constraints[piece].layers, game, piece, cell, seat)


def _first_refusal(
    layers: Sequence[Layer | Either], game: Game, piece: str, cell: int, seat: int
) -> Layer | None:
    for layer in layers:
        if (layer.allows(game, piece, seat if layer.per_seat else None) >> cell) & 1:
            continue
        if isinstance(layer, Either):
            return _first_refusal(layer.layers(game, piece), game, piece, cell, seat)
        return layer
    return None


# --- the words ----------------------------------------------------------------------------------
def _a(word: str) -> str:
    """`word` after its indefinite article, chosen by its first letter: "a grey", "an orange"."""
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"


def _not_on(text: str) -> Callable[[Game, str, int, int], str]:
    """Words for a piece on the wrong kind of square: `text` (with `{a_piece}`) followed by the square's kind."""
    kinds = {"ring": "the wall ring", "tower": "a tower", "interior": "an interior cell"}
    return lambda game, piece, cell, seat: (
        text.format(a_piece=_a(piece)) + kinds[game._geo.kind(cell)]
    )


def _palace_there(text: str) -> Callable[[Game, str, int, int], str]:
    """Words naming the colour of the palace on the cell: `text` with `{colour}` (or `{a_colour}`, with its
    article) and `{player}` fields."""

    def words(game: Game, piece: str, cell: int, seat: int) -> str:
        colour = game._palace_at[cell].colour
        return text.format(colour=colour, a_colour=_a(colour), player=game.players[seat])

    return words


SPACING = "too close to another palace (palaces may not touch, not even diagonally)"


# --- every piece --------------------------------------------------------------------------------
def _not_held(game: Game, piece: str, cell: int, seat: int) -> str:
    """A piece the player has used up, or one the ruleset's supply gives no player of this count."""
    if piece in game.variant.supplied or game.start_supply.get(game.players[seat], {}).get(piece):
        return f"{game.players[seat]} has no {piece} left"
    pieces = FIXED_PIECES.get(piece, f"{piece}_buildings").replace("_", " ")
    return f"{game.rules.ruleset_id} has no {pieces} for {len(game.players)} players"


IN_SUPPLY = Held(
    "not-in-supply",
    lambda game, piece, seat: game.supply[seat][piece] > 0,
    _not_held,
    per_seat=True,
)

# --- walls --------------------------------------------------------------------------------------
ON_RING = Layer(
    "wrong-square",
    words=_not_on("walls go on the wall ring around the city, not on "),
    on_board=lambda geo: geo.ring,
)
NO_WALL_THERE = Layer(
    "cell-occupied", lambda game, piece, seat: ~game.walls, "there is already a wall there"
)
CONTINUES_RUN = Layer(
    "wall-not-connected",
    lambda game, piece, seat: game._geo.orth(game.walls | game._geo.towers),
    "a wall must continue a run from a tower (no wall or tower next to it)",
)
KEEPS_GATES = Layer(
    "wall-gate",
    lambda game, piece, seat: ~game._geo.gates(game.walls),
    "it would join two wall runs; every side keeps a gate",
)

# --- inside the city ----------------------------------------------------------------------------
INSIDE = Layer(
    "wrong-square",
    words=_not_on("{a_piece} goes inside the city, not on "),
    on_board=lambda geo: geo.interior,
)
EMPTY = Layer(
    "cell-occupied",
    lambda game, piece, seat: ~game._occupied,
    lambda game, piece, cell, seat: (
        f"{game._geo.name(cell)} already holds {'the well' if cell == game.well else 'a piece'}"
    ),
)
OFF_WELL = Layer(
    "well-zone",
    lambda game, piece, seat: ~game._well_zone,
    "no building or stable on the well or next to it",
)
SITE = (INSIDE, EMPTY, OFF_WELL)  # where a building or a stable may stand at all
# a cell next to a palace is within its reach, and must be within no other palace's
CLEAR_OF_OTHER_PALACES = Layer("spacing", lambda game, piece, seat: ~game._reach_twice, SPACING)
CLEAR_OF_PALACES = Layer("spacing", lambda game, piece, seat: ~game._reach_once, SPACING)


# --- buildings (`piece` is the colour) ----------------------------------------------------------
def _extension_refusal(game: Game, colour: str, cell: int, seat: int) -> str:
    palace = game._open_palace[colour]
    assert palace is not None  # the layer refuses only where an open palace of the colour can grow
    first = game._geo.name(next(bits(palace.buildings)))
    return (
        f"the unfinished {colour} palace at {first} can still grow, so {_a(colour)} building must extend it "
        "(orthogonally next to one of its buildings)"
    )


def _open_palace_sides(game: Game, colour: str, seat: int | None) -> int:
    """The cells orthogonally next to a building of the open palace of the colour (none without one)."""
    palace = game._open_palace[colour]
    return 0 if palace is None else palace.building_orth


NOT_RETIRED = Condition(
    "colour-retired",
    lambda game, colour, seat: colour not in game.retired,
    "{piece} has retired; no {piece} building may be placed again",
)
EXTENDS_OPEN_PALACE = Layer("building-not-adjacent", _open_palace_sides, _extension_refusal)
# a building extends the unroofed palace of its colour while that can grow, else starts a new palace
EXTEND_ELSE_NEW = Either(SITE, (EXTENDS_OPEN_PALACE, CLEAR_OF_OTHER_PALACES), (CLEAR_OF_PALACES,))

# --- stables ------------------------------------------------------------------------------------
BESIDE_BUILDING = Layer(
    "stable-not-adjacent",
    lambda game, piece, seat: game._building_orth,
    "a stable must touch a building orthogonally",
)


# --- roofs --------------------------------------------------------------------------------------
def _growing(game: Game) -> int:
    """The buildings of the palaces that can still grow."""
    cells = 0
    for colour, palace in game._open_palace.items():
        if palace is not None and EXTEND_ELSE_NEW.first_cells(game, colour, None):
            cells |= palace.buildings
    return cells


def _not_owned(game: Game, piece: str, seat: int) -> int:
    """Every cell but the buildings of the colours `seat` owns a palace of."""
    cells = ALL
    for colour in game._owned[seat]:
        cells &= ~game._buildings[colour]
    return cells


ON_BUILDING = Layer(
    "roof-not-on-building",
    lambda game, piece, seat: game._all_buildings(),
    "a roof must go on a building",
)
UNROOFED = Layer(
    "roof-on-roofed-palace",
    lambda game, piece, seat: ~game._roofed_buildings,
    _palace_there("the {colour} palace there already has a roof"),
)
NOT_BLOCKED = Layer(
    "roof-on-blocked-palace",
    lambda game, piece, seat: ALL if game.rules.roofs.on_blocked_palace else _growing(game),
    _palace_there(
        "the {colour} palace there can take no more buildings, and this ruleset does not "
        "let a blocked palace be roofed"
    ),
)
COLOUR_NOT_OWNED = Layer(
    "roof-colour-owned",
    _not_owned,
    _palace_there("{player} already owns {a_colour} palace (one roof per colour)"),
    per_seat=True,
)


# --- merchants ----------------------------------------------------------------------------------
def _chain_end_refusal(game: Game, piece: str, cell: int, seat: int) -> str:
    ends = " and ".join(game._geo.name(c) for c in bits(game.live_chain_ends()))
    return f"a merchant must extend an end of the merchant chain (ends: {ends})"


TWO_NEIGHBOURS = "a merchant may not touch two or more merchants"


def _crowd_refusal(game: Game, piece: str, cell: int, seat: int) -> str:
    limit = game.rules.merchants.new_chain_max_neighbours
    return (
        TWO_NEIGHBOURS
        if limit <= 1
        else f"the first merchant of a new chain may touch at most {limit} merchants"
    )


BESIDE_AT_MOST_ONE = Layer(
    "merchant-two-neighbours",
    lambda game, piece, seat: ~game._geo.at_least_two_neighbours(game.merchants),
    TWO_NEIGHBOURS,
)
AT_CHAIN_END = Layer(
    "merchant-not-at-chain-end",
    lambda game, piece, seat: game._geo.orth(game.live_chain_ends()),
    _chain_end_refusal,
)
# a new chain's first merchant touches at most `merchants.new_chain_max_neighbours` merchants, and
# never two where that is 0 or 1 (kept apart: a merchant beside two is refused as one for any chain)
NEW_CHAIN_CROWD = Layer(
    "merchant-two-neighbours",
    lambda game, piece, seat: (
        ~game._geo.more_neighbours_than(
            game.merchants, max(1, game.rules.merchants.new_chain_max_neighbours)
        )
    ),
    _crowd_refusal,
)
NEW_CHAIN = Layer(
    "merchant-new-chain",
    lambda game, piece, seat: (
        ~game._geo.more_neighbours_than(
            game.merchants, game.rules.merchants.new_chain_max_neighbours
        )
    ),
    "the chain cannot grow, so a new chain starts, but its first merchant may not touch other merchants",
)
# a merchant extends the live chain while that can grow, else starts a new chain
EXTEND_ELSE_NEW_CHAIN = Either(
    (INSIDE, EMPTY), (BESIDE_AT_MOST_ONE, AT_CHAIN_END), (NEW_CHAIN_CROWD, NEW_CHAIN)
)

# --- the pieces ---------------------------------------------------------------------------------
BUILDING = Constraints(NOT_RETIRED, IN_SUPPLY, EXTEND_ELSE_NEW)
FIXED = {
    "roof": Constraints(IN_SUPPLY, INSIDE, ON_BUILDING, UNROOFED, NOT_BLOCKED, COLOUR_NOT_OWNED),
    "neutral": Constraints(IN_SUPPLY, INSIDE, ON_BUILDING, UNROOFED, NOT_BLOCKED),
    "stable": Constraints(IN_SUPPLY, *SITE, BESIDE_BUILDING, CLEAR_OF_OTHER_PALACES),
    "merchant": Constraints(IN_SUPPLY, EXTEND_ELSE_NEW_CHAIN),
    "wall": Constraints(IN_SUPPLY, ON_RING, NO_WALL_THERE, CONTINUES_RUN, KEEPS_GATES),
}


def constraints_of(pieces: Iterable[str]) -> dict[str, Constraints]:
    """piece -> its constraints, for a game's pieces (the building colours share theirs)."""
    return {piece: FIXED.get(piece, BUILDING) for piece in pieces}
