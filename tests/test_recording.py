"""Recording at the table: `medina new` writes a record with no turns, `medina add` appends placements
one at a time, each checked as `validate` checks it, and leaves the file as it was when it refuses."""

from __future__ import annotations

import fcntl
import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import record_text
from rulekit import BEN_STUCK
from scorekit import run

PLAYERS = ["Anna", "Ben", "Cleo"]


@pytest.fixture
def game(tmp_path):
    path = tmp_path / "game.yaml"
    assert (
        run(
            "new",
            path,
            "--ruleset",
            "original-2001",
            "--players",
            "Anna,Ben,Cleo",
            "--merchant",
            "j7",
        )[0]
        == 0
    )
    return path


def test_new_writes_a_record_with_no_turns(game):
    assert game.read_text() == record_text("original-2001", PLAYERS, [])
    code, out, _ = run("validate", game)
    assert (
        code == 0 and "valid (unfinished; original-2001, 3 players, 0 turns, 0 placements)" in out
    )
    assert run("add", game, "grey K8")[0] == 0
    assert "1 turn, 1 placement)" in run("validate", game)[1]


def test_new_refuses_to_overwrite_without_force(game):
    before = game.read_text()
    code, _, err = run(
        "new",
        game,
        "-r",
        "second-edition-2014",
        "--players",
        "A,B",
        "--merchant",
        "F6",
        "--well",
        "J7",
    )
    assert code == 2 and "exists" in err and "--force" in err and game.read_text() == before
    assert err.startswith(f"{game}: exists") and err.rstrip().endswith("[file-exists]")
    code, _, _ = run(
        "new",
        game,
        "-r",
        "second-edition-2014",
        "--players",
        "A,B",
        "--merchant",
        "F6",
        "--well",
        "J7",
        "--force",
    )
    assert code == 0 and game.read_text() == record_text(
        "second-edition-2014", ["A", "B"], [], merchant="F6", well="J7"
    )


@pytest.mark.parametrize(
    "args, fragment",
    [
        (
            ("--players", "Anna,Ben", "--merchant", "J7"),
            "original-2001 is for 3 or 4 players, not 2 [unsupported-player-count]",
        ),
        (
            ("--players", "Anna,Ben,Anna", "--merchant", "J7"),
            "player 'Anna' is listed twice [bad-players]",
        ),
        (
            ("--players", "Anna,Ben,Cleo", "--merchant", "J77"),
            "--merchant 'J77' is not a cell of this board",
        ),
        (
            ("--players", "Anna,Ben,Cleo", "--merchant", "J13"),
            "setup merchant J13: must be an interior cell off",
        ),
        (
            ("--players", "Anna,Ben,Cleo", "--merchant", "J7", "--well", "F6"),
            "original-2001 has no well",
        ),
    ],
)
def test_new_names_what_is_wrong_with_its_options(tmp_path, args, fragment):
    path = tmp_path / "game.yaml"
    code, _, err = run("new", path, "--ruleset", "original-2001", *args)
    assert code == 2 and fragment in err and not path.exists()


def test_new_writes_a_ruleset_path_relative_to_the_record(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "house.yaml").write_text("medina: ruleset/1\nextends: original-2001\n")
    (tmp_path / "games").mkdir()
    code, _, _ = run(
        "new",
        "games/game.yaml",
        "-r",
        "house.yaml",
        "--players",
        "Anna,Ben,Cleo",
        "--merchant",
        "J7",
    )
    assert code == 0 and "ruleset: ../house.yaml\n" in (tmp_path / "games/game.yaml").read_text()
    assert run("validate", "games/game.yaml")[0] == 0


def test_add_fills_the_open_turn_then_starts_the_next(game):
    code, out, _ = run("add", game, "Grey k8")
    assert code == 0 and game.read_text() == record_text(
        "original-2001", PLAYERS, ["Anna: grey K8"]
    )
    assert "next: Anna, second placement of turn 1" in out
    code, out, _ = run("add", game, "wall A12", "orange P7, wall A11")
    assert code == 0 and game.read_text() == record_text(
        "original-2001", PLAYERS, ["Anna: grey K8, wall A12", "Ben: orange P7, wall A11"]
    )
    assert out.splitlines() == [
        "turn 1, Anna: grey K8, wall A12",
        "turn 2, Ben: orange P7, wall A11",
        "next: Cleo, first placement of turn 3",
    ]


