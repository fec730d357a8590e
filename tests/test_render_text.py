"""The terminal board: colour on a terminal only, the same letters with and without colour."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys

import pytest
from conftest import EXAMPLES, record_text, replay_text
from scorekit import run
from terminal import on_terminal

from medina_cli.render.text import colour_wanted, last_placed, legend, render_board

ANSI = re.compile(r"\x1b\[[0-9;]*m")
GAME = EXAMPLES / "second-edition-2014-3p.yaml"


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def position():
    text = record_text(
        "original-2001",
        ["Anna", "Ben", "Cleo"],
        ["Anna: grey C3, grey C4", "Ben: roof C3, black H8", "Cleo: roof H8, merchant J8"],
    )
    return replay_text(text)[1].game


def test_colour_adds_styling_only(position):
    plain, coloured = render_board(position), render_board(position, colour=True)
    assert "\x1b" not in plain and "\x1b" in coloured
    assert ANSI.sub("", coloured) == plain
    assert ANSI.sub("", legend(position, colour=True)) == legend(position)


def test_owners_roofs_and_building_colours_get_distinct_colours(position):
    coloured = render_board(position, colour=True)
    ben_roof = re.search(r"\x1b\[([0-9;]*)m2\x1b", coloured).group(1)
    cleo_roof = re.search(r"\x1b\[([0-9;]*)m3\x1b", coloured).group(1)
    grey = re.search(r"\x1b\[([0-9;]*)m G\x1b", coloured).group(1)
    black = re.search(r"\x1b\[([0-9;]*)m K\x1b", coloured).group(1)
    assert len({ben_roof, cleo_roof, grey, black}) == 4


def test_colour_only_on_a_terminal_without_no_color(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert colour_wanted(False, Terminal())
    assert not colour_wanted(True, Terminal())
    assert not colour_wanted(False, io.StringIO())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not colour_wanted(False, Terminal())
    monkeypatch.setenv("NO_COLOR", "")  # an empty NO_COLOR does not count (no-color.org)
    assert colour_wanted(False, Terminal())


def shown(*args: str, no_color: str | None = None) -> str:
    """What `medina ARGS` prints to a terminal, with NO_COLOR unset or set to `no_color`."""
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    if no_color is not None:
        env["NO_COLOR"] = no_color
    return on_terminal(*args, env=env)[1]


@pytest.mark.slow
@pytest.mark.parametrize("command", ["replay", "moves"])
def test_commands_colour_the_board_on_a_terminal_unless_told_not_to(command):
    coloured = shown(command, str(GAME), "--to", "30")
    assert "\x1b[" in coloured
    assert "\x1b" not in shown(command, str(GAME), "--to", "30", "--no-color")
    assert "\x1b" not in shown(command, str(GAME), "--to", "30", no_color="1")
    piped = subprocess.run(
        [sys.executable, "-m", "medina_cli", command, str(GAME), "--to", "30"],
        capture_output=True,
        text=True,
    ).stdout
    assert "\x1b" not in piped
    assert ANSI.sub("", coloured).replace("\r\n", "\n") == piped


@pytest.mark.slow
def test_status_colours_its_board_on_a_terminal_unless_told_not_to():
    coloured = shown("status", str(GAME))
    assert "\x1b[" in coloured and "\x1b" not in shown("status", str(GAME), "--no-color")
    assert ANSI.sub("", coloured).replace("\r\n", "\n") == run("status", GAME)[1]


def test_moves_marks_the_empty_cells_where_a_placement_may_go(tmp_path):
    text = record_text("original-2001", ["Anna", "Ben", "Cleo"], ["Anna: wall A2, wall R12"])
    source = tmp_path / "game.yaml"
    source.write_text(text)
    code, out, _ = run("moves", source)
    board = out[out.index("     A  B") :]
    row1 = next(line for line in board.splitlines() if line.startswith("  1 "))
    assert row1.split()[1:4] == ["T4", "*", "."]  # B1 continues tower 4's run; C1 touches nothing
    game = replay_text(text)[1].game
    targets = 0
    for _, cells in game.legal_masks():
        targets |= cells
    assert code == 0 and board.count(" * ") == sum(
        1
        for cell in range(game.variant.size)
        if targets >> cell & 1 and game.piece_at(game.variant.geometry.name(cell)) is None
    )  # the empty targets


def test_the_last_placement_is_marked_before_its_piece_with_and_without_colour(position):
    assert last_placed(position) == "J8"
    plain, coloured = (
        render_board(position, last="J8"),
        render_board(position, last="J8", colour=True),
    )
    row_8 = next(line for line in plain.splitlines() if line.startswith("  8 "))
    assert (
        row_8[4 + 7 * 3 : 4 + 10 * 3] == " K3 . >m "
    )  # Ben's black H8 roofed by Cleo, then her merchant J8
    assert ANSI.sub("", coloured) == plain and plain.count(">") == 1
    assert render_board(position) == plain.replace(">m ", " m ")
    assert legend(position, last=True).endswith("\n> the last placement")


def test_replay_of_a_finished_game_ends_with_the_scores_and_marks_the_last_placement():
    code, out, _ = run("replay", GAME)
    sheet = json.loads(run("score", GAME, "--json")[1])
    assert code == 0 and out.splitlines()[-2:] == [
        "The game is over.",
        "Final score: "
        + ", ".join(f"{p['name']} {p['total']}" for p in sheet["players"])
        + f"; {sheet['winners'][0]} wins.",
    ]
    assert out.count(">") == 2 and "\n> the last placement\n" in out  # on the board, and in its key
    code, out, _ = run("replay", GAME, "--to", "30")
    assert code == 0 and "Final score" not in out and out.splitlines()[-1].endswith("is to move.")
