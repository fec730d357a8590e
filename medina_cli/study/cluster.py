"""The Dask distributed backend: a study's chunks on an existing cluster (`--scheduler ADDRESS`).

Dask plays a chunk again on another worker when the worker playing it is lost; since a chunk's
games depend only on the study and their indices, the result is the same. `distributed` is an
optional extra (`pip install 'medina-cli[cluster]'`), imported only here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from concurrent.futures import CancelledError

from .runner import IN_FLIGHT_PER_WORKER, Finished, Study, StudyError, chunk_size, chunks, in_windows, play_chunk

CONNECT_SECONDS = 10  # to reach the scheduler, and to reach it again after losing it


def run_on_cluster(study: Study, address: str, done: Callable[[int, int], bool]) -> Iterator[Finished]:
    """Play the games not `done` on the cluster at `address` and yield each as it finishes."""
    try:
        import distributed
    except ImportError:
        raise StudyError("--scheduler needs Dask distributed: pip install 'medina-cli[cluster]'") from None
    try:
        client = distributed.Client(address, timeout=CONNECT_SECONDS, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        raise StudyError(f"--scheduler {address}: cannot reach the scheduler ({exc})") from None

    completed = distributed.as_completed(loop=client.loop)  # bound to this client, not a default one

    def submit(task: tuple):
        future = client.submit(play_chunk, task, pure=False)
        completed.add(future)
        return future

    def wait_first(futures: set):
        first = next(completed)
        return {first}, futures - {first}

    try:
        workers = max(1, sum(client.nthreads().values()))
        tasks = chunks(study, chunk_size(study.games, workers), done)
        for future in in_windows(tasks, submit, wait_first, IN_FLIGHT_PER_WORKER * workers):
            try:
                yield from future.result()
            finally:
                future.release()
    except Exception as exc:
        # the client cancels every task when it gives up reaching its scheduler again
        if client.status in ("closing", "closed") or isinstance(exc, (CancelledError, OSError, TimeoutError)):
            raise StudyError(f"--scheduler {address}: lost the scheduler") from None
        raise StudyError(f"--scheduler {address}: the cluster failed ({type(exc).__name__}: {exc})") from None
    finally:
        client.close()
