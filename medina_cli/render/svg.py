"""SVG picture of a position, built as an element tree (`xml.etree.ElementTree`).

Every piece is a `<g data-kind=… data-cell=…>` group carrying a letter, digit or shape besides its
colour (colour-blind safe): buildings their colour letter (upper case once roofed), roofs a house
with the owner's seat digit (`N` neutral), stables `S`, merchants `m` joined along their chains,
walls as bricks, towers their number, the well `W` and its bonus cells `+N`. The `<title>` and
`<desc>` carry the text board, so the picture is readable as text too. The drawing functions add
their shapes to the element they are given.
"""

from __future__ import annotations

import textwrap
import xml.etree.ElementTree as ET
from collections.abc import Callable
from functools import lru_cache, partial
from html import escape

from ..engine.board import bits
from ..engine.position import NEUTRAL, holder_name
from ..engine.scoring import score_position
from . import palette

CELL = 44
MARGIN = 26
ROW = 30  # legend line height
SWATCH = 0.6  # legend swatches are board cells at this scale
OWNER_BAND = 5  # width of a roofed palace's frame in its owner's colour
PIECE_LABELS = {"roof": "R", "neutral": "N", "stable": "S", "merchant": "m", "wall": "#"}
PIECE_NAMES = {
    "roof": "roof",
    "neutral": "neutral roof",
    "stable": "stable",
    "merchant": "merchant",
    "wall": "wall",
}


def _add(parent: ET.Element, tag: str, attrs: dict, text: str | None = None) -> ET.Element:
    """A new `tag` element with `attrs` (values as written), last child of `parent`."""
    element = ET.SubElement(parent, tag, attrs)
    if text is not None:
        element.text = text
    return element


def to_text(element: ET.Element) -> str:
    """The SVG text of `element` (every picture's one writer): attributes in the order they were set,
    text and attribute values escaped by `html.escape` (quotes too), an element with neither text nor
    children closed as `<tag/>`."""
    parts: list[str] = []
    _write(element, parts.append)
    return "".join(parts)


def _write(element: ET.Element, write) -> None:
    write(
        f"<{element.tag}"
        + "".join(f' {key}="{escape(value)}"' for key, value in element.attrib.items())
    )
    if element.text is None and not len(element):
        write("/>")
        return
    write(">" + escape(element.text or ""))
    for child in element:
        _write(child, write)
        if child.tail:
            write(escape(child.tail))
    write(f"</{element.tag}>")


def _rect(x: float, y: float, w: float, h: float) -> str:
    return f"M{x:g} {y:g}h{w:g}v{h:g}h{-w:g}z"


def _text(
    parent: ET.Element,
    x: float,
    y: float,
    text: str,
    size: int,
    fill: str,
    *,
    bold: bool = True,
    anchor: str = "",
    halo: str = "",
) -> None:
    """Text centred on (x, y) (baseline lowered by a third of the size)."""
    attrs = {"x": f"{x:g}", "y": f"{y + size * 0.35:g}", "font-size": str(size), "fill": fill}
    if bold:
        attrs["font-weight"] = "bold"
    if anchor:
        attrs["text-anchor"] = anchor
    if halo:
        attrs.update({"stroke": halo, "stroke-width": "3", "paint-order": "stroke"})
    _add(parent, "text", attrs, text)


def _circle(parent: ET.Element, cx: float, cy: float, r: float, **paint: str) -> None:
    """A circle; `paint` keyword arguments with `_` for `-` (stroke_width: stroke-width)."""
    _add(
        parent,
        "circle",
        {
            "cx": f"{cx:g}",
            "cy": f"{cy:g}",
            "r": f"{r:g}",
            **{key.replace("_", "-"): value for key, value in paint.items()},
        },
    )


def _path(parent: ET.Element, d: str, **paint: str) -> None:
    """A path; `paint` as for `_circle`."""
    _add(parent, "path", {"d": d, **{key.replace("_", "-"): value for key, value in paint.items()}})


