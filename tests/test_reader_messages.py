"""Message wording: values YAML reads as another type are shown as written in the file, an empty
file and a ruleset file are named as such, aliases (not anchors) are refused, pieces listed are the
ones the edition supplies, and counts are pluralised properly in event texts and messages."""

from __future__ import annotations

import pytest
from conftest import record_text
from rulekit import Position
from scorekit import BOARDS, run

from medina_cli.errors import CODES
from medina_cli.records.boardfile import parse_board
from medina_cli.records.record import parse_record

HEAD = (
    "medina: record/1\nruleset: original-2001\nplayers: [Anna, Ben, Cleo]\nsetup:\n  merchant: J7\n"
)
TURNS = "turns:\n  - Anna: wall A12, wall A11\n"  # lines 6-7
E1 = (BOARDS / "e1-original-2001.yaml").read_text()


def message(text: str) -> str:
    (problem,) = parse_record(text, "game.yaml").problems.errors
    return problem.message


def board_message(text: str) -> str:
    (problem,) = parse_board(text, "board.yaml").problems.errors
    return problem.message


@pytest.mark.parametrize(
    "text, expected",
    [
        (HEAD.replace("Ben", "no"), "player `no` is read by YAML as a boolean; quote the name"),
        (HEAD.replace("Ben", "null"), "player `null` is read by YAML as null"),
        (HEAD.replace("Ben", "2025-01-01"), "player `2025-01-01` is read by YAML as a date"),
        (
            HEAD.replace("[Anna, Ben, Cleo]", "\n  - Anna\n  -\n  - Cleo"),
            "player (empty) is read by YAML as null",
        ),
        (HEAD + TURNS + "  - Off: wall A10\n", "player `Off` is read by YAML as a boolean"),
        (HEAD + TURNS + "  - Ben: yes\n", "no placements (found `yes`, read by YAML as a boolean)"),
        (HEAD + TURNS + "  - Ben:\n", "no placements (found nothing)"),
        (
            HEAD + TURNS + "result: {Anna: 1, Ben: no, Cleo: 3}\n",
            "result for Ben: `no` is not a whole number",
        ),
        (
            HEAD + TURNS + "result: {Anna: 1, Ben: 2, Cleo: 3, 2025-01-01: 4}\n",
            "result names `2025-01-01`, who is",
        ),
        (
            HEAD + TURNS + "event: 2025-03-14\n",
            "`event`: `2025-03-14` is read by YAML as a date; quote it",
        ),
        (HEAD + TURNS + "event: 0x1F\n", "`event`: `0x1F` is read by YAML as a number"),
        (HEAD.replace("original-2001", "2001"), "`ruleset`: `2001` is read by YAML as a number"),
        (HEAD + TURNS + "yes: 1\n", "top-level key `yes` is read by YAML as a boolean"),
        (HEAD + "  1e5: J8\n", "unknown setup key '1e5'"),  # YAML 1.1 reads 1e5 as text
        (HEAD + "  0x10: J8\n", "unknown setup key `0x10`"),
        (HEAD.replace("J7", "0x10"), "setup merchant: `0x10` is not a cell"),
        (HEAD + TURNS + "No: 1\nno: 2\n", "duplicate key `no`"),
        (HEAD.replace("record/1", "1.0"), "found `1.0`"),
        (HEAD.replace("medina: record/1\n", ""), "`medina:` must be 'record/1', found nothing"),
    ],
)
def test_values_yaml_reads_as_another_type_are_shown_as_written(text, expected):
    assert expected in message(text)


@pytest.mark.parametrize(
    "edit, expected",
    [
        ({"tiles": "tiles:\n  palace: {no: Anna}\n"}, "no palace tile `no` in original-2001"),
        ({"tiles": "tiles:\n  tower: {5: Anna}\n"}, "no tower tile `5` in original-2001"),
        ({"tiles": "tiles:\n  tower: {1: off}\n"}, "tile holder `off` is not a player"),
        ({"tiles": "tiles:\n  1: {grey: Anna}\n"}, "`tiles: 1` is not a mapping"),
        (
            {"roofs": "roofs: {B12: Anna, F12: Anna, K3: Anna, 7: Anna}"},
            "roof at `7`: not a cell of this board",
        ),
        (
            {"roofs": "roofs: {B12: Anna, F12: Anna, K3: no}"},
            "the owner of the roof at K3, `no`, is read by YAML as a boolean",
        ),
        ({"top": "true: 1\n"}, "unknown key `true`"),
    ],
)
def test_board_files_show_values_as_written(edit, expected):
    text = E1
    if "roofs" in edit:
        text = text.replace("roofs: {B12: Anna, F12: Anna, K3: Anna}", edit["roofs"])
    text += edit.get("tiles", "") + edit.get("top", "")
    assert expected in board_message(text)


