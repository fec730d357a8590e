"""docs/rulings.md §5 turns: two placements; fewer only when forced by the position, by a tea tile, or by
the 2014 opening; tea rules; pass only when unable; seat order; nothing after the game's end."""

import pytest
from conftest import EDITIONS
from rulekit import BEN_STUCK, STUCK_AFTER_ONE, Position, supplies

from medina_cli.engine.game import IllegalPlacement


@pytest.mark.parametrize("ruleset", ["original-2001", "bsw-dm-2003"])
def test_a_turn_is_two_placements(ruleset):
    pos = Position(ruleset, 3)
    assert pos.problem("Anna: wall A12, wall A11, wall A10") == (
        "too-many-placements",
        1,
        3,
        "Anna",
    )
    assert pos.problem("Anna: wall A12", "Ben: wall B13, wall C13") == (
        "too-few-placements",
        1,
        None,
        "Anna",
    )
    assert pos.errors_after("Anna: wall A12, wall A11") == []


def test_a_2014_turn_after_the_opening_is_two_placements():
    pos = Position("second-edition-2014", 3, "Anna: wall A12", "Ben: wall A11")
    assert pos.problem("Cleo: wall A10, wall A9, wall A8") == ("too-many-placements", 3, 3, "Cleo")
    assert pos.problem("Cleo: wall A10", "Anna: wall A9, wall A8") == (
        "too-few-placements",
        3,
        None,
        "Cleo",
    )
    assert pos.errors_after("Cleo: wall A10, wall A9") == []


def test_2014_opening_two_players_first_player_places_one():
    pos = Position("second-edition-2014", 2)
    assert pos.problem("Anna: wall A11, wall A10") == ("too-many-placements", 1, 2, "Anna")
    pos.play("Anna: wall A11")
    assert pos.mover == "Ben"
    assert pos.problem("Ben: wall A10", "Anna: wall A9, wall A8") == (
        "too-few-placements",
        2,
        None,
        "Ben",
    )
    assert pos.errors_after("Ben: wall A10, wall A9") == []


@pytest.mark.parametrize("players", [3, 4])
def test_2014_opening_three_or_four_players_first_two_place_one(players):
    pos = Position("second-edition-2014", players, "Anna: wall A12")
    assert pos.mover == "Ben"
    assert pos.problem("Ben: wall A11, wall A10") == ("too-many-placements", 2, 2, "Ben")
    pos.play("Ben: wall A11")
    assert pos.problem("Cleo: wall A10", "Anna: wall A9, wall A8") == (
        "too-few-placements",
        3,
        None,
        "Cleo",
    )
    assert pos.errors_after("Cleo: wall A10, wall A9") == []


@pytest.mark.parametrize("ruleset", ["original-2001", "bsw-dm-2003"])
def test_no_opening_rule_before_2014(ruleset):
    assert Position(ruleset, 3).problem("Anna: wall A12", "Ben: wall B13, wall C13") == (
        "too-few-placements",
        1,
        None,
        "Anna",
    )


ONE_PIECE_LEFT = {  # three walls each; then (turn, player) starts a turn with a single piece left
    "original-2001": (
        ("Anna: wall A12, wall A11", "Ben: wall B13, wall C13", "Cleo: wall Q13, wall P13"),
        4,
        "Anna",
    ),
    "bsw-dm-2003": (
        ("Anna: wall A12, wall A11", "Ben: wall B13, wall C13", "Cleo: wall Q13, wall P13"),
        4,
        "Anna",
    ),
    "second-edition-2014": (
        (
            "Anna: wall A12",
            "Ben: wall A11",
            "Cleo: wall A10, wall A9",
            "Anna: wall A8, wall A7",
            "Ben: wall A6, wall A5",
        ),
        6,
        "Cleo",
    ),
}


