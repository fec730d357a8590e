"""The tree search (experimental name): one Monte Carlo tree per decision over positions, see search.h."""

from __future__ import annotations

from dataclasses import astuple, dataclass

from ..engine import native
from .base import Agent


@dataclass(frozen=True)
class SearchParams:
    exploration: float = 0.5
    widening: float = 1.0
    rollout: int = 0
    greedy: float = 0.5
    temperature: float = 4.0
    open_share: float = 0.5
    roof_in_hand: float = 9.0
    small: int = 5
    finish: int = 0
    tea_chance: float = 0.2


class TreeAgent(Agent):
    def __init__(self, seed=0, iterations=2000, seconds=0.0, params=SearchParams(), spec="tree"):
        self.spec = spec
        self.iterations, self.seconds, self.params = iterations, seconds, params
        super().__init__(seed)

    def _choose(self, game):
        state = native.state_of(game)
        moves, _ = state.mcts(
            self.rng.getrandbits(64), self.iterations, self.seconds, astuple(self.params)
        )
        return game.variant.decode(moves[0][0])