def test_an_empty_file_says_so(tmp_path):
    assert message("") == message("# nothing yet\n") == "the file is empty"
    code, out, err = run("validate", "-", stdin="")
    assert code == 1 and "<stdin>: the file is empty [bad-format-tag]" in out + err
    assert board_message("") == "the file is empty"


def test_a_ruleset_given_as_a_record_gets_a_hint():
    assert message("medina: ruleset/1\nextends: original-2001\n").endswith(
        "(a ruleset: use `medina rules show`)"
    )
    assert message(HEAD.replace("record/1", "board/1")).endswith(
        "(a finished board: `medina score` and `medina render` take it)"
    )


def test_an_anchor_alone_is_accepted_an_alias_is_not():
    assert parse_record(HEAD + TURNS + "x-a: &a 1\n", "game.yaml").problems.errors == []
    text = message(HEAD + TURNS + "x-a: &a 1\nx-b: *a\n")
    assert (
        "aliases are not accepted (an anchor alone is harmless)" in text
        and "anchored at line 8" in text
    )
    assert "anchors and aliases are not accepted" not in CODES["yaml-alias"]


def test_unknown_pieces_list_only_what_the_edition_supplies():
    unknown = HEAD + TURNS + "  - Ben: neutrl K7, wall A10\n"
    assert "(pieces: black, brown, grey, merchant, orange, roof, stable, wall)" in message(unknown)
    assert "did you mean" not in message(unknown)
    text = record_text(
        "second-edition-2014", ["Anna", "Ben", "Cleo"], ["Anna: neutrl K7"], well="D4"
    )
    assert (
        "did you mean 'neutral'? (pieces: brown, grey, merchant, neutral, orange, purple, roof"
        in message(text)
    )
    four = record_text(
        "second-edition-2014", ["Anna", "Ben", "Cleo", "Dan"], ["Anna: neutrl K7"], well="D4"
    )
    assert "neutral" not in message(four).split("(pieces:")[1]  # no neutral roofs with four players
    # the engine still reads `neutral` under 2001: the player holds none
    assert (
        Position("original-2001", 3, "Anna: grey K8, wall A12").reject("neutral K8")
        == "not-in-supply"
    )


def test_player_counts_and_the_board_extent_in_words():
    assert (
        message(HEAD.replace("[Anna, Ben, Cleo]", "[Anna, Ben]"))
        == "original-2001 is for 3 or 4 players, not 2"
    )
    assert message(HEAD + TURNS + "  - Ben: wall Z10, wall A10\n") == (
        "'Z10' is not a cell of this board (A1-R13; interior B2-Q12)"
    )


def test_event_texts_count_in_words():
    def events(*turns):
        game = Position("second-edition-2014", 3, *turns).game
        return [
            e.text
            for e in game.events
            if e.kind in ("tower-merchants", "tea", "palace-tile", "tower-tile")
        ]

    assert events("Anna: wall Q13", "Ben: orange Q12", "Cleo: roof Q12, brown D11") == [
        "the orange palace tile goes to Cleo (palace size 1)",
        "tower tile 3 goes to Cleo (orange palace at Q12)",
        "Cleo takes the merchant of tower 3",
    ]
    assert events("Anna: wall Q13", "Ben: orange Q12", "Cleo: neutral Q12, brown D11") == [
        "the orange palace tile goes to a neutral palace (size 1): it stays on the board",
        "tower tile 3 goes to the neutral orange palace at Q12: it stays on the board",
        "the merchant of tower 3 leaves the game (neutral first holder)",
    ]
    tea = [
        e
        for e in events(
            "Anna: purple D4",
            "Ben: wall A12",
            "Cleo: roof D4, purple H8",
            "Anna: neutral H8, purple M4",
            "Ben: roof M4, wall A11",
        )
        if "tea" in e
    ]
    assert tea == [
        "Cleo takes 3 tea tiles",
        "2 tea tiles for the neutral claim leave the game",
        "Ben takes 1 tea tile",
    ]


def test_the_opening_rule_message_counts_its_turns():
    pos = Position("second-edition-2014", 3, "Anna: wall A12")
    (problem,) = pos.replay("Ben: wall A11, wall A10").problems
    assert "the first 2 turns of the game have a single placement" in problem.message
    (problem,) = Position("second-edition-2014", 2).replay("Anna: wall A11, wall A10").problems
    assert "the first turn of the game has a single placement" in problem.message


