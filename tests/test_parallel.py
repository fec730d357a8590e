"""The package's parallel map (study/parallel.py): every unit of every span exactly once, whatever runs
the tasks and however they are cut; tasks sized by measured time within their bounds."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from medina_cli.study.backend import InProcess
from medina_cli.study.parallel import (
    MAX_UNITS,
    TAIL_SECONDS,
    TASK_SECONDS,
    Pool,
    TaskSizes,
    Workers,
    cut,
    parallel_map,
)


def units_of(context: str, start: int, stop: int) -> list[tuple[str, int]]:
    """A worker's work: one result per unit, naming it."""
    return [(context, index) for index in range(start, stop)]


SPANS = [("a", 0, 7), ("a", 9, 10), ("b", 3, 250), ("c", 0, 1)]


@pytest.mark.parametrize("jobs", [1, 2])
def test_every_unit_comes_back_once(jobs):
    units = sum(stop - start for _, start, stop in SPANS)
    results = [
        unit for part in parallel_map(units_of, SPANS, units, Workers(jobs)) for unit in part
    ]
    assert sorted(results) == sorted(unit for span in SPANS for unit in units_of(*span))


@pytest.mark.parametrize("jobs", [1, 2])
def test_maps_one_after_another_on_workers_started_once(jobs):
    with Workers(jobs).started() as pool:
        abandoned = pool.map(units_of, [("x", 0, 500)], 500)
        next(
            abandoned
        )  # a map left before its end: its tasks still running do not reach the next map
        abandoned.close()
        for context in ("y", "z"):
            results = [unit for part in pool.map(units_of, [(context, 0, 40)], 40) for unit in part]
            assert sorted(results) == units_of(context, 0, 40)


def test_in_this_process_the_results_come_in_order():
    results = [unit for part in parallel_map(units_of, SPANS, 255) for unit in part]
    assert results == [unit for span in SPANS for unit in units_of(*span)]


def test_the_first_task_holds_one_unit_then_about_task_seconds_of_work():
    sizes = TaskSizes(100_000)
    assert sizes.next(2, 10**9) == 1
    sizes.measured(0.3, 1)  # a slow first task (the worker starting) does not set the pace
    sizes.measured(0.25, 32)
    assert sizes.next(2, 10**9) == TASK_SECONDS * 128
    sizes.measured(0.0, 10)  # too quick to time
    assert sizes.next(2, 10**9) == MAX_UNITS


@pytest.mark.slow
@given(
    spans=st.lists(st.tuples(st.integers(0, 50), st.integers(0, 3000)), max_size=6),
    rates=st.lists(st.floats(0, 2), min_size=1, max_size=20),
    workers=st.integers(1, 32),
    per_task=st.sampled_from([MAX_UNITS, 7, 10**5]),
)
@settings(max_examples=200, deadline=None)
def test_tasks_cover_the_spans_in_bounds(spans, rates, workers, per_task):
    spans = [(n, start, start + length) for n, (start, length) in enumerate(spans)]
    units = sum(stop - start for _, start, stop in spans)
    sizes = TaskSizes(units, per_task)
    tasks, floors = [], []
    floor = 1  # the units of TAIL_SECONDS' work when the next task is cut
    for task in cut(spans, sizes, lambda: workers):
        tasks.append(task)
        floors.append(floor)
        sizes.measured(rates[len(tasks) % len(rates)] * (task[2] - task[1]), task[2] - task[1])
        floor = sizes.worth(TAIL_SECONDS)
    assert [unit for task in tasks for unit in units_of(*task)] == [
        unit for span in spans for unit in units_of(*span)
    ]
    assert all(1 <= stop - start <= per_task for _, start, stop in tasks)
    left = units
    for (_, start, stop), floor in zip(
        tasks, floors, strict=True
    ):  # never more than half of what is left per worker, bar
        assert stop - start <= max(
            floor, left // (2 * workers)
        )  # single units and TAIL_SECONDS' work
        left -= stop - start


