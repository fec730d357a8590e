"""A study from start to end: the games not finished yet are played, each written to the output
folder as it finishes, and the statistics of every ruleset gathered from all of them."""

from __future__ import annotations

from collections.abc import Callable

from .folder import StudyFolder
from .parallel import Workers
from .results import Statistics
from .runner import Study, run_study


def simulate(study: Study, players: int, *, workers: Workers = Workers(), folder: StudyFolder | None = None,
             progress: Callable[[int], None] | None = None) -> list[Statistics]:
    """The statistics of each part of `study`: the games already in `folder` are read back, the rest
    played on the `workers` and written there.
    `progress(finished)` is called with the number of finished games, those read back included.
    Raises StudyError (and KeyboardInterrupt): the games finished so far stay in `folder`."""
    results = [Statistics(part.ruleset, players) for part in study.parts]
    done: list[set[int]] = [set() for _ in study.parts]
    if folder is not None:
        for part, index, summary in folder.finished():
            results[part].add(summary)
            done[part].add(index)
    finished = sum(map(len, done))
    if progress is not None:
        progress(finished)
    for game in run_study(study, workers, done):
        if folder is not None:
            folder.write(game)
        results[game.part].add(game.summary)
        finished += 1
        if progress is not None:
            progress(finished)
    return results
