"""Simulated games: complete random legal games under a ruleset, and statistics over them.

Game `i` of a run with seed `s` is played from its own generator seeded by (s, i), so a run gives
the same games whatever the number of worker processes, and every ruleset of a comparison plays
the same seeds. Statistics come from the finished games' score sheets and event logs.
"""

from __future__ import annotations

import math
import random
import statistics
from dataclasses import dataclass
from pathlib import Path

from .engine.playout import play_random_game
from .engine.scoring import score_game
from .records.record import action_token, write_record
from .rules.loader import is_path, load_ruleset

SOURCES = ("palace pieces", "merchants", "walls", "palace tiles", "tower tiles", "well")
COUNTED_EVENTS = {"pass": "passes", "retire": "colour retirements", "forced-roof": "forced roofs"}
PER_GAME = ("tile transfers", *COUNTED_EVENTS.values())


@dataclass
class GameSummary:
    """What one finished game contributes to the statistics (small: workers send it back)."""

    totals: list[int]  # by seat
    winners: list[int]  # seats
    points: dict[str, int]  # SOURCES -> points, all players together
    turns: int
    placements: int
    counts: dict[str, int]  # PER_GAME -> how often it happened


def player_names(count: int) -> list[str]:
    return [f"P{seat}" for seat in range(1, count + 1)]


def game_rng(seed: int, index: int) -> random.Random:
    """The generator of game `index` (0-based) of a run with `seed`."""
    return random.Random(f"medina-simulate/{seed}/{index}")


def record_ref(ref: str) -> str:
    """How a written record names its ruleset: a built-in id as is, a file by its absolute path."""
    return str(Path(ref).resolve()) if is_path(ref) else ref


def record_name(ruleset_id: str, index: int, games: int) -> str:
    return f"{ruleset_id}-{index + 1:0{max(4, len(str(games)))}d}.yaml"


def play_one(rules, ref: str, seed: int, index: int, *, with_record: bool = False) -> tuple[GameSummary, str | None]:
    """Play game `index` of the run; with_record: also its record/1 text, with its result."""
    players = player_names(rules.players)
    game, turns = play_random_game(rules, players, game_rng(seed, index))
    sheet = score_game(game)
    totals = [p.total for p in sheet.players]
    colour_value = {c.name: c.value for c in rules.colours}
    points = dict.fromkeys(SOURCES, 0)
    for player in sheet.players:
        for palace in player.palaces:
            points["palace pieces"] += palace.buildings + palace.stables
            points["merchants"] += palace.merchants
            points["walls"] += palace.walls
            points["well"] += palace.well
        points["palace tiles"] += sum(colour_value[c] for c in player.palace_tiles)
        points["tower tiles"] += sum(player.tower_tiles)
    counts = dict.fromkeys(PER_GAME, 0)
    for event in game.events:
        if event.kind in COUNTED_EVENTS:
            counts[COUNTED_EVENTS[event.kind]] += 1
        elif event.kind in ("palace-tile", "tower-tile"):
            counts["tile transfers"] += 1
    # every tile event but the first for each tile moves a tile that somebody already held
    held = sum(p is not None for p in (*game.palace_tile.values(), *game.tower_tile.values()))
    counts["tile transfers"] -= held
    summary = GameSummary(totals, [players.index(w) for w in sheet.winners], points, len(turns),
                          game.placements_made, counts)
    if not with_record:
        return summary, None
    text = write_record(
        ruleset_ref=ref, players=players, geo=game.geo, merchant=game.start_merchant, well=game.well,
        turns=[(players[t.seat], [action_token(game.geo, a) for a in t.actions]) for t in turns],
        result=dict(zip(players, totals)),
        meta={"event": f"medina simulate, seed {seed}, game {index + 1}"})
    return summary, text


