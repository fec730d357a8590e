"""`medina analyse` and `medina hint` on workers. Analyse: every placement of a game reviewed by an
agent, the placements shared out by the package's parallel map (in this process, in local processes
or on a Dask cluster); each is seeded by its index, so the reviews do not depend on where or how they
were made. Hint: each round of its replicated searches shared out on workers started once; a search
depends only on its position, seed and budget, so the advice does not depend on them either."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..agents.analysis import Advice, PlacementReview, advise, review_placements
from ..agents.replicates import portable, searches_of
from .parallel import Workers, parallel_map


def analyse(
    record,
    spec: str,
    *,
    seed: int = 0,
    workers: Workers = Workers(),
    progress: Callable[[int, int], None] | None = None,
    indices: list[int] | None = None,
    done: Sequence[PlacementReview] = (),
    rated: Callable[[list[PlacementReview]], None] | None = None,
) -> list[PlacementReview]:
    """The review of the placements `indices` of a valid record (default: all; index into
    `record.placements()`), in the record's order, made on the `workers` one placement a task, those
    in `done` not made again; `progress(done, total)` and `rated(reviews so far, in order)` as each
    comes back."""
    indices = list(range(len(record.placements()))) if indices is None else indices
    reviews = list(done)
    reviewed = {(review.turn, review.placement) for review in reviews}
    placements = record.placements()
    todo = [index for index in indices if placements[index][:2] not in reviewed]
    spans = [((record, spec, seed), index, index + 1) for index in todo]
    for part in parallel_map(review_placements, spans, len(todo), workers, per_task=1):
        reviews = sorted([*reviews, *part], key=lambda review: (review.turn, review.placement))
        if progress is not None:
            progress(len(reviews), len(indices))
        if rated is not None:
            rated(reviews)
    return reviews


def advise_on(
    game,
    spec: str,
    *,
    seed: int | str = 0,
    top: int = 5,
    whole_turn: bool = False,
    workers: Workers = Workers(),
) -> Advice:
    """`agents.analysis.advise` with its searches made on the `workers`."""
    if workers.jobs == 1 and workers.scheduler is None:
        return advise(game, spec, seed=seed, top=top, whole_turn=whole_turn)
    with workers.started() as pool:

        def play(requests: list) -> list:
            made = [None] * len(requests)
            for part in pool.map(
                searches_of, [(portable(requests), 0, len(requests))], len(requests)
            ):
                for index, result in part:
                    made[index] = result
            return made

        return advise(game, spec, seed=seed, top=top, whole_turn=whole_turn, play=play)
