"""Helpers for the scoring, board, compare and rules tests: the CLI in-process, and board/1 texts
drawn from lists of cells."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from medina_cli.cli.app import app
from medina_cli.records.boardfile import parse_board

FIXTURES = Path(__file__).resolve().parent / "fixtures"
BOARDS = FIXTURES / "boards"
TILE_EXAMPLES = FIXTURES / "tile-examples"


def run(*args: str, stdin: str | None = None):
    """Run `medina ARGS` in-process; returns (exit code, stdout, stderr). A traceback fails the test."""
    result = CliRunner().invoke(app, [str(a) for a in args], input=stdin)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def draw_grid(pieces: list[tuple[str, str]], columns: int = 18, rows: int = 13) -> str:
    """Grid lines (north row first) with towers on the corners and `char` on each named cell."""
    cells = {}
    for names, char in pieces:
        for name in names.split():
            x, y = ord(name[0]) - 65, int(name[1:]) - 1
            assert (x, y) not in cells, name
            cells[(x, y)] = char
    corners = {(0, 0), (columns - 1, 0), (0, rows - 1), (columns - 1, rows - 1)}
    return "\n".join(
        "  "
        + " ".join("T" if (x, y) in corners else cells.get((x, y), ".") for x in range(columns))
        for y in range(rows - 1, -1, -1)
    )


def board_text(
    ruleset: str,
    players: list[str],
    pieces: list[tuple[str, str]],
    roofs: dict[str, str],
    *,
    tiles: str = "",
    size: tuple[int, int] = (18, 13),
) -> str:
    roof_text = ", ".join(f"{cell}: {owner}" for cell, owner in roofs.items())
    return (
        f"medina: board/1\nruleset: {ruleset}\nplayers: [{', '.join(players)}]\ngrid: |\n"
        f"{draw_grid(pieces, *size)}\nroofs: {{{roof_text}}}\n{tiles}"
    )


def set_cells(text: str, changes: dict[str, str]) -> str:
    """The board text with single grid cells replaced (`{"K7": "g"}`)."""
    lines = text.split("\n")
    top = lines.index("grid: |") + 1
    rows = [line.split() for line in lines[top:] if line.startswith("  ")]
    height = len(rows)
    for name, char in changes.items():
        x, y = ord(name[0]) - 65, int(name[1:]) - 1
        rows[height - 1 - y][x] = char
    lines[top : top + height] = ["  " + " ".join(row) for row in rows]
    return "\n".join(lines)


def problems(text: str, **kw) -> list:
    """(code, message, line) of every problem reading the board text."""
    board = parse_board(text, "board.yaml", **kw)
    return [(p.code, p.message, p.line) for p in board.problems.errors]
