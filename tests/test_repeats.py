"""The repeated searches analyse's verdicts rest on: a fresh tree for every repeat, the same streams for
every move, every move the race sampled screened once, the best of them searched to choose the best
and again to judge the others against it, and intervals that hold where a tree's course moves all
its samples alike."""

from __future__ import annotations

import math
import random
from statistics import fmean

import pytest

from medina_cli.agents.race import Arm, Race, spread, t_value, z_value
from medina_cli.agents.repeats import (
    BASE,
    CONTENDERS,
    FRESH,
    MOST,
    PAIRED,
    REPEATS,
    TIE_MARGIN,
    Repeats,
    samples,
    tied_series,
)


def tree_play(
    values: dict, tree_spread: float, spread: float, seed: object = 0, log: list | None = None
):
    """A `play` in which every batch (one tree) shifts all its samples by a draw of its own, and sample k
    adds noise from stream k alone (the same for every move)."""

    def play(batches):
        if log is not None:
            log.append(batches)
        return [
            [
                (
                    values[move]
                    + random.Random(f"{seed}/{move}/{start}").gauss(0, tree_spread)
                    + random.Random(f"{seed}/{k}").gauss(0, spread),
                    0.5,
                )
                for k in range(start, stop)
            ]
            for move, start, stop in batches
        ]

    return play


def raced(values: dict, cap: int, play) -> Race:
    race = Race([Arm(move) for move in values], cap=cap, confidence=0.95, play=play)
    race.run()
    return race


@pytest.mark.slow
def test_intervals_hold_where_each_tree_moves_its_samples_alike():
    """Two equal moves whose trees each shift their samples: their race samples (half from one tree)
    call them different far more often than the confidence allows, their repeats do not."""
    race_misses = repeat_misses = 0
    trials = 200
    for seed in range(trials):
        values = {"a": 0.0, "b": 0.0}
        race = raced(values, 300, tree_play(values, tree_spread=1.0, spread=2.0, seed=seed))
        a, b = race.arms
        n = samples(race)
        race.fill([arm for arm in (a, b) if arm.n < n], n)
        paired = [
            x - y for x, y in zip(a.margins[:n], b.margins[:n], strict=True)
        ]  # the race's paired difference
        race_misses += abs(fmean(paired)) > z_value(0.95, two_sided=True) * spread(
            paired
        ) / math.sqrt(n)
        repeats = Repeats(race)
        assert len(repeats.arms) == 2 and all(
            len(repeats.means[id(arm)]) == FRESH + REPEATS for arm in (a, b)
        )
        on_repeats = repeats.difference(a, b, two_sided=True)
        repeat_misses += on_repeats.low > 0 or on_repeats.high < 0
    assert race_misses > 0.3 * trials
    assert repeat_misses < 0.1 * trials


def test_a_move_the_race_set_aside_on_its_small_trees_is_found_again():
    """ "late" is the best move, but its samples from small trees look poor: the race sets it aside and
    chooses another, its repeats (trees of one size for every move) find it best."""

    def play(batches):
        def value(move, k):
            return (-2.0 if k < 16 else 12.0) if move == "late" else 0.0

        return [
            [(value(move, k) + random.Random(k).gauss(0, 10), 0.5) for k in range(start, stop)]
            for move, start, stop in batches
        ]

    race = raced(["late", *(f"quiet{i}" for i in range(5))], 600, play)
    late = race.arms[0]
    assert race.first == 16 and late.n == 16 < race.best.n and id(late) in race.tied()
    repeats = Repeats(race)
    assert repeats.best is late and repeats.tied() == {id(late)}
    assert repeats.value(late) - repeats.value(race.best) > 10