# --- single pieces, drawn into `parent` in the cell whose top-left corner is (x, y) ------------------
def building_cell(parent: ET.Element, x: float, y: float, fill: str, letter: str) -> None:
    _path(parent, _rect(x + 2, y + 2, CELL - 4, CELL - 4), fill="#333333")
    _path(parent, _rect(x + 3.5, y + 3.5, CELL - 7, CELL - 7), fill=fill)
    _text(parent, x + CELL / 2, y + CELL / 2, letter, 18, palette.ink(fill))


def house(parent: ET.Element, x: float, y: float, seat: int, *, scale: float = 1.0) -> None:
    """A roof: a house in the owner's colour with the seat digit (N for a neutral roof)."""
    fill = palette.seat_colour(seat)[1]
    label = "N" if seat == NEUTRAL else str(seat + 1)
    cx = x + CELL / 2
    s = scale
    points = (
        f"{cx - 11 * s:g},{y + 27 * s:g} {cx - 11 * s:g},{y + 16 * s:g} {cx:g},{y + 6 * s:g} "
        f"{cx + 11 * s:g},{y + 16 * s:g} {cx + 11 * s:g},{y + 27 * s:g}"
    )
    _add(
        parent,
        "polygon",
        {"points": points, "fill": fill, "stroke": "#222222", "stroke-width": "1.5"},
    )
    _text(parent, cx, y + 19.5 * s, label, round(13 * s), palette.ink(fill))


def stable_cell(parent: ET.Element, x: float, y: float, fill: str, letter: str) -> None:
    building_cell(parent, x, y, palette.lighten(fill), letter)


def merchant(parent: ET.Element, x: float, y: float) -> None:
    cx, cy = x + CELL / 2, y + CELL / 2
    _circle(parent, cx, cy, 12, fill=palette.MERCHANT, stroke="#ffffff", stroke_width="1.5")
    _text(parent, cx, cy - 1, "m", 15, "#ffffff")


def chain_end(parent: ET.Element, x: float, y: float) -> None:
    _circle(
        parent,
        x + CELL / 2,
        y + CELL / 2,
        17,
        fill="none",
        stroke=palette.MERCHANT,
        stroke_width="2",
        stroke_dasharray="4 3",
    )


def wall(parent: ET.Element, x: float, y: float) -> None:
    third = CELL / 3
    seams = (
        f"M{x:g} {y + third:g}h{CELL}M{x:g} {y + 2 * third:g}h{CELL}M{x + CELL / 2:g} {y:g}v{third:g}"
        f"M{x + CELL / 4:g} {y + third:g}v{third:g}M{x + 3 * CELL / 4:g} {y + third:g}v{third:g}"
        f"M{x + CELL / 2:g} {y + 2 * third:g}v{third:g}"
    )
    _path(parent, _rect(x, y, CELL, CELL), fill=palette.STONE)
    _path(parent, seams, stroke="#5f574e", stroke_width="1.5", fill="none")


def tower(parent: ET.Element, x: float, y: float, number: int) -> None:
    c = CELL / 2
    _path(parent, _rect(x, y, CELL, CELL), fill=palette.TOWER)
    _circle(parent, x + c, y + c, 17, fill="#6e5f50", stroke="#d8cbb5", stroke_width="2")
    _text(parent, x + c, y + c, f"T{number}", 15, "#ffffff")


def gate(parent: ET.Element, x: float, y: float) -> None:
    _path(
        parent,
        f"M{x + 11:g} {y + 36:g}v-13a11 11 0 0 1 22 0v13",
        fill="none",
        stroke=palette.STONE,
        stroke_width="3.5",
    )


def well(parent: ET.Element, x: float, y: float) -> None:
    cx, cy = x + CELL / 2, y + CELL / 2
    _circle(parent, cx, cy, 16, fill=palette.WELL, stroke="#1b4f8a", stroke_width="2")
    _circle(parent, cx, cy, 11, fill="none", stroke="#ffffff", stroke_width="1.5")
    _text(parent, cx, cy, "W", 13, "#ffffff")


