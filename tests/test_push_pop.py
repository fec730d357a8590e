"""pop() undoes push() exactly and copy() is independent: random legal games (every choice drawn by
hypothesis, so a failure shrinks to a short game) under every built-in ruleset and player count,
the boardspace profiles included, comparing games with `==` (their position, turn state, move stack
and events) and what they offer next, at every step; and a game kept up to date move by move keeps the
same position as one built afresh from its plain data, seen through what a position tells (no name
inside the engine is read)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import medina_cli as medina
from medina_cli.engine.board import bits
from medina_cli.rules.loader import builtin_ids, load_ruleset

NAMES = ["Anna", "Ben", "Cleo", "Dan"]
COMBOS = [
    (ruleset, players)
    for ruleset in builtin_ids()
    for players in load_ruleset(ruleset).player_counts
]


def snapshot(game) -> tuple:
    """A copy of the game, and what it offers the player to move (computed now)."""
    return game.copy(), game.legal_placements(), medina.score(game).to_json()


def same(game, shot) -> bool:
    copy, legal, score = shot
    return (
        game == copy and game.legal_placements() == legal and medina.score(game).to_json() == score
    )


def answers(position) -> tuple:
    """What a position tells of its board, cell by cell (what stands there, the palace it belongs to, by
    its place in `palaces`), with its live chain ends, well bonus cells and tile holders: the same for a
    position kept up to date move by move and for one built afresh. (Cells by square number: a name would
    be parsed again for each question.)"""
    squares = position.variant.geometry.square_of
    place = {id(palace): i for i, palace in enumerate(position.palaces)}
    return (
        [position.piece_at(square) for square in squares],
        [place.get(id(position.palace_of(square))) for square in squares],
        position.live_chain_ends(),
        position.well_bonus_cells,
        [
            place.get(id(holder))
            for holder in (*position.palace_tile.values(), *position.tower_tile.values())
        ],
    )


def new_game(data, ruleset: str, players: int):
    rules = load_ruleset(ruleset).for_players(players)
    geo = medina.Variant.of(rules).geometry
    cells = [geo.name(c) for c in bits(geo.interior & ~geo.edge_row)]
    merchant = data.draw(st.sampled_from(cells), label="merchant")
    well = (
        data.draw(st.sampled_from([c for c in cells if c != merchant]), label="well")
        if rules.well.enabled
        else None
    )
    return medina.Game(rules, NAMES[:players], merchant=merchant, well=well)


def draw_placement(choices, game):
    """A legal placement, by `choices` (a `random.Random` of hypothesis's: each answer a choice that shrinks,
    towards no tea tile and the first placement)."""
    *placements, last = game.legal_placements()
    if last.piece != "tea":
        placements.append(last)
    elif not placements or choices.randrange(2):
        return last
    return choices.choice(placements)


@pytest.mark.slow
@pytest.mark.parametrize("ruleset, players", COMBOS)
@settings(
    max_examples=4,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data())
def test_pop_undoes_every_push_and_copies_are_independent(ruleset, players, data):
    game = new_game(data, ruleset, players)
    seen = [snapshot(game)]
    copy_at = data.draw(st.integers(0, 150), label="copy after")
    choices = data.draw(st.randoms(use_true_random=False), label="placements")
    clone = None
    while not game.is_over():
        if len(seen) - 1 == copy_at:
            clone = game.copy()
            assert same(clone, seen[-1])
        game.push(draw_placement(choices, game))
        assert game != seen[-1][0]
        seen.append(snapshot(game))
        plain = game.to_plain()
        rebuilt = medina.Position.from_plain(game.rules, plain)
        assert {**rebuilt.to_plain(), "turn": plain["turn"]} == plain and answers(
            rebuilt
        ) == answers(game)
    if (
        clone is not None
    ):  # the original's later pushes left the copy alone, and the copy pops as well
        assert same(clone, seen[copy_at])
        clone.push(clone.legal_placements()[0])
        clone.pop()
        assert same(clone, seen[copy_at])
    stack = game.move_stack
    for placement in reversed(stack):
        assert game.pop() == placement
        seen.pop()
        assert same(game, seen[-1])
    with pytest.raises(IndexError):
        game.pop()
    if clone is not None:
        while clone.move_stack:
            clone.pop()
        assert same(clone, seen[0])
