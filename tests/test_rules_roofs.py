"""docs/rulings.md §4 roofs and neutral roofs: any building of an unroofed palace (blocked ones too), one
own roof per colour, never a second roof; neutral roofs only in 2014 with 2-3 players, on any
unroofed palace, belonging to nobody."""

import pytest
from conftest import EDITIONS
from rulekit import BLOCKED_GREY_B2, Position

from medina_cli.engine.game import NEUTRAL
from medina_cli.engine.placement import IllegalPlacement


@pytest.mark.parametrize("ruleset", EDITIONS)
def test_a_roof_may_go_on_any_building_of_an_unroofed_palace(ruleset):
    pos = Position(ruleset, 3, "grey D4, grey D5, grey D6, stable E5")
    assert pos.moves("roof") == {"D4", "D5", "D6"}
    assert pos.reject("roof E5") == "roof-not-on-building"  # a stable is not a building
    assert pos.reject("roof H8") == "roof-not-on-building"
    assert pos.reject("roof J7") == "roof-not-on-building"  # the start merchant
    assert pos.reject("roof A5") == "wrong-square"
    roofer = pos.mover
    pos.play("roof D5")
    palace = pos.at("D4")
    assert palace.owner == pos.game.players.index(roofer) and palace.roof == pos.geo.parse("D5")
    assert palace is pos.at("D6") and palace.buildings.bit_count() == 3


@pytest.mark.parametrize("ruleset", EDITIONS)
def test_a_blocked_palace_may_be_roofed(ruleset):
    pos = Position(ruleset, 3, BLOCKED_GREY_B2)
    assert "B3" not in pos.moves("grey") and "C2" not in pos.moves("grey")
    assert pos.legal("roof B2")
    pos.play("roof B2")
    assert pos.at("B2").owner is not None


@pytest.mark.parametrize("ruleset", EDITIONS)
def test_no_second_roof_on_a_roofed_palace(ruleset):
    pos = Position(ruleset, 3, "grey D4, grey D5, roof D4")
    assert pos.reject("roof D5") == "roof-on-roofed-palace"
    assert pos.reject("roof D4") == "roof-on-roofed-palace"


@pytest.mark.parametrize("ruleset", EDITIONS)
def test_one_own_roof_per_colour(ruleset):
    pos = Position(ruleset, 3, "grey D4, roof D4, grey H8")
    owner = pos.game.players[pos.at("D4").owner]
    pos.until(owner)
    assert pos.reject("roof H8") == "roof-colour-owned"
    assert pos.legal("orange M4")
    other = next(name for name in pos.game.players if name != owner)
    pos.until(other)
    assert pos.legal("roof H8")


@pytest.mark.parametrize("ruleset", ["original-2001", "bsw-dm-2003"])
@pytest.mark.parametrize("players", [3, 4])
def test_no_neutral_roofs_before_2014(ruleset, players):
    pos = Position(ruleset, players, "grey D4")
    assert pos.game.supply[pos.game.seat_to_move]["neutral"] == 0
    assert pos.reject("neutral D4") == "not-in-supply"
    assert (
        _refusal(pos, "neutral D4")
        == f"neutral D4: {ruleset} has no neutral roofs for {players} players"
    )


def test_no_neutral_roofs_in_2014_with_four_players():
    pos = Position("second-edition-2014", 4, "grey D4")
    assert pos.reject("neutral D4") == "not-in-supply"
    assert (
        _refusal(pos, "neutral D4")
        == "neutral D4: second-edition-2014 has no neutral roofs for 4 players"
    )


@pytest.mark.parametrize("players, count", [(2, 2), (3, 1)])
def test_neutral_roofs_in_2014_with_two_or_three_players(players, count):
    pos = Position("second-edition-2014", players)
    assert all(supply["neutral"] == count for supply in pos.game.supply)


