"""The study of editions as a command (`medina study`): rulesets at player counts (boards), each played
by every agent against itself and by each stronger agent against the one before it, and the
figures that compare them, each with its 95% interval and what is significant.

A study is several studies of the runner, one per player count and setup of agents, each in its own
folder under the output folder (resumable as `simulate --out` is). Game i of a board starts from the
same random setup in every setup of agents; seats rotate over the games.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from .folder import StudyFolder, options_of
from .games import SOURCES, GameSummary
from .parallel import Workers
from .runner import Part, Study
from .simulate import simulate
from .stats import LEVEL, Tally, mean_interval, means_differ, proportions_differ, rounded, wilson_interval

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
        return (self.strong,) * players if self.weak is None else (self.strong,) + (self.weak,) * (players - 1)


def setups(agents: list[str]) -> list[Setup]:
    """Self-play of each agent, then each agent against the one before it (agents weakest first)."""
    return [Setup(agent) for agent in agents] + [Setup(b, a) for a, b in zip(agents, agents[1:])]


@dataclass
class Figures:
    """The figures of one board (a ruleset at a player count) under one setup, game by game."""

    players: int
    games: int = 0
    seat_wins: list = field(default_factory=list)  # a shared win counts 1/k for each of k winners
    margin: Tally = field(default_factory=Tally)  # the winner's lead over the second
    placements: Tally = field(default_factory=Tally)
    sources: dict = field(default_factory=dict)  # source -> Tally of the points from it per game
    scores: list = field(default_factory=list)  # every player's final score
    strong_wins: Fraction = Fraction(0)  # the one seat of the stronger agent (a setup of two agents)
    strong_margins: list = field(default_factory=list)  # its total minus the best other total

    def __post_init__(self):
        self.seat_wins = [Fraction(0)] * self.players
        self.sources = {source: Tally() for source in SOURCES}

    def add(self, summary: GameSummary, strong: str | None) -> None:
        self.games += 1
        for seat in summary.winners:
            self.seat_wins[seat] += Fraction(1, len(summary.winners))
        top = sorted(summary.totals, reverse=True)
        self.margin.add(top[0] - top[1])
        self.placements.add(summary.placements)
        for source in SOURCES:
            self.sources[source].add(summary.points[source])
        self.scores += summary.totals
        if strong is not None:
            seat = summary.agents.index(strong)
            if seat in summary.winners:
                self.strong_wins += Fraction(1, len(summary.winners))
            self.strong_margins.append(summary.totals[seat] - max(
                total for other, total in enumerate(summary.totals) if other != seat))

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
        return {"mean": round(mean, 3), "ci95": rounded(mean_interval(mean, statistics.stdev(self.strong_margins),
                                                                       len(self.strong_margins)), 3)}

    def fair_verdict(self, wins: Fraction) -> str:
        """'above' or 'below' the fair share when the interval of `wins` excludes it, on COMPARED games or
        more (on fewer, a Wilson interval may leave out a share that an exact test keeps: 2 wins of 2 at
        a fair share of 1/3), else 'not different'."""
        if self.games < COMPARED:
            return "not different"
        low, high = wilson_interval(float(wins), self.games) or (0.0, 1.0)
        fair = 1 / self.players
        return "above" if low > fair else "below" if high < fair else "not different"

    def to_json(self, strong: bool) -> dict:
        doc = {"games": self.games,
               "seat_wins": [{"rate": round(float(w / self.games), 6) if self.games else None,
                              "ci95": rounded(self.seat_interval(s), 6), "fair_share": self.fair_verdict(w)}
                             for s, w in enumerate(self.seat_wins)],
               "margin": self.margin.to_json(), "placements": self.placements.to_json(),
               "points": {source: tally.to_json() for source, tally in self.sources.items()}}
        if strong:
            doc["strong"] = {"win_rate": round(float(self.strong_wins / self.games), 6) if self.games else None,
                             "ci95": rounded(self.strong_interval, 6), "fair_share": self.fair_verdict(self.strong_wins),
                             "margin": self.strong_margin()}
        return doc


def significant_pairs(figures: dict[str, Figures], differ) -> list[list[str]]:
    """The pairs of boards (by label) whose figures `differ(a, b)` says differ at the 95% level, among
    the boards with at least COMPARED games."""
    labels = [label for label, board in figures.items() if board.games >= COMPARED]
    return [[a, b] for i, a in enumerate(labels) for b in labels[i + 1:] if differ(figures[a], figures[b])]


def comparisons(figures: dict[str, Figures], skill: bool) -> dict:
    """Between the boards of one player count under one setup: which differ significantly, figure by figure."""
    def seat1(a: Figures, b: Figures) -> bool:
        return proportions_differ(float(a.seat_wins[0]), a.games, float(b.seat_wins[0]), b.games)

    out = {"seat 1 wins": significant_pairs(figures, seat1),
           "margin": significant_pairs(figures, lambda a, b: means_differ(a.margin, b.margin)),
           "placements": significant_pairs(figures, lambda a, b: means_differ(a.placements, b.placements))}
    for source in SOURCES:
        out[f"points from {source}"] = significant_pairs(
            figures, lambda a, b, source=source: means_differ(a.sources[source], b.sources[source]))
    if skill:
        out["stronger agent's wins"] = significant_pairs(figures, lambda a, b: proportions_differ(
            float(a.strong_wins), a.games, float(b.strong_wins), b.games))
    return out


@dataclass
class Report:
    """Every board's figures under every setup, as played so far."""

    seed: int
    games: int
    boards: list  # labels ("<ruleset> <players>p"), in the order given
    setups: list[Setup]
    figures: dict = field(default_factory=dict)  # (board label, setup name) -> Figures

    def figures_of(self, board: str, players: int, setup: Setup) -> Figures:
        return self.figures.setdefault((board, setup.name), Figures(players))

    def to_json(self) -> dict:
        by_setup = []
        for setup in self.setups:
            boards = {board: self.figures[board, setup.name] for board in self.boards
                      if (board, setup.name) in self.figures}
            by_players: dict[int, dict] = {}
            for board, figures in boards.items():
                by_players.setdefault(figures.players, {})[board] = figures
            by_setup.append({"setup": setup.name, "seats": "every seat" if setup.weak is None else
                             f"one seat of {setup.strong}, the others {setup.weak}",
                             "boards": {board: f.to_json(setup.weak is not None) for board, f in boards.items()},
                             "significant": {f"{players}p": comparisons(group, setup.weak is not None)
                                             for players, group in by_players.items() if len(group) > 1}})
        planned = self.games * len(self.figures)
        finished = sum(figures.games for figures in self.figures.values())
        return {"format": FORMAT, "seed": self.seed, "games": self.games, "confidence": LEVEL,
                "boards": self.boards, "setups": by_setup, "complete": finished == planned,
                "games_finished": finished, "games_planned": planned}


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


