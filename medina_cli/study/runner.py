"""Running a study: its games played in this process, in local worker processes (`--jobs`) or on a
Dask distributed cluster (`--scheduler`), and handed back as they finish.

The games are cut into tasks by the package's parallel map (parallel.py), which keeps memory
small and the workers busy. A game depends only on the study and its index, so the games are the
same however they are cut and wherever they are played.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..engine import native
from .backend import StudyError
from .games import agents_engine, play_game
from .parallel import MAX_UNITS, Workers, parallel_map
from .results import Statistics

if TYPE_CHECKING:
    from ..rules.typed import Rules

GAMES_PER_TASK = (
    100_000  # without records a task brings back its statistics alone, however many games
)


@dataclass(frozen=True)
class Part:
    """One ruleset's games in a study."""

    ruleset: str  # its id
    rules: (
        Rules | None
    )  # the engine's Rules for the study's player count (None: a study read, not played)
    record_ref: str | None = None  # how written records name the ruleset; None: write no records


@dataclass(frozen=True)
class Study:
    """What a study plays: `games` games per part from `seed`, `seats` the player of each seat
    (empty: uniform random play)."""

    parts: tuple[Part, ...]
    games: int
    seed: int
    seats: tuple[str, ...] = ()


@dataclass(frozen=True)
class Played:
    """A task's games as a worker hands them back: their statistics gathered (so the client adds a
    task's worth at once, not game by game), and when the study writes its games, each game's summary
    and moves (as JSON: what its record needs; the record/1 text is written only when asked for)."""

    part: int
    start: int
    stop: int
    statistics: Statistics
    games: tuple[dict, ...] = ()  # {"game": index + 1, "summary", "setup", "turns"}, by index


def play_chunk(context: tuple, start: int, stop: int) -> Played:
    """Worker entry: play games start..stop-1 of one part. Raises StudyError on a worker whose engine is
    not the study's (`agents_engine`, as the client found it): its agents would play other games."""
    part_number, rules, ruleset_id, record_ref, seed, seats, engine = context
    if engine is not None and native.engine_name() != engine:
        raise StudyError(
            f"a worker plays on the {native.engine_name()} engine, not on the {engine} engine of "
            "this study: give every worker the same engine (MEDINA_ENGINE, or a native core built "
            "on every worker)"
        )
    statistics = Statistics(ruleset_id, rules.players)
    games = []
    for index in range(start, stop):
        summary, moves = play_game(rules, seed, index, seats=seats, moves=record_ref is not None)
        statistics.add(summary)
        if moves is not None:
            games.append({"game": index + 1, "summary": summary.to_json(), **moves.to_json()})
    return Played(part_number, start, stop, statistics, tuple(games))


def spans(
    study: Study, done: Sequence[Collection[int]], until: int | None = None
) -> Iterator[tuple]:
    """The runs of consecutive games below `until` (default: every game) not in `done[part]` yet, as
    (context, start, stop)."""
    stop = _stop(study, until)
    for number, part in enumerate(study.parts):
        context = (
            number,
            part.rules,
            part.ruleset,
            part.record_ref,
            study.seed,
            study.seats,
            agents_engine(study.seats),
        )
        start = 0
        for index in sorted(index for index in done[number] if index < stop):
            if start < index:
                yield context, start, index
            start = index + 1
        if start < stop:
            yield context, start, stop


def _stop(study: Study, until: int | None) -> int:
    """Where the games to play stop (the index after the last): `until`, at most every game."""
    return study.games if until is None else min(until, study.games)


def run_study(
    study: Study,
    workers: Workers = Workers(),
    done: Sequence[Collection[int]] | None = None,
    until: int | None = None,
) -> Iterator[Played]:
    """Play every game of `study` below index `until` (default: every game) whose index is not in
    `done[part]` on the `workers`, and yield the games of each task as it finishes (in no set order).
    Raises StudyError when the study cannot go on."""
    done = done or [()] * len(study.parts)
    stop = _stop(study, until)
    left = sum(stop - sum(1 for index in indices if index < stop) for indices in done)
    records = any(part.record_ref is not None for part in study.parts)
    return parallel_map(
        play_chunk,
        spans(study, done, until),
        left,
        workers,
        per_task=MAX_UNITS if records else GAMES_PER_TASK,
    )
