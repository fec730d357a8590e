"""The placement rules as constraint layers, each written once: the generator and `explain` read them.

Every piece kind has an ordered tuple of layers. A `Layer` is one rule: its `code` (documented in
`medina_cli.errors.CODES`), its `mask`, a Python expression of `game`, `piece` and `seat` for the
cells the rule allows in the current position, and its `refusal`, why it refuses a cell, in words.
A `Condition` allows every cell or none (the player holds the piece; the colour has not retired).
Board layers read only the position; `per_seat` layers read the player's own supply or palaces. An
`Either` is a conditional rule: within the cells its `within` layers allow, its `first` layers apply
where they leave a cell (the open palace of the colour can still grow; the merchant chain can still
grow), else its `otherwise` layers (a new palace; a new chain). The generator's mask for a piece is
the AND of its layers, compiled into one function per piece so that all its rules cost one call
(its board layers' AND is cached per position in `Game.board_masks`); `explain` walks the same
layers in order, each compiled alone, and names the first whose mask leaves the cell out.
"""

from __future__ import annotations

from .board import bits

ALL = -1  # the mask of every cell


def _compiled(mask: str, label: str):
    """`mask` (an expression of this module's rules) as a function (game, piece, seat) -> cells; a
    traceback from it names `label` (`<layer spacing>`)."""
    source = f"lambda game, piece, seat: {mask}"
    return eval(compile(source, f"<layer {label}>", "eval"), globals())  # this module's own expressions only, at import


def _all_of(layers, *masks: str) -> str:
    """The AND of `layers` (and of further `masks`) as one expression: the conditions first, and the
    masks only where they all hold."""
    layers = list(layers)
    conditions = [f"({layer.when})" for layer in layers if isinstance(layer, Condition)]
    cells = " & ".join([f"({layer.mask})" for layer in layers if not isinstance(layer, Condition)] + list(masks))
    cells = cells or "ALL"
    return f"({cells} if {' and '.join(conditions)} else 0)" if conditions else cells


class Layer:
    """One rule: the cells it allows (`mask`, compiled as `allows`), and why it refuses a cell: `words`,
    a text with `{piece}`, `{cell}` and `{player}` fields, or a function (game, piece, cell, seat) -> text."""

    __slots__ = ("code", "mask", "allows", "words", "per_seat")

    def __init__(self, code: str, mask: str, words, *, per_seat: bool = False):
        self.code, self.mask, self.words, self.per_seat = code, mask, words, per_seat
        self.allows = _compiled(mask, code)

    def refusal(self, game, piece: str, cell: int, seat: int) -> str:
        """Why this rule refuses `piece` on `cell` to `seat`, in words."""
        if callable(self.words):
            return self.words(game, piece, cell, seat)
        return self.words.format(piece=piece, cell=game._geo.name(cell), player=game.players[seat])

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.mask!r})"


class Condition(Layer):
    """A rule that allows every cell or none: `when` holds, or not."""

    __slots__ = ("when",)

    def __init__(self, code: str, when: str, words, *, per_seat: bool = False):
        super().__init__(code, f"ALL if {when} else 0", words, per_seat=per_seat)
        self.when = when


class Either:
    """A conditional rule: within the cells the `within` layers allow, the `first` layers where they
    leave a cell, else the `otherwise` layers. (Board layers only.)"""

    __slots__ = ("within", "first", "otherwise", "mask", "allows", "first_cells")
    per_seat = False

    def __init__(self, within: tuple, first: tuple, otherwise: tuple):
        self.within, self.first, self.otherwise = within, first, otherwise
        first_cells = f"(_within := {_all_of(within)}) & {_all_of(first)}"
        self.first_cells = _compiled(first_cells, "either: first")  # the cells the first layers allow (none: the otherwise layers apply)
        self.mask = f"(_first if (_first := {first_cells}) else _within & {_all_of(otherwise)})"
        self.allows = _compiled(self.mask, "either")

    def layers(self, game, piece) -> tuple:
        """The layers that apply in this position, in order."""
        return (*self.within, *(self.first if self.first_cells(game, piece, None) else self.otherwise))


