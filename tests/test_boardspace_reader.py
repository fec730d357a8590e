"""Reading boardspace.net records, both forms: every verb and quirk of the site's saved games and stories."""

import pytest

from medina_cli.records.boardspace import is_boardspace, parse_boardspace, profile_id
from medina_cli.records.record import parse_record
from medina_cli.records.replay import replay

# Original rules, 3 players, an old story (no revision). Seat A's first turn: start merchant K7, grey
# P11, black C3 picked back up (Pickb, with the chip number the UI appends) and dropped on D3; a
# dome picked and put back (a no-op pair). Seat B plays robot-style OnBoard moves.
STORY = (
    "ri 1 pi 0 1000 pi 1 1001 pi 2 1002 story medina 3 0 , 0 Start P0 , 1 Pick M A 0 , 2 Dropb K 7 , "
    "3 PICK p A 0 , 4 dropb P 11 , 5 pick d A 0 , 6 drop d A 0 , 7 pick p A 1 , 8 dropb C 3 , "
    "9 pickb C 3 1234 , 10 dropb D 3 , 11 Done , 12 OnBoard P B 2 P 7 , 13 onboard p b 0 O 11 , "
    "14 done , 15 pick w C 0 , 16 dropb Q 13 , 17 pick p C 3 , 18 dropb C 10 , 19 DONE "
    ".end. 1000 1000 0 0 0\n"
)
STORY_TURNS = [
    ("P0", ["grey P11", "black D3"]),
    ("P1", ["brown P7", "grey O11"]),
    ("P2", ["wall Q13", "orange C10"]),
]

# Second edition, 3 players, key 123456 (well J5, start merchant H10). Tea is discarded both ways:
# the robot's `OnBoard T A 0 A 65` (row field = character code of "A") and `Pick T` + `Drop V A 0`.
SGF = """(;
GM[Medina]VV[1]
CM[0,1,2]
SU[Medina-v2 104 3 123456]
DT[Sun Mar 01 12:00:00 2015]
GN[ME-Anna-Ben-Cleo-2015-03-01]
P0[id "Anna"]P0[ranking 1500]
P1[id "Ben"]
P2[id "Cleo"]
; P0[0 Start P0]
; P0[1 OnBoard P A 1 C 3]TM[1200]
; P0[2 Done]
; P1[3 onboard p B 0 P 11]
; P1[4 done]
; P2[5 pick w C 0]
; P2[6 dropb A 2]C[a comment with \\] inside]
; P2[7 pick w C 0]
; P2[8 dropb A 3]
; P2[9 done]
; P0[10 pick d A 0]
; P0[11 dropb C 3]
; P0[12 onboard T A 0 A 65]
; P0[13 done]
; P1[14 onboard p B 0 O 11]
; P1[15 onboard w B 0 R 2]
; P1[16 done]
; P2[17 onboard w C 0 A 4]
; P2[18 onboard w C 0 A 5]
; P2[19 done]
; P0[20 pick p A 2]
; P0[21 dropb E 12]
; P0[22 pick t A 0]
; P0[23 drop v A 0]
; P0[24 done]
;
P0[time 0:10:00 ]
P1[time 0:09:00 ]
P2[time 0:08:00 ]
)
"""
SGF_TURNS = [
    ("Anna", ["purple C3"]),
    ("Ben", ["grey P11"]),
    ("Cleo", ["wall A2", "wall A3"]),
    ("Anna", ["roof C3", "tea"]),
    ("Ben", ["grey O11", "wall R2"]),
    ("Cleo", ["wall A4", "wall A5"]),
    ("Anna", ["brown E12", "tea"]),
]


def turns_of(record):
    return [(t.player, record.tokens(t)) for t in record.turns]


def read(text, name="game.txt", **kw):
    record = parse_boardspace(text, name, **kw)
    return record, replay(record)


def story(*actions, header="medina 3 0"):
    """A story line numbering the actions from 0."""
    return f"story {header} , " + " , ".join(f"{i} {a}" for i, a in enumerate(actions)) + " .end.\n"


OPENING = ("Start P0", "onboard m A 0 K 7", "onboard p A 0 P 11", "onboard p A 1 C 3", "done")


def test_story_becomes_turns_under_the_old_revision_profile():
    record, outcome = read(STORY)
    assert record.ruleset.id == "boardspace-original-r100"  # no revision: engine revision 100
    assert record.players == ["P0", "P1", "P2"]
    assert record.setup["merchant"] == "K7"  # the first piece, lifted into setup
    assert turns_of(record) == STORY_TURNS
    assert outcome.problems == [] and not outcome.finished


def test_sequence_numbers_are_optional():
    unnumbered = " , ".join(
        item.split(" ", 1)[1] if item[0].isdigit() else item for item in STORY.split(" , ")
    )
    assert "11 Done" not in unnumbered
    record, _ = read(unnumbered)
    assert turns_of(record) == STORY_TURNS


