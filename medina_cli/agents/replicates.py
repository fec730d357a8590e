"""The statistics of `hint` and `analyse`: K independent seeded searches ("replicates") per position, and
t-intervals on their means and paired differences.

1. **Root**: REPLICATES searches of the position (`agents.search`), each of a REPLICATES-th of the budget,
   seeded by the position (`position_key`); the candidates are the moves with the most visits over them
   all (at most CANDIDATES, or as many as a hint lists), and the `include`d one (the move played).
2. **Values**: each candidate's value in replicate r is the mover's mean margin over a search of the
   position after it (`SearchResult.margins`: not biased by how often the root tried the move), replicate
   r of every move seeded alike, so that the replicates of two moves pair up; 2·REPLICATES of them.
3. **Choose** the best on replicates 0..K-1, the highest mean; **judge** on the fresh replicates K..2K-1
   only (the first ones favour the move chosen on them): a move's value and its interval and the ties
   (the best's lead over a move not surely above TIE_MARGIN, one-sided at the confidence shared by the
   moves compared) rest on them, with Student's t at K-1 degrees; the loss of a move against the best
   on LOSS_REPLICATES fresh replicates of both.

Every seed depends on the caller's seed (or the position), the kind of search and the replicate's index
alone, and a search on nothing else, so the same position gives the same result on any number of
processes (`Run`).
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from statistics import fmean

from .base import Rating
from .position import game_recipe, margin, rebuilt, totals
from .search import SearchResult, search

# K: the figure; 7 degrees of freedom put t at 2.36 (95%), 1.2 times z
REPLICATES = 8
# moves valued besides the included one: the old repeats' 8, room for a hint's 5
CANDIDATES = 8
# a value's search makes budget / CHILD_SHARE descents: about 4 times the agent's budget a position in
# all, analyse of the 4p example in 90 s on 2 idle cores; 12 searches of 50 descents after a move spread
# by 0.5 to 2 points, while the best moves of a position lie within 1.5
CHILD_SHARE = 64
# ... at least: a value from one descent is mostly its rollout's luck
MIN_CHILD = 8
# points: a move is tied with the best unless the best is better by more than this, surely
TIE_MARGIN = 0.5
# fresh replicates of the best and the played move behind a loss (the old repeats' 4 times 8): on K,
# two seeds' verdicts on the six examples agreed at 66 of 86 placements labelled (bench_stability)
LOSS_REPLICATES = 32


@dataclass(frozen=True)
class Difference:
    """A paired difference a − b over `n` descents of each: its mean and interval."""

    n: int
    mean: float
    low: float
    high: float


Request = tuple  # (game, placement after which to search or None, seed, descents)
Run = Callable[[list[Request]], list[SearchResult]]


def replicate_seed(seed: int | str, kind: str, replicate: int) -> int:
    """The search seed (0 <= it < 2**64) of replicate `replicate` of the searches of `kind` ("root",
    "move") made for `seed`: the same for every move, so that replicates pair up."""
    digest = hashlib.sha256(f"medina-replicate/{seed}/{kind}/{replicate}".encode()).digest()
    return int.from_bytes(digest[:8], "little")


def searched(game, placement, seed: int, descents: int) -> SearchResult:
    """The search of `game` after `placement` (None: of `game`); a finished game's exact margins."""
    if placement is not None:
        game = game.copy()
        game.push(placement)
    if game.is_over():
        scores = totals(game)
        return SearchResult([], 0, [float(margin(scores, seat)) for seat in range(len(scores))])
    return search(game, seed, descents)


def position_key(game) -> str:
    """What seeds the root searches: the position alone (its setup and placements), not the caller's seed,
    so that every seed values the same candidates (the root's order among moves greedy rates equal is
    drawn from its seed: seeded by the caller's, two seeds' 8 most visited missed each other's best at 9
    of 50 positions); the caller's seed draws the searches that value them."""
    setup = game.setup
    return f"{setup['merchant']}/{setup['well']}/{'/'.join(map(str, game.move_stack))}"


def run_here(requests: list[Request]) -> list[SearchResult]:
    """Each request's search, here and in order."""
    return [searched(*request) for request in requests]


def portable(requests: list[Request]) -> list[tuple]:
    """Requests as another process takes them: each game as its `game_recipe`, each placement named."""
    return [
        (game_recipe(game), None if placement is None else str(placement), seed, descents)
        for game, placement, seed, descents in requests
    ]