def well_bonus(parent: ET.Element, x: float, y: float, bonus: int) -> None:
    _path(
        parent,
        _rect(x + 1.5, y + 1.5, CELL - 3, CELL - 3),
        fill="none",
        stroke=palette.WELL,
        stroke_width="2",
        stroke_dasharray="5 3",
    )
    _add(
        parent,
        "rect",
        {
            "x": f"{x + 1:g}",
            "y": f"{y + 1:g}",
            "width": "20",
            "height": "13",
            "rx": "3",
            "fill": "#ffffff",
            "stroke": palette.WELL,
        },
    )
    _text(parent, x + 11, y + 7.5, f"+{bonus}", 10, palette.WELL)


def tea_tile(parent: ET.Element, x: float, y: float) -> None:
    """A tea tile: a cup on a light tile."""
    _add(
        parent,
        "rect",
        {
            "x": f"{x + 6:g}",
            "y": f"{y + 6:g}",
            "width": str(CELL - 12),
            "height": str(CELL - 12),
            "rx": "5",
            "fill": "#f3ead8",
            "stroke": palette.TEA,
            "stroke-width": "2",
        },
    )
    _path(parent, f"M{x + 13:g} {y + 17:g}h15v6a7.5 7.5 0 0 1-15 0z", fill=palette.TEA)
    _path(
        parent,
        f"M{x + 28:g} {y + 19:g}a3.5 3.5 0 0 1 0 7",
        fill="none",
        stroke=palette.TEA,
        stroke_width="2",
    )
    _path(
        parent,
        f"M{x + 17:g} {y + 15:g}q-2-2.5 0-5M{x + 23:g} {y + 15:g}q-2-2.5 0-5",
        fill="none",
        stroke=palette.TEA,
        stroke_width="1.5",
    )


def legal_mark(parent: ET.Element, x: float, y: float, labels: str) -> None:
    _path(
        parent,
        _rect(x + 4, y + 4, CELL - 8, CELL - 8),
        fill=palette.LEGAL,
        fill_opacity="0.15",
        stroke=palette.LEGAL,
        stroke_width="2",
        stroke_dasharray="5 3",
    )
    _text(parent, x + CELL / 2, y + CELL - 9, labels, 10, palette.LEGAL, halo="#ffffff")


def last_mark(parent: ET.Element, x: float, y: float, order: int) -> None:
    _path(
        parent,
        _rect(x + 1, y + 1, CELL - 2, CELL - 2),
        fill="none",
        stroke=palette.LAST,
        stroke_width="3",
        stroke_dasharray="8 4",
    )
    _circle(parent, x + CELL - 7, y + 7, 7, fill=palette.LAST)
    _text(parent, x + CELL - 7, y + 7, str(order), 10, "#ffffff")


def illegal_mark(parent: ET.Element, x: float, y: float) -> None:
    _path(
        parent,
        f"M{x + 6:g} {y + 6:g}L{x + CELL - 6:g} {y + CELL - 6:g}M{x + CELL - 6:g} {y + 6:g}"
        f"L{x + 6:g} {y + CELL - 6:g}",
        stroke=palette.ILLEGAL,
        stroke_width="5",
        stroke_linecap="round",
    )
    _circle(
        parent,
        x + CELL / 2,
        y + CELL / 2,
        19,
        fill="none",
        stroke=palette.ILLEGAL,
        stroke_width="3",
    )


def preferred_mark(parent: ET.Element, x: float, y: float) -> None:
    """The agent's preferred placement (`medina view --analysis`): a diamond outline."""
    cx, cy = x + CELL / 2, y + CELL / 2
    _path(
        parent,
        f"M{cx:g} {y + 3:g}L{x + CELL - 3:g} {cy:g}L{cx:g} {y + CELL - 3:g}L{x + 3:g} {cy:g}Z",
        fill="none",
        stroke=palette.PREFERRED,
        stroke_width="3.5",
        stroke_linejoin="round",
    )


def seat_badge(seat: int) -> str:
    """A seat's roof alone, as an inline `<svg>` (for a table of players)."""
    badge = ET.Element("svg", {"viewBox": "0 4 44 26", "aria-hidden": "true"})
    house(badge, 0, 0, seat)
    return to_text(badge)


