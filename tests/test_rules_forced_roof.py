"""docs/rulings.md §5 forced roof (param `turns.forced_roof`): 2001 `only_player_who_can_place`, DM
`only_player_with_roofs` (building the palace first in the same turn counts), 2014 `off`. Own roofs
only; a turn that ends without the roof is illegal."""

import pytest
from rulekit import BEN_STUCK, Position, Scenario, supplies

# 2001: after turn 11 only Cleo can place (Anna and Ben hold one roof each and own every colour of
# the unroofed palaces); Cleo holds grey, orange and a roof, and may roof the black palace E12 now
ROOF_NOW_2001 = Scenario(
    (
        "Anna: orange B4, grey N10",
        "Ben: brown M3, black Q12",
        "Cleo: roof N10, wall Q1",
        "Anna: brown M2, wall R2",
        "Ben: grey E2, wall Q13",
        "Cleo: brown N3, wall A12",
        "Anna: roof Q12, black L6",
        "Ben: wall B13, roof L6",
        "Cleo: black E12, roof M2",
        "Anna: wall B1, roof E2",
        "Ben: orange C4, roof C4",
    ),
    "E5",
    supplies(3, per_colour=1, roofs=3, walls=2),
)


def test_2001_only_player_who_can_place_must_roof_after_building_first():
    pos = BEN_STUCK.position()  # Ben is skipped; Anna's last roof has no target; Cleo moves
    game = pos.game
    assert pos.mover == "Cleo" and not game.can_place(0) and not game.can_place(1)
    assert game.forced and game.events[-1].kind == "forced-roof"
    # no roof target yet: only a black building (Cleo owns grey and orange) can lead to her roof
    assert [piece for piece, _ in game.legal_masks()] == ["black"]
    assert pos.reject("orange C10") == "forced-roof"
    assert pos.problem("Cleo: orange C10, black I7") == ("forced-roof", 8, 1, "Cleo")
    assert pos.problem("Cleo: black I7, orange C10") == ("forced-roof", 8, 2, "Cleo")
    assert pos.problem("Cleo: black I7", "Anna: pass") == ("forced-roof", 8, None, "Cleo")
    assert pos.errors_after("Cleo: black I7, roof I7") == []


def test_2001_forced_roof_when_a_roof_fits_now():
    pos = ROOF_NOW_2001.position()
    assert pos.mover == "Cleo" and pos.game.forced and pos.moves("roof") == {"E12"}
    assert pos.legal("grey H8") and pos.legal("orange J10")  # the roof may come second
    assert pos.problem("Cleo: grey H8, orange J10") == ("forced-roof", 12, 2, "Cleo")
    assert pos.errors_after("Cleo: grey H8, roof E12") == []
    assert pos.errors_after("Cleo: roof E12, orange J10") == []


@pytest.mark.parametrize("rule", ["off", "only_player_with_roofs"])
def test_the_2001_situation_is_not_forced_under_the_other_rules(rule):
    pos = BEN_STUCK.position(sets=(f"turns.forced_roof={rule}",))
    assert not pos.game.forced  # Ben still holds roofs: Cleo is not the only one
    assert pos.errors_after("Cleo: orange C10, black I7") == []


def dm_position(*turns, ruleset="bsw-dm-2003", sets=()):
    return Position(ruleset, 3, *turns, sets=("supply.3.roofs=1", *sets))


def test_dm_only_player_with_roofs_builds_the_palace_first():
    pos = dm_position("Anna: grey D4, roof D4", "Ben: orange H8, roof H8")
    game = pos.game
    assert pos.mover == "Cleo" and game.forced and pos.moves("roof") == set()
    assert {piece for piece, _ in game.legal_masks()} == {"grey", "black", "brown", "orange"}
    assert pos.problem("Cleo: wall A12, wall A11") == ("forced-roof", 3, 1, "Cleo")
    assert pos.problem("Cleo: stable D5, brown M4") == ("forced-roof", 3, 1, "Cleo")
    assert pos.problem("Cleo: brown M4, wall A12") == ("forced-roof", 3, 2, "Cleo")
    assert pos.problem("Cleo: brown M4, stable M5") == ("forced-roof", 3, 2, "Cleo")
    assert pos.errors_after("Cleo: brown M4, roof M4") == []


def test_dm_forced_roof_when_a_roof_fits_now():
    pos = dm_position(
        "Anna: grey D4, brown M4",
        "Ben: roof D4, orange H8",
        "Cleo: wall A12, wall A11",
        "Anna: roof M4, wall B13",
    )
    assert (
        pos.mover == "Ben" and not pos.game.forced
    )  # Ben holds no roof: the rule is not about him
    pos.play("Ben: wall Q13, wall P13")
    assert pos.mover == "Cleo" and pos.game.forced and pos.moves("roof") == {"H8"}
    assert pos.problem("Cleo: wall A10, wall A9") == ("forced-roof", 6, 2, "Cleo")
    assert pos.problem("Cleo: wall A10, orange H9") == ("forced-roof", 6, 2, "Cleo")
    assert pos.problem("Cleo: wall A10, merchant J8") == ("forced-roof", 6, 2, "Cleo")
    assert pos.errors_after("Cleo: wall A10, roof H8") == []
    assert pos.errors_after("Cleo: roof H8, wall A10") == []
    assert pos.errors_after("Cleo: stable H9, roof H8") == []


