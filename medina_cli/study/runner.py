"""Running a study: its games played in this process, in local worker processes (`--jobs`) or on a
Dask distributed cluster (`--scheduler`), and handed back as they finish.

The games are cut into tasks by the package's parallel map (parallel.py), which keeps memory
small and the workers busy. A game depends only on the study and its index, so the games are the
same however they are cut and wherever they are played.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass

from .games import GameSummary, play_one
from .parallel import Workers, parallel_map


@dataclass(frozen=True)
class Part:
    """One ruleset's games in a study."""

    ruleset: str  # its id
    rules: object  # the engine's Rules for the study's player count
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
class Finished:
    """A game as it comes back from a worker."""

    part: int
    index: int
    summary: GameSummary
    record: str | None


def play_chunk(context: tuple, start: int, stop: int) -> list[Finished]:
    """Worker entry: play games start..stop-1 of one part."""
    part_number, rules, record_ref, seed, seats = context
    return [Finished(part_number, index, *play_one(rules, seed, index, seats=seats, record_ref=record_ref))
            for index in range(start, stop)]


def spans(study: Study, done: Sequence[Collection[int]]) -> Iterator[tuple]:
    """The runs of consecutive games not in `done[part]` yet, as (context, start, stop)."""
    for number, part in enumerate(study.parts):
        context = (number, part.rules, part.record_ref, study.seed, study.seats)
        start = 0
        for index in sorted(done[number]):
            if start < index:
                yield context, start, index
            start = index + 1
        if start < study.games:
            yield context, start, study.games


def run_study(study: Study, workers: Workers = Workers(), done: Sequence[Collection[int]] | None = None
              ) -> Iterator[Finished]:
    """Play every game of `study` whose index is not in `done[part]` and yield each as it finishes (in
    no set order) on the `workers`. Raises StudyError when the study cannot go on."""
    done = done or [()] * len(study.parts)
    left = len(study.parts) * study.games - sum(map(len, done))
    for finished in parallel_map(play_chunk, spans(study, done), left, workers):
        yield from finished
