"""A record transcribed as the game is played: its last turn may be in progress (fewer placements
than the turn allows). Valid with a `turn-in-progress` warning, the result unchecked; `moves`
gives the placements for the next placement of that turn and says which it is."""

from __future__ import annotations

import json

from conftest import record_text
from rulekit import BEN_STUCK, Position
from scorekit import run

GAME = record_text(
    "original-2001", ["Anna", "Ben", "Cleo"], ["Anna: wall A12, wall A11", "Ben: grey K8"]
)


def test_a_last_turn_in_progress_is_valid_with_a_warning(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text(GAME + "result: {Anna: 1, Ben: 2, Cleo: 3}\n")
    code, out, _ = run("validate", path, "--json")
    (result,) = json.loads(out)["results"]
    assert code == 0 and result["valid"] and not result["finished"]
    warnings = {w["code"]: w for w in result["warnings"]}
    assert (warnings["turn-in-progress"]["turn"], warnings["turn-in-progress"]["player"]) == (
        2,
        "Ben",
    )
    assert warnings["turn-in-progress"]["line"] == 8 and "result-unchecked" in warnings
    code, out, err = run("validate", path)
    assert (
        code == 0 and "1 of its 2 placements made [turn-in-progress]" in err
    )  # a warning: on stderr


def test_only_the_last_turn_may_be_in_progress():
    pos = Position("original-2001", 3, "Anna: wall A12, wall A11")
    outcome = pos.replay("Ben: grey K8")
    assert outcome.valid and outcome.in_progress and outcome.turns_played == 2
    assert outcome.position_words() == "after turn 1 and 1 placement of turn 2"
    assert outcome.next_placement() == (2, 2)
    assert pos.problem("Ben: grey K8", "Cleo: wall B13, wall C13") == (
        "too-few-placements",
        2,
        None,
        "Ben",
    )


def test_a_turn_in_progress_may_still_owe_its_forced_roof():
    pos = BEN_STUCK.position()
    outcome = pos.replay("Cleo: black I7")
    assert outcome.valid and outcome.in_progress
    (warning,) = [w for w in outcome.warnings if w.code == "turn-in-progress"]
    assert "a roof is still due" in warning.message


def test_a_tea_tile_alone_leaves_the_turn_in_progress():
    pos = Position(
        "second-edition-2014",
        3,
        "Anna: purple D4",
        "Ben: grey H8",
        "Cleo: roof D4, wall A12",
        "Anna: wall A11, wall A10",
        "Ben: wall A9, wall A8",
    )  # Cleo holds tea tiles
    outcome = pos.replay("Cleo: tea")
    assert outcome.valid and outcome.in_progress and outcome.next_placement() == (6, 2)


def test_moves_names_the_placement_to_make(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text(GAME)
    code, out, _ = run("moves", path, "--json")
    doc = json.loads(out)
    assert code == 0 and (doc["player"], doc["turn"], doc["placement"], doc["after_turn"]) == (
        "Ben",
        2,
        2,
        2,
    )
    assert (
        "grey J8" in doc["placements"] and "grey K7" in doc["placements"]
    )  # the grey palace grows
    code, out, _ = run("moves", path)
    assert code == 0 and "Ben to move, second placement of turn 2," in out.splitlines()[0]
    code, out, _ = run("moves", path, "--to", "1", "--json")
    doc = json.loads(out)
    assert (doc["player"], doc["turn"], doc["placement"], doc["after_turn"]) == ("Ben", 2, 1, 1)
    code, out, _ = run("replay", path)
    assert code == 0 and out.rstrip().endswith("Ben is to make the second placement of turn 2.")
