"""`medina validate`: is every placement of a record legal under its edition?"""

from __future__ import annotations

from typing import Annotated

import typer

from .common import (
    JsonOption,
    RulesetOption,
    SetOption,
    emit_json,
    exit_status,
    expand_inputs,
    say,
    shown_as,
    stop,
    warn,
)


def validate(
    files: Annotated[
        list[str],
        typer.Argument(
            metavar="FILE...",
            parser=shown_as("path"),
            help="Record files, directories (every *.yaml, *.yml and *.sgf below them but hidden ones, "
            "rulesets and boards) or - for stdin.",
        ),
    ],
    ruleset: RulesetOption = None,
    set_: SetOption = None,
    json_: JsonOption = False,
) -> None:
    """Check recorded games: every placement legal, turns in order, the claimed result right.

    Exit status: 0 all valid, 1 some record invalid, 2 unusable input or usage error.
    """
    from ..errors import Problem
    from ..records.validation import files_line, validate_document

    results: list[dict] = []
    status = 0
    doc = validate_document(results) if json_ else None
    paths = expand_inputs(files)
    if not paths:
        stop(
            [
                Problem(
                    "usage", "no record files (*.yaml, *.yml, *.sgf) found", file=", ".join(files)
                )
            ],
            2,
            doc,
        )
    for path in paths:
        result, file_status = _validated(path, ruleset, tuple(set_ or ()), json_, doc)
        results.append(result)
        status = max(status, file_status)
    if json_:
        emit_json(validate_document(results))
    elif len(results) > 1:
        say(files_line(results))
    raise typer.Exit(status)


def _validated(
    path: str, ruleset, overrides: tuple, json_: bool, doc: dict | None
) -> tuple[dict, int]:
    """One file's medina-validate/1 result and exit status, said as it comes unless --json (its errors
    and verdict on stdout, its warnings on stderr); a bad --ruleset or --set exits 2 (in `doc`)."""
    from ..errors import BadArgument, MedinaError
    from ..records.record import read_record
    from ..records.replay import replay
    from ..records.validation import result_json, unreadable_json, verdict_line

    try:
        record = read_record(path, ruleset=ruleset, overrides=overrides)
    except MedinaError as exc:
        if isinstance(exc, BadArgument):  # a bad --ruleset or --set: the same for every file
            stop(exc.problems, 2, doc)
        name = "<stdin>" if path == "-" else path
        if not json_:
            say(exc.human())
            say(f"{name}: UNREADABLE")
        return unreadable_json(name, exc.problems), exit_status(exc)
    outcome = replay(record)
    if not json_:
        for problem in outcome.problems:
            say(problem.human())
        for problem in outcome.warnings:
            warn("warning: " + problem.human())
        say(verdict_line(outcome))
    return result_json(outcome), 1 if outcome.problems else 0