def play_chunk(task: tuple) -> list[GameSummary]:
    """Worker entry: play games `start..stop-1`, writing each record into `out_dir` if given."""
    ref, overrides, players, seed, start, stop, games, out_dir = task
    ruleset = load_ruleset(ref, overrides)
    rules = ruleset.for_players(players)
    summaries = []
    for index in range(start, stop):
        summary, text = play_one(rules, record_ref(ref), seed, index, with_record=out_dir is not None)
        if text is not None:
            (Path(out_dir) / record_name(ruleset.id, index, games)).write_text(text, encoding="utf-8")
        summaries.append(summary)
    return summaries


def simulate(ref: str, players: int, games: int, seed: int, *, overrides=(), jobs: int = 1,
             out_dir: str | None = None, progress=None) -> list[GameSummary]:
    """Play `games` games (in `jobs` processes) under `ref` with `--set` `overrides` and return their
    summaries in game order; `progress(done)` is called as games finish."""
    chunk = max(1, min(20, games // (jobs * 16)))  # small chunks: the workers finish together
    tasks = [(ref, tuple(overrides), players, seed, start, min(start + chunk, games), games, out_dir)
             for start in range(0, games, chunk)]
    if jobs == 1:
        return _collect(map(play_chunk, tasks), progress)
    import multiprocessing
    with multiprocessing.Pool(jobs, initializer=_ignore_interrupts) as pool:
        return _collect(pool.imap(play_chunk, tasks), progress)


def _ignore_interrupts() -> None:
    """Workers leave Ctrl-C to the parent, which stops the pool (no traceback from each worker)."""
    import signal
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _collect(results, progress) -> list[GameSummary]:
    summaries: list[GameSummary] = []
    for chunk in results:
        summaries.extend(chunk)
        if progress is not None:
            progress(len(summaries))
    return summaries


@dataclass
class Spread:
    mean: float
    sd: float

    @classmethod
    def of(cls, values) -> Spread:
        values = list(values)
        if not values:
            return cls(0.0, 0.0)
        return cls(statistics.fmean(values), statistics.stdev(values) if len(values) > 1 else 0.0)

    def to_json(self) -> dict:
        return {"mean": round(self.mean, 3), "sd": round(self.sd, 3)}


@dataclass
class Statistics:
    """A run's statistics: scores, where the points come from, length, seats, per-game happenings."""

    ruleset: str
    games: int
    winning: Spread  # the winner's score (the best total)
    losing: Spread  # every other player's score
    point_shares: dict[str, float]  # SOURCES -> share of all points scored
    turns: Spread
    placements: Spread
    seat_wins: list[float]  # share of games won by each seat; a shared win counts 1/k for each winner
    per_game: dict[str, float]  # PER_GAME -> mean per game

    @classmethod
    def of(cls, ruleset_id: str, players: int, summaries: list[GameSummary]) -> Statistics:
        games = len(summaries)
        points = {source: sum(s.points[source] for s in summaries) for source in SOURCES}
        total_points = sum(points.values())
        seat_wins = [0.0] * players
        for s in summaries:
            for seat in s.winners:
                seat_wins[seat] += 1 / len(s.winners)
        return cls(
            ruleset=ruleset_id,
            games=games,
            winning=Spread.of(max(s.totals) for s in summaries),
            losing=Spread.of(t for s in summaries for seat, t in enumerate(s.totals) if seat not in s.winners),
            point_shares={k: (v / total_points if total_points else 0.0) for k, v in points.items()},
            turns=Spread.of(s.turns for s in summaries),
            placements=Spread.of(s.placements for s in summaries),
            seat_wins=[w / games if games else 0.0 for w in seat_wins],
            per_game={k: (sum(s.counts[k] for s in summaries) / games if games else 0.0) for k in PER_GAME},
        )

    def to_json(self) -> dict:
        def key(name: str) -> str:
            return name.replace(" ", "_")
        return {
            "ruleset": self.ruleset,
            "games": self.games,
            "scores": {"winning": self.winning.to_json(), "losing": self.losing.to_json()},
            "point_shares": {key(k): round(v, 4) for k, v in self.point_shares.items()},
            "length": {"turns": self.turns.to_json(), "placements": self.placements.to_json()},
            "seat_wins": [round(w, 4) for w in self.seat_wins],
            "per_game": {key(k): round(v, 3) for k, v in self.per_game.items()},
        }


def wilson_interval(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% for z = 1.96); (0, 1) when there are no trials."""
    if not trials:
        return 0.0, 1.0
    share = successes / trials
    centre = share + z * z / (2 * trials)
    spread = z * math.sqrt(share * (1 - share) / trials + z * z / (4 * trials * trials))
    scale = 1 + z * z / trials
    return max(0.0, (centre - spread) / scale), min(1.0, (centre + spread) / scale)


# --- open readings over simulated games ------------------------------------------------------------

EFFECTS = ("changes_winner", "changes_scores", "illegal", "unfinished")


@dataclass
class ReadingFrequency:
    """How often one other reading of an open rule point changes simulated games (each played under the
    ruleset as written, then replayed placement by placement under the reading)."""

    overrides: tuple[str, ...]  # PARAM=VALUE that play the reading
    param: str
    value: object
    games: int
    counts: dict[str, int]  # EFFECTS -> games

    @property
    def label(self) -> str:
        return ", ".join(self.overrides)

    def to_json(self) -> dict:
        low, high = wilson_interval(self.counts["changes_winner"], self.games)
        return {"param": self.param, "value": self.value, "overrides": list(self.overrides), "games": self.games,
                **self.counts, "changes_winner_share": round(self.counts["changes_winner"] / self.games, 4),
                "changes_winner_interval": [round(low, 4), round(high, 4)]}


def readings_chunk(task: tuple) -> list[list[tuple[bool, ...]]]:
    """Worker entry: games `start..stop-1`, each replayed under every alternative reading; per game and
    alternative the EFFECTS as booleans."""
    from .compare import Outcome, ReadingOutcome, replay_into
    from .records.record import Action, Record, TurnEntry
    from .rules.loader import alternatives

    ref, overrides, players, seed, start, stop = task
    ruleset = load_ruleset(ref, overrides)
    rules = ruleset.for_players(players)
    others = [(alt, load_ruleset(ruleset, alt.overrides)) for alt in alternatives(ruleset)]
    names = player_names(players)
    out = []
    for index in range(start, stop):
        game, turns = play_random_game(rules, names, game_rng(seed, index))
        baseline = Outcome("as written", ruleset, game=game)
        entries = [TurnEntry(number, names[t.seat], None, [Action("tea") if a == ("tea",) else Action("place", *a)
                                                           for a in t.actions]) for number, t in enumerate(turns, 1)]
        effects = []
        for alt, other in others:
            record = Record(f"game {index + 1}", ruleset=other, players=names, merchant=game.start_merchant,
                            well=game.well, turns=entries)
            reading = ReadingOutcome(alt, replay_into(Outcome(alt.label, other), record), baseline)
            o = reading.outcome
            effects.append((reading.changes_winner, reading.changes_scores, not o.comparable,
                            o.comparable and not o.game.finished))
        out.append(effects)
    return out


def simulate_readings(ref: str, players: int, games: int, seed: int, *, overrides=(), jobs: int = 1,
                      progress=None) -> list[ReadingFrequency]:
    """Play `games` random games under `ref` (the same games `simulate` plays with this seed) and count,
    for every other reading of each open rule point that applies to it, how often it changes them."""
    from .rules.loader import alternatives

    chunk = max(1, min(20, games // (jobs * 16)))
    tasks = [(ref, tuple(overrides), players, seed, start, min(start + chunk, games)) for start in range(0, games, chunk)]
    if jobs == 1:
        per_game = _collect(map(readings_chunk, tasks), progress)
    else:
        import multiprocessing
        with multiprocessing.Pool(jobs, initializer=_ignore_interrupts) as pool:
            per_game = _collect(pool.imap(readings_chunk, tasks), progress)
    found = alternatives(load_ruleset(ref, overrides))
    return [ReadingFrequency(alt.overrides, alt.reading.param, alt.value.value, games,
                             {effect: sum(g[i][k] for g in per_game) for k, effect in enumerate(EFFECTS)})
            for i, alt in enumerate(found)]
