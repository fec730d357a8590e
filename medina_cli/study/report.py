"""The study of editions as a command (`medina study`): rulesets at player counts (boards), each played
by every agent against itself and by each stronger agent against the one before it, and the
figures that compare them, each with its 95% interval, and every test between them corrected as one
family (Holm), so that the report claims only the differences that hold.

A study is several studies of the runner, one per player count and setup of agents, each in its own
folder under the output folder (resumable as `simulate --out` is). Game i of a board starts from the
same random setup in every setup of agents; seats rotate over the games.
"""

from __future__ import annotations

import itertools
import statistics
from dataclasses import dataclass, field
from fractions import Fraction
from functools import partial
from pathlib import Path

from .estimate import estimate
from .folder import StudyFolder, options_of
from .games import SOURCES, GameSummary, agents_engine
from .parallel import Workers
from .runner import Part, Study
from .simulate import simulate
from .stats import (
    ALPHA,
    LEVEL,
    Tally,
    holm,
    mean_interval,
    means_p,
    proportions_p,
    rounded,
    share_p,
    wilson_interval,
)

FORMAT = "medina-study-report/1"
COMPARED = 10  # the fewest games a board needs to be tested, against another board or a fair share


@dataclass(frozen=True)
class Setup:
    """Who plays: `agents[0]` in every seat (self-play), or one seat of `strong` and `weak` in the others."""

    strong: str
    weak: str | None = None

    @property
    def name(self) -> str:
        return f"{self.strong} self-play" if self.weak is None else f"{self.strong} vs {self.weak}"

    @property
    def folder(self) -> str:
        return self.name.replace(" ", "-").replace(":", "").replace("@", "at")

    @property
    def strong_seat(self) -> str | None:
        """The agent of the one seat whose results the skill figures follow (None: self-play)."""
        return None if self.weak is None else self.strong

    def seats(self, players: int) -> tuple[str, ...]:
        return (
            (self.strong,) * players
            if self.weak is None
            else (self.strong,) + (self.weak,) * (players - 1)
        )


def setups(agents: list[str]) -> list[Setup]:
    """Self-play of each agent, then each agent against the one before it (agents weakest first)."""
    return [Setup(agent) for agent in agents] + [Setup(b, a) for a, b in itertools.pairwise(agents)]