@pytest.mark.parametrize("ruleset", EDITIONS)
def test_a_player_with_one_piece_left_places_one(ruleset):
    turns, turn, name = ONE_PIECE_LEFT[ruleset]
    pos = Position(ruleset, 3, *turns, sets=supplies(3, walls=3))
    assert pos.mover == name and sum(pos.game.supply[pos.game.seat_to_move].values()) == 1
    assert pos.problem(f"{name}: wall B1, wall C1") == ("too-many-placements", turn, 2, name)
    pos.play(f"{name}: wall B1")
    assert pos.mover != name and pos.replay().problems == []


@pytest.mark.parametrize("ruleset", ["original-2001", "bsw-dm-2003"])
def test_a_turn_ends_when_nothing_is_legal_after_the_first_placement(ruleset):
    pos = STUCK_AFTER_ONE.position(ruleset)
    assert pos.mover == "Ben" and pos.moves("roof") == set() and pos.game.supply[1]["roof"] == 2
    assert pos.problem("Ben: stable C6, roof B6") == ("too-many-placements", 8, 2, "Ben")
    pos.play("Ben: stable C6")
    assert pos.mover == "Cleo" and pos.game.supply[1]["roof"] == 2
    assert pos.errors_after() == []


@pytest.mark.parametrize("ruleset", ["original-2001", "bsw-dm-2003"])
def test_pass_only_when_unable(ruleset):
    pos = BEN_STUCK.position(ruleset)
    assert pos.mover == "Cleo" and not pos.game.can_place(1)
    assert [e.text for e in pos.game.events if e.kind == "pass"] == [
        "Ben cannot place anything and is skipped"
    ]
    assert pos.errors_after("Ben: pass", "Cleo: black I7, roof I7") == []  # pass may be written ...
    assert pos.errors_after("Cleo: black I7, roof I7") == []  # ... or left out
    assert pos.problem("Ben: pass", "Cleo: pass") == ("pass-while-able", 9, None, "Cleo")


@pytest.mark.parametrize("ruleset", EDITIONS)
def test_pass_while_a_placement_exists_is_illegal(ruleset):
    assert Position(ruleset, 3).problem("Anna: pass") == ("pass-while-able", 1, None, "Anna")


@pytest.mark.parametrize("ruleset", EDITIONS)
def test_leaving_out_a_player_who_can_place_is_out_of_turn(ruleset):
    pos = Position(
        ruleset,
        3,
        "Anna: wall A12" if ruleset == "second-edition-2014" else "Anna: wall A12, wall A11",
    )
    assert pos.problem("Cleo: wall B13, wall C13") == ("out-of-turn", 2, None, "Cleo")
    assert pos.problem("Anna: wall B13, wall C13") == ("out-of-turn", 2, None, "Anna")


@pytest.mark.parametrize("ruleset", ["original-2001", "bsw-dm-2003"])
def test_game_end_when_nobody_can_place_and_nothing_after_it(ruleset):
    pos = BEN_STUCK.position(ruleset)
    pos.play("Cleo: black I7, roof I7")
    assert pos.mover == "Cleo"  # Anna and Ben are skipped again
    pos.play("Cleo: orange C10", "Anna: roof C10")  # Ben still cannot roof anything
    game = pos.game
    assert game.is_over() and game.events[-1].kind == "game-end"
    assert game.supply[1]["roof"] == 3  # unplaceable pieces simply stay
    assert pos.replay().finished and pos.replay().warnings == []
    assert pos.reject("roof C10") == "game-over"
    outcome = pos.replay("Ben: pass", "Cleo: pass")  # truthful: nobody can place
    assert outcome.problems == [] and outcome.finished and outcome.turns_played == 12
    assert pos.problem("Ben: pass", "Cleo: orange C11") == ("game-over", 12, None, "Cleo")
    unreadable = pos.replay(
        "Ben: pass", "Cleo: orange"
    )  # a turn that cannot be replayed: not finished
    assert [p.code for p in unreadable.problems] == ["bad-placement"] and not unreadable.finished


