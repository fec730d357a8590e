"""`simulate --readings`: how often each other reading of the ruleset's open rule points changes random
games (with a 95% Wilson interval), both ways: games played as written and replayed under the
reading (a stricter reading shows up), and games played under the reading and replayed as written
(a more permissive one shows up)."""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.board import parse_square
from ..engine.playout import play_random_game
from ..rules.loader import alternatives, load_ruleset
from .games import game_rng, player_names
from .parallel import Workers, parallel_map
from .stats import wilson_interval

EFFECTS = ("changes_winner", "changes_scores", "illegal", "unfinished")


@dataclass
class ReadingFrequency:
    """How often one other reading of an open rule point changes simulated games: `counts` for games
    played as written and replayed placement by placement under the reading, `reverse` for the same
    seeds played under the reading and replayed as written."""

    overrides: tuple[str, ...]  # PARAM=VALUE that play the reading
    param: str
    value: object
    games: int
    counts: dict[str, int]  # EFFECTS -> games
    reverse: dict[str, int]  # EFFECTS -> games

    @property
    def label(self) -> str:
        return ", ".join(self.overrides)

    def _shares(self, counts: dict) -> dict:
        interval = wilson_interval(counts["changes_winner"], self.games)
        assert interval is not None  # games > 0: the share divides by it
        low, high = interval
        return {
            **counts,
            "changes_winner_share": round(counts["changes_winner"] / self.games, 4),
            "changes_winner_interval": [round(low, 4), round(high, 4)],
        }

    def to_json(self) -> dict:
        return {
            "param": self.param,
            "value": self.value,
            "overrides": list(self.overrides),
            "games": self.games,
            **self._shares(self.counts),
            "played_under_reading": self._shares(self.reverse),
        }


def readings_json(
    players: int, games: int, seed: int, overrides=(), ruleset_id: str | None = None, found=()
) -> dict:
    """The medina-simulate-readings/1 document (without `errors` and `warnings`); without `found`, as far as
    the options make it (what an error leaves it at)."""
    return {
        "format": "medina-simulate-readings/1",
        "ruleset": ruleset_id,
        "players": players,
        "games": games,
        "seed": seed,
        "overrides": list(overrides),
        "readings": [f.to_json() for f in found],
    }


def _effects(reading) -> tuple[bool, ...]:
    """EFFECTS of one replay (a `ReadingOutcome`: the replay beside the game as played)."""
    o = reading.outcome
    return (
        reading.changes_winner,
        reading.changes_scores,
        not o.comparable,
        o.comparable and not o.game.is_over(),
    )


def readings_chunk(context: tuple, start: int, stop: int) -> list[list[tuple[bool, ...]]]:
    """Worker entry: games `start..stop-1`; per game and alternative reading the EFFECTS as booleans of
    the game played as written and replayed under the reading, then of the game played under the
    reading and replayed as written."""
    from ..comparison import Outcome, ReadingOutcome, replay_into
    from ..records.record import Record, TurnEntry

    ref, overrides, players, seed = context
    ruleset = load_ruleset(ref, overrides)
    others = [(alt, load_ruleset(ruleset, alt.overrides)) for alt in alternatives(ruleset)]
    names = player_names(players)

    def played(under, label: str, index: int):
        """A random game under `under`, as an Outcome, and as a record to replay under `again`."""
        game = play_random_game(under.for_players(players), names, game_rng(seed, index))
        entries = [
            TurnEntry(number, player, None, placements)
            for number, (player, placements) in enumerate(game.turns(), 1)
        ]
        setup = {
            key: None if cell is None else parse_square(cell) for key, cell in game.setup.items()
        }

        def record(again):
            return Record(
                f"game {index + 1}",
                ruleset=again,
                players=names,
                merchant=setup["merchant"],
                well=setup["well"],
                turns=entries,
            )

        return Outcome(label, under, game=game), record

    out = []
    for index in range(start, stop):
        baseline, as_written = played(ruleset, "as written", index)
        effects = []
        for alt, other in others:
            forward = ReadingOutcome(
                alt, replay_into(Outcome(alt.label, other), as_written(other)), baseline
            )
            under_reading, record = played(other, alt.label, index)
            back = ReadingOutcome(
                alt, replay_into(Outcome("as written", ruleset), record(ruleset)), under_reading
            )
            effects.append(_effects(forward) + _effects(back))
        out.append(effects)
    return out


def simulate_readings(
    ref: str, players: int, games: int, seed: int, *, overrides=(), jobs: int = 1, progress=None
) -> list[ReadingFrequency]:
    """Play `games` random games under `ref` (the same games `simulate` plays with this seed) and count,
    for every other reading of each open rule point that applies to it, how often it changes them;
    `progress(finished)` is called as games finish."""
    found = alternatives(load_ruleset(ref, overrides))
    counts = [[0] * 2 * len(EFFECTS) for _ in found]
    finished = 0
    span = ((ref, tuple(overrides), players, seed), 0, games)
    for per_game in parallel_map(readings_chunk, [span], games, Workers(jobs)):
        for effects in per_game:
            for tally, flags in zip(counts, effects, strict=True):
                for k, flag in enumerate(flags):
                    tally[k] += flag
        finished += len(per_game)
        if progress is not None:
            progress(finished)
    return [
        ReadingFrequency(
            alt.overrides,
            alt.reading.param,
            alt.value.value,
            games,
            dict(zip(EFFECTS, tally, strict=False)),
            dict(zip(EFFECTS, tally[len(EFFECTS) :], strict=True)),
        )
        for alt, tally in zip(found, counts, strict=True)
    ]