@dataclass
class Figures:
    """The figures of one board (a ruleset at a player count) under one setup, game by game."""

    players: int
    sources: tuple = SOURCES  # the sources of points its ruleset has (sources_of)
    games: int = 0
    seat_wins: list = field(default_factory=list)  # a shared win counts 1/k for each of k winners
    margin: Tally = field(default_factory=Tally)  # the winner's lead over the second
    placements: Tally = field(default_factory=Tally)
    points: dict = field(default_factory=dict)  # source -> Tally of the points from it per game
    scores: list = field(default_factory=list)  # every player's final score
    strong_wins: Fraction = Fraction(
        0
    )  # the one seat of the stronger agent (a setup of two agents)
    strong_margins: list = field(default_factory=list)  # its total minus the best other total

    def __post_init__(self):
        self.seat_wins = [Fraction(0)] * self.players
        self.points = {source: Tally() for source in SOURCES}

    def add(self, summary: GameSummary, strong: str | None) -> None:
        self.games += 1
        for seat in summary.winners:
            self.seat_wins[seat] += Fraction(1, len(summary.winners))
        top = sorted(summary.totals, reverse=True)
        self.margin.add(top[0] - top[1])
        self.placements.add(summary.placements)
        for source in SOURCES:
            self.points[source].add(summary.points[source])
        self.scores += summary.totals
        if strong is not None:
            seat = summary.agents.index(strong)
            if seat in summary.winners:
                self.strong_wins += Fraction(1, len(summary.winners))
            self.strong_margins.append(
                summary.totals[seat]
                - max(total for other, total in enumerate(summary.totals) if other != seat)
            )

    @property
    def tested(self) -> bool:
        """Whether the board has the games to be tested (COMPARED or more: on fewer, the score test may
        reject a share that an exact test keeps, as 2 wins of 2 at a fair share of 1/3)."""
        return self.games >= COMPARED

    def seat_interval(self, seat: int) -> tuple[float, float] | None:
        return wilson_interval(float(self.seat_wins[seat]), self.games)

    @property
    def strong_interval(self) -> tuple[float, float] | None:
        return wilson_interval(float(self.strong_wins), self.games)

    def strong_margin(self) -> dict:
        """The stronger agent's mean margin over the best other player, with its interval."""
        if len(self.strong_margins) < 2:
            return {"mean": None, "ci95": None}
        mean = statistics.fmean(self.strong_margins)
        return {
            "mean": round(mean, 3),
            "ci95": rounded(
                mean_interval(
                    mean, statistics.stdev(self.strong_margins), len(self.strong_margins)
                ),
                3,
            ),
        }

    def share_p(self, wins: Fraction) -> float:
        """The p-value of `wins` against the fair share of one seat."""
        return share_p(float(wins), self.games, 1 / self.players)

    def fair_verdict(self, wins: Fraction, holds: bool) -> str:
        """'above' or 'below' the fair share when its test `holds` (after the correction), else 'not different'."""
        if not holds:
            return "not different"
        return "above" if wins / self.games > Fraction(1, self.players) else "below"

    def to_json(self, strong: bool, holds) -> dict:
        """The board's figures; `holds(figure)` says whether its test against the fair share holds."""
        doc = {
            "games": self.games,
            "seat_wins": [
                {
                    "rate": round(float(w / self.games), 6) if self.games else None,
                    "ci95": rounded(self.seat_interval(s), 6),
                    "fair_share": self.fair_verdict(w, holds(seat_figure(s))),
                }
                for s, w in enumerate(self.seat_wins)
            ],
            "margin": self.margin.to_json(),
            "placements": self.placements.to_json(),
            "points": {source: tally.to_json() for source, tally in self.points.items()},
            "sources": list(self.sources),
        }
        if strong:
            doc["strong"] = {
                "win_rate": round(float(self.strong_wins / self.games), 6) if self.games else None,
                "ci95": rounded(self.strong_interval, 6),
                "fair_share": self.fair_verdict(self.strong_wins, holds(STRONG)),
                "margin": self.strong_margin(),
            }
        return doc


STRONG = "stronger agent's wins"


def seat_figure(seat: int) -> str:
    return f"seat {seat + 1} wins"


def sources_of(rules) -> tuple[str, ...]:
    """The sources of points a ruleset has (its rules data say): the well only where there is one that pays."""
    return tuple(
        source
        for source in SOURCES
        if source != "well" or (rules.well.enabled and rules.well.bonus > 0)
    )


def fair_share_tests(board: str, figures: Figures, skill: bool) -> list[dict]:
    """The tests of one board against the fair share: each seat's win rate under self-play, the stronger
    agent's under a setup of two agents; none on fewer than COMPARED games."""
    if not figures.tested:
        return []
    if skill:
        return [
            {
                "test": "fair share",
                "figure": STRONG,
                "boards": [board],
                "p": figures.share_p(figures.strong_wins),
            }
        ]
    return [
        {
            "test": "fair share",
            "figure": seat_figure(seat),
            "boards": [board],
            "p": figures.share_p(wins),
        }
        for seat, wins in enumerate(figures.seat_wins)
    ]


def board_tests(figures: dict[str, Figures], skill: bool) -> list[dict]:
    """The tests between each two boards of one player count under one setup with COMPARED games or more,
    figure by figure: seat 1's wins, the margin, the length, the points from each source both rulesets
    have and (a setup of two agents) the stronger agent's wins."""
    boards = [label for label, board in figures.items() if board.tested]
    out = []
    for i, a in enumerate(boards):
        for b in boards[i + 1 :]:
            first, second = figures[a], figures[b]
            p_values = {
                seat_figure(0): proportions_p(
                    float(first.seat_wins[0]), first.games, float(second.seat_wins[0]), second.games
                ),
                "margin": means_p(first.margin, second.margin),
                "placements": means_p(first.placements, second.placements),
            }
            for source in SOURCES:
                if source in first.sources and source in second.sources:
                    p_values[f"points from {source}"] = means_p(
                        first.points[source], second.points[source]
                    )
            if skill:
                p_values[STRONG] = proportions_p(
                    float(first.strong_wins), first.games, float(second.strong_wins), second.games
                )
            out += [
                {"test": "boards", "figure": figure, "boards": [a, b], "p": p}
                for figure, p in p_values.items()
            ]
    return out


