"""The boardspace profiles: each reading of the site's engine is a ruleset parameter, and each revision
switch (the revision history beside the engine's REVISION constant) changes exactly what that history says."""

import pytest
from conftest import new_game, record_text, replay_text
from rulekit import Position

from medina_cli.engine.game import IllegalPlacement
from medina_cli.engine.scoring import score_game
from medina_cli.rules.loader import load_ruleset

PLAYERS = ["Anna", "Ben", "Cleo"]


def play(ruleset, turns, merchant="J7", well=None, supply=None):
    """Replay `turns`; `supply`: a flow mapping for setup.supply."""
    text = record_text(ruleset, PLAYERS, turns, merchant=merchant, well=well)
    if supply:
        text = text.replace("\nturns:", f"\n  supply: {supply}\nturns:", 1)
    record, outcome = replay_text(text)
    assert record.problems.errors == []
    return outcome


def codes(outcome):
    return [(p.code, p.turn, p.placement) for p in outcome.problems]


# --- revision switches -----------------------------------------------------------------------------

ALL_OWN_GREY = [
    "Anna: grey B2, roof B2",
    "Ben: grey E2, roof E2",
    "Cleo: grey H2, roof H2",
    "Anna: grey L2, wall A2",
]


@pytest.mark.parametrize(
    "ruleset, expected",
    [
        (
            "boardspace-original-r100",
            [],
        ),  # before 101 nothing retires: a fourth grey palace may start
        ("boardspace-original-r101", [("colour-retired", 4, 1)]),
        ("boardspace-original", [("colour-retired", 4, 1)]),
    ],
)
def test_colour_retirement_from_revision_101(ruleset, expected):
    assert codes(play(ruleset, ALL_OWN_GREY)) == expected


# The chain D4 (start), C4, D3 is blocked: its ends' free neighbours hold buildings or touch two merchants.
BLOCKED_CHAIN = [
    "Anna: merchant C4, merchant D3",
    "Ben: grey D2, grey E2",
    "Cleo: grey E3, black B4",
    "Anna: black B5, black C5",
]


@pytest.mark.parametrize(
    "ruleset, expected",
    [
        ("original-2001", [("merchant-new-chain", 5, 1)]),  # a new chain may not touch a merchant
        ("boardspace-original-r101", []),
        ("boardspace-original-r102", []),
    ],
)
def test_restart_may_touch_one_merchant_of_the_dead_chain(ruleset, expected):
    assert (
        codes(play(ruleset, BLOCKED_CHAIN + ["Ben: merchant D5, merchant D6"], merchant="D4"))
        == expected
    )


@pytest.mark.parametrize(
    "ruleset, expected",
    [
        ("boardspace-original-r101", []),  # before 102 a restart may go on any empty interior cell
        ("boardspace-original-r102", [("merchant-two-neighbours", 5, 1)]),
        ("boardspace-original", [("merchant-two-neighbours", 5, 1)]),
    ],
)
def test_restart_touching_two_merchants_until_revision_102(ruleset, expected):
    assert (
        codes(play(ruleset, BLOCKED_CHAIN + ["Ben: merchant C3, wall A2"], merchant="D4"))
        == expected
    )


def test_restart_joined_to_the_dead_chain_grows_from_its_new_end_only():
    turns = BLOCKED_CHAIN + ["Ben: merchant D5, merchant D6"]
    # D5 now touches D4 and D6: no longer an end, so E5 beside it would make a branch
    outcome = play("boardspace-original", turns + ["Cleo: merchant E5, wall A2"], merchant="D4")
    assert codes(outcome) == [("merchant-not-at-chain-end", 6, 1)]
    assert "ends: D6" in outcome.problems[0].message
    assert (
        codes(play("boardspace-original", turns + ["Cleo: merchant E6, wall A2"], merchant="D4"))
        == []
    )


STABLE_MERCHANT = [
    "Anna: grey F5, stable G5",
    "Ben: wall A2, wall A3",
    "Cleo: wall R2, wall R3",
    "Anna: roof F5, wall A12",
]


@pytest.mark.parametrize(
    "ruleset, merchants", [("boardspace-original-r102", 0), ("boardspace-original", 1)]
)
def test_merchants_next_to_stables_score_from_revision_103(ruleset, merchants):
    outcome = play(ruleset, STABLE_MERCHANT, merchant="H5")  # H5 touches the stable G5 only
    anna = score_game(outcome.game).players[0]
    assert [p.merchants for p in anna.palaces] == [merchants]
    assert anna.total == 1 + 1 + merchants + 1  # building, stable, merchant, grey palace tile


# --- the site's readings -----------------------------------------------------------------------------

# Anna's grey Q12 touches both arms of tower 3 (NE corner R13); Cleo's black N12 takes the tile along
# the top arm (example E-8).
TOWER_3 = [
    "Anna: grey Q12, roof Q12",
    "Ben: wall Q13, wall P13",
    "Cleo: black N12, roof N12",
    "Anna: wall O13, wall N13",
]


def tower_3_holder(outcome):
    assert outcome.problems == []
    return outcome.game.players[outcome.game.tower_tile[3].owner]


