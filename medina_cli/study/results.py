"""A study's statistics, accumulated game by game: scores, where the points come from, length, win
rate per seat and per-game happenings, each mean with its 95% interval (win rates: Wilson)."""

from __future__ import annotations

from fractions import Fraction

from .games import PER_GAME, SOURCES, GameSummary, agents_engine
from .stats import LEVEL, Tally, means_differ, proportions_differ, rounded, wilson_interval


class Statistics:
    """The statistics of one ruleset's games; `add` each finished game, in any order."""

    def __init__(self, ruleset: str, players: int):
        self.ruleset = ruleset
        self.games = 0
        self.winning = Tally()  # the winner's score (the best total)
        self.losing = Tally()  # every other player's score
        self.points = dict.fromkeys(SOURCES, 0)
        self.turns = Tally()
        self.placements = Tally()
        self.sole_wins = [0] * players  # by seat: the games it won alone (whole numbers add fast)
        self.shared_wins = [
            Fraction(0)
        ] * players  # a shared win counts 1/k for each of the k winners
        self.happenings = {name: Tally() for name in PER_GAME}
        self.agents: dict[str, AgentStatistics] = {}  # by agent spec

    @classmethod
    def of(cls, ruleset: str, players: int, summaries) -> Statistics:
        statistics = cls(ruleset, players)
        for summary in summaries:
            statistics.add(summary)
        return statistics

    def add(self, s: GameSummary) -> None:
        self.games += 1
        totals, winners = s.totals, s.winners
        self.winning.add(max(totals))
        losing = self.losing
        for seat, total in enumerate(totals):
            if seat not in winners:
                losing.add(total)
        points = self.points
        for source, value in s.points.items():
            points[source] += value
        self.turns.add(s.turns)
        self.placements.add(s.placements)
        if len(winners) == 1:
            self.sole_wins[winners[0]] += 1
        else:
            for seat in winners:
                self.shared_wins[seat] += Fraction(1, len(winners))
        happenings = self.happenings
        for name, count in s.counts.items():
            happenings[name].add(count)
        for seat, spec in enumerate(s.agents):
            self.agents.setdefault(spec, AgentStatistics(spec)).add(s, seat)

    def merge(self, other: Statistics) -> None:
        """Add the games of `other` (of the same ruleset): the same as adding each of them, in any order."""
        self.games += other.games
        for mine, theirs in (
            (self.winning, other.winning),
            (self.losing, other.losing),
            (self.turns, other.turns),
            (self.placements, other.placements),
        ):
            mine.merge(theirs)
        for source in SOURCES:
            self.points[source] += other.points[source]
        self.sole_wins = [
            mine + theirs for mine, theirs in zip(self.sole_wins, other.sole_wins, strict=True)
        ]
        self.shared_wins = [
            mine + theirs for mine, theirs in zip(self.shared_wins, other.shared_wins, strict=True)
        ]
        for name in PER_GAME:
            self.happenings[name].merge(other.happenings[name])
        for spec, agent in other.agents.items():
            self.agents.setdefault(spec, AgentStatistics(spec)).merge(agent)

    @property
    def point_shares(self) -> dict[str, float]:
        """SOURCES -> share of all points scored."""
        total = sum(self.points.values())
        return {k: (v / total if total else 0.0) for k, v in self.points.items()}

    @property
    def wins(self) -> list[Fraction]:
        """The games each seat won (a shared win counts 1/k for each of the k winners)."""
        return [
            sole + shared for sole, shared in zip(self.sole_wins, self.shared_wins, strict=True)
        ]

    @property
    def seat_wins(self) -> list[float]:
        """The share of games each seat won."""
        return [float(w / self.games) if self.games else 0.0 for w in self.wins]

    @property
    def seat_win_intervals(self) -> list[tuple[float, float] | None]:
        return [wilson_interval(float(w), self.games) for w in self.wins]

    @property
    def per_game(self) -> dict[str, float]:
        """PER_GAME -> mean per game."""
        return {name: tally.mean for name, tally in self.happenings.items()}

    def figures(self) -> dict[str, Tally]:
        """Every mean figure by its JSON path (for the significance marks)."""
        return {
            "scores.winning": self.winning,
            "scores.losing": self.losing,
            "length.turns": self.turns,
            "length.placements": self.placements,
            **{f"per_game.{key(name)}": tally for name, tally in self.happenings.items()},
        }

    def differs_from(self, other: Statistics) -> list[str]:
        """The figures (JSON paths) in which these games differ from `other`'s at the 95% level."""
        mine, theirs = self.figures(), other.figures()
        marks = [path for path in mine if means_differ(mine[path], theirs[path])]
        marks += [
            f"seat_wins[{seat}]"
            for seat, (a, b) in enumerate(zip(self.wins, other.wins, strict=True))
            if proportions_differ(float(a), self.games, float(b), other.games)
        ]
        return marks

    def to_json(self) -> dict:
        return {
            "ruleset": self.ruleset,
            "games": self.games,
            "scores": {"winning": self.winning.to_json(), "losing": self.losing.to_json()},
            "point_shares": {key(k): round(v, 4) for k, v in self.point_shares.items()},
            "length": {"turns": self.turns.to_json(), "placements": self.placements.to_json()},
            "seat_wins": [round(w, 4) for w in self.seat_wins],
            "seat_wins_ci95": [rounded(i, 4) for i in self.seat_win_intervals],
            "per_game": {key(k): round(v, 3) for k, v in self.per_game.items()},
            "per_game_ci95": {key(k): rounded(t.interval, 3) for k, t in self.happenings.items()},
        }


