"""`medina score`: the rulebooks' worked scoring examples as boards (examples E-1 to E-3),
records scored final or as standings, the JSON document of docs/format.md, and claimed results."""

from __future__ import annotations

import json

import pytest
from conftest import EXAMPLES, record_text
from scorekit import BOARDS, run, set_cells

from medina_cli.engine.scoring import score_game
from medina_cli.records.boardfile import read_board, score_board
from medina_cli.records.record import read_record
from medina_cli.records.replay import replay

PALACE_KEYS = ["colour", "cells", "buildings", "stables", "merchants", "walls", "well", "points"]


def palaces(path, **kw) -> dict[tuple[str, str], dict]:
    """(player, colour) -> palace entry of the board's medina-score/1 document."""
    sheet = score_board(read_board(str(path), **kw)).to_json()
    return {(p["name"], q["colour"]): q for p in sheet["players"] for q in p["palaces"]}


def test_e1_original_2001_palaces_of_11_10_and_13():
    got = palaces(BOARDS / "e1-original-2001.yaml")
    assert {key: p["points"] for key, p in got.items()} == {
        ("Anna", "orange"): 11,
        ("Anna", "black"): 10,
        ("Anna", "grey"): 13,
    }
    assert [got["Anna", "orange"][k] for k in ("buildings", "stables", "walls", "merchants")] == [
        4,
        2,
        2,
        3,
    ]
    assert [got["Anna", "black"][k] for k in ("buildings", "stables", "walls", "merchants")] == [
        5,
        0,
        1,
        4,
    ]
    assert [got["Anna", "grey"][k] for k in ("buildings", "stables", "walls", "merchants")] == [
        4,
        1,
        5,
        3,
    ]


def test_a_merchant_touching_two_palaces_scores_for_both(tmp_path):
    path = BOARDS / "e1-original-2001.yaml"
    without = tmp_path / "without-e12.yaml"
    without.write_text(set_cells(path.read_text(), {"E12": "."}))
    before, after = palaces(path), palaces(without)
    assert before["Anna", "grey"]["merchants"] - after["Anna", "grey"]["merchants"] == 1
    assert before["Anna", "black"]["merchants"] - after["Anna", "black"]["merchants"] == 1


def test_e2_dm_2003_palaces_of_11_13_11_and_8():
    got = palaces(BOARDS / "e2-bsw-dm-2003.yaml")
    assert {key: p["points"] for key, p in got.items()} == {
        ("Green", "grey"): 11,
        ("Blue", "black"): 13,
        ("Red", "orange"): 11,
        ("Green", "orange"): 8,
    }
    assert got["Red", "orange"]["merchants"] == 5  # three touch buildings, two only its stables
    assert got["Green", "orange"]["walls"] == 1  # the wall touches only a stable


def test_merchants_touching_only_stables_follow_the_ruleset_parameter():
    got = palaces(
        BOARDS / "e2-bsw-dm-2003.yaml", overrides=("scoring.merchants_touching_stables=false",)
    )
    assert got["Red", "orange"]["merchants"] == 3


def test_e3_second_edition_2014_with_the_well_bonus():
    got = palaces(BOARDS / "e3-second-edition-2014.yaml")
    assert {key: (p["points"] - p["well"], p["well"]) for key, p in got.items()} == {
        ("Anna", "orange"): (9, 4),
        ("Ben", "grey"): (9, 0),
        ("Cleo", "purple"): (6, 8),
        ("Dan", "brown"): (12, 0),
    }


def test_the_well_bonus_is_a_ruleset_parameter():
    got = palaces(BOARDS / "e3-second-edition-2014.yaml", overrides=("well.bonus=3",))
    assert got["Cleo", "purple"]["well"] == 6


def test_score_json_of_a_board_follows_format_md():
    code, out, _ = run("score", BOARDS / "e1-original-2001.yaml", "--json")
    doc = json.loads(out)
    assert code == 0
    assert list(doc) == [
        "format",
        "ruleset",
        "finished",
        "players",
        "undetermined",
        "winners",
        "file",
        "errors",
        "warnings",
    ]
    assert (doc["format"], doc["ruleset"], doc["finished"]) == (
        "medina-score/1",
        "original-2001",
        True,
    )
    anna = doc["players"][0]
    assert list(anna) == ["name", "total", "palaces", "palace_tiles", "tower_tiles"]
    assert [list(p) for p in anna["palaces"]] == [PALACE_KEYS] * 3
    assert anna["palaces"][0]["cells"] == [
        "B12",
        "C12",
        "D12",
        "B11",
        "C11",
    ]  # buildings and stables
    assert (anna["palace_tiles"], anna["tower_tiles"]) == (["grey", "black", "orange"], [1, 2])
    assert anna["total"] == 13 + 10 + 11 + (1 + 2 + 4) + (1 + 2)
    assert doc["winners"] == ["Anna"] and doc["undetermined"] == []


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.yaml")), ids=lambda p: p.name)
def test_score_of_a_finished_record_matches_its_claimed_result(path):
    code, out, _ = run("score", path, "--json")
    doc = json.loads(out)
    assert code == 0 and doc["finished"] is True
    assert {p["name"]: p["total"] for p in doc["players"]} == read_record(str(path)).result
    best = max(p["total"] for p in doc["players"])
    assert doc["winners"] == [p["name"] for p in doc["players"] if p["total"] == best]


