"""`medina import`: convert game records from other sites into record/1 files."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from .common import report_problems, warn

app = typer.Typer(help="Convert game records from other sites into record/1 files.", no_args_is_help=True)


@app.command("boardspace")
def boardspace(
    file: Annotated[str, typer.Argument(metavar="FILE", help="A boardspace.net .sgf file or story, or - for stdin.")],
    output: Annotated[Optional[str], typer.Option(
        "--output", "-o", metavar="OUT", help="Write the record/1 file here (default: standard output).")] = None,
    players: Annotated[Optional[str], typer.Option(
        "--players", metavar="A,B,...", help="Player names in seat order A, B, … (default: the file's names, "
        "or P0, P1, … for a story, which has none).")] = None,
) -> None:
    """Convert a boardspace.net Medina record into record/1, under the boardspace profile its variant and
    engine revision imply (e.g. boardspace-original-r100).

    Exit status: 0 converted, 1 the record cannot be read, 2 unusable input or usage error.
    """
    from ..engine.board import geometry_for
    from ..errors import MedinaError
    from ..records.boardspace import parse_boardspace
    from ..records.record import action_token, write_record
    from ..yamlio import read_text

    try:
        name, text = read_text(file)
        names = [n.strip() for n in players.split(",")] if players is not None else None
        record = parse_boardspace(text, name, players=names)
    except MedinaError as exc:
        warn(exc.problem.human())
        raise typer.Exit(2 if exc.unusable else 1)
    report_problems(record.problems.errors)
    if record.problems.errors:
        raise typer.Exit(1)
    for problem in record.problems.warnings:
        warn("warning: " + problem.human())
    geo = geometry_for(record.rules)
    turns = [(t.player, [a.kind if a.kind != "place" else action_token(geo, (a.piece, a.cell)) for a in t.actions])
             for t in record.turns]
    out = write_record(ruleset_ref=record.ruleset.id, players=record.players, geo=geo, merchant=record.merchant,
                       well=record.well, turns=turns, meta=record.meta)
    if output is None or output == "-":
        sys.stdout.write(out)
        return
    if file != "-" and Path(output).resolve() == Path(file).resolve():
        warn(f"{output}: the output would overwrite the input; choose another file")
        raise typer.Exit(2)
    try:
        Path(output).write_text(out, encoding="utf-8")
    except OSError as exc:
        warn(f"{output}: cannot write: {exc.strerror or exc}")
        raise typer.Exit(2)
    warn(f"{name}: wrote {output} ({record.ruleset.id}, {len(record.players)} players, {len(record.turns)} turns)")
