"""Text board: one 3-character cell per square, coordinates on all margins, optional ANSI colour.

The characters are the same with and without colour, so the letters alone identify every piece.
"""

from __future__ import annotations

import os
import sys

from ..engine.board import bits
from ..engine.position import NEUTRAL
from . import palette

Segment = tuple[str, str]  # (text, SGR parameters; "" for no styling)
EMPTY: list[Segment] = [(" . ", "2")]
MARK_STYLE = f"1;{palette.ansi('#ffffff')};{palette.ansi(palette.LEGAL, background=True)}"
LAST_MARK = ">"  # before the piece of the last placement, in the blank that leads its glyph


def colour_wanted(no_color: bool = False, stream=None) -> bool:
    """Colour only on a terminal, and never with --no-color or a non-empty NO_COLOR (no-color.org)."""
    stream = stream or sys.stdout
    return not no_color and not os.environ.get("NO_COLOR") and stream.isatty()


def _style(fill: str, *, bold: bool = False) -> str:
    """SGR parameters for text in the readable ink on a `fill` background."""
    return (
        "1;" if bold else ""
    ) + f"{palette.ansi(palette.ink(fill))};{palette.ansi(fill, background=True)}"


def _cells(position) -> dict[int, list[Segment]]:
    """Styled 3-character glyph of every occupied or marked-up square of the position."""
    geo, rules = position.variant.geometry, position.rules
    cells: dict[int, list[Segment]] = {}
    letters = {c.name: c.letter for c in rules.colours}
    for palace in position.palaces:
        fill = palette.building_colour(rules, palace.colour)
        letter = letters[palace.colour]
        roofed = palace.owner is not None
        style = _style(fill, bold=roofed)
        for cell in bits(palace.buildings):
            glyph = f" {letter.upper() if roofed else letter}"
            if cell == palace.roof:
                seat = NEUTRAL if palace.owner == NEUTRAL else palace.owner
                owner_mark = "n" if seat == NEUTRAL else str(seat + 1)
                cells[cell] = [
                    (glyph, style),
                    (owner_mark, _style(palette.seat_colour(seat)[1], bold=True)),
                ]
            else:
                cells[cell] = [(glyph + " ", style)]
        stable_style = _style(palette.lighten(fill))
        for cell in bits(palace.stables):
            cells[cell] = [(" S " if roofed else " s ", stable_style)]
    merchant_style = _style(palette.MERCHANT, bold=True)
    for cell in bits(position.merchants):
        cells[cell] = [(" m ", merchant_style)]
    if position.well is not None:
        cells[position.well] = [(" w ", _style(palette.WELL, bold=True))]
        for cell in bits(position.well_bonus_cells & geo.interior):
            cells.setdefault(cell, [(" + ", f"1;{palette.ansi(palette.WELL)}")])
    wall_style = _style(palette.STONE)
    for cell in bits(position.walls):
        cells[cell] = [(" # ", wall_style)]
    tower_style = _style(palette.TOWER, bold=True)
    for cell, number in geo.tower_of_cell.items():
        cells[cell] = [(f"T{number} ", tower_style)]
    return cells


def _paint(segments: list[Segment], colour: bool) -> str:
    if not colour:
        return "".join(text for text, _ in segments)
    return "".join(f"\x1b[{style}m{text}\x1b[0m" if style else text for text, style in segments)


def last_placed(game) -> str | None:
    """The cell of a game's last placement that put a piece on the board (None before any: tea and
    passes put none)."""
    return next((placement.cell for placement in reversed(game.move_stack) if placement.cell), None)