# --- the board -------------------------------------------------------------------------------------
class _Board:
    """Pixel layout of one board: cells, margins, and the groups of pieces drawn on it."""

    def __init__(self, position):
        self.position = position
        self.geo = position.variant.geometry
        self.width = self.geo.width * CELL + 2 * MARGIN
        self.height = self.geo.height * CELL + 2 * MARGIN

    def origin(self, cell: int) -> tuple[int, int]:
        y, x = divmod(cell, self.geo.width)
        return MARGIN + x * CELL, MARGIN + (self.geo.height - 1 - y) * CELL

    def piece(self, parent: ET.Element, kind: str, cell: int, tip: str = "", **data) -> ET.Element:
        """A new piece's group in `parent` (with its tooltip), for its drawing."""
        group = _add(
            parent,
            "g",
            {
                "data-kind": kind,
                "data-cell": self.geo.name(cell),
                **{f"data-{key}": str(value) for key, value in data.items()},
            },
        )
        if tip:
            _add(group, "title", {}, tip)
        return group

    def ground(self, root: ET.Element) -> None:
        """The board's ground (ring, sand, grid, coordinates): the same group in every picture of a board."""
        geo = self.geo
        root.append(_ground(geo.width, geo.height, geo.columns, geo.rows))

    def _union(self, cells: int, inset: float) -> str:
        """Path covering `cells` with squares inset by `inset`, bridged between orthogonal neighbours."""
        geo, parts = self.geo, []
        for cell in bits(cells):
            x, y = self.origin(cell)
            parts.append(_rect(x + inset, y + inset, CELL - 2 * inset, CELL - 2 * inset))
            east = (cell + 1) % geo.width and cells >> (cell + 1) & 1
            north = cells >> (cell + geo.width) & 1
            if east:
                parts.append(_rect(x + CELL - inset, y + inset, 2 * inset, CELL - 2 * inset))
            if north:
                parts.append(_rect(x + inset, y - inset, CELL - 2 * inset, 2 * inset))
            if east and north and cells >> (cell + geo.width + 1) & 1:  # the middle of a 2x2 block
                parts.append(_rect(x + CELL - inset, y - inset, 2 * inset, 2 * inset))
        return "".join(parts)

    def palaces(self, root: ET.Element) -> None:
        position, rules = self.position, self.position.rules
        letters = {c.name: c.letter for c in rules.colours}
        for palace in position.palaces:
            fill = palette.building_colour(rules, palace.colour)
            roofed = palace.owner is not None
            letter = letters[palace.colour].upper() if roofed else letters[palace.colour]
            owner = holder_name(position.players, palace.owner)
            pieces = palace.buildings | palace.stables
            tip = f"{palace.colour} palace, size {pieces.bit_count()}, " + (
                "unroofed"
                if not roofed
                else "neutral roof"
                if palace.owner == NEUTRAL
                else f"owned by {owner}"
            )
            group = _add(
                root,
                "g",
                {
                    "data-kind": "palace",
                    "data-colour": palace.colour,
                    **({"data-owner": owner} if roofed else {}),
                },
            )
            _add(group, "title", {}, tip)
            _path(group, self._union(pieces, 1.5), fill=palette.OUTLINE)
            inset: float = 3
            if roofed:  # framed in its owner's colour, between two dark edges: readable on any fill
                _add(
                    group,
                    "path",
                    {
                        "data-band": "owner",
                        "d": self._union(pieces, 2.5),
                        "fill": palette.seat_colour(palace.owner)[1],
                    },
                )
                _path(group, self._union(pieces, OWNER_BAND + 2.5), fill=palette.OUTLINE)
                inset = OWNER_BAND + 3.5
            _path(group, self._union(pieces, inset), fill=fill)
            stable_fill = palette.lighten(fill)
            for cell in bits(palace.stables):
                x, y = self.origin(cell)
                stable = self.piece(group, "stable", cell)
                _path(
                    stable,
                    _rect(x + inset, y + inset, CELL - 2 * inset, CELL - 2 * inset),
                    fill=stable_fill,
                )
                _text(
                    stable,
                    x + CELL / 2,
                    y + CELL / 2,
                    "S" if roofed else "s",
                    16,
                    palette.ink(stable_fill),
                )
            for cell in bits(palace.buildings):
                x, y = self.origin(cell)
                building = self.piece(group, "building", cell, colour=palace.colour)
                if cell == palace.roof:
                    _text(building, x + CELL / 2, y + 35, letter, 11, palette.ink(fill))
                    house(
                        self.piece(group, "roof", cell, f"roof of {owner}", owner=owner),
                        x,
                        y,
                        palace.owner,
                    )
                else:
                    _text(building, x + CELL / 2, y + CELL / 2, letter, 18, palette.ink(fill))

    def merchants(self, root: ET.Element) -> None:
        geo, merchants = self.geo, self.position.merchants
        half = CELL / 2
        links = []
        for cell in bits(merchants):
            x, y = self.origin(cell)
            for step, (dx, dy) in ((1, (CELL, 0)), (geo.width, (0, -CELL))):
                if (step > 1 or (cell + 1) % geo.width) and merchants >> (cell + step) & 1:
                    links.append(f"M{x + half:g} {y + half:g}l{dx} {dy}")
        if links:
            _add(
                root,
                "path",
                {
                    "data-kind": "merchant-chain",
                    "d": "".join(links),
                    "stroke": palette.MERCHANT,
                    "stroke-width": "7",
                    "stroke-linecap": "round",
                },
            )
        ends = self.position.live_chain_ends()
        for cell in bits(merchants):
            x, y = self.origin(cell)
            live_end = bool(ends >> cell & 1)
            group = self.piece(
                root,
                "merchant",
                cell,
                "merchant (end of the live chain)" if live_end else "merchant",
            )
            if live_end:
                chain_end(group, x, y)
            merchant(group, x, y)

    def ring(self, root: ET.Element) -> None:
        position, geo = self.position, self.geo
        for cell in bits(position.walls):
            wall(self.piece(root, "wall", cell), *self.origin(cell))
        gates = (
            geo.ring & ~position.walls if position.to_move is None else geo.gates(position.walls)
        )
        for cell in bits(gates):
            gate(self.piece(root, "gate", cell, "gate (stays open)"), *self.origin(cell))
        holders = position.tower_tile
        for cell, number in sorted(geo.tower_of_cell.items(), key=lambda item: item[1]):
            x, y = self.origin(cell)
            tip = f"tower {number}"
            seat = _holder_seat(holders.get(number))
            if seat is not None:
                tip += f": tile held by {holder_name(position.players, seat)}"
            group = self.piece(root, "tower", cell, tip, tower=number)
            tower(group, x, y, number)
            if seat is not None:
                self.corner_badge(group, x == MARGIN, y == MARGIN, seat)

    def corner_badge(self, parent: ET.Element, west: bool, north: bool, seat: int) -> None:
        """A small house for a tower tile's holder, in the margin corner beside the tower."""
        scale = 0.8
        qx = 0 if west else self.width - MARGIN
        qy = 0 if north else self.height - MARGIN
        house(parent, qx + MARGIN / 2 - CELL / 2, qy + MARGIN / 2 - 16.5 * scale, seat, scale=scale)

    def well(self, root: ET.Element) -> None:
        """The well, drawn under the pieces."""
        position = self.position
        if position.well is not None:
            well(self.piece(root, "well", position.well, "the well"), *self.origin(position.well))

    def well_bonus(self, root: ET.Element) -> None:
        """The well's bonus cells, drawn over the pieces."""
        position = self.position
        if position.well is None:
            return
        bonus = position.rules.well.bonus
        for cell in bits(position.well_bonus_cells):
            tip = f"well bonus: +{bonus} for an owned building or stable here"
            well_bonus(self.piece(root, "well-bonus", cell, tip), *self.origin(cell), bonus)

    def legal(self, root: ET.Element, placements) -> None:
        rules = self.position.rules
        letters = {c.name: c.letter for c in rules.colours}
        by_cell: dict[int, list[str]] = {}
        for placement in placements:
            if placement.square is not None:  # a tea tile has no cell to mark
                by_cell.setdefault(self.geo.cell_of_square[placement.square], []).append(
                    placement.piece
                )
        for cell, pieces in sorted(by_cell.items()):
            labels = "".join(letters.get(p) or PIECE_LABELS[p] for p in pieces)
            group = self.piece(
                root,
                "legal",
                cell,
                f"{self.geo.name(cell)}: legal for " + ", ".join(pieces),
                pieces=" ".join(pieces),
            )
            legal_mark(group, *self.origin(cell), labels)

    def last(self, root: ET.Element, cells) -> None:
        for order, cell in enumerate(cells, 1):
            last_mark(
                self.piece(root, "last", cell, f"placement {order} of the last turn", order=order),
                *self.origin(cell),
                order,
            )

    def illegal(self, root: ET.Element, cell: int, why: str) -> None:
        illegal_mark(self.piece(root, "illegal", cell, f"illegal: {why}"), *self.origin(cell))

    def preferred(self, root: ET.Element, cell: int, why: str) -> None:
        preferred_mark(self.piece(root, "preferred", cell, why), *self.origin(cell))


