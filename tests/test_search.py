"""The tree search (agents/search.py, search.c): its transposition key agrees with Game.key(), a seed fixes
its result, both engines take a move that is clearly best, and the `mcts` agent's budgets."""

from __future__ import annotations

import random

import pytest
from rulekit import Position

from medina_cli.agents import UnknownAgent, make_agent, parse_spec
from medina_cli.agents.search import search
from medina_cli.engine import native
from medina_cli.engine.game import Game
from medina_cli.engine.playout import random_setup
from medina_cli.rules.loader import load_ruleset

ENGINES = ["python"] + (["native"] if native.built() is not None else [])
needs_core = pytest.mark.skipif(
    native.core() is None,
    reason="the native core is not in use (not built, or MEDINA_ENGINE=python)",
)
# the orange palace C3-C7 stands unroofed and Anna may roof it: 5 pieces and the orange tile, 4
ORANGE_OPEN = (
    "Anna: orange C3, orange C4",
    "Ben: orange C5, orange C6",
    "Cleo: orange C7, brown F11",
    "Anna: wall A2",
)


def turns_both_ways(ref: str, players: int, seed: int):
    """Pairs of games of a random game: at each two-placement turn whose placements may come in either
    order, the game after the turn as played and after the turn in the other order."""
    rules = load_ruleset(ref).for_players(players)
    rng = random.Random(seed)
    game = Game(rules, [f"P{i}" for i in range(players)], *random_setup(rules, rng))
    while not game.is_over():
        seat = game.seat_to_move
        first = rng.choice(game.legal_placements())
        game.push(first)
        if game.is_over() or game.seat_to_move != seat:
            continue
        second = rng.choice(game.legal_placements())
        game.push(second)
        other = game.copy()
        other.pop()
        other.pop()
        if other.is_legal(second):
            other.push(second)
            if other.is_legal(first):
                other.push(first)
                yield game.copy(), other


@needs_core
@pytest.mark.parametrize(
    "ref,players,seed",
    [("original-2001", 4, 1), ("second-edition-2014", 2, 2), ("bsw-dm-2003", 3, 3)],
)
def test_the_native_key_is_equal_exactly_where_game_key_is(ref, players, seed):
    pairs = list(turns_both_ways(ref, players, seed))
    assert len(pairs) > 5
    for played, swapped in pairs:
        assert (played.key() == swapped.key()) == (
            native.state_of(played).key() == native.state_of(swapped).key()
        )
    keys = {native.state_of(game).key(): game.key() for game, _ in pairs}
    assert len(keys) == len(pairs) == len(set(keys.values()))  # distinct positions, distinct keys


@needs_core
def test_the_two_orders_of_a_turn_share_a_key():
    rules = load_ruleset("second-edition-2014").for_players(2)
    one = Game(rules, ["A", "B"], "H6", "C3")
    two = Game(rules, ["A", "B"], "H6", "C3")
    for placement in ["orange F9", "wall A2", "grey K4"]:
        one.push(placement)
    for placement in ["orange F9", "grey K4", "wall A2"]:
        two.push(placement)
    assert native.state_of(one).key() == native.state_of(two).key()
    assert native.state_of(one).key() != native.state_of(Game(rules, ["A", "B"], "H6", "C3")).key()


@pytest.mark.parametrize("engine", ENGINES)
def test_a_seed_fixes_the_search(engine, monkeypatch):
    monkeypatch.setenv(native.ENGINE_VARIABLE, engine)
    game = Position("original-2001", 3, *ORANGE_OPEN).game
    budget = 300 if engine == "native" else 40
    first, again = search(game, 7, budget), search(game, 7, budget)
    assert first == again and first.iterations == budget
    assert (
        sum(move.visits for move in first.moves) == budget
    )  # every descent goes through one root move: the root expands at its first
    assert first.moves == sorted(first.moves, key=lambda move: -move.visits)


@pytest.mark.parametrize("engine", ENGINES)
def test_both_engines_roof_the_big_palace(engine, monkeypatch):
    monkeypatch.setenv(native.ENGINE_VARIABLE, engine)
    game = Position("original-2001", 3, *ORANGE_OPEN).game
    choice = make_agent("mcts:200" if engine == "native" else "mcts:60", seed=3).choose(game)
    assert choice.piece == "roof" and choice.cell in {"C3", "C4", "C5", "C6", "C7"}


def test_a_time_budget_stops_the_search():
    game = Position("original-2001", 3, *ORANGE_OPEN).game
    agent = make_agent("mcts:0.05s", seed=1)
    assert agent.spec == "mcts:0.05s"
    result = agent.search(game)
    assert 0 < result.iterations < 10_000_000
    assert agent.choose(game) in game.legal_placements()


def test_the_rating_leads_with_the_choice():
    game = Position("original-2001", 3, *ORANGE_OPEN).game
    rated = make_agent("mcts:300", seed=2).rate(game)
    assert rated[0].placement == make_agent("mcts:300", seed=2).choose(game)
    assert [r.playouts for r in rated] == sorted((r.playouts for r in rated), reverse=True)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("spec", ["mcts:1", "mcts:2", "mcts:0.001s"])
def test_the_smallest_budgets_choose_a_legal_move(engine, spec, monkeypatch):
    monkeypatch.setenv(native.ENGINE_VARIABLE, engine)
    game = Position("original-2001", 3, *ORANGE_OPEN).game
    assert make_agent(spec, seed=1).choose(game) in game.legal_placements()


@pytest.mark.parametrize("seconds", ["0.001s", "0.5s", "2s", "12.25s", "3600s"])
def test_a_time_budget_reads_back(seconds):
    parsed = parse_spec(f"mcts:{seconds}")
    assert parse_spec(str(parsed)) == parsed and str(parsed) == f"mcts:{seconds}"


@pytest.mark.parametrize(
    "spec", ["mcts:0.0001s", "mcts:1e-05s", "mcts:3601s", "mcts:0s", "mcts:infs", "mcts:1.2345s"]
)
def test_bad_time_budgets_are_refused(spec):
    with pytest.raises(UnknownAgent, match=r"0\.001s to 3600s"):
        parse_spec(spec)
