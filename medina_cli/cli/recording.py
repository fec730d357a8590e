"""`medina new` and `medina add`: record a game at the table without editing YAML by hand."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from .common import (check_suffix, complete_ruleset, exit_status, load_or_exit, names_or_exit, refuse_directory,
                     report_problems, say, shown_as, warn)

RECORD_SUFFIXES = (".yaml", ".yml")


def new_command(
    file: Annotated[str, typer.Argument(
        metavar="FILE", parser=shown_as("path"), help="The record file to write (.yaml).")],
    ruleset: Annotated[str, typer.Option(
        "--ruleset", "-r", metavar="ID|PATH", autocompletion=complete_ruleset,
        help="The edition played: a built-in id or a ruleset YAML file.")],
    players: Annotated[str, typer.Option(
        "--players", metavar="A,B,...", help="The players in seat order, comma-separated; the first starts.")],
    merchant: Annotated[str, typer.Option("--merchant", metavar="CELL", help="The start merchant's cell.")],
    well: Annotated[Optional[str], typer.Option(
        "--well", metavar="CELL", help="The well's cell (editions with a well).")] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite FILE if it exists.")] = False,
) -> None:
    """Start a record: its edition, players and setup, with no turns yet; `medina add` then records
    the turns.

    Exit status: 0 written, 2 usage error (a bad option value, FILE exists without --force, or FILE
    cannot be written).
    """
    from ..records.recording import new_record

    check_suffix(file, RECORD_SUFFIXES, "a record/1 file")
    refuse_directory(file, "give the record file to write")
    if file == "-":
        warn("new writes a file: give its name, not -")
        raise typer.Exit(2)
    if Path(file).exists() and not force:
        warn(f"{file}: exists; choose another name, or give --force to overwrite it")
        raise typer.Exit(2)
    names = names_or_exit(players, "--players")
    loaded = load_or_exit(ruleset)
    text, problems = new_record(loaded, ruleset, names, merchant, well, file)
    if text is None:
        report_problems(problems)
        raise typer.Exit(2)
    _write(file, text)
    say(f"{file}: {loaded.id}, players {', '.join(names)}; {names[0]} starts. "
        f"Record each turn with: medina add {file} PLACEMENT...")


def add_command(
    file: Annotated[str, typer.Argument(metavar="FILE", parser=shown_as("path"), help="A record/1 file.")],
    actions: Annotated[list[str], typer.Argument(
        metavar="PLACEMENT...", parser=shown_as("placement"),
        help="`<piece> <cell>` (quote it: \"grey K8\"), `tea` or `pass`; several in order.")],
) -> None:
    """Append placements to a record, each checked against the position as `validate` checks it: to
    the turn in progress, else as a new turn of the player to move. `pass` is a turn of the next
    player in seat order, who must have nothing to place.

    A refused placement is reported as `validate` reports it, and the file is left as it was.

    Exit status: 0 appended, 1 refused (an illegal placement, or the record is invalid already),
    2 usage error or unreadable file.
    """
    from ..errors import MedinaError, ordinal
    from ..records.recording import append_actions
    from ..yamlio import base_dir_of, read_text

    refuse_directory(file, "give one record file")
    if file == "-":
        warn("add changes a file: give its name, not -")
        raise typer.Exit(2)
    try:
        name, text = read_text(file)
        done = append_actions(text, name, [part for action in actions for part in action.split(",")],
                              base_dir=base_dir_of(file))
    except MedinaError as exc:
        warn(exc.problem.human())
        raise typer.Exit(exit_status(exc))
    if done.text is None:
        report_problems(done.problems)
        warn(f"{file}: not changed")
        raise typer.Exit(1)
    _write(file, done.text)
    record, game = done.outcome.record, done.outcome.game
    for number in done.entries:
        entry = record.turns[number - 1]
        tokens = ", ".join(record.tokens(entry))
        say(f"turn {number}, {entry.player}: {tokens}")
    upcoming = done.outcome.next_placement()
    if upcoming is None:
        say("The game is over.")
    else:
        turn, placement = upcoming
        say(f"next: {game.to_move}, {ordinal(placement)} placement of turn {turn}")


def _write(file: str, text: str) -> None:
    from .common import write_atomically
    try:
        write_atomically(Path(file), text)
    except OSError as exc:
        warn(f"{file}: cannot write: {exc.strerror or exc}")
        raise typer.Exit(2)