@lru_cache(maxsize=8)
def _ground(width: int, height: int, columns: int, rows: int) -> ET.Element:
    """The ground group of a board `width` x `height` cells (wall ring included) around `columns` x `rows`
    interior cells (shared: serialised, never changed)."""
    group = ET.Element("g", {"data-layer": "ground"})
    full_width, full_height = width * CELL + 2 * MARGIN, height * CELL + 2 * MARGIN
    lines = "".join(f"M{MARGIN + x * CELL} {MARGIN}v{height * CELL}" for x in range(width + 1))
    lines += "".join(f"M{MARGIN} {MARGIN + y * CELL}h{width * CELL}" for y in range(height + 1))
    _path(group, _rect(MARGIN, MARGIN, width * CELL, height * CELL), fill=palette.RING)
    _path(
        group, _rect(MARGIN + CELL, MARGIN + CELL, columns * CELL, rows * CELL), fill=palette.SAND
    )
    _path(group, lines, stroke="#c9b68c", stroke_width="1", fill="none")
    for x in range(width):
        cx = MARGIN + x * CELL + CELL / 2
        for cy in (MARGIN / 2, full_height - MARGIN / 2):
            _text(group, cx, cy, chr(65 + x), 13, "#333333")
    for y in range(height):
        cy = MARGIN + (height - 1 - y) * CELL + CELL / 2
        for cx in (MARGIN / 2, full_width - MARGIN / 2):
            _text(group, cx, cy, str(y + 1), 13, "#333333")
    return group


