"""`medina import`: convert game records from other sites into record/1 files."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from .common import Command, names_or_exit, report_problems, warn

app = typer.Typer(help="Convert game records from other sites into record/1 files.", no_args_is_help=True)


@app.command("boardspace", cls=Command)
def boardspace(
    file: Annotated[str, typer.Argument(metavar="FILE", help="A boardspace.net .sgf file or story, or - for stdin.")],
    output: Annotated[Optional[str], typer.Option(
        "--output", "-o", metavar="PATH", help="Write the record/1 file here (default: standard output).")] = None,
    players: Annotated[Optional[str], typer.Option(
        "--players", metavar="A,B,...", help="Player names in seat order, comma-separated (default: the file's "
        "names, or P0, P1, ... for a story, which has none).")] = None,
) -> None:
    """Convert a boardspace.net Medina record into record/1, under the boardspace profile its variant and
    engine revision imply (e.g. boardspace-original-r100).

    Exit status: 0 converted, 1 the record cannot be read, 2 unusable input or usage error.
    """
    from ..engine.board import geometry_for
    from ..errors import MedinaError
    from ..records.boardspace import parse_boardspace, read_site_game
    from ..records.record import action_token, write_record
    from ..yamlio import read_text

    names = names_or_exit(players, "--players") if players is not None else None
    try:
        name, text = read_text(file)
        if names is not None:
            _check_names(names, read_site_game(text, name).players)
        record = parse_boardspace(text, name, players=names)
    except MedinaError as exc:
        warn(exc.human())
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


def _check_names(names: list[str], seats: int) -> None:
    """--players must name every seat of the game once; otherwise a usage error (exit 2)."""
    if len(names) != seats:
        why = (f"{len(names)} name{'s' if len(names) != 1 else ''} for a {seats}-player game; "
               f"give {seats}, comma-separated in seat order")
    elif len(set(names)) != len(names):
        why = "a name given twice; every player needs a name of his own"
    elif "neutral" in names:
        why = "`neutral` is reserved for neutral roofs; choose another name"
    else:
        return
    warn(f"--players {', '.join(names)}: {why}")
    raise typer.Exit(2)
