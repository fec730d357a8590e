"""Running a study: its games cut into small chunks, played in this process, in local worker
processes (`--jobs`) or on a Dask distributed cluster (`--scheduler`), and handed back as they finish.

Chunks are made lazily and only a few per worker are in flight at a time, so memory does not grow
with the number of games. A chunk's games depend only on the study and their indices, so a chunk
that a lost worker was playing can be played again anywhere with the same result.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from .games import GameSummary, play_one

IN_FLIGHT_PER_WORKER = 4  # chunks queued per worker: enough to keep it busy, few enough to stay small


class StudyError(Exception):
    """The study could not go on (a lost cluster, a dead worker process): the message says why."""


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


def job_limit() -> int:
    """The most local worker processes worth starting: four per CPU."""
    return 4 * (os.cpu_count() or 1)


def play_chunk(task: tuple) -> list[Finished]:
    """Worker entry: play games start..stop-1 of one part."""
    part_number, rules, record_ref, seed, seats, start, stop = task
    return [Finished(part_number, index, *play_one(rules, seed, index, seats=seats, record_ref=record_ref))
            for index in range(start, stop)]


def chunks(study: Study, size: int, done: Callable[[int, int], bool]) -> Iterator[tuple]:
    """The tasks of the games not `done(part, index)` yet, runs of consecutive games up to `size` long."""
    for number, part in enumerate(study.parts):
        start = None
        for index in range(study.games):
            if done(number, index):
                if start is not None:
                    yield (number, part.rules, part.record_ref, study.seed, study.seats, start, index)
                    start = None
                continue
            if start is None:
                start = index
            elif index - start == size:
                yield (number, part.rules, part.record_ref, study.seed, study.seats, start, index)
                start = index
        if start is not None:
            yield (number, part.rules, part.record_ref, study.seed, study.seats, start, study.games)


def chunk_size(games: int, workers: int) -> int:
    """Small chunks, so that the workers finish together; at most 20 games."""
    return max(1, min(20, games // (workers * 16)))


def run_study(study: Study, *, jobs: int = 1, scheduler: str | None = None,
              done: Callable[[int, int], bool] = lambda part, index: False) -> Iterator[Finished]:
    """Play every game of `study` not `done` yet and yield each as it finishes (in no set order):
    in this process (jobs 1), in `jobs` local processes, or on the Dask cluster at `scheduler`.
    Raises StudyError when the study cannot go on."""
    if scheduler is not None:
        from .cluster import run_on_cluster
        yield from run_on_cluster(study, scheduler, done)
        return
    for finished in map_chunks(play_chunk, chunks(study, chunk_size(study.games, jobs), done), jobs):
        yield from finished


def map_chunks(work: Callable, tasks: Iterator[tuple], jobs: int) -> Iterator:
    """`work(task)` of every task, in this process (jobs 1) or in `jobs` local processes with a few
    tasks per process in flight, yielded as they finish. Raises StudyError if a process dies."""
    if jobs == 1:
        yield from map(work, tasks)
        return
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
    from concurrent.futures.process import BrokenProcessPool

    def submit(task: tuple):
        return pool.submit(work, task)

    def wait_first(futures: set):
        return wait(futures, return_when=FIRST_COMPLETED)

    pool = ProcessPoolExecutor(jobs, initializer=ignore_interrupts)
    try:
        for future in in_windows(tasks, submit, wait_first, IN_FLIGHT_PER_WORKER * jobs):
            yield future.result()
    except BrokenProcessPool:
        raise StudyError("a worker process died (killed, or out of memory)") from None
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def in_windows(tasks: Iterator[tuple], submit: Callable, wait_first: Callable, window: int) -> Iterator:
    """Submit the tasks with at most `window` in flight and yield each future as it completes;
    `wait_first(futures)` returns (completed, pending) as soon as one is done."""
    pending: set = set()
    for task in tasks:
        pending.add(submit(task))
        if len(pending) >= window:
            completed, pending = wait_first(pending)
            yield from completed
    while pending:
        completed, pending = wait_first(pending)
        yield from completed


def ignore_interrupts() -> None:
    """Workers leave Ctrl-C to the parent, which stops the study (no traceback from each worker)."""
    import signal
    signal.signal(signal.SIGINT, signal.SIG_IGN)
