"""The agent interface, ratings, and agents named by spec strings (`random`, `greedy`, `mcts:200`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from ..engine.native import generator


class UnknownAgent(ValueError):
    """An agent spec that names no agent, or an agent asked for what it cannot do."""


@dataclass
class Rating:
    """A legal placement with the agent's estimate of it, from the mover's side.

    `value`: the final score margin the mover can expect after it (own total minus the best other
    player's), in points; for `greedy` the margin if the game ended right after it.
    `win`: the chance that the mover wins (shared wins in part), where the agent estimates one.
    `playouts`: how many simulated games the estimate rests on (0 for `greedy`).
    `palace`: for a roof or neutral roof, where `medina hint` names it, the colour of the palace it
    claims and its buildings' cells (a roof on any of them is the same move).
    `interval`: where the value is an estimate, its interval at the agent's confidence.
    `tied`: is it the best or statistically tied with it (the best's lead over it is not significant)?"""

    placement: object
    value: float
    win: float | None = None
    playouts: int = 0
    palace: tuple[str, list[str]] | None = None
    interval: tuple[float, float] | None = None
    tied: bool | None = None

    def to_json(self) -> dict:
        out = {"placement": str(self.placement), "value": round(self.value, 2)}
        if self.win is not None:
            out["win"] = round(self.win, 3)
            out["playouts"] = self.playouts
        if self.palace is not None:
            out["palace"] = {"colour": self.palace[0], "cells": self.palace[1]}
        if self.interval is not None:
            out["value_interval"] = [round(self.interval[0], 2), round(self.interval[1], 2)]
        if self.tied is not None:
            out["tied_with_best"] = self.tied
        return out


class Agent:
    """A player: `choose(game)` returns a legal placement for the player to move."""

    spec: str
    rates = False  # does `rate` give meaningful values?
    estimates = False  # are they estimates (with intervals), not exact?
    confidence: float | None = None  # the confidence of its intervals and verdicts, where it estimates
    ranked_by = "value"  # what orders `rate`'s list: "value", or "playouts" (the most searched first)

    def __init__(self, seed: int | str = 0):
        self.rng = generator(f"medina-agent/{self.spec}/{seed}")

    def choose(self, game):
        raise NotImplementedError

    def rate(self, game, *, include=None) -> list[Rating]:
        """Every distinct move it considered (a roof on a palace once, on its lowest cell), in its order of
        preference (`ranked_by`); `include`: a placement whose move must be rated."""
        raise UnknownAgent(f"{self.spec} does not rate placements; use greedy or mcts[:N]")


def agent_names() -> list[str]:
    return ["random", "greedy", "mcts", "mcts:N", "mcts@C", "mcts:N@C"]


class AgentSpec(NamedTuple):
    """An agent spec read: its kind, and for mcts the cap on playouts per decision and the confidence
    it searches to (None: the defaults). `str()` spells it canonically (`mcts:2000@0.99`)."""

    name: str
    playouts: int | None = None
    confidence: float | None = None

    def __str__(self) -> str:
        return (self.name + (f":{self.playouts}" if self.playouts is not None else "")
                + (f"@{self.confidence:g}" if self.confidence is not None else ""))


def parse_spec(spec: str) -> AgentSpec:
    """`mcts:300` -> ("mcts", 300, None), `mcts:5000@0.99` -> ("mcts", 5000, 0.99); an unknown or malformed
    spec raises UnknownAgent naming the valid ones."""
    head, at, confidence = spec.strip().partition("@")
    name, _, budget = head.partition(":")
    name = name.lower()
    if name in ("random", "greedy") and not budget and not at:
        return AgentSpec(name)
    if name != "mcts":
        raise _bad_spec(spec, f"unknown agent; the agents are {', '.join(agent_names())}")
    if budget and not (budget.isdigit() and int(budget) >= 1):
        raise _bad_spec(spec, f"the playout budget of mcts must be a whole number ≥ 1, not {budget!r}")
    if at and not _is_confidence(confidence):
        raise _bad_spec(spec, f"the confidence of mcts must be a number between 0.5 and 1 (e.g. 0.99), not "
                              f"{confidence!r}")
    return AgentSpec(name, int(budget) if budget else None, float(confidence) if at else None)


def _is_confidence(text: str) -> bool:
    try:
        return 0.5 <= float(text) < 1
    except ValueError:
        return False


def _bad_spec(spec: str, why: str) -> UnknownAgent:
    return UnknownAgent(f"agent {spec!r}: {why}")


def make_agent(spec: str, seed: int | str = 0) -> Agent:
    """The agent named by `spec`, its choices fixed by `seed`."""
    name, playouts, confidence = parse_spec(spec)
    if name == "random":
        from .simple import RandomAgent
        return RandomAgent(seed)
    if name == "greedy":
        from .simple import GreedyAgent
        return GreedyAgent(seed)
    from .mcts import MctsAgent
    return MctsAgent(seed, playouts, confidence)
