"""A reference for docs/rulings.md §3-§6, written to be obviously right rather than fast.

Cells are (x, y) pairs over the full grid (x = 0 is column A, y = 0 is row 1), and everything is a
plain set or dict recomputed from the pieces on the board: no bitboards, no incremental state.
`Board.of(game, last_merchant)` copies a game's board; `legal(board, seat)` lists every legal
placement; `forced_at_turn_start` and `turn_legal` add the forced-roof rule of §5. Only
`merchants.new_chain_max_neighbours: 0` is supported (then every merchant chain is a path of its own).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

NEUTRAL = -1
Cell = tuple[int, int]


@dataclass
class Palace:
    colour: str
    buildings: set
    stables: set
    owner: int | None  # seat, NEUTRAL, or None while unroofed

    @property
    def footprint(self) -> set:
        return self.buildings | self.stables


@dataclass
class Board:
    rules: object
    width: int
    height: int
    buildings: dict = field(default_factory=dict)  # cell -> colour
    stables: set = field(default_factory=set)
    merchants: set = field(default_factory=set)
    last_merchant: Cell | None = None
    walls: set = field(default_factory=set)
    well: Cell | None = None
    roofs: dict = field(default_factory=dict)  # roofed building cell -> owner
    supply: list = field(default_factory=list)  # per seat: piece -> count

    @classmethod
    def of(cls, game, last_merchant: int) -> Board:
        geo = game.variant.geometry
        xy = lambda cell: (cell % geo.width, cell // geo.width)  # noqa: E731
        cells = lambda mask: {xy(c) for c in range(geo.size) if (mask >> c) & 1}  # noqa: E731
        board = cls(game.rules, geo.width, geo.height)
        for palace in game.palaces:
            board.buildings.update(dict.fromkeys(cells(palace.buildings), palace.colour))
        stables = sum(palace.stables for palace in game.palaces)  # palaces share no cell
        board.stables, board.merchants, board.walls = (
            cells(stables),
            cells(game.merchants),
            cells(game.walls),
        )
        board.last_merchant = xy(last_merchant)
        board.well = xy(game.well) if game.well is not None else None
        board.roofs = {xy(p.roof): p.owner for p in game.palaces if p.owner is not None}
        board.supply = [dict(s) for s in game.supply]
        return board

    # --- geometry ------------------------------------------------------------------------------
    def on_grid(self, cell: Cell) -> bool:
        return 0 <= cell[0] < self.width and 0 <= cell[1] < self.height

    def orth(self, cell: Cell) -> list:
        x, y = cell
        return [c for c in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)) if self.on_grid(c)]

    def king(self, cell: Cell) -> list:
        x, y = cell
        return [
            (x + dx, y + dy)
            for dx in (-1, 0, 1)
            for dy in (-1, 0, 1)
            if (dx or dy) and self.on_grid((x + dx, y + dy))
        ]

    def is_interior(self, cell: Cell) -> bool:
        return 0 < cell[0] < self.width - 1 and 0 < cell[1] < self.height - 1

    def towers(self) -> set:
        return {
            (0, 0),
            (self.width - 1, 0),
            (0, self.height - 1),
            (self.width - 1, self.height - 1),
        }

    def ring(self) -> set:
        return {
            (x, y)
            for x in range(self.width)
            for y in range(self.height)
            if not self.is_interior((x, y))
        } - self.towers()

    def empty_interior(self) -> set:
        taken = (
            set(self.buildings)
            | self.stables
            | self.merchants
            | ({self.well} if self.well else set())
        )
        return {(x, y) for x in range(1, self.width - 1) for y in range(1, self.height - 1)} - taken

    def well_zone(self) -> set:
        return {self.well, *self.king(self.well)} if self.well else set()

    # --- applying a placement (for the forced-roof look-ahead) -----------------------------------
    def after(self, seat: int, piece: str, cell: Cell) -> Board:
        board = copy.deepcopy(self)
        board.supply[seat][piece] -= 1
        if piece == "roof":
            board.roofs[cell] = seat
        elif piece == "neutral":
            board.roofs[cell] = NEUTRAL
        elif piece == "stable":
            board.stables.add(cell)
        elif piece == "merchant":
            board.merchants.add(cell)
            board.last_merchant = cell
        elif piece == "wall":
            board.walls.add(cell)
        else:
            board.buildings[cell] = piece
        return board


def palaces(board: Board) -> list[Palace]:
    """Maximal orthogonal groups of one colour, each with the stables touching its buildings."""
    out, seen = [], set()
    for start, colour in sorted(board.buildings.items()):
        if start in seen:
            continue
        group, todo = set(), [start]
        while todo:
            cell = todo.pop()
            if cell not in group:
                group.add(cell)
                todo.extend(n for n in board.orth(cell) if board.buildings.get(n) == colour)
        seen |= group
        stables = {s for s in board.stables if any(n in group for n in board.orth(s))}
        owners = [board.roofs[c] for c in group if c in board.roofs]
        assert len(owners) <= 1, f"two roofs on the palace at {start}"
        out.append(Palace(colour, group, stables, owners[0] if owners else None))
    return out


class Layout:
    """What the placement rules look at, computed once per board: the palaces, which palaces come
    within king distance 1 of each cell, and the empty interior cells."""

    def __init__(self, board: Board):
        self.board = board
        self.palaces = palaces(board)
        self.near: dict = {}  # cell -> palaces whose buildings or stables are at king distance <= 1
        for palace in self.palaces:
            for cell in {n for c in palace.footprint for n in (c, *board.king(c))}:
                self.near.setdefault(cell, []).append(palace)
        self.empty = board.empty_interior()
        self.free = self.empty - board.well_zone()  # where buildings and stables may go

    def spaced(self, cell: Cell, joining: Palace | None = None) -> bool:
        """Is `cell` at least one cell (diagonals too) away from every palace but `joining`?"""
        return all(p is joining for p in self.near.get(cell, ()))

    def extension(self, palace: Palace) -> set:
        return {
            n
            for b in palace.buildings
            for n in self.board.orth(b)
            if n in self.free and self.spaced(n, palace)
        }

    def building_cells(self, colour: str) -> set:
        """§4: extend the open palace of the colour if there is one, else start a new palace."""
        open_palaces = [
            p for p in self.palaces if p.colour == colour and p.owner is None and self.extension(p)
        ]
        assert len(open_palaces) <= 1, f"two open {colour} palaces"
        if open_palaces:
            return self.extension(open_palaces[0])
        return {c for c in self.free if self.spaced(c)}

    def stable_cells(self) -> set:
        out = set()
        for cell in self.free:
            touched = [
                p for p in self.palaces if any(n in p.buildings for n in self.board.orth(cell))
            ]
            if len(touched) == 1 and self.spaced(cell, touched[0]):
                out.add(cell)
        return out

    def roof_cells(self, seat: int, piece: str = "roof") -> set:
        owned = {p.colour for p in self.palaces if p.owner == seat}
        return {
            b
            for p in self.palaces
            if p.owner is None and (piece == "neutral" or p.colour not in owned)
            for b in p.buildings
        }

    def merchant_cells(self) -> set:
        board = self.board
        assert board.rules.merchants.new_chain_max_neighbours == 0, (
            "the oracle knows only separate chains"
        )
        chain, todo = set(), [board.last_merchant]
        while todo:
            cell = todo.pop()
            if cell not in chain:
                chain.add(cell)
                todo.extend(n for n in board.orth(cell) if n in board.merchants)
        ends = {m for m in chain if sum(n in board.merchants for n in board.orth(m)) <= 1}
        neighbours = {c: sum(n in board.merchants for n in board.orth(c)) for c in self.empty}
        extend = {
            c for c in self.empty if neighbours[c] <= 1 and any(n in ends for n in board.orth(c))
        }
        return extend or {c for c in self.empty if neighbours[c] == 0}

    def wall_cells(self) -> set:
        board = self.board
        anchors = board.walls | board.towers()
        return {
            c for c in board.ring() - board.walls if sum(n in anchors for n in board.orth(c)) == 1
        }

    def retired(self) -> set:
        """§6, recomputed from the board: both triggers only ever become true, never false again."""
        rules, players = self.board.rules, len(self.board.supply)
        out = set()
        for colour in rules.colour_names:
            if "all_players_own" in rules.retirement and all(
                any(p.colour == colour and p.owner == seat for p in self.palaces)
                for seat in range(players)
            ):
                out.add(colour)
            if "no_building_fits" in rules.retirement and not self.building_cells(colour):
                out.add(colour)
        return out

    def legal(self, seat: int, retired_colours: set) -> set:
        """Every (piece, cell) `seat` may place now by §3-§4 and §6, ignoring the forced roof."""
        supply = self.board.supply[seat]
        out = set()
        for colour in self.board.rules.colour_names:
            if supply[colour] and colour not in retired_colours:
                out |= {(colour, c) for c in self.building_cells(colour)}
        for piece in ("roof", "neutral"):
            if supply[piece]:
                out |= {(piece, c) for c in self.roof_cells(seat, piece)}
        if supply["stable"]:
            out |= {("stable", c) for c in self.stable_cells()}
        if supply["merchant"]:
            out |= {("merchant", c) for c in self.merchant_cells()}
        if supply["wall"]:
            out |= {("wall", c) for c in self.wall_cells()}
        return out


def legal(board: Board, seat: int, retired_colours=None) -> set:
    layout = Layout(board)
    return layout.legal(seat, layout.retired() if retired_colours is None else retired_colours)


def roof_after(board: Board, seat: int, move) -> bool:
    """Would one of `seat`'s roofs be legal after `move`?"""
    if not board.supply[seat]["roof"] - (move[0] == "roof"):
        return False
    return bool(Layout(board.after(seat, *move)).roof_cells(seat))


