"""docs/rulings.md §3-4 stables: orthogonally next to a building of any palace (roofed or not, anyone's),
joining that palace, keeping the spacing to every other palace."""

import pytest
from conftest import EDITIONS
from rulekit import Position


@pytest.mark.parametrize("ruleset", EDITIONS)
def test_a_stable_touches_a_building_orthogonally_and_joins_its_palace(ruleset):
    pos = Position(ruleset, 3, "grey D4, grey E4")
    assert pos.moves("stable") == {"C4", "F4", "D3", "E3", "D5", "E5"}
    assert pos.reject("stable C5") == "stable-not-adjacent"  # diagonal only
    assert pos.reject("stable H8") == "stable-not-adjacent"
    pos.play("stable E5")
    palace = pos.at("D4")
    assert pos.at("E5") is palace
    assert (palace.buildings.bit_count(), palace.stables.bit_count(), palace.size) == (2, 1, 3)


@pytest.mark.parametrize("ruleset", EDITIONS)
def test_a_stable_next_to_a_stable_only_is_refused_but_own_stables_may_touch(ruleset):
    pos = Position(ruleset, 3, "grey D4, grey E4, stable D5")
    assert pos.reject("stable D6") == "stable-not-adjacent"
    assert pos.reject("stable C5") == "stable-not-adjacent"
    assert pos.legal("stable E5")  # next to building E4 and to its own palace's stable D5


@pytest.mark.parametrize("ruleset", EDITIONS)
def test_a_stable_may_join_a_roofed_palace_of_another_player(ruleset):
    pos = Position(ruleset, 3, "grey D4, roof D4")
    owner = pos.at("D4").owner
    pos.until(next(name for seat, name in enumerate(pos.game.players) if seat != owner))
    assert pos.legal("stable D5")
    pos.play("stable D5")
    assert pos.at("D5") is pos.at("D4") and pos.at("D4").owner == owner


@pytest.mark.parametrize("ruleset", EDITIONS)
def test_a_stable_keeps_the_spacing_to_other_palaces(ruleset):
    pos = Position(ruleset, 3, "grey D4, orange F4")
    assert pos.reject("stable E4") == "spacing"  # touches both palaces
    pos = Position(ruleset, 3, "grey D4, orange F5")
    assert pos.reject("stable E4") == "spacing"  # diagonal to orange F5
    assert pos.legal("stable D5") and pos.legal("stable G5")
    pos = Position(ruleset, 3, "grey D4, orange G4")
    assert pos.legal("stable E4") and pos.legal("stable F4")
    pos.play("stable E4")
    assert pos.reject("stable F4") == "spacing"  # would touch grey's stable E4
    assert pos.legal("stable G5") and pos.legal("stable H4")


@pytest.mark.parametrize("ruleset", EDITIONS)
def test_a_stable_may_stand_on_the_edge_row_but_not_on_the_ring(ruleset):
    pos = Position(ruleset, 3, "grey C2")
    assert pos.moves("stable") == {"B2", "D2", "C3"}
    assert pos.reject("stable C1") == "wrong-square"
