"""`medina new`, `add`, `undo` and `status`: record a game at the table without editing YAML by hand."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..errors import Problem
from .common import (
    JsonOption,
    NoColorOption,
    RulesetOption,
    SetOption,
    check_suffix,
    complete_placement,
    complete_player,
    complete_ruleset,
    emit_json,
    exit_status,
    load_or_exit,
    names_or_exit,
    refuse_directory,
    replayed_or_exit,
    report_problems,
    say,
    shown_as,
    stop,
    usage_error,
    warn,
    warnings_to_show,
    whole_number,
    with_problems,
)

RECORD_SUFFIXES = (".yaml", ".yml")
count = whole_number(1)
count.__name__ = "count"  # what --help calls the argument's type


def new_command(
    file: Annotated[
        str,
        typer.Argument(
            metavar="FILE", parser=shown_as("path"), help="The record file to write (.yaml)."
        ),
    ],
    ruleset: Annotated[
        str,
        typer.Option(
            "--ruleset",
            "-r",
            metavar="ID|PATH",
            autocompletion=complete_ruleset,
            help="The edition played: a built-in id or a ruleset YAML file.",
        ),
    ],
    players: Annotated[
        str,
        typer.Option(
            "--players",
            metavar="A,B,...",
            help="The players in seat order, comma-separated; the first starts.",
        ),
    ],
    merchant: Annotated[
        str, typer.Option("--merchant", metavar="CELL", help="The start merchant's cell.")
    ],
    well: Annotated[
        str | None,
        typer.Option("--well", metavar="CELL", help="The well's cell (editions with a well)."),
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite FILE if it exists.")] = False,
    json_: JsonOption = False,
) -> None:
    """Start a record: its edition, players and setup, with no turns yet; `medina add` then records
    the turns. With --json, one document saying what was written.

    Exit status: 0 written, 2 usage error (a bad option value, FILE exists without --force, or FILE
    cannot be written).
    """
    from ..records.recording import new_document, new_record

    doc = new_document(file) if json_ else None
    check_suffix(file, RECORD_SUFFIXES, "a record/1 file", doc)
    refuse_directory(file, "give the record file to write", doc)
    if file == "-":
        usage_error("medina new", "the record is written to a file: give its name, not -", doc)
    if Path(file).exists() and not force:
        stop(
            [
                Problem(
                    "file-exists",
                    "exists; choose another name, or give --force to overwrite it",
                    file=file,
                )
            ],
            2,
            doc,
        )
    names = names_or_exit(players, "--players", doc)
    loaded = load_or_exit(ruleset, option="--ruleset", doc=doc)
    text, problems = new_record(loaded, ruleset, names, merchant, well, file)
    if text is None:
        stop(problems, 2, doc)
    _write(file, text, doc)
    if json_:
        emit_json(with_problems(new_document(file, text), []))
        return
    say(
        f"{file}: {loaded.id}, players {', '.join(names)}; {names[0]} starts. "
        f"Record each turn with: medina add {file} PLACEMENT..."
    )


def add_command(
    file: Annotated[
        str, typer.Argument(metavar="FILE", parser=shown_as("path"), help="A record/1 file.")
    ],
    actions: Annotated[
        list[str],
        typer.Argument(
            metavar="PLACEMENT...",
            parser=shown_as("placement"),
            autocompletion=complete_placement,
            help='`<piece> <cell>` ("grey K8"), `tea` or `pass`; several in order, or comma-separated; '
            "`Ann: roof C10` says whose it is.",
        ),
    ],
    player: Annotated[
        str | None,
        typer.Option(
            "--player",
            "-p",
            metavar="NAME",
            autocompletion=complete_player,
            help="Whose placements these are: each is refused unless it falls to NAME.",
        ),
    ] = None,
    json_: JsonOption = False,
) -> None:
    """Append placements to a record, each checked against the position as `validate` checks it: to
    the turn in progress, else as a new turn of the player to move. `pass` is a turn of the next
    player in seat order, who must have nothing to place.

    A placement may name its player (`"Ann: roof C10"`, or --player Ann for all): one that would fall to
    another player is refused, saying whose turn it is and which of its placements is due.
    A refused placement is reported as `validate` reports it, and the file is left as it was. While
    another command changes the same record, add waits for it (up to 10 s). Through a symbolic link
    the linked file is changed. With --json, one document: what was written, and who is to move.

    Exit status: 0 appended, 1 refused (an illegal placement, a placement for a player not to move, or
    the record is invalid already), 2 usage error (a name that is no player of the record) or unusable
    file (unreadable, not writable, busy).
    """
    from ..records.recording import Appended, record_placements

    doc = Appended(None, None).to_json(file) if json_ else None  # nothing written yet
    _one_record_file(file, "add", doc)
    done = _or_exit(
        lambda: record_placements(file, actions, player=player, waiting=_waiting(file)), doc
    )
    status = 1 if done.text is None else 0
    if json_:
        warnings = warnings_to_show(done.outcome) if not status else []
        emit_json(with_problems(done.to_json(file), done.problems, warnings))
    elif status:
        report_problems(done.problems)
        if done.unwritten():
            warn(done.unwritten())
        warn(f"{file}: not changed")
    else:
        for line in done.lines():
            say(line)
    raise typer.Exit(status)


def undo_command(
    file: Annotated[
        str, typer.Argument(metavar="FILE", parser=shown_as("path"), help="A record/1 file.")
    ],
    count: Annotated[
        int,
        typer.Argument(
            metavar="N",
            parser=count,
            help="How many placements to take back (tea tiles and passes count).",
        ),
    ] = 1,
    json_: JsonOption = False,
) -> None:
    """Take back the last N placements of a record (default 1), the last first: a placement is cut from
    its turn, a turn left empty from the file. Everything else in the file stays as it was (comments, `x-`
    keys): after `medina add`, `medina undo` gives the file back byte for byte. Prints each placement
    taken back and who is to move; the record left must be valid, else nothing is changed.

    Exit status: 0 taken back, 1 refused (what is left would be invalid, or the turns are laid out in a
    way undo cannot shorten), 2 usage error (N past the record's placements) or unusable file.
    """
    from ..records.recording import Undone, take_back

    doc = Undone(file, None, None).to_json() if json_ else None  # nothing taken back yet
    _one_record_file(file, "undo", doc)
    done = _or_exit(lambda: take_back(file, count, waiting=_waiting(file)), doc)
    status = 1 if done.text is None else 0
    if json_:
        emit_json(
            with_problems(
                done.to_json(), done.problems, warnings_to_show(done.outcome) if not status else []
            )
        )
    elif status:
        report_problems(done.problems)
        warn(f"{file}: not changed")
    else:
        for line in done.lines():
            say(line)
    raise typer.Exit(status)


def status_command(
    file: Annotated[
        str,
        typer.Argument(
            metavar="FILE", parser=shown_as("path"), help="A record/1 file, or - for stdin."
        ),
    ],
    ruleset: RulesetOption = None,
    set_: SetOption = None,
    json_: JsonOption = False,
    no_color: NoColorOption = False,
) -> None:
    """Where a recorded game stands: who is to move, which placement of which turn and how many the turn
    still allows, the board (the last placement marked `>`), every player's supply, and the score now
    (final once the game is over).

    An invalid record is shown where the replay stopped.

    Exit status: 0 valid, 1 invalid record (shown where the replay stopped), 2 unusable input or usage error.
    """
    from ..records.status import status_document

    doc = status_document() if json_ else None
    _, outcome = replayed_or_exit(file, ruleset, set_, None, doc)
    status = 1 if outcome.problems else 0
    if json_:
        emit_json(
            with_problems(status_document(outcome), outcome.problems, warnings_to_show(outcome))
        )
    else:
        from ..render.text import colour_wanted, status_text

        say("\n".join(status_text(outcome, colour=colour_wanted(no_color))))
    raise typer.Exit(status)


def _one_record_file(file: str, command: str, doc: dict | None = None) -> None:
    """A command that changes a record takes one file by name: not a directory, not standard input."""
    refuse_directory(file, "give one record file", doc)
    if file == "-":
        usage_error(None, f"{command} changes a file: give its name, not -", doc)


def _or_exit(change, doc: dict | None = None):
    """`change()`, or exit with what stopped it (with --json, in `doc`)."""
    from ..errors import MedinaError

    try:
        return change()
    except MedinaError as exc:
        stop(exc.problems, exit_status(exc), doc)


def _waiting(file: str):
    """What to say while another command holds the record."""
    return lambda seconds: warn(
        f"{file}: another command is changing it; waiting (up to {seconds:g} s)"
    )


def _write(file: str, text: str, doc: dict | None = None) -> None:
    from .common import cannot_write, write_atomically

    try:
        write_atomically(Path(file), text)
    except OSError as exc:
        cannot_write(file, exc, doc)
