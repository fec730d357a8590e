"""`alphabeta`, `alphabeta:D`: a depth-limited paranoid alpha-beta search on the tree search's evaluation.

A position's value is the mover's evaluation (evaluation.py: totals, a share of the open palaces, roofs
still usable) minus the best other seat's, which the mover of the decision maximises and every other
seat minimises. Depth counts placements (a turn is most often two, both the same seat's: the side to
move is read from each position). Iterative deepening from one placement, the root moves best first by
the last iteration, every other node's moves best first by the greedy rating. `alphabeta:D` searches D
placements deep (at most DEPTH_NODES positions: past them it keeps the deepest search it completed);
`alphabeta` deepens until it has searched DEFAULT_NODES positions in the decision and
keeps the deepest search it completed. The native core searches (search.h's `alphabeta_search`); on the
Python engine the same search runs here, with the same draws and results, a hundred times slower.
"""

from __future__ import annotations

import math
import time
from dataclasses import astuple

from ..engine import native
from .base import Agent, AgentSpec, Rating
from .evaluation import evaluate
from .params import DEFAULT_PARAMS, SearchParams
from .position import NativePosition, as_placement, search_position
from .simple import immediate_margins

MAX_DEPTH = 12  # search.h's ALPHABETA_MAX_DEPTH
# `alphabeta`'s budget: 0.24 s a decision on average (at most 0.56 s), mostly 3 to 5 placements deep,
# with the native core on 48 positions of four-player original-2001 games between greedy players (there
# depth 3 alone takes 0.008 s on average, depth 4 0.5 s but up to 7.5 s: too slow a tail for a fixed depth)
DEFAULT_NODES = 160_000
# `alphabeta:D`'s ceiling: a hundred times that (about 25 s a decision); past it, the deepest completed search
DEPTH_NODES = 100 * DEFAULT_NODES


class AlphaBetaAgent(Agent):
    """`alphabeta:D` (`depth` D), or `alphabeta` (depth None: as deep as DEFAULT_NODES positions allow).
    Deterministic for a seed (it draws the greedy rating's order of equal moves). Its ratings are the
    root moves with their values at the deepest completed search, exact (each searched with a full
    window). Slow on the Python engine."""

    rates = True

    def __init__(
        self, seed: int | str = 0, depth: int | None = None, params: SearchParams | None = None
    ):
        self.depth = MAX_DEPTH if depth is None else depth
        self.max_nodes = DEFAULT_NODES if depth is None else DEPTH_NODES
        self.params = DEFAULT_PARAMS if params is None else params
        self.spec = str(AgentSpec("alphabeta", depth=depth))
        super().__init__(seed)

    def _choose(self, game):
        position, rated = self._search(game, exact=False)
        return as_placement(position, rated[0][0])

    def _rate(self, game, *, include=None) -> list[Rating]:
        """Every distinct move with its exact value, best first; `tied`: as good as the best."""
        position, rated = self._search(game, exact=True)
        return [
            Rating(as_placement(position, move), value, tied=value == rated[0][1])
            for move, value in rated
        ]

    def _search(self, game, *, exact: bool) -> tuple[object, list[tuple[object, float]]]:
        position = search_position(game, self.rng)
        if isinstance(position, NativePosition):
            rated = position.state.alphabeta(
                native.rng_core(self.rng),
                self.depth,
                self.max_nodes,
                0.0,
                astuple(self.params),
                exact,
            )[0]
        else:
            rated = alphabeta(
                game.copy(), self.rng, self.depth, self.max_nodes, 0.0, self.params, exact
            )[0]
        return position, rated


class _Spent(Exception):
    """The node or time budget ran out in an iteration after the first."""


class _Search:
    """The search's counters and its recursion over a Python game (pushed and popped in place)."""

    def __init__(self, game, rng, max_nodes: int, seconds: float, params: SearchParams):
        self.game, self.rng, self.params, self.max_nodes = game, rng, params, max_nodes
        self.root_seat = game.seat_to_move
        self.deadline = time.monotonic() + seconds if seconds > 0 else 0.0
        self.nodes = 0
        self.limited = False  # does the budget apply (every iteration after the first)?

    def count(self) -> None:
        """A node about to be searched; _Spent once the budget has run out."""
        self.nodes += 1
        if self.limited and (
            (self.max_nodes > 0 and self.nodes > self.max_nodes)
            or (self.deadline and self.nodes & 255 == 0 and time.monotonic() > self.deadline)
        ):
            raise _Spent

    def margin(self) -> float:
        values = evaluate(self.game, self.params)
        root = self.root_seat
        return values[root] - max(value for seat, value in enumerate(values) if seat != root)

    def value(self, depth: int, alpha: float, beta: float) -> float:
        """search.c's ab_value: fail-soft within (alpha, beta), the root seat maximising."""
        game = self.game
        if game.seat_to_move is None or depth == 0:
            return self.margin()
        rated = immediate_margins(game, self.rng, self.params.small)
        if not rated:
            return self.margin()
        maximising = game.seat_to_move == self.root_seat
        best = -math.inf if maximising else math.inf
        for placement, _ in rated:
            if alpha >= beta:
                break
            self.count()
            game.push(placement)
            value = self.value(depth - 1, alpha, beta)
            game.pop()
            if maximising and value > best:
                best = value
                alpha = max(alpha, best)
            elif not maximising and value < best:
                best = value
                beta = min(beta, best)
        return best


def alphabeta(
    game, rng, depth: int, max_nodes: int, seconds: float, params: SearchParams, exact: bool = False
) -> tuple[list[tuple[object, float]], int, int]:
    """`State.alphabeta` on the Python engine (search.h's alphabeta_search, step by step): ([(placement,
    value)] best first, depth completed, nodes searched). Plays on `game` and leaves it where an
    exhausted budget stopped it: pass a copy. Slow: a hundred times the native search's time."""
    search = _Search(game, rng, max_nodes, seconds, params)
    rated: list[tuple[object, float]] = [
        (placement, float(value)) for placement, value in immediate_margins(game, rng, params.small)
    ]
    if not rated:
        raise RuntimeError("no legal placement for the player to move")
    reached = 0
    for iteration in range(1, depth + 1):
        search.limited = iteration > 1
        alpha = -math.inf
        scored = []
        try:
            for placement, _ in rated:
                search.count()
                game.push(placement)
                value = search.value(iteration - 1, -math.inf if exact else alpha, math.inf)
                game.pop()
                scored.append((placement, value))
                alpha = max(alpha, value)
        except _Spent:
            break
        rated = sorted(scored, key=lambda pv: -pv[1])
        reached = iteration
    return rated, reached, search.nodes
