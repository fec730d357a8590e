"""Measured strength: agent A against agent B on shared setups with rotating seats, A's win rate with
its 95% interval, Elo and score margin; an SPRT that may stop a match early; ladders of agents.

A match (`A B`) plays the games of `--ruleset` for `--players` in setups: setup u is the start
merchant and well of `medina simulate --seed S`'s game u, and it is played once with A in each seat,
B in all the others (2 players: every setup twice, the seats swapped). Game g is setup g // players
with A in seat g % players, each agent seeded by (seed, g, seat), so a rerun on any `--jobs` plays
the same games, and every figure is taken over the games in index order. `--games` is rounded up to
whole setups. Any spec `medina_cli.agents.make_agent` accepts names an agent, and `turn3` (`turn3:N`) the
default `mcts` (`mcts:N`) of turn 3, the race search, kept for this comparison.

The figures: A's wins, a win shared by k players counting 1/k (as `medina simulate` counts them);
A's win rate with its 95% Wilson interval (games taken as independent: the pairing by setup only
narrows the true interval where a setup favours a seat) beside the fair share 1/players; the Elo
difference E of A over B from the win rate p by the Luce model of who wins (Bradley-Terry for more
than two): A, of strength 10^(E/400) against 1 for each B, wins a game of n players with
p = r / (r + n - 1), so E = 400 log10((n - 1) p / (1 - p)), in 2 players the usual logistic Elo; its
interval is the Wilson interval's ends so transformed (infinite at a win rate of 0 or 1: null in
JSON); the mean score margin (A's total minus the best other total) with its t interval; A's win
rate from each seat; the CPU seconds per decision of each agent (process time around `choose()`, in
the process that played it); the engine that played.

`--sprt ELO0 ELO1`: the generalized sequential probability ratio test of chess-engine testing
(fishtest's), on setups (in 2 players, game pairs) in index order. A setup's score x is A's mean win
share over its games, an outcome among finitely many values; the expected score at an Elo E is the
Luce share above. H0: E = ELO0 against H1: E = ELO1. With f the frequencies of the values seen (0
and 1 always among them, at a count of 1e-3 where not seen, so that the ratio stays finite after
one-sided results), the maximum-likelihood distribution with expected score s is
p_j = f_j / (1 + θ (x_j - s)), θ solving Σ p_j (x_j - s) = 0, and
LLR = N Σ f_j log(p1_j / p0_j) over N setups, p0 and p1 those at s(ELO0) and s(ELO1). The match
stops once LLR ≥ log((1 - beta) / alpha) (H1 accepted: A is ELO1 rather than ELO0 stronger) or
LLR ≤ log(beta / (1 - alpha)) (H0 accepted), else at `--games`, undecided; alpha (the chance of
accepting H1 where the Elo is ELO0 or less) and beta (H0 where it is ELO1 or more) are 0.05 unless
`--alpha`, `--beta`. The decision is taken on setups in index order, so it is the same on any
`--jobs`; games that other workers finished beyond it are left out.

`--ladder A B C ...`: each agent against the one before it, one line per step; a budget ladder is a
ladder of budgets doubling (`--ladder mcts:250 mcts:500 mcts:1000`). `--json FILE` writes every
match as one document. Ctrl-C prints the games finished so far and exits 130.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from common import machine_load

from medina_cli.agents import UnknownAgent, make_agent
from medina_cli.agents.replicates import t_value
from medina_cli.engine.native import engine_name
from medina_cli.engine.playout import random_setup
from medina_cli.engine.scoring import score_game
from medina_cli.errors import MedinaError
from medina_cli.files import write_atomically
from medina_cli.rules.loader import load_ruleset
from medina_cli.study.games import game_rng, play_seats
from medina_cli.study.parallel import Workers, parallel_map
from medina_cli.study.stats import rounded, wilson_interval

UNSEEN = 1e-3  # the count an SPRT gives a score of 0 or 1 not seen yet (fishtest's regularization)
PROGRESS_SECONDS = 1.0  # at most one progress line a second


# --- statistics --------------------------------------------------------------------------------


def elo_of(share: float, players: int = 2) -> float:
    """The Elo difference at which one player wins `share` of the games against players - 1 equal
    others (Luce's model); ±inf at 0 and 1."""
    if share <= 0:
        return -math.inf
    if share >= 1:
        return math.inf
    return 400 * math.log10((players - 1) * share / (1 - share))


def share_of(elo: float, players: int = 2) -> float:
    """The win share at an Elo difference `elo` against players - 1 equal others (elo_of's inverse)."""
    strength = 10 ** (elo / 400)
    return strength / (strength + players - 1)


def expected_scores(values: list[float], frequencies: list[float], score: float) -> list[float]:
    """The distribution over `values` closest in likelihood to `frequencies` whose mean is `score`
    (which must lie strictly between the least and the greatest value): f_j / (1 + θ (x_j - score)),
    θ found by bisection."""
    low = -1 / (max(values) - score)
    high = -1 / (min(values) - score)  # every 1 + θ (x - score) stays above 0 in between

    def excess(theta: float) -> float:  # decreasing in θ
        return sum(
            f * (x - score) / (1 + theta * (x - score))
            for x, f in zip(values, frequencies, strict=True)
        )

    for _ in range(200):
        middle = (low + high) / 2
        low, high = (middle, high) if excess(middle) > 0 else (low, middle)
    theta = (low + high) / 2
    return [f / (1 + theta * (x - score)) for x, f in zip(values, frequencies, strict=True)]


@dataclass
class Sprt:
    """The generalized SPRT of H0: Elo `elo0` against H1: Elo `elo1` on scores in [0, 1] (see the
    module's docstring); `add` each unit's score in order."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05
    players: int = 2
    counts: dict[Fraction, int] = field(default_factory=dict)

    @property
    def bounds(self) -> tuple[float, float]:
        return math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha)

    @property
    def units(self) -> int:
        return sum(self.counts.values())

    def add(self, score: Fraction) -> None:
        self.counts[score] = self.counts.get(score, 0) + 1

    def llr(self) -> float:
        if not self.counts:
            return 0.0
        seen = {Fraction(0): UNSEEN, Fraction(1): UNSEEN} | self.counts
        values = [float(x) for x in seen]
        total = sum(seen.values())
        frequencies = [count / total for count in seen.values()]
        p0, p1 = (
            expected_scores(values, frequencies, share_of(elo, self.players))
            for elo in (self.elo0, self.elo1)
        )
        return self.units * sum(
            f * math.log(b / a) for f, a, b in zip(frequencies, p0, p1, strict=True)
        )

    def decision(self) -> str | None:
        """ "H1" or "H0" once the LLR leaves its bounds, else None."""
        llr, (lower, upper) = self.llr(), self.bounds
        return "H1" if llr >= upper else "H0" if llr <= lower else None

    def to_json(self) -> dict:
        lower, upper = self.bounds
        return {
            "elo0": self.elo0,
            "elo1": self.elo1,
            "alpha": self.alpha,
            "beta": self.beta,
            "units": self.units,
            "llr": round(self.llr(), 4),
            "bounds": [round(lower, 4), round(upper, 4)],
            "decision": self.decision(),
        }

    def line(self) -> str:
        lower, upper = self.bounds
        verdict = {
            "H1": f"H1 accepted (Elo {self.elo1:+g} rather than {self.elo0:+g})",
            "H0": f"H0 accepted (Elo {self.elo0:+g} rather than {self.elo1:+g})",
            None: "undecided",
        }[self.decision()]
        return (
            f"SPRT [{self.elo0:g}, {self.elo1:g}] (alpha {self.alpha:g}, beta {self.beta:g}) after "
            f"{self.units} setups: LLR {self.llr():.2f} in bounds [{lower:.2f}, {upper:.2f}]: {verdict}"
        )


def t_interval(values: list[float]) -> tuple[float, float] | None:
    """The 95% Student t interval of the mean of `values`; None below two values."""
    if len(values) < 2:
        return None
    mean = statistics.fmean(values)
    half = t_value(0.95, len(values) - 1, two_sided=True) * statistics.stdev(values)
    half /= math.sqrt(len(values))
    return mean - half, mean + half


# --- games -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameResult:
    """One game as a worker sends it back: its index, totals and winners (seats), and by seat the
    CPU seconds its agent spent in choose() and how many decisions it made."""

    index: int
    totals: list[int]
    winners: list[int]
    seconds: list[float]
    decisions: list[int]


def seats_of(index: int, players: int) -> tuple[int, int]:
    """(setup, A's seat) of game `index`."""
    return divmod(index, players)


def play_games(context: tuple, start: int, stop: int) -> list[GameResult]:
    """Worker entry: games start..stop-1 of a match."""
    rules, seed, a, b = context
    return [play_match_game(rules, seed, a, b, index) for index in range(start, stop)]


BASELINE = "turn3"  # the default of turn 3 (main at 7977d3c): a spec for the benchmarks only


def agent_of(spec: str, seed: str = "0"):
    """The agent `spec` names: any spec make_agent takes, or `turn3`, `turn3:N` (the race search that was
    the default `mcts`, `mcts:N`, up to turn 3; its documents are unchanged since, byte for byte)."""
    name, _, budget = spec.partition(":")
    if name != BASELINE:
        return make_agent(spec, seed)
    from medina_cli.agents.mcts import MctsAgent as RaceAgent

    if budget and not budget.isdigit():
        raise UnknownAgent(f"agent {spec!r}: {BASELINE}:N takes a whole number of playouts")
    return RaceAgent(seed, int(budget) if budget else None)


def play_match_game(rules, seed: int, a: str, b: str, index: int) -> GameResult:
    """Game `index` of a match of `a` against `b`: its setup's merchant and well, A in its seat."""
    players = rules.players
    setup, a_seat = seats_of(index, players)
    seconds = [0.0] * players
    decisions = [0] * players

    def timed(seat: int, spec: str) -> Callable:
        choose = agent_of(spec, f"{seed}/{index}/{seat}").choose

        def chooser(game):
            start = time.process_time()
            placement = choose(game)
            seconds[seat] += time.process_time() - start
            decisions[seat] += 1
            return placement

        return chooser

    game = play_seats(
        rules,
        random_setup(rules, game_rng(seed, setup)),
        [timed(seat, a if seat == a_seat else b) for seat in range(players)],
    )
    sheet = score_game(game)
    totals = [player.total for player in sheet.players]
    winners = [game.players.index(name) for name in sheet.winners]
    return GameResult(index, totals, winners, seconds, decisions)


# --- a match -----------------------------------------------------------------------------------


@dataclass
class Match:
    """A against B: the games planned, those finished (by index) and the SPRT, if any."""

    a: str
    b: str
    ruleset: str
    players: int
    games: int
    seed: int = 1
    sprt: Sprt | None = None
    results: dict[int, GameResult] = field(default_factory=dict)
    stopped_early: bool = False

    def __post_init__(self) -> None:
        self.games = -(-self.games // self.players) * self.players  # whole setups

    def run(self, workers: Workers, progress: Callable[[Match], None] | None = None) -> None:
        """Play the match's games in `workers`, every one or until the SPRT decides (where there is one);
        `progress(match)` after each batch that comes back."""
        rules = load_ruleset(self.ruleset).for_players(self.players)
        context = (rules, self.seed, self.a, self.b)
        tested = 0  # the setups the SPRT has seen
        for batch in parallel_map(play_games, [(context, 0, self.games)], self.games, workers):
            for result in batch:
                self.results[result.index] = result
            if progress is not None:
                progress(self)
            if self.sprt is None:
                continue
            while self.sprt.decision() is None and all(
                index in self.results
                for index in range(tested * self.players, (tested + 1) * self.players)
            ):
                self.sprt.add(self.setup_score(tested))
                tested += 1
            if self.sprt.decision() is not None:
                stop = tested * self.players
                self.results = {i: r for i, r in self.results.items() if i < stop}
                self.stopped_early = stop < self.games
                return

    def setup_score(self, setup: int) -> Fraction:
        games = range(setup * self.players, (setup + 1) * self.players)
        return sum((self.share(self.results[g]) for g in games), Fraction(0)) / self.players

    def share(self, result: GameResult) -> Fraction:
        """A's win share in `result`."""
        a_seat = seats_of(result.index, self.players)[1]
        return Fraction(1, len(result.winners)) if a_seat in result.winners else Fraction(0)

    @property
    def played(self) -> list[GameResult]:
        return [self.results[index] for index in sorted(self.results)]

    @property
    def wins(self) -> Fraction:
        return sum((self.share(r) for r in self.played), Fraction(0))

    @property
    def win_rate(self) -> float:
        return float(self.wins / len(self.results)) if self.results else 0.0

    @property
    def win_interval(self) -> tuple[float, float] | None:
        return wilson_interval(float(self.wins), len(self.results))

    @property
    def elo(self) -> float:
        return elo_of(self.win_rate, self.players)

    @property
    def elo_interval(self) -> tuple[float, float] | None:
        interval = self.win_interval
        return (
            None
            if interval is None
            else (elo_of(interval[0], self.players), elo_of(interval[1], self.players))
        )

    def margins(self) -> list[float]:
        """A's total minus the best other total, game by game."""
        out: list[float] = []
        for r in self.played:
            a_seat = seats_of(r.index, self.players)[1]
            out.append(r.totals[a_seat] - max(t for s, t in enumerate(r.totals) if s != a_seat))
        return out

    def by_seat(self) -> list[tuple[int, Fraction]]:
        """(games, A's wins) with A in each seat."""
        games, wins = [0] * self.players, [Fraction(0)] * self.players
        for r in self.played:
            a_seat = seats_of(r.index, self.players)[1]
            games[a_seat] += 1
            wins[a_seat] += self.share(r)
        return list(zip(games, wins, strict=True))

    def seconds_per_decision(self) -> tuple[float | None, float | None]:
        """(A's, B's) CPU seconds per decision."""
        spent, made = [0.0, 0.0], [0, 0]
        for r in self.played:
            a_seat = seats_of(r.index, self.players)[1]
            for seat in range(self.players):
                side = 0 if seat == a_seat else 1
                spent[side] += r.seconds[seat]
                made[side] += r.decisions[seat]
        a, b = (s / n if n else None for s, n in zip(spent, made, strict=True))
        return a, b

    def to_json(self) -> dict:
        margins = self.margins()
        a_time, b_time = self.seconds_per_decision()
        return {
            "a": self.a,
            "b": self.b,
            "ruleset": self.ruleset,
            "players": self.players,
            "seed": self.seed,
            "games_planned": self.games,
            "games": len(self.results),
            "a_wins": round(float(self.wins), 4),
            "a_win_rate": round(self.win_rate, 4),
            "a_win_rate_ci95": rounded(self.win_interval, 4),
            "fair_share": round(1 / self.players, 4),
            "elo": finite(self.elo),
            "elo_ci95": None
            if self.elo_interval is None
            else [finite(end) for end in self.elo_interval],
            "margin": round(statistics.fmean(margins), 3) if margins else None,
            "margin_ci95": rounded(t_interval(margins), 3),
            "a_by_seat": [
                {
                    "seat": seat + 1,
                    "games": games,
                    "a_wins": round(float(wins), 4),
                    "a_win_rate": round(float(wins / games), 4) if games else None,
                    "a_win_rate_ci95": rounded(wilson_interval(float(wins), games), 4),
                }
                for seat, (games, wins) in enumerate(self.by_seat())
            ],
            "seconds_per_decision": {
                "a": None if a_time is None else round(a_time, 6),
                "b": None if b_time is None else round(b_time, 6),
            },
            "sprt": None if self.sprt is None else self.sprt.to_json(),
            "stopped_early": self.stopped_early,
        }

    def line(self) -> str:
        """The match in one line: A's win rate, Elo and margin, with their intervals."""
        n = len(self.results)
        margins = self.margins()
        margin = (
            f"margin {statistics.fmean(margins):+.1f} {interval_text(t_interval(margins), '+.1f')}"
            if margins
            else "no margin"
        )
        return (
            f"{self.a} against {self.b}: {n} games, {self.a} wins {float(self.wins):g} = "
            f"{self.win_rate:.1%} {interval_text(self.win_interval, '.1%')} (fair {1 / self.players:.0%}), "
            f"Elo {self.elo:+.0f} {interval_text(self.elo_interval, '+.0f')}, {margin}"
        )

    def report(self) -> list[str]:
        """Every figure of the match, a line each."""
        seats = "; ".join(
            f"seat {seat + 1}: {rate_text(wins, games)} of {games}"
            for seat, (games, wins) in enumerate(self.by_seat())
        )
        a_time, b_time = self.seconds_per_decision()
        lines = [
            self.line(),
            f"  A = {self.a} by seat: {seats}",
            f"  CPU seconds per decision: {self.a} {seconds_text(a_time)}, {self.b} {seconds_text(b_time)}",
        ]
        if self.sprt is not None:
            lines.append("  " + self.sprt.line())
        return lines


def rate_text(wins: Fraction, games: int) -> str:
    """A win rate with its Wilson interval."""
    if not games:
        return "-"
    return f"{float(wins / games):.1%} {interval_text(wilson_interval(float(wins), games), '.1%')}"


def finite(value: float) -> float | None:
    return round(value, 1) if math.isfinite(value) else None


def interval_text(interval: tuple[float, float] | None, spec: str) -> str:
    if interval is None:
        return "[no interval]"
    low, high = interval
    return f"[{format(low, spec)}, {format(high, spec)}]"


def seconds_text(seconds: float | None) -> str:
    return "-" if seconds is None else f"{seconds:.4g}"


class ProgressLine:
    """Games done and A's running win rate on stderr, at most once every PROGRESS_SECONDS."""

    def __init__(self) -> None:
        self.shown_at = 0.0

    def __call__(self, match: Match) -> None:
        now = time.monotonic()
        if now - self.shown_at < PROGRESS_SECONDS:
            return
        self.shown_at = now
        print(
            f"{match.a} against {match.b}: {len(match.results)}/{match.games} games, "
            f"{match.a} wins {match.win_rate:.1%}",
            file=sys.stderr,
            flush=True,
        )


# --- the command -------------------------------------------------------------------------------


def document(matches: list[Match], interrupted: bool) -> dict:
    return {
        "benchmark": "bench_strength",
        "engine": engine_name(),
        "interrupted": interrupted,
        "matches": [match.to_json() for match in matches],
    }


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("agents", nargs="*", metavar="SPEC", help="A and B: A plays against B")
    parser.add_argument(
        "--ladder", nargs="+", metavar="SPEC", help="each agent against the one before it"
    )
    parser.add_argument("--ruleset", default="second-edition-2014")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument(
        "--games", type=int, default=400, help="per match, at most (rounded up to whole setups)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--sprt", nargs=2, type=float, metavar=("ELO0", "ELO1"))
    parser.add_argument("--alpha", type=float, default=0.05, help="the SPRT's false H1 rate")
    parser.add_argument("--beta", type=float, default=0.05, help="the SPRT's false H0 rate")
    parser.add_argument("--json", type=Path, metavar="FILE", help="write every match there")
    args = parser.parse_args(argv)
    if bool(args.ladder) == bool(args.agents):
        parser.error("give two agents (A B) or --ladder A B ..., not both")
    args.specs = args.ladder or args.agents
    if len(args.specs) < 2 or (not args.ladder and len(args.specs) != 2):
        parser.error("a match takes two agents (A B), a ladder at least two")
    for spec in args.specs:
        try:
            agent_of(spec)
        except UnknownAgent as error:
            parser.error(str(error))
    if args.json is not None and not args.json.resolve().parent.is_dir():
        parser.error(f"--json {args.json}: its folder does not exist")
    if args.games < 1 or args.jobs < 1 or args.players < 2:
        parser.error("--games and --jobs must be at least 1, --players at least 2")
    if args.sprt and not (0 < args.alpha < 1 and 0 < args.beta < 1 and args.sprt[0] < args.sprt[1]):
        parser.error("--sprt ELO0 ELO1 needs ELO0 < ELO1, and --alpha, --beta between 0 and 1")
    return args


def matches_of(args: argparse.Namespace) -> list[Match]:
    """The matches the options ask for: A against B, or each ladder step against the one below."""
    return [
        Match(
            a,
            b,
            args.ruleset,
            args.players,
            args.games,
            args.seed,
            None
            if args.sprt is None
            else Sprt(
                args.sprt[0], args.sprt[1], alpha=args.alpha, beta=args.beta, players=args.players
            ),
        )
        for b, a in (
            zip(args.specs, args.specs[1:], strict=False)
            if args.ladder
            else [tuple(reversed(args.specs))]
        )
    ]


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    try:
        load_ruleset(args.ruleset).for_players(args.players)
    except MedinaError as error:
        print(f"--ruleset {args.ruleset} --players {args.players}: {error}", file=sys.stderr)
        return 2
    matches = matches_of(args)
    print(machine_load())
    print(
        f"{args.ruleset}, {args.players} players, seed {args.seed}, {engine_name()} engine: "
        f"{matches[0].games} games a match (at most) on {matches[0].games // args.players} shared "
        f"setups, A in every seat of each"
        + (
            f" ({args.games} asked, rounded up to whole setups)"
            if matches[0].games != args.games
            else ""
        )
    )
    interrupted = False
    for match in matches:
        try:
            match.run(Workers(args.jobs), ProgressLine())
        except KeyboardInterrupt:
            interrupted = True
            print("interrupted: the games finished so far", flush=True)
        if match.results:
            lines = match.report() if not args.ladder or interrupted else [match.line()]
            if args.ladder and match.sprt is not None and not interrupted:
                lines.append("  " + match.sprt.line())
            print("\n".join(lines), flush=True)
        if interrupted:
            break
    if args.json is not None:
        try:
            write_atomically(args.json, json.dumps(document(matches, interrupted), indent=2) + "\n")
        except OSError as error:
            print(f"--json {args.json}: cannot write it: {error.strerror}", file=sys.stderr)
            return 2
    return 130 if interrupted else 0


if __name__ == "__main__":
    sys.exit(main())
