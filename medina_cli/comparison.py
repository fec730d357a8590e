"""The comparison model: one record replayed under several rulesets (or variants of one) side by side,
and what the rules change: legality, scores, tile holders, winners; and the readings sweep, the record
under every other reading of each open rule point of its ruleset.

`compare(record, rulesets)` returns a `Comparison`; `Comparison.to_json()` is the `medina-compare/1`
document. `sweep_readings(record)` returns a `Readings`; its `to_json()` is `medina-readings/1`. The
record must have been read (`read_record`/`parse_record`) far enough to know its players. (The
module is not called `compare`: `medina_cli.compare` is the function.)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

from .engine.scoring import score_game, tile_holders
from .errors import Problem
from .records.boardfile import holder_name
from .records.record import Record, parse_record
from .records.replay import replay
from .rules.loader import Alternative, Ruleset, alternatives, builtin_ids, load_ruleset

if TYPE_CHECKING:
    from .engine.game import Game
    from .engine.scoring import ScoreSheet


@dataclass
class Outcome:
    """The record under one ruleset: not applicable (`reason`), invalid (`error`) or valid."""

    name: str  # column label: the ruleset id, its ref when two ids clash, or a variant's label
    ruleset: Ruleset
    reason: str | None = None
    without_well: bool = False  # the record's well was set aside: this ruleset has none
    error: Problem | None = None  # the first problem
    game: Game | None = None  # where the replay stands (None when the record could not be played)
    turns_played: int = 0

    @property
    def status(self) -> str:
        return "not-applicable" if self.reason else "invalid" if self.error else "valid"

    @property
    def comparable(self) -> bool:
        return self.status == "valid"

    @property
    def _played(self) -> Game:
        """The game, for what only a comparable outcome has (its score, its tiles)."""
        assert self.game is not None, "a record replayed without problems was played"
        return self.game

    @property
    def finished(self) -> bool:
        """Comparable, and nobody can place any more."""
        return self.comparable and self._played.is_over()

    @cached_property
    def score(self) -> ScoreSheet | None:
        """The score sheet where the replay stands (None unless comparable)."""
        return score_game(self._played) if self.comparable else None

    @property
    def winners(self) -> list[str]:
        return [] if self.score is None else self.score.winners

    @property
    def totals(self) -> dict[str, int]:
        return {} if self.score is None else self.score.totals

    def tile_holders(self) -> dict[tuple[str, object], str]:
        """(kind, colour or tower) -> holder name (a player, neutral or none) where the replay stands."""
        palaces, towers = tile_holders(self._played)
        players = self._played.players
        return {
            **{("palace", c): holder_name(players, o) for c, o in palaces.items()},
            **{("tower", t): holder_name(players, o) for t, o in towers.items()},
        }

    def to_json(self) -> dict:
        return {
            "ruleset": self.name,
            "status": self.status,
            "reason": self.reason,
            "without_well": self.without_well,
            "finished": self.finished,
            "turns_played": self.turns_played,
            "error": self.error.to_json() if self.error else None,
            "score": None if self.score is None else self.score.to_json(),
        }


@dataclass
class Comparison:
    """A record under several rulesets, and what differs between them."""

    file: str
    players: list[str]
    turns: int  # entries in the record's `turns`
    outcomes: list[Outcome] = field(default_factory=list)

    @property
    def comparable(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.comparable]

    def legality(self) -> list[dict]:
        """Each point where some ruleset stops the record: who rejects the placement there and who accepts it."""
        applicable = [o for o in self.outcomes if o.status != "not-applicable"]
        spots = sorted(
            {(o.error.turn, o.error.placement) for o in applicable if o.error and o.error.turn},
            key=lambda s: (s[0], s[1] or 0),
        )
        out = []
        for turn, placement in spots:
            rejecting = [
                (o.name, o.error)
                for o in applicable
                if o.error and (o.error.turn, o.error.placement) == (turn, placement)
            ]
            passing = [
                o.name for o in applicable if o.error is None or _later(o.error, turn, placement)
            ]
            first = rejecting[0][1]
            out.append(
                {
                    "turn": turn,
                    "placement": placement,
                    "player": first.player,
                    "line": first.line,
                    "illegal_under": {
                        name: {"code": error.code, "message": error.message}
                        for name, error in rejecting
                    },
                    "legal_under": passing,
                }
            )
        return out

    def tiles(self) -> list[dict]:
        """Tiles whose holder at the end differs between the rulesets that replay the record."""
        holders = {o.name: o.tile_holders() for o in self.comparable}
        keys = list(dict.fromkeys(key for table in holders.values() for key in table))
        out = []
        for kind, key in keys:
            by_ruleset = {
                name: table[(kind, key)] for name, table in holders.items() if (kind, key) in table
            }
            if len(set(by_ruleset.values())) > 1:
                out.append(
                    {
                        "tile": kind,
                        ("colour" if kind == "palace" else "tower"): key,
                        "holders": by_ruleset,
                    }
                )
        return out

    def winners(self) -> dict:
        by_ruleset = {o.name: o.winners for o in self.comparable}
        return {
            "changes": len({tuple(w) for w in by_ruleset.values()}) > 1,
            "by_ruleset": by_ruleset,
        }

    def differences(self) -> dict:
        return {"legality": self.legality(), "tiles": self.tiles(), "winners": self.winners()}

    def to_json(self) -> dict:
        """The `medina-compare/1` document."""
        return {
            "format": "medina-compare/1",
            "file": self.file,
            "players": self.players,
            "results": [o.to_json() for o in self.outcomes],
            "differences": self.differences(),
        }


def document_before_replay(file: str, readings: bool = False) -> dict:
    """The `medina-readings/1` (with `readings`) or `medina-compare/1` document as far as it is known
    before the record is replayed (what an error leaves it at)."""
    if readings:
        return {
            "format": "medina-readings/1",
            "ruleset": None,
            "file": file,
            "players": [],
            "baseline": None,
            "readings": [],
        }
    return {
        "format": "medina-compare/1",
        "file": file,
        "players": [],
        "results": [],
        "differences": None,
    }


def _later(problem: Problem, turn: int, placement: int | None) -> bool:
    return problem.turn is not None and (problem.turn, problem.placement or 0) > (
        turn,
        placement or 0,
    )


def default_rulesets(record: Record) -> list[Ruleset]:
    """The record's own ruleset first, then every built-in edition (`kind: edition`; site profiles only
    when named) that supports its player count."""
    players, own = len(record.players), record.ruleset
    assert own is not None, (
        "a record whose players were read has its ruleset (they are read under it)"
    )
    others = (load_ruleset(rid) for rid in builtin_ids() if rid != own.id)
    return [
        own,
        *(r for r in others if r.params["kind"] == "edition" and players in r.player_counts),
    ]


def compare(
    record: Record,
    rulesets: Sequence[Ruleset | str] | Mapping[str, Ruleset | str] | None = None,
    *,
    overrides=(),
) -> Comparison:
    """Replay `record` under each ruleset (ids, paths or loaded rulesets; a mapping gives each column its
    label; default: `default_rulesets`), each with the `--set`-style `overrides`. Raises MedinaError for
    a ruleset that cannot be loaded."""
    if rulesets is None:
        rulesets = default_rulesets(record)
    if isinstance(rulesets, Mapping):
        labels, refs = list(rulesets), list(rulesets.values())
    else:
        refs = list(rulesets)
        labels = None
    loaded = [load_ruleset(ref, tuple(overrides)) for ref in refs]
    labels = labels or column_labels(refs, loaded)
    comparison = Comparison(record.file, list(record.players), len(record.turns))
    for label, ruleset in zip(labels, loaded, strict=True):
        comparison.outcomes.append(play_under(record, ruleset, label))
    return comparison


def column_labels(refs: Sequence[Ruleset | str], loaded: Sequence[Ruleset]) -> list[str]:
    """Column names: the ruleset ids, or when two ids clash the refs as given (a loaded ruleset: its source)."""
    ids = [r.id for r in loaded]
    if len(set(ids)) == len(ids):
        return ids
    return [ref if isinstance(ref, str) else r.source for ref, r in zip(refs, loaded, strict=True)]


def play_under(record: Record, ruleset: Ruleset, label: str | None = None) -> Outcome:
    """The record read again and replayed under `ruleset` (its well set aside if the ruleset has none)."""
    players = len(record.players)
    outcome = Outcome(
        label or ruleset.id,
        ruleset,
        reason=_not_applicable(ruleset, players, record.well is not None),
    )
    if outcome.reason:
        return outcome
    outcome.without_well = record.well is not None and not ruleset.for_players(players).well.enabled
    return replay_into(
        outcome, parse_record(record.text, record.file, ruleset=ruleset, ignore_well=True)
    )


def replay_into(outcome: Outcome, record: Record) -> Outcome:
    """`outcome` filled from replaying `record` (read under the outcome's ruleset): first problem, game."""
    played = replay(record, check_result=False)
    problems = sorted(played.problems, key=lambda p: (p.turn or 0, p.placement or 0))
    outcome.error = problems[0] if problems else None
    outcome.game, outcome.turns_played = played.game, played.turns_played
    return outcome


def _not_applicable(ruleset: Ruleset, players: int, has_well: bool) -> str | None:
    """Why the record cannot be played under `ruleset` at all (None: it can)."""
    if players not in ruleset.player_counts:
        return f"not for {players} players"
    if ruleset.for_players(players).well.enabled and not has_well:
        return "the ruleset needs a well; the record's setup has none"
    return None


# --- the readings sweep ----------------------------------------------------------------------------


@dataclass
class ReadingOutcome:
    """The record under one other reading of an open rule point, beside the ruleset as written."""

    alternative: Alternative
    outcome: Outcome
    baseline: Outcome

    @property
    def both_valid(self) -> bool:
        return self.outcome.comparable and self.baseline.comparable

    @property
    def changes_winner(self) -> bool:
        return self.both_valid and self.outcome.winners != self.baseline.winners

    @property
    def changes_scores(self) -> bool:
        return self.both_valid and self.outcome.totals != self.baseline.totals

    @property
    def changes_legality(self) -> bool:
        return self.outcome.comparable != self.baseline.comparable

    @property
    def has_effect(self) -> bool:
        return (
            self.changes_legality
            or self.changes_winner
            or self.changes_scores
            or (self.both_valid and self.outcome.tile_holders() != self.baseline.tile_holders())
        )

    @property
    def rank(self) -> int:
        """Report order: the winner changes first, then legality, then scores, then the rest."""
        return (
            0
            if self.changes_winner
            else 1
            if self.changes_legality
            else 2
            if self.changes_scores
            else 3
        )

    def to_json(self) -> dict:
        o, reading = self.outcome, self.alternative
        return {
            "param": reading.reading.param,
            "value": reading.value.value,
            "valid": o.comparable,
            "winners": o.winners,
            "totals": o.totals,
            "changes_winner": self.changes_winner,
            "changes_scores": self.changes_scores,
            "changes_legality": self.changes_legality,
            "also": list(reading.value.also),
            "point": reading.reading.point,
            "source": reading.value.source,
            "finished": o.finished,
            "error": o.error.to_json() if o.error else None,
        }


@dataclass
class Readings:
    """A record under its ruleset as written and under each other reading of its open rule points."""

    file: str
    ruleset: Ruleset
    players: list[str]
    baseline: Outcome
    readings: list[ReadingOutcome]

    def ranked(self) -> list[ReadingOutcome]:
        return sorted(self.readings, key=lambda r: r.rank)

    def to_json(self) -> dict:
        """The `medina-readings/1` document."""
        b = self.baseline
        return {
            "format": "medina-readings/1",
            "ruleset": self.ruleset.id,
            "file": self.file,
            "players": self.players,
            "baseline": {
                "valid": b.comparable,
                "finished": b.finished,
                "winners": b.winners,
                "totals": b.totals,
                "error": b.error.to_json() if b.error else None,
            },
            "readings": [r.to_json() for r in self.readings],
        }


def sweep_readings(record: Record, *, overrides=()) -> Readings:
    """Replay `record` under its ruleset (with the `--set`-style `overrides`) and under every other
    reading of each open rule point that applies to that ruleset, one point at a time."""
    assert record.ruleset is not None, (
        "a record whose players were read has its ruleset (they are read under it)"
    )
    ruleset = load_ruleset(record.ruleset, tuple(overrides))
    baseline = play_under(record, ruleset)
    results = [
        ReadingOutcome(
            alt, play_under(record, load_ruleset(ruleset, alt.overrides), alt.label), baseline
        )
        for alt in alternatives(ruleset)
    ]
    return Readings(record.file, ruleset, list(record.players), baseline, results)