@pytest.mark.parametrize(
    "ruleset, other_arm, same_arm",
    [
        ("boardspace-original", "Anna", "Cleo"),  # once_per_palace_arm
        ("original-2001", "Cleo", "Cleo"),  # once_per_palace_tower
        ("bsw-dm-2003", "Anna", "Anna"),  # every_new_contact
    ],
)
def test_tower_reconnect_once_per_arm(ruleset, other_arm, same_arm):
    assert tower_3_holder(play(ruleset, TOWER_3)) == "Cleo"
    assert tower_3_holder(play(ruleset, TOWER_3 + ["Ben: wall R12, wall R11"])) == other_arm
    assert tower_3_holder(play(ruleset, TOWER_3 + ["Ben: stable P12, wall R2"])) == same_arm


def others_stuck(ruleset, *overrides):
    """Anna to move again while Ben and Cleo can place nothing (their supplies are empty)."""
    game = new_game(ruleset, 3, "J7", None, *overrides)
    geo = game.variant.geometry
    game._play("wall", geo.parse("A2"))
    for seat in (1, 2):
        game.supply[seat] = dict.fromkeys(game.supply[seat], 0)
    game._play("wall", geo.parse("A3"))
    assert game.seat_to_move == 0
    return game, geo


def pieces(game):
    return sorted({piece for piece, _ in game.legal_masks()})


def test_forced_dome_is_checked_at_the_second_placement():
    game, geo = others_stuck("boardspace-original")
    assert not game.forced and "wall" in pieces(game)  # the first piece is free
    game._play("grey", geo.parse("C3"))
    assert game.legal_masks() == [("roof", 1 << geo.parse("C3"))]
    with pytest.raises(IllegalPlacement) as refused:
        game._play("wall", geo.parse("A4"))
    assert refused.value.code == "forced-roof"
    game._play("roof", geo.parse("C3"))
    assert game.seat_to_move == 0 and not game.forced


def test_forced_dome_needs_a_legal_dome_after_the_first_piece():
    game, geo = others_stuck("boardspace-original")
    game._play("wall", geo.parse("A4"))  # no unroofed palace: nothing to roof, so nothing is forced
    assert not game.forced and "wall" in pieces(game)


def test_original_rules_force_the_roof_from_the_start_of_the_turn():
    game, _ = others_stuck("original-2001")
    assert game.forced and pieces(game) == ["black", "brown", "grey", "orange"]


@pytest.mark.parametrize(
    "ruleset, overrides, at_start",
    [
        ("original-2001", ("turns.forced_roof_check=after_first_placement",), False),
        ("boardspace-original", ("turns.forced_roof_check=turn_start",), True),
        (
            "original-2001",
            (
                "turns.forced_roof=only_player_with_roofs",
                "turns.forced_roof_check=after_first_placement",
            ),
            False,
        ),  # who and when combine freely: Ben and Cleo hold no roofs either
        (
            "original-2001",
            ("turns.forced_roof=second_placement_only_player_who_can_place",),
            False,
        ),  # former spelling
    ],
)
def test_when_the_forced_roof_is_checked_is_its_own_parameter(ruleset, overrides, at_start):
    game, geo = others_stuck(ruleset, *overrides)
    assert game.forced == at_start
    if not at_start:
        game._play("grey", geo.parse("C3"))
        assert game.legal_masks() == [("roof", 1 << geo.parse("C3"))]


def tea_position(ruleset):
    """Anna has roofed the purple palace (3 tea tiles), used one, and is to move again."""
    game = new_game(ruleset, 3, "H10", "J5")
    geo = game.variant.geometry
    for piece, cell in [
        ("purple", "C3"),
        ("grey", "P11"),
        ("wall", "A2"),
        ("wall", "A3"),
        ("roof", "C3"),
    ]:
        game._play(piece, geo.parse(cell))
    assert game.can_tea()  # in place of the second placement
    game.push("tea")
    for piece, cell in [("grey", "O11"), ("wall", "R2"), ("wall", "A4"), ("wall", "A5")]:
        game._play(piece, geo.parse(cell))
    assert game.seat_to_move == 0 and game.tea[0] == 2
    return game


def test_tea_replaces_only_the_second_placement_on_boardspace():
    game = tea_position("boardspace-second-edition")
    assert not game.can_tea()
    with pytest.raises(IllegalPlacement, match="only the second placement"):
        game.push("tea")
    assert tea_position("second-edition-2014").can_tea()


def test_start_merchant_costs_the_starter_nothing_beyond_the_sites_extra_merchant():
    # the site: seat A holds 9 merchants in 3p and places one as the start merchant; here: 8 and a setup piece
    outcome = play("boardspace-original", ["Anna: merchant J6, wall A2"])
    assert outcome.game.supply[0]["merchant"] == 7 and outcome.game.supply[1]["merchant"] == 8


