"""Statistics over many games: exact running tallies and 95% confidence intervals.

A tally keeps the count, sum and sum of squares exactly (whole numbers, or fractions for shared
wins), so the figures do not depend on the order in which games are added: a study gives the same
document whether its games finish in order, out of order, or across a resumed run.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

Z95 = 1.959963984540054  # the standard normal quantile of 0.975: two-sided 95%
LEVEL = 0.95
ALPHA = 0.05  # 1 - LEVEL: the family-wise error rate a corrected report keeps to


def wilson_interval(successes: float, trials: int, z: float = Z95) -> tuple[float, float] | None:
    """The Wilson score interval of a proportion (`successes` may be fractional: shared wins);
    None without trials."""
    if trials == 0:
        return None
    p = successes / trials
    spread = z * z / trials
    centre = (p + spread / 2) / (1 + spread)
    half = z / (1 + spread) * math.sqrt(p * (1 - p) / trials + spread / (4 * trials))
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_interval(mean: float, sd: float, n: int, z: float = Z95) -> tuple[float, float] | None:
    """The normal-approximation interval of a mean: mean ± z·sd/√n; None below two values."""
    if n < 2:
        return None
    half = z * sd / math.sqrt(n)
    return mean - half, mean + half


def means_differ(a: Tally, b: Tally) -> bool:
    """Whether two means differ at the 95% level, on its own (means_p)."""
    return means_p(a, b) < ALPHA


def proportions_differ(
    a_successes: float, a_trials: int, b_successes: float, b_trials: int
) -> bool:
    """Whether two proportions differ at the 95% level, on its own (proportions_p)."""
    return proportions_p(a_successes, a_trials, b_successes, b_trials) < ALPHA


def two_sided(z: float) -> float:
    """The two-sided p-value of a standard normal statistic."""
    return math.erfc(abs(z) / math.sqrt(2))


def _p_of(difference: float, spread: float) -> float:
    """The p-value of `difference` with standard error `spread`: 1 for no difference, 0 for a
    difference without spread."""
    if difference == 0:
        return 1.0
    return two_sided(difference / spread) if spread > 0 else 0.0


def share_p(successes: float, trials: int, share: float) -> float:
    """The p-value of a proportion against the `share` expected (score test: it rejects exactly when
    the Wilson interval leaves `share` out); 1 without trials."""
    if trials == 0:
        return 1.0
    return _p_of(successes / trials - share, math.sqrt(share * (1 - share) / trials))


def proportions_p(a_successes: float, a_trials: int, b_successes: float, b_trials: int) -> float:
    """The p-value of two proportions differing (two-proportion z test, pooled); 1 without trials."""
    if a_trials == 0 or b_trials == 0:
        return 1.0
    pooled = (a_successes + b_successes) / (a_trials + b_trials)
    return _p_of(
        a_successes / a_trials - b_successes / b_trials,
        math.sqrt(pooled * (1 - pooled) * (1 / a_trials + 1 / b_trials)),
    )


def means_p(a: Tally, b: Tally) -> float:
    """The p-value of two means differing (normal approximation, unequal variances: Welch's z); 1
    below two values on either side."""
    if a.n < 2 or b.n < 2:
        return 1.0
    return _p_of(a.mean - b.mean, math.sqrt(a.sd**2 / a.n + b.sd**2 / b.n))


def holm(p_values: list[float]) -> list[float]:
    """Holm's step-down adjusted p-values, in the order given: a test holds at family-wise error rate
    ALPHA when its adjusted p-value is below ALPHA, whatever the dependence between the tests."""
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    adjusted = [1.0] * len(p_values)
    running = 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, (len(p_values) - rank) * p_values[index]))
        adjusted[index] = running
    return adjusted


@dataclass
class Tally:
    """Count, sum and sum of squares of exact values (int or Fraction) that are never negative (points,
    counts, shares): mean, sd and interval."""

    n: int = 0
    total: int | Fraction = 0
    squares: int | Fraction = 0

    def add(self, value: int | Fraction) -> None:
        assert value >= 0, value
        self.n += 1
        self.total += value
        self.squares += value * value

    def merge(self, other: Tally) -> None:
        """Add every value of `other` (the tally of other games): the same as adding them one by one."""
        self.n += other.n
        self.total += other.total
        self.squares += other.squares

    @property
    def mean(self) -> float:
        return float(Fraction(self.total) / self.n) if self.n else 0.0

    @property
    def sd(self) -> float:
        """The sample standard deviation (0 below two values)."""
        if self.n < 2:
            return 0.0
        return math.sqrt(
            Fraction(self.n * self.squares - self.total * self.total) / (self.n * (self.n - 1))
        )

    @property
    def interval(self) -> tuple[float, float] | None:
        """The normal-approximation interval of the mean, cut at 0 (no mean of these is negative)."""
        interval = mean_interval(self.mean, self.sd, self.n)
        return None if interval is None else (max(0.0, interval[0]), interval[1])

    def to_json(self) -> dict:
        return {
            "mean": round(self.mean, 3),
            "sd": round(self.sd, 3),
            "ci95": rounded(self.interval, 3),
        }


def rounded(interval: tuple[float, float] | None, digits: int) -> list[float] | None:
    return None if interval is None else [round(interval[0], digits), round(interval[1], digits)]
