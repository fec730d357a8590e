"""`medina undo` takes placements back, giving the file back byte for byte as `medina add` left it;
`medina status` says where a game stands; `medina moves --piece/--cell` filters the listing."""

from __future__ import annotations

import json

import pytest
from conftest import EXAMPLES, record_text
from scorekit import run

PLAYERS = ["Anna", "Ben", "Cleo"]
ACTIONS = ["wall A12", "wall A11", "grey K8", "roof K8", "black C3", "wall A10", "stable L8"]


@pytest.mark.slow
def test_undo_gives_back_byte_for_byte_what_each_earlier_add_left(tmp_path):
    path = tmp_path / "game.yaml"
    assert (
        run("new", path, "-r", "original-2001", "--players", "Anna,Ben,Cleo", "--merchant", "J7")[0]
        == 0
    )
    left = [path.read_bytes()]
    for action in ACTIONS:
        assert run("add", path, action)[0] == 0
        left.append(path.read_bytes())
    for before in reversed(left[:-1]):
        assert run("undo", path)[0] == 0
        assert path.read_bytes() == before
    for action in ACTIONS:
        run("add", path, action)
    code, out, _ = run("undo", path, "3")
    assert code == 0 and path.read_bytes() == left[-4]
    assert out.splitlines() == [
        "took back turn 4, Anna: stable L8",
        "took back turn 3, Cleo: wall A10",
        "took back turn 3, Cleo: black C3",
        "next: Cleo, first placement of turn 3",
    ]


@pytest.mark.slow
def test_undo_keeps_comments_quotes_line_ends_and_extra_keys(tmp_path):
    path = tmp_path / "game.yaml"
    text = (
        "# club night\r\nmedina: record/1\r\nruleset: original-2001\r\nplayers: [Anna, Ben, Cleo]\r\n"
        "setup: {merchant: J7}\r\nturns:  # as played\r\n- Anna: 'wall A12, wall A11'  # opening\r\n"
        '- "Ben": grey K8   # first building\r\n\r\nevent: Club\r\nx-table: {seat: 3}\r\n'
    )
    path.write_bytes(text.encode())
    left = [text.encode()]
    for action in ("grey K9", "wall B13", "wall C13", "black C3"):
        assert run("add", path, action)[0] == 0
        left.append(path.read_bytes())
    assert (
        left[-1]
        .decode()
        .endswith(
            "building\r\n- Cleo: wall B13, wall C13\r\n- Anna: black C3\r\n\r\nevent: "
            "Club\r\nx-table: {seat: 3}\r\n"
        )
    )
    for before in reversed(left[:-1]):
        assert run("undo", path)[0] == 0
        assert path.read_bytes() == before
    assert run("undo", path, "3")[0] == 0
    assert path.read_bytes().decode() == text.replace(
        "- Anna: 'wall A12, wall A11'  # opening\r\n- \"Ben\": grey K8   # first building\r\n", ""
    ).replace("turns:  # as played", "turns: [] # as played")
    assert run("validate", path)[0] == 0


