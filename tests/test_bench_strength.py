"""benchmarks/bench_strength.py: its statistics on known inputs, and a tiny match's document."""

from __future__ import annotations

import json
import math
import sys
from fractions import Fraction

import pytest
from conftest import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))  # the benchmarks import their helpers as `common`
import bench_strength as bench


def test_elo_from_a_win_rate_follows_the_luce_model():
    assert bench.elo_of(0.5) == 0
    assert bench.elo_of(0.75) == pytest.approx(400 * math.log10(3))  # 3 : 1 odds
    assert bench.elo_of(0.25, players=4) == pytest.approx(0)  # the fair share of four
    assert bench.elo_of(0.5, players=4) == pytest.approx(400 * math.log10(3))
    assert bench.elo_of(0) == -math.inf and bench.elo_of(1) == math.inf
    for players in (2, 3, 4):
        assert bench.share_of(bench.elo_of(0.3, players), players) == pytest.approx(0.3)


def result(index, totals, winners):
    return bench.GameResult(index, totals, winners, [0.5] * len(totals), [10] * len(totals))


def test_a_match_counts_shared_wins_by_seat_with_wilson_intervals():
    match = bench.Match("a", "b", "second-edition-2014", 2, 10)
    # A sits in seat 0 in even games, seat 1 in odd ones: A wins 7 whole games and shares one
    outcomes = [(0, 30, 20), (1, 20, 30), (2, 25, 25), (3, 10, 40), (4, 40, 10)]
    outcomes += [(5, 15, 35), (6, 33, 3), (7, 12, 22), (8, 1, 2), (9, 50, 5)]
    for index, first, second in outcomes:
        winners = [0, 1] if first == second else [0 if first > second else 1]
        match.results[index] = result(index, [first, second], winners)
    assert match.wins == Fraction(15, 2)  # 1, 1, 1/2, 1, 1, 1, 1, 1, 0, 0 for A
    assert match.by_seat() == [(5, Fraction(7, 2)), (5, Fraction(4))]
    assert match.win_interval == pytest.approx((0.4422, 0.9191), abs=1e-4)  # Wilson, 7.5 of 10
    low, high = match.elo_interval
    assert (low, high) == pytest.approx((bench.elo_of(0.4422), bench.elo_of(0.9191)), abs=0.5)
    assert match.margins() == [10, 10, 0, 30, 30, 20, 30, 10, -1, -45]
    assert match.seconds_per_decision() == (0.05, 0.05)
    assert match.to_json()["a_by_seat"][1]["a_win_rate"] == 0.8


def test_the_games_are_rounded_up_to_whole_setups():
    assert bench.Match("a", "b", "original-2001", 4, 10).games == 12


def test_the_most_likely_distribution_has_the_mean_asked():
    values, frequencies = [0.0, 0.5, 1.0], [0.2, 0.3, 0.5]
    fitted = bench.expected_scores(values, frequencies, 0.4)
    assert sum(fitted) == pytest.approx(1)
    assert sum(x * p for x, p in zip(values, fitted, strict=True)) == pytest.approx(0.4)


def test_the_sprt_accepts_h1_after_enough_wins_and_not_before():
    sprt = bench.Sprt(0, 50)
    # with only wins the distributions are forced (P(1) = s), so LLR ≈ N log(s1 / s0)
    needed = math.ceil(math.log(0.95 / 0.05) / math.log(bench.share_of(50) / 0.5))
    for _ in range(needed - 1):
        sprt.add(Fraction(1))
    assert sprt.decision() is None
    sprt.add(Fraction(1))
    assert sprt.decision() == "H1" and sprt.llr() >= sprt.bounds[1]


def test_the_sprt_accepts_h0_on_drawn_pairs_and_stays_undecided_on_an_even_record():
    drawn = bench.Sprt(0, 50)
    for _ in range(40):
        drawn.add(Fraction(1, 2))
    assert drawn.decision() == "H0"
    even = bench.Sprt(-10, 10)
    for unit in range(40):
        even.add(Fraction(unit % 2))
    assert even.llr() == pytest.approx(0, abs=1e-6) and even.decision() is None


def test_a_tiny_match_rotates_the_seats_and_repeats_itself(tmp_path, capsys):
    documents = []
    for run in range(2):
        out = tmp_path / f"{run}.json"
        args = ["--games", "2", "--jobs", "1", "--json", str(out), "random", "greedy"]
        assert bench.main(args) == 0
        documents.append(json.loads(out.read_text()))
    printed = capsys.readouterr().out
    assert "random against greedy: 2 games" in printed
    document = documents[0]
    assert document["engine"] in ("native", "python") and document["interrupted"] is False
    (match,) = document["matches"]
    assert (match["a"], match["b"], match["games"], match["players"]) == ("random", "greedy", 2, 2)
    assert [seat["games"] for seat in match["a_by_seat"]] == [1, 1]  # A in each seat once
    assert 0 <= match["a_wins"] <= 2 and len(match["a_win_rate_ci95"]) == 2
    assert match["sprt"] is None and match["stopped_early"] is False
    for doc in documents:
        doc["matches"][0].pop("seconds_per_decision")
    assert documents[0] == documents[1]


def test_a_ladder_plays_each_agent_against_the_one_before(tmp_path):
    out = tmp_path / "ladder.json"
    args = ["--games", "2", "--jobs", "1", "--json", str(out), "--ladder", "random", "greedy"]
    args += ["random"]
    assert bench.main(args) == 0
    pairs = [(m["a"], m["b"]) for m in json.loads(out.read_text())["matches"]]
    assert pairs == [("greedy", "random"), ("random", "greedy")]


def test_an_unknown_agent_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as stopped:
        bench.main(["random", "grandmaster"])
    assert stopped.value.code == 2
    assert "grandmaster" in capsys.readouterr().err
