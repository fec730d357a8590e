"""Where a parallel map's tasks run: in this process or in local worker processes (here), or on a
Dask cluster (cluster.py). A backend submits tasks, hands back those that have finished, and says
how many workers it has and how many tasks it keeps in flight; the map (parallel.py) decides how big
the tasks are.

Every task runs as `run_task(work, task)`, which times it where it runs, so that the map can size
the next tasks by the time the work takes and not by the time results take to travel.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable

IN_FLIGHT_PER_WORKER = 3  # tasks: one running, the next ones waiting so that the worker never idles
PARENT_POLL_SECONDS = 0.5  # how often a local worker looks whether its parent is still there


class StudyError(Exception):
    """The work could not go on (a lost cluster, a dead worker process, no worker to run it): the
    message says why."""


class StudyRefused(StudyError):
    """The study's folder was refused before any game was played there (it holds another study, none to
    resume, or options that differ): the message says why."""


def job_limit() -> int:
    """The most local worker processes worth starting: four per CPU."""
    return 4 * (os.cpu_count() or 1)


def run_task(work: Callable, task: tuple) -> tuple[float, object]:
    """Worker entry: (seconds it took, `work(*task)`)."""
    start = time.perf_counter()
    result = work(*task)
    return time.perf_counter() - start, result


def worker_start(parent: int) -> None:
    """A local worker process's start: Ctrl-C is left to the parent, which stops the work (no traceback
    from each worker), and the worker ends once the `parent` process is gone (killed with SIGKILL, it
    could not stop its workers, which would wait for tasks for ever)."""
    import signal
    import threading

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(
        target=end_with, args=(parent,), name="end with the parent", daemon=True
    ).start()


def end_with(parent: int) -> None:
    """End this process as soon as `parent` is no longer its parent (an orphan is given to another)."""
    while os.getppid() == parent:
        time.sleep(PARENT_POLL_SECONDS)
    os._exit(1)


class InProcess:
    """Each task run at once, in this process."""

    workers = in_flight = 1

    def submit(self, work: Callable, task: tuple) -> Ran:
        """A handle on `work(*task)` (here, already run)."""
        return Ran(run_task(work, task))

    def finished(self, pending) -> list[tuple[object, tuple[float, object]]]:
        """(handle, (seconds, result)) of some of the `pending` tasks that have finished, at least one;
        waits for one if need be."""
        return [(ran, ran.output) for ran in pending]

    def close(self, abandon: bool = False) -> None:
        pass


class Ran:
    """A task run in this process: its (seconds, result)."""

    def __init__(self, output: tuple[float, object]):
        self.output = output


class LocalProcesses:
    """The tasks run in `jobs` worker processes on this machine."""

    def __init__(self, jobs: int):
        from concurrent.futures import ProcessPoolExecutor

        self.workers, self.in_flight = jobs, IN_FLIGHT_PER_WORKER * jobs
        self.pool = ProcessPoolExecutor(jobs, initializer=worker_start, initargs=(os.getpid(),))

    def submit(self, work: Callable, task: tuple):
        return self.pool.submit(run_task, work, task)

    def finished(self, pending) -> list[tuple[object, tuple[float, object]]]:
        from concurrent.futures import FIRST_COMPLETED, wait
        from concurrent.futures.process import BrokenProcessPool

        done, _ = wait(pending, return_when=FIRST_COMPLETED)
        try:
            return [(future, future.result()) for future in done]
        except BrokenProcessPool:
            raise StudyError("a worker process died (killed, or out of memory)") from None

    def close(self, abandon: bool = False) -> None:
        """Stop the workers: once their tasks are done, or at once when the tasks are `abandon`ed (after
        Ctrl-C or an error: what they were doing is lost, what came back is not)."""
        if not abandon:
            self.pool.shutdown(wait=True, cancel_futures=True)
            return
        with pipes_to_the_dead_tolerated():
            processes = list(
                (getattr(self.pool, "_processes", None) or {}).values()
            )  # no public way before 3.14
            for process in processes:
                process.terminate()
            for process in processes:
                process.join()
            # A worker terminated while sending a result leaves half a message in the pipe of results, which
            # the pool's thread would wait on for ever (this process holds the pipe's other end): closed, the
            # pipe ends there, and the pool stops as one whose workers died.
            with contextlib.suppress(AttributeError, OSError):
                # (a private of CPython's ProcessPoolExecutor: there is no public way to close the pipe)
                self.pool._result_queue._writer.close()  # type: ignore[attr-defined]
            self.pool.shutdown(wait=True, cancel_futures=True)


@contextlib.contextmanager
def pipes_to_the_dead_tolerated():
    """SIGPIPE ignored (in the main thread, where Python sets handlers) while the pool stops: it still
    writes to the pipes of the workers just terminated, and the command line's SIGPIPE (default: end
    the process quietly, for `| head`) would end this process there, without a word."""
    import signal
    import threading

    if not hasattr(signal, "SIGPIPE") or threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGPIPE, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGPIPE, previous)
