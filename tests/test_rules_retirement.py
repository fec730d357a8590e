"""docs/rulings.md §6 colour retirement (param `retirement`): 2001 and 2014 when every player owns a palace
of the colour with an own roof (neutral roofs do not count), DM also when no building of the colour
fits anywhere. Retirement removes buildings only: roofs and stables may still go on its palaces."""

import pytest
from rulekit import Position

SMALL_BOARD = ("board.interior.3=[5,4]",)  # interior B2-F5: a few palaces fill it


def retire_events(game):
    return [e.text.split(" ")[0] for e in game.events if e.kind == "retire"]


@pytest.mark.parametrize("ruleset", ["original-2001", "bsw-dm-2003"])
def test_a_colour_retires_when_every_player_owns_a_palace_of_it(ruleset):
    pos = Position(ruleset, 3, "Anna: grey D4, roof D4", "Ben: grey H8, roof H8", "Cleo: grey M4")
    assert pos.game.retired == [] and pos.legal("roof M4")
    before = [dict(supply) for supply in pos.game.supply]
    pos.play("roof M4")
    assert pos.game.retired == ["grey"] and retire_events(pos.game) == ["grey"]
    for seat, supply in enumerate(pos.game.supply):
        roof = 1 if seat == 2 else 0
        assert supply == {**before[seat], "grey": 0, "roof": before[seat]["roof"] - roof}
    assert pos.reject("grey C10") == "colour-retired"
    assert pos.legal("orange C10") and pos.legal("stable D5")


def test_2014_retirement_counts_own_roofs_only():
    pos = Position(
        "second-edition-2014",
        3,
        "Anna: grey D4",
        "Ben: roof D4",
        "Cleo: grey H8, roof H8",
        "Anna: grey M4, wall A12",
        "Ben: neutral M4, grey C10",
    )
    assert pos.at("M4").owner == -1 and pos.game.retired == []  # Anna owns no grey palace yet
    pos.play("Cleo: wall A11, wall A10", "Anna: roof C10")
    assert pos.game.retired == ["grey"]
    assert pos.reject("grey F10") == "colour-retired"


def test_2014_neutral_roof_on_a_retired_colour():
    pos = Position(
        "second-edition-2014",
        3,
        "Anna: grey B2",
        "Ben: orange C4",
        "Cleo: brown D2, grey H8",
        "Anna: roof H8, grey M4",
        "Ben: roof M4, grey C10",
        "Cleo: roof C10",
    )
    assert pos.game.retired == ["grey"] and pos.at("B2").owner is None  # B2 is blocked, unroofed
    assert pos.moves("neutral") == {"B2", "C4", "D2"}
    assert pos.legal("stable H9")
    pos.play("neutral B2")
    assert pos.at("B2").owner == -1


def test_dm_a_colour_retires_when_no_building_of_it_fits():
    pos = Position(
        "bsw-dm-2003",
        3,
        "Anna: brown B4, brown B3",
        "Ben: grey E5",
        merchant="D4",
        sets=SMALL_BOARD,
    )
    assert pos.moves("black") == {"D2", "E2", "E3", "F3", "D3", "F2"}
    pos.play("orange E2")  # now every empty cell is next to a palace
    assert pos.game.retired == ["black"]
    assert all(supply["black"] == 0 for supply in pos.game.supply)
    assert pos.reject("black D3") == "colour-retired"


def test_dm_no_building_fits_with_an_unroofed_palace_which_may_still_be_roofed():
    pos = Position(
        "bsw-dm-2003",
        3,
        "Anna: brown B4, brown B3",
        "Ben: grey E5, orange E2",
        "Cleo: stable F5, merchant D5",
        merchant="D4",
        sets=SMALL_BOARD,
    )
    assert pos.game.retired == ["black"] and pos.moves("grey") == {"E4"}
    pos.play("Anna: merchant E4")  # grey E5 is blocked and no new grey palace fits
    assert pos.game.retired == ["black", "grey"]
    assert pos.at("E5").owner is None and pos.legal("roof E5")
    pos.play("roof E5")
    assert pos.at("E5").owner == 0 and {p.colour for p in pos.game.palaces if p.owner == 0} == {
        "grey"
    }


def test_2001_does_not_retire_a_colour_that_no_longer_fits():
    pos = Position(
        "original-2001",
        3,
        "Anna: brown B4, brown B3",
        "Ben: grey E5, orange E2",
        merchant="D4",
        sets=SMALL_BOARD,
    )
    assert pos.game.retired == [] and pos.moves("black") == set()
    assert pos.game.supply[2]["black"] == 6
    assert pos.reject("black D3") == "spacing"


def test_dm_a_roof_can_leave_no_room_for_its_colour():
    pos = Position(
        "bsw-dm-2003",
        3,
        "Anna: brown B4, brown B3",
        "Ben: grey E5, orange E2",
        merchant="D4",
        sets=SMALL_BOARD,
    )
    assert pos.moves("brown") == {"B2", "B5", "C3", "C4"}  # only by extending the open palace
    pos.play("Cleo: roof B4")
    assert pos.game.retired == ["black", "brown"]