FAMILY = (
    "every test of this report: each seat's win rate against the fair share (self-play), the stronger "
    "agent's against its fair share (a setup of two agents), and between each two boards of a player "
    "count seat 1's wins, the margin, the length, the points from each source both rulesets have and "
    f"the stronger agent's wins, under every setup, on boards of at least {COMPARED} games"
)


@dataclass
class Report:
    """Every board's figures under every setup, as played so far."""

    seed: int
    games: int
    boards: list  # labels ("<ruleset> <players>p"), in the order given
    setups: list[Setup]
    figures: dict = field(default_factory=dict)  # (board label, setup name) -> Figures

    def figures_of(self, board: Board, setup: Setup) -> Figures:
        return self.figures.setdefault(
            (board.label, setup.name), Figures(board.players, board.sources)
        )

    def groups(self, setup: Setup) -> dict[int, dict[str, Figures]]:
        """A setup's boards (label -> figures) by player count, in the order given."""
        out: dict[int, dict[str, Figures]] = {}
        for board in self.boards:
            if (board, setup.name) in self.figures:
                figures = self.figures[board, setup.name]
                out.setdefault(figures.players, {})[board] = figures
        return out

    def tests(self) -> list[dict]:
        """Every test of the report, its p-value corrected over all of them (Holm): `p_holm`, and `holds`."""
        tests = []
        for setup in self.setups:
            skill = setup.weak is not None
            for group in self.groups(setup).values():
                found = [
                    test
                    for board, figures in group.items()
                    for test in fair_share_tests(board, figures, skill)
                ]
                tests += [
                    {"setup": setup.name, **test} for test in found + board_tests(group, skill)
                ]
        for test, adjusted in zip(tests, holm([test["p"] for test in tests]), strict=True):
            test["p"], test["p_holm"] = significant_digits(test["p"]), significant_digits(adjusted)
            test["holds"] = adjusted < ALPHA
        return tests

    def to_json(self) -> dict:
        tests = self.tests()
        held = {
            (test["setup"], test["figure"], test["boards"][0])
            for test in tests
            if test["holds"] and test["test"] == "fair share"
        }
        by_setup = []
        for setup in self.setups:
            groups = self.groups(setup)
            boards = {
                board: figures for group in groups.values() for board, figures in group.items()
            }
            skill = setup.weak is not None
            significant = {}
            for players, group in groups.items():
                if len(group) > 1:
                    figures = (
                        [seat_figure(0), "margin", "placements"]
                        + [
                            f"points from {source}"
                            for source in SOURCES
                            if sum(source in f.sources for f in group.values()) > 1
                        ]
                        + ([STRONG] if skill else [])
                    )
                    significant[f"{players}p"] = {
                        figure: [
                            test["boards"]
                            for test in tests
                            if test["holds"]
                            and test["test"] == "boards"
                            and test["setup"] == setup.name
                            and test["figure"] == figure
                            and test["boards"][0] in group
                        ]
                        for figure in figures
                    }
            by_setup.append(
                {
                    "setup": setup.name,
                    "seats": "every seat"
                    if not skill
                    else f"one seat of {setup.strong}, the others {setup.weak}",
                    "boards": {
                        board: f.to_json(
                            skill,
                            lambda figure, board=board, name=setup.name: (
                                (name, figure, board) in held
                            ),
                        )
                        for board, f in boards.items()
                    },
                    "significant": significant,
                }
            )
        planned = self.games * len(self.figures)
        finished = sum(figures.games for figures in self.figures.values())
        engine = agents_engine(agent for setup in self.setups for agent in setup.seats(2))
        return {
            "format": FORMAT,
            "seed": self.seed,
            "games": self.games,
            **({"engine": engine} if engine else {}),
            "confidence": LEVEL,
            "boards": self.boards,
            "setups": by_setup,
            "complete": finished == planned,
            "games_finished": finished,
            "games_planned": planned,
            "correction": {"method": "Holm", "level": ALPHA, "tests": len(tests), "family": FAMILY},
            "tests": tests,
        }


def significant_digits(p: float) -> float:
    """A p-value to four significant digits (enough to read and to compare with the level)."""
    return float(f"{p:.4g}")


