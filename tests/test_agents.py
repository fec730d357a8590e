"""Agents: legal at every step under every ruleset, deterministic for a seed, and hint and analyse
find the placement that is plainly best (a roof that takes the orange palace tile, worth 4)."""

from __future__ import annotations

import random

import pytest
from conftest import record_text
from rulekit import Position

from medina_cli.agents import UnknownAgent, make_agent, parse_spec
from medina_cli.agents.analysis import MISTAKE, hints, summarise
from medina_cli.agents.base import AgentSpec
from medina_cli.agents.position import seat_to_move
from medina_cli.engine.game import Game
from medina_cli.engine.playout import random_setup
from medina_cli.records.record import parse_record
from medina_cli.rules.loader import builtin_ids, load_ruleset
from medina_cli.study.analysis import analyse
from medina_cli.study.parallel import Workers

RULESETS = [(ref, n) for ref in builtin_ids() for n in load_ruleset(ref).player_counts]
# the orange palace C3-C7 stands unroofed; Anna has placed a wall and may roof it (5 + the orange tile 4)
ORANGE_OPEN = (
    "Anna: orange C3, orange C4",
    "Ben: orange C5, orange C6",
    "Cleo: orange C7, brown F11",
)
ORANGE_CELLS = {"C3", "C4", "C5", "C6", "C7"}


def play_game(rules, specs: list[str], seed: int, limit: int | None = None) -> tuple[Game, list]:
    """A whole game (or its first `limit` placements), seat i played by make_agent(specs[i]);
    asserts every choice is legal."""
    rng = random.Random(seed)
    game = Game(rules, [f"P{i + 1}" for i in range(rules.players)], *random_setup(rules, rng))
    agents = [make_agent(spec, f"{seed}/{seat}") for seat, spec in enumerate(specs)]
    chosen = []
    while not game.is_over() and len(chosen) != limit:
        placement = agents[seat_to_move(game)].choose(game)
        assert placement in game.legal_placements(), placement
        game.push(placement)
        chosen.append(str(placement))
    return game, chosen


@pytest.mark.parametrize("ref,players", RULESETS, ids=lambda x: str(x))
def test_agents_place_legally_to_the_end(ref, players):
    rules = load_ruleset(ref).for_players(players)
    specs = ["mcts:3", "greedy", "random", "greedy"][:players]
    game, chosen = play_game(rules, specs, seed=players)
    assert game.is_over() and len(chosen) == game.placements_made + chosen.count("tea")


def test_a_seed_fixes_the_choices():
    rules = load_ruleset("second-edition-2014").for_players(2)
    first = play_game(rules, ["mcts:5", "greedy"], seed=3, limit=30)[1]
    assert first == play_game(rules, ["mcts:5", "greedy"], seed=3, limit=30)[1]
    assert first != play_game(rules, ["mcts:5", "greedy"], seed=4, limit=30)[1]


@pytest.mark.parametrize(
    "spec,parsed",
    [
        ("random", AgentSpec("random")),
        ("greedy", AgentSpec("greedy")),
        ("mcts", AgentSpec("mcts")),
        ("MCTS:250", AgentSpec("mcts", 250)),
        ("mcts:2s", AgentSpec("mcts", seconds=2.0)),
        ("mcts:0.25S", AgentSpec("mcts", seconds=0.25)),
        ("mcts@0.99", AgentSpec("mcts", confidence=0.99)),
        ("mcts:5000@0.9", AgentSpec("mcts", 5000, 0.9)),
        ("mcts:30@0.9999999", AgentSpec("mcts", 30, 0.9999999)),
        ("mcts@0.9912345", AgentSpec("mcts", confidence=0.9912345)),
    ],
)
def test_specs(spec, parsed):
    assert parse_spec(spec) == parsed
    assert parse_spec(str(parse_spec(spec))) == parsed  # str() spells it so that it reads back


@pytest.mark.parametrize(
    "spec",
    [
        "",
        "mcts:0",
        "mcts:x",
        "greedy:5",
        "alphazero",
        "mcts@1",
        "mcts@0.4",
        "mcts@x",
        "greedy@0.9",
        "mcts:@0.9x",
    ],
)
def test_bad_specs_are_refused_naming_the_agents(spec):
    with pytest.raises(UnknownAgent, match="agent"):
        make_agent(spec)


@pytest.mark.parametrize("spec", ["greedy", "mcts:60"])
def test_hint_takes_the_palace_tile(spec):
    position = Position("original-2001", 3, *ORANGE_OPEN, "Anna: wall A2")
    best = hints(position.game, spec, top=3)[0]
    assert best.placement.piece == "roof" and best.placement.cell in ORANGE_CELLS


