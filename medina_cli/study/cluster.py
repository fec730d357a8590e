"""The Dask distributed backend: a study's chunks on an existing cluster (`--scheduler ADDRESS`).

Dask plays a chunk again on another worker when the worker playing it is lost; since a chunk's
games depend only on the study and their indices, the result is the same. `distributed` is an
optional extra (`pip install 'medina-cli[cluster]'`), imported only here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from .runner import IN_FLIGHT_PER_WORKER, Finished, Study, StudyError, chunk_size, chunks, play_chunk

CONNECT_SECONDS = 10


def run_on_cluster(study: Study, address: str, done: Callable[[int, int], bool]) -> Iterator[Finished]:
    """Play the games not `done` on the cluster at `address` and yield each as it finishes."""
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise StudyError("--scheduler needs Dask distributed: pip install 'medina-cli[cluster]'") from None
    try:
        client = Client(address, timeout=CONNECT_SECONDS, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        raise StudyError(f"--scheduler {address}: cannot reach the scheduler ({exc})") from None
    try:
        workers = max(1, sum(client.nthreads().values()))
        pending = as_completed()
        for task in chunks(study, chunk_size(study.games, workers), done):
            pending.add(client.submit(play_chunk, task, pure=False))
            if pending.count() >= IN_FLIGHT_PER_WORKER * workers:
                yield from _results(next(pending), address)
        for future in pending:
            yield from _results(future, address)
    finally:
        client.close()


def _results(future, address: str) -> list[Finished]:
    try:
        return future.result()
    except Exception as exc:
        raise StudyError(f"--scheduler {address}: the cluster failed ({type(exc).__name__}: {exc})") from None
    finally:
        future.release()