def board_label(ruleset_id: str, players: int) -> str:
    return f"{ruleset_id} {players}p"


@dataclass(frozen=True)
class Board:
    """A ruleset at a player count: its part of the runner's studies, and its resolved parameters (a
    resumed study must have the same)."""

    label: str
    players: int
    part: Part
    parameters: dict

    @property
    def sources(self) -> tuple[str, ...]:
        return sources_of(self.part.rules)


ROUND = 25  # games per board and setup added in each round: every setup's figures grow together


def rounds(games: int) -> list[int]:
    """The games each board has under every setup after each round: ROUND more each time, then all."""
    return [*list(range(ROUND, games, ROUND)), games]


def study_report(
    boards: list[Board],
    agents: list[str],
    games: int,
    seed: int,
    out: Path,
    *,
    resume: bool = False,
    play: bool = True,
    workers: Workers = Workers(),
    progress=None,
    notify=None,
    calibrate: bool = False,
) -> Report:
    """Play (or, with `resume`, finish) every game of the study in `out` and gather its figures: per player
    count and setup, one runner study in its own folder (`<players>p-<setup>`), played as `simulate`
    plays one. The games are played in rounds (`rounds`): the first ROUND games of every board under
    every setup, then the next ROUND, ..., so that a study interrupted at any time has about as many
    games of each. Without `play`, nothing is played: the figures are those of the games finished in
    `out` so far (the study must be there, with these options). The figures are read from every
    game's statistics. `progress(finished)` counts the games finished, those read back included;
    `notify(text)` says what `simulate` says. With `calibrate` (and `play`), the agents are timed first
    (estimate.py): `notify` says how long the whole study should take, and `progress(finished, share=...)`
    also gives the share of that time done, each setup's games weighed by their cost. Raises StudyError
    (a folder that cannot be used, a lost cluster) and KeyboardInterrupt: the finished games stay in `out`."""
    plan = setups(agents)
    report = Report(seed, games, [board.label for board in boards], plan)
    runs = []
    for players in dict.fromkeys(board.players for board in boards):
        mine = [board for board in boards if board.players == players]
        for setup in plan:
            study = Study(tuple(board.part for board in mine), games, seed, setup.seats(players))
            folder = StudyFolder(out / f"{players}p-{setup.folder}", study)
            options = options_of(study, players, [board.parameters for board in mine])
            if not play:
                folder.resume(
                    options,
                    missing="to report on (no .study/study.json): --so-far reports on the "
                    "games of a study begun in --out with these options; begin it without --so-far",
                )
            else:
                folder.resume(options) if resume else folder.start(options)
            runs.append((mine, setup, study, folder))
    finished = [0] * len(runs)  # the games finished in each run
    cost = [1.0] * len(runs)  # seconds a game of each run (all alike without calibration)
    if play and calibrate:
        found = estimate([(board.label, board.part.rules) for board in boards], plan, games, seed)
        if notify is not None:
            notify(found.text(None if workers.scheduler else workers.jobs, resumed=resume))
        cost = [
            statistics.fmean(found.per_game[board.label, setup.name] for board in mine)
            for mine, setup, _, _ in runs
        ]
    whole = (
        sum(games * len(mine) * each for (mine, *_), each in zip(runs, cost, strict=True)) or 1.0
    )

    def count(run: int, games_now: int) -> None:
        finished[run] = games_now
        if progress is not None and calibrate:
            progress(
                sum(finished),
                share=sum(f * each for f, each in zip(finished, cost, strict=True)) / whole,
            )
        elif progress is not None:
            progress(sum(finished))

    said = set()

    def note(text: str) -> None:  # a folder's damage is read again each round: said once
        if notify is not None and text not in said:
            said.add(text)
            notify(text)

    for limit in rounds(games) if play else ():
        for number, (mine, _setup, study, folder) in enumerate(runs):
            folder.damage.files.clear()
            simulate(
                study,
                mine[0].players,
                workers=workers,
                folder=folder,
                notify=note,
                until=limit,
                progress=partial(count, number),
            )
    for mine, setup, _study, folder in runs:
        for board in mine:  # every board has its figures
            report.figures_of(board, setup)
        for part, _index, summary in folder.finished():
            report.figures_of(mine[part], setup).add(summary, setup.strong_seat)
    return report