def test_last_piece_leaves_the_turn_open_for_a_held_tea_tile_on_boardspace():
    for ruleset, goes_on in [("boardspace-second-edition", True), ("second-edition-2014", False)]:
        game = tea_position(ruleset)
        game.supply[0] = dict.fromkeys(game.supply[0], 0) | {
            "wall": 1
        }  # Anna's last placeable piece
        game._play("wall", game.variant.geometry.parse("A6"))
        assert (game.seat_to_move == 0) is goes_on, ruleset
        if goes_on:  # nothing fits: the tile is all that is left, and it must be used
            assert game.legal_masks() == [] and game.can_tea()
            game.push("tea")
            assert game.seat_to_move == 1 and game.tea[0] == 1


def test_a_turn_left_open_for_tea_must_use_it():
    turns = ["Anna: wall A2", "Ben: wall R2", "Cleo: wall A3, wall R3"]
    outcome = play(
        "boardspace-second-edition",
        turns
        + [
            "Anna: purple C3, roof C3",
            "Ben: wall A4, wall R4",
            "Cleo: wall A5, wall R5",
            "Anna: wall A6",
            "Ben: wall A7, wall R6",
        ],
        merchant="H10",
        well="J5",
        supply="{Anna: {grey: 0, brown: 0, orange: 0, purple: 1, "
        "stable: 0, merchant: 0, wall: 2, neutral: 0}}",
    )
    assert codes(outcome) == [("too-few-placements", 7, None)]
    assert "holds a tea tile" in outcome.problems[0].message


def stuck_after_an_opening(
    ruleset, *overrides, first_turns=("Anna: wall A2", "Ben: wall R2", "Cleo: wall A3, wall R3")
):
    """Second edition, 3 players: after the opening turns Ben and Cleo can place nothing; Anna to move."""
    game = new_game(ruleset, 3, "H10", "J5", *overrides)
    for turn in first_turns:
        for token in turn.split(":")[1].split(","):
            piece, cell = token.split()
            game._play(piece, game.variant.geometry.parse(cell))
    for seat in (1, 2):
        game.supply[seat] = dict.fromkeys(game.supply[seat], 0)
    assert game.seat_to_move == 0
    return game


@pytest.mark.parametrize(
    "overrides, forced",
    [
        ((), False),  # the engine: Ben's tea tile counts as a move of his
        (("tea.blocks_forced_roof=false",), True),  # the editions' default
    ],
)
def test_another_players_tea_tile_spares_the_forced_roof_on_boardspace(overrides, forced):
    game = stuck_after_an_opening("boardspace-second-edition", *overrides)
    game.tea[1] = 1
    game._play("grey", game.variant.geometry.parse("C3"))
    assert game.forced is forced
    assert (pieces(game) == ["roof"]) is forced


@pytest.mark.parametrize(
    "overrides, forced",
    [
        ((), False),  # the engine forces a dome only after a first piece that was no dome at all
        (("turns.neutral_spares_forced_roof=false",), True),  # the editions' default
    ],
)
def test_a_neutral_roof_first_spares_the_forced_roof_on_boardspace(overrides, forced):
    game = stuck_after_an_opening(
        "boardspace-second-edition",
        *overrides,
        first_turns=("Anna: grey C3", "Ben: purple P11", "Cleo: wall A2, wall A3"),
    )
    game.push("neutral C3")
    assert game.forced is forced
    assert (game.legal_masks() == [("roof", 1 << game.variant.geometry.parse("P11"))]) is forced


@pytest.mark.parametrize("ruleset", ["original-2001", "bsw-dm-2003", "second-edition-2014"])
def test_the_editions_keep_the_rulings_on_tea_and_neutral_roofs(ruleset):
    rules = load_ruleset(ruleset).for_players(3)
    assert (
        rules.tea.keeps_turn_open,
        rules.tea.blocks_forced_roof,
        rules.turns.neutral_spares_forced_roof,
    ) == (False, False, False)


# Anna's grey B3 takes tower 4 along its west arm (A3); Cleo's black E2 takes it along the south arm (E1).
# Cleo's stable B2 joins Anna's palace and touches A2 (west arm, touched already) and B1 (south arm, new).
CORNER_STABLE = [
    "Anna: grey B3, roof B3",
    "Ben: wall A2, wall A3",
    "Cleo: black E2, roof E2",
    "Anna: wall B1, wall C1",
    "Ben: wall D1, wall E1",
    "Cleo: stable B2, wall R2",
]


@pytest.mark.parametrize(
    "sets, holder",
    [
        (
            (),
            "Cleo",
        ),  # the engine looks at one wall only, A2 (north, west, south, east first): no new arm
        (("towers.stable_contact=every_wall",), "Anna"),  # B1 is a new arm: tower 4 moves to Anna
    ],
)
def test_a_stable_in_an_inner_corner_connects_through_one_wall_on_boardspace(sets, holder):
    game = Position("boardspace-original", 3, *CORNER_STABLE, sets=sets).game
    assert game.players[game.tower_tile[4].owner] == holder
    assert {arm for arm in game.palace_of("B2").connected if arm[0] == 4} == {(4, "h"), (4, "v")}


def test_the_editions_connect_a_corner_stable_through_every_wall():
    assert {
        load_ruleset(r).params["towers"]["stable_contact"]
        for r in ("original-2001", "bsw-dm-2003", "second-edition-2014")
    } == {"every_wall"}
