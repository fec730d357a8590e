"""Recording at the table: `medina new` writes a record with no turns, `medina add` appends placements
one at a time, each checked as `validate` checks it, and leaves the file as it was when it refuses."""

from __future__ import annotations

import os
import stat

import pytest

from conftest import record_text
from rulekit import BEN_STUCK
from scorekit import run

PLAYERS = ["Anna", "Ben", "Cleo"]


@pytest.fixture
def game(tmp_path):
    path = tmp_path / "game.yaml"
    assert run("new", path, "--ruleset", "original-2001", "--players", "Anna,Ben,Cleo", "--merchant", "j7")[0] == 0
    return path


def test_new_writes_a_record_with_no_turns(game):
    assert game.read_text() == record_text("original-2001", PLAYERS, [])
    code, out, _ = run("validate", game)
    assert code == 0 and "valid (unfinished; original-2001, 3 players, 0 turns, 0 placements)" in out
    assert run("add", game, "grey K8")[0] == 0
    assert "1 turn, 1 placement)" in run("validate", game)[1]


def test_new_refuses_to_overwrite_without_force(game):
    before = game.read_text()
    code, _, err = run("new", game, "-r", "second-edition-2014", "--players", "A,B", "--merchant", "F6",
                       "--well", "J7")
    assert code == 2 and "exists" in err and "--force" in err and game.read_text() == before
    assert err.startswith(f"{game}: exists") and err.rstrip().endswith("[file-exists]")
    code, _, _ = run("new", game, "-r", "second-edition-2014", "--players", "A,B", "--merchant", "F6",
                     "--well", "J7", "--force")
    assert code == 0 and game.read_text() == record_text("second-edition-2014", ["A", "B"], [], merchant="F6",
                                                         well="J7")


@pytest.mark.parametrize("args, fragment", [
    (("--players", "Anna,Ben", "--merchant", "J7"),
     "original-2001 is for 3 or 4 players, not 2 [unsupported-player-count]"),
    (("--players", "Anna,Ben,Anna", "--merchant", "J7"), "player 'Anna' is listed twice [bad-players]"),
    (("--players", "Anna,Ben,Cleo", "--merchant", "J77"), "--merchant 'J77' is not a cell of this board"),
    (("--players", "Anna,Ben,Cleo", "--merchant", "J13"), "setup merchant J13: must be an interior cell off"),
    (("--players", "Anna,Ben,Cleo", "--merchant", "J7", "--well", "F6"), "original-2001 has no well"),
])
def test_new_names_what_is_wrong_with_its_options(tmp_path, args, fragment):
    path = tmp_path / "game.yaml"
    code, _, err = run("new", path, "--ruleset", "original-2001", *args)
    assert code == 2 and fragment in err and not path.exists()


def test_new_writes_a_ruleset_path_relative_to_the_record(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "house.yaml").write_text("medina: ruleset/1\nextends: original-2001\n")
    (tmp_path / "games").mkdir()
    code, _, _ = run("new", "games/game.yaml", "-r", "house.yaml", "--players", "Anna,Ben,Cleo", "--merchant", "J7")
    assert code == 0 and "ruleset: ../house.yaml\n" in (tmp_path / "games/game.yaml").read_text()
    assert run("validate", "games/game.yaml")[0] == 0


def test_add_fills_the_open_turn_then_starts_the_next(game):
    code, out, _ = run("add", game, "Grey k8")
    assert code == 0 and game.read_text() == record_text("original-2001", PLAYERS, ["Anna: grey K8"])
    assert "next: Anna, second placement of turn 1" in out
    code, out, _ = run("add", game, "wall A12", "orange P7, wall A11")
    assert code == 0 and game.read_text() == record_text(
        "original-2001", PLAYERS, ["Anna: grey K8, wall A12", "Ben: orange P7, wall A11"])
    assert out.splitlines() == ["turn 1, Anna: grey K8, wall A12", "turn 2, Ben: orange P7, wall A11",
                                "next: Cleo, first placement of turn 3"]


@pytest.mark.parametrize("actions", [("grey K8", "black K9"), ("grey K8", "grey B2"), ("tea",),
                                     ("pass",), ("grey K8", "pass"), ("gry K8",), ("grey K8 wall A12",),
                                     ("grey: K8",)])