def test_every_sampled_move_is_screened_and_the_best_of_them_chosen_among_then_judged_on_fresh_repeats():
    values = {"best": 3.0, **{f"quiet{i}": 0.0 for i in range(20)}, "poor": -60.0, "played": -1.0}
    log = []
    race = raced(values, 300, tree_play(values, tree_spread=0.5, spread=10.0, log=log))
    poor, played = race.arms[-2:]
    assert id(poor) not in race.tied() and len(race.compared) > MOST + 1
    spent, before = race.playouts, len(log)
    repeats = Repeats(race, include=played)
    size = samples(race) // REPEATS
    screening, *halving, choosing, judging, confirming = log[before:]
    assert repeats.screened == race.compared + ([] if played.n else [played])
    assert [move for move, *_ in screening] == [arm.move for arm in repeats.screened]
    assert {(start, stop) for _, start, stop in screening} == {
        (BASE, BASE + size)
    }  # repeat 0, the same streams
    most_searched = race.ranked()[:CONTENDERS]
    pool, room, first = (
        [arm for arm in repeats.screened if arm not in most_searched],
        MOST - CONTENDERS,
        0,
    )
    assert len(halving) >= 2  # 19 or more moves halved down to 4
    for step in halving + [None]:  # each round keeps the better half by mean of the repeats so far
        by_mean = sorted(
            pool,
            key=lambda arm: -fmean(repeats.means[id(arm)][r] for r in range(max(1, 2 * first))),
        )
        pool = by_mean[: max(room, math.ceil(len(pool) / 2))]
        if step is None:
            break
        first = max(1, 2 * first)
        assert [move for move, *_ in step] == [arm.move for arm in pool for _ in range(first)]
        assert {start for _, start, _ in step} == {BASE + r * size for r in range(first, 2 * first)}
    assert repeats.arms[:MOST] == most_searched + pool and played in repeats.arms
    assert {move for move, *_ in choosing} == {arm.move for arm in repeats.arms}
    assert {start for _, start, _ in choosing} == {BASE + r * size for r in range(1, FRESH)}
    assert {move for move, *_ in judging} == {arm.move for arm in repeats.arms}
    assert {start for _, start, _ in judging} == {
        BASE + r * size for r in range(FRESH, FRESH + REPEATS)
    }
    only_screened = [arm for arm in repeats.screened if arm not in repeats.arms]
    assert only_screened == repeats.only_screened() and poor in only_screened
    assert [move for move, *_ in confirming] == [
        arm.move for arm in only_screened
    ]  # one fresh repeat each
    assert {start for _, start, _ in confirming} == {BASE + FRESH * size}
    made = [(move, start) for step in log[before:] for move, start, _ in step]
    assert len(made) == len(set(made)) and race.playouts - spent == size * len(
        made
    )  # each repeat made once
    assert all(set(repeats.means[id(arm)]) == set(range(FRESH + REPEATS)) for arm in repeats.arms)
    chosen_on = {
        id(arm): sum(repeats.means[id(arm)][r] for r in range(FRESH)) for arm in repeats.arms
    }
    assert chosen_on[id(repeats.best)] == max(chosen_on.values()) and repeats.best.move == "best"
    assert id(poor) not in repeats.tied() and id(repeats.best) in repeats.tied()
    loss = repeats.loss(played)
    assert set(repeats.means[id(played)]) == set(range(FRESH + PAIRED * REPEATS))
    assert loss.n == PAIRED * samples(race) and loss.mean > 0


def test_the_halving_of_many_moves_stops_short_of_the_fresh_repeats():
    """140 moves raced: the halving's rounds would double past FRESH repeats; the moves chosen among
    are chosen on the first FRESH repeats and every one judged on fresh ones made after the choice."""
    values = {f"equal{i}": 0.0 for i in range(140)}
    log = []
    race = Race(
        [Arm(move) for move in values],
        cap=48,
        confidence=0.95,
        play=tree_play(values, tree_spread=1.0, spread=3.0, seed="many", log=log),
    )
    race.first = 2
    race.fill(race.arms, race.first)
    before = len(log)
    repeats = Repeats(race)
    size = repeats.size
    assert (
        math.ceil((len(values) - CONTENDERS) / 2**5) > MOST - CONTENDERS
    )  # five rounds, the last on 16 repeats
    steps = [{start for _, start, _ in step} for step in log[before:]]
    judging = steps.index({BASE + r * size for r in range(FRESH, FRESH + REPEATS)})
    assert all(start < BASE + FRESH * size for step in steps[:judging] for start in step)
    assert all(set(repeats.means[id(arm)]) == set(range(FRESH + REPEATS)) for arm in repeats.arms)


@pytest.mark.slow
def test_equal_moves_are_tied_at_the_confidence_though_the_best_was_chosen_among_them():
    """Ten equal moves whose trees vary, the race fooled by its samples of one tree: the best of the
    first repeats is ahead of the others by luck alone, and the moves set aside behind by luck alone;
    judged on fresh repeats, some move is called beaten in at most 5% of the searches."""
    values = {f"equal{i}": 0.0 for i in range(10)}
    trials, split = 200, 0
    for seed in range(trials):
        race = Race(
            [Arm(move) for move in values],
            cap=300,
            confidence=0.95,
            play=tree_play(values, tree_spread=2.0, spread=1.0, seed=seed),
        )
        race.first = 2
        race.fill(race.arms, race.first)
        repeats = Repeats(race)
        split += len(repeats.tied()) < len(values)
    assert split <= 0.05 * trials


def test_repeats_pair_up_on_the_same_streams():
    """Moves whose samples differ by a constant on the same streams: their difference is that constant
    with no spread, and the best beats the other at once."""

    def play(batches):
        return [
            [
                ({"a": 5.0, "b": 0.0}[move] + random.Random(f"{start}/{k}").gauss(0, 8), 0.5)
                for k in range(start, stop)
            ]
            for move, start, stop in batches
        ]

    race = Race([Arm("b"), Arm("a")], cap=40, confidence=0.95, play=play)
    race.first = 2
    race.fill(race.arms, race.first)  # two samples each: the race cannot tell them apart
    b, a = race.arms
    assert race.tied() == {id(a), id(b)}
    repeats = Repeats(race, include=b)
    loss = repeats.loss(b)
    assert repeats.best is a and loss.low == pytest.approx(5.0) and loss.high == pytest.approx(5.0)
    assert repeats.tied() == {id(a)}
    assert loss.n == PAIRED * samples(race) == PAIRED * REPEATS * repeats.size


