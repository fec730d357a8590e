"""docs/rulings.md §3 (palaces, spacing, the well zone, which squares take which pieces) and §4 buildings
(the open palace must be extended; a new palace only once it is roofed or blocked)."""

import pytest
from conftest import EDITIONS
from rulekit import BLOCKED_GREY_B2, Position


@pytest.mark.parametrize("ruleset", EDITIONS)
def test_spacing_orthogonal_and_diagonal(ruleset):
    pos = Position(ruleset, 3, "grey D4")
    assert pos.reject("orange D5") == "spacing"
    assert pos.reject("orange E5") == "spacing"
    assert pos.reject("orange C3") == "spacing"
    assert pos.legal("orange F4") and pos.legal("orange D6") and pos.legal("orange F6")


@pytest.mark.parametrize("ruleset", EDITIONS)
def test_spacing_counts_stables_as_part_of_the_palace(ruleset):
    pos = Position(ruleset, 3, "grey D4, stable D5")
    assert pos.reject("orange E6") == "spacing"
    assert pos.reject("orange C6") == "spacing"
    assert pos.legal("orange D7") and pos.legal("orange F6")


@pytest.mark.parametrize("ruleset", EDITIONS)
def test_spacing_applies_to_roofed_palaces_of_any_colour(ruleset):
    pos = Position(ruleset, 3, "grey D4, roof D4")
    assert pos.reject("grey D5") == "spacing"  # a roofed palace takes no more buildings
    assert pos.reject("orange E3") == "spacing"
    assert pos.legal("grey D6") and pos.legal("orange F4")


@pytest.mark.parametrize("ruleset", EDITIONS)
def test_a_new_palace_of_the_same_colour_may_not_touch_the_blocked_one(ruleset):
    pos = Position(ruleset, 3, BLOCKED_GREY_B2)
    assert pos.reject("grey C3") == "spacing"
    assert pos.legal("grey H8")


@pytest.mark.parametrize("ruleset", EDITIONS)
def test_a_building_must_extend_the_open_palace_of_its_colour(ruleset):
    pos = Position(ruleset, 3, "grey D4")
    assert pos.moves("grey") == {"C4", "E4", "D3", "D5"}
    assert pos.reject("grey H8") == "building-not-adjacent"
    assert pos.reject("grey E5") == "building-not-adjacent"  # diagonal is not adjacent
    pos.play("grey E4")
    assert pos.game.palace_of("E4") is pos.game.palace_of("D4")


@pytest.mark.parametrize("ruleset", EDITIONS)
def test_each_colour_has_its_own_open_palace(ruleset):
    pos = Position(ruleset, 3, "grey D4, orange H8")
    assert pos.legal("grey D5") and pos.legal("orange H9")
    assert pos.reject("orange D7") == "building-not-adjacent"
    assert pos.legal("brown M4")  # no brown palace yet: anywhere that keeps the spacing


@pytest.mark.parametrize("ruleset", EDITIONS)
def test_touching_only_a_stable_does_not_extend(ruleset):
    pos = Position(ruleset, 3, "grey D4, stable D5")
    assert pos.reject("grey D6") == "building-not-adjacent"
    assert pos.reject("grey C5") == "building-not-adjacent"
    assert pos.moves("grey") == {"C4", "E4", "D3"}


@pytest.mark.parametrize("ruleset", EDITIONS)
def test_a_new_palace_once_the_open_one_is_roofed(ruleset):
    pos = Position(ruleset, 3, "grey D4, roof D4")
    assert pos.legal("grey H8")
    pos.play("grey H8")
    assert pos.reject("grey M4") == "building-not-adjacent"  # the new palace is now the open one


@pytest.mark.parametrize("ruleset", EDITIONS)
def test_a_new_palace_once_the_open_one_is_blocked(ruleset):
    pos = Position(ruleset, 3, BLOCKED_GREY_B2)
    assert pos.legal("grey H8") and pos.legal("grey N3")
    pos.play("grey H8")
    assert pos.reject("grey N3") == "building-not-adjacent"
    assert pos.legal("grey H9")


@pytest.mark.parametrize("ruleset", EDITIONS)
def test_edge_row_takes_buildings_but_ring_and_towers_do_not(ruleset):
    pos = Position(ruleset, 3)
    assert pos.legal("grey B2") and pos.legal("grey Q12") and pos.legal("orange B7")
    assert pos.reject("grey A5") == "wrong-square"
    assert pos.reject("grey A13") == "wrong-square"
    assert pos.reject("stable H1") == "wrong-square"
    assert pos.reject("merchant R6") == "wrong-square"
    assert pos.reject("wall H6") == "wrong-square"
    assert pos.reject("wall R13") == "wrong-square"


@pytest.mark.parametrize("ruleset", EDITIONS)
def test_occupied_cells_take_nothing(ruleset):
    pos = Position(ruleset, 3, "grey D4, wall A12")
    assert pos.reject("orange J7") == "cell-occupied"  # the start merchant
    assert pos.reject("grey D4") == "cell-occupied"
    assert pos.reject("wall A12") == "cell-occupied"
    assert pos.reject("merchant D4") == "cell-occupied"


def test_well_zone_forbids_buildings_and_stables_not_merchants():
    pos = Position("second-edition-2014", 3, merchant="H8", well="H6")
    for cell in ("G5", "H5", "I5", "G6", "I6", "G7", "H7", "I7"):
        assert pos.reject(f"grey {cell}") == "well-zone", cell
    assert pos.reject("grey H6") == "cell-occupied"
    assert pos.legal("grey H4") and pos.legal("grey F6") and pos.legal("grey J7")
    assert pos.legal("merchant H7")  # extends the chain from H8 right beside the well
    pos.play("grey F6, merchant H7")
    assert pos.reject("stable G6") == "well-zone"
    assert pos.legal("stable F5") and pos.legal("stable E6")


@pytest.mark.parametrize("ruleset", ["original-2001", "bsw-dm-2003"])
def test_no_well_zone_without_a_well(ruleset):
    pos = Position(ruleset, 3, merchant="H8")
    assert pos.game.well is None
    assert all(pos.legal(f"grey {cell}") for cell in ("G5", "H6", "H7", "I7"))


def test_the_refusals_say_an_before_a_colour_that_starts_with_a_vowel():
    from medina_cli.engine.placement import IllegalPlacement

    def refusal(pos: Position, placement: str) -> str:
        with pytest.raises(IllegalPlacement) as refused:
            pos.game.push(placement)
        return refused.value.message

    pos = Position("original-2001", 3, "grey D4, orange H8")
    assert "so an orange building must extend it" in refusal(pos, "orange D7")
    assert "so a grey building must extend it" in refusal(pos, "grey H11")
    assert "an orange goes inside the city, not on the wall ring" in refusal(pos, "orange A5")
    assert "a stable goes inside the city, not on the wall ring" in refusal(pos, "stable A5")
    pos = Position("original-2001", 3, "orange D4, roof D4, orange H8")
    owner = pos.game.players[pos.at("D4").owner]
    pos.until(owner)
    assert refusal(pos, "roof H8").endswith(
        f"{owner} already owns an orange palace (one roof per colour)"
    )