def test_a_refused_placement_leaves_the_file_as_it_was_and_says_what_validate_says(game, actions):
    run("add", game, "wall A12")
    before = game.read_bytes()
    code, out, err = run("add", game, *actions)
    assert code == 1 and err.endswith(f"{game}: not changed\n") and game.read_bytes() == before
    if actions != ("grey: K8",):  # the same text written by hand: validate gives the same message
        turns = ["Anna: wall A12" + "".join(f", {a}" for a in actions[:1])] + [f"Ben: {', '.join(actions[1:])}"] * (
            len(actions) > 1)
        game.write_text(record_text("original-2001", PLAYERS, turns))
        message = run("validate", game)[1].splitlines()[0]
        assert err.splitlines()[0] == message


def test_a_pass_is_the_next_seats_turn_when_he_cannot_place(tmp_path):
    house = tmp_path / "small.yaml"
    house.write_text("medina: ruleset/1\nextends: original-2001\nsupply:\n  3: {per_colour: 1, roofs: 3, "
                     "neutral_roofs: 0, stables: 0, merchants: 0, walls: 0}\n")
    path = tmp_path / "game.yaml"
    path.write_text(record_text("small.yaml", PLAYERS, list(BEN_STUCK.turns), merchant=BEN_STUCK.merchant))
    code, out, _ = run("add", path, "pass")
    assert code == 0 and path.read_text().endswith("  - Anna: black G2, roof H2\n  - Ben: pass\n")
    assert out.splitlines() == ["turn 8, Ben: pass", "next: Cleo, first placement of turn 9"]


def test_tea_and_the_well_in_the_2014_edition(tmp_path):
    path = tmp_path / "game.yaml"
    assert run("new", path, "-r", "second-edition-2014", "--players", "Anna,Ben,Cleo", "--merchant", "J7",
               "--well", "D4")[0] == 0
    assert run("add", path, "purple E6", "grey H8", "roof E6, wall A12", "wall A11, wall A10",
               "wall A9, wall A8", "tea")[0] == 0
    assert path.read_text().endswith("  - Ben: wall A9, wall A8\n  - Cleo: tea\n")


def test_add_keeps_everything_else_as_written(tmp_path):
    path = tmp_path / "game.yaml"
    text = ("# club night\r\nmedina: record/1\r\nruleset: original-2001\r\nplayers: [Anna, Ben, Cleo]\r\n"
            "setup: {merchant: J7}\r\nturns:\r\n- Anna: 'wall A12, wall A11'  # opening\r\n- \"Ben\": grey K8"
            "   # first building\r\n\r\nevent: Club\r\n")
    path.write_bytes(text.encode())
    assert run("add", path, "grey K9")[0] == 0
    assert path.read_bytes().decode() == text.replace("grey K8   #", "grey K8, grey K9   #")
    assert run("add", path, "wall B13, wall C13")[0] == 0
    assert path.read_bytes().decode() == text.replace("grey K8   #", "grey K8, grey K9   #").replace(
        "building\r\n", "building\r\n- Cleo: wall B13, wall C13\r\n")
    assert run("validate", path)[0] == 0


@pytest.mark.parametrize("turns", ["turns:\n", "turns: ~\n", ""])
def test_add_starts_the_turns_of_a_record_without_any(tmp_path, turns):
    path = tmp_path / "game.yaml"
    head = record_text("original-2001", PLAYERS, []).replace("turns: []\n", "")
    path.write_text(head + turns + "event: Club\n")
    assert run("add", path, "grey K8")[0] == 0
    assert run("validate", path)[0] == 0 and "  - Anna: grey K8\n" in path.read_text()


def test_add_refuses_a_layout_it_cannot_extend_and_an_invalid_record(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text(record_text("original-2001", PLAYERS, []).replace("turns: []", "turns: [{Anna: grey K8}]"))
    before = path.read_text()
    code, _, err = run("add", path, "wall A12")
    assert code == 1 and "cannot extend" in err and path.read_text() == before
    path.write_text(record_text("original-2001", PLAYERS, ["Ben: grey K8"]))
    code, _, err = run("add", path, "wall A12")
    assert code == 1 and "[out-of-turn]" in err and "not changed" in err


def test_add_writes_atomically_and_keeps_the_permissions(game):
    os.chmod(game, 0o640)
    assert run("add", game, "grey K8")[0] == 0
    assert stat.S_IMODE(game.stat().st_mode) == 0o640 and os.listdir(game.parent) == ["game.yaml"]