@pytest.mark.parametrize(
    "actions",
    [
        ("grey K8", "black K9"),
        ("grey K8", "grey B2"),
        ("tea",),
        ("pass",),
        ("grey K8", "pass"),
        ("gry K8",),
        ("grey K8 wall A12",),
    ],
)
def test_a_refused_placement_leaves_the_file_as_it_was_and_says_what_validate_says(game, actions):
    run("add", game, "wall A12")
    before = game.read_bytes()
    code, _out, err = run("add", game, *actions)
    assert code == 1 and err.endswith(f"{game}: not changed\n") and game.read_bytes() == before
    turns = ["Anna: wall A12" + "".join(f", {a}" for a in actions[:1])] + [
        f"Ben: {', '.join(actions[1:])}"
    ] * (len(actions) > 1)
    game.write_text(record_text("original-2001", PLAYERS, turns))  # the same text written by hand
    message = run("validate", game)[1].splitlines()[0]
    assert err.splitlines()[0] == message


def test_a_pass_is_the_next_seats_turn_when_he_cannot_place(tmp_path):
    house = tmp_path / "small.yaml"
    house.write_text(
        "medina: ruleset/1\nextends: original-2001\nsupply:\n  3: {per_colour: 1, roofs: 3, "
        "neutral_roofs: 0, stables: 0, merchants: 0, walls: 0}\n"
    )
    path = tmp_path / "game.yaml"
    path.write_text(
        record_text("small.yaml", PLAYERS, list(BEN_STUCK.turns), merchant=BEN_STUCK.merchant)
    )
    code, out, _ = run("add", path, "pass")
    assert code == 0 and path.read_text().endswith("  - Anna: black G2, roof H2\n  - Ben: pass\n")
    assert out.splitlines() == ["turn 8, Ben: pass", "next: Cleo, first placement of turn 9"]


def test_tea_and_the_well_in_the_2014_edition(tmp_path):
    path = tmp_path / "game.yaml"
    assert (
        run(
            "new",
            path,
            "-r",
            "second-edition-2014",
            "--players",
            "Anna,Ben,Cleo",
            "--merchant",
            "J7",
            "--well",
            "D4",
        )[0]
        == 0
    )
    assert (
        run(
            "add",
            path,
            "purple E6",
            "grey H8",
            "roof E6, wall A12",
            "wall A11, wall A10",
            "wall A9, wall A8",
            "tea",
        )[0]
        == 0
    )
    assert path.read_text().endswith("  - Ben: wall A9, wall A8\n  - Cleo: tea\n")


def test_add_keeps_everything_else_as_written(tmp_path):
    path = tmp_path / "game.yaml"
    text = (
        "# club night\r\nmedina: record/1\r\nruleset: original-2001\r\nplayers: [Anna, Ben, Cleo]\r\n"
        "setup: {merchant: J7}\r\nturns:\r\n- Anna: 'wall A12, wall A11'  # opening\r\n- \"Ben\": grey K8"
        "   # first building\r\n\r\nevent: Club\r\n"
    )
    path.write_bytes(text.encode())
    assert run("add", path, "grey K9")[0] == 0
    assert path.read_bytes().decode() == text.replace("grey K8   #", "grey K8, grey K9   #")
    assert run("add", path, "wall B13, wall C13")[0] == 0
    assert path.read_bytes().decode() == text.replace(
        "grey K8   #", "grey K8, grey K9   #"
    ).replace("building\r\n", "building\r\n- Cleo: wall B13, wall C13\r\n")
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
    path.write_text(
        record_text("original-2001", PLAYERS, []).replace("turns: []", "turns: [{Anna: grey K8}]")
    )
    before = path.read_text()
    code, _, err = run("add", path, "wall A12")
    assert code == 1 and "cannot extend" in err and path.read_text() == before
    path.write_text(record_text("original-2001", PLAYERS, ["Ben: grey K8"]))
    code, _, err = run("add", path, "wall A12")
    assert code == 1 and "[out-of-turn]" in err and "not changed" in err


NEW_KEYS = [
    "format",
    "file",
    "ruleset",
    "players",
    "merchant",
    "well",
    "to_move",
    "errors",
    "warnings",
]
ADD_KEYS = ["format", "file", "added", "to_move", "turn", "placement", "errors", "warnings"]


