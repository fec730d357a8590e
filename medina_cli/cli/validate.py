"""`medina validate`: is every placement of a record legal under its edition?"""

from __future__ import annotations

from typing import Annotated

import typer

from .common import (JsonOption, RulesetOption, SetOption, emit_json, exit_status, expand_inputs, say, shown_as, stop,
                     warn)


def validate(
    files: Annotated[list[str], typer.Argument(
        metavar="FILE...", parser=shown_as("path"),
        help="Record files, directories (every *.yaml, *.yml and *.sgf below them but hidden ones, "
        "rulesets and boards) or - for stdin.")],
    ruleset: RulesetOption = None,
    set_: SetOption = None,
    json_: JsonOption = False,
) -> None:
    """Check recorded games: every placement legal, turns in order, the claimed result right.

    Exit status: 0 all valid, 1 some record invalid, 2 unusable input or usage error.
    """
    from ..errors import BadArgument, MedinaError, Problem
    from ..records.record import read_record
    from ..records.replay import replay

    results, status = [], 0
    doc = {"format": "medina-validate/1", "results": results} if json_ else None
    paths = expand_inputs(files)
    if not paths:
        stop([Problem("usage", "no record files (*.yaml, *.yml, *.sgf) found", file=", ".join(files))], 2, doc)
    for path in paths:
        try:
            record = read_record(path, ruleset=ruleset, overrides=tuple(set_ or ()))
        except MedinaError as exc:
            if isinstance(exc, BadArgument):  # a bad --ruleset or --set: the same for every file
                stop(exc.problems, 2, doc)
            name = "<stdin>" if path == "-" else path
            results.append({"file": name, "ruleset": None, "valid": False, "finished": False,
                            "errors": [problem.to_json() for problem in exc.problems], "warnings": []})
            status = max(status, exit_status(exc))
            if not json_:
                say(exc.human())
                say(f"{name}: UNREADABLE")
            continue
        outcome = replay(record)
        errors: list[Problem] = outcome.problems
        status = max(status, 1 if errors else 0)
        results.append({"file": record.file, "ruleset": record.ruleset.id if record.ruleset else None,
                        "valid": not errors, "finished": outcome.finished,
                        "errors": [e.to_json() for e in errors],
                        "warnings": [w.to_json() for w in outcome.warnings]})
        if not json_:  # the report on stdout; warnings on stderr, as every command gives them
            for problem in errors:
                say(problem.human())
            for problem in outcome.warnings:
                warn("warning: " + problem.human())
            say(_summary(record, outcome))
    if json_:
        emit_json({"format": "medina-validate/1", "results": results})
    elif len(results) > 1:
        valid = sum(r["valid"] for r in results)
        say(f"{len(results)} files: {valid} valid, {len(results) - valid} invalid or unreadable")
    raise typer.Exit(status)


def _summary(record, outcome) -> str:
    count = len(outcome.problems)
    if count:
        stopped = ""
        first = outcome.errors[0] if outcome.errors else None
        if first is not None and first.turn is not None:
            unchecked = (["later turns"] if first.turn < len(record.turns) else []) + (
                ["the claimed result"] if record.result else [])
            if unchecked:
                stopped = f"; checking stopped at turn {first.turn}: {' and '.join(unchecked)} not checked"
        return f"{record.file}: INVALID ({count} error{'s' if count != 1 else ''}{stopped})"
    placed = sum(placement.cell is not None for placement in outcome.game.move_stack)  # tea tiles are no pieces
    turns = len(record.turns)
    facts = (f"{record.ruleset.id}, {len(record.players)} players, {turns} turn{'s' if turns != 1 else ''}, "
             f"{placed} placement{'s' if placed != 1 else ''}")
    state = "finished" if outcome.finished else "unfinished"
    return f"{record.file}: valid ({state}; {facts})"