def test_the_fast_turn_reading_keeps_the_written_values_yaml_keeps():
    from medina_cli.records.record import _parse_turn_lines
    from medina_cli.yamlio import parse_yaml

    text = (
        HEAD
        + TURNS
        + "  - Ben: wall B13, wall C13\ndate: 2025-03-14\nresult: {Anna: 1, Ben: no, Cleo: 3}\n"
    )
    fast, slow = _parse_turn_lines(text, "game.yaml"), parse_yaml(text, "game.yaml")
    assert fast == slow and fast[1].written == slow[1].written == {
        ("date",): "2025-03-14",
        ("result", "Anna"): "1",
        ("result", "Ben"): "no",
        ("result", "Cleo"): "3",
    }


SLIP_HEAD = HEAD + "turns:\n"  # turns from line 7


@pytest.mark.parametrize(
    "turns, line, expected",
    [
        ("  Anna: wall A12, wall A11\n", 7, "begin each turn with a dash and a space, `- Anna:`"),
        (
            "  -Anna: wall A12, wall A11\n",
            7,
            "a dash and a space begin each turn, `- Anna:`, not `-Anna:`",
        ),
        (
            "  - Anna: wall A12, wall A11\n  -Ben: wall B13, wall C13\n",
            8,
            "a list item is a dash and a space: `- Ben: wall B13, wall C13`, not `-Ben: wall B13, wall C13`",
        ),
        (
            "  - Anna: wall A12, wall A11\n  Ben: wall B13, wall C13\n",
            8,
            "each item of the list above begins with a dash and a space: `- Ben: wall B13, wall C13`",
        ),
        (
            "  - Anna wall A12, wall A11\n",
            7,
            "put a colon and a space after the player: `Anna: wall A12, wall A11`",
        ),
        (
            "  - Anna:wall A12, wall A11\n",
            7,
            "put a colon and a space after the player: `Anna: wall A12, wall A11`",
        ),
        (
            "  - Anna: [wall A12, wall A11]\n",
            7,
            "written as a list in brackets; write them without: `Anna: wall A12, wall A11`",
        ),
        (
            "  - Anna: grey P3 wall C1\n",
            7,
            "a comma is missing between placements: `grey P3, wall C1`",
        ),
        ("  - Anna: grey P3, wall C1,\n", 7, "a comma after the last placement: remove it"),
        ("  - Anna: grey P3,, wall C1\n", 7, "an empty placement (two commas in a row"),
        (
            "  - Anna: K4 brown, wall C1\n",
            7,
            "'K4 brown': the piece comes first, then the cell: `brown K4`",
        ),
        (
            "  - anna: wall A12, wall A11\n",
            7,
            "'anna' is not in players (Anna, Ben, Cleo); did you mean Anna?",
        ),
        ("  - Anne: wall A12, wall A11\n", 7, "did you mean Anna?"),
    ],
)
def test_common_slips_are_named_with_their_fix(turns, line, expected):
    (problem,) = parse_record(SLIP_HEAD + turns, "game.yaml").problems.errors
    assert expected in problem.message and problem.line == line


@pytest.mark.parametrize(
    "text, line, expected",
    [
        (
            HEAD.replace("[Anna, Ben, Cleo]", "[Anna, Ben, Cleo"),
            3,
            "the `[` opened here is not closed",
        ),
        (
            HEAD.replace("merchant: J7", "{merchant: J7") + "turns: []\n",
            5,
            "the `{` opened here is not closed",
        ),
        (HEAD + "event: 'club night\nturns: []\n", 6, "the quote opened here is not closed"),
        (
            HEAD + "turn:\n  - Anna: wall A12, wall A11\n",
            6,
            "unknown key 'turn'; did you mean turns?",
        ),
        (
            HEAD + "  merchnat: J8\n",
            6,
            "unknown setup key 'merchnat'; valid: merchant, supply; did you mean merchant?",
        ),
        (
            HEAD + "result: {Anna: 1, ben: 2, Cleo: 3}\n",
            6,
            "result names 'ben', who is not a player; did you mean Ben?",
        ),
    ],
)
def test_an_unclosed_bracket_and_misspelt_keys(text, line, expected):
    problem = parse_record(text, "game.yaml").problems.errors[0]
    assert expected in problem.message and problem.line == line, problem.human()
