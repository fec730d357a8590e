"""Players that choose placements: `random`, `greedy` and `mcts[:N]`, each deterministic for a seed.

Every agent has `choose(game) -> Placement` for the player to move. `greedy` and `mcts` also rate
the distinct moves (`rate(game)`, in their order of preference: `ranked_by`), which `medina hint` and
`medina analyse` show. A roof on any building of a palace is one move (`Game.distinct_placements()`).
"""

from __future__ import annotations

from .base import Agent, Rating, UnknownAgent
from .specs import agent_names, make_agent, parse_spec

__all__ = ["Agent", "Rating", "UnknownAgent", "agent_names", "make_agent", "parse_spec"]
