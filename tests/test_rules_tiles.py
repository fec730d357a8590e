"""docs/rulings.md §7 tiles: palace tiles (first claim, then only a strictly larger claimed palace; stables
by anyone count; a neutral holder leaves the tile on the board), tower tiles under the three
`towers.reconnect` policies (examples E-7, E-8), 2014 tower merchants and tea awards (E-6)."""

import pytest
from conftest import EDITIONS
from rulekit import Position, supplies

from medina_cli.engine.game import NEUTRAL
from medina_cli.engine.scoring import score_game


def tile_events(game, kind):
    return [e.text for e in game.events if e.kind == kind]


# --- palace tiles --------------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", EDITIONS)
def test_palace_tile_first_claim_then_strictly_larger_only(ruleset):
    pos = Position(ruleset, 3, "grey D4, roof D4, grey H8")
    game = pos.game
    first, second = pos.at("D4"), pos.at("H8")
    assert game.palace_tile["grey"] is first  # the first claim takes it
    steps = [
        ("roof H8", first),  # 1 against 1: a tie keeps the tile
        ("stable H9", second),  # anyone's stable makes the second palace larger: it moves at once
        ("wall A12", second),
        ("stable D5", second),  # 2 against 2
        ("stable D3", first),
    ]
    for token, holder in steps:
        pos.play(token)
        assert game.palace_tile["grey"] is holder, token
    assert len(tile_events(game, "palace-tile")) == 3
    assert score_game(game).players[first.owner].palace_tiles == ["grey"]


@pytest.mark.parametrize("ruleset", EDITIONS)
def test_unclaimed_palaces_do_not_compete_for_the_palace_tile(ruleset):
    pos = Position(ruleset, 3, "grey D4, roof D4, grey H8, grey H9, grey H10, stable H11")
    assert pos.at("H8").size == 4 and pos.at("H8").owner is None
    assert pos.game.palace_tile["grey"] is pos.at("D4")
    assert pos.game.palace_tile["orange"] is None


def test_a_neutral_palace_holds_the_tile_on_the_board():
    pos = Position("second-edition-2014", 3, "Anna: grey D4", "Ben: neutral D4")
    game = pos.game
    assert game.palace_tile["grey"] is pos.at("D4") and pos.at("D4").owner == NEUTRAL
    assert all(p.palace_tiles == [] for p in score_game(game).players)
    pos.play("Cleo: grey H8, roof H8")  # 1 against the neutral palace's 1: it stays on the board
    assert game.palace_tile["grey"] is pos.at("D4")
    pos.play("Anna: stable H9")
    assert game.palace_tile["grey"] is pos.at("H8")
    assert score_game(game).players[2].palace_tiles == ["grey"]


@pytest.mark.parametrize("ruleset", EDITIONS)
def test_a_roof_can_win_a_palace_tile_and_a_tower_tile_at_once(ruleset):
    pos = Position(ruleset, 3, "wall A12, orange B12, roof B12")  # example E-9
    game = pos.game
    assert game.palace_tile["orange"] is pos.at("B12") and game.tower_tile[1] is pos.at("B12")
    sheet = score_game(game).players[pos.at("B12").owner]
    assert (sheet.palace_tiles, sheet.tower_tiles) == (["orange"], [1])


# --- tower tiles ---------------------------------------------------------------------------------


def e7_position(**kw):
    """Example E-7 on tower 1 (NW): brown B11 touches wall A11, orange D12 touches D13, grey C9
    gets a stable B9 beside wall A9."""
    return Position(
        "second-edition-2014",
        3,
        "Anna: wall A12",
        "Ben: wall A11",
        "Cleo: brown B11, wall A10",
        "Anna: roof B11, wall A9",
        **kw,
    )


def test_e7_tower_tile_by_roof_wall_and_stable_with_merchants_for_the_first_holder_only():
    pos = e7_position()
    game = pos.game
    assert game.tower_tile[1] is pos.at("B11") and game.supply[0]["merchant"] == 8 + 3
    pos.play("Ben: orange D12, wall B13", "Cleo: wall C13, wall D13")
    assert game.tower_tile[1] is pos.at("B11")  # a wall beside an unroofed palace awards nothing
    pos.play("Anna: grey C9, wall A8", "Ben: roof D12, wall E13")
    assert game.tower_tile[1] is pos.at("D12") and game.supply[1]["merchant"] == 8
    pos.play("Cleo: roof C9, stable B9")
    assert game.tower_tile[1] is pos.at("C9")
    assert [p.tower_tiles for p in score_game(game).players] == [[], [], [1]]
    assert tile_events(game, "tower-merchants") == ["Anna takes the 3 merchants of tower 1"]


def test_tower_merchants_can_be_placed_in_the_same_turn():
    sets = supplies(3, per_colour=6, roofs=4, walls=12)  # nobody holds a merchant at the start
    pos = Position(
        "second-edition-2014",
        3,
        "Anna: wall A12",
        "Ben: wall A11",
        "Cleo: brown B11, wall A10",
        "Anna: roof B11",
        sets=sets,
    )
    assert pos.game.supply[0]["merchant"] == 3 and pos.legal("merchant J8")
    pos.play("merchant J8")
    assert pos.replay().problems == []