def test_sgf_file_with_names_tea_discards_and_drawn_setup():
    record, outcome = read(SGF, "game.sgf")
    assert record.ruleset.id == "boardspace-second-edition"
    assert record.players == ["Anna", "Ben", "Cleo"]
    assert (record.setup["merchant"], record.setup["well"]) == ("H10", "J5")
    assert turns_of(record) == SGF_TURNS
    assert outcome.problems == []
    assert outcome.game.tea == [1, 0, 0]  # 3 won by the purple roof, 2 discarded
    assert record.meta["date"] == "Sun Mar 01 12:00:00 2015"
    assert record.meta["x-boardspace"]["key"] == 123456


@pytest.mark.parametrize("verb", ["done", "Pass"])
def test_bare_done_is_a_pass_of_the_player_in_seat_order(verb):
    record, _ = read(story(*OPENING, verb, "onboard w C 0 Q 13", "onboard w C 0 P 13", "done"))
    assert turns_of(record)[1:] == [("P1", ["pass"]), ("P2", ["wall Q13", "wall P13"])]


def test_start_seat_is_the_first_player_and_seat_a_keeps_the_extra_merchant():
    text = story(
        "Start P1",
        "onboard m B 0 K 7",
        "onboard p B 0 P 11",
        "onboard p B 1 C 3",
        "done",
        "onboard p C 2 P 7",
        "onboard w C 0 Q 13",
        "done",
        header="medina 3 1",
    )
    record, outcome = read(text, players=["Anna", "Ben", "Cleo"])
    assert record.players == ["Ben", "Cleo", "Anna"]
    assert turns_of(record) == [
        ("Ben", ["grey P11", "black C3"]),
        ("Cleo", ["brown P7", "wall Q13"]),
    ]
    assert record.problems.warnings == []
    # the site's supplies: Ben (seat B) paid for the start merchant, Anna (seat A) holds the extra one
    assert record.supply == {"Ben": {"merchant": 7}, "Anna": {"merchant": 9}}
    assert outcome.problems == []
    assert [supply["merchant"] for supply in outcome.game.supply] == [7, 8, 9]  # Ben, Cleo, Anna


def test_seat_a_starting_needs_no_supply_setup():
    record, outcome = read(story(*OPENING))
    assert record.supply == {} and outcome.problems == []
    assert [supply["merchant"] for supply in outcome.game.supply] == [8, 8, 8]


def test_revision_picks_the_profile():
    assert [profile_id("medina", r) for r in (1, 100, 101, 102, 103, 104)] == [
        "boardspace-original-r100",
        "boardspace-original-r100",
        "boardspace-original-r101",
        "boardspace-original-r102",
        "boardspace-original",
        "boardspace-original",
    ]
    # the second edition came with revision 101: nothing older exists
    assert [profile_id("medina-v2", r) for r in (100, 101, 102, 104)] == [
        "boardspace-second-edition-r101",
        "boardspace-second-edition-r101",
        "boardspace-second-edition-r102",
        "boardspace-second-edition",
    ]
    record, _ = read(story(*OPENING, header="Medina 102 3 77 0"))
    assert record.ruleset.id == "boardspace-original-r102"


def test_record_stopping_mid_turn_leaves_out_the_unfinished_turn():
    record, outcome = read(story(*OPENING, "onboard p B 2 P 7"))
    assert [t.player for t in record.turns] == ["P0"]
    assert [w.code for w in record.problems.warnings] == ["boardspace-turn-dropped"]
    assert outcome.problems == []


def test_record_stopping_after_a_full_turn_keeps_it_and_says_it_ends_mid_turn():
    record, outcome = read(story(*OPENING, "onboard p B 2 P 7", "onboard p B 2 P 6"))
    assert turns_of(record)[-1] == ("P1", ["brown P7", "brown P6"])
    assert outcome.problems == []
    [warning] = record.problems.warnings
    assert (warning.code, warning.turn, warning.player) == ("boardspace-mid-turn", 2, "P1")
    assert "no final `Done`" in warning.message and "2 placements are kept" in warning.message


def test_record_ending_with_a_piece_in_hand_says_so():
    record, outcome = read(story(*OPENING, "pick p B 2"))
    assert [t.player for t in record.turns] == ["P0"] and outcome.problems == []
    [warning] = record.problems.warnings
    assert (warning.code, warning.turn, warning.player) == ("boardspace-mid-turn", 2, "P1")
    assert "holding a brown" in warning.message


def test_record_ending_after_done_has_no_mid_turn_warning():
    record, _ = read(story(*OPENING, "onboard p B 2 P 7", "onboard p B 2 P 6", "done"))
    assert record.problems.warnings == []


def test_illegal_placement_in_an_unfinished_turn_is_reported():
    record, outcome = read(
        story(*OPENING, "onboard p B 0 O 10")
    )  # grey diagonal to the open grey P11
    assert [(p.code, p.turn, p.placement) for p in outcome.problems] == [
        ("building-not-adjacent", 2, 1)
    ]
    assert record.problems.warnings == []


