"""`medina import`: convert game records from other sites into record/1 files."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

from .common import (
    Command,
    Group,
    emit_json,
    exit_status,
    names_or_exit,
    report_problems,
    shown_as,
    stop,
    usage_error,
    warn,
    write_atomically,
)

app = typer.Typer(
    help="Convert game records from other sites into record/1 files.\n\nExit status: 0 converted, "
    "1 the record cannot be read, 2 unusable input or usage error.",
    no_args_is_help=True,
    cls=Group,
)


SiteFilesArgument = Annotated[
    list[str],
    typer.Argument(
        metavar="FILE...",
        parser=shown_as("path"),
        help="boardspace.net .sgf files or stories, directories "
        "(every .sgf file and story below them but hidden ones), or - for stdin (alone).",
    ),
]
OutputOption = Annotated[
    str | None,
    typer.Option(
        "--output",
        "-o",
        metavar="PATH",
        help="Write the record/1 file here (default: standard output); with "
        "several inputs or a directory, the directory to write each input's NAME.yaml into (made if missing).",
    ),
]
ForceOption = Annotated[
    bool, typer.Option("--force", help="Overwrite the -o file (or files) if it exists.")
]
PlayersOption = Annotated[
    str | None,
    typer.Option(
        "--players",
        metavar="A,B,...",
        help="Player names in seat order, comma-separated (default: the file's "
        "names, or P0, P1, ... for a story, which has none).",
    ),
]
ImportJsonOption = Annotated[
    bool,
    typer.Option(
        "--json",
        help="Print one JSON document saying what was written "
        "(see docs/format.md); without -o it holds the record.",
    ),
]


@app.command("boardspace", cls=Command)
def boardspace(
    files: SiteFilesArgument,
    output: OutputOption = None,
    force: ForceOption = False,
    players: PlayersOption = None,
    json_: ImportJsonOption = False,
) -> None:
    """Convert boardspace.net Medina records into record/1, each under the boardspace profile its variant
    and engine revision imply (e.g. boardspace-original-r100). Several files or a directory are converted
    in one run into the directory -o names, a file that cannot be converted said in one line and passed.

    Exit status: 0 converted, 1 a record cannot be read, 2 unusable input or usage error (an -o file
    that exists without --force, or the input itself).
    """
    if len(files) == 1 and not os.path.isdir(files[0]):
        _import_one(files[0], output, force, players, json_)
    _import_many(files, output, force, players, json_)


def _import_one(
    file: str, output: str | None, force: bool, players: str | None, json_: bool
) -> NoReturn:
    """One input, to the -o file or standard output; exits."""
    to_stdout = output in (None, "-")
    conversion = Conversion(file, None if to_stdout else output)
    names = (
        names_or_exit(players, "--players", conversion.doc if json_ else None)
        if players is not None
        else None
    )
    try:
        text = conversion.converted(names, force, warnings=not json_)
        if not to_stdout:
            conversion.write(text)
    except Failed as failure:
        if json_:
            emit_json(conversion.doc)
        else:
            report_problems(failure.problems)
        raise typer.Exit(failure.status) from None
    if json_:
        emit_json(conversion.doc if not to_stdout else {**conversion.doc, "record": text})
    elif to_stdout:
        sys.stdout.write(text)
    else:
        warn(conversion.wrote())
    raise typer.Exit(0)


def _import_many(
    files: list[str], output: str | None, force: bool, players: str | None, json_: bool
) -> NoReturn:
    """Every input into the directory `output`, as OUTPUT/NAME.yaml (a directory's files by their path
    below it), one failure not stopping the others; exits with the worst status."""
    from ..errors import Problem

    results: list[dict] = []
    doc: dict[str, Any] = {
        "format": "medina-imports/1",
        "output": output,
        "results": results,
        "skipped": [],
        "errors": [],
        "warnings": [],
    }
    shown_doc = doc if json_ else None
    if output is None or output == "-":
        usage_error(
            "-o",
            "several inputs or a directory are written into a directory: give -o DIR",
            shown_doc,
        )
    if "-" in files:
        usage_error(
            "-",
            "standard input is imported alone (one record, one output); give the files instead",
            shown_doc,
        )
    if Path(output).suffix.lower() in (".yaml", ".yml") and not os.path.isdir(output):
        usage_error(
            f"-o {output}",
            "several inputs or a directory are written into a directory, one NAME.yaml "
            "for each; name a directory",
            shown_doc,
        )
    names = names_or_exit(players, "--players", shown_doc) if players is not None else None
    inputs, doc["skipped"] = _site_inputs(files)
    if not inputs:
        stop(
            [
                Problem(
                    "usage",
                    "no boardspace.net records (.sgf files or stories) found",
                    file=", ".join(files),
                )
            ],
            2,
            shown_doc,
        )
    try:
        Path(output).mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        stop(
            [
                Problem(
                    "cannot-write", f"cannot make the directory: {exc.strerror or exc}", file=output
                )
            ],
            2,
            shown_doc,
        )
    status = 0
    written_from: dict[str, str] = {}  # each output so far -> the input written to it
    for source, name in inputs:
        target = os.path.join(output, name)
        conversion = Conversion(source, target)
        try:
            if target in written_from:
                conversion.fail(
                    [
                        Problem(
                            "file-exists",
                            f"is also the output of {written_from[target]}; rename "
                            "one of the two inputs",
                            file=target,
                        )
                    ],
                    2,
                )
            conversion.write(
                conversion.converted(names, force, warnings=not json_), make_folder=True
            )
            written_from[target] = source
            if not json_:
                warn(conversion.wrote())
        except Failed as failure:
            status = max(status, failure.status)
            if not json_:
                more = len(failure.problems) - 1
                warn(failure.problems[0].human() + (f" (and {more} more problems)" if more else ""))
        results.append(conversion.doc)
    if json_:
        emit_json(doc)
    else:
        failed = sum(bool(result["errors"]) for result in results)
        skipped = f"; {len(doc['skipped'])} other files passed over" if doc["skipped"] else ""
        warn(
            f"{len(results)} files: {len(results) - failed} converted into {output}, {failed} not{skipped}"
        )
    raise typer.Exit(status)


def _site_inputs(files: list[str]) -> tuple[list[tuple[str, str]], list[str]]:
    """([(input, its output's name)], other files passed over): a file named as given becomes its NAME.yaml;
    a directory, every boardspace.net record below it, each by its path below the directory."""
    from ..records.inputs import site_records_below

    inputs, skipped = [], []
    for given in files:
        if not os.path.isdir(given):
            inputs.append((given, Path(given).with_suffix(".yaml").name))
            continue
        found, others = site_records_below(given)
        inputs += [
            (path, str(Path(os.path.relpath(path, given)).with_suffix(".yaml"))) for path in found
        ]
        skipped += others
    return inputs, skipped


class Failed(Exception):
    """An input not converted: its problems, and the exit status they call for."""

    def __init__(self, problems, status: int):
        super().__init__(status)
        self.problems, self.status = problems, status


class Conversion:
    """One input converted into `output` (None: standard output); `doc` is its medina-import/1 document, as
    far as the conversion got (with its errors when it failed)."""

    def __init__(self, file: str, output: str | None):
        from ..records.boardspace import import_document

        self.doc = import_document("<stdin>" if file == "-" else file, output)
        self.input, self.output = file, output

    def converted(self, names: list[str] | None, force: bool, *, warnings: bool) -> str:
        """The record/1 text of the input (with the player `names`, if given; its warnings on stderr if
        `warnings`); raises Failed for an output that exists without `force` or is the input, or a
        record that cannot be converted."""
        from ..errors import MedinaError, Problem
        from ..records.boardspace import (
            import_document,
            parse_boardspace,
            players_refusal,
            read_site_game,
        )
        from ..yamlio import read_text

        if self.output is not None:
            self._check_output(self.output, force)
        try:
            name, text = read_text(self.input)
            self.doc["file"] = name
            if names:
                wrong_names = players_refusal(names, read_site_game(text, name).players)
                if wrong_names:
                    self.fail(
                        [
                            Problem(
                                "bad-players",
                                f"--players {', '.join(names)}: {wrong_names}",
                                file=name,
                            )
                        ],
                        2,
                    )
            record = parse_boardspace(text, name, players=names)
        except MedinaError as exc:
            self.fail(exc.problems, exit_status(exc))
        if record.problems.errors:
            self.doc["warnings"] = [w.to_json() for w in record.problems.warnings]
            self.fail(record.problems.errors, 1)
        self.doc = import_document(name, self.output, record)
        if warnings:
            for problem in record.problems.warnings:
                warn("warning: " + problem.human())
        return record.to_record()

    def _check_output(self, output: str, force: bool) -> None:
        """An -o file (`output`) that exists needs --force; the input itself is never overwritten."""
        from ..errors import Problem

        target = Path(output)
        if self.input != "-" and target.exists() and target.resolve() == Path(self.input).resolve():
            why = "the output would overwrite the input; choose another file"
        elif target.exists() and not force:
            why = "exists; give --force to overwrite it, or choose another file"
        else:
            return
        self.fail([Problem("file-exists", why, file=output)], 2)

    def write(self, text: str, *, make_folder: bool = False) -> None:
        """`text` written atomically to the output (its folder made first if `make_folder`); raises Failed."""
        from ..errors import Problem

        output = self.output
        assert (
            output is not None
        )  # written only where -o names the output (else it goes to standard output)
        target = Path(output)
        try:
            if make_folder:
                target.parent.mkdir(parents=True, exist_ok=True)
            write_atomically(target, text)
        except OSError as exc:
            self.fail(
                [Problem("cannot-write", f"cannot write: {exc.strerror or exc}", file=output)], 2
            )

    def wrote(self) -> str:
        """The line that says what was written."""
        doc = self.doc
        return (
            f"{doc['file']}: wrote {self.output} ({doc['ruleset']}, {len(doc['players'])} players, "
            f"{doc['turns']} turns)"
        )

    def fail(self, problems, status: int) -> NoReturn:
        """Raise Failed, the `problems` in the document."""
        self.doc["errors"] = [problem.to_json() for problem in problems]
        raise Failed(problems, status)