def searches_of(context: list[tuple], start: int, stop: int) -> list[tuple[int, SearchResult]]:
    """Worker entry: requests start..stop-1 of `context` (`portable`), each index with its search."""
    out = []
    for index in range(start, stop):
        recipe, placement, seed, descents = context[index]
        position = rebuilt(recipe)
        out.append(
            (index, searched(getattr(position, "game", position), placement, seed, descents))
        )
    return out


def budget_split(budget: int) -> tuple[int, int]:
    """(descents of each root search, of each search after a move) for an agent's `budget`."""
    return math.ceil(budget / REPLICATES), max(MIN_CHILD, budget // CHILD_SHARE)


class Replicates:
    """The replicated searches at `game` (see the module) for an agent with `budget` descents a decision
    and `confidence`: the `candidates` (most visited first, the included one last where it is not among
    them), their values by replicate, the `best`, and the descents made in all (`playouts`)."""

    def __init__(
        self,
        game,
        *,
        budget: int,
        confidence: float,
        seed: int | str = 0,
        include=None,
        top: int = 0,
        run: Run | None = None,
    ):
        self.run = run = run or run_here
        self.game, self.seed, self.confidence = game, seed, confidence
        root_descents, self.descents = budget_split(budget)
        where = position_key(game)
        roots = run(
            [
                (game, None, replicate_seed(where, "root", r), root_descents)
                for r in range(REPLICATES)
            ]
        )
        visits: dict = {}  # by placement: visits over all root searches, the order first tried
        rewards: dict = {}  # ... and the sum of their rewards
        for root in roots:
            for move in root.moves:
                visits[move.placement] = visits.get(move.placement, 0) + move.visits
                rewards[move.placement] = (
                    rewards.get(move.placement, 0.0) + move.reward * move.visits
                )
        self.wins = {move: rewards[move] / visits[move] for move in visits if visits[move]}
        ranked = sorted((move for move in visits if visits[move]), key=lambda move: -visits[move])
        self.candidates = ranked[: max(CANDIDATES, top)]
        self.included = None  # the candidate that makes the same move as `include`
        if include is not None:
            same = game.equivalent_placements(include)
            self.included = next((move for move in self.candidates if move in same), same[0])
            if self.included not in self.candidates:
                self.candidates.append(self.included)
        self.values: dict = {move: [] for move in self.candidates}  # by replicate
        self.playouts = sum(root.iterations for root in roots)
        self.extend(self.candidates, 2 * REPLICATES)
        self.best = best_of([self.values[move] for move in self.candidates], self.candidates)

    def extend(self, moves: list, replicates: int) -> None:
        """Value each of `moves` on its replicates up to `replicates` (searches after it)."""
        requests = [
            (self.game, move, replicate_seed(self.seed, "move", r), self.descents)
            for move in moves
            for r in range(len(self.values[move]), replicates)
        ]
        mover = self.game.seat_to_move
        for (_, move, *_), result in zip(requests, self.run(requests), strict=True):
            self.values[move].append(result.margins[mover])
            self.playouts += result.iterations

    def fresh(self, move) -> list[float]:
        """`move`'s fresh replicates' values (K..2K-1)."""
        return self.values[move][REPLICATES:]

    def value(self, move) -> float:
        return fmean(self.fresh(move))

    def loss(self, move) -> Difference:
        """The best − `move` over LOSS_REPLICATES paired fresh replicates, with its two-sided interval."""
        self.extend([self.best, move], REPLICATES + LOSS_REPLICATES)
        return self.difference(self.best, move, two_sided=True)

    def difference(self, a, b, comparisons: int = 1, *, two_sided: bool = False) -> Difference:
        """a − b over their paired fresh replicates, its interval at the confidence (`t_value`'s
        `comparisons` and `two_sided`)."""
        diffs = paired(self.values[a], self.values[b])
        return Difference(
            len(diffs) * self.descents,
            *interval(diffs, self.confidence, comparisons, two_sided=two_sided),
        )

    def tied(self) -> set:
        """The candidates tied with the best (it among them): its lead over them on their fresh replicates
        is not surely above TIE_MARGIN (one-sided, at the confidence shared by the moves compared)."""
        return {
            move
            for move, is_tied in zip(
                self.candidates,
                ties(
                    [self.values[move] for move in self.candidates],
                    self.candidates.index(self.best),
                    self.confidence,
                ),
                strict=True,
            )
            if is_tied
        }

    @property
    def sure(self) -> bool:
        """Whether the best is surely better than every other candidate on the fresh replicates (by more
        than 0, one-sided, at the confidence shared by the moves compared)."""
        comparisons = len(self.candidates) - 1
        return all(
            self.difference(self.best, move, comparisons).low > 0
            for move in self.candidates
            if move != self.best
        )

    def rating(self, move, tied: bool | None = None) -> Rating:
        """`move` as a Rating: the mean of its fresh replicates with its two-sided interval, its search's
        win chance (the root searches' mean reward after it) and the descents its value rests on."""
        value, low, high = interval(self.fresh(move), self.confidence, two_sided=True)
        return Rating(
            move,
            value,
            self.wins.get(move),
            REPLICATES * self.descents,
            interval=(low, high),
            tied=tied,
        )

    def listed(self, top: int) -> list:
        """The `top` moves a hint lists: the best, then the other candidates highest value first."""
        others = sorted(
            (m for m in self.candidates if m != self.best), key=lambda m: -self.value(m)
        )
        return [self.best, *others][:top]

    def ratings(self, top: int) -> list[Rating]:
        """The `listed` moves as Ratings, each with its tie."""
        tied = self.tied()
        return [self.rating(move, move in tied) for move in self.listed(top)]


def t_value(confidence: float, dof: int, comparisons: int = 1, *, two_sided: bool = False) -> float:
    """Student's t quantile at `dof` degrees of freedom for `confidence` shared by `comparisons`
    one-sided tests (Bonferroni); `two_sided`: for a two-sided interval."""
    alpha = (1 - confidence) / max(1, comparisons)
    within = 1 - (alpha if two_sided else 2 * alpha)  # P(|T| <= t) at the quantile
    low, high = 0.0, 1.0
    while _t_within(high, dof) < within:
        low, high = high, 2 * high
    for _ in range(60):
        middle = (low + high) / 2
        low, high = (middle, high) if _t_within(middle, dof) < within else (low, middle)
    return high


def _t_within(t: float, dof: int) -> float:
    """P(|T| <= t) for Student's T at `dof` (≥ 1) degrees of freedom, in closed form (Abramowitz and
    Stegun 26.7.3-4)."""
    theta = math.atan(t / math.sqrt(dof))
    cos2 = math.cos(theta) ** 2
    if dof % 2:
        term = total = math.cos(theta) if dof > 1 else 0.0
        for k in range(3, dof, 2):
            term *= cos2 * (k - 1) / k
            total += term
        return 2 / math.pi * (theta + math.sin(theta) * total)
    term = total = 1.0
    for k in range(2, dof, 2):
        term *= cos2 * (k - 1) / k
        total += term
    return math.sin(theta) * total


def spread(values: Sequence[float]) -> float:
    """The sample standard deviation (0 below two values)."""
    if len(values) < 2:
        return 0.0
    mean = fmean(values)
    return math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1))