def test_towards_the_end_tasks_shrink_to_shares_of_what_is_left_but_not_below_tail_seconds():
    rate = 0.001  # seconds a unit
    sizes = TaskSizes(4000, 10**5)
    sizes.measured(rate, 1)
    tasks = [end - start for _, start, end in cut([(0, 0, 4000)], sizes, lambda: 2)]
    assert tasks == [500] * 5 + [375, 281, 211, 158, 118] + [100] * 3 + [
        57
    ]  # TASK_SECONDS' worth (500 units),
    assert (
        TAIL_SECONDS / rate == 100
    )  # then a quarter of what is left (two workers), then TAIL_SECONDS' worth


class Watched(InProcess):
    """Tasks run in this process, as if by two workers keeping six in flight; how many tasks were pending
    at each wait for results is recorded."""

    workers, in_flight = 2, 6

    def __init__(self):
        self.pending_sizes = []

    def finished(self, pending):
        self.pending_sizes.append(len(pending))
        return super().finished(pending)


def test_one_untimed_task_per_worker_is_in_flight_then_in_flight_tasks():
    backend = Watched()
    results = [
        unit for part in Pool(backend).map(units_of, [("a", 0, 10_000)], 10_000) for unit in part
    ]
    assert results == units_of("a", 0, 10_000)
    assert (
        backend.pending_sizes[0] == backend.workers
    )  # the first tasks, of one unit each: one per worker
    assert max(backend.pending_sizes) == backend.in_flight


ABANDON = """
import signal, sys, time
signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # as the command line sets it (`| head` ends it quietly)
from medina_cli.study.backend import LocalProcesses
from medina_cli.study.runner import play_chunk
if __name__ == "__main__":
    from medina_cli.rules.loader import load_ruleset
    context = (0, load_ruleset("original-2001").for_players(4), "original-2001", None, 1, (), None)
    for attempt in range(int(sys.argv[1])):
        backend = LocalProcesses(2)
        for start in range(6):
            backend.submit(play_chunk, (context, 1000 * start, 1000 * start + 1000))
        time.sleep(0.05 + 0.02 * (attempt % 5))
        backend.close(abandon=True)
    print("survived")
"""


@pytest.mark.slow
def test_workers_stopped_at_once_leave_this_process_alive_and_silent(tmp_path):
    """Ctrl-C on --jobs terminates the workers; stopping the pool then writes to their pipes, and with the
    command line's SIGPIPE that ended the whole process at once, without its 'interrupted' line (exit 141)."""
    import subprocess
    import sys

    (tmp_path / "abandon.py").write_text(ABANDON)
    done = subprocess.run(
        [sys.executable, str(tmp_path / "abandon.py"), "20"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, "survived\n", "")


HALF_SENT = """
from pathlib import Path
from medina_cli.study.backend import LocalProcesses

def big(size):
    return b"x" * size

if __name__ == "__main__":
    import time
    backend = LocalProcesses(1)
    backend.submit(big, (1 << 28,))
    worker = next(iter(backend.pool._processes))
    while "pipe_write" not in Path(f"/proc/{worker}/wchan").read_text():  # until it waits to send more of its result
        time.sleep(0.0005)
    backend.close(abandon=True)
    print("stopped")
"""


@pytest.mark.skipif(
    not Path("/proc/self/wchan").exists(), reason="watches the worker's writing in /proc"
)
def test_a_worker_stopped_while_it_sends_a_result_does_not_hang_the_pool(tmp_path):
    """Ctrl-C while a worker sent a large result (a round of games) left half a message in the pipe of
    results, on which the pool's thread waited for ever: the command never ended."""
    import subprocess
    import sys

    (tmp_path / "half_sent.py").write_text(HALF_SENT)
    done = subprocess.run(
        [sys.executable, str(tmp_path / "half_sent.py")], capture_output=True, text=True, timeout=60
    )
    assert (done.returncode, done.stdout) == (0, "stopped\n"), done.stderr