def test_undo_refuses_what_it_cannot_take_back_and_changes_nothing(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text(record_text("original-2001", PLAYERS, ["Anna: wall A12, wall A11"]))
    before = path.read_bytes()
    code, _, err = run("undo", path, "3")
    assert code == 2 and err == f"{path}: holds 2 placements; cannot take back 3 [usage]\n"
    code, _, err = run("undo", path, "0")
    assert code == 2 and "'0' is not a whole number (≥ 1)" in err
    path.write_text(
        record_text("original-2001", PLAYERS, []).replace("turns: []", "turns: [{Anna: grey K8}]")
    )
    flow = path.read_bytes()
    code, _, err = run("undo", path)
    assert code == 1 and "cannot shorten" in err and path.read_bytes() == flow
    path.write_text(
        record_text("original-2001", PLAYERS, ["Anna: wall A12, wall D5", "Ben: grey K8"])
    )  # D5: no wall
    illegal = path.read_bytes()
    code, _, err = run("undo", path)
    assert code == 1 and "turn 1 placement 2, Anna: wall D5" in err and path.read_bytes() == illegal
    assert run("undo", path, "2")[0] == 0  # the illegal placement taken back: valid again
    assert path.read_text() == record_text("original-2001", PLAYERS, ["Anna: wall A12"])
    assert before != path.read_bytes()


def test_undo_json(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text(
        record_text("original-2001", PLAYERS, ["Anna: wall A12, wall A11", "Ben: grey K8"])
    )
    code, out, _ = run("undo", path, "2", "--json")
    doc = json.loads(out)
    assert code == 0 and doc == {
        "format": "medina-undo/1",
        "file": str(path),
        "removed": [
            {"turn": 2, "player": "Ben", "placement": "grey K8"},
            {"turn": 1, "player": "Anna", "placement": "wall A11"},
        ],
        "to_move": "Anna",
        "turn": 1,
        "placement": 2,
        "errors": [],
        "warnings": [doc["warnings"][0]],
    }
    assert doc["warnings"][0]["code"] == "turn-in-progress"
    code, out, _ = run("undo", path, "5", "--json")
    doc = json.loads(out)
    assert code == 2 and doc["removed"] == [] and doc["errors"][0]["code"] == "usage"
    code, out, _ = run("undo", tmp_path / "none.yaml", "--json")
    assert code == 2 and json.loads(out)["errors"][0]["code"] == "file-not-found"


def test_status_says_who_is_to_move_what_is_left_supplies_and_score(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text(
        record_text(
            "second-edition-2014",
            ["Ann", "Bob"],
            ["Ann: purple C10", "Bob: grey M9"],
            merchant="H6",
            well="D4",
        )
    )
    code, out, _ = run("status", path)
    lines = out.splitlines()
    assert code == 0 and lines[:2] == [
        f"{path}: second-edition-2014, Ann and Bob; after turn 1 and 1 placement of turn 2",
        "Bob is to move: second placement of turn 2, 1 placement left in the turn",
    ]
    row_9 = next(
        line for line in lines if line.startswith("  9 ")
    )  # the board, Bob's grey M9 marked last
    assert row_9[4 + 12 * 3 : 4 + 13 * 3] == ">g " and "> the last placement" in lines
    supply = lines.index("Supply left:")
    assert lines[supply + 1].split() == [
        "player",
        "grey",
        "purple",
        "brown",
        "orange",
        "roof",
        "neutral",
        "stable",
        "merchant",
        "wall",
        "tea",
    ]
    assert lines[supply + 3].split()[:3] == ["Ann", "8", "7"] and lines[supply + 4].split()[:3] == [
        "Bob",
        "7",
        "8",
    ]
    assert lines[-1] == "Score now (if the game ended here): Ann 0, Bob 0"
    code, out, _ = run("status", path, "--json")
    doc = json.loads(out)
    assert code == 0 and doc["format"] == "medina-status/1" and doc["players"] == ["Ann", "Bob"]
    position = doc["position"]
    assert (
        position["to_move"],
        position["turn"],
        position["placement"],
        position["placements_left"],
        position["forced"],
    ) == ("Bob", 2, 2, 1, False)
    assert position["supply"]["Bob"]["grey"] == 7 and position["supply"]["Bob"]["tea"] == 0
    assert doc["score"]["format"] == "medina-score/1" and doc["score"]["finished"] is False


def test_status_of_a_finished_game_gives_the_final_score(examples_dir):
    code, out, _ = run("status", examples_dir / "original-2001-3p.yaml")
    assert code == 0 and "The game is over." in out
    assert out.splitlines()[-1] == "Final score: Anna 19, Ben 46, Cleo 29; Ben wins."
    doc = json.loads(run("status", examples_dir / "original-2001-3p.yaml", "--json")[1])
    assert doc["position"]["to_move"] is None and doc["position"]["placements_left"] == 0
    assert doc["score"]["finished"] is True and doc["score"]["winners"] == ["Ben"]


def test_status_of_an_invalid_or_unreadable_record(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text(record_text("original-2001", PLAYERS, ["Anna: wall A12, wall D5"]))
    code, out, err = run("status", path)
    assert (
        code == 1
        and "where the replay stopped (turn 1 is illegal)" in out
        and "[wrong-square]" in err
    )
    code, out, _ = run("status", tmp_path / "none.yaml", "--json")
    doc = json.loads(out)
    assert (
        code == 2
        and doc["format"] == "medina-status/1"
        and doc["errors"][0]["code"] == "file-not-found"
    )


GAME = str(EXAMPLES / "original-2001-4p.yaml")


def test_moves_filters_by_piece_and_cell():
    code, out, _ = run("moves", GAME, "--to", "3", "--json")
    every = json.loads(out)["placements"]
    code, out, _ = run("moves", GAME, "--to", "3", "--json", "--piece", "Gray", "--piece", "wall")
    assert code == 0 and json.loads(out)["placements"] == [
        p for p in every if p.split()[0] in ("grey", "wall")
    ]
    cell = every[0].split()[1]
    code, out, _ = run("moves", GAME, "--to", "3", "--json", "--cell", cell.lower())
    assert json.loads(out)["placements"] == [p for p in every if p.endswith(f" {cell}")]
    code, out, _ = run("moves", GAME, "--to", "3", "--piece", "wall", "--no-color")
    listing = out.split("\n\n")[0].splitlines()[1:]
    assert listing[0] == f"  wall: {sum(p.startswith('wall') for p in every)} of them"
    assert listing[1].startswith("  wall ") and len(listing) == 2 and out.count(" * ") == 8


def test_moves_that_list_nothing_give_the_rule_that_refuses_in_the_words_of_add(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text(
        record_text("original-2001", PLAYERS, ["Anna: grey K8, black C3"], merchant="J7")
    )
    code, out, _ = run(
        "moves", path, "--cell", "C5", "--cell", "k9", "--piece", "black", "--piece", "roof"
    )
    listing = out.split("\n\n")[0].splitlines()[1:]
    assert (
        code == 0
        and listing[0] == "  black or roof on C5 or K9: none of them"
        and len(listing) == 5
    )
    for line in listing[1:]:  # each the error `add` gives for that placement, after its WHERE
        placement = " ".join(line.split()[:2]).rstrip(":")
        code, _, err = run("add", path, placement)
        assert code == 1 and err.splitlines()[0].endswith(f", Ben: {line.strip()}"), (line, err)
    listing = (
        run("moves", path, "--piece", "wall", "--to", "0")[1].split("\n\n")[0].splitlines()[1:]
    )
    assert (
        len(listing) == 2 and listing[1].startswith("  wall ") and "[" not in listing[1]
    )  # listed: no reason
    out = run("moves", EXAMPLES / "original-2001-3p.yaml", "--to", "50", "--piece", "grey")[1]
    assert out.splitlines()[1:3] == [  # a rule of the piece, not of a cell
        "  grey: none of them",
        "    grey: grey has retired; no grey building may be placed again [colour-retired]",
    ]


@pytest.mark.parametrize(
    "option, value, message",
    [
        (
            "--piece",
            "gry",
            "--piece: 'gry' is not a piece of original-2001; did you mean grey? (pieces: ",
        ),
        ("--cell", "Z99", "--cell: 'Z99' is not a cell of this board (A1-R13;"),
    ],
)
def test_moves_names_a_bad_filter(option, value, message):
    code, out, err = run("moves", GAME, option, value)
    assert code == 2 and out == "" and err.startswith(message) and err.rstrip().endswith("[usage]")
    code, out, _ = run("moves", GAME, option, value, "--json")
    assert code == 2 and json.loads(out)["errors"][0]["message"].startswith(
        message.partition(": ")[2]
    )


def test_moves_and_the_record_reader_list_the_same_pieces_those_of_the_ruleset():
    """One list of pieces, the ruleset's (what its players are given): original-2001 has no neutral roofs,
    so --piece neutral is no piece of it, and neither message lists `neutral`."""
    pieces = "(pieces: black, brown, grey, merchant, orange, roof, stable, wall)"
    for piece in ("purple", "neutral"):
        code, out, err = run("moves", GAME, "--piece", piece)
        assert (
            code == 2
            and err == f"--piece: {piece!r} is not a piece of original-2001 {pieces} [usage]\n"
        )
    code, out, _ = run(
        "validate", "-", stdin=record_text("original-2001", PLAYERS, ["Anna: purple K8"])
    )
    assert code == 1 and f"'purple' is not a piece of original-2001 {pieces} [unknown-piece]" in out


TYPO_AT_PLACEMENT_2 = """medina: record/1
ruleset: original-2001
players: [Anna, Ben, Cleo]
setup:
  merchant: G7
turns:
  - Anna: orange G11, blakc L3
  - Ben: grey D7, black B9
"""


@pytest.mark.parametrize(
    "command, stop",
    [
        ("status", "after 1 placement of turn 1, where the replay stopped (turn 1 {})"),
        ("score", "standings after 1 placement of turn 1, where the replay stopped (turn 1 {})"),
        (
            "moves",
            "after 1 placement of turn 1, where the replay stopped (turn 1 {}): Anna to move, second placement",
        ),
        ("replay", "Position after 1 placement of turn 1:"),
    ],
)
def test_a_placement_that_cannot_be_read_stops_the_replay_where_an_illegal_one_does(
    tmp_path, command, stop
):
    """A typo at turn 1 placement 2 and an illegal placement there stop at the same point: after the
    placements before it (a typo dropped the whole turn), and `replay` ends with where it stopped."""
    typo, illegal = tmp_path / "typo.yaml", tmp_path / "illegal.yaml"
    typo.write_text(TYPO_AT_PLACEMENT_2)
    illegal.write_text(TYPO_AT_PLACEMENT_2.replace("blakc L3", "roof L3"))
    for path, words in ((typo, "cannot be read"), (illegal, "is illegal")):
        code, out, _ = run(command, path)
        assert code == 1 and stop.format(words) in out, out
    code, out, _ = run("replay", typo)
    assert out.splitlines()[-1] == (
        "Replay stopped at turn 1: 'blakc' is not a piece of original-2001; did you mean "
        "'black'? (pieces: black, brown, grey, merchant, orange, roof, stable, wall)"
    )
    code, out, _ = run("replay", typo, "--json")
    position = json.loads(out)["position"]
    assert (
        position["after_turn"],
        position["placements_into_next_turn"],
        position["placement"],
    ) == (0, 1, 2)