def test_a_neutral_first_holder_sends_the_tower_merchants_out_of_the_game():
    pos = Position(
        "second-edition-2014",
        3,
        "Anna: wall A12",
        "Ben: orange B12",
        "Cleo: neutral B12, brown D11",
    )
    game = pos.game
    assert game.tower_tile[1] is pos.at("B12") and pos.at("B12").owner == NEUTRAL
    assert [s["merchant"] for s in game.supply] == [8, 8, 8]
    assert tile_events(game, "tower-merchants") == [
        "the 3 merchants of tower 1 leave the game (neutral first holder)"
    ]
    pos.play("Anna: roof D11, wall B13", "Ben: wall C13, wall D13")
    assert game.tower_tile[1] is pos.at("B12")
    pos.play("Cleo: stable D12")  # joins Anna's brown D11 beside wall D13
    assert game.tower_tile[1] is pos.at("D11") and game.supply[0]["merchant"] == 8
    assert score_game(game).players[0].tower_tiles == [1]


# E-8 on tower 3 (NE): the north arm runs west from R13, the east arm south. Orange Q12 is claimed
# first and touches Q13; brown M12 is claimed next; then the arm reaches M13.
E8 = "orange Q12, roof Q12, brown M12, roof M12, wall Q13, wall P13, wall O13, wall N13, wall M13"
POLICIES = {  # ruleset, --set -> (case 1: the other arm, case 2: the same arm again) -> palace holding tile 3
    ("original-2001", None): ("M12", "M12"),
    ("original-2001", "every_new_contact"): ("Q12", "Q12"),
    ("original-2001", "once_per_palace_arm"): ("Q12", "M12"),
    ("bsw-dm-2003", None): ("Q12", "Q12"),
    ("bsw-dm-2003", "once_per_palace_arm"): ("Q12", "M12"),
    ("second-edition-2014", None): ("Q12", "Q12"),
    ("second-edition-2014", "once_per_palace_arm"): ("Q12", "M12"),
    ("second-edition-2014", "once_per_palace_tower"): ("M12", "M12"),
}


def e8_position(ruleset, policy):
    pos = Position(
        ruleset, 3, *E8.split(", ")[:5], sets=(f"towers.reconnect={policy}",) if policy else ()
    )
    assert pos.game.tower_tile[3] is pos.at("Q12")  # the wall's placer need not own the palace
    pos.play(*E8.split(", ")[5:])
    assert pos.game.tower_tile[3] is pos.at("M12")
    return pos


@pytest.mark.parametrize("ruleset, policy", POLICIES, ids=lambda v: str(v))
def test_e8_reconnect_via_the_other_arm(ruleset, policy):
    pos = e8_position(ruleset, policy)
    pos.play("wall R12")
    assert pos.game.tower_tile[3] is pos.at(POLICIES[ruleset, policy][0])


@pytest.mark.parametrize("ruleset, policy", POLICIES, ids=lambda v: str(v))
def test_e8_reconnect_along_the_same_arm(ruleset, policy):
    pos = e8_position(ruleset, policy)
    pos.play("stable P12")  # joins orange Q12 and touches P13 of the same (north) arm
    assert pos.at("P12") is pos.at("Q12")
    assert pos.game.tower_tile[3] is pos.at(POLICIES[ruleset, policy][1])


@pytest.mark.parametrize("ruleset", EDITIONS)
def test_a_roof_wins_every_tower_its_palace_touches(ruleset):
    # orange B7-B6-B5 touches A7 (tower 1's run down the west side) and A5 (tower 4's run up it)
    walls = [f"wall A{row}" for row in range(12, 6, -1)] + [f"wall A{row}" for row in range(2, 6)]
    pos = Position(ruleset, 3, *walls, "orange B7, orange B6, orange B5")
    assert pos.game.tower_tile[1] is None and pos.game.tower_tile[4] is None
    pos.play("roof B6")
    assert pos.game.tower_tile[1] is pos.at("B6") and pos.game.tower_tile[4] is pos.at("B6")


# --- tea awards (2014) ---------------------------------------------------------------------------


def test_e6_tea_awards_3_2_1_0_and_a_neutral_claim_discards_its_award():
    pos = Position(
        "second-edition-2014", 3, "Anna: purple D4", "Ben: wall A12", "Cleo: roof D4, purple H8"
    )
    game = pos.game
    assert game.tea == [0, 0, 3]
    pos.play("Anna: neutral H8, purple M4")
    assert (
        game.tea == [0, 0, 3]
        and tile_events(game, "tea")[-1] == "2 tea tiles for the neutral claim leave the game"
    )
    pos.play("Ben: roof M4, purple C10")
    assert game.tea == [0, 1, 3]
    pos.play("Cleo: tea, wall A11", "Anna: roof C10, wall A10")
    assert game.tea == [0, 1, 2]  # the fourth claim gets nothing


@pytest.mark.parametrize("colour", ["grey", "brown", "orange"])
def test_only_purple_claims_earn_tea(colour):
    pos = Position("second-edition-2014", 3, f"Anna: {colour} D4", "Ben: roof D4")
    assert pos.game.tea == [0, 0, 0]
