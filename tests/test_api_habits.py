"""python-chess's habits on a Game: is_legal, peek, outcome, from_record, str with coordinates, and
make_agent in the package's namespace (docs/api.md shows each; these hold them everywhere)."""

from __future__ import annotations

import random

import pytest
from conftest import EXAMPLES, ROOT

import medina_cli as medina
from medina_cli.engine.placement import TEA_PLACEMENT, Placement
from medina_cli.render.text import render_board


def every_candidate(game) -> list[Placement]:
    """Every piece of the ruleset on every cell of the board, and tea."""
    geo = game.variant.geometry
    return [
        Placement(piece, geo.square_of[cell])
        for piece in game.variant.pieces
        for cell in range(geo.size)
    ] + [TEA_PLACEMENT]


@pytest.mark.parametrize("ruleset, players", [("original-2001", 3), ("second-edition-2014", 2)])
def test_is_legal_is_membership_of_the_legal_placements_along_a_game(ruleset, players):
    rules = medina.load_ruleset(ruleset, players=players)
    game = medina.Game(
        rules, ["A", "B", "C"][:players], merchant="K7", well="E5" if rules.well.enabled else None
    )
    rng = random.Random(5)
    checked = 0
    while not game.is_over():
        if len(game.move_stack) % 9 == 0:
            legal = set(game.legal_placements())
            assert {p for p in every_candidate(game) if game.is_legal(p)} == legal
            checked += 1
        legal = game.legal_placements()
        tea = [p for p in legal if p == TEA_PLACEMENT]
        game.push(tea[0] if tea and rng.random() < 0.5 else rng.choice(legal))
    assert checked > 5 and not any(game.is_legal(p) for p in every_candidate(game))


def test_is_legal_reads_text_as_push_does_and_is_false_for_what_names_no_placement():
    game = medina.Game(
        medina.load_ruleset("original-2001", players=3), ["A", "B", "C"], merchant="K7"
    )
    assert game.is_legal("Gray k08") and game.is_legal(Placement("grey", "K8"))
    for text in ("dragon K8", "grey Z40", "grey", "pass", "", "grey K8 roof"):
        assert game.is_legal(text) is False
    assert game.is_legal("grey K8") and game.move_stack == []  # asking changes nothing


def test_peek_is_what_pop_undoes():
    game = medina.Game(
        medina.load_ruleset("original-2001", players=3), ["A", "B", "C"], merchant="K7"
    )
    with pytest.raises(IndexError, match="empty move stack"):
        game.peek()
    for text in ("grey K8", "roof K8", "black C3"):
        game.push(text)
        assert game.peek() == Placement.parse(text)
    assert [game.peek() == game.pop() for _ in range(3)] == [True] * 3


def test_outcome_is_none_until_the_end_then_the_scores_winners_and_totals():
    record = medina.read_record(str(EXAMPLES / "original-2001-3p.yaml"))
    before = medina.replay(record, to_turn=57).game
    assert before.outcome() is None
    game = medina.replay(record).game
    outcome, sheet = game.outcome(), medina.score(game)
    assert outcome == medina.Outcome(tuple(sheet.winners), sheet.totals) and outcome.winner == "Ben"
    assert medina.Outcome(("A", "B"), {"A": 3, "B": 3}).winner is None


def test_from_record_is_the_replayed_game():
    path = str(EXAMPLES / "second-edition-2014-2p.yaml")
    game = medina.Game.from_record(path)
    assert isinstance(game, medina.Game) and game == medina.replay(medina.read_record(path)).game


def test_from_record_raises_with_every_problem_of_a_record_it_cannot_replay(tmp_path):
    with pytest.raises(medina.UnusableInput):
        medina.Game.from_record(str(tmp_path / "missing.yaml"))
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "medina: record/1\nruleset: original-2001\nplayers: [A, B, C]\nsetup:\n  merchant: K7\n"
        "turns:\n  - A: grey K8, roof K8\n  - B: black K9, roof K9\n",
        encoding="utf-8",
    )
    with pytest.raises(medina.MedinaError) as refused:
        medina.Game.from_record(str(bad))
    assert refused.value.problem.code == "spacing" and refused.value.problem.turn == 2


def test_str_of_a_game_is_the_board_the_commands_print():
    game = medina.Game.from_record(str(EXAMPLES / "original-2001-3p.yaml"))
    lines = str(game).splitlines()
    assert str(game) == render_board(game)
    assert lines[0].split() == lines[-1].split() == [chr(65 + x) for x in range(game.variant.width)]
    assert [line.split()[0] for line in lines[1:-1]] == [
        str(y) for y in range(game.variant.height, 0, -1)
    ]
    assert "\x1b" not in str(game)


def test_make_agent_is_in_the_packages_namespace_as_the_readme_uses_it():
    from medina_cli import agents

    assert medina.make_agent is agents.make_agent and "make_agent" in medina.__all__
    assert "medina.make_agent(" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_from_record_and_str_work_after_importing_the_engine_alone():
    """They import the record reader and the text board when called (the engine imports neither before)."""
    import subprocess
    import sys

    code = (
        "from medina_cli.engine.game import Game\n"
        f"game = Game.from_record({str(EXAMPLES / 'original-2001-3p.yaml')!r})\n"
        "print(game.outcome().winner, str(game).splitlines()[1].split()[:2])"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "Ben ['13', 'T1']\n", "")
