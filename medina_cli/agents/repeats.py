"""The moves of a finished race searched again from fresh trees, "repeats": the evidence analyse's
verdicts rest on.

A race's samples of a move come from a few trees grown one after the other (the last holds half of
them), so they are not independent: where the playouts' outcomes vary little, one tree's course
moves all its samples alike, and an interval from their spread is too narrow. Its later samples
also come from bigger trees than its first, so a move it set aside on a few samples may be better
than its choice. A repeat is a search from a fresh tree of `size` playouts (`samples` / REPEATS);
repeat r of every move draws from the same streams (from BASE + r·size on, past any race's
samples), so that two moves' repeats pair up (common random numbers), and the spread of the paired
differences of their means measures the whole error of a difference, the trees' included.

In three steps:
1. **Screen**: every move the race sampled, and the `include`d one (the played move), gets repeat 0;
   the race's CONTENDERS most searched moves go on, the others are halved (the better half by mean
   kept and searched on twice as many repeats, at most FRESH) until MOST in all are left.
2. **Choose**: those and the included one get CHOOSING times REPEATS repeats; the best is the
   highest mean of them.
3. **Judge**, on fresh repeats only (the best was chosen on the first ones, which favour it, and
   the moves set aside were set aside on their first repeats, which disfavours them): the moves
   chosen among get REPEATS more, a move only screened one (REPEATS where `ratings` lists it); a
   move is tied with the best unless the best beats it on them by more than TIE_MARGIN.
   A loss rests on PAIRED times REPEATS fresh repeats of the best and of the played move.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import fmean

from .base import Rating
from .race import Arm, Race, spread, t_value

REPEATS = (
    8  # repeats in `samples` playouts; the fresh repeats that judge the moves against the best
)
CHOOSING = 2  # the best is chosen on CHOOSING times REPEATS repeats
FRESH = CHOOSING * REPEATS  # the first fresh repeat
CONTENDERS = 4  # the race's most searched moves, chosen among whatever their repeat 0
MOST = 8  # moves chosen among, besides the included one
PAIRED = 4  # a loss rests on PAIRED times REPEATS fresh repeats of the best and of the played move
BASE = (
    1 << 31
)  # the stream of repeat 0's first playout: past any race's samples (the cap is below it)
TIE_MARGIN = (
    0.5  # points: a move is tied with the best unless the best is better by more than this, surely
)


@dataclass(frozen=True)
class Difference:
    """A paired difference a − b over `n` samples of each: its mean and interval."""

    n: int
    mean: float
    low: float
    high: float


class Repeats:
    """The repeated searches of a race's moves (see the module): the moves `screened`, those chosen
    among (`arms`; the included one last where neither the race nor the halving put it among them),
    the `best`, and the paired differences."""

    def __init__(self, race: Race, include: Arm | None = None):
        self.race = race
        self.samples = samples(race)
        self.size = self.samples // REPEATS
        self.means: dict[int, dict[int, float]] = {}  # by move: repeat r's mean margin
        self.wins: dict[int, dict[int, float]] = {}  # by move: repeat r's mean win share
        self.screened = [
            arm for arm in race.arms if arm.n or arm is include
        ]  # the greedy rating's order
        self._search(self.screened, range(1))
        most_searched = race.ranked()[:CONTENDERS]
        self.arms = most_searched + self._halved(
            [arm for arm in self.screened if all(arm is not m for m in most_searched)],
            MOST - len(most_searched),
        )
        if include is not None and all(arm is not include for arm in self.arms):
            self.arms.append(include)
        self._search(self.arms, range(FRESH))
        self.best = max(
            self.arms, key=lambda arm: fmean(self.means[id(arm)].values())
        )  # the first of equal
        self._search(self.arms, range(FRESH, FRESH + REPEATS))
        self.pooled, self.dof = pooled_spread(
            [self._differences(self.best, arm) for arm in self.arms if arm is not self.best]
        )
        self.comparisons = (
            len(race.compared) - 1
        )  # the ties' tests share the confidence (Bonferroni)
        self._search(self.only_screened(), range(FRESH, FRESH + 1))

    def only_screened(self) -> list[Arm]:
        """The moves screened and not chosen among."""
        return [arm for arm in self.screened if all(arm is not chosen for chosen in self.arms)]

    def _halved(self, arms: list[Arm], room: int) -> list[Arm]:
        """The best `room` of `arms` by sequential halving on their repeats: while more are left, the
        better half by mean (at least `room`) is kept and searched on twice as many repeats, at most
        the FRESH the choice rests on (the fresh ones must not choose)."""
        repeats = 1
        while len(arms) > room:
            kept = max(room, math.ceil(len(arms) / 2))
            arms = sorted(arms, key=lambda arm: -fmean(self.means[id(arm)].values()))[:kept]
            if len(arms) > room:
                repeats = min(2 * repeats, FRESH)
                self._search(arms, range(repeats))
        return arms

    def _search(self, arms: list[Arm], repeats: range) -> None:
        """Each of `arms` searched on the `repeats` it lacks."""
        size = self.size
        batches = [
            (arm, r) for arm in arms for r in repeats if r not in self.means.get(id(arm), {})
        ]
        results = self.race.play(
            [(arm.move, BASE + r * size, BASE + (r + 1) * size) for arm, r in batches]
        )
        for (arm, r), margins in zip(batches, results, strict=True):
            self.means.setdefault(id(arm), {})[r] = fmean(margin for margin, _ in margins)
            self.wins.setdefault(id(arm), {})[r] = fmean(win for _, win in margins)
        self.race.playouts += size * len(batches)

    def _fresh(self, arm: Arm) -> list[float]:
        """The means of `arm`'s fresh repeats (from FRESH on)."""
        return [mean for r, mean in self.means[id(arm)].items() if r >= FRESH]

    def value(self, arm: Arm) -> float:
        """The mean of `arm`'s fresh repeats."""
        return fmean(self._fresh(arm))

    def listed(self, top: int) -> list[Arm]:
        """The `top` moves a hint lists: the best first, then, highest value first, the other moves
        chosen among and the best by their fresh repeat of those only screened (each of these searched
        first on REPEATS fresh repeats, as those chosen among)."""

        def value_first(arms: list[Arm]) -> list[Arm]:
            return sorted(arms, key=lambda arm: -self.value(arm))

        others = [arm for arm in self.arms if arm is not self.best]
        screened = value_first(self.only_screened())[: max(0, top - 1 - len(others))]
        self._search(screened, range(FRESH, FRESH + REPEATS))
        return [self.best, *value_first(others + screened)][:top]

    def ratings(self, top: int) -> list[Rating]:
        """The `listed` moves as Ratings, each with its tie (judged once they are searched)."""
        listed = self.listed(top)
        tied = self.tied()
        return [self.rating(arm, id(arm) in tied) for arm in listed]

    def rating(self, arm: Arm, tied: bool | None = None) -> Rating:
        """`arm` as a Rating: its value, the mean of its fresh repeats, with its two-sided interval at the
        race's confidence (the spread of those, with its degrees of freedom, or where larger the pooled
        spread of the fresh repeats of the moves chosen among, with theirs), its win share and the
        playouts behind them."""
        means = self._fresh(arm)
        value, low, high = interval(
            means,
            *pooled_spread([self._fresh(chosen) for chosen in self.arms]),
            self.race.confidence,
            two_sided=True,
        )
        wins = [win for r, win in self.wins[id(arm)].items() if r >= FRESH]
        return Rating(
            self.race.placement(arm),
            value,
            fmean(wins),
            len(means) * self.size,
            interval=(low, high),
            tied=tied,
        )

    def _differences(self, a: Arm, b: Arm) -> list[float]:
        """a − b on each fresh repeat both have."""
        mine, theirs = self.means[id(a)], self.means[id(b)]
        return [mine[r] - theirs[r] for r in sorted(mine.keys() & theirs.keys()) if r >= FRESH]

    def difference(
        self, a: Arm, b: Arm, comparisons: int = 1, *, two_sided: bool = False
    ) -> Difference:
        """a − b over their paired fresh repeats, with the interval mean ± t·se at the race's confidence
        (`t_value`'s `comparisons`, `two_sided`): the spread of the differences, with its degrees of
        freedom, or the pooled spread of the best's differences from the others, with theirs, where
        that is larger."""
        diffs = self._differences(a, b)
        return Difference(
            len(diffs) * self.size,
            *interval(
                diffs, self.pooled, self.dof, self.race.confidence, comparisons, two_sided=two_sided
            ),
        )

    def loss(self, played: Arm) -> Difference:
        """The best − `played` over PAIRED times REPEATS fresh repeats of each, with its two-sided
        interval at the race's confidence."""
        self._search([self.best, played], range(FRESH, FRESH + PAIRED * REPEATS))
        return self.difference(self.best, played, two_sided=True)

    def tied(self) -> set[int]:
        """The ids of the race's moves tied with the best: those the best does not beat on their fresh
        repeats by more than TIE_MARGIN (one-sided, at the race's confidence over every move the race
        compared)."""
        return {
            id(arm)
            for arm in self.screened
            if self.difference(self.best, arm, self.comparisons).low <= TIE_MARGIN
        }