ROUND = 25  # games per board and setup added in each round: every setup's figures grow together


def rounds(games: int) -> list[int]:
    """The games each board has under every setup after each round: ROUND more each time, then all."""
    return list(range(ROUND, games, ROUND)) + [games]


def study_report(boards: list[Board], agents: list[str], games: int, seed: int, out: Path, *, resume: bool = False,
                 play: bool = True, workers: Workers = Workers(), progress=None, notify=None) -> Report:
    """Play (or, with `resume`, finish) every game of the study in `out` and gather its figures: per player
    count and setup, one runner study in its own folder (`<players>p-<setup>`), played as `simulate`
    plays one. The games are played in rounds (`rounds`): the first ROUND games of every board under
    every setup, then the next ROUND, ..., so that a study interrupted at any time has about as many
    games of each. Without `play`, nothing is played: the figures are those of the games finished in
    `out` so far (the study must be there, with these options). The figures are read from every
    game's statistics. `progress(finished)` counts the games finished, those read back included;
    `notify(text)` says what `simulate` says. Raises StudyError (a folder that cannot be used, a lost
    cluster) and KeyboardInterrupt: the finished games stay in `out`."""
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
                folder.resume(options, missing="to report on (no .study/study.json): --so-far reports on the "
                              "games of a study begun in --out with these options; begin it without --so-far")
            else:
                folder.resume(options) if resume else folder.start(options)
            runs.append((mine, setup, study, folder))
    finished = [0] * len(runs)  # the games finished in each run

    def count(run: int, games_now: int) -> None:
        finished[run] = games_now
        if progress is not None:
            progress(sum(finished))

    said = set()

    def note(text: str) -> None:  # a folder's damage is read again each round: said once
        if notify is not None and text not in said:
            said.add(text)
            notify(text)

    for limit in rounds(games) if play else ():
        for number, (mine, setup, study, folder) in enumerate(runs):
            folder.damage.files.clear()
            simulate(study, mine[0].players, workers=workers, folder=folder, notify=note, until=limit,
                     progress=lambda games_now, number=number: count(number, games_now))
    for mine, setup, study, folder in runs:
        for board in mine:  # every board has its figures
            report.figures_of(board.label, board.players, setup)
        for part, index, summary in folder.finished():
            report.figures_of(mine[part].label, mine[part].players, setup).add(summary, setup.strong_seat)
    return report
