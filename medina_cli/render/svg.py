"""SVG picture of a position, built with the standard library only.

Every piece is a `<g data-kind=… data-cell=…>` group carrying a letter, digit or shape besides its
colour (colour-blind safe): buildings their colour letter (upper case once roofed), roofs a house
with the owner's seat digit (`N` neutral), stables `S`, merchants `m` joined along their chains,
walls as bricks, towers their number, the well `W` and its bonus cells `+N`. The `<title>` and
`<desc>` carry the text board, so the picture is readable as text too.
"""

from __future__ import annotations

import textwrap
from html import escape

from ..engine.board import bits
from ..engine.position import NEUTRAL, RENDERERS, holder_name
from ..engine.scoring import score_position
from . import palette

CELL = 44
MARGIN = 26
ROW = 30  # legend line height
SWATCH = 0.6  # legend swatches are board cells at this scale
OWNER_BAND = 5  # width of a roofed palace's frame in its owner's colour
PIECE_LABELS = {"roof": "R", "neutral": "N", "stable": "S", "merchant": "m", "wall": "#"}
PIECE_NAMES = {"roof": "roof", "neutral": "neutral roof", "stable": "stable", "merchant": "merchant", "wall": "wall"}


def _rect(x: float, y: float, w: float, h: float) -> str:
    return f"M{x:g} {y:g}h{w:g}v{h:g}h{-w:g}z"


def _text(x: float, y: float, text: str, size: int, fill: str, *, bold: bool = True, anchor: str = "",
          halo: str = "") -> str:
    """Text centred on (x, y) (baseline lowered by a third of the size)."""
    attrs = f' font-size="{size}" fill="{fill}"' + (' font-weight="bold"' if bold else "")
    if anchor:
        attrs += f' text-anchor="{anchor}"'
    if halo:
        attrs += f' stroke="{halo}" stroke-width="3" paint-order="stroke"'
    return f'<text x="{x:g}" y="{y + size * 0.35:g}"{attrs}>{escape(text)}</text>'


def _title(text: str) -> str:
    return f"<title>{escape(text)}</title>"


# --- single pieces, drawn in the cell whose top-left corner is (x, y) -------------------------------
def building_cell(x: float, y: float, fill: str, letter: str) -> str:
    return (f'<path d="{_rect(x + 2, y + 2, CELL - 4, CELL - 4)}" fill="#333333"/>'
            f'<path d="{_rect(x + 3.5, y + 3.5, CELL - 7, CELL - 7)}" fill="{fill}"/>'
            + _text(x + CELL / 2, y + CELL / 2, letter, 18, palette.ink(fill)))


def house(x: float, y: float, seat: int, *, scale: float = 1.0) -> str:
    """A roof: a house in the owner's colour with the seat digit (N for a neutral roof)."""
    fill = palette.seat_colour(seat)[1]
    label = "N" if seat == NEUTRAL else str(seat + 1)
    cx = x + CELL / 2
    s = scale
    points = (f"{cx - 11 * s:g},{y + 27 * s:g} {cx - 11 * s:g},{y + 16 * s:g} {cx:g},{y + 6 * s:g} "
              f"{cx + 11 * s:g},{y + 16 * s:g} {cx + 11 * s:g},{y + 27 * s:g}")
    return (f'<polygon points="{points}" fill="{fill}" stroke="#222222" stroke-width="1.5"/>'
            + _text(cx, y + 19.5 * s, label, round(13 * s), palette.ink(fill)))


def stable_cell(x: float, y: float, fill: str, letter: str) -> str:
    return building_cell(x, y, palette.lighten(fill), letter)


def merchant(x: float, y: float) -> str:
    cx, cy = x + CELL / 2, y + CELL / 2
    return (f'<circle cx="{cx:g}" cy="{cy:g}" r="12" fill="{palette.MERCHANT}" stroke="#ffffff" stroke-width="1.5"/>'
            + _text(cx, cy - 1, "m", 15, "#ffffff"))


def chain_end(x: float, y: float) -> str:
    return (f'<circle cx="{x + CELL / 2:g}" cy="{y + CELL / 2:g}" r="17" fill="none" '
            f'stroke="{palette.MERCHANT}" stroke-width="2" stroke-dasharray="4 3"/>')


