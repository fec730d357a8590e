"""The race of the root moves: batches with the same bounds for every move, sample k from stream k,
a plan that fits the cap, a stop once sure, and ties only where the best's lead is not significant
on the samples both moves have."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rulekit import Position

from medina_cli.agents.mcts import (
    MctsAgent as RaceAgent,
)  # turn 3's default, the benchmarks' baseline
from medina_cli.agents.race import (
    FIRST,
    LEADERS,
    Arm,
    Race,
    batch_bounds,
    halving_cost,
    plan,
    z_value,
)

ORANGE_OPEN = (
    "Anna: orange C3, orange C4",
    "Ben: orange C5, orange C6",
    "Cleo: orange C7, brown F11",
)


def noise_play(values: dict, spread: float = 10.0):
    """A `play` whose sample k of a move is its value plus noise drawn from stream k alone."""

    def play(batches):
        return [
            [(values[move] + random.Random(k).gauss(0, spread), 0.5) for k in range(start, stop)]
            for move, start, stop in batches
        ]

    return play


def test_batches_double_from_the_first():
    assert batch_bounds(0, 32, 8) == [(0, 8), (8, 16), (16, 32)]
    assert batch_bounds(16, 64, 8) == [(16, 32), (32, 64)]
    with pytest.raises(ValueError):
        batch_bounds(0, 24, 8)


@pytest.mark.slow
@given(st.integers(10, 20000), st.integers(1, 700))
@settings(max_examples=200, deadline=None)
def test_the_plan_halves_on_half_the_cap(cap, moves):
    considered, first = plan(cap, moves)
    assert 1 <= considered <= moves or (considered == 2 and moves < 2)
    assert first >= FIRST and first // FIRST & (first // FIRST - 1) == 0  # FIRST times a power of 2
    if considered == moves and halving_cost(moves, FIRST) <= cap / 2:
        assert halving_cost(moves, first) <= cap / 2 < halving_cost(moves, 2 * first)


@pytest.mark.slow
@given(st.integers(50, 4000), st.lists(st.floats(-20, 20), min_size=2, max_size=40))
@settings(max_examples=60, deadline=None)
def test_the_race_keeps_to_its_cap_and_its_order(cap, values):
    moves = dict(enumerate(values))
    race = Race([Arm(move) for move in moves], cap=cap, confidence=0.95, play=noise_play(moves))
    race.run()
    assert race.playouts <= max(cap, len(moves) * race.first)
    for arm in race.arms:  # every move's samples are whole batches from 0, in stream order
        assert arm.n in (0, *(stop for _, stop in batch_bounds(0, arm.n or race.first, race.first)))
        assert arm.margins == [
            moves[arm.move] + random.Random(k).gauss(0, 10.0) for k in range(arm.n)
        ]
    assert race.ranked()[0] is race.best and race.best.n == max(arm.n for arm in race.arms)


def test_a_clear_best_is_found_and_the_search_is_sure_early():
    values = {"best": 15.0, **{f"quiet{i}": 0.0 for i in range(20)}}
    race = Race([Arm(move) for move in values], cap=20000, confidence=0.95, play=noise_play(values))
    race.run()
    assert race.sure and race.best.move == "best" and race.playouts < 20000
    assert race.tied() == {id(race.best)}


def test_equal_moves_stay_tied_to_the_cap():
    values = {f"quiet{i}": 0.0 for i in range(8)}
    race = Race([Arm(move) for move in values], cap=3000, confidence=0.95, play=noise_play(values))
    race.run()
    assert not race.sure and len(race.tied()) >= LEADERS


def test_ties_share_the_confidence_over_every_move_compared():
    assert z_value(0.95) < z_value(0.95, 10) < z_value(0.95, 100)
    assert z_value(0.95, two_sided=True) == pytest.approx(1.959964, abs=1e-5)


def test_the_same_seed_gives_the_same_race_and_another_seed_other_samples():
    game = Position("original-2001", 3, *ORANGE_OPEN, "Anna: wall A2").game
    first = RaceAgent(3, 200).search(game)
    again = RaceAgent(3, 200).search(game)
    other = RaceAgent(4, 200).search(game)
    assert [(a.move, a.margins) for a in first.arms] == [(a.move, a.margins) for a in again.arms]
    assert [a.move for a in first.arms] == [
        a.move for a in other.arms
    ]  # the order is the position's
    assert [a.margins for a in first.arms] != [a.margins for a in other.arms]


def test_batches_played_in_any_order_give_the_same_samples():
    """A batch depends only on its move and bounds: played in reverse order, the race is the same."""
    game = Position("original-2001", 3, *ORANGE_OPEN, "Anna: wall A2").game
    from medina_cli.agents.mcts import play_batches

    def backwards(game, key, batches):
        return play_batches(game, key, batches[::-1])[::-1]

    forward = RaceAgent(5, 120).search(game)
    backward = RaceAgent(5, 120).search(game, play=backwards)
    assert [a.margins for a in forward.arms] == [a.margins for a in backward.arms]


def test_a_move_is_judged_against_the_best_on_as_many_samples_of_each():
    """Later samples come from bigger trees: a best whose later samples are better does not beat a move
    with fewer samples, as good as the best's first ones."""

    def play(batches):
        return [
            [
                (
                    (20.0 if k >= FIRST and move == "deep" else 0.0) + random.Random(k).gauss(0, 1),
                    0.5,
                )
                for k in range(start, stop)
            ]
            for move, start, stop in batches
        ]

    race = Race([Arm("deep"), Arm("shallow")], cap=100, confidence=0.95, play=play)
    deep, shallow = race.arms
    race.first = FIRST
    race.fill([deep], 16 * FIRST)
    race.fill([shallow], FIRST)
    assert race.best is deep and deep.mean - shallow.mean > 15
    assert race.tied() == {id(deep), id(shallow)}
    race.fill([shallow], 16 * FIRST)
    assert race.tied() == {id(deep)}