class Constraints:
    """A piece kind's layers in order (for `explain`); compiled, `board`: the AND of its board layers
    (cached by the game per position in `Game.board_masks`), and `mask`: the AND of its per-seat
    layers and of the cached board mask, the cells a seat may place it on."""

    __slots__ = ("layers", "board", "mask")

    def __init__(self, *layers):
        assert sum(isinstance(layer, Either) for layer in layers) <= 1, "one Either per piece (they share names)"
        self.layers = layers
        codes = ", ".join(layer.code if isinstance(layer, Layer) else "either" for layer in layers)
        self.board = _compiled(_all_of(layer for layer in layers if not layer.per_seat), f"board of: {codes}")
        self.mask = _compiled(_all_of((layer for layer in layers if layer.per_seat), "game._board_masks[piece]"),
                              f"mask of: {codes}")


def refusing_layer(game, piece: str, cell: int, seat: int) -> Layer | None:
    """The first layer of `piece` whose mask leaves `cell` out for `seat` (the player to move), or
    None if none does."""
    return _first_refusal(game.variant.constraints[piece].layers, game, piece, cell, seat)


def _first_refusal(layers, game, piece, cell, seat):
    for layer in layers:
        if (layer.allows(game, piece, seat if layer.per_seat else None) >> cell) & 1:
            continue
        if isinstance(layer, Either):
            return _first_refusal(layer.layers(game, piece), game, piece, cell, seat)
        return layer
    return None


# --- the words ----------------------------------------------------------------------------------
def _not_on(text: str):
    """Words for a piece on the wrong kind of square: `text` followed by the square's kind."""
    kinds = {"ring": "the wall ring", "tower": "a tower", "interior": "an interior cell"}
    return lambda game, piece, cell, seat: text.format(piece=piece) + kinds[game._geo.kind(cell)]


def _palace_there(text: str):
    """Words naming the colour of the palace on the cell: `text` with `{colour}` and `{player}` fields."""
    return lambda game, piece, cell, seat: text.format(colour=game._palace_at[cell].colour, player=game.players[seat])


SPACING = "too close to another palace (palaces may not touch, not even diagonally)"

# --- every piece --------------------------------------------------------------------------------
IN_SUPPLY = Condition("not-in-supply", "game.supply[seat][piece]", "{player} has no {piece} left", per_seat=True)

# --- walls --------------------------------------------------------------------------------------
ON_RING = Layer("wrong-square", "game._geo.ring", _not_on("walls go on the wall ring around the city, not on "))
NO_WALL_THERE = Layer("cell-occupied", "~game.walls", "there is already a wall there")
CONTINUES_RUN = Layer("wall-not-connected", "game._geo.orth(game.walls | game._geo.towers)",
                      "a wall must continue a run from a tower (no wall or tower next to it)")
KEEPS_GATES = Layer("wall-gate", "~game._geo.gates(game.walls)",
                    "it would join two wall runs; every side keeps a gate")

# --- inside the city ----------------------------------------------------------------------------
INSIDE = Layer("wrong-square", "game._geo.interior", _not_on("a {piece} goes inside the city, not on "))
EMPTY = Layer("cell-occupied", "~game._occupied",
              lambda game, piece, cell, seat: f"{game._geo.name(cell)} already holds "
                                              f"{'the well' if cell == game.well else 'a piece'}")
OFF_WELL = Layer("well-zone", "~game._well_zone", "no building or stable on the well or next to it")
SITE = (INSIDE, EMPTY, OFF_WELL)  # where a building or a stable may stand at all
# a cell next to a palace is within its reach, and must be within no other palace's
CLEAR_OF_OTHER_PALACES = Layer("spacing", "~game._reach_twice", SPACING)
CLEAR_OF_PALACES = Layer("spacing", "~game._reach_once", SPACING)


# --- buildings (`piece` is the colour) ----------------------------------------------------------
def _extension_refusal(game, colour, cell, seat) -> str:
    first = game._geo.name(next(bits(game._open_palace[colour].buildings)))
    return (f"the unfinished {colour} palace at {first} can still grow, so a {colour} building must extend it "
            "(orthogonally next to one of its buildings)")


NOT_RETIRED = Condition("colour-retired", "piece not in game.retired",
                        "{piece} has retired; no {piece} building may be placed again")
EXTENDS_OPEN_PALACE = Layer("building-not-adjacent",  # next to a building of the open palace of the colour
                            "0 if game._open_palace[piece] is None else game._open_palace[piece].building_orth",
                            _extension_refusal)
# a building extends the unroofed palace of its colour while that can grow, else starts a new palace
EXTEND_ELSE_NEW = Either(SITE, (EXTENDS_OPEN_PALACE, CLEAR_OF_OTHER_PALACES), (CLEAR_OF_PALACES,))

# --- stables ------------------------------------------------------------------------------------
BESIDE_BUILDING = Layer("stable-not-adjacent", "game._building_orth", "a stable must touch a building orthogonally")