def wall(x: float, y: float) -> str:
    third = CELL / 3
    seams = (f"M{x:g} {y + third:g}h{CELL}M{x:g} {y + 2 * third:g}h{CELL}M{x + CELL / 2:g} {y:g}v{third:g}"
             f"M{x + CELL / 4:g} {y + third:g}v{third:g}M{x + 3 * CELL / 4:g} {y + third:g}v{third:g}"
             f"M{x + CELL / 2:g} {y + 2 * third:g}v{third:g}")
    return (f'<path d="{_rect(x, y, CELL, CELL)}" fill="{palette.STONE}"/>'
            f'<path d="{seams}" stroke="#5f574e" stroke-width="1.5" fill="none"/>')


def tower(x: float, y: float, number: int) -> str:
    c = CELL / 2
    return (f'<path d="{_rect(x, y, CELL, CELL)}" fill="{palette.TOWER}"/>'
            f'<circle cx="{x + c:g}" cy="{y + c:g}" r="17" fill="#6e5f50" stroke="#d8cbb5" stroke-width="2"/>'
            + _text(x + c, y + c, f"T{number}", 15, "#ffffff"))


def gate(x: float, y: float) -> str:
    return (f'<path d="M{x + 11:g} {y + 36:g}v-13a11 11 0 0 1 22 0v13" fill="none" stroke="{palette.STONE}" '
            'stroke-width="3.5"/>')


def well(x: float, y: float) -> str:
    cx, cy = x + CELL / 2, y + CELL / 2
    return (f'<circle cx="{cx:g}" cy="{cy:g}" r="16" fill="{palette.WELL}" stroke="#1b4f8a" stroke-width="2"/>'
            f'<circle cx="{cx:g}" cy="{cy:g}" r="11" fill="none" stroke="#ffffff" stroke-width="1.5"/>'
            + _text(cx, cy, "W", 13, "#ffffff"))


def well_bonus(x: float, y: float, bonus: int) -> str:
    return (f'<path d="{_rect(x + 1.5, y + 1.5, CELL - 3, CELL - 3)}" fill="none" stroke="{palette.WELL}" '
            'stroke-width="2" stroke-dasharray="5 3"/>'
            f'<rect x="{x + 1:g}" y="{y + 1:g}" width="20" height="13" rx="3" fill="#ffffff" '
            f'stroke="{palette.WELL}"/>' + _text(x + 11, y + 7.5, f"+{bonus}", 10, palette.WELL))


def tea_tile(x: float, y: float) -> str:
    """A tea tile: a cup on a light tile."""
    return (f'<rect x="{x + 6:g}" y="{y + 6:g}" width="{CELL - 12}" height="{CELL - 12}" rx="5" fill="#f3ead8" '
            f'stroke="{palette.TEA}" stroke-width="2"/>'
            f'<path d="M{x + 13:g} {y + 17:g}h15v6a7.5 7.5 0 0 1-15 0z" fill="{palette.TEA}"/>'
            f'<path d="M{x + 28:g} {y + 19:g}a3.5 3.5 0 0 1 0 7" fill="none" stroke="{palette.TEA}" stroke-width="2"/>'
            f'<path d="M{x + 17:g} {y + 15:g}q-2-2.5 0-5M{x + 23:g} {y + 15:g}q-2-2.5 0-5" fill="none" '
            f'stroke="{palette.TEA}" stroke-width="1.5"/>')


def legal_mark(x: float, y: float, labels: str) -> str:
    return (f'<path d="{_rect(x + 4, y + 4, CELL - 8, CELL - 8)}" fill="{palette.LEGAL}" fill-opacity="0.15" '
            f'stroke="{palette.LEGAL}" stroke-width="2" stroke-dasharray="5 3"/>'
            + _text(x + CELL / 2, y + CELL - 9, labels, 10, palette.LEGAL, halo="#ffffff"))


def last_mark(x: float, y: float, order: int) -> str:
    return (f'<path d="{_rect(x + 1, y + 1, CELL - 2, CELL - 2)}" fill="none" stroke="{palette.LAST}" '
            'stroke-width="3" stroke-dasharray="8 4"/>'
            f'<circle cx="{x + CELL - 7:g}" cy="{y + 7:g}" r="7" fill="{palette.LAST}"/>'
            + _text(x + CELL - 7, y + 7, str(order), 10, "#ffffff"))


