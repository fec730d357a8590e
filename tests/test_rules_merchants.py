"""docs/rulings.md §4 merchants: extend an end of the live chain, never touch two merchants; a new chain
only when both ends are dead, on a cell with no merchant neighbour (param
`merchants.new_chain_max_neighbours`), edge row allowed; only the newest chain is live."""

import pytest
from conftest import EDITIONS
from rulekit import Position

# start merchant C3; C3-C2-B2 is dead: B3 would touch two merchants, C4 and D3 hold grey
DEAD_CHAIN = "grey D3, grey D4, merchant C2, merchant B2, grey C4"


@pytest.mark.parametrize("ruleset", EDITIONS)
def test_a_lone_merchant_is_an_end_in_every_direction(ruleset):
    pos = Position(ruleset, 3)
    assert pos.moves("merchant") == {"J6", "J8", "I7", "K7"}
    pos.play("merchant J8")
    assert pos.moves("merchant") == {"J9", "I8", "K8", "J6", "I7", "K7"}


@pytest.mark.parametrize("ruleset", EDITIONS)
def test_a_merchant_must_extend_an_end_of_the_chain(ruleset):
    pos = Position(ruleset, 3, "merchant J8, merchant J9")
    assert pos.reject("merchant K8") == "merchant-not-at-chain-end"  # beside the middle
    assert (
        pos.reject("merchant C3") == "merchant-not-at-chain-end"
    )  # a new chain while this one lives
    assert pos.legal("merchant J10") and pos.legal("merchant K9") and pos.legal("merchant J6")


@pytest.mark.parametrize("ruleset", EDITIONS)
def test_a_merchant_may_not_touch_two_merchants(ruleset):
    pos = Position(ruleset, 3, "merchant J8, merchant K8")
    assert pos.reject("merchant K7") == "merchant-two-neighbours"  # next to both ends J7 and K8
    assert pos.legal("merchant L8") and pos.legal("merchant J6")


@pytest.mark.parametrize("ruleset", EDITIONS)
def test_a_new_chain_starts_only_when_both_ends_are_dead(ruleset):
    pos = Position(ruleset, 3, DEAD_CHAIN, merchant="C3")
    cells = pos.moves("merchant")
    assert {"B4", "H8", "Q12", "B12", "Q2"} <= cells  # anywhere, edge row included
    assert not cells & {"B3", "D2"} and {"C5", "E4"} <= cells
    assert pos.reject("merchant D2") == "merchant-new-chain"  # touches C2
    assert pos.reject("merchant B3") == "merchant-two-neighbours"
    pos.play("merchant H8")
    assert pos.moves("merchant") == {"H7", "H9", "G8", "I8"}  # only the newest chain is live
    assert pos.reject("merchant B4") == "merchant-not-at-chain-end"


@pytest.mark.parametrize("ruleset", EDITIONS)
def test_the_two_neighbour_ban_counts_dead_chains(ruleset):
    pos = Position(ruleset, 3, DEAD_CHAIN, "merchant B4", merchant="C3")
    assert pos.reject("merchant B3") == "merchant-two-neighbours"
    assert pos.moves("merchant") == {"B5"}


@pytest.mark.parametrize("ruleset", EDITIONS)
def test_new_chain_max_neighbours_is_a_ruleset_parameter(ruleset):
    pos = Position(
        ruleset, 3, DEAD_CHAIN, merchant="C3", sets=("merchants.new_chain_max_neighbours=1",)
    )
    assert pos.legal("merchant D2") and pos.legal("merchant H8")
    assert pos.reject("merchant B3") == "merchant-two-neighbours"
