"""docs/rulings.md §4 walls: on an empty ring cell with exactly one orthogonal wall-or-tower neighbour, so
runs grow from the towers and every side keeps a gate (at most 50 walls, 44 on the 2-player board)."""

import pytest
from conftest import EDITIONS
from rulekit import Position

BOARDS = [
    ("original-2001", 3),
    ("original-2001", 4),
    ("bsw-dm-2003", 3),
    ("second-edition-2014", 2),
    ("second-edition-2014", 3),
    ("second-edition-2014", 4),
]


@pytest.mark.parametrize("ruleset", EDITIONS)
def test_walls_start_next_to_a_tower(ruleset):
    pos = Position(ruleset, 3)
    assert pos.moves("wall") == {"A12", "B13", "Q13", "R12", "R2", "Q1", "B1", "A2"}
    assert pos.reject("wall A7") == "wall-not-connected"
    assert pos.reject("wall J13") == "wall-not-connected"


def test_walls_start_next_to_a_tower_on_the_two_player_board():
    pos = Position("second-edition-2014", 2)
    assert pos.moves("wall") == {"A11", "B12", "O12", "P11", "P2", "O1", "B1", "A2"}
    assert pos.reject("wall A12") == "wrong-square"  # the NW tower


@pytest.mark.parametrize("ruleset", EDITIONS)
def test_walls_continue_a_run(ruleset):
    pos = Position(ruleset, 3, "wall A12")
    assert pos.legal("wall A11") and pos.legal("wall B13")
    assert pos.reject("wall A10") == "wall-not-connected"
    pos.play("wall A11")
    assert pos.legal("wall A10")


@pytest.mark.parametrize("ruleset", EDITIONS)
def test_two_runs_keep_a_gate_between_them(ruleset):
    runs = ", ".join(
        f"wall A{top}, wall A{bottom}"
        for top, bottom in zip(range(12, 7, -1), range(2, 7), strict=True)
    )
    pos = Position(ruleset, 3, runs)
    assert pos.reject("wall A7") == "wall-gate"
    assert "A7" not in pos.moves("wall")


@pytest.mark.parametrize("ruleset", EDITIONS)
def test_a_run_may_not_reach_the_next_tower(ruleset):
    pos = Position(ruleset, 3, ", ".join(f"wall A{row}" for row in range(12, 2, -1)))
    assert pos.reject("wall A2") == "wall-gate"


@pytest.mark.parametrize("ruleset, players", BOARDS)
@pytest.mark.parametrize("lowest_first", [True, False])
def test_wall_capacity(ruleset, players, lowest_first):
    """Filled in any order, the ring takes side length - 1 walls per side: 50, or 44 for 2 players."""
    pos = Position(ruleset, players, sets=(f"supply.{players}.walls=60",))
    geo, game = pos.geo, pos.game
    placed = 0
    while "wall" in dict(game.legal_masks()):
        cells = dict(game.legal_masks())["wall"]
        cell = (cells & -cells).bit_length() - 1 if lowest_first else cells.bit_length() - 1
        pos.play(f"wall {geo.name(cell)}")
        placed += 1
    assert placed == (44 if geo.columns == 14 else 50)
    sides = [[(x, y) for x in range(1, geo.width - 1)] for y in (0, geo.height - 1)]
    sides += [[(x, y) for y in range(1, geo.height - 1)] for x in (0, geo.width - 1)]
    for side in sides:
        gaps = [xy for xy in side if not (game.walls >> (xy[1] * geo.width + xy[0])) & 1]
        assert len(gaps) == 1, side