def test_new_json_says_what_was_written(tmp_path):
    path = tmp_path / "duel.yaml"
    code, out, err = run(
        "new",
        path,
        "-r",
        "second-edition-2014",
        "--players",
        "Ann,Bob",
        "--merchant",
        "h6",
        "--well",
        "d4",
        "--json",
    )
    doc = json.loads(out)
    assert (code, err, list(doc)) == (0, "", NEW_KEYS)
    assert doc == {
        "format": "medina-new/1",
        "file": str(path),
        "ruleset": "second-edition-2014",
        "players": ["Ann", "Bob"],
        "merchant": "H6",
        "well": "D4",
        "to_move": "Ann",
        "errors": [],
        "warnings": [],
    }
    before = path.read_bytes()
    for args, error in [
        (("--merchant", "H6", "--well", "D4"), "file-exists"),
        (("--merchant", "H6", "--force"), "bad-setup"),  # the well left out
        (("--merchant", "H6", "--well", "D4", "--force", "-r", "nope"), "unknown-ruleset"),
    ]:
        code, out, err = run(
            "new", path, "-r", "second-edition-2014", "--players", "Ann,Bob", *args, "--json"
        )
        doc = json.loads(out)
        assert (code, err, list(doc), doc["players"], doc["to_move"]) == (2, "", NEW_KEYS, [], None)
        assert [e["code"] for e in doc["errors"]] == [error] and path.read_bytes() == before


def test_add_json_says_what_was_written_and_who_is_to_move(game):
    code, out, err = run("add", game, "grey K8", "black C3", "Ben: wall A12", "--json")
    doc = json.loads(out)
    assert (code, err, list(doc)) == (0, "", ADD_KEYS)
    assert (doc["added"], doc["to_move"], doc["turn"], doc["placement"], doc["errors"]) == (
        [
            {"turn": 1, "player": "Anna", "placement": "grey K8"},
            {"turn": 1, "player": "Anna", "placement": "black C3"},
            {"turn": 2, "player": "Ben", "placement": "wall A12"},
        ],
        "Ben",
        2,
        2,
        [],
    )
    assert [w["code"] for w in doc["warnings"]] == ["turn-in-progress"]
    before = game.read_bytes()
    for args, error, status in [
        (("Anna: wall A11",), "out-of-turn", 1),
        (("grey C3",), "cell-occupied", 1),
        (("--player", "Bob", "wall A12"), "unknown-player", 2),
    ]:
        code, out, err = run("add", game, *args, "--json")
        doc = json.loads(out)
        assert (code, err, list(doc), doc["added"], doc["to_move"]) == (
            status,
            "",
            ADD_KEYS,
            [],
            None,
        )
        assert doc["errors"][0]["code"] == error and game.read_bytes() == before
    for target, error in [(game.parent / "none.yaml", "file-not-found"), (game.parent, "usage")]:
        code, out, err = run("add", target, "grey K8", "--json")
        assert (code, err, json.loads(out)["errors"][0]["code"]) == (2, "", error)


def test_add_writes_atomically_and_keeps_the_permissions(game):
    os.chmod(game, 0o640)
    assert run("add", game, "grey K8")[0] == 0
    assert stat.S_IMODE(game.stat().st_mode) == 0o640 and os.listdir(game.parent) == ["game.yaml"]


# --- naming the player ------------------------------------------------------------------------------


@pytest.fixture
def duel(tmp_path):
    """A second-edition game of Ann and Bob: Ann's opening turn (one placement), Bob's turn half made."""
    path = tmp_path / "r.yaml"
    assert (
        run(
            "new",
            path,
            "-r",
            "second-edition-2014",
            "--players",
            "Ann,Bob",
            "--merchant",
            "H6",
            "--well",
            "D4",
        )[0]
        == 0
    )
    assert run("add", path, "purple C10", "grey M9")[1].splitlines() == [
        "turn 1, Ann: purple C10",
        "turn 2, Bob: grey M9",
        "next: Bob, second placement of turn 2",
    ]
    return path


@pytest.mark.parametrize(
    "args",
    [
        ("Ann: roof C10",),
        ("--player", "Ann", "roof C10"),
        ("Ann:", "roof", "C10"),
        ("-p", "Ann", "roof", "C10"),
    ],
)
def test_a_placement_named_for_a_player_not_to_move_is_refused_saying_whose_turn_it_is(duel, args):
    before = duel.read_bytes()
    code, out, err = run("add", duel, *args)
    assert code == 1 and out == "" and duel.read_bytes() == before
    assert err.splitlines() == [
        f"{duel}:9: turn 2 placement 2, Bob: Ann named for roof C10, but it is Bob's turn (placement 2 of 2; "
        "Bob has placed grey M9) [out-of-turn]",
        f"{duel}: not changed",
    ]


def test_a_placement_named_for_a_player_not_to_move_in_a_new_turn_names_its_line(duel):
    assert run("add", duel, "roof C10")[0] == 0  # Bob's turn 2 is complete: Ann's turn 3 is next
    before = duel.read_bytes()
    code, _, err = run("add", duel, "Bob: wall A2")
    assert code == 1 and duel.read_bytes() == before
    assert err.splitlines() == [
        f"{duel}:10: turn 3 placement 1, Ann: Bob named for wall A2, but it is Ann's turn "
        "(placement 1 of 2) [out-of-turn]",
        f"{duel}: not changed",
    ]