class AgentStatistics:
    """One agent spec's results over every seat it held (identical specs pooled): seat-games, wins (a
    shared win counts 1/k for each of the k winners) and scores."""

    def __init__(self, agent: str):
        self.agent = agent
        self.wins = Fraction(0)
        self.scores = Tally()

    def add(self, s: GameSummary, seat: int) -> None:
        self.scores.add(s.totals[seat])
        if seat in s.winners:
            self.wins += Fraction(1, len(s.winners))

    def merge(self, other: AgentStatistics) -> None:
        self.wins += other.wins
        self.scores.merge(other.scores)

    @property
    def games(self) -> int:
        return self.scores.n

    @property
    def win_rate(self) -> float:
        return float(self.wins / self.games) if self.games else 0.0

    @property
    def win_interval(self) -> tuple[float, float] | None:
        return wilson_interval(float(self.wins), self.games)

    def to_json(self) -> dict:
        return {
            "agent": self.agent,
            "games": self.games,
            "wins": round(float(self.wins), 3),
            "win_rate": round(self.win_rate, 4),
            "win_rate_ci95": rounded(self.win_interval, 4),
            "mean_score": round(self.scores.mean, 3),
            "mean_score_ci95": rounded(self.scores.interval, 3),
        }


def agent_rows(
    results: list[Statistics], seats: tuple[str, ...]
) -> list[tuple[str, AgentStatistics]]:
    """(ruleset, agent statistics) per ruleset, per distinct agent spec in the order `seats` names them
    (not the order in which games finished)."""
    return [
        (r.ruleset, r.agents[spec])
        for r in results
        for spec in dict.fromkeys(seats)
        if spec in r.agents
    ]


def agents_json(results: list[Statistics], seats: tuple[str, ...]) -> list[dict]:
    """The top-level `agents` rows of a study with agents."""
    return [{"ruleset": ruleset, **a.to_json()} for ruleset, a in agent_rows(results, seats)]


def key(name: str) -> str:
    """A figure's name as a JSON key."""
    return name.replace(" ", "_")


def comparison_json(results: list[Statistics]) -> dict:
    """Additions to the study document: the confidence level, and beside each ruleset after the first
    the figures that differ significantly from the first's."""
    return {
        "confidence": LEVEL,
        "significant": {r.ruleset: r.differs_from(results[0]) for r in results[1:]},
    }


def simulate_json(players: int, games: int, seed: int, overrides=(), results=(), seats=()) -> dict:
    """The medina-simulate/1 document (without `errors` and `warnings`); without `results`, as far as the
    options make it (what an error leaves it at). With an agent other than random, the engine that
    played (`agents_engine`)."""
    doc = {
        "format": "medina-simulate/1",
        "players": players,
        "games": games,
        "seed": seed,
        "overrides": list(overrides),
        "rulesets": [r.to_json() for r in results],
    }
    if results:
        doc.update(comparison_json(results))
    if not (results and seats):
        return doc
    engine = agents_engine(seats)
    return {**doc, **({"engine": engine} if engine else {}), "agents": agents_json(results, seats)}
