"""`random` (uniform among the legal placements, as `medina simulate` plays) and `greedy` (the
placement that leaves the mover best placed if the game ended at once)."""

from __future__ import annotations

from ..engine.playout import random_placement
from .base import Agent, Rating
from .position import (
    SMALL_PALACE,
    NativePosition,
    as_placement,
    margin,
    may_score,
    palace_size,
    scoring_cells,
    search_position,
    seat_to_move,
    totals,
)


class RandomAgent(Agent):
    """Uniform random play, as `medina simulate` plays (`engine.playout.random_placement`)."""

    spec = "random"

    def _choose(self, game):
        return random_placement(game, self.rng)


class GreedyAgent(Agent):
    """Rates each placement by the mover's margin (own total minus the best other total) right after
    it, but a roof on a palace smaller than SMALL_PALACE below any placement that changes nothing;
    ties are broken by the seeded generator."""

    spec = "greedy"
    rates = True

    def _choose(self, game):
        return self._rate(game)[0].placement

    def _rate(self, game, *, include=None) -> list[Rating]:
        """Every distinct move by its margin right after it, best first; `tied`: as good as the best."""
        position = search_position(game, self.rng)  # the native core's copy where it runs
        rated = immediate_margins(position, self.rng)
        return [
            Rating(as_placement(position, p), value, tied=value == rated[0][1])
            for p, value in rated
        ]


def immediate_margins(game, rng, small: int = SMALL_PALACE) -> list[tuple[object, int]]:
    """(placement, mover's margin right after it) for every distinct legal move, best first, equal
    margins in an order drawn from `rng`; a roof on a palace smaller than `small` counts one point below
    no change. Only placements that may change the score are played out. On a NativePosition the core
    rates its moves (ints) the same way, with the same draws."""
    if isinstance(game, NativePosition):
        return game.state.margins(rng.core, small)
    seat = seat_to_move(game)
    cells = scoring_cells(game)
    now = margin(totals(game), seat)
    rated = []
    for placement in game.distinct_placements():
        value = now
        if placement.piece == "roof" and palace_size(game, placement) < small:
            value = now - 1
        elif may_score(game, placement, cells):
            game.push(placement)
            value = margin(totals(game), seat)
            game.pop()
        rated.append((placement, value))
    rng.shuffle(rated)
    rated.sort(key=lambda pv: -pv[1])
    return rated
