"""Agents named by spec strings: `random`, `greedy`, `mcts`, `mcts:3000`, `mcts:2s`, `mcts@0.99`,
`mcts:3000@0.99`, `alphabeta`, `alphabeta:4`."""

from __future__ import annotations

from ..errors import brief
from .alphabeta import MAX_DEPTH, AlphaBetaAgent
from .base import Agent, AgentSpec, UnknownAgent
from .search import MAX_PLAYOUTS, MctsAgent
from .simple import GreedyAgent, RandomAgent


def agent_names() -> list[str]:
    return [
        "random",
        "greedy",
        "mcts",
        "mcts:N",
        "mcts:Ts",
        "mcts@C",
        "mcts:N@C",
        "alphabeta",
        "alphabeta:D",
    ]


MAX_SECONDS = 3600.0  # per decision: an hour, past any use at a table


def parse_spec(spec: str) -> AgentSpec:
    """`mcts:300` -> AgentSpec("mcts", 300), `mcts:2s` -> AgentSpec("mcts", seconds=2.0), `mcts:5000@0.99`
    -> AgentSpec("mcts", 5000, 0.99), `alphabeta:4` -> AgentSpec("alphabeta", depth=4); an unknown or
    malformed spec raises UnknownAgent naming the valid ones."""
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
    seconds = _seconds(budget) if budget.lower().endswith("s") else None
    if (
        seconds is None
        and budget
        and not (
            budget.isascii()
            and budget.isdigit()
            and len(budget) <= 8
            and 1 <= int(budget) <= MAX_PLAYOUTS
        )
    ):
        raise _bad_spec(
            spec,
            f"the playout budget of mcts must be a whole number ≥ 1 (at most {MAX_PLAYOUTS:,}), or "
            f"seconds such as 2s (0.001s to {MAX_SECONDS:g}s), not {brief(budget)}",
        )
    if at and not _is_confidence(confidence):
        raise _bad_spec(
            spec,
            f"the confidence of mcts must be a number between 0.5 and 1 (e.g. 0.99), not "
            f"{brief(confidence)}",
        )
    playouts = int(budget) if budget and seconds is None else None
    return AgentSpec(name, playouts, float(confidence) if at else None, seconds)


def _seconds(budget: str) -> float | None:
    """`2s`, `0.5s` as seconds (at least 0.001, at most MAX_SECONDS, at most three decimals: a spec
    spelt back reads the same); None for anything else."""
    number = budget[:-1].strip()
    whole, _, decimals = number.partition(".")
    if not (
        number.isascii()
        and number.replace(".", "", 1).isdigit()
        and len(whole) <= 4
        and len(decimals) <= 3
    ):
        return None
    value = float(number)
    return value if 0.001 <= value <= MAX_SECONDS else None


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
    return AgentSpec("alphabeta", depth=int(depth) if depth else None)


def _is_confidence(text: str) -> bool:
    try:
        return 0.5 <= float(text) < 1
    except ValueError:
        return False


def _bad_spec(spec: str, why: str) -> UnknownAgent:
    return UnknownAgent(f"agent {brief(spec)}: {why}")


def make_agent(spec: str, seed: int | str = 0) -> Agent:
    """The agent named by `spec`, its choices fixed by `seed`."""
    parsed = parse_spec(spec)
    if parsed.name == "random":
        return RandomAgent(seed)
    if parsed.name == "greedy":
        return GreedyAgent(seed)
    if parsed.name == "alphabeta":
        return AlphaBetaAgent(seed, parsed.depth)
    return MctsAgent(seed, parsed.playouts, parsed.confidence, parsed.seconds)