def test_a_placement_named_for_the_player_to_move_is_recorded(duel):
    code, out, _ = run("add", duel, "Bob: roof C10", "Ann: orange K8")
    assert code == 0 and out.splitlines() == [
        "turn 2, Bob: grey M9, roof C10",
        "turn 3, Ann: orange K8",
        "next: Ann, second placement of turn 3",
    ]
    code, _, err = run("add", duel, "--player", "Bob", "wall A2")
    assert code == 1 and err.startswith(
        f"{duel}:10: turn 3 placement 2, Ann: Bob named for wall A2, but it is Ann's "
        "turn (placement 2 of 2; Ann has placed orange K8) [out-of-turn]"
    )
    code, _, err = run(
        "add", duel, "Ann: wall A2", "Ann: wall A3"
    )  # Ann's turn is over after the first
    assert code == 1 and err.splitlines() == [
        f"{duel}:11: turn 4 placement 1, Bob: Ann named for wall A3, but it is Bob's turn (placement 1 of 2) "
        "[out-of-turn]",
        f"{duel}: this command's placements before it are not written either (turn 3, Ann: wall A2)",
        f"{duel}: not changed",
    ]
    code, _, err = run("add", duel, "Ann: wall A2", "Ann: pass")
    assert (
        code == 1
        and f"{duel}:11: turn 4, Bob: Ann named for pass, but the next turn is Bob's [out-of-turn]"
        in err
    )


def test_an_unknown_player_or_two_different_ones_are_usage_errors(duel):
    before = duel.read_bytes()
    code, _, err = run("add", duel, "--player", "Anne", "roof C10")
    assert (
        code == 2
        and "'Anne' is not a player of this record (Ann, Bob); did you mean Ann? [unknown-player]"
        in err
    )
    code, _, err = run("add", duel, "bob: roof C10")
    assert code == 2 and "'bob' is not a player of this record (Ann, Bob); did you mean Bob?" in err
    code, _, err = run("add", duel, "grey: K8")  # whatever stands before a colon names a player
    assert (
        code == 2
        and err == f"{duel}: 'grey' is not a player of this record (Ann, Bob) [unknown-player]\n"
    )
    code, _, err = run("add", duel, "--player", "Ann", "Bob: roof C10")
    assert (
        code == 2
        and "--player: 'Bob: roof C10' names Bob, and --player Ann: name one player [usage]" in err
    )
    assert duel.read_bytes() == before


def test_play_refuses_a_line_naming_no_player_and_goes_on(tmp_path):
    """What `add` ends with as a usage error is, typed at `play`, bad input like any other."""
    path = tmp_path / "p3.yaml"
    code, out, err = run(
        "play",
        path,
        "--ruleset",
        "original-2001",
        "--seat",
        "Ann",
        "--seat",
        "Ben",
        "--seat",
        "Cy",
        "--merchant",
        "K7",
        stdin="Zed: grey K8\ngrey K8\nquit\n",
    )
    assert (code, err) == (0, "")
    assert (
        "'Zed' is not a player of this record (Ann, Ben, Cy) [unknown-player]\nNot recorded." in out
    )
    assert "  - Ann: grey K8\n" in path.read_text()


def test_unquoted_placements_are_joined_or_the_message_says_to_quote_them(duel):
    code, out, _ = run("add", duel, "roof", "C10,", "wall", "A2", "wall", "A3")
    assert code == 0 and out.splitlines()[:2] == [
        "turn 2, Bob: grey M9, roof C10",
        "turn 3, Ann: wall A2, wall A3",
    ]
    before = duel.read_bytes()
    for args, word, lacks in [(("roof",), "roof", "cell"), (("K8", "grey"), "K8", "piece")]:
        code, _, err = run("add", duel, *args)
        assert code == 1 and duel.read_bytes() == before
        assert (
            f"{word!r} has no {lacks}: a placement is `<piece> <cell>`; quote each one as a single argument, "
            'e.g. "roof K8" [bad-placement]' in err
        )


def test_a_refusal_after_placements_of_the_same_command_says_they_are_not_written(duel):
    code, _, err = run("add", duel, "roof C10", "purple C10")
    assert code == 1 and err.splitlines() == [
        f"{duel}:10: turn 3 placement 1, Ann: purple C10: C10 already holds a piece [cell-occupied]",
        f"{duel}: this command's placements before it are not written either (turn 2, Bob: roof C10)",
        f"{duel}: not changed",
    ]


