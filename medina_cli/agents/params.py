"""The constants of the agents' evaluation and searches (search.h's SearchParams, in its order)."""

from __future__ import annotations

from dataclasses import dataclass


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
