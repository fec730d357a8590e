"""The replicated searches hint and analyse rest on: root searches choose the candidates, searches after
each move value it by replicate (replicate r of every move seeded alike), the best chosen on the first
replicates and judged on fresh ones, Student's t intervals, and the same result however the searches
are shared out."""

from __future__ import annotations

import random
from statistics import fmean

import pytest
from rulekit import Position

from medina_cli.agents.replicates import (
    CANDIDATES,
    LOSS_REPLICATES,
    REPLICATES,
    TIE_MARGIN,
    Replicates,
    budget_split,
    interval,
    portable,
    position_key,
    replicate_seed,
    run_here,
    searched,
    searches_of,
    t_value,
    tied_series,
)
from medina_cli.agents.search import RootMove, SearchResult
from medina_cli.engine import native

ORANGE_OPEN = (
    "Anna: orange C3, orange C4",
    "Ben: orange C5, orange C6",
    "Cleo: orange C7, brown F11",
)
needs_native_search = pytest.mark.skipif(
    native.core() is None, reason="the Python engine's tree search is not written yet"
)


def game():
    return Position("original-2001", 3, *ORANGE_OPEN).game


def fake_run(values, visits, log=None):
    """A `Run` without searching: a root search tries the moves of `visits` (placement: visits), the search
    after move m in replicate r gives the mover `values(m, r)`."""
    replicate_of = {
        replicate_seed(seed, "move", r): r
        for seed in (0, 1)
        for r in range(REPLICATES + LOSS_REPLICATES)
    }

    def run(requests):
        if log is not None:
            log.extend(requests)
        out = []
        for position, placement, seed, descents in requests:
            if placement is None:
                moves = [RootMove(move, n, 0.5, 0.0) for move, n in visits.items()]
                out.append(SearchResult(moves, descents, [0.0] * 3))
            else:
                margins = [0.0] * 3
                margins[position.seat_to_move] = values(placement, replicate_of[seed])
                out.append(SearchResult([], descents, margins))
        return out

    return run


def moves_of(position, count):
    return position.distinct_placements()[:count]


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


def test_an_interval_is_the_mean_plus_or_minus_t_standard_errors():
    mean, low, high = interval([1, 2, 3, 4, 5, 6, 7, 8], 0.95, two_sided=True)
    half = 2.3646 * 2.44949 / 8**0.5  # t(0.975, 7) · sd / √8
    assert mean == 4.5 and low == pytest.approx(4.5 - half, abs=1e-3)
    assert high == pytest.approx(4.5 + half, abs=1e-3)
    assert interval([3.0, 3.0, 3.0], 0.95) == (3.0, 3.0, 3.0)  # no spread: exact
    assert interval([2.0], 0.95) == (2.0, 2.0, 2.0)


def test_replicate_r_of_every_move_is_seeded_alike_and_apart_from_the_root_searches():
    position = game()
    visits = {move: 10 + i for i, move in enumerate(moves_of(position, 4))}
    log: list = []
    replicates = Replicates(
        position,
        budget=800,
        confidence=0.95,
        run=fake_run(lambda move, r: 0.0, visits, log),
    )
    roots = [request for request in log if request[1] is None]
    after = [request for request in log if request[1] is not None]
    assert [seed for *_, seed, _ in roots] == [
        replicate_seed(position_key(position), "root", r) for r in range(REPLICATES)
    ]  # the candidates are the position's, whatever the seed
    for move in replicates.candidates:
        assert [seed for _, m, seed, _ in after if m == move] == [
            replicate_seed(0, "move", r) for r in range(2 * REPLICATES)
        ]
    assert {descents for *_, descents in roots} == {budget_split(800)[0]}
    assert {descents for *_, descents in after} == {budget_split(800)[1]}
    assert replicate_seed(1, "move", 0) != replicate_seed(0, "move", 0)
    log.clear()
    Replicates(
        position, budget=800, confidence=0.95, seed=1, run=fake_run(lambda m, r: 0.0, visits, log)
    )
    assert [request[2] for request in log if request[1] is None] == [seed for *_, seed, _ in roots]
    assert [seed for _, m, seed, _ in log if m == replicates.candidates[0]] == [
        replicate_seed(1, "move", r) for r in range(2 * REPLICATES)
    ]


def test_the_candidates_are_the_most_visited_and_the_included_move():
    position = game()
    moves = moves_of(position, CANDIDATES + 3)
    visits = {move: 100 - i for i, move in enumerate(moves[:-1])}  # the last never tried
    replicates = Replicates(
        position,
        budget=800,
        confidence=0.95,
        include=moves[-1],
        run=fake_run(lambda move, r: 0.0, visits),
    )
    assert replicates.candidates == [*moves[:CANDIDATES], moves[-1]]
    assert replicates.included == moves[-1]
    wider = Replicates(
        position,
        budget=800,
        confidence=0.95,
        top=CANDIDATES + 1,
        run=fake_run(lambda move, r: 0.0, visits),
    )
    assert wider.candidates == moves[: CANDIDATES + 1] and wider.included is None


