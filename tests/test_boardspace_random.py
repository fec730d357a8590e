"""The java.util.Random port and boardspace.net's second-edition setup draw.

Expected numbers were produced by Java itself (jshell, OpenJDK): e.g.
`new java.util.Random(152L)` then nextInt(14), nextInt(9) x3 gives 3 5 3 5 10 1.
"""

import pytest
from conftest import rules_for

from medina_cli.engine.board import geometry_for
from medina_cli.records.boardspace import boardspace_setup
from medina_cli.records.java_random import JavaRandom


@pytest.mark.parametrize("seed, expected", [(42, -1170105035), (0, -1155484576)])
def test_next_int_matches_java(seed, expected):
    assert JavaRandom(seed).next_int() == expected


def test_next_long_matches_java():
    assert JavaRandom(0).next_long() == -4962768465676381896


def test_bounded_ints_match_java():
    assert JavaRandom(42).next_int(10) == 0
    assert JavaRandom(-98765).next_int(14) == 5  # a negative key, as SU may carry
    rng = JavaRandom(123456)
    assert [rng.next_int(b) for b in (14, 9, 14, 9)] == [7, 2, 5, 7]


def test_power_of_two_bound_takes_the_high_bits():
    assert JavaRandom(123456).next_int(16) == 6
    raw = JavaRandom(123456).next(31)
    assert raw % 16 != 6  # the modulo path would have given another number


def test_rejected_draws_are_redrawn_like_java():
    bound = (1 << 30) + 1  # about half of all 31-bit draws fall in the rejected top bucket
    rng = JavaRandom(7)
    assert [rng.next_int(bound) for _ in range(3)] == [20678044, 747989380, 1053566254]
    first = JavaRandom(7).next(31)
    assert first >= bound  # so the first of those came from a second draw


def test_bad_bound_is_refused():
    with pytest.raises(ValueError):
        JavaRandom(1).next_int(0)


def cells(ruleset, players, key):
    geo = geometry_for(rules_for(ruleset, players))
    return [geo.name(c) for c in boardspace_setup(geo, key)]


@pytest.mark.parametrize(
    "players, key, merchant, well",
    [
        (4, 123456, "H10", "J5"),  # draws 7 2 | 5 7 on the 18 x 13 grid
        (3, 152, "M4", "F8"),  # draws 3 5 | 3 5 (on the well: redrawn) | 10 1
        (2, 10, "M8", "L6"),  # 2 players, 16 x 12 grid: draws 9 3 | 9 3 (redrawn) | 10 5
        (2, -98765, "K7", "F10"),
    ],
)
def test_well_and_start_merchant_follow_the_sites_draw(players, key, merchant, well):
    assert cells("boardspace-second-edition", players, key) == [merchant, well]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_cells_stay_off_the_edge_row(players):
    geo = geometry_for(rules_for("boardspace-second-edition", players))
    deep = geo.interior & ~geo.edge_row
    for key in range(-200, 200):
        merchant, well = boardspace_setup(geo, key)
        assert merchant != well
        assert (deep >> merchant) & 1 and (deep >> well) & 1
