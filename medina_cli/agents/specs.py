"""Agents named by spec strings: `random`, `greedy`, `mcts`, `mcts:200`."""

from __future__ import annotations

from ..errors import brief
from .base import Agent, UnknownAgent
from .mcts import MctsAgent
from .simple import GreedyAgent, RandomAgent


def agent_names() -> list[str]:
    return ["random", "greedy", "mcts", "mcts:N"]


MAX_PLAYOUTS = 10_000_000  # per decision (8 digits): hours for one placement already


def parse_spec(spec: str) -> tuple[str, int | None]:
    """`mcts:300` -> ("mcts", 300); an unknown or malformed spec raises UnknownAgent naming the valid ones."""
    name, _, budget = spec.strip().partition(":")
    name = name.lower()
    if name in ("random", "greedy") and not budget:
        return name, None
    if name == "mcts":
        if not budget:
            return name, None
        digits = budget.strip()
        if digits.isascii() and digits.isdigit() and len(digits) <= 8 and 1 <= int(digits) <= MAX_PLAYOUTS:
            return name, int(digits)
        raise _bad_spec(spec, f"the playout budget of mcts must be a whole number ≥ 1 (at most {MAX_PLAYOUTS:,}), "
                        f"not {brief(budget)}")
    raise _bad_spec(spec, f"unknown agent; the agents are {', '.join(agent_names())}")


def _bad_spec(spec: str, why: str) -> UnknownAgent:
    return UnknownAgent(f"agent {brief(spec)}: {why}")


def make_agent(spec: str, seed: int | str = 0) -> Agent:
    """The agent named by `spec`, its choices fixed by `seed`."""
    name, budget = parse_spec(spec)
    if name == "random":
        return RandomAgent(seed)
    if name == "greedy":
        return GreedyAgent(seed)
    return MctsAgent(seed, budget)
