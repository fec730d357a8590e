"""The rulebooks' tile examples (examples E-4 to E-9) as records: who holds each tile after
each turn, and the tower-reconnect example under each of the three policies."""

from __future__ import annotations

import pytest
from scorekit import TILE_EXAMPLES

from medina_cli.engine.position import holder_name
from medina_cli.records.record import read_record
from medina_cli.records.replay import replay

POLICIES = ("once_per_palace_tower", "once_per_palace_arm", "every_new_contact")


def game_after(name: str, turn: int, *overrides: str):
    record = read_record(str(TILE_EXAMPLES / name), overrides=overrides)
    outcome = replay(record, to_turn=turn)
    assert outcome.problems == [] and outcome.turns_played == turn
    return outcome.game


def palace_holder(game, colour: str) -> str | None:
    palace = game.palace_tile[colour]
    return None if palace is None else holder_name(game.players, palace.owner)


def tower_holder(game, tower: int) -> str | None:
    palace = game.tower_tile[tower]
    return None if palace is None else holder_name(game.players, palace.owner)


@pytest.mark.parametrize(
    "turn, holder, green_size",
    [(5, "Blue", None), (10, "Blue", 4), (12, "Blue", 5), (13, "Blue", 5), (14, "Green", 6)],
)
def test_e4_a_tie_keeps_the_palace_tile(turn, holder, green_size):
    game = game_after("e4-palace-tile-tie.yaml", turn)
    assert palace_holder(game, "orange") == holder
    assert game.palace_tile["orange"].size == (green_size if holder == "Green" else 5)
    greens = [p.size for p in game.palaces if p.colour == "orange" and p.owner == 1]
    assert greens == ([green_size] if green_size else [])


@pytest.mark.parametrize("turn, holder", [(4, "A"), (8, "A"), (9, "B")])
def test_e5_a_stable_on_the_equal_palace_moves_the_tile(turn, holder):
    assert palace_holder(game_after("e5-palace-tile-stable.yaml", turn), "brown") == holder


def test_e6_tea_tiles_for_claims_and_the_neutral_claim():
    assert game_after("e6-tea.yaml", 4).tea == [3, 0, 0]
    after_neutral = game_after("e6-tea.yaml", 5)
    assert after_neutral.tea == [3, 0, 0] and after_neutral.to_plain()["tea_claims"] == 2
    assert any(e.kind == "tea" and "leave the game" in e.text for e in after_neutral.events)
    game = game_after("e6-tea.yaml", 8)
    assert game.tea == [3, 1, 0]
    assert (
        game.to_plain()["tea_claims"] == len(game.rules.tea.awards) - 1
    )  # the next claim's award is 0


def test_e7_tower_tile_and_its_merchants():
    first = game_after("e7-tower-merchants.yaml", 4)
    assert tower_holder(first, 1) == "Blue"
    assert first.supply[0]["merchant"] == first.rules.supply.merchants + 3
    second = game_after("e7-tower-merchants.yaml", 8)
    assert tower_holder(second, 1) == "Red"
    assert second.supply[1]["merchant"] == second.rules.supply.merchants
    third = game_after("e7-tower-merchants.yaml", 12)
    assert tower_holder(third, 1) == "Yellow"
    assert third.tower_tile[1].colour == "grey"


@pytest.mark.parametrize(
    "policy, other_arm, same_arm",
    [
        ("once_per_palace_tower", "B", "B"),
        ("once_per_palace_arm", "A", "B"),
        ("every_new_contact", "A", "A"),
    ],
)
def test_e8_tower_reconnect_under_each_policy(policy, other_arm, same_arm):
    setting = f"towers.reconnect={policy}"
    for name in ("e8-tower-reconnect.yaml", "e8-tower-reconnect-same-arm.yaml"):
        assert tower_holder(game_after(name, 4, setting), 3) == "A"
        assert tower_holder(game_after(name, 6, setting), 3) == "B"
    assert tower_holder(game_after("e8-tower-reconnect.yaml", 7, setting), 3) == other_arm
    assert tower_holder(game_after("e8-tower-reconnect-same-arm.yaml", 7, setting), 3) == same_arm


def test_e8_built_in_editions():
    """2001 keeps the first connection per palace and tower; DM 2003 and 2014 count every contact."""
    assert tower_holder(game_after("e8-tower-reconnect.yaml", 7), 3) == "B"
    assert (
        tower_holder(
            game_after("e8-tower-reconnect.yaml", 7, "towers.reconnect=every_new_contact"), 3
        )
        == "A"
    )
    record = read_record(str(TILE_EXAMPLES / "e8-tower-reconnect.yaml"), ruleset="bsw-dm-2003")
    assert tower_holder(replay(record).game, 3) == "A"


def test_e9_one_roof_takes_the_palace_tile_and_the_tower_tile():
    before = game_after("e9-both-tiles.yaml", 2)
    assert palace_holder(before, "grey") is None and tower_holder(before, 1) is None
    game = game_after("e9-both-tiles.yaml", 3)
    assert palace_holder(game, "grey") == "Anna" and tower_holder(game, 1) == "Anna"
    kinds = [e.kind for e in game.events[-4:]]
    assert kinds.count("palace-tile") == 1 and kinds.count("tower-tile") == 1
