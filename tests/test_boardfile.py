"""Finished boards (board/1): every reading error, the tiles a position decides or leaves open, and
the round trip record -> `replay --final-board` -> board scoring the same as the record."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import EXAMPLES
from hypothesis import given, settings
from hypothesis import strategies as st
from scorekit import BOARDS, board_text, problems, run, set_cells

from medina_cli.engine.playout import play_random_game
from medina_cli.engine.scoring import score_game, tile_holders
from medina_cli.records.boardfile import parse_board, score_board, write_board
from medina_cli.rules.loader import load_ruleset

E1 = (BOARDS / "e1-original-2001.yaml").read_text()
E3 = (BOARDS / "e3-second-edition-2014.yaml").read_text()


def codes(text: str, **kw) -> list[str]:
    return [code for code, _, _ in problems(text, **kw)]


def line_of(text: str, fragment: str) -> int:
    return next(i for i, line in enumerate(text.split("\n"), 1) if fragment in line)


def test_the_fixtures_read_without_problems():
    for path in BOARDS.glob("*.yaml"):
        assert problems(path.read_text()) == [], path.name


# --- the grid ------------------------------------------------------------------------------------


def test_wrong_row_count():
    lines = E1.split("\n")
    del lines[line_of(E1, "grid: |") + 3]
    [(code, message, _)] = problems("\n".join(lines))
    assert code == "board-grid" and "12 rows" in message and "13 rows of 18 cells" in message


def test_wrong_row_length_names_the_line():
    lines = E1.split("\n")
    lines[line_of(E1, "grid: |") + 6] += " ."  # row 7
    text = "\n".join(lines)
    [(code, message, line)] = problems(text)
    assert code == "board-grid" and "19 cells" in message
    assert line == line_of(E1, "grid: |") + 7


@pytest.mark.parametrize(
    "cell, char, fragment",
    [
        ("K7", "x", "unknown letter 'x'"),
        ("K7", "p", "a building of original-2001 (g grey, k black, b brown, o orange)"),
        ("K7", "w", "original-2001 has no well"),
        ("K7", "#", "walls and towers belong on the ring"),
        ("A5", "m", "only # (wall) or . (gap)"),
        ("A5", "T", "towers stand on the corners only"),
        ("A1", ".", "a corner holds its tower"),
    ],
)
def test_a_wrong_letter_names_cell_and_line(cell, char, fragment):
    text = set_cells(E1, {cell: char})
    [(code, message, line)] = problems(text)
    assert code == "board-grid" and message.startswith(f"{cell}: ") and fragment in message
    row = int(cell[1:])
    assert line == line_of(E1, "grid: |") + 14 - row


def test_the_grid_must_fit_the_player_count():
    text = E3.replace("players: [Anna, Ben, Cleo, Dan]", "players: [Anna, Ben]")
    [(code, message, _)] = problems(text)
    assert (
        code == "board-grid"
        and "12 rows of 16 cells (2-player second-edition-2014 board)" in message
    )


def test_a_well_is_required_where_the_ruleset_has_one():
    [(code, message, _)] = problems(set_cells(E3, {"D4": "."}))
    assert code == "board-grid" and "exactly one well" in message


def test_the_well_stands_off_the_edge_row_and_keeps_its_zone_free():
    assert codes(set_cells(E3, {"D4": ".", "D2": "w"})) == ["bad-setup"]
    [(code, message, _)] = problems(set_cells(E3, {"D3": "g"}))
    assert code == "well-zone" and message.startswith("D3")


# --- palaces, walls, roofs, supply ---------------------------------------------------------------


def test_palaces_that_touch_diagonally():
    [(code, message, _)] = problems(set_cells(E1, {"G8": "g"}))
    assert code == "board-spacing"
    assert "black palace at F12" in message and "grey palace at G8" in message


def test_a_stable_between_two_palaces():
    [(code, message, _)] = problems(set_cells(E1, {"N3": "g", "M3": "s"}))
    assert code == "board-spacing" and "stable at M3 touches two palaces" in message


BRANCH = {"B3": "m", "C3": "m", "D3": "m", "C4": "m"}  # C3 touches three merchants
LOOP = {"B3": "m", "C3": "m", "B4": "m", "C4": "m"}  # every merchant touches two: a closed square


@pytest.mark.parametrize("ruleset", ["original-2001", "bsw-dm-2003"])
def test_a_branching_merchant_group_is_rejected_where_a_new_chain_may_not_touch_a_merchant(ruleset):
    text = set_cells(E1, BRANCH)
    [(code, message, line)] = problems(text, ruleset=ruleset)
    assert code == "board-merchants"
    assert message.startswith("the merchants at C3 and B3, C4, D3 branch at C3")
    assert "new_chain_max_neighbours is 0" in message
    assert line == line_of(E1, "grid: |") + 11  # row 3


@pytest.mark.parametrize(
    "ruleset, loop_allowed",
    [
        (
            "boardspace-original",
            False,
        ),  # a new chain may touch one merchant of a dead one: branches, no loops
        (
            "boardspace-original-r101",
            True,
        ),  # before revision 102 a new chain could touch any number
    ],
)
def test_merchant_groups_under_the_profiles_follow_new_chain_max_neighbours(ruleset, loop_allowed):
    assert problems(set_cells(E1, BRANCH), ruleset=ruleset) == []
    found = problems(set_cells(E1, LOOP), ruleset=ruleset)
    if loop_allowed:
        assert found == []
    else:
        [(code, message, _)] = found
        assert code == "board-merchants" and message.startswith(
            "the merchants at B3, B4, C3, C4 close a loop"
        )


def test_a_merchant_loop_is_rejected_under_the_editions():
    assert codes(set_cells(E1, LOOP)) == ["board-merchants"]


def test_a_stable_touching_no_building():
    [(code, message, _)] = problems(set_cells(E1, {"I7": "s"}))
    assert code == "board-stable" and "I7" in message


def test_a_closed_gate():
    north = {f"{chr(c)}13": "#" for c in range(ord("G"), ord("R"))}
    [(code, message, _)] = problems(set_cells(E1, north))
    assert code == "board-gate" and "between towers 1 and 3 is closed" in message


def test_a_wall_that_starts_from_no_tower():
    [(code, message, _)] = problems(set_cells(E1, {"H1": "#"}))
    assert code == "board-gate" and message.startswith(
        "the wall at H1 between towers 4 and 2 does not continue a run"
    )
    [(code, message, _)] = problems(set_cells(E1, {"E1": "#", "H1": "#"}))
    assert code == "board-gate" and message.startswith(
        "the walls at E1, H1 between towers 4 and 2 do not continue"
    )


@pytest.mark.parametrize(
    "board, changes, code, row",
    [
        (E1, {"G8": "g"}, "board-spacing", 9),  # touches the black palace at F9
        (E1, {"N3": "g", "M3": "s"}, "board-spacing", 3),
        (E1, {"I7": "s"}, "board-stable", 7),
        (E1, {"H1": "#"}, "board-gate", 1),
        (E1, {f"A{row}": "#" for row in range(2, 13)}, "board-gate", 2),  # closed (A2-A12)
        (E3, {"D3": "g"}, "well-zone", 3),
        (E3, {"D4": ".", "D2": "w"}, "bad-setup", 2),
    ],
)
def test_position_errors_name_the_grid_line_of_the_cell(board, changes, code, row):
    [(found, _, line)] = problems(set_cells(board, changes))
    assert (
        found == code and line == line_of(board, "grid: |") + 1 + 13 - row
    )  # north row (13) first


@pytest.mark.parametrize(
    "roofs, fragment",
    [
        ("{K7: Anna}", "the roof at K7 is on no building"),
        ("{C11: Anna}", "the roof at C11 is on a stable"),
        ("{B12: Anna, C12: Ben}", "the grey palace at B12 has two roofs (B12 and C12)"),
    ],
)
def test_misplaced_roofs(roofs, fragment):
    text = E1.replace("roofs: {B12: Anna, F12: Anna, K3: Anna}", f"roofs: {roofs}")
    [(code, message, line)] = problems(text)
    assert code == "board-roof" and fragment in message and line == line_of(text, "roofs:")


def test_a_player_owning_two_palaces_of_one_colour():
    text = set_cells(E1, {"I8": "g"}).replace("K3: Anna}", "K3: Anna, I8: Anna}")
    [(code, message, _)] = problems(text)
    assert code == "board-ownership" and "Anna would own two grey palaces (B12 and I8)" in message


def test_a_roof_naming_nobody_known():
    [(code, message, _)] = problems(E1.replace("K3: Anna", "K3: Zed"))
    assert code == "board-ownership" and "'Zed'" in message


@pytest.mark.parametrize(
    "setting, roofs, fragment",
    [
        (
            "supply.3.merchants=2",
            None,
            "9 merchants on the board; 3 players of original-2001 have only 7",
        ),
        ("supply.3.roofs=2", None, "3 roofs of Anna"),
        ("supply.3.walls=4", None, "14 walls"),
        ("supply.3.per_colour=1", None, "5 black buildings"),
        (
            None,
            "K3: neutral",
            "1 neutral roofs on the board; 3 players of original-2001 have only 0",
        ),
    ],
)
def test_more_pieces_than_the_supplies_hold(setting, roofs, fragment):
    text = E1.replace("K3: Anna", roofs) if roofs else E1
    found = problems(text, overrides=(setting,) if setting else ())
    assert [c for c, _, _ in found] and {c for c, _, _ in found} == {"board-supply"}
    assert any(fragment in message for _, message, _ in found)


def test_unknown_keys_are_errors_but_x_keys_are_kept_out_of_the_way():
    assert codes(E1 + "colour: red\n") == ["unknown-key"]
    assert codes(E1 + "x-photo: table.jpg\n") == []


# --- tiles -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "tiles, fragment",
    [
        ("  palace: {grey: Ben}", "the grey palace tile cannot be with Ben"),
        ("  palace: {purple: Anna}", "no palace tile 'purple' in original-2001"),
        ("  tower: {1: Zed}", "tile holder 'Zed' is not a player"),
        ("  tower: {3: Anna}", "tower tile 3 cannot be with Anna"),
        ("  tower: {1: none}", "tower tile 1 cannot be with none"),
        ("  palace: {brown: Anna}", "the brown palace tile cannot be with Anna"),
    ],
)
def test_implausible_tiles(tiles, fragment):
    text = f"{E1}tiles:\n{tiles}\n"
    [(code, message, line)] = problems(text)
    assert code == "board-tiles" and fragment in message and line == line_of(text, tiles.strip())


def test_plausible_tiles_are_accepted():
    text = f"{E1}tiles:\n  palace: {{grey: Anna, brown: none}}\n  tower: {{'3': none, 2: Anna}}\n"
    assert problems(text) == []


# Anna's and Ben's grey palaces are both of size 2; both palaces next to tower 1's walls are claimed.
OPEN = [("E8 F8", "g"), ("K8 L8", "g"), ("B12", "k"), ("B9", "b"), ("B13 A12 A11 A10 A9", "#")]
OPEN_ROOFS = {"E8": "Anna", "K8": "Ben", "B12": "Anna", "B9": "Ben"}


def open_board(tiles: str = ""):
    board = parse_board(
        board_text("original-2001", ["Anna", "Ben", "Cleo"], OPEN, OPEN_ROOFS, tiles=tiles),
        "open.yaml",
    )
    assert board.problems.errors == []
    return score_board(board).to_json()


def test_tiles_the_position_leaves_open_are_listed_not_guessed():
    sheet = open_board()
    assert sheet["undetermined"] == [
        {"tile": "palace", "colour": "grey", "candidates": ["Anna", "Ben"]},
        {"tile": "tower", "tower": 1, "candidates": ["Anna", "Ben"]},
    ]
    # Anna: grey 2, black 1 + walls B13, A12, black tile 2; Ben: grey 2, brown 1 + wall A9, brown tile 3
    assert {p["name"]: p["total"] for p in sheet["players"]} == {"Anna": 7, "Ben": 7, "Cleo": 0}
    assert sheet["winners"] == []


def test_given_tiles_close_the_open_ones():
    half = open_board("tiles:\n  palace: {grey: Anna}\n")
    assert [t["tile"] for t in half["undetermined"]] == ["tower"] and half["winners"] == []
    full = open_board("tiles:\n  palace: {grey: Anna}\n  tower: {1: Anna}\n")
    assert full["undetermined"] == [] and full["winners"] == ["Anna"]
    assert full["players"][0]["palace_tiles"] == ["grey", "black"] and full["players"][0][
        "tower_tiles"
    ] == [1]


def test_winners_named_when_every_assignment_agrees():
    board = board_text(
        "original-2001",
        ["Anna", "Ben", "Cleo"],
        OPEN + [("H4 I4 J4 K4", "o")],
        {**OPEN_ROOFS, "H4": "Anna"},
    )
    sheet = score_board(parse_board(board, "open.yaml")).to_json()
    assert len(sheet["undetermined"]) == 2 and sheet["winners"] == ["Anna"]


def test_open_tiles_on_the_cli(tmp_path):
    path = tmp_path / "open.yaml"
    path.write_text(board_text("original-2001", ["Anna", "Ben", "Cleo"], OPEN, OPEN_ROOFS))
    code, out, _ = run("score", path)
    assert code == 0
    assert (
        "grey palace tile (1 points): Anna or Ben" in out
        and "tower tile 1 (1 points): Anna or Ben" in out
    )
    assert "Winner: cannot be decided without the undetermined tiles." in out


def test_a_bad_board_on_the_cli_is_one_line_per_problem_and_exit_1(tmp_path):
    path = tmp_path / "board.yaml"
    text = set_cells(E1, {"K7": "x", "I7": "s"})
    path.write_text(text)
    code, out, err = run("score", path)
    assert code == 1 and out == ""
    assert err.splitlines() == [
        f"{path}:{line_of(E1, 'grid: |') + 7}: {problems(text)[0][1]} [board-grid]"
    ]
    assert path.read_text() == text


@pytest.mark.slow
def test_the_installed_command_never_shows_a_traceback(tmp_path):
    medina = Path(sys.executable).with_name("medina")
    if not medina.exists():
        pytest.skip("no installed medina")
    path = tmp_path / "board.yaml"
    path.write_text(E1.replace("roofs: {B12: Anna, F12: Anna, K3: Anna}", "roofs: [B12]"))
    proc = subprocess.run(
        [str(medina), "score", str(path)], capture_output=True, text=True, timeout=60
    )
    assert (
        proc.returncode == 1 and "Traceback" not in proc.stderr and "yaml-wrong-type" in proc.stderr
    )


# --- the round trip --------------------------------------------------------------------------------

GAMES = [
    (ruleset, n)
    for ruleset in ("original-2001", "bsw-dm-2003", "second-edition-2014")
    for n in load_ruleset(ruleset).player_counts
]


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 2**32 - 1))
def test_a_final_board_scores_like_its_game(game, seed):
    ruleset, n = game
    rules = load_ruleset(ruleset).for_players(n)
    played = play_random_game(rules, ["Anna", "Ben", "Cleo", "Dan"][:n], random.Random(seed))
    text = write_board(played, ruleset)
    board = parse_board(text, "final.yaml")
    assert board.problems.errors == []
    assert score_board(board).to_json() == score_game(played).to_json()
    assert write_board(board.position, ruleset) == text
    # without `tiles`, what the position decides is right and what it leaves open names the holder
    bare = parse_board(text.split("tiles:")[0], "bare.yaml")
    true_palace, true_tower = tile_holders(played)
    decided_palace, decided_tower = tile_holders(bare.position)
    open_tiles = {(t.kind, t.key): t.candidates for t in bare.undetermined}
    for kind, truth, decided in (
        ("palace", true_palace, decided_palace),
        ("tower", true_tower, decided_tower),
    ):
        for key, holder in truth.items():
            if (kind, key) in open_tiles:
                assert holder in open_tiles[kind, key]
            else:
                assert decided[key] == holder
    winners = score_board(bare).winners
    assert winners in ([], score_game(played).winners)


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.yaml")), ids=lambda p: p.name)
def test_replay_final_board_then_score_equals_scoring_the_record(path, tmp_path):
    out = tmp_path / "final.yaml"
    assert run("replay", path, "--final-board", "-o", out)[0] == 0
    from_board = json.loads(run("score", out, "--json")[1])
    from_record = json.loads(run("score", path, "--json")[1])
    assert {**from_board, "file": None} == {**from_record, "file": None}


def test_final_board_on_stdout_and_its_refusals(tmp_path):
    code, out, _ = run("replay", EXAMPLES / "original-2001-3p.yaml", "--final-board")
    assert (
        code == 0
        and out.startswith("medina: board/1\nruleset: original-2001\n")
        and "tiles:" in out
    )
    assert run("replay", EXAMPLES / "original-2001-3p.yaml", "-o", tmp_path / "x.yaml")[0] == 2
    record = tmp_path / "game.yaml"
    original = (EXAMPLES / "original-2001-3p.yaml").read_text()
    record.write_text(original)
    code, _, err = run("replay", record, "--final-board", "-o", record)
    assert code == 2 and "refusing to overwrite" in err and record.read_text() == original
    code, out, err = run("replay", record, "--final-board", "--to", "10")
    assert code == 0 and "the game is not over" in err and out.startswith("medina: board/1")


def test_holders_are_named_one_way_everywhere():
    from medina_cli.engine.game import NEUTRAL
    from medina_cli.engine.game import holder_name as named
    from medina_cli.records.boardfile import holder_name as written

    players = ["Anna", "Ben"]
    assert [named(players, o) for o in (None, NEUTRAL, 0, 1)] == [None, "neutral", "Anna", "Ben"]
    assert [written(players, o) for o in (None, NEUTRAL, 1)] == ["none", "neutral", "Ben"]
