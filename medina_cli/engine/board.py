"""Board geometry: cell names, the wall ring, towers, and neighbour tables as big-integer bitboards.

Cells are numbered `y * width + x` over the full grid including the wall ring, with x = 0 the
west column (`A`) and y = 0 the south row (`1`), so bit i of a mask is cell i. A cell's number
depends on the board's width; its square (`y * 26 + x`, see `medina_cli.engine.placement`) does not.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..rules.typed import Rules

CELL_RE = re.compile(r"^([A-Za-z])([0-9]{1,2})$")  # a cell's name: a column letter and a row number
ROW = 26  # squares per row: one per letter


def square_name(square: int) -> str:
    """`K8` for 192: squares are numbered along the rows from `A1` = 0, 26 to a row, on every board."""
    row, column = divmod(square, ROW)
    return f"{chr(65 + column)}{row + 1}"


def parse_square(text: str) -> int | None:
    """192 for `K8` (any case; `K08` too); None for anything that names no square (`K0`, `K27`)."""
    match = CELL_RE.match(text.strip()) if isinstance(text, str) else None
    if match is None:
        return None
    row = int(match.group(2))
    return (row - 1) * ROW + ord(match.group(1).upper()) - 65 if 1 <= row <= ROW else None


def lowest_cell(mask: int) -> int:
    """The lowest cell set in a non-empty `mask`."""
    return (mask & -mask).bit_length() - 1


def bits(mask: int) -> Iterator[int]:
    """Yield the cell numbers set in `mask`, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class Geometry:
    """One board: interior `columns x rows` surrounded by the wall ring, towers on the corners."""

    def __init__(self, columns: int, rows: int, towers: dict[str, int]):
        self.columns, self.rows = columns, rows
        self.width, self.height = w, h = columns + 2, rows + 2
        self.size = w * h
        self.full = (1 << self.size) - 1
        col_first = col_last = 0
        for y in range(h):
            col_first |= 1 << (y * w)
            col_last |= 1 << (y * w + w - 1)
        self.not_first_col = self.full & ~col_first
        self.not_last_col = self.full & ~col_last
        self.corner_cell = corners = {"SW": 0, "SE": w - 1, "NW": (h - 1) * w, "NE": h * w - 1}
        self.tower_of_cell = {corners[c]: n for c, n in towers.items()}
        self.tower_cell = {n: cell for cell, n in self.tower_of_cell.items()}
        self.towers = sum(1 << c for c in corners.values())
        border = 0
        interior = 0
        for y in range(h):
            for x in range(w):
                if x in (0, w - 1) or y in (0, h - 1):
                    border |= 1 << (y * w + x)
                else:
                    interior |= 1 << (y * w + x)
        self.ring = border & ~self.towers
        self.interior = interior
        self.orth_of = [self.orth(1 << i) for i in range(self.size)]
        self.king_of = [self.king(1 << i) for i in range(self.size)]
        self.edge_row = interior & self.orth(self.ring)
        self.setup_cells = (
            interior & ~self.edge_row
        )  # where the start merchant and the well may stand
        # the single interior neighbour of each wall space
        self.inner_of = {c: lowest_cell(self.orth_of[c] & interior) for c in bits(self.ring)}
        self.cell_names = [f"{chr(65 + i % w)}{i // w + 1}" for i in range(self.size)]
        self.square_of = tuple((i // w) * ROW + i % w for i in range(self.size))  # cell -> square
        self.cell_of_square = {square: cell for cell, square in enumerate(self.square_of)}
        self.cell_of_name = {
            spelling: i
            for i, name in enumerate(self.cell_names)
            for spelling in (name, name.lower())
        }

    # --- masks ---------------------------------------------------------------------------------
    def orth(self, m: int) -> int:
        """Cells orthogonally next to any cell of `m` (not including `m` itself unless adjacent)."""
        return (
            ((m << 1) & self.not_first_col)
            | ((m >> 1) & self.not_last_col)
            | (m >> self.width)
            | ((m << self.width) & self.full)
        )

    def king(self, m: int) -> int:
        """`m` with every cell within king distance 1 (orthogonal or diagonal) of it."""
        row = m | ((m << 1) & self.not_first_col) | ((m >> 1) & self.not_last_col)
        return row | (row >> self.width) | ((row << self.width) & self.full)

    def at_least_two_neighbours(self, m: int) -> int:
        """Cells with two or more orthogonal neighbours in `m`."""
        w = self.width
        west = (m << 1) & self.not_first_col
        east = (m >> 1) & self.not_last_col
        north, south = m >> w, (m << w) & self.full
        return (west & east) | (north & south) | ((west | east) & (north | south))

    def gates(self, walls: int) -> int:
        """The empty ring cells a wall may never take: one there would join two runs (of `walls` and towers)."""
        return self.ring & ~walls & self.at_least_two_neighbours(walls | self.towers)

    def more_neighbours_than(self, m: int, k: int) -> int:
        """Cells with more than `k` orthogonal neighbours in `m` (none when k >= 4)."""
        w = self.width
        at_least = [
            self.full,
            0,
            0,
            0,
            0,
        ]  # at_least[j]: cells with j or more neighbours counted so far
        for side in (
            (m << 1) & self.not_first_col,
            (m >> 1) & self.not_last_col,
            m >> w,
            (m << w) & self.full,
        ):
            for j in range(4, 0, -1):
                at_least[j] |= at_least[j - 1] & side
        return at_least[k + 1] if k < 4 else 0

    # --- names ---------------------------------------------------------------------------------
    def name(self, cell: int) -> str:
        return self.cell_names[cell]

    def parse(self, text: str) -> int | None:
        """Cell number for a name like `K7` (any case), or None if it is not a cell of this board."""
        text = text.strip()
        cell = self.cell_of_name.get(text)
        if cell is not None:
            return cell
        match = CELL_RE.match(text)  # other spellings such as `K07`
        if not match:
            return None
        x = ord(match.group(1).upper()) - 65
        y = int(match.group(2)) - 1
        if not (0 <= x < self.width and 0 <= y < self.height):
            return None
        return y * self.width + x

    def kind(self, cell: int) -> str:
        bit = 1 << cell
        if bit & self.towers:
            return "tower"
        if bit & self.ring:
            return "ring"
        return "interior"

    def describe_extent(self) -> str:
        return (
            f"{self.name(0)}-{self.name(self.size - 1)}; "
            f"interior {self.name(self.width + 1)}-{self.name(self.size - self.width - 2)}"
        )

    def setup_refusals(self, cells: dict[str, int]) -> list[tuple[str, str]]:
        """Why a setup (`merchant`, `well` -> cell) cannot be played, as (key, words): each piece inside,
        off the edge row, the two on different cells. The one owner of these rules (records and Game)."""
        refusals = [
            (key, f"setup {key} {self.name(cell)}: must be an interior cell off the edge row")
            for key, cell in cells.items()
            if not (self.setup_cells >> cell) & 1
        ]
        if (
            not refusals
            and cells.get("merchant") is not None
            and cells.get("merchant") == cells.get("well")
        ):
            refusals.append(("well", "the start merchant and the well must be on different cells"))
        return refusals

    def straight_two(self, cell: int) -> int:
        """Interior cells two steps from `cell` in a straight orthogonal line (a well's bonus cells)."""
        y, x = divmod(cell, self.width)
        return sum(
            1 << (cy * self.width + cx)
            for cx, cy in ((x + 2, y), (x - 2, y), (x, y + 2), (x, y - 2))
            if 1 <= cx <= self.columns and 1 <= cy <= self.rows
        )


@lru_cache(maxsize=16)
def geometry(columns: int, rows: int, towers: tuple[tuple[str, int], ...]) -> Geometry:
    return Geometry(columns, rows, dict(towers))


def geometry_for(rules: Rules) -> Geometry:

    return geometry(*rules.board.interior, tuple(sorted(rules.board.towers.items())))
