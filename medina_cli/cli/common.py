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
JsonOption = Annotated[bool, typer.Option("--json", help="Print one JSON document (see docs/format.md).")]
ToOption = Annotated[Optional[int], typer.Option(
    "--to", metavar="TURN", min=0, help="Stop after this many entries of `turns` (default: all).")]
NoColorOption = Annotated[bool, typer.Option(
    "--no-color", help="Plain text even on a terminal (colour is also off when NO_COLOR is set or output is piped).")]
OutputOption = Annotated[str, typer.Option(
    "--output", "-o", metavar="FILE", help="Write to this file (default: standard output).")]


def expand_inputs(paths: list[str]) -> list[str]:
    """Files as given; directories become every record below them (*.yaml, *.yml, boardspace
    *.sgf), sorted; `-` is stdin."""
    out = []
    for path in paths:
        p = Path(path)
        if path != "-" and p.is_dir():
            found = sorted(str(f) for f in p.rglob("*") if f.suffix.lower() in (".yaml", ".yml", ".sgf") and f.is_file())
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


def load_record_or_board(path: str, ruleset: str | None, sets: list[str] | None):
    """Read a record/1 or a board/1 file (its `medina:` tag decides): a Record or a Board.
    Unusable input exits 2 with the message."""
    from ..records.boardfile import looks_like_board, parse_board
    from ..records.record import parse_record
    from ..yamlio import base_dir_of, read_text
    try:
        name, text = read_text(path)
        parse = parse_board if looks_like_board(text) else parse_record
        return parse(text, name, ruleset=ruleset, overrides=tuple(sets or ()),
                     base_dir=base_dir_of(path))
    except MedinaError as exc:
        warn(exc.problem.human())
        raise typer.Exit(2 if exc.unusable else 1)


def write_output(path: str, text: str, source: str) -> None:
    """Write `text` to `path` (`-`: stdout), never over the input file `source`; failure exits 2."""
    if path == "-":
        sys.stdout.write(text)
        return
    target = Path(path)
    if source != "-" and target.exists() and target.resolve() == Path(source).resolve():
        warn(f"{path}: refusing to overwrite the input file; choose another output file")
        raise typer.Exit(2)
    try:
        target.write_text(text, encoding="utf-8")
    except OSError as exc:
        warn(f"{path}: cannot write: {exc.strerror or exc}")
        raise typer.Exit(2)
    warn(f"wrote {path}")


def report_problems(problems) -> None:
    for problem in problems:
        warn(problem.human())


def load_or_exit(ref: str, overrides=(), *, base_dir=None):
    """The ruleset `ref`, or exit 2 with a one-line message (unknown id, unreadable or invalid file)."""
    from ..errors import MedinaError
    from ..rules.loader import load_ruleset
    try:
        return load_ruleset(ref, tuple(overrides or ()), base_dir=base_dir)
    except MedinaError as exc:
        exc.problem.file = exc.problem.file or ref
        warn(exc.problem.human())
        raise typer.Exit(2)


def replay_to(record, to: int | None):
    """Replay `record` through `to` turns (all: None), saying so when `to` is past its end."""
    from ..records.replay import replay
    if to is not None and to > len(record.turns):
        warn(f"{record.file}: --to {to}: the record has {len(record.turns)} turns; showing where it ends")
    return replay(record, to_turn=to)