def test_the_best_is_chosen_on_the_first_replicates_and_judged_on_fresh_ones():
    """Move a leads by 3 points on replicates 0..K-1 and trails b by 3 on the fresh ones: a is chosen, and
    its value, its loss against b and the ties rest on the fresh replicates alone."""
    position = game()
    a, b, c = moves_of(position, 3)
    noise = [random.Random(r).gauss(0, 0.3) for r in range(REPLICATES + LOSS_REPLICATES)]

    def values(move, r):
        fresh = r >= REPLICATES
        base = {a: 10.0 if not fresh else 7.0, b: 7.0 if not fresh else 10.0, c: -7.0}[move]
        return base + noise[r] + (0.1 * r if move == c else 0.0)

    replicates = Replicates(
        position, budget=800, confidence=0.95, run=fake_run(values, {a: 30, b: 20, c: 10})
    )
    assert replicates.best == a
    assert replicates.value(a) == pytest.approx(7.0 + fmean(noise[REPLICATES : 2 * REPLICATES]))
    loss = replicates.loss(b)  # the best − b, paired: the noise cancels
    assert loss.mean == pytest.approx(-3.0) and loss.low == pytest.approx(loss.high)
    assert loss.n == LOSS_REPLICATES * budget_split(800)[1]  # on more fresh replicates
    assert len(replicates.values[a]) == len(replicates.values[b]) == REPLICATES + LOSS_REPLICATES
    assert replicates.tied() == {a, b}  # b better: tied; c surely 13 points below: not
    assert not replicates.sure


@pytest.mark.parametrize("lead, tied", [(TIE_MARGIN - 0.1, True), (TIE_MARGIN + 0.3, False)])
def test_a_move_is_tied_unless_the_best_leads_by_more_than_the_tie_margin_surely(lead, tied):
    position = game()
    a, b = moves_of(position, 2)
    noise = [random.Random(f"n{r}").gauss(0, 0.05) for r in range(2 * REPLICATES)]

    def values(move, r):
        return 5.0 + noise[r] - (lead if move == b else 0.0) + (0.01 * r if move == b else 0.0)

    replicates = Replicates(
        position, budget=800, confidence=0.95, run=fake_run(values, {a: 30, b: 20})
    )
    assert replicates.best == a and (b in replicates.tied()) == tied
    assert replicates.sure  # a lead surely above 0 either way
    ratings = replicates.ratings(5)
    assert [r.placement for r in ratings] == [a, b] and ratings[1].tied == tied
    low, high = ratings[0].interval
    assert low < ratings[0].value < high and ratings[0].win == 0.5


def test_tied_series_chooses_on_the_first_replicates_and_ties_on_the_fresh():
    noise = [random.Random(f"s{r}").gauss(0, 0.05) for r in range(2 * REPLICATES)]

    def series(early, late):
        return [noise[r] + (early if r < REPLICATES else late) for r in range(2 * REPLICATES)]

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


@needs_native_search
def test_the_same_searches_shared_out_in_any_way_give_the_same_replicates():
    position = Position("original-2001", 3, *ORANGE_OPEN, "Anna: wall A2").game

    def in_pieces(requests):
        """As workers make them: each request rebuilt from its portable form, in reverse order."""
        context = portable(requests)
        made = [None] * len(requests)
        for start in reversed(range(len(requests))):
            for index, result in searches_of(context, start, start + 1):
                made[index] = result
        return made

    here = Replicates(position, budget=200, confidence=0.95, seed=3, include="wall A3")
    shared = Replicates(
        position, budget=200, confidence=0.95, seed=3, include="wall A3", run=in_pieces
    )
    assert here.candidates == shared.candidates and here.values == shared.values
    assert here.playouts == shared.playouts > 0
    other = Replicates(position, budget=200, confidence=0.95, seed=4, run=run_here)
    assert other.values != here.values


def test_a_move_that_ends_the_game_is_valued_by_its_final_margins_without_a_search():
    from conftest import EXAMPLES

    from medina_cli.agents.position import margin, totals
    from medina_cli.records.record import parse_record

    path = EXAMPLES / "original-2001-3p.yaml"
    record = parse_record(path.read_text(encoding="utf-8"), str(path))
    *before, last = [placement for *_, placement in record.placements()]
    position = record.start_game()
    for placement in before:
        position.push(placement)
    result = searched(position, last, replicate_seed(0, "move", 0), 50)
    position.push(last)
    assert position.is_over() and result.iterations == 0 and result.moves == []
    assert result.margins == [margin(totals(position), seat) for seat in range(3)]