def test_neutral_roof_goes_on_any_unroofed_palace_and_belongs_to_nobody():
    pos = Position(
        "second-edition-2014",
        2,
        "Anna: grey D4",
        "Ben: orange H8, grey D5",
        "Anna: roof D4, brown M4",
    )
    assert pos.legal("neutral H8") and pos.legal("neutral M4")
    assert pos.reject("neutral D5") == "roof-on-roofed-palace"
    assert pos.reject("neutral F4") == "roof-not-on-building"
    pos.play("Ben: neutral H8, orange C9")
    assert pos.at("H8").owner == NEUTRAL and pos.at("H8").colour == "orange"
    assert not any(p.owner == 1 for p in pos.game.palaces)
    pos.until("Ben")
    assert pos.legal("neutral C9")  # repeats allowed, the same colour too
    pos.play("Ben: neutral C9")
    assert pos.at("C9").owner == NEUTRAL and pos.game.supply[1]["neutral"] == 0
    assert pos.reject("neutral M4") == "not-in-supply"
    assert (
        _refusal(pos, "neutral M4") == "neutral M4: Ben has no neutral left"
    )  # used up: the player's words


def _refusal(pos, token: str) -> str:
    """Why the engine refuses `token` to the player to move, in its words."""
    game = pos.game.copy()
    with pytest.raises(IllegalPlacement) as refused:
        game.push(token)
    return refused.value.message


def test_neutral_roof_on_a_colour_the_player_owns_and_own_roof_after_a_neutral_one():
    pos = Position(
        "second-edition-2014", 3, "Anna: grey D4", "Ben: grey D5", "Cleo: roof D4, grey F9"
    )
    assert pos.at("D4").owner == 2
    pos.play("Anna: orange H8, brown M4", "Ben: neutral H8, orange L9")
    assert pos.at("H8").owner == NEUTRAL
    pos.until("Cleo")
    assert pos.legal("neutral F9")  # Cleo owns grey; a neutral roof ignores the colours owned
    pos.until("Ben")
    assert pos.legal("roof L9")  # the neutral orange palace does not count as Ben's orange


@pytest.mark.parametrize("ruleset", EDITIONS)
def test_no_roof_left_in_the_supply(ruleset):
    pos = Position(ruleset, 3, "grey D4, roof D4, orange H8", sets=("supply.3.roofs=1",))
    owner = pos.game.players[pos.at("D4").owner]
    pos.until(owner)
    assert pos.game.supply[pos.game.seat_to_move]["roof"] == 0
    assert pos.reject("roof H8") == "not-in-supply"


def test_the_other_2001_reading_forbids_roofing_a_blocked_palace():
    # R-4, FI read literally: a blocked palace is "completed, owned by nobody"
    pos = Position("original-2001", 3, BLOCKED_GREY_B2, sets=("roofs.on_blocked_palace=false",))
    assert pos.reject("roof B2") == "roof-on-blocked-palace"
    assert pos.moves("roof") == {"C4", "D2"}  # the palaces that can still grow
    pos.play("grey H8")  # a new grey palace, free to grow
    assert "H8" in pos.moves("roof") and "B2" not in pos.moves("roof")


@pytest.mark.parametrize("piece", ["roof", "neutral"])
def test_a_roof_on_any_building_of_a_palace_is_one_move(piece):
    pos = Position("second-edition-2014", 3, "grey D4, grey D5, grey D6, stable E5", "orange K3")
    game = pos.game
    same = [f"{piece} D4", f"{piece} D5", f"{piece} D6"]
    assert [str(p) for p in game.legal_placements() if p.piece == piece] == [
        f"{piece} K3"
    ] + same  # cell order
    assert [str(p) for p in game.distinct_placements() if p.piece == piece] == [
        f"{piece} K3",
        f"{piece} D4",
    ]
    assert [str(p) for p in game.equivalent_placements(f"{piece} d6")] == same
    assert [str(p) for p in game.equivalent_placements(f"{piece} K3")] == [f"{piece} K3"]
    assert [str(p) for p in game.equivalent_placements("stable E6")] == ["stable E6"]
    pos.play(f"{piece} D5")
    assert [str(p) for p in game.equivalent_placements(f"{piece} D6")] == [
        f"{piece} D6"
    ]  # roofed: no move
    assert len(game.distinct_placements()) == len(game.legal_placements())
