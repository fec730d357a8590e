"""The agent interface and ratings."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from ..engine.native import generator
from ..engine.placement import IllegalPlacement


class UnknownAgent(ValueError):
    """An agent spec that names no agent, or an agent asked for what it cannot do."""


@dataclass
class Rating:
    """A legal placement with the agent's estimate of it, from the mover's side.

    `value`: the final score margin the mover can expect after it (own total minus the best other
    player's), in points; for `greedy` the margin if the game ended right after it (a roof on a palace
    smaller than five: the margin now minus 1).
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
    confidence: float | None = (
        None  # the confidence of its intervals and verdicts, where it estimates
    )
    ranked_by = (
        "value"  # what orders `rate`'s list: "value", or "playouts" (the most searched first)
    )

    def __init__(self, seed: int | str = 0):
        self.rng = generator(f"medina-agent/{self.spec}/{seed}")

    def choose(self, game):
        """A legal placement for the player to move. Raises IllegalPlacement (code `game-over`) once the
        game is over, as `game.push` does."""
        return self._choose(in_play(game))

    def _choose(self, game):
        raise NotImplementedError

    def rate(self, game, *, include=None) -> list[Rating]:
        """Every distinct move it considered (a roof on a palace once, on its lowest cell), in its order of
        preference (`ranked_by`); `include`: a placement whose move must be rated. Raises UnknownAgent for
        an agent that does not rate, IllegalPlacement (code `game-over`) once the game is over."""
        if not self.rates:
            raise UnknownAgent(f"{self.spec} does not rate placements; use greedy or mcts[:N]")
        return self._rate(in_play(game), include=include)

    def _rate(self, game, *, include=None) -> list[Rating]:
        raise NotImplementedError


def in_play(game):
    """`game`, where someone is to move; else IllegalPlacement `game-over`, the error of a push then."""
    if game.is_over():
        raise IllegalPlacement("game-over", "the game has already ended")
    return game


class AgentSpec(NamedTuple):
    """An agent spec read: its kind; for mcts the playouts (or the seconds) per decision and the
    confidence of its intervals, for alphabeta the depth (None: the defaults). `str()` spells it
    canonically (`mcts:2000@0.99`, `mcts:2s`, `alphabeta:4`)."""

    name: str
    playouts: int | None = None
    confidence: float | None = None
    seconds: float | None = None  # a budget of time instead of playouts
    depth: int | None = None

    def __str__(self) -> str:
        return (
            self.name
            + (f":{self.playouts}" if self.playouts is not None else "")
            + (
                f":{self.seconds:.3f}".rstrip("0").rstrip(".") + "s"
                if self.seconds is not None
                else ""
            )
            + (f":{self.depth}" if self.depth is not None else "")
            + (f"@{float(self.confidence)!r}" if self.confidence is not None else "")
        )  # repr: reads back
