"""pop() undoes push() exactly and copy() is independent: random legal games (every choice drawn by
hypothesis, so a failure shrinks to a short game) under every built-in ruleset and player count,
the boardspace profiles included, comparing everything observable at every step."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import medina_cli as medina
from medina_cli.engine.board import bits, geometry_for
from medina_cli.rules.loader import builtin_ids, load_ruleset

NAMES = ["Anna", "Ben", "Cleo", "Dan"]
COMBOS = [(ruleset, players) for ruleset in builtin_ids() for players in load_ruleset(ruleset).player_counts]


def holder(palace):
    return None if palace is None else palace.id


def observe(game) -> tuple:
    """Everything a user (or the engine's next move) can see of a position."""
    return (
        game.to_move, game.is_over(), game.legal_masks(), game.can_tea(), game.move_stack, list(game.events),
        [dict(s) for s in game.supply], list(game.tea), [set(o) for o in game.owned], list(game.retired),
        medina.score(game).to_json(),
        {c: holder(p) for c, p in game.palace_tile.items()}, {t: holder(p) for t, p in game.tower_tile.items()},
        {c: holder(p) for c, p in game.open_palace.items()}, {c: p.id for c, p in game.palace_at.items()},
        [p.state() for p in game.palaces], dict(game.buildings), dict(game.wall_arm),
        dict(game.tower_merchants_left),
        *(getattr(game, name) for name in ("stables", "merchants", "walls", "occupied", "roofed_buildings",
                                           "reach_once", "reach_twice", "building_orth", "chain_ends", "tea_claims",
                                           "claims", "placements_made", "turns_started", "turn_placed", "turn_slots",
                                           "tea_used", "forced")),
    )


def new_game(data, ruleset: str, players: int):
    rules = load_ruleset(ruleset).for_players(players)
    geo = geometry_for(rules)
    cells = [geo.name(c) for c in bits(geo.interior & ~geo.edge_row)]
    merchant = data.draw(st.sampled_from(cells), label="merchant")
    well = data.draw(st.sampled_from([c for c in cells if c != merchant]), label="well") if rules.well.enabled else None
    return medina.Game(rules, NAMES[:players], merchant=merchant, well=well)


def draw_placement(data, game):
    *placements, last = game.legal_placements()
    if last.piece != "tea":
        placements.append(last)
    elif not placements or data.draw(st.booleans(), label="tea"):
        return last
    return data.draw(st.sampled_from(placements), label="placement")


@pytest.mark.parametrize("ruleset, players", COMBOS)
@settings(max_examples=4, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_pop_undoes_every_push_and_copies_are_independent(ruleset, players, data):
    game = new_game(data, ruleset, players)
    seen = [observe(game)]
    copy_at = data.draw(st.integers(0, 150), label="copy after")
    clone = None
    while not game.is_over():
        if len(seen) - 1 == copy_at:
            clone = game.copy()
            assert observe(clone) == seen[-1]
        game.push(draw_placement(data, game))
        seen.append(observe(game))
    if clone is not None:  # the original's later pushes left the copy alone, and the copy pops as well
        assert observe(clone) == seen[copy_at]
        clone.push(clone.legal_placements()[0])
        clone.pop()
        assert observe(clone) == seen[copy_at]
    stack = game.move_stack
    for placement in reversed(stack):
        assert game.pop() == placement
        seen.pop()
        assert observe(game) == seen[-1]
    with pytest.raises(IndexError):
        game.pop()
    if clone is not None:
        while clone.move_stack:
            clone.pop()
        assert observe(clone) == seen[0]
