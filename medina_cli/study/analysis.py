"""`medina analyse`: every placement of a game reviewed by an agent, the placements shared out by the
package's parallel map (in this process, in local processes or on a Dask cluster); each is seeded
by its index, so the reviews do not depend on where or how they were made."""

from __future__ import annotations

from collections.abc import Callable

from ..agents.analysis import PlacementReview, review_placements
from ..agents.position import record_placements
from .parallel import Workers, parallel_map


def analyse(record, spec: str, *, seed: int = 0, workers: Workers = Workers(),
            progress: Callable[[int, int], None] | None = None) -> list[PlacementReview]:
    """The review of every placement of a valid record, in the record's order, made on the `workers`;
    `progress(done, total)` as they come back."""
    total = len(record_placements(record))
    reviews: list[PlacementReview] = []
    for part in parallel_map(review_placements, [((record, spec, seed), 0, total)], total, workers):
        reviews += part
        if progress is not None:
            progress(len(reviews), total)
    return sorted(reviews, key=lambda review: (review.turn, review.placement))
