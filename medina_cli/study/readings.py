"""`simulate --readings`: random games, each replayed under every other reading of the ruleset's
open rule points, and how often each reading changes them (with a 95% Wilson interval)."""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.playout import play_random_game
from ..rules.loader import alternatives, load_ruleset
from .games import game_rng, player_names
from .runner import chunk_size, map_chunks
from .stats import wilson_interval

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
    from ..comparison import Outcome, ReadingOutcome, replay_into
    from ..records.record import Action, Record, TurnEntry

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
    for every other reading of each open rule point that applies to it, how often it changes them;
    `progress(finished)` is called as games finish."""
    found = alternatives(load_ruleset(ref, overrides))
    counts = [[0] * len(EFFECTS) for _ in found]
    size = chunk_size(games, jobs)
    tasks = ((ref, tuple(overrides), players, seed, start, min(start + size, games)) for start in range(0, games, size))
    finished = 0
    for per_game in map_chunks(readings_chunk, tasks, jobs):
        for effects in per_game:
            for tally, flags in zip(counts, effects):
                for k, flag in enumerate(flags):
                    tally[k] += flag
        finished += len(per_game)
        if progress is not None:
            progress(finished)
    return [ReadingFrequency(alt.overrides, alt.reading.param, alt.value.value, games, dict(zip(EFFECTS, tally)))
            for alt, tally in zip(found, counts)]