def forced_at_turn_start(board: Board, seat: int, slots: int, retired_colours) -> bool:
    """§5: the forced-roof trigger of the ruleset, and some legal turn that includes a roof."""
    rule = (
        board.rules.turns.forced_roof
        if board.rules.turns.forced_roof_check == "turn_start"
        else "off"
    )
    others = [q for q in range(len(board.supply)) if q != seat]
    if rule == "only_player_who_can_place":
        trigger = not any(legal(board, q, retired_colours) for q in others)
    elif rule == "only_player_with_roofs":
        trigger = board.supply[seat]["roof"] > 0 and all(
            board.supply[q]["roof"] == 0 for q in others
        )
    else:
        trigger = False
    if not trigger:
        return False
    moves = legal(board, seat, retired_colours)
    return any(piece == "roof" for piece, _ in moves) or (
        slots > 1 and any(roof_after(board, seat, m) for m in moves)
    )


def turn_legal(board: Board, seat: int, moves: set, *, roof_due: bool, first: bool) -> set:
    """The legal placements `moves` narrowed by the turn: while a roof is still due, the first
    placement must keep a roof possible and any later one must be the roof."""
    if not roof_due:
        return moves
    if not first:
        return {m for m in moves if m[0] == "roof"}
    return {m for m in moves if m[0] == "roof" or roof_after(board, seat, m)}