def test_dm_trigger_is_not_the_2001_trigger():
    pos = dm_position(
        "Anna: grey D4, roof D4",
        "Ben: orange H8, roof H8",
        sets=("turns.forced_roof=only_player_who_can_place",),
    )
    assert not pos.game.forced and pos.errors_after("Cleo: wall A12, wall A11") == []


def test_2014_has_no_forced_roof():
    pos = dm_position(
        "Anna: grey D4",
        "Ben: roof D4",
        "Cleo: orange H8, brown M4",
        "Anna: roof M4, wall A12",
        "Ben: wall A11, wall A10",
        ruleset="second-edition-2014",
    )
    assert pos.mover == "Cleo" and pos.game.supply[2]["roof"] == 1 and pos.moves("roof") == {"H8"}
    assert not pos.game.forced
    assert pos.errors_after("Cleo: wall A9, wall A8") == []


def test_a_neutral_roof_does_not_satisfy_a_forced_roof():
    pos = dm_position(
        "Anna: grey D4",
        "Ben: roof D4",
        "Cleo: orange H8, brown M4",
        "Anna: roof M4, wall A12",
        "Ben: wall A11, wall A10",
        ruleset="second-edition-2014",
        sets=("turns.forced_roof=only_player_with_roofs",),
    )
    assert pos.game.forced and pos.game.supply[2]["neutral"] == 1
    assert pos.reject("neutral H8") == "forced-roof"  # it would take the only roof target
    assert pos.errors_after("Cleo: roof H8, wall A9") == []


# 2014 with a forced roof by --set: Ben ends up the only player with a roof, holding 3 tea tiles
TEA_AND_FORCED = (
    "Anna: purple D4",
    "Ben: roof D4",
    "Cleo: grey H8, roof H8",
    "Anna: orange M4, roof M4",
    "Ben: wall A12, purple B8",
    "Cleo: brown C10, roof C10",
)


def tea_forced_position(last_turn):
    return Position(
        "second-edition-2014",
        3,
        *TEA_AND_FORCED,
        last_turn,
        sets=("supply.3.roofs=2", "turns.forced_roof=only_player_with_roofs"),
    )


def test_tea_with_a_forced_roof_only_when_the_roof_fits_now():
    pos = tea_forced_position("Anna: roof B8, grey F10")
    assert (
        pos.mover == "Ben"
        and pos.game.forced
        and pos.game.tea[1] == 3
        and pos.moves("roof") == {"F10"}
    )
    assert pos.errors_after("Ben: tea, roof F10") == []
    assert pos.problem("Ben: tea, wall A11") == ("forced-roof", 8, 2, "Ben")
    assert pos.problem("Ben: wall A11, tea") == (
        "tea-not-allowed",
        8,
        2,
        "Ben",
    )  # the roof is still due


def test_no_tea_with_a_forced_roof_that_needs_a_building_first():
    pos = tea_forced_position(
        "Anna: grey F10, roof F10"
    )  # Ben owns purple: B8 is no roof target for him
    assert pos.mover == "Ben" and pos.game.forced and pos.moves("roof") == set()
    assert pos.reject("tea") == "tea-not-allowed"
    assert pos.errors_after("Ben: orange J3, roof J3") == []


# the other 2001 reading (R-15, FI): forced only once every other player's supply is empty
WITH_PIECES = "turns.forced_roof=only_player_with_pieces"


def test_with_pieces_reading_is_not_forced_while_others_hold_unplaceable_pieces():
    pos = BEN_STUCK.position(sets=(WITH_PIECES,))
    assert not pos.game.can_place(0) and not pos.game.can_place(1)  # stuck, but holding roofs
    assert not pos.game.forced and pos.errors_after("Cleo: orange C10, black I7") == []


def test_with_pieces_reading_forces_the_last_player_holding_pieces():
    tiny = (
        "supply.3.per_colour=1",
        "supply.3.roofs=1",
        "supply.3.stables=0",
        "supply.3.merchants=0",
        "supply.3.walls=0",
        WITH_PIECES,
    )
    pos = Position(
        "original-2001",
        3,
        "Anna: grey D4, black H4",
        "Ben: brown M4, orange D10",
        "Cleo: grey D5, black H5",
        "Anna: brown M5, orange D11",
        "Ben: grey D6, black H6",
        "Cleo: brown M6, orange D12",
        "Anna: roof D4",
        sets=tiny,
    )
    assert pos.mover == "Ben" and not pos.game.forced  # Cleo still holds her roof
    pos.play("Ben: roof H4")
    assert pos.mover == "Cleo" and pos.game.forced and pos.game.events[-1].kind == "forced-roof"
    assert not any(pos.game.supply[0].values()) and not any(pos.game.supply[1].values())


def test_a_piece_the_forced_roof_leaves_nowhere_is_explained_by_the_turn_not_by_a_cell():
    """`moves --piece wall` listing nothing under a forced roof: every rule of walls allows cells, the turn
    refuses them all; a piece whose own rule leaves no cell is explained by that rule, at one of its cells."""
    from medina_cli.engine.explain import explain, explain_none

    game = dm_position("Anna: grey D4, roof D4", "Ben: orange H8, roof H8").game
    code, message = explain_none(game, "wall")
    assert (code, message) == (
        "forced-roof",
        explain(game, "wall", game.variant.geometry.parse("A12"))[1].replace("wall A12", "wall", 1),
    )
    assert explain_none(game, "roof") == explain(
        game, "roof", game.variant.geometry.parse("D4")
    )  # the first building
    assert explain_none(game, "brown") is None
