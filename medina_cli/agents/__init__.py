"""Players that choose placements: `random`, `greedy` and `mcts[:N]`, each deterministic for a seed.

Every agent has `choose(game) -> Placement` for the player to move. `greedy` and `mcts` also rate
the legal placements (`rate(game)`, best first), which `medina hint` and `medina analyse` show.
"""

from __future__ import annotations

from .base import Agent, Rating, UnknownAgent, agent_names, make_agent, parse_spec

__all__ = ["Agent", "Rating", "UnknownAgent", "agent_names", "make_agent", "parse_spec"]
