"""How long a study will take, told before it starts: each agent timed on a few of its decisions on each
board (a short calibration on this machine), a game's cost under each setup from those times, and the
whole study's from the games it plays. The progress line weighs each setup's games by the same costs,
so that the fast random and greedy games do not promise an early end to a study of mcts games."""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import dataclass

from ..engine.game import Game
from ..engine.playout import random_placement, random_setup
from .games import RANDOM, player_names, seat_chooser

STAGES = (
    (0.5,),
    (0.25, 0.75),
    (0.125, 0.375, 0.625, 0.875),
)  # where along a game decisions are timed, in
# stages that each leave the positions timed spread evenly over the game
BUDGET = 1.0  # seconds of one agent's decisions on a board after which no further stage is timed


@dataclass(frozen=True)
class Calibration:
    """One board timed: the placements of a game, the seconds a placement costs whoever chooses it
    (uniform random play: choosing and playing it), and each agent's seconds to choose one on top."""

    placements: int
    placement_seconds: float
    decision_seconds: dict[
        str, float
    ]  # agent spec -> seconds a decision (random: 0, within the placement's)

    def game_seconds(self, seats: tuple[str, ...]) -> float:
        """A game's seconds with these seats: each seat's share of the placements at its agent's speed."""
        deciding = statistics.fmean(self.decision_seconds[seat] for seat in seats)
        return self.placements * (self.placement_seconds + deciding)


def random_game(rules, seed: int, stops: tuple[int, ...] = ()) -> tuple[int, float, list[Game]]:
    """A game of uniform random play from `seed`: its placements, its seconds, and copies of it after
    each number of placements in `stops`."""
    rng = random.Random(seed)
    game = Game(rules, player_names(rules.players), *random_setup(rules, rng))
    copies, started = [], time.perf_counter()
    while game.seat_to_move is not None:
        if game.placements_made in stops:
            copies.append(game.copy())
        game.push(random_placement(game, rng))
    return game.placements_made, time.perf_counter() - started, copies


def calibrate(rules, agents: list[str], seed: int) -> Calibration:
    """Time a game of uniform random play on `rules`, and each agent's decisions at positions along
    the same game: STAGES, stage by stage until BUDGET is spent."""
    placements, seconds, _ = random_game(rules, seed)
    placements = max(1, placements)
    stops = [tuple(int(share * placements) for share in stage) for stage in STAGES]
    _, _, copies = random_game(
        rules, seed, tuple(sorted(stop for stage in stops for stop in stage))
    )
    at = {game.placements_made: game for game in copies}
    decisions = {}
    for spec in agents:
        choose = seat_chooser(spec, random.Random(seed), f"calibration/{seed}")
        timed, spent = 0, 0.0
        for stage in stops:
            for stop in stage:
                if stop in at:
                    started = time.perf_counter()
                    choose(at[stop].copy())
                    spent += time.perf_counter() - started
                    timed += 1
            if spent >= BUDGET:
                break
        decisions[spec] = 0.0 if spec == RANDOM or not timed else spent / timed
    return Calibration(placements, seconds / placements, decisions)


@dataclass(frozen=True)
class Estimate:
    """A study's cost before it starts: each board's game under each setup, in seconds on one worker."""

    per_game: dict  # (board label, setup name) -> seconds a game
    games: int  # per board and setup
    decisions: dict[str, float]  # agent spec -> seconds a decision, the mean over the boards

    @property
    def seconds(self) -> float:
        """The whole study on one worker."""
        return self.games * sum(self.per_game.values())

    def text(self, jobs: int | None, resumed: bool = False) -> str:
        """One line for the user: the time the whole study should take with `jobs` local worker processes
        (None: a cluster's, which shares the work out as it has workers), and what it rests on; `resumed`:
        the games finished before are not played again."""
        games = self.games * len(self.per_game)
        workers = (
            f"{duration(self.seconds / jobs)} with {jobs} worker process{'es' if jobs > 1 else ''}"
            if jobs
            else f"{duration(self.seconds)} on one worker (a cluster divides it among its workers)"
        )
        timed = ", ".join(
            f"{spec} {1000 * seconds:.3g} ms" if seconds < 1 else f"{spec} {seconds:.3g} s"
            for spec, seconds in self.decisions.items()
            if spec != RANDOM
        )
        return (
            f"estimate: the {games} games of this study take {workers}"
            + (f" (a decision timed here: {timed})" if timed else "")
            + ("; the games finished before are not played again" if resumed else "")
            + "; the time left weighs each setup's games by these times"
        )


def estimate(boards, setups, games: int, seed: int) -> Estimate:
    """The estimate of a study: `boards` as (label, rules) of their player count, `setups` each with its
    `name` and `seats(players)`, `games` per board and setup."""
    agents = list(
        dict.fromkeys(seat for setup in setups for seat in setup.seats(2))
    )  # every agent a setup seats
    calibrations = {label: calibrate(rules, agents, seed) for label, rules in boards}
    per_game = {
        (label, setup.name): calibrations[label].game_seconds(setup.seats(rules.players))
        for label, rules in boards
        for setup in setups
    }
    decisions = {
        spec: statistics.fmean(c.decision_seconds[spec] for c in calibrations.values())
        for spec in agents
    }
    return Estimate(per_game, games, decisions)


def clock(seconds: float) -> str:
    """H:MM:SS, as the progress line shows the time left."""
    minutes, whole = divmod(round(seconds), 60)
    return f"{minutes // 60}:{minutes % 60:02d}:{whole:02d}"


def duration(seconds: float) -> str:
    """A time as the estimate says it: "about H:MM:SS", or "under a second" (not "about 0:00:00")."""
    return "under a second" if seconds < 1 else f"about {clock(seconds)}"