@pytest.mark.parametrize("ruleset", EDITIONS)
def test_a_pass_after_the_game_has_ended_is_accepted_but_a_placement_is_not(ruleset):
    pos = Position(
        ruleset, 3, sets=supplies(3, stables=1)
    )  # over at once: a stable needs a building to touch
    assert pos.game.is_over()
    outcome = pos.replay("Anna: pass", "Ben: pass", "Anna: pass")
    assert outcome.problems == [] and outcome.finished and outcome.warnings == []
    assert pos.problem("Anna: pass", "Ben: stable K7") == ("game-over", 2, None, "Ben")
    assert pos.problem("Cleo: pass", "Anna: tea") == ("game-over", 2, None, "Anna")


def test_an_unfinished_record_is_valid_with_a_warning():
    outcome = Position("original-2001", 3, "Anna: wall A12, wall A11").replay()
    assert outcome.problems == [] and not outcome.finished
    assert [w.code for w in outcome.warnings] == ["unfinished"]


# --- tea (2014) ----------------------------------------------------------------------------------


def tea_position():
    """Cleo claims the first purple palace and takes 3 tea tiles."""
    return Position("second-edition-2014", 3, "Anna: purple D4", "Ben: grey H8", "Cleo: roof D4")


def test_a_tea_tile_won_by_the_first_placement_may_replace_the_second():
    pos = tea_position()
    assert pos.game.tea == [0, 0, 3] and pos.legal("tea")
    pos.play("tea")
    assert pos.mover == "Anna" and pos.game.tea == [0, 0, 2]


def test_tea_may_stand_first_or_second_but_only_once_per_turn():
    pos = tea_position().play("wall A12", "Anna: wall A11, wall A10", "Ben: wall A9, wall A8")
    assert pos.errors_after("Cleo: tea, wall B13") == []
    assert pos.errors_after("Cleo: wall B13, tea") == []
    assert pos.problem("Cleo: tea, tea") == ("tea-not-allowed", 6, 2, "Cleo")
    # one piece always
    assert pos.problem("Cleo: tea", "Anna: wall B13, wall C13") == (
        "too-few-placements",
        6,
        None,
        "Cleo",
    )
    pos.play("Cleo: tea")
    assert pos.reject("tea") == "tea-not-allowed"
    assert pos.game.tea[2] == 2


def test_tea_needs_a_tile():
    pos = tea_position().play("wall A12")
    assert pos.mover == "Anna" and pos.reject("tea") == "tea-not-allowed"
    assert Position("original-2001", 3).reject("tea") == "tea-not-allowed"


def test_no_tea_in_an_opening_single_placement_turn():
    pos = Position("second-edition-2014", 3, "Anna: purple D4")
    assert pos.problem("Ben: roof D4, tea") == ("too-many-placements", 2, 2, "Ben")
    pos.game.tea[1] = (
        1  # even a player holding a tile (impossible by the rules) may not use it here
    )
    assert not pos.game.can_tea()
    with pytest.raises(IllegalPlacement) as refused:
        pos.game.push("tea")
    assert refused.value.code == "tea-not-allowed"


def test_tea_cannot_replace_a_placement_that_was_impossible_anyway():
    sets = supplies(2, per_colour=1, roofs=1, walls=1)
    pos = Position(
        "second-edition-2014",
        2,
        "Anna: purple D4",
        "Ben: roof D4, wall A11",
        "Anna: grey H8, brown M4",
        "Ben: grey H9, purple C9",
        "Anna: orange F9, wall A10",
        "Ben: tea, brown M5",
        "Anna: roof H8",
        sets=sets,
    )
    assert (
        pos.game.supply[1] == {**dict.fromkeys(pos.game.supply[1], 0), "orange": 1}
        and pos.game.tea[1] == 2
    )
    assert pos.problem("Ben: orange F10, tea") == ("too-many-placements", 8, 2, "Ben")


def test_a_game_where_nobody_can_place_at_the_start_is_over_at_once():
    pos = Position(
        "original-2001", 3, sets=supplies(3, stables=1)
    )  # a stable needs a building to touch
    assert not any(pos.game.can_place(seat) for seat in range(3))
    assert pos.game.is_over() and pos.moves("stable") == set()
    assert pos.replay().finished and pos.replay().warnings == []
