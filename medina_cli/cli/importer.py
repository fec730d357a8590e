"""`medina import`: convert game records from other sites into record/1 files."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, NoReturn, Optional

import typer

from .common import (Command, Group, emit_json, exit_status, names_or_exit, report_problems, shown_as, warn,
                     write_atomically)

app = typer.Typer(help="Convert game records from other sites into record/1 files.\n\nExit status: 0 converted, "
                  "1 the record cannot be read, 2 unusable input or usage error.", no_args_is_help=True,
                  cls=Group)


SiteFileArgument = Annotated[str, typer.Argument(
    metavar="FILE", parser=shown_as("path"), help="A boardspace.net .sgf file or story, or - for stdin.")]
OutputOption = Annotated[Optional[str], typer.Option(
    "--output", "-o", metavar="PATH", help="Write the record/1 file here (default: standard output).")]
ForceOption = Annotated[bool, typer.Option("--force", help="Overwrite the -o file if it exists.")]
PlayersOption = Annotated[Optional[str], typer.Option(
    "--players", metavar="A,B,...", help="Player names in seat order, comma-separated (default: the file's "
    "names, or P0, P1, ... for a story, which has none).")]
ImportJsonOption = Annotated[bool, typer.Option("--json", help="Print one JSON document saying what was written "
                                                "(see docs/format.md); without -o it holds the record.")]


@app.command("boardspace", cls=Command)
def boardspace(
    file: SiteFileArgument,
    output: OutputOption = None,
    force: ForceOption = False,
    players: PlayersOption = None,
    json_: ImportJsonOption = False,
) -> None:
    """Convert a boardspace.net Medina record into record/1, under the boardspace profile its variant and
    engine revision imply (e.g. boardspace-original-r100).

    Exit status: 0 converted, 1 the record cannot be read, 2 unusable input or usage error (an -o file
    that exists without --force, or the input itself).
    """
    from ..errors import Problem

    to_stdout = output in (None, "-")
    report = Report(file, None if to_stdout else output, json_)
    names = names_or_exit(players, "--players", report.doc if json_ else None) if players is not None else None
    if not to_stdout:
        report.check_output(force)
    record = report.converted(names)
    if not json_:
        for problem in record.problems.warnings:
            warn("warning: " + problem.human())
    out = record.to_record()
    if to_stdout:
        report.done(out)
        if not json_:
            sys.stdout.write(out)
        raise typer.Exit(0)
    try:
        write_atomically(Path(output), out)
    except OSError as exc:
        report.fail([Problem("cannot-write", f"cannot write: {exc.strerror or exc}", file=output)], 2)
    if not json_:
        warn(f"{record.file}: wrote {output} ({record.ruleset.id}, {len(record.players)} players, "
             f"{len(record.turns)} turns)")
    report.done()
    raise typer.Exit(0)


class Report:
    """What `import --json` prints (one medina-import/1 document, also when the import fails); without
    --json, failures go to stderr."""

    def __init__(self, file: str, output: str | None, as_json: bool):
        from ..records.boardspace import import_document
        self.as_json = as_json
        self.doc = import_document("<stdin>" if file == "-" else file, output)
        self.input, self.output = file, output

    def converted(self, names: list[str] | None):
        """The record converted (with the player `names`, if given); one that cannot be exits 2 or 1."""
        from ..errors import MedinaError, Problem
        from ..records.boardspace import import_document, parse_boardspace, players_refusal, read_site_game
        from ..yamlio import read_text
        try:
            name, text = read_text(self.input)
            self.doc["file"] = name
            wrong_names = names and players_refusal(names, read_site_game(text, name).players)
            if wrong_names:
                self.fail([Problem("bad-players", f"--players {', '.join(names)}: {wrong_names}", file=name)], 2)
            record = parse_boardspace(text, name, players=names)
        except MedinaError as exc:
            self.fail(exc.problems, exit_status(exc))
        if record.problems.errors:
            self.doc["warnings"] = [w.to_json() for w in record.problems.warnings]
            self.fail(record.problems.errors, 1)
        self.doc = import_document(name, self.output, record)
        return record

    def check_output(self, force: bool) -> None:
        """An -o file that exists needs --force; the input itself is never overwritten."""
        from ..errors import Problem
        target = Path(self.output)
        if self.input != "-" and target.exists() and target.resolve() == Path(self.input).resolve():
            why = "the output would overwrite the input; choose another file"
        elif target.exists() and not force:
            why = "exists; give --force to overwrite it, or choose another file"
        else:
            return
        self.fail([Problem("file-exists", why, file=self.output)], 2)

    def fail(self, problems, status: int) -> NoReturn:
        if self.as_json:
            self.doc["errors"] = [problem.to_json() for problem in problems]
            emit_json(self.doc)
        else:
            report_problems(problems)
        raise typer.Exit(status)

    def done(self, text: str | None = None) -> None:
        """With --json, the document of the record converted (holding its `text` when it goes to standard
        output)."""
        if self.as_json:
            emit_json(self.doc if text is None else {**self.doc, "record": text})