def interval(
    values: Sequence[float], confidence: float, comparisons: int = 1, *, two_sided: bool = False
) -> tuple[float, float, float]:
    """(mean, low, high) of `values`: mean ± t·sd/√n, t Student's at n-1 degrees for `confidence`
    (`t_value`'s `comparisons`, `two_sided`); one value: its own exact interval."""
    mean = fmean(values)
    if len(values) < 2:
        return mean, mean, mean
    half = t_value(confidence, len(values) - 1, comparisons, two_sided=two_sided)
    half *= spread(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


def paired(a: Sequence[float], b: Sequence[float]) -> list[float]:
    """a − b on each fresh replicate (from K on) that both replicate series have."""
    return [x - y for x, y in zip(a[REPLICATES:], b[REPLICATES:], strict=False)]


def best_of(series: Sequence[Sequence[float]], items: Sequence | None = None):
    """The item (default: the index) whose replicate series has the highest mean over the choosing
    replicates (0..K-1); the first of equal means."""
    index = max(range(len(series)), key=lambda i: fmean(series[i][:REPLICATES]))
    return index if items is None else items[index]


def ties(series: Sequence[Sequence[float]], best: int, confidence: float) -> list[bool]:
    """For each replicate series, whether it is tied with series `best`: the lower end of the one-sided
    interval of their paired fresh differences, at `confidence` shared by the others, is not above
    TIE_MARGIN."""
    comparisons = len(series) - 1
    return [
        i == best or interval(paired(series[best], other), confidence, comparisons)[1] <= TIE_MARGIN
        for i, other in enumerate(series)
    ]


def tied_series(series: Sequence[Sequence[float]], confidence: float) -> tuple[int, list[bool]]:
    """Moves from different replicated searches (a whole turn's pairs), each by its 2K replicates'
    values: the index of the best (`best_of`) and for each whether it is tied with it (`ties`)."""
    best = best_of(series)
    return best, ties(series, best, confidence)
