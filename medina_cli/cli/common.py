"""Shared CLI pieces: options, input expansion, record loading, output helpers."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from ..errors import MedinaError

RulesetOption = Annotated[Optional[str], typer.Option(
    "--ruleset", "-r", metavar="ID|PATH",
    help="Play by this ruleset instead of the file's (a built-in id or a ruleset YAML file).")]
SetOption = Annotated[Optional[list[str]], typer.Option(
    "--set", metavar="PARAM=VALUE",
    help="Override one ruleset parameter for this run, e.g. towers.reconnect=once_per_palace_arm "
         "(repeatable; `medina rules params` lists them).")]
JsonOption = Annotated[bool, typer.Option("--json", help="Print one JSON document (see FORMAT.md).")]
ToOption = Annotated[Optional[int], typer.Option(
    "--to", metavar="TURN", min=0, help="Stop after this many entries of `turns` (default: all).")]


def expand_inputs(paths: list[str]) -> list[str]:
    """Files as given; directories become every *.yaml/*.yml below them, sorted; `-` is stdin."""
    out = []
    for path in paths:
        p = Path(path)
        if path != "-" and p.is_dir():
            found = sorted(str(f) for f in p.rglob("*") if f.suffix in (".yaml", ".yml") and f.is_file())
            out.extend(found)
        else:
            out.append(path)
    return out


def emit_json(doc) -> None:
    sys.stdout.write(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")


def say(text: str = "") -> None:
    sys.stdout.write(text + "\n")


def warn(text: str) -> None:
    sys.stderr.write(text + "\n")


def load_record(path: str, ruleset: str | None, sets: list[str] | None):
    """Read a record for a single-file command; unusable input exits 2 with the message."""
    from ..records.record import read_record
    try:
        return read_record(path, ruleset=ruleset, overrides=tuple(sets or ()))
    except MedinaError as exc:
        warn(exc.problem.human())
        raise typer.Exit(2 if exc.unusable else 1)


def report_problems(problems) -> None:
    for problem in problems:
        warn(problem.human())