def illegal_mark(x: float, y: float) -> str:
    return (f'<path d="M{x + 6:g} {y + 6:g}L{x + CELL - 6:g} {y + CELL - 6:g}M{x + CELL - 6:g} {y + 6:g}'
            f'L{x + 6:g} {y + CELL - 6:g}" stroke="{palette.ILLEGAL}" stroke-width="5" stroke-linecap="round"/>'
            f'<circle cx="{x + CELL / 2:g}" cy="{y + CELL / 2:g}" r="19" fill="none" stroke="{palette.ILLEGAL}" '
            'stroke-width="3"/>')


def preferred_mark(x: float, y: float) -> str:
    """The agent's preferred placement (`medina view --analysis`): a diamond outline."""
    cx, cy = x + CELL / 2, y + CELL / 2
    return (f'<path d="M{cx:g} {y + 3:g}L{x + CELL - 3:g} {cy:g}L{cx:g} {y + CELL - 3:g}L{x + 3:g} {cy:g}Z" '
            f'fill="none" stroke="{palette.PREFERRED}" stroke-width="3.5" stroke-linejoin="round"/>')


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

    def piece(self, kind: str, cell: int, body: str, tip: str = "", **data) -> str:
        attrs = f' data-kind="{kind}" data-cell="{self.geo.name(cell)}"' + "".join(
            f' data-{key}="{escape(str(value))}"' for key, value in data.items())
        return f"<g{attrs}>{_title(tip) if tip else ''}{body}</g>"

    def ground(self) -> str:
        geo = self.geo
        ring = _rect(MARGIN, MARGIN, geo.width * CELL, geo.height * CELL)
        inner = _rect(MARGIN + CELL, MARGIN + CELL, geo.columns * CELL, geo.rows * CELL)
        lines = "".join(f"M{MARGIN + x * CELL} {MARGIN}v{geo.height * CELL}" for x in range(geo.width + 1))
        lines += "".join(f"M{MARGIN} {MARGIN + y * CELL}h{geo.width * CELL}" for y in range(geo.height + 1))
        labels = []
        for x in range(geo.width):
            cx = MARGIN + x * CELL + CELL / 2
            for cy in (MARGIN / 2, self.height - MARGIN / 2):
                labels.append(_text(cx, cy, chr(65 + x), 13, "#333333"))
        for y in range(geo.height):
            cy = MARGIN + (geo.height - 1 - y) * CELL + CELL / 2
            for cx in (MARGIN / 2, self.width - MARGIN / 2):
                labels.append(_text(cx, cy, str(y + 1), 13, "#333333"))
        return (f'<g data-layer="ground"><path d="{ring}" fill="{palette.RING}"/>'
                f'<path d="{inner}" fill="{palette.SAND}"/>'
                f'<path d="{lines}" stroke="#c9b68c" stroke-width="1" fill="none"/>{"".join(labels)}</g>')

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

    def palaces(self) -> str:
        position, rules = self.position, self.position.rules
        letters = {c.name: c.letter for c in rules.colours}
        out = []
        for palace in position.palaces:
            fill = palette.building_colour(rules, palace.colour)
            roofed = palace.owner is not None
            letter = letters[palace.colour].upper() if roofed else letters[palace.colour]
            owner = holder_name(position.players, palace.owner)
            pieces = palace.buildings | palace.stables
            body = [f'<path d="{self._union(pieces, 1.5)}" fill="{palette.OUTLINE}"/>']
            inset = 3
            if roofed:  # framed in its owner's colour, between two dark edges: readable on any fill
                body.append(f'<path data-band="owner" d="{self._union(pieces, 2.5)}" '
                            f'fill="{palette.seat_colour(palace.owner)[1]}"/>')
                body.append(f'<path d="{self._union(pieces, OWNER_BAND + 2.5)}" fill="{palette.OUTLINE}"/>')
                inset = OWNER_BAND + 3.5
            body.append(f'<path d="{self._union(pieces, inset)}" fill="{fill}"/>')
            stable_fill = palette.lighten(fill)
            for cell in bits(palace.stables):
                x, y = self.origin(cell)
                inner = _rect(x + inset, y + inset, CELL - 2 * inset, CELL - 2 * inset)
                body.append(self.piece("stable", cell, f'<path d="{inner}" fill="{stable_fill}"/>'
                                       + _text(x + CELL / 2, y + CELL / 2, "S" if roofed else "s", 16,
                                               palette.ink(stable_fill))))
            for cell in bits(palace.buildings):
                x, y = self.origin(cell)
                if cell == palace.roof:
                    body.append(self.piece("building", cell, _text(x + CELL / 2, y + 35, letter, 11,
                                                                   palette.ink(fill)), colour=palace.colour))
                    body.append(self.piece("roof", cell, house(x, y, palace.owner), f"roof of {owner}",
                                           owner=owner))
                else:
                    body.append(self.piece("building", cell, _text(x + CELL / 2, y + CELL / 2, letter, 18,
                                                                   palette.ink(fill)), colour=palace.colour))
            tip = f"{palace.colour} palace, size {pieces.bit_count()}, " + (
                "unroofed" if not roofed else "neutral roof" if palace.owner == NEUTRAL else f"owned by {owner}")
            out.append(f'<g data-kind="palace" data-colour="{escape(palace.colour)}"'
                       + (f' data-owner="{escape(owner)}"' if roofed else "") + f">{_title(tip)}{''.join(body)}</g>")
        return "".join(out)

    def merchants(self) -> str:
        geo, merchants = self.geo, self.position.merchants
        half = CELL / 2
        links = []
        for cell in bits(merchants):
            x, y = self.origin(cell)
            for step, (dx, dy) in ((1, (CELL, 0)), (geo.width, (0, -CELL))):
                if (step > 1 or (cell + 1) % geo.width) and merchants >> (cell + step) & 1:
                    links.append(f"M{x + half:g} {y + half:g}l{dx} {dy}")
        out = [f'<path data-kind="merchant-chain" d="{"".join(links)}" stroke="{palette.MERCHANT}" '
               'stroke-width="7" stroke-linecap="round"/>'] if links else []
        ends = self.position.live_chain_ends()
        for cell in bits(merchants):
            x, y = self.origin(cell)
            live_end = bool(ends >> cell & 1)
            out.append(self.piece("merchant", cell, (chain_end(x, y) if live_end else "") + merchant(x, y),
                                  "merchant (end of the live chain)" if live_end else "merchant"))
        return "".join(out)

    def ring(self) -> str:
        position, geo = self.position, self.geo
        out = []
        for cell in bits(position.walls):
            out.append(self.piece("wall", cell, wall(*self.origin(cell))))
        gates = geo.ring & ~position.walls if position.to_move is None else geo.gates(position.walls)
        for cell in bits(gates):
            out.append(self.piece("gate", cell, gate(*self.origin(cell)), "gate (stays open)"))
        holders = position.tower_tile
        for cell, number in sorted(geo.tower_of_cell.items(), key=lambda item: item[1]):
            x, y = self.origin(cell)
            body = tower(x, y, number)
            tip = f"tower {number}"
            seat = _holder_seat(holders.get(number))
            if seat is not None:
                body += self.corner_badge(x == MARGIN, y == MARGIN, seat)
                tip += f": tile held by {holder_name(position.players, seat)}"
            out.append(self.piece("tower", cell, body, tip, tower=number))
        return "".join(out)

    def corner_badge(self, west: bool, north: bool, seat: int) -> str:
        """A small house for a tower tile's holder, in the margin corner beside the tower."""
        scale = 0.8
        qx = 0 if west else self.width - MARGIN
        qy = 0 if north else self.height - MARGIN
        return house(qx + MARGIN / 2 - CELL / 2, qy + MARGIN / 2 - 16.5 * scale, seat, scale=scale)

    def well(self) -> tuple[str, str]:
        """(the well, drawn under the pieces; its bonus cells, drawn over them)."""
        position = self.position
        if position.well is None:
            return "", ""
        bonus = position.rules.well.bonus
        cells = [self.piece("well-bonus", cell, well_bonus(*self.origin(cell), bonus),
                            f"well bonus: +{bonus} for an owned building or stable here")
                 for cell in bits(position.well_bonus_cells)]
        return self.piece("well", position.well, well(*self.origin(position.well)), "the well"), "".join(cells)

    def legal(self, placements) -> str:
        rules = self.position.rules
        letters = {c.name: c.letter for c in rules.colours}
        by_cell: dict[int, list[str]] = {}
        for placement in placements:
            if placement.square is not None:  # a tea tile has no cell to mark
                by_cell.setdefault(self.geo.cell_of_square[placement.square], []).append(placement.piece)
        out = []
        for cell, pieces in sorted(by_cell.items()):
            labels = "".join(letters.get(p) or PIECE_LABELS[p] for p in pieces)
            out.append(self.piece("legal", cell, legal_mark(*self.origin(cell), labels),
                                  f"{self.geo.name(cell)}: legal for " + ", ".join(pieces), pieces=" ".join(pieces)))
        return "".join(out)

    def last(self, cells) -> str:
        return "".join(self.piece("last", cell, last_mark(*self.origin(cell), order),
                                  f"placement {order} of the last turn", order=order)
                       for order, cell in enumerate(cells, 1))

    def illegal(self, cell: int, why: str) -> str:
        return self.piece("illegal", cell, illegal_mark(*self.origin(cell)), f"illegal: {why}")

    def preferred(self, cell: int, why: str) -> str:
        return self.piece("preferred", cell, preferred_mark(*self.origin(cell)), why)


