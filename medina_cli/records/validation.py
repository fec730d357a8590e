"""What `validate` says of recorded games: a result per file (valid or not, finished or not, its
errors and warnings), as medina-validate/1 and in a line of text each."""

from __future__ import annotations

from ..errors import Problem
from .replay import Replay


def validate_document(results: list[dict]) -> dict:
    """The medina-validate/1 document of the `results` so far (the list itself: results added later are in it)."""
    return {"format": "medina-validate/1", "results": results}


def result_json(outcome: Replay) -> dict:
    """A replayed record's entry in medina-validate/1."""
    record, errors = outcome.record, outcome.problems
    return {
        "file": record.file,
        "ruleset": record.ruleset.id if record.ruleset else None,
        "valid": not errors,
        "finished": outcome.finished,
        "errors": [e.to_json() for e in errors],
        "warnings": [w.to_json() for w in outcome.warnings],
    }


def unreadable_json(name: str, problems: list[Problem]) -> dict:
    """The medina-validate/1 entry of a file that cannot be read as a record."""
    return {
        "file": name,
        "ruleset": None,
        "valid": False,
        "finished": False,
        "errors": [problem.to_json() for problem in problems],
        "warnings": [],
    }


def verdict_line(outcome: Replay) -> str:
    """`FILE: valid (finished; RULESET, N players, T turns, P placements)`, or INVALID with how many errors
    and what was not checked after the first."""
    record = outcome.record
    count = len(outcome.problems)
    if count:
        stopped = ""
        stop = outcome.stopped_at  # an illegal turn's problem, or an unreadable one's
        if stop is not None and stop.turn is not None:
            unchecked = (["later turns"] if stop.turn < len(record.turns) else []) + (
                ["the claimed result"] if record.result else []
            )
            if unchecked:
                stopped = (
                    f"; checking stopped at turn {stop.turn}: {' and '.join(unchecked)} not checked"
                )
        return f"{record.file}: INVALID ({count} error{'s' if count != 1 else ''}{stopped})"
    game, ruleset = outcome.game, record.ruleset
    assert game is not None and ruleset is not None, "a record replayed without problems was played"
    placed = sum(
        placement.cell is not None for placement in game.move_stack
    )  # tea tiles are no pieces
    turns = len(record.turns)
    facts = (
        f"{ruleset.id}, {len(record.players)} players, {turns} turn{'s' if turns != 1 else ''}, "
        f"{placed} placement{'s' if placed != 1 else ''}"
    )
    state = "finished" if outcome.finished else "unfinished"
    return f"{record.file}: valid ({state}; {facts})"


def files_line(results: list[dict]) -> str:
    """How many of several files are valid."""
    valid = sum(r["valid"] for r in results)
    return f"{len(results)} files: {valid} valid, {len(results) - valid} invalid or unreadable"
