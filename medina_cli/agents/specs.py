"""Agents named by spec strings: `random`, `greedy`, `mcts`, `mcts:3000`, `mcts@0.99`, `mcts:3000@0.99`,
`alphabeta`, `alphabeta:4`."""

from __future__ import annotations

from ..errors import brief
from .alphabeta import MAX_DEPTH, AlphaBetaAgent
from .base import Agent, AgentSpec, UnknownAgent
from .mcts import MctsAgent
from .simple import GreedyAgent, RandomAgent


def agent_names() -> list[str]:
    return ["random", "greedy", "mcts", "mcts:N", "mcts@C", "mcts:N@C", "alphabeta", "alphabeta:D"]


MAX_PLAYOUTS = 10_000_000  # per decision (8 digits): hours for one placement already


def parse_spec(spec: str) -> AgentSpec:
    """`mcts:300` -> ("mcts", 300, None), `mcts:5000@0.99` -> ("mcts", 5000, 0.99), `alphabeta:4` ->
    ("alphabeta", 4, None); an unknown or malformed spec raises UnknownAgent naming the valid ones."""
    head, at, confidence = spec.strip().partition("@")
    name, _, budget = head.partition(":")
    name = name.lower()
    if name in ("random", "greedy") and not budget and not at:
        return AgentSpec(name)
    if name == "alphabeta":
        return _alphabeta_spec(spec, budget.strip(), at)
    if name != "mcts":
        raise _bad_spec(spec, f"unknown agent; the agents are {', '.join(agent_names())}")
    budget = budget.strip()
    if budget and not (
        budget.isascii()
        and budget.isdigit()
        and len(budget) <= 8
        and 1 <= int(budget) <= MAX_PLAYOUTS
    ):
        raise _bad_spec(
            spec,
            f"the playout budget of mcts must be a whole number ≥ 1 (at most {MAX_PLAYOUTS:,}), "
            f"not {brief(budget)}",
        )
    if at and not _is_confidence(confidence):
        raise _bad_spec(
            spec,
            f"the confidence of mcts must be a number between 0.5 and 1 (e.g. 0.99), not "
            f"{brief(confidence)}",
        )
    return AgentSpec(name, int(budget) if budget else None, float(confidence) if at else None)


def _alphabeta_spec(spec: str, depth: str, at: str) -> AgentSpec:
    if at:
        raise _bad_spec(spec, "alphabeta takes a depth (alphabeta:D), not a confidence")
    if depth and not (
        depth.isascii() and depth.isdigit() and len(depth) <= 2 and 1 <= int(depth) <= MAX_DEPTH
    ):
        raise _bad_spec(
            spec,
            f"the depth of alphabeta must be a whole number of placements from 1 to {MAX_DEPTH}, "
            f"not {brief(depth)}",
        )
    return AgentSpec("alphabeta", int(depth) if depth else None)


def _is_confidence(text: str) -> bool:
    try:
        return 0.5 <= float(text) < 1
    except ValueError:
        return False


def _bad_spec(spec: str, why: str) -> UnknownAgent:
    return UnknownAgent(f"agent {brief(spec)}: {why}")


def make_agent(spec: str, seed: int | str = 0) -> Agent:
    """The agent named by `spec`, its choices fixed by `seed`."""
    name, playouts, confidence = parse_spec(spec)
    if name == "random":
        return RandomAgent(seed)
    if name == "greedy":
        return GreedyAgent(seed)
    if name == "alphabeta":
        return AlphaBetaAgent(seed, playouts)
    return MctsAgent(seed, playouts, confidence)