def render_board(
    position, *, marks: dict[str, str] | None = None, colour: bool = False, last: str | None = None
) -> str:
    """The position as text; `marks` (cell name -> glyph) overrides glyphs of chosen cells (e.g. legal
    placements); `last` (a cell name) is marked `>` before its piece: the last placement."""
    geo = position.variant.geometry
    cells = _cells(position)
    for name, glyph in (marks or {}).items():
        cells[geo.parse(name)] = [(glyph, MARK_STYLE)]
    if last is not None:
        (text, style), *rest = cells.get(geo.parse(last), EMPTY)
        cells[geo.parse(last)] = [(LAST_MARK, MARK_STYLE), (text[1:], style), *rest]
    header = "    " + "".join(f" {chr(65 + x)} " for x in range(geo.width))
    lines = [header]
    for y in range(geo.height - 1, -1, -1):
        row = "".join(_paint(cells.get(y * geo.width + x, EMPTY), colour) for x in range(geo.width))
        lines.append(f"{y + 1:>3} {row} {y + 1}")
    lines.append(header)
    return "\n".join(lines)


def legend(position, *, colour: bool = False, last: bool = False) -> str:
    """What the letters and digits of `render_board` mean (in the same colours when `colour`; with
    `last`, its mark of the last placement)."""
    rules = position.rules

    def swatch(text: str, fill: str) -> str:
        return _paint([(text, _style(fill, bold=True))], colour)

    colours = ", ".join(
        f"{swatch(c.letter, palette.building_colour(rules, c.name))} {c.name}"
        for c in rules.colours
    )
    seats = ", ".join(
        f"{swatch(str(i + 1), palette.seat_colour(i)[1])} {name}"
        for i, name in enumerate(position.players)
    )
    if rules.supply.neutral_roofs:
        seats += f", {swatch('n', palette.NEUTRAL[1])} neutral"
    parts = [
        f"Buildings: {colours} (upper case: roofed palace; the digit after the roofed cell is its owner: "
        f"{seats})",
        "S/s stable (roofed/unroofed palace), m merchant, # wall, T1-T4 towers",
    ]
    if position.well is not None:
        parts.append("w well, + empty well-bonus cell")
    if last:
        parts.append(f"{LAST_MARK} the last placement")
    return "\n".join(parts)


def replay_report(outcome, *, colour: bool = False) -> list[str]:
    """`medina replay` for people: the event log, the board reached with its legend, the supplies left,
    and where the game stands."""
    from ..engine.scoring import score_game
    from ..records.status import score_words, supply_table

    game = outcome.game
    final = [score_words(score_game(game).to_json(), final=True)] if outcome.finished else []
    return [
        *outcome.log_lines(),
        "",
        f"Position {outcome.position_words()}:",
        *board_lines(game, colour=colour),
        "",
        "Supply left:",
        supply_table(game),
        "",
        outcome.standing(),
        *final,
    ]


def board_lines(game, *, colour: bool = False) -> list[str]:
    """The board of a game with its last placement marked, and the key."""
    last = last_placed(game)
    return [
        render_board(game, colour=colour, last=last),
        legend(game, colour=colour, last=last is not None),
    ]


def status_text(outcome, *, colour: bool = False) -> list[str]:
    """`medina status` for people: where the game stands and who is to move, the board, the supplies and the
    score now."""
    from ..records.status import status_report

    lines = status_report(outcome)
    at = (
        lines.index("") if "" in lines else len(lines)
    )  # after the lines that say where the game stands
    return [*lines[:at], "", *board_lines(outcome.game, colour=colour), *lines[at:]]


def moves_report(outcome, keep, *, colour: bool = False) -> list[str]:
    """`medina moves` for people: the legal placements (those `keep` keeps), a line per piece, then the
    board with a mark on every empty cell where one may go."""
    from ..records.status import legal_by_piece, moves_lines

    game = outcome.game
    lines = moves_lines(outcome, keep)
    if game.to_move is None:
        return lines
    empty = {
        cell
        for piece, cells in legal_by_piece(game, keep).items()
        if piece not in ("roof", "neutral")
        for cell in cells
    }
    return lines + [
        "",
        render_board(game, marks=dict.fromkeys(empty, " * "), colour=colour),
        legend(game, colour=colour),
        "* an empty cell where a legal placement may go",
    ]
