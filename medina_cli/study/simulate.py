"""A study from start to end: the games not finished yet are played, each written to the output
folder as it finishes, and the statistics of every ruleset gathered from all of them."""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Callable

from .folder import StudyFolder
from .parallel import Workers
from .results import Statistics
from .runner import Study, run_study


def simulate(
    study: Study,
    players: int,
    *,
    workers: Workers = Workers(),
    folder: StudyFolder | None = None,
    progress: Callable[[int], None] | None = None,
    notify: Callable[[str], None] | None = None,
    until: int | None = None,
    results: list[Statistics] | None = None,
) -> list[Statistics]:
    """The statistics of each part of `study`: the games already in `folder` are read back (those that
    do not check out are played again, and `notify` says so), the rest (below index `until` only,
    when given) played on the `workers` and written there. `progress(finished)` is called with the
    number of finished games, those read back included. The games are added to `results` (fresh
    statistics when not given: `fresh_results`). Raises StudyError (and KeyboardInterrupt): the games
    finished so far stay in `folder`, and in `results`."""
    results = fresh_results(study, players) if results is None else results
    done: list[set[int]] = [set() for _ in study.parts]
    if folder is not None:
        for part, index, summary in folder.finished():
            results[part].add(summary)
            done[part].add(index)
        note = folder.damage.note(folder.path)
        if note is not None and notify is not None:
            notify(note)
    finished = sum(map(len, done))
    if progress is not None:
        progress(finished)
    for played in run_study(study, workers, done, until):
        with (
            interrupts_held()
        ):  # the count said after Ctrl-C is that of the games written, to the last
            if folder is not None:
                folder.write(played)
            results[played.part].merge(played.statistics)
            finished += played.stop - played.start
            if progress is not None:
                progress(finished)
    return results


def fresh_results(study: Study, players: int) -> list[Statistics]:
    """Statistics without games, one per part of `study`."""
    return [Statistics(part.ruleset, players) for part in study.parts]


@contextlib.contextmanager
def interrupts_held():
    """Ctrl-C held back until the end of the block, then acted on (in the main thread, where Python
    handles signals; elsewhere the block runs as it is)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: held.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if held and callable(previous):
            previous(signal.SIGINT, None)