def _holder_seat(holder) -> int | None:
    """Seat (or NEUTRAL) of a tile's holding palace; None if nobody holds it."""
    return None if holder is None else holder.owner


# --- legend ----------------------------------------------------------------------------------------
def _legend(
    root: ET.Element,
    position,
    *,
    totals,
    legal: bool,
    last: bool,
    illegal: bool,
    top: float,
    width: float,
    preferred: bool = False,
    caption: str = "",
) -> float:
    """The legend under the board, added to `root`: players with roof colour, score and tiles; then
    every piece kind; then the letters of the legal marks and the `caption`, each wrapped to the width.
    Returns the height it reaches."""
    rules = position.rules
    group = _add(root, "g", {"data-layer": "legend"})
    y = top

    def entry(kind: str) -> ET.Element:
        return _add(group, "g", {"data-legend": kind})

    def swatch(parent: ET.Element, x: float, y: float) -> ET.Element:
        """A board cell at the legend's scale, to draw a piece into."""
        return _add(parent, "g", {"transform": f"translate({x:g} {y - 4:g}) scale({SWATCH})"})

    def label(parent: ET.Element, x: float, y: float, text: str, *, bold: bool = False) -> None:
        _text(parent, x, y - 4 + CELL * SWATCH / 2, text, 13, "#222222", bold=bold, anchor="start")

    palace_tiles = _tiles_by_seat(position.palace_tile)
    tower_tiles = _tiles_by_seat(position.tower_tile)
    for seat, name in enumerate(position.players):
        colour_name = palette.seat_colour(seat)[0]
        text = f"{seat + 1} {name} ({colour_name} roofs)"
        if totals is not None:
            text += f": {totals[name]} points"
        held = (
            [
                f"palace tile{'s' if len(palace_tiles[seat]) > 1 else ''} {', '.join(map(str, palace_tiles[seat]))}"
            ]
            if palace_tiles.get(seat)
            else []
        )
        if tower_tiles.get(seat):
            held.append(
                f"tower tile{'s' if len(tower_tiles[seat]) > 1 else ''} "
                f"{', '.join(map(str, sorted(tower_tiles[seat])))}"
            )
        if position.tea is not None and position.tea[seat]:
            held.append(f"{position.tea[seat]} tea tile{'s' if position.tea[seat] > 1 else ''}")
        if held:
            text += "; " + "; ".join(held)
        player = entry("player")
        house(swatch(player, MARGIN, y), 0, 5.5, seat)
        label(player, MARGIN + 34, y, text, bold=True)
        y += ROW
    keys: list[tuple[Callable[[ET.Element], None], str]] = []  # (draw into a swatch, words)
    for colour in rules.colours:
        fill = palette.building_colour(rules, colour.name)
        keys.append(
            (
                partial(building_cell, x=0, y=0, fill=fill, letter=colour.letter),
                f"{colour.name} (tile {colour.value})",
            )
        )
    if rules.supply.neutral_roofs:
        keys.append((lambda g: house(g, 0, 5.5, NEUTRAL), "neutral roof"))
    stable_fill = palette.building_colour(rules, rules.colours[0].name)
    keys += [
        (lambda g: stable_cell(g, 0, 0, stable_fill, "S"), "stable"),
        (lambda g: merchant(g, 0, 0), "merchant"),
    ]
    if position.live_chain_ends():

        def live_chain_end(g: ET.Element) -> None:
            chain_end(g, 0, 0)
            merchant(g, 0, 0)

        keys.append((live_chain_end, "live chain end"))
    keys += [
        (lambda g: wall(g, 0, 0), "wall"),
        (lambda g: gate(g, 0, 0), "gate"),
        (lambda g: tower(g, 0, 0, 1), "tower T1"),
        (lambda g: house(g, 0, 5.5, 0), "tower tile holder"),
    ]
    if position.well is not None:
        keys += [
            (lambda g: well(g, 0, 0), "well"),
            (lambda g: well_bonus(g, 0, 0, rules.well.bonus), "well bonus cell"),
        ]
    if rules.tea.colour:
        keys.append((lambda g: tea_tile(g, 0, 0), "tea tile"))
    if legal:
        keys.append(
            (lambda g: legal_mark(g, 0, 0, rules.colours[0].letter + "S"), "legal placement")
        )
    if last:
        keys.append((lambda g: last_mark(g, 0, 0, 1), "last turn"))
    if illegal:
        keys.append((lambda g: illegal_mark(g, 0, 0), "illegal placement"))
    if preferred:
        keys.append((lambda g: preferred_mark(g, 0, 0), "agent's preferred next"))
    column = 170
    per_row = max(1, int((width - MARGIN) // column))
    for k, (draw, text) in enumerate(keys):
        x = MARGIN + (k % per_row) * column
        row_y = y + (k // per_row) * ROW
        piece = entry("piece")
        draw(swatch(piece, x, row_y))
        label(piece, x + 34, row_y, text)
    y += -(-len(keys) // per_row) * ROW
    notes = []
    if legal:
        codes = [f"{c.letter} {c.name}" for c in rules.colours] + [
            f"{code} {PIECE_NAMES[piece]}"
            for piece, code in PIECE_LABELS.items()
            if piece != "neutral" or rules.supply.neutral_roofs
        ]
        notes.append(
            (
                "legal-codes",
                "Letters on a legal placement: the pieces that may go there: " + ", ".join(codes),
            )
        )
    if caption:
        notes.append(("caption", caption))
    for kind, words in notes:
        for line in textwrap.wrap(words, max(20, int((width - 2 * MARGIN) / 7.4))):
            label(entry(kind), MARGIN, y, line)
            y += ROW * 0.7
    return y


def _tiles_by_seat(holders: dict) -> dict[int, list]:
    by_seat: dict[int, list] = {}
    for tile, holder in holders.items():
        seat = _holder_seat(holder)
        if seat is not None and seat != NEUTRAL:
            by_seat.setdefault(seat, []).append(tile)
    return by_seat


def _document(title: str, description: str = "") -> ET.Element:
    """The `<svg>` element with its title and description (its size is set once drawn)."""
    root = ET.Element(
        "svg",
        {
            "xmlns": "http://www.w3.org/2000/svg",
            "viewBox": "",
            "width": "",
            "height": "",
            "role": "img",
            "font-family": "DejaVu Sans, Verdana, sans-serif",
            "text-anchor": "middle",
        },
    )
    _add(root, "title", {}, title)
    if description:
        _add(root, "desc", {}, description)
    return root


def _finished(root: ET.Element, width: float, height: float) -> str:
    """The document's text, sized `width` by `height`."""
    root.attrib.update(
        {"viewBox": f"0 0 {width:g} {height:g}", "width": f"{width:g}", "height": f"{height:g}"}
    )
    return to_text(root) + "\n"


def board_svg(
    position,
    *,
    title: str,
    description: str = "",
    legal=None,
    last=(),
    illegal=None,
    totals: dict[str, int] | None = None,
    legend: bool = True,
    preferred=None,
    caption: str = "",
    position_caption: str = "",
) -> str:
    """The SVG document of `position` (a `Position`: a Game's, or a finished board's).

    `legal`: the placements to mark (`Placement` values, as `legal_placements()` gives them); `last`: cells
    placed in the last turn, in order; `illegal`: (cell, reason) of a refused placement; `totals`: player
    name -> score for the legend;
    `preferred`: (cell, words) of an agent's preferred next placement; `caption`: words shown under the
    legend (why a replay stopped); `position_caption`: a small line under everything, naming the position
    (its file, turn, player to move).
    """
    board = _Board(position)
    root = _document(title, description)
    board.ground(root)
    board.well(root)
    board.ring(root)
    board.palaces(root)
    board.merchants(root)
    board.well_bonus(root)
    if legal is not None:
        board.legal(root, legal)
    board.last(root, last)
    if illegal is not None:
        board.illegal(root, *illegal)
    if preferred is not None:
        board.preferred(root, *preferred)
    height = board.height
    if legend:
        height = (
            _legend(
                root,
                position,
                totals=totals,
                legal=legal is not None,
                last=bool(last),
                illegal=illegal is not None,
                top=board.height + 6,
                width=board.width,
                caption=caption,
            )
            + 8
        )
    if position_caption:
        group = _add(root, "g", {"data-layer": "caption"})
        for line in textwrap.wrap(position_caption, max(20, int((board.width - 2 * MARGIN) / 6.8))):
            _text(group, MARGIN, height + 4, line, 12, "#555555", bold=False, anchor="start")
            height += 16
    return _finished(root, board.width, height)


def picture(position) -> str:
    """The picture a position shows in a notebook (`_repr_svg_`): the board, the scores in the legend."""
    stage = "nobody to move" if position.to_move is None else f"{position.to_move} to move"
    return board_svg(
        position,
        title=f"Medina: {position.rules.ruleset_id}, {stage}",
        description=position.grid(),
        totals=score_position(position, finished=position.to_move is None).totals,
    )


def legend_svg(
    position, *, title: str, last: bool = False, illegal: bool = False, preferred: bool = False
) -> str:
    """The legend alone (players and their roof colours, every piece kind), as wide as the board."""
    width = _Board(position).width
    root = _document(title)
    height = _legend(
        root,
        position,
        totals=None,
        legal=False,
        last=last,
        illegal=illegal,
        top=4,
        width=width,
        preferred=preferred,
    )
    return _finished(root, width, height + 4)
