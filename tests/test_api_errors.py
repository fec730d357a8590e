"""Odd arguments to the public API end in one documented error that names the problem, the same with
either engine (fault 21), and `Game(supply=)` is checked as a record's setup.supply is."""

from __future__ import annotations

import random

import pytest

import medina_cli as medina
from medina_cli.agents import make_agent
from medina_cli.engine import native

ENGINES = ["python"] + (["native"] if native.built() is not None else [])


@pytest.fixture
def rules():
    return medina.load_ruleset("original-2001", players=3)


def finished(rules):
    game = medina.Game(rules, ["A", "B", "C"], merchant="K7")
    rng = random.Random(3)
    while not game.is_over():
        game.push(rng.choice(game.legal_placements()))
    return game


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("spec", ["random", "greedy", "mcts:5", "alphabeta:2"])
def test_every_agent_refuses_a_finished_game_as_push_does(rules, engine, spec, monkeypatch):
    monkeypatch.setenv(native.ENGINE_VARIABLE, engine)
    game = finished(rules)
    with pytest.raises(medina.IllegalPlacement) as pushed:
        game.push("grey B2")
    agent = make_agent(spec, 1)
    with pytest.raises(medina.IllegalPlacement) as chosen:
        agent.choose(game)
    assert (
        (chosen.value.code, str(chosen.value))
        == (pushed.value.code, str(pushed.value))
        == ("game-over", "the game has already ended")
    )
    if agent.rates:
        with pytest.raises(medina.IllegalPlacement, match="already ended"):
            agent.rate(game)


@pytest.mark.parametrize("bad", [None, "original-2001", 3])
def test_a_game_of_no_rules_is_a_type_error_naming_load_ruleset(bad):
    with pytest.raises(TypeError, match=r"rules .*: a Rules or a Ruleset.*load_ruleset"):
        medina.Game(bad, ["A", "B", "C"], merchant="K7")


def test_players_that_are_no_list_of_names_are_a_type_error(rules):
    for bad in (None, "ABC", [1, 2, 3]):
        with pytest.raises(TypeError, match=r"players .*: a list of names"):
            medina.Game(rules, bad, merchant="K7")


def test_a_placement_of_no_piece_is_a_type_error():
    with pytest.raises(TypeError, match="piece None: a piece's name"):
        medina.Placement(None, "K8")


def test_can_place_refuses_a_seat_the_game_does_not_have(rules):
    game = medina.Game(rules, ["A", "B", "C"], merchant="K7")
    assert [game.can_place(seat) for seat in range(3)] == [True] * 3
    for seat in (-1, -3, 3, 99):
        with pytest.raises(IndexError, match=f"seat {seat}: the seats of this game are 0 to 2"):
            game.can_place(seat)


@pytest.mark.parametrize(
    "supply, error, words",
    [
        (
            {"A": {"merchant": -1}},
            ValueError,
            "supply for A: merchant -1 is not a whole number from 0 to 99",
        ),
        (
            {"A": {"merchant": 100}},
            ValueError,
            "supply for A: merchant 100 is not a whole number from 0 to 99",
        ),
        ({"A": {"merchant": True}}, ValueError, "is not a whole number"),
        ({"A": {"merchant": 2.5}}, ValueError, "is not a whole number"),
        (
            {"Zed": {"merchant": 3}},
            ValueError,
            "supply names 'Zed', who is not a player \\(A, B, C\\)",
        ),
        (
            {"A": {"neutral": 1}},
            ValueError,
            "supply for A: 'neutral' is not a piece of original-2001",
        ),
        ({"A": {"dragon": 1}}, ValueError, "'dragon' is not a piece"),
        ({"A": 3}, TypeError, "supply for A: 3 is not a mapping"),
        ([("A", {"merchant": 3})], TypeError, "a mapping of players"),
    ],
)
def test_a_start_supply_is_checked_as_a_records_is(rules, supply, error, words):
    with pytest.raises(error, match=words):
        medina.Game(rules, ["A", "B", "C"], merchant="K7", supply=supply)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_start_supply_plays_alike_on_both_engines(rules, engine, monkeypatch):
    """A supply given in any spelling is the game's canonical one; a player given no roofs places none,
    and the agents (on either engine) agree."""
    monkeypatch.setenv(native.ENGINE_VARIABLE, engine)
    game = medina.Game(rules, ["A", "B", "C"], merchant="K7", supply={"A": {"Gray": 0, "ROOF": 0}})
    assert game.start_supply == {"A": {"grey": 0, "roof": 0}} and game.supply[0]["grey"] == 0
    assert not any(p.piece in ("grey", "roof") for p in game.legal_placements())
    assert make_agent("greedy", 2).choose(game).piece not in ("grey", "roof")
    assert make_agent("mcts:20", 2).choose(game).piece not in ("grey", "roof")