@pytest.mark.parametrize(
    "action, words",
    [
        ("jump K 7", "unknown verb"),
        ("dropb K 8", "without holding"),
        ("pickb K 8", "no piece was dropped"),
        ("pick p B 0", "seat B's rack during seat A's turn"),
        ("pick p A 7", "not a colour"),
        ("pick x A 0", "holds no piece of a player"),
        ("onboard p A 0 Z 99", "not a cell of this board"),
        ("drop p A 0", "without holding"),
        ("onboard p A 0", "expected `OnBoard"),
    ],
)
def test_unreadable_action_names_its_number(action, words):
    text = story("Start P0", "onboard m A 0 K 7", action)
    record, outcome = read(text)
    (problem,) = record.problems.errors
    assert problem.code == "boardspace-action"
    assert problem.message.startswith(f"action 2 `{action}`:") and words in problem.message
    assert (problem.turn, problem.player) == (1, "P0")
    assert outcome.game is None  # the start merchant's turn never completed


def test_turns_before_an_unreadable_action_still_replay():
    _record, outcome = read(story(*OPENING, "onboard p B 2 P 7", "pick m B 0", "pick m B 0"))
    assert [p.code for p in outcome.problems] == ["boardspace-action"]
    assert "`pick m B 0`: `pick` while still holding a merchant" in outcome.problems[0].message
    assert outcome.turns_played == 1


def test_done_while_holding_and_a_drop_into_another_rack_are_refused():
    holding = read(story(*OPENING, "pick s B 0", "done"))[0].problems.errors[0]
    assert "while still holding a stable" in holding.message
    wrong = read(story(*OPENING, "pick s B 0", "drop w B 0"))[0].problems.errors[0]
    assert "puts a stable from rack S B into rack w B" in wrong.message


def test_first_piece_must_be_the_start_merchant():
    (problem,) = read(story("Start P0", "onboard p A 0 P 11", "onboard p A 1 C 3", "done"))[
        0
    ].problems.errors
    assert "first piece is a grey, not the start merchant" in problem.message


def test_start_merchant_must_stand_off_the_edge_row():
    (problem,) = read(
        story("Start P0", "onboard m A 0 B 5", "onboard p A 0 P 11", "onboard p A 1 C 3", "done")
    )[0].problems.errors
    assert problem.code == "bad-setup" and "B5" in problem.message


def test_resignation_ends_the_record():
    record, _ = read(story(*OPENING, "Resign", "onboard p B 2 P 7"))
    assert len(record.turns) == 1 and record.problems.errors == []


@pytest.mark.parametrize(
    "text, words",
    [
        ("story 3 0 , 0 Start P0 .end.", "names no Medina variant"),
        ("story medina three , 0 Start P0 .end.", "expected `<variant> <players>`"),
        ("(;GM[Hive]SU[Hive 1 2 3];P0[0 Start P0])", "not a Medina game"),
        ("(;GM[Medina];P0[0 Start P0])", "no SU[...]"),
        ("(;GM[Medina]SU[Medina-v2 2];P0[0 Start P0])", "no random key"),
    ],
)
def test_unreadable_headers(text, words):
    (problem,) = read(text)[0].problems.errors
    assert problem.code == "boardspace-header" and words in problem.message


def test_sgf_syntax_errors_name_the_line():
    (problem,) = read("(;\nGM[Medina]\nSU[Medina 3\n", "g.sgf")[0].problems.errors
    assert (problem.code, problem.line) == ("boardspace-syntax", 3)
    assert "unclosed" in problem.message


def test_player_count_outside_the_profile():
    (problem,) = read(story("Start P0", header="medina 2 0"))[0].problems.errors
    assert (
        problem.code == "unsupported-player-count" and "boardspace-original-r100" in problem.message
    )


def test_bad_seat_in_start():
    (problem,) = read(story("Start P5"))[0].problems.errors
    assert "'P5' is not a seat P0..P2" in problem.message


def test_player_names_must_be_usable():
    (problem,) = read(STORY, players=["Anna", "Anna", "Cleo"])[0].problems.errors
    assert problem.code == "bad-players"


def test_record_reader_dispatches_both_forms_and_keeps_yaml():
    assert is_boardspace("game.sgf", "") and is_boardspace("x", STORY) and is_boardspace("x", SGF)
    assert not is_boardspace("game.yaml", "medina: record/1\nnotes: a story of, well, a game\n")
    via_reader = parse_record(STORY, "game.txt")
    assert turns_of(via_reader) == STORY_TURNS


def test_ruleset_override_replays_the_same_moves_under_an_edition():
    record, outcome = read(STORY, ruleset="original-2001")
    assert record.ruleset.id == "original-2001" and turns_of(record) == STORY_TURNS
    assert outcome.problems == []
    well_needed = read(STORY, ruleset="second-edition-2014")[0].problems.errors[0]
    assert well_needed.code == "bad-setup"
