"""The moves at the root of a search race until the best is sure or the playouts run out.

Each move's value is estimated from samples: simulated games after it, each giving the mover's
final margin (own total minus the best other total) and win share. Sample k of every move draws
from the same random stream k (common random numbers), and samples are made in batches whose
bounds are the same for every move (`batch_bounds`: the first samples, then doubling), so that the k-th
samples of two moves are made the same way and their differences are fair paired comparisons.

The race is a sequential halving that stops once sure. It plans to halve the moves down to LEADERS
on half the cap (`plan`): every move considered gets the same first samples, as many as that
allows (FIRST or more; when FIRST each is too many, it considers fewer moves, the best by prior);
then, round by round, the moves the leader beats significantly leave the race, the weaker half of
the rest by mean is set aside until LEADERS are left (a move that gains points at once is kept
until it has PROTECTED samples), and those left double their samples, until one move is left (the
search is sure) or the next round would pass the cap on playouts.

"Significantly" is at the race's confidence over all the moves compared at once (Bonferroni):
the leader beats a move when the lower end of the one-sided interval of their difference, over as
many samples of each as both have, is above 0, with z at (1 - confidence) / (moves - 1). A move is
tied with the best unless the best beats it so; a spread is never taken below the moves' pooled
spread, so a move with two equal samples is not taken for a sure one.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from statistics import NormalDist

FIRST = 2  # the fewest first samples of every move considered
LEADERS = 4  # halving stops here; these race on until sure or out of playouts
PROTECTED = (
    16  # samples a move that gains points at once has before it may be set aside by its mean
)


def batch_bounds(start: int, stop: int, first: int) -> list[tuple[int, int]]:
    """The batches that make samples start..stop-1: [0, first), then each batch as long as all before
    it ([first, 2 first), [2 first, 4 first), ...); `start` and `stop` must be batch bounds."""
    out = []
    while start < stop:
        end = first if start == 0 else 2 * start
        out.append((start, end))
        start = end
    if start != stop:
        raise ValueError(f"{stop} is not a batch bound")
    return out


def _tail(confidence: float, comparisons: int, two_sided: bool) -> float:
    """The probability above the quantile for `confidence` shared by `comparisons` one-sided tests
    (Bonferroni); `two_sided`: for a two-sided interval."""
    alpha = (1 - confidence) / max(1, comparisons)
    return alpha / 2 if two_sided else alpha


def z_value(confidence: float, comparisons: int = 1, *, two_sided: bool = False) -> float:
    """The normal quantile for `confidence` shared by `comparisons` one-sided tests (Bonferroni);
    `two_sided`: for a two-sided interval."""
    return NormalDist().inv_cdf(1 - _tail(confidence, comparisons, two_sided))


@dataclass
class Arm:
    """A move in the race and its samples so far (the mover's margin and win share of each)."""

    move: object
    gains: bool = False  # does it gain points at once (greedy)?
    margins: list[float] = field(default_factory=list)
    wins: list[float] = field(default_factory=list)

    @property
    def n(self) -> int:
        return len(self.margins)

    @property
    def mean(self) -> float:
        return sum(self.margins) / self.n if self.margins else 0.0

    @property
    def win(self) -> float:
        return sum(self.wins) / self.n if self.wins else 0.0

    @property
    def sd(self) -> float:
        return spread(self.margins)

    def interval(self, z: float, floor: float = 0.0) -> tuple[float, float] | None:
        """mean ± z·sd/√n (sd at least `floor`); None without samples."""
        if not self.margins:
            return None
        half = z * max(self.sd, floor) / math.sqrt(self.n)
        return self.mean - half, self.mean + half


def halving_cost(moves: int, first: int) -> int:
    """Playouts that halve `moves` moves down to LEADERS: `first` samples each, then each round as many
    as the samples of the moves it keeps double."""
    cost, n = moves * first, first
    while moves > LEADERS:
        moves = max(LEADERS, math.ceil(moves / 2))
        cost += moves * n
        n *= 2
    return cost


def plan(cap: int, moves: int) -> tuple[int, int]:
    """(moves considered, samples each gets first) for a race of `moves` moves with `cap` playouts: all
    the moves, with the most first samples (FIRST times a power of 2) that let it halve them down to
    LEADERS on half the cap; when even FIRST each does not, as many moves as FIRST each allows (at least 2)."""
    if halving_cost(moves, FIRST) > cap / 2:
        room = 2
        while room < moves and halving_cost(room + 1, FIRST) <= cap / 2:
            room += 1
        return room, FIRST
    first = FIRST
    while halving_cost(moves, 2 * first) <= cap / 2:
        first *= 2
    return moves, first


def spread(values: list[float]) -> float:
    """The sample standard deviation (0 below two values)."""
    n = len(values)
    if n < 2:
        return 0.0
    mean = sum(values) / n
    return math.sqrt(max(0.0, sum((v - mean) ** 2 for v in values) / (n - 1)))


def beats(leader: Arm, other: Arm, z: float, floor: float = 0.0) -> bool:
    """Whether `leader`'s lead over `other` is significant (one-sided, at `z`; spreads at least `floor`),
    over the samples both have (the first of the one with more): sample k of every move comes from a
    tree of the same size, so only equal counts of samples estimate the same quantity. False where
    either has none."""
    n = min(leader.n, other.n)
    if leader is other or not n:
        return False
    a, b = leader.margins[:n], other.margins[:n]
    se = math.sqrt(max(spread(a), floor) ** 2 / n + max(spread(b), floor) ** 2 / n)
    return sum(a) / n - sum(b) / n - z * se > 0


def tied_with(best: Arm, arms: list[Arm], confidence: float, floor: float = 0.0) -> set[int]:
    """The ids of `arms` that `best` does not beat significantly at `confidence` over all of them."""
    z = z_value(confidence, len(arms) - 1)
    return {id(arm) for arm in arms if not beats(best, arm, z, floor)}


Play = Callable[[list[tuple[object, int, int]]], list[list[tuple[float, float]]]]


class Race:
    """The root moves of one search (`arms`, best prior first) and their samples. `play(batches)`
    makes samples: for each (move, start, stop), the (margin, win share) of samples start..stop-1;
    `placement(move)` names a move."""

    def __init__(
        self,
        arms: list[Arm],
        *,
        cap: int,
        confidence: float,
        play: Play,
        placement: Callable[[object], object] = lambda move: move,
    ):
        self.arms, self.cap, self.confidence, self.play = arms, cap, confidence, play
        self.name = placement
        self.considered, self.first = plan(cap, len(arms))
        self.playouts = 0
        self.sure = False

    def placement(self, arm: Arm):
        """The Placement an arm's move is."""
        return self.name(arm.move)

    # --- statistics ---------------------------------------------------------------------------
    @property
    def compared(self) -> list[Arm]:
        return [arm for arm in self.arms if arm.n]

    def pooled_sd(self) -> float:
        """The moves' pooled within-move spread: the floor of every spread in a test."""
        dof = sum(arm.n - 1 for arm in self.arms if arm.n > 1)
        if not dof:
            return 0.0
        return math.sqrt(sum((arm.n - 1) * arm.sd**2 for arm in self.arms if arm.n > 1) / dof)

    def z_beats(self) -> float:
        return z_value(self.confidence, len(self.compared) - 1)

    def ranked(self) -> list[Arm]:
        """The moves with samples, the most searched first (the race's choice first), then by mean."""
        return sorted(self.compared, key=lambda arm: (-arm.n, -arm.mean))

    @property
    def best(self) -> Arm:
        return self.ranked()[0]

    def tied(self) -> set[int]:
        """The ids of the moves tied with the best: the best does not beat them significantly."""
        return tied_with(self.best, self.compared, self.confidence, self.pooled_sd())

    # --- sampling -----------------------------------------------------------------------------
    def fill(self, arms: list[Arm], n: int) -> None:
        """Sample each of `arms` up to `n` (a batch bound)."""
        batches = [
            (arm, start, stop) for arm in arms for start, stop in batch_bounds(arm.n, n, self.first)
        ]
        if not batches:
            return
        results = self.play([(arm.move, start, stop) for arm, start, stop in batches])
        for (arm, start, stop), samples in zip(batches, results, strict=True):
            assert arm.n == start and len(samples) == stop - start
            arm.margins += [margin for margin, _ in samples]
            arm.wins += [win for _, win in samples]
            self.playouts += stop - start

    def run(self, include: Arm | None = None) -> None:
        """Race the moves until sure or until the next round would pass the cap; `include` races
        whatever its prior."""
        alive = self.arms[: self.considered]
        if include is not None and include not in alive:
            alive.append(include)
        n = self.first
        self.fill(alive, n)
        while True:
            z, floor = self.z_beats(), self.pooled_sd()
            leader = max(alive, key=lambda arm: arm.mean)
            alive = [arm for arm in alive if not beats(leader, arm, z, floor)]
            if len(alive) == 1:
                self.sure = True
                return
            alive.sort(key=lambda arm: -arm.mean)
            if len(alive) > LEADERS:
                keep = max(LEADERS, math.ceil(len(alive) / 2))
                alive = alive[:keep] + [
                    arm for arm in alive[keep:] if arm.gains and arm.n < PROTECTED
                ]
            affordable = (self.cap - self.playouts) // n  # moves whose samples can double
            if affordable < 2:
                return
            alive = alive[:affordable]
            n *= 2
            self.fill(alive, n)