# --- roofs --------------------------------------------------------------------------------------
def _growing(game) -> int:
    """The buildings of the palaces that can still grow."""
    cells = 0
    for colour, palace in game._open_palace.items():
        if palace is not None and EXTEND_ELSE_NEW.first_cells(game, colour, None):
            cells |= palace.buildings
    return cells


def _not_owned(game, seat: int) -> int:
    """Every cell but the buildings of the colours `seat` owns a palace of."""
    cells = ALL
    for colour in game._owned[seat]:
        cells &= ~game._buildings[colour]
    return cells


ON_BUILDING = Layer("roof-not-on-building", "game._all_buildings()", "a roof must go on a building")
UNROOFED = Layer("roof-on-roofed-palace", "~game._roofed_buildings",
                 _palace_there("the {colour} palace there already has a roof"))
NOT_BLOCKED = Layer("roof-on-blocked-palace",
                    "ALL if game.rules.roofs.on_blocked_palace else _growing(game)",
                    _palace_there("the {colour} palace there can take no more buildings, and this ruleset does not "
                                  "let a blocked palace be roofed"))
COLOUR_NOT_OWNED = Layer("roof-colour-owned", "_not_owned(game, seat) if game._owned[seat] else ALL",
                         _palace_there("{player} already owns a {colour} palace (one roof per colour)"), per_seat=True)


# --- merchants ----------------------------------------------------------------------------------
def _chain_end_refusal(game, piece, cell, seat) -> str:
    ends = " and ".join(game._geo.name(c) for c in bits(game.live_chain_ends()))
    return f"a merchant must extend an end of the merchant chain (ends: {ends})"


TWO_NEIGHBOURS = "a merchant may not touch two or more merchants"


def _crowd_refusal(game, piece, cell, seat) -> str:
    limit = game.rules.merchants.new_chain_max_neighbours
    return TWO_NEIGHBOURS if limit <= 1 else f"the first merchant of a new chain may touch at most {limit} merchants"


BESIDE_AT_MOST_ONE = Layer("merchant-two-neighbours", "~game._geo.at_least_two_neighbours(game.merchants)",
                           TWO_NEIGHBOURS)
AT_CHAIN_END = Layer("merchant-not-at-chain-end", "game._geo.orth(game.live_chain_ends())", _chain_end_refusal)
# a new chain's first merchant touches at most `merchants.new_chain_max_neighbours` merchants, and
# never two where that is 0 or 1 (kept apart: a merchant beside two is refused as one for any chain)
NEW_CHAIN_CROWD = Layer("merchant-two-neighbours",
                        "~game._geo.more_neighbours_than(game.merchants, max(1, game.rules.merchants.new_chain_max_neighbours))",
                        _crowd_refusal)
NEW_CHAIN = Layer("merchant-new-chain",
                  "~game._geo.more_neighbours_than(game.merchants, game.rules.merchants.new_chain_max_neighbours)",
                  "the chain cannot grow, so a new chain starts, but its first merchant may not touch other merchants")
# a merchant extends the live chain while that can grow, else starts a new chain
EXTEND_ELSE_NEW_CHAIN = Either((INSIDE, EMPTY), (BESIDE_AT_MOST_ONE, AT_CHAIN_END), (NEW_CHAIN_CROWD, NEW_CHAIN))

# --- the pieces ---------------------------------------------------------------------------------
BUILDING = Constraints(NOT_RETIRED, IN_SUPPLY, EXTEND_ELSE_NEW)
FIXED = {
    "roof": Constraints(IN_SUPPLY, INSIDE, ON_BUILDING, UNROOFED, NOT_BLOCKED, COLOUR_NOT_OWNED),
    "neutral": Constraints(IN_SUPPLY, INSIDE, ON_BUILDING, UNROOFED, NOT_BLOCKED),
    "stable": Constraints(IN_SUPPLY, *SITE, BESIDE_BUILDING, CLEAR_OF_OTHER_PALACES),
    "merchant": Constraints(IN_SUPPLY, EXTEND_ELSE_NEW_CHAIN),
    "wall": Constraints(IN_SUPPLY, ON_RING, NO_WALL_THERE, CONTINUES_RUN, KEEPS_GATES),
}


def constraints_of(pieces) -> dict[str, Constraints]:
    """piece -> its constraints, for a game's pieces (the building colours share theirs)."""
    return {piece: FIXED.get(piece, BUILDING) for piece in pieces}
