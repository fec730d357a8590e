"""Random legal play: each placement uniform among the generator's legal placements.

Uniform random play draws in one order everywhere (`medina simulate`, the `random` agent, the
agents' playouts): where a tea tile may be used, it is used when nothing else can be placed, else
with the chance `tea_chance` (one draw); otherwise one draw picks a placement uniformly among the
legal ones, in `legal_placements()` order.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING

from .board import Geometry, bits, lowest_cell
from .game import Game
from .placement import Placement
from .variant import Variant

if TYPE_CHECKING:
    from ..rules.typed import Rules

TEA_CHANCE = 0.5  # uniform random play uses a tea tile this often where one is allowed (as `medina simulate`)


def nth_bit(mask: int, n: int) -> int:
    """The cell of the n-th (0-based) set bit of `mask`, lowest first (found 60 cells at a time, then
    bit by bit within them: a mask of a few hundred cells is a big number, its 60-cell pieces small)."""
    low = 0
    while True:
        chunk = (mask >> low) & _CHUNK
        count = chunk.bit_count()
        if n < count:
            break
        n -= count
        low += 60
    for _ in range(n):
        chunk &= chunk - 1
    return low + lowest_cell(chunk)


_CHUNK = (1 << 60) - 1


def random_setup(rules: Rules, rng: random.Random) -> tuple[int, int | None]:
    """A start merchant and (if the ruleset has one) a well, as squares, on distinct cells off the edge row."""
    geo = Variant.of(rules).geometry
    merchant, well = rng.sample(_setup_cells(geo), 2)
    return geo.square_of[merchant], (geo.square_of[well] if rules.well.enabled else None)


@lru_cache(maxsize=16)
def _setup_cells(geo: Geometry) -> tuple[int, ...]:
    """The cells a setup draws from: inside, off the edge row."""
    return tuple(bits(geo.setup_cells))


def uniform_placement(masks: list[tuple[str, int]], rng: random.Random) -> tuple[str, int]:
    """A (piece, cell) uniform among the cells of `masks` ((piece, cells) pairs, not all empty)."""
    pick = rng.randrange(sum(m.bit_count() for _, m in masks))
    for piece, cells in masks:
        count = cells.bit_count()
        if pick < count:
            return piece, nth_bit(cells, pick)
        pick -= count
    raise AssertionError("unreachable: pick is below the total")


def _random_move(
    game: Game, rng: random.Random, tea_chance: float, roof_from: int | None
) -> tuple[str, int | None]:
    """Uniform random play's next move as an engine (piece, cell), ("tea", None) for a tea tile;
    with `roof_from`, a roof on the largest palace its player may roof when that has `roof_from`
    pieces or more."""
    masks = game.legal_masks()
    if game.can_tea() and (not masks or rng.random() < tea_chance):
        return "tea", None
    if roof_from is not None:
        roofs = next((cells for piece, cells in masks if piece == "roof"), 0)
        if roofs:
            palace_at = game._palace_at
            best = max(bits(roofs), key=lambda c: palace_at[c].size)
            if palace_at[best].size >= roof_from:
                return "roof", best
    return uniform_placement(masks, rng)


def random_placement(
    game: Game, rng: random.Random, *, tea_chance: float = TEA_CHANCE
) -> Placement:
    """Uniform random play's next placement for the player to move."""
    return game._placement_of(*_random_move(game, rng, tea_chance, None))


def play_out(
    game: Game,
    rng: random.Random,
    *,
    tea_chance: float = TEA_CHANCE,
    roof_from: int | None = None,
    on_placement: Callable[[Game], object] | None = None,
) -> None:
    """Play `game` to its end by uniform random play (the draws of `random_placement`); with `roof_from`,
    each player roofs the largest palace he may once it has `roof_from` pieces or more.
    `on_placement(game)` runs after every placement (for invariants)."""
    while game.seat_to_move is not None:
        piece, cell = _random_move(game, rng, tea_chance, roof_from)
        if cell is None:
            game._use_tea()
            continue
        game._play(piece, cell)
        if on_placement is not None:
            on_placement(game)


def play(
    game: Game,
    choose: Callable[[Game], Placement],
    *,
    on_placement: Callable[[Game], object] | None = None,
) -> None:
    """Play `game` to its end, each placement of the player to move chosen by `choose(game)`."""
    while game.seat_to_move is not None:
        placement = choose(game)
        game.push(placement)
        if on_placement is not None and placement.square is not None:
            on_placement(game)


def play_random_game(
    rules: Rules,
    players: list[str],
    rng: random.Random,
    *,
    tea_chance: float = TEA_CHANCE,
    on_placement: Callable[[Game], object] | None = None,
    setup: tuple[int, int | None] | None = None,
) -> Game:
    """One complete game of uniform random play from `setup` (start merchant, well as squares; default:
    drawn by `random_setup`); `on_placement(game)` runs after every placement (for invariants)."""
    game = Game(rules, players, *(setup or random_setup(rules, rng)))
    play_out(game, rng, tea_chance=tea_chance, on_placement=on_placement)
    return game