def test_human_score_shows_the_board_tables_and_a_shared_win():
    code, out, _ = run("score", EXAMPLES / "second-edition-2014-2p.yaml")
    assert code == 0
    assert "final score" in out.splitlines()[0]
    assert " T1 " in out and "Buildings:" in out  # the board above the tables
    sheet = score_game(replay(read_record(str(EXAMPLES / "second-edition-2014-2p.yaml"))).game)
    for player in sheet.players:
        assert f"{player.name}: {player.total} points" in out
    assert "Shared win: Anna and Ben with 30 points each." in out
    assert "palace tile" in out and "tower tile" in out and "well" in out


def test_an_unfinished_record_gives_labelled_standings(tmp_path):
    path = tmp_path / "short.yaml"
    path.write_text(
        record_text(
            "original-2001",
            ["Anna", "Ben", "Cleo"],
            ["Anna: grey C3, roof C3", "Ben: wall B13, wall C13"],
        )
    )
    code, out, _ = run("score", path)
    assert code == 0
    assert "current standings after turn 2 (the game is not over)" in out
    assert "Leading: Anna (2 points)." in out
    doc = json.loads(run("score", path, "--json")[1])
    assert doc["finished"] is False and doc["players"][0]["palace_tiles"] == ["grey"]


def test_to_scores_the_position_after_some_turns():
    doc = json.loads(run("score", EXAMPLES / "original-2001-3p.yaml", "--to", "4", "--json")[1])
    record = read_record(str(EXAMPLES / "original-2001-3p.yaml"))
    assert doc == {
        **score_game(replay(record, to_turn=4).game).to_json(),
        "file": record.file,
        "errors": [],
        "warnings": [],
    }
    assert doc["finished"] is False


def test_an_illegal_record_shows_where_the_replay_stopped(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(
        record_text(
            "original-2001",
            ["Anna", "Ben", "Cleo"],
            ["Anna: grey C3, roof C3", "Ben: wall B13, wall K7"],
        )
    )
    code, out, err = run("score", path)
    assert code == 1
    assert "turn 2 placement 2" in err and "Ben" in err
    assert (
        "standings after turn 1 and 1 placement of turn 2, where the replay stopped (turn 2 is illegal)"
        in out
    )


@pytest.mark.slow
def test_a_wrong_claimed_result_fails_validate_and_score(tmp_path):
    text = (EXAMPLES / "original-2001-3p.yaml").read_text()
    claimed = read_record(str(EXAMPLES / "original-2001-3p.yaml")).result
    wrong = text.replace(f"Ben: {claimed['Ben']}", f"Ben: {claimed['Ben'] + 3}").replace(
        f"Cleo: {claimed['Cleo']}", f"Cleo: {claimed['Cleo'] - 1}"
    )
    path = tmp_path / "claim.yaml"
    path.write_text(wrong)
    code, out, _ = run("validate", path, "--json")
    errors = json.loads(out)["results"][0]["errors"]
    assert code == 1
    assert [(e["code"], e["player"]) for e in errors] == [
        ("result-mismatch", "Ben"),
        ("result-mismatch", "Cleo"),
    ]
    assert (
        f"claims {claimed['Ben'] + 3} for Ben, the replay scores {claimed['Ben']}"
        in errors[0]["message"]
    )
    assert errors[0]["line"] == wrong.count("\n")
    assert json.loads(out)["results"][0]["finished"] is True  # the game replayed to its end
    code, out, err = run("score", path)
    assert code == 1 and "result-mismatch" in err
    assert "final score" in out.splitlines()[0] and "None" not in out
    code, out, _ = run("score", path, "--json")
    assert code == 1 and json.loads(out)["finished"] is True
    code, out, _ = run("replay", path)
    assert code == 1 and "The game is over." in out and "stopped" not in out
    assert path.read_text() == wrong


def test_score_reads_standard_input():
    text = (BOARDS / "e1-original-2001.yaml").read_text()
    code, out, _ = run("score", "-", "--json", stdin=text)
    assert code == 0 and json.loads(out)["players"][0]["total"] == 44


def test_unreadable_and_malformed_inputs(tmp_path):
    assert run("score", tmp_path / "missing.yaml")[0] == 2
    bad = tmp_path / "bad.yaml"
    bad.write_text("medina: board/1\nruleset: [\n")
    code, _, err = run("score", bad)
    assert code == 1 and "yaml-syntax" in err
    assert run("score", BOARDS / "e1-original-2001.yaml", "--to", "3")[0] == 2
    assert run("score", BOARDS / "e1-original-2001.yaml", "--ruleset", "no-such-ruleset")[0] == 2
