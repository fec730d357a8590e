"""The alpha-beta agent: the Python search and evaluation give the native core's numbers, the depth
reached under a budget, its specs, and an obvious roof found at one placement."""

from __future__ import annotations

import random
from dataclasses import astuple, replace

import pytest
from rulekit import Position

from medina_cli.agents import UnknownAgent, make_agent, parse_spec
from medina_cli.agents.alphabeta import MAX_DEPTH, alphabeta
from medina_cli.agents.base import AgentSpec
from medina_cli.agents.evaluation import evaluate
from medina_cli.agents.params import SearchParams
from medina_cli.engine import native
from medina_cli.engine.game import Game
from medina_cli.engine.playout import random_setup
from medina_cli.rules.loader import load_ruleset

ENGINES = ["python"] + (["native"] if native.built() is not None else [])
needs_core = pytest.mark.skipif(
    native.core() is None,
    reason="the native core is not in use (not built, or MEDINA_ENGINE=python)",
)
PARAMS = SearchParams()
# the orange palace C3-C7 stands unroofed and Anna may roof it: 5 pieces and the orange tile, 4
ORANGE_OPEN = (
    "Anna: orange C3, orange C4",
    "Ben: orange C5, orange C6",
    "Cleo: orange C7, brown F11",
    "Anna: wall A2",
)


def random_game(ref: str, players: int, placements: int, seed: int) -> Game:
    rules = load_ruleset(ref).for_players(players)
    rng = random.Random(seed)
    game = Game(rules, [f"P{i}" for i in range(players)], *random_setup(rules, rng))
    for _ in range(placements):
        if game.is_over():
            break
        game.push(rng.choice(game.legal_placements()))
    return game


def game_length(ref: str, players: int, seed: int) -> int:
    return len(random_game(ref, players, 10_000, seed).move_stack)


# (ruleset, players, placements made): mid-game, the opening, two placements before the end
POSITIONS = [
    ("original-2001", 4, 30),
    ("second-edition-2014", 2, 21),
    ("original-2001", 3, 12),
    ("second-edition-2014", 3, game_length("second-edition-2014", 3, 1) - 2),
]


@needs_core
@pytest.mark.parametrize(
    "ref,players", [("original-2001", 3), ("second-edition-2014", 2), ("second-edition-2014", 4)]
)
def test_the_python_evaluation_is_the_native_one(ref, players):
    odd = replace(PARAMS, open_share=0.3, roof_in_hand=7.1)
    for seed in range(3):
        game = random_game(ref, players, 0, seed)
        rng = random.Random(seed)
        while True:
            state = native.state_of(game)
            for params in (PARAMS, odd):
                assert evaluate(game, params) == state.evaluate(astuple(params))
            if game.is_over():
                break
            for _ in range(7):
                if not game.is_over():
                    game.push(rng.choice(game.legal_placements()))


@needs_core
@pytest.mark.parametrize("ref,players,placements", POSITIONS)
@pytest.mark.parametrize("depth,exact", [(1, False), (2, False), (2, True)])
def test_the_python_search_is_the_native_one(ref, players, placements, depth, exact):
    game = random_game(ref, players, placements, 1)
    state = native.state_of(game)
    rated, reached, nodes = state.alphabeta(
        native.generator(7).core, depth, 0, 0.0, astuple(PARAMS), exact
    )
    mirrored, reached_too, nodes_too = alphabeta(
        game.copy(), native.generator(7), depth, 0, 0.0, PARAMS, exact
    )
    assert [(game.variant.encode(p), value) for p, value in mirrored] == rated
    assert (reached_too, nodes_too) == (reached, nodes) and reached == depth
    assert len(rated) == len(state.distinct_moves())
    assert [value for _, value in rated] == sorted((value for _, value in rated), reverse=True)


def test_a_budget_keeps_the_deepest_completed_search():
    game = random_game("original-2001", 3, 12, 1)
    full = alphabeta(game.copy(), random.Random(3), 2, 0, 0.0, PARAMS)
    cut = alphabeta(game.copy(), random.Random(3), 3, full[2] + 10, 0.0, PARAMS)
    assert cut[1] == 2 and cut[0] == full[0] and cut[2] > full[2]
    first = alphabeta(
        game.copy(), random.Random(3), 3, 1, 0.0, PARAMS
    )  # the first depth always completes
    assert first[1] == 1 and len(first[0]) == len(game.distinct_placements())


@needs_core
def test_the_native_budget_keeps_the_deepest_completed_search():
    state = native.state_of(random_game("original-2001", 3, 12, 1))
    full = state.alphabeta(native.generator(3).core, 2, 0, 0.0, astuple(PARAMS))
    cut = state.alphabeta(native.generator(3).core, 3, full[2] + 10, 0.0, astuple(PARAMS))
    assert cut[1] == 2 and cut[0] == full[0] and cut[2] > full[2]


@pytest.mark.skipif(native.built() is None, reason="no native core built")
def test_both_engines_choose_and_rate_alike(monkeypatch):
    def played(engine: str) -> tuple[list[str], list[tuple[str, float]]]:
        monkeypatch.setenv(native.ENGINE_VARIABLE, engine)
        game = random_game("second-edition-2014", 2, 21, 2)
        agent = make_agent("alphabeta:2", seed=5)
        chosen = []
        for _ in range(3):
            chosen.append(agent.choose(game))
            game.push(chosen[-1])
        return [str(p) for p in chosen], [(str(r.placement), r.value) for r in agent.rate(game)]

    assert played("native") == played("python")


@pytest.mark.parametrize("engine", ENGINES)
def test_it_takes_the_big_palace_at_one_placement(engine, monkeypatch):
    monkeypatch.setenv(native.ENGINE_VARIABLE, engine)
    game = Position("original-2001", 3, *ORANGE_OPEN).game
    agent = make_agent("alphabeta:1", seed=1)
    choice = agent.choose(game)
    assert choice.piece == "roof" and choice.cell in {"C3", "C4", "C5", "C6", "C7"}
    best, second = agent.rate(game)[:2]
    assert (
        best.placement.piece == "roof"
        and best.tied
        and not second.tied
        and best.value > second.value
    )


@pytest.mark.parametrize(
    "spec,parsed",
    [
        ("alphabeta", AgentSpec("alphabeta")),
        ("AlphaBeta:3", AgentSpec("alphabeta", depth=3)),
        (f"alphabeta:{MAX_DEPTH}", AgentSpec("alphabeta", depth=MAX_DEPTH)),
    ],
)
def test_alphabeta_specs(spec, parsed):
    assert parse_spec(spec) == parsed
    assert parse_spec(str(parse_spec(spec))) == parsed
    assert make_agent(spec).spec == str(parse_spec(spec))


@pytest.mark.parametrize(
    "spec,message",
    [
        (
            "alphabeta:0",
            "the depth of alphabeta must be a whole number of placements from 1 to 12, not '0'",
        ),
        (f"alphabeta:{MAX_DEPTH + 1}", "from 1 to 12, not '13'"),
        ("alphabeta:x", "not 'x'"),
        ("alphabeta@0.9", "alphabeta takes a depth (alphabeta:D), not a confidence"),
    ],
)
def test_bad_alphabeta_specs_say_why(spec, message):
    with pytest.raises(UnknownAgent) as refused:
        make_agent(spec)
    assert str(refused.value).startswith(f"agent '{spec}': ") and message in str(refused.value)


@needs_core
def test_the_depth_limit_is_the_cores():
    assert native.core().ALPHABETA_MAX_DEPTH == MAX_DEPTH
