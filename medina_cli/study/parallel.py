"""The package's one parallel map: independent units of work (the games of a study, the placements
of a game to analyse) run in this process, in local worker processes (`--jobs`) or on a Dask
cluster (`--scheduler`), their results handed back as they finish.

The units come as spans `(context, start, stop)`, and `work(context, start, stop)` returns one
result per unit. Spans are cut into tasks by time: the first task of each worker holds one unit;
once some have come back, a task holds about TASK_SECONDS of work (as the workers measured it), at
most `per_task` units (MAX_UNITS unless the caller knows its results stay small) and at most a share
of what is left, so that the workers finish together, but no less than TAIL_SECONDS of work (each
task costs a round trip, on a cluster through its scheduler). Spans are read lazily and only a few
tasks per worker are in flight, so memory does not grow with the number of units. A task depends
only on its context and its units' indices, so how the units are cut, and which worker plays a task
again after losing one, never changes a result.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .backend import InProcess, LocalProcesses

if TYPE_CHECKING:
    from .cluster import DaskCluster

TASK_SECONDS = (
    0.5  # of work per task: the cost of sending one (a Dask round trip) is a small part of it
)
TAIL_SECONDS = (
    0.1  # of work at least, as the tasks shrink towards the end (the workers end within it)
)
MAX_UNITS = 1000  # per task, unless told otherwise: bounds what one result holds in memory
WAIT_FOR_WORKERS = 60  # seconds a cluster may go without any worker before the work stops


@dataclass(frozen=True)
class Workers:
    """Where the work runs: in this process (jobs 1), in `jobs` local processes, or on the Dask
    cluster at `scheduler`, which may go `wait_for_workers` seconds without a worker (at the start,
    or after losing them all) before the work stops; `notify(text)` tells the user meanwhile."""

    jobs: int = 1
    scheduler: str | None = None
    wait_for_workers: float = WAIT_FOR_WORKERS
    notify: Callable[[str], None] | None = None

    @contextlib.contextmanager
    def started(self) -> Iterator[Pool]:
        """The workers, started once for several maps in a row (a pool's start is paid once); stopped
        at the end. Raises StudyError when a cluster cannot be used."""
        backend: InProcess | LocalProcesses | DaskCluster
        if self.scheduler is not None:
            from .cluster import DaskCluster

            backend = DaskCluster(self.scheduler, self.wait_for_workers, self.notify)
        else:
            backend = InProcess() if self.jobs == 1 else LocalProcesses(self.jobs)
        try:
            yield Pool(backend)
        except (
            BaseException
        ):  # Ctrl-C, an error, or the caller stopped reading: the running tasks are dropped
            backend.close(abandon=True)
            raise
        backend.close()


def parallel_map(
    work: Callable,
    spans: Iterable[tuple],
    units: int,
    workers: Workers = Workers(),
    *,
    per_task: int = MAX_UNITS,
) -> Iterator:
    """`work(context, start, stop)` over every unit of `spans` (`units` of them in all) on `workers`
    started for this map alone (`Pool.map`)."""
    with workers.started() as pool:
        yield from pool.map(work, spans, units, per_task=per_task)


class Pool:
    """Started workers (`Workers.started`), on which maps run one after another."""

    def __init__(self, backend):
        self.backend = backend

    def map(
        self, work: Callable, spans: Iterable[tuple], units: int, *, per_task: int = MAX_UNITS
    ) -> Iterator:
        """`work(context, start, stop)` over every unit of `spans` (`units` of them in all), at most
        `per_task` units a task, the result of each task yielded as it finishes (in no set order; in
        order in this process). Raises StudyError when the work cannot go on."""
        backend = self.backend
        sizes = TaskSizes(units, per_task)
        tasks = cut(spans, sizes, lambda: backend.workers)
        pending: dict = {}  # handle -> units
        while True:
            for task in tasks:
                pending[backend.submit(work, task)] = task[2] - task[1]
                if len(pending) >= (backend.in_flight if sizes.timed else backend.workers):
                    break  # (one untimed task per worker: more would be as small, each a round trip)
            if not pending:
                return
            for handle, (seconds, result) in backend.finished(pending):
                sizes.measured(seconds, pending.pop(handle))
                yield result


def cut(spans: Iterable[tuple], sizes: TaskSizes, workers: Callable[[], int]) -> Iterator[tuple]:
    """The tasks `(context, start, stop)` of `spans`, each as long as `sizes` says when it is made."""
    for context, start, stop in spans:
        while start < stop:
            end = start + sizes.next(workers(), stop - start)
            yield context, start, end
            start = end


class TaskSizes:
    """How many units the next task holds: one until a task has been timed, then TASK_SECONDS' worth
    at the fastest rate measured (a worker's first task also pays for its start), at most `per_task`
    and at most half of what is left per worker, but at least TAIL_SECONDS' worth."""

    def __init__(self, units: int, per_task: int = MAX_UNITS):
        self.left, self.per_task = units, per_task
        self.seconds_per_unit: float | None = None

    @property
    def timed(self) -> bool:
        """Whether a task has been timed yet."""
        return self.seconds_per_unit is not None

    def worth(self, seconds: float) -> int:
        """The units that take `seconds` at the fastest rate measured (at most `per_task`; 1 untimed)."""
        if self.seconds_per_unit is None:
            return 1
        if self.seconds_per_unit * self.per_task <= seconds:
            return self.per_task
        return max(1, int(seconds / self.seconds_per_unit))

    def next(self, workers: int, most: int) -> int:
        """The units of the next task, at most `most`, when `workers` share the work."""
        share = max(self.left // (2 * workers), self.worth(TAIL_SECONDS))
        size = min(self.worth(TASK_SECONDS), share, most)
        self.left -= size
        return size

    def measured(self, seconds: float, units: int) -> None:
        rate = seconds / units
        if self.seconds_per_unit is None or rate < self.seconds_per_unit:
            self.seconds_per_unit = rate