def _holder_seat(holder) -> int | None:
    """Seat (or NEUTRAL) of a tile's holding palace; None if nobody holds it."""
    return None if holder is None else holder.owner


# --- legend ----------------------------------------------------------------------------------------
def _legend(position, *, totals, legal: bool, last: bool, illegal: bool, top: float, width: float,
            preferred: bool = False, caption: str = "") -> tuple[str, float]:
    """The legend under the board: players with roof colour, score and tiles; then every piece kind;
    then the letters of the legal marks and the `caption`, each wrapped to the width."""
    rules = position.rules
    out = []
    y = top

    def swatch(x: float, y: float, drawing: str) -> str:
        return f'<g transform="translate({x:g} {y - 4:g}) scale({SWATCH})">{drawing}</g>'

    def label(x: float, y: float, text: str, *, bold: bool = False) -> str:
        return _text(x, y - 4 + CELL * SWATCH / 2, text, 13, "#222222", bold=bold, anchor="start")

    palace_tiles = _tiles_by_seat(position.palace_tile)
    tower_tiles = _tiles_by_seat(position.tower_tile)
    for seat, name in enumerate(position.players):
        colour_name = palette.seat_colour(seat)[0]
        text = f"{seat + 1} {name} ({colour_name} roofs)"
        if totals is not None:
            text += f": {totals[name]} points"
        held = [f"palace tile{'s' if len(palace_tiles[seat]) > 1 else ''} {', '.join(map(str, palace_tiles[seat]))}"
                ] if palace_tiles.get(seat) else []
        if tower_tiles.get(seat):
            held.append(f"tower tile{'s' if len(tower_tiles[seat]) > 1 else ''} "
                        f"{', '.join(map(str, sorted(tower_tiles[seat])))}")
        if position.tea is not None and position.tea[seat]:
            held.append(f"{position.tea[seat]} tea tile{'s' if position.tea[seat] > 1 else ''}")
        if held:
            text += "; " + "; ".join(held)
        out.append(f'<g data-legend="player">{swatch(MARGIN, y, house(0, 5.5, seat))}'
                   f'{label(MARGIN + 34, y, text, bold=True)}</g>')
        y += ROW
    keys = []
    for colour in rules.colours:
        fill = palette.building_colour(rules, colour.name)
        keys.append((building_cell(0, 0, fill, colour.letter), f"{colour.name} (tile {colour.value})"))
    if rules.supply.neutral_roofs:
        keys.append((house(0, 5.5, NEUTRAL), "neutral roof"))
    keys += [(stable_cell(0, 0, palette.building_colour(rules, rules.colours[0].name), "S"), "stable"),
             (merchant(0, 0), "merchant")]
    if position.live_chain_ends():
        keys.append((chain_end(0, 0) + merchant(0, 0), "live chain end"))
    keys += [(wall(0, 0), "wall"), (gate(0, 0), "gate"), (tower(0, 0, 1), "tower T1"),
             (house(0, 5.5, 0), "tower tile holder")]
    if position.well is not None:
        keys += [(well(0, 0), "well"), (well_bonus(0, 0, rules.well.bonus), "well bonus cell")]
    if rules.tea.colour:
        keys.append((tea_tile(0, 0), "tea tile"))
    if legal:
        keys.append((legal_mark(0, 0, rules.colours[0].letter + "S"), "legal placement"))
    if last:
        keys.append((last_mark(0, 0, 1), "last turn"))
    if illegal:
        keys.append((illegal_mark(0, 0), "illegal placement"))
    if preferred:
        keys.append((preferred_mark(0, 0), "agent's preferred next"))
    column = 170
    per_row = max(1, int((width - MARGIN) // column))
    for k, (drawing, text) in enumerate(keys):
        x = MARGIN + (k % per_row) * column
        row_y = y + (k // per_row) * ROW
        out.append(f'<g data-legend="piece">{swatch(x, row_y, drawing)}{label(x + 34, row_y, text)}</g>')
    y += -(-len(keys) // per_row) * ROW
    notes = []
    if legal:
        codes = [f"{c.letter} {c.name}" for c in rules.colours] + [
            f"{code} {PIECE_NAMES[piece]}" for piece, code in PIECE_LABELS.items()
            if piece != "neutral" or rules.supply.neutral_roofs]
        notes.append(("legal-codes", "Letters on a legal placement: the pieces that may go there: " + ", ".join(codes)))
    if caption:
        notes.append(("caption", caption))
    for kind, words in notes:
        for line in textwrap.wrap(words, max(20, int((width - 2 * MARGIN) / 7.4))):
            out.append(f'<g data-legend="{kind}">{label(MARGIN, y, line)}</g>')
            y += ROW * 0.7
    return f'<g data-layer="legend">{"".join(out)}</g>', y


def _tiles_by_seat(holders: dict) -> dict[int, list]:
    by_seat: dict[int, list] = {}
    for tile, holder in holders.items():
        seat = _holder_seat(holder)
        if seat is not None and seat != NEUTRAL:
            by_seat.setdefault(seat, []).append(tile)
    return by_seat


def _document(width: float, height: float, title: str, description: str, body: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:g} {height:g}" width="{width:g}" '
            f'height="{height:g}" role="img" font-family="DejaVu Sans, Verdana, sans-serif" text-anchor="middle">'
            + _title(title) + (f"<desc>{escape(description)}</desc>" if description else "") + body + "</svg>\n")


def board_svg(position, *, title: str, description: str = "", legal=None, last=(), illegal=None,
              totals: dict[str, int] | None = None, legend: bool = True, preferred=None, caption: str = "") -> str:
    """The SVG document of `position` (a `Position`: a Game's, or a finished board's).

    `legal`: the placements to mark (`Placement` values, as `legal_placements()` gives them); `last`: cells placed in the last turn, in order;
    `illegal`: (cell, reason) of a refused placement; `totals`: player name -> score for the legend;
    `preferred`: (cell, words) of an agent's preferred next placement; `caption`: words shown under the
    legend (why a replay stopped).
    """
    board = _Board(position)
    under_pieces, over_pieces = board.well()
    layers = [board.ground(), under_pieces, board.ring(), board.palaces(), board.merchants(), over_pieces]
    if legal is not None:
        layers.append(board.legal(legal))
    layers.append(board.last(last))
    if illegal is not None:
        layers.append(board.illegal(*illegal))
    if preferred is not None:
        layers.append(board.preferred(*preferred))
    height = board.height
    if legend:
        drawing, height = _legend(position, totals=totals, legal=legal is not None, last=bool(last),
                                  illegal=illegal is not None, top=board.height + 6, width=board.width,
                                  caption=caption)
        layers.append(drawing)
        height += 8
    return _document(board.width, height, title, description, "".join(layers))


def picture(position) -> str:
    """The picture a position shows in a notebook (`_repr_svg_`): the board, the scores in the legend."""
    stage = "nobody to move" if position.to_move is None else f"{position.to_move} to move"
    return board_svg(position, title=f"Medina: {position.rules.ruleset_id}, {stage}", description=str(position),
                     totals=score_position(position, finished=position.to_move is None).totals)


RENDERERS["svg"] = picture  # `Position._repr_svg_()`


def legend_svg(position, *, title: str, last: bool = False, illegal: bool = False, preferred: bool = False) -> str:
    """The legend alone (players and their roof colours, every piece kind), as wide as the board."""
    width = _Board(position).width
    drawing, height = _legend(position, totals=None, legal=False, last=last, illegal=illegal, top=4, width=width,
                              preferred=preferred)
    return _document(width, height + 4, title, "", drawing)
