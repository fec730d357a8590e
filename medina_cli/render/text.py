"""Plain-text board: one 3-character cell per square, coordinates on all margins."""

from __future__ import annotations

from ..engine.board import bits
from ..engine.game import NEUTRAL


def cell_glyphs(game) -> dict[int, str]:
    """Three-character glyph for every occupied square of the game's position."""
    geo = game.geo
    glyph: dict[int, str] = {}
    letters = {c.name: c.letter for c in game.rules.colours}
    for palace in game.palaces:
        letter = letters[palace.colour]
        roofed = palace.owner is not None
        for cell in bits(palace.buildings):
            mark = " "
            if cell == palace.roof:
                mark = "n" if palace.owner == NEUTRAL else str(palace.owner + 1)
            glyph[cell] = f" {letter.upper() if roofed else letter}{mark}"
        for cell in bits(palace.stables):
            glyph[cell] = " S " if roofed else " s "
    for cell in bits(game.merchants):
        glyph[cell] = " m "
    if game.well is not None:
        glyph[game.well] = " w "
        for cell in bits(game.well_bonus_cells & geo.interior & ~game.occupied):
            glyph.setdefault(cell, " + ")
    for cell in bits(game.walls):
        glyph[cell] = " # "
    for cell, number in geo.tower_of_cell.items():
        glyph[cell] = f"T{number} "
    return glyph


def render_board(game, *, marks: dict[int, str] | None = None) -> str:
    """The position as text; `marks` overrides glyphs of chosen cells (e.g. legal placements)."""
    geo = game.geo
    glyph = cell_glyphs(game)
    if marks:
        glyph.update(marks)
    header = "    " + "".join(f" {chr(65 + x)} " for x in range(geo.width))
    lines = [header]
    for y in range(geo.height - 1, -1, -1):
        row = "".join(glyph.get(y * geo.width + x, " . ") for x in range(geo.width))
        lines.append(f"{y + 1:>3} {row} {y + 1}")
    lines.append(header)
    return "\n".join(lines)


def legend(game) -> str:
    colours = ", ".join(f"{c.letter} {c.name}" for c in game.rules.colours)
    seats = ", ".join(f"{i + 1} {name}" for i, name in enumerate(game.players))
    parts = [f"Buildings: {colours} (upper case: roofed palace; the digit after the roofed cell is its owner: "
             f"{seats}" + (", n neutral" if game.rules.supply["neutral_roofs"] else "") + ")",
             "S/s stable (roofed/unroofed palace), m merchant, # wall, T1-T4 towers"]
    if game.well is not None:
        parts.append("w well, + empty well-bonus cell")
    return "\n".join(parts)