@pytest.mark.slow
def test_analyse_finds_the_missed_roof():
    text = record_text(
        "original-2001",
        ["Anna", "Ben", "Cleo"],
        [*list(ORANGE_OPEN), "Anna: wall A2, wall A3", "Ben: roof C4, black P10"],
    )
    record = parse_record(text, "missed.yaml")
    reviews = analyse(record, "mcts:40", seed=1)
    missed = next(r for r in reviews if (r.turn, r.placement) == (4, 2))
    assert (
        missed.played == "wall A3" and missed.best.startswith("roof C") and missed.loss >= MISTAKE
    )
    taken = next(r for r in reviews if (r.turn, r.placement) == (5, 1))
    assert taken.played.startswith("roof C") and taken.loss < missed.loss
    anna = summarise(record.players, reviews)[0]
    assert anna.player == "Anna" and anna.mistakes + anna.blunders >= 1


@pytest.mark.parametrize("spec", ["greedy", "mcts:100"])
def test_a_roof_on_a_palace_is_one_move(spec):
    """The orange palace has five buildings: a roof on it is one move (the best), rated once."""
    game = Position("original-2001", 3, *ORANGE_OPEN, "Anna: wall A2").game
    rated = [str(r.placement) for r in make_agent(spec, seed=1).rate(game)]
    assert (
        rated[0] == "roof C3"
        and sum(p in {f"roof {cell}" for cell in ORANGE_CELLS} for p in rated) == 1
    )


def test_random_plays_as_simulate_plays():
    """`random` draws as `medina simulate`'s uniform play does: the same choice from the same generator,
    a roof on the orange palace (five buildings) five times as likely as one on the brown palace."""
    from medina_cli.engine.playout import random_placement

    game = Position("original-2001", 3, *ORANGE_OPEN, "Anna: wall A2").game
    agent = make_agent("random", 0)
    chosen = [agent.choose(game) for _ in range(3000)]
    agent.rng.seed("medina-agent/random/0")
    assert chosen == [random_placement(game, agent.rng) for _ in range(3000)]
    roofs = [p.cell for p in chosen if p.piece == "roof"]
    assert 3 < sum(cell in ORANGE_CELLS for cell in roofs) / max(1, roofs.count("F11")) < 8


@pytest.mark.slow
def test_analyse_counts_a_roof_on_the_preferred_palace_as_no_loss():
    """Anna roofs the orange palace on C6: the agent's preferred move (a roof on that palace, which it
    names C3), so the loss is 0 and the preferred placement is named as played."""
    text = record_text(
        "original-2001", ["Anna", "Ben", "Cleo"], [*list(ORANGE_OPEN), "Anna: roof C6, wall A2"]
    )
    record = parse_record(text, "roofed.yaml")
    for spec in ("greedy", "mcts:60"):
        roofed = next(r for r in analyse(record, spec, seed=1) if (r.turn, r.placement) == (4, 1))
        assert (roofed.played, roofed.best, roofed.loss) == ("roof C6", "roof C6", 0.0), spec


def test_analyse_plays_the_record_from_its_own_supply():
    """Anna starts without roofs (the record's setup supply): the orange palace she cannot roof is not
    the preferred move (from the ruleset's supply it would be: see test_a_roof_on_a_palace_is_one_move)."""
    text = record_text(
        "original-2001", ["Anna", "Ben", "Cleo"], [*list(ORANGE_OPEN), "Anna: wall A2, wall A3"]
    )
    record = parse_record(
        text.replace("\nturns:", "\n  supply:\n    Anna: {roof: 0}\nturns:", 1), "roofless.yaml"
    )
    second = next(r for r in analyse(record, "greedy", seed=1) if (r.turn, r.placement) == (4, 2))
    assert second.played == "wall A3" and not second.best.startswith("roof") and second.loss == 0.0


def test_analyse_does_not_depend_on_jobs():
    text = record_text(
        "original-2001", ["Anna", "Ben", "Cleo"], [*list(ORANGE_OPEN), "Anna: wall A2, roof C3"]
    )
    record = parse_record(text, "short.yaml")
    one = analyse(record, "mcts:10", seed=2)
    assert one == analyse(record, "mcts:10", seed=2, workers=Workers(2))


def test_the_agents_page_runs():
    import doctest

    from conftest import ROOT

    failures, tried = doctest.testfile(str(ROOT / "docs" / "agents.md"), module_relative=False)
    assert tried > 5 and failures == 0
