"""Random legal play: each placement uniform among the generator's legal placements."""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache

from .board import bits, geometry_for, lowest_cell
from .game import Game


def nth_bit(mask: int, n: int) -> int:
    """The cell of the n-th (0-based) set bit of `mask`, lowest first."""
    for _ in range(n):
        mask &= mask - 1
    return lowest_cell(mask)


def random_setup(rules, rng: random.Random) -> tuple[int, int | None]:
    """A start merchant and (if the ruleset has one) a well, on distinct cells off the edge row."""
    merchant, well = rng.sample(_setup_cells(geometry_for(rules)), 2)
    return merchant, (well if rules.well.enabled else None)


@lru_cache(maxsize=16)
def _setup_cells(geo) -> tuple[int, ...]:
    return tuple(bits(geo.interior & ~geo.edge_row))


def random_placement(game: Game, rng: random.Random) -> tuple[str, int]:
    """A (piece, cell) uniform among the legal placements of the player to move."""
    return uniform_placement(game.legal_masks(), rng)


def uniform_placement(masks: list[tuple[str, int]], rng: random.Random) -> tuple[str, int]:
    """A (piece, cell) uniform among the cells of `masks` ((piece, cells) pairs, not all empty)."""
    pick = rng.randrange(sum(m.bit_count() for _, m in masks))
    for piece, cells in masks:
        count = cells.bit_count()
        if pick < count:
            return piece, nth_bit(cells, pick)
        pick -= count
    raise AssertionError("unreachable: pick is below the total")


@dataclass
class PlayedTurn:
    seat: int
    actions: list  # ("tea",) or (piece, cell)


def random_chooser(rng: random.Random, *, tea_chance: float = 0.5):
    """Uniform random play: a tea tile with `tea_chance` where allowed, else a placement uniform among
    the legal ones. Returns choose(game) -> ("tea",) or (piece, cell) for the player to move."""
    def choose(game: Game) -> tuple:
        if game.can_tea() and (not game.can_place(game.seat_to_move) or rng.random() < tea_chance):
            return ("tea",)
        return random_placement(game, rng)
    return choose


def play_game(rules, players: list[str], choose, setup: tuple[int, int | None], *,
              on_placement=None) -> tuple[Game, list[PlayedTurn]]:
    """Play one complete game from `setup` (start merchant, well), each action of the player to move
    chosen by `choose(game)` (("tea",) or (piece, cell)); `on_placement(game)` runs after every
    placement (for invariants)."""
    merchant, well = setup
    game = Game(rules, players, merchant, well)
    turns: list[PlayedTurn] = []
    while game.seat_to_move is not None:
        seat = game.seat_to_move
        turn = PlayedTurn(seat, [])
        turns.append(turn)
        started = game.turns_started
        while game.seat_to_move == seat and game.turns_started == started:
            action = choose(game)
            if action == ("tea",):
                game.use_tea()
                turn.actions.append(action)
                continue
            game.play(*action)
            turn.actions.append(action)
            if on_placement is not None:
                on_placement(game)
    return game, turns


def play_out(game: Game, choose) -> None:
    """Play `game` on to its end, each action chosen by `choose(game)` (("tea",) or (piece, cell))."""
    while game.seat_to_move is not None:
        action = choose(game)
        if action == ("tea",):
            game.use_tea()
        else:
            game.play(*action)


def play_random_game(rules, players: list[str], rng: random.Random, *, tea_chance: float = 0.5,
                     on_placement=None, setup: tuple[int, int | None] | None = None) -> tuple[Game, list[PlayedTurn]]:
    """Play one complete game of uniform random play from `setup` (start merchant, well; default:
    random cells); `on_placement(game)` runs after every placement (for invariants)."""
    return play_game(rules, players, random_chooser(rng, tea_chance=tea_chance), setup or random_setup(rules, rng),
                     on_placement=on_placement)