@pytest.mark.parametrize("lead, tied", [(TIE_MARGIN - 0.1, True), (TIE_MARGIN + 0.1, False)])
def test_a_move_surely_behind_the_best_by_at_most_the_margin_is_tied(lead, tied):
    """Moves whose samples differ by a constant on the same streams: the best's lead is sure (no
    spread), and the other move is tied with it exactly when the lead is at most TIE_MARGIN."""

    def play(batches):
        return [
            [
                ({"a": lead, "b": 0.0}[move] + random.Random(f"{start}/{k}").gauss(0, 8), 0.5)
                for k in range(start, stop)
            ]
            for move, start, stop in batches
        ]

    race = Race([Arm("a"), Arm("b")], cap=40, confidence=0.95, play=play)
    race.first = 2
    race.fill(race.arms, race.first)
    a, b = race.arms
    repeats = Repeats(race)
    assert repeats.best is a and (id(b) in repeats.tied()) is tied


def test_ratings_list_the_best_then_the_others_by_value_each_on_as_many_fresh_repeats():
    values = {"best": 3.0, **{f"quiet{i}": 0.0 for i in range(20)}, "poor": -60.0}
    race = raced(values, 300, tree_play(values, tree_spread=0.5, spread=10.0, seed="ratings"))
    repeats = Repeats(race)
    only = repeats.only_screened()
    fresh = {arm.move: [r for r in repeats.means[id(arm)] if r >= FRESH] for arm in only}
    assert all(repeats_of == [FRESH] for repeats_of in fresh.values())  # one fresh repeat each
    first_fresh = {arm.move: repeats.means[id(arm)][FRESH] for arm in only}
    chosen_count, top = len(repeats.arms), len(repeats.arms) + 3
    rated = repeats.ratings(top)
    by_move = {arm.move: arm for arm in repeats.screened}
    assert len(rated) == top and rated[0].placement == repeats.best.move == "best"
    assert [r.value for r in rated[1:]] == sorted((r.value for r in rated[1:]), reverse=True)
    assert {r.placement for r in rated if by_move[r.placement] not in repeats.arms} == set(
        sorted(first_fresh, key=lambda m: -first_fresh[m])[:3]
    )  # the best 3 only screened, by their fresh repeat
    assert sum(by_move[r.placement] in repeats.arms for r in rated) == chosen_count
    for r in rated:
        arm = by_move[r.placement]
        assert r.playouts == REPEATS * repeats.size == len(repeats._fresh(arm)) * repeats.size
        assert (
            r.value == pytest.approx(repeats.value(arm)) and r.interval[0] < r.value < r.interval[1]
        )
        assert r.tied is (id(arm) in repeats.tied()) and 0.0 <= r.win <= 1.0
    poor = by_move["poor"]
    assert [r for r in repeats.means[id(poor)] if r >= FRESH] == [FRESH] and id(
        poor
    ) not in repeats.tied()


def test_moves_of_different_searches_are_tied_on_their_paired_fresh_repeats():
    """Series whose repeats differ by constants on shared noise: the best is the highest on the first
    FRESH repeats (here not the highest on the fresh ones), and a move is tied with it exactly when its
    lead over the move is at most TIE_MARGIN."""
    noise = [random.Random(r).gauss(0, 5) for r in range(FRESH + REPEATS)]

    def series(early: float, late: float) -> dict[int, float]:
        return {r: noise[r] + (early if r < FRESH else late) for r in range(FRESH + REPEATS)}

    best, tied = tied_series(
        [
            series(0.0, 0.0),
            series(1.0, TIE_MARGIN - 0.1),
            series(0.0, -1.0),
            series(0.0, TIE_MARGIN + 0.2),
        ],
        confidence=0.95,
    )
    assert best == 1 and tied == [True, True, False, True]
    best, tied = tied_series([series(0.0, 0.0), series(1.0, TIE_MARGIN + 0.1)], confidence=0.95)
    assert best == 1 and tied == [False, True]


def test_students_t_quantiles():
    table = [
        (0.95, 1, 12.7062),
        (0.95, 3, 3.1824),
        (0.95, 7, 2.3646),
        (0.99, 7, 3.4995),
        (0.999, 7, 5.4079),
        (0.95, 49, 2.0096),
        (0.998, 10, 4.1437),
    ]
    for confidence, dof, quantile in table:
        assert abs(t_value(confidence, dof, two_sided=True) - quantile) < 1e-4
    assert abs(t_value(0.95, 4) - 2.1318) < 1e-4  # one-sided
    assert t_value(0.95, 7, 10) == pytest.approx(t_value(1 - 0.05 / 10, 7))
    assert z_value(0.95) < t_value(0.95, 100) < t_value(0.95, 10)