# --- one record, several writers ------------------------------------------------------------------

ANY_ORDER = [
    "orange K9",
    "brown E4",
    "grey C11",
    "black P3",
]  # legal in any order, whoever places them


@pytest.mark.slow
def test_concurrent_adds_on_one_record_lose_no_placement(game):
    """Four `medina add` at once: each waits for the record while another changes it, so every placement
    is recorded (without the lock one add reads the record before another writes it, and overwrites it)."""
    for round_ in range(3):
        game.write_text(record_text("original-2001", PLAYERS, []))
        adds = [
            subprocess.Popen(
                [sys.executable, "-m", "medina_cli", "add", game, token],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
            )
            for token in ANY_ORDER
        ]
        assert [add.wait(timeout=60) for add in adds] == [0, 0, 0, 0], [
            add.stderr.read() for add in adds
        ]
        text = game.read_text()
        assert all(token in text for token in ANY_ORDER), (round_, text)
        assert run("validate", game)[0] == 0 and os.listdir(game.parent) == ["game.yaml"]


def _hold_lock(path):
    handle = open(path)
    fcntl.flock(handle, fcntl.LOCK_EX)
    return handle


@pytest.mark.slow
def test_add_waits_while_another_command_changes_the_record(game):
    holder = _hold_lock(game)
    add = subprocess.Popen(
        [sys.executable, "-m", "medina_cli", "add", game, "grey K8"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    notice = add.stderr.readline()  # said once it has waited LOCK_NOTICE
    assert notice == f"{game}: another command is changing it; waiting (up to 10 s)\n"
    assert add.poll() is None and "turns: []" in game.read_text()
    holder.close()  # the other command is done
    assert add.wait(timeout=60) == 0 and add.stderr.read() == ""
    assert "  - Anna: grey K8\n" in game.read_text()


def test_add_gives_up_on_a_record_held_too_long_and_changes_nothing(game, monkeypatch):
    from medina_cli.records import recording

    monkeypatch.setattr(recording, "LOCK_WAIT", 0.3)
    before = game.read_bytes()
    with _hold_lock(game):
        code, out, err = run("add", game, "grey K8")
    assert (code, out) == (2, "") and game.read_bytes() == before
    assert (
        err
        == f"{game}: another command has been changing it for 0.3 s; try again when it has finished "
        "[record-busy]\n"
    )


def test_a_lock_held_by_a_killed_process_does_not_block(game):
    holder = subprocess.run(
        [
            sys.executable,
            "-c",
            "import fcntl, os, sys; f = open(sys.argv[1]); "
            "fcntl.flock(f, fcntl.LOCK_EX); os.kill(os.getpid(), 9)",
            game,
        ],
        timeout=60,
    )
    assert holder.returncode == -9
    assert run("add", game, "grey K8") == (
        0,
        "turn 1, Anna: grey K8\nnext: Anna, second placement of turn 1\n",
        "",
    )
    assert os.listdir(game.parent) == ["game.yaml"]  # not waited for (nothing said), no lock file


@pytest.mark.slow
def test_add_through_a_symbolic_link_changes_the_linked_record_and_keeps_the_link(tmp_path):
    (tmp_path / "real").mkdir()
    real, link = tmp_path / "real" / "game.yaml", tmp_path / "link.yaml"
    assert (
        run("new", real, "-r", "original-2001", "--players", "Anna,Ben,Cleo", "--merchant", "K7")[0]
        == 0
    )
    link.symlink_to(Path("real") / "game.yaml")
    assert run("add", link, "orange K9")[0] == 0
    assert link.is_symlink() and os.readlink(link) == str(Path("real") / "game.yaml")
    assert "  - Anna: orange K9\n" in real.read_text() and sorted(os.listdir(real.parent)) == [
        "game.yaml"
    ]
    assert run("undo", link)[0] == 0
    assert link.is_symlink() and real.read_text().endswith("turns: []\n")


@pytest.mark.slow
@pytest.mark.parametrize(
    "words, offered",
    [
        ("medina add {r} --player A", ["Ann"]),
        ("medina add {r} B", ["Bob:"]),
        ("medina add {r} b", ["brown"]),
        ("medina moves {r} --piece o", ["orange"]),
        (
            "medina moves --piece bla",
            ["black"],
        ),  # no record yet: the pieces of every built-in ruleset
        ("medina play --seat mc", ["mcts", "mcts:"]),
        ("medina play {r} --continue --seat B", ["Bob"]),
    ],
)
def test_shell_completion_of_players_pieces_and_seats(duel, words, offered):
    from test_cli_everyday import complete

    assert complete(words.format(r=duel)) == offered
