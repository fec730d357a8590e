"""The tree search the agents share: one Monte Carlo tree per decision whose nodes are positions (the two
orders of a turn's placements, and any lines that meet, share one node), grown in greedy's order by
progressive widening, each descent ended by a rollout and the evaluation, and backed up as max-n (every
seat's reward in every node; each seat picks by its own).

`search(game, seed, iterations)` runs it on the native core (search.c) where it runs, else the same
algorithm in Python on the Python engine (slow; the same choice where one move is clearly best, not the
same numbers: the two draw their random numbers differently). The same engine, position, seed and budget
give the same result on any machine; a budget in seconds does not.
"""

from __future__ import annotations

from dataclasses import astuple, dataclass

from ..engine import native
from ..engine.placement import Placement


@dataclass(frozen=True)
class SearchParams:
    """The search's constants (search.h's SearchParams, in its order); each default says how it was chosen."""

    exploration: float = 0.5
    widening: float = 1.0
    rollout: int = 0
    greedy: float = 0.5
    temperature: float = 4.0
    open_share: float = 0.5
    roof_in_hand: float = 9.0
    small: int = 5
    finish: int = 1
    tea_chance: float = 0.2
    good: float = 1.0
    bad: float = 1.0


DEFAULT_PARAMS = SearchParams()


@dataclass(frozen=True)
class RootMove:
    """A move at the root of a search: the visits of the position after it, and over them the mover's mean
    reward (in [0, 1]) and mean margin (the mover's value minus the best other seat's, in points)."""

    placement: Placement
    visits: int
    reward: float
    margin: float


@dataclass(frozen=True)
class SearchResult:
    """The root moves a search tried, the most visited first (its choice), the descents it made, and each
    seat's mean margin over them (the position's value to each seat)."""

    moves: list[RootMove]
    iterations: int
    margins: list[float]


def search(
    game,
    seed: int,
    iterations: int,
    seconds: float = 0.0,
    params: SearchParams = DEFAULT_PARAMS,
) -> SearchResult:
    """Search `game` (someone to move) with `iterations` descents, or until `seconds` have passed where
    > 0, its random choices drawn from `seed` (0 <= seed < 2**64)."""
    state = native.state_of(game)
    if state is None:
        raise NotImplementedError("the Python engine's tree search")
    found, done, margins = state.mcts(seed, iterations, seconds, astuple(params))
    decode = game.variant.decode
    return SearchResult(
        [RootMove(decode(move), visits, reward, margin) for move, visits, reward, margin in found],
        done,
        margins,
    )