def pooled_spread(lists: list[list[float]]) -> tuple[float, int]:
    """The pooled spread of `lists` (the root mean of their squared spreads) and its degrees of freedom."""
    if not lists:
        return 0.0, 0
    return math.sqrt(fmean(spread(values) ** 2 for values in lists)), sum(
        len(values) - 1 for values in lists
    )


def interval(
    values: list[float],
    pooled: float,
    pooled_dof: int,
    confidence: float,
    comparisons: int = 1,
    *,
    two_sided: bool = False,
) -> tuple[float, float, float]:
    """(mean, low, high) of `values`: mean ± t·sd/√n, sd the spread of `values` with its degrees of
    freedom, or the `pooled` spread with `pooled_dof` where that is larger (and has any), t Student's
    at those degrees for `confidence` (`t_value`'s `comparisons`, `two_sided`)."""
    mean, own = fmean(values), spread(values)
    sd, dof = (own, len(values) - 1) if own > pooled or not pooled_dof else (pooled, pooled_dof)
    half = (
        t_value(confidence, max(1, dof), comparisons, two_sided=two_sided)
        * sd
        / math.sqrt(len(values))
    )
    return mean, mean - half, mean + half


def tied_series(series: list[dict[int, float]], confidence: float) -> tuple[int, list[bool]]:
    """Moves from different searches of the same size, each given by its repeats' means by repeat (repeat r
    of each on the same streams): the index of the best, the highest mean of its first FRESH repeats, and
    for each whether it is tied with it, as `Repeats.tied` judges (on their paired fresh repeats)."""
    best = max(
        range(len(series)), key=lambda i: fmean(m for r, m in series[i].items() if r < FRESH)
    )
    diffs = [
        [
            series[best][r] - other[r]
            for r in sorted(series[best].keys() & other.keys())
            if r >= FRESH
        ]
        for other in series
    ]
    pooled, pooled_dof = pooled_spread([d for i, d in enumerate(diffs) if i != best])
    tied = []
    for i, d in enumerate(diffs):
        tied.append(
            i == best
            or interval(d, pooled, pooled_dof, confidence, len(series) - 1)[1] <= TIE_MARGIN
        )
    return best, tied


def samples(race: Race) -> int:
    """The playouts of REPEATS repeats: the first batch bound from a third of the cap (at least
    REPEATS), the same at every position."""
    n = race.first
    while n < race.cap / 3 or n < REPEATS:
        n *= 2
    return n
