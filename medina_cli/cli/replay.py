"""`medina replay` and `medina moves`: a record's position, its event log, and the legal placements."""

from __future__ import annotations

from typing import Annotated

import typer

from .common import (
    CellOption,
    JsonOption,
    NoColorOption,
    PieceOption,
    RulesetOption,
    SetOption,
    ToOption,
    emit_json,
    replayed_or_exit,
    say,
    shown_as,
    stop,
    usage_error,
    warn,
    warnings_to_show,
    with_problems,
    write_output,
)

FileArgument = Annotated[
    str,
    typer.Argument(
        metavar="FILE", parser=shown_as("path"), help="A record/1 file, or - for stdin."
    ),
]


def _problems_of(outcome) -> dict:
    """The errors and warnings of a replay for a --json document (`unfinished` apart: the document says
    where the game stands)."""
    return with_problems({}, outcome.problems, warnings_to_show(outcome))


def replay_command(
    file: FileArgument,
    to: ToOption = None,
    ruleset: RulesetOption = None,
    set_: SetOption = None,
    final_board: Annotated[
        bool,
        typer.Option(
            "--final-board",
            help="Print the final position as a board/1 file (tiles filled in) instead.",
        ),
    ] = False,
    output: Annotated[
        str | None,
        typer.Option(
            "--output",
            "-o",
            metavar="PATH",
            help="With --final-board: write the board to this file.",
        ),
    ] = None,
    json_: JsonOption = False,
    no_color: NoColorOption = False,
) -> None:
    """Replay a record: the event log turn by turn, then the board, the supplies and who is to move.
    With --json, one document: the turns with their placements and events, then the position.

    Exit status: 0 valid, 1 invalid input (the log stops at the illegal turn), 2 unusable input or
    usage error.
    """
    from ..records.replay import replay_document

    doc = replay_document("<stdin>" if file == "-" else file) if json_ else None
    if output is not None and not final_board:
        usage_error("-o/--output", "goes only with --final-board", doc)
    if json_ and final_board:
        usage_error("--json", "not with --final-board (which writes a board/1 file)", doc)
    record, outcome = replayed_or_exit(file, ruleset, set_, to, doc)
    if final_board:
        _write_final_board(file, record, outcome, output)
    if doc is not None:  # --json
        emit_json({**replay_document(doc["file"], outcome), **_problems_of(outcome)})
    else:
        from ..render.text import colour_wanted, replay_report

        say("\n".join(replay_report(outcome, colour=colour_wanted(no_color))))
    raise typer.Exit(1 if outcome.problems else 0)


def _write_final_board(file: str, record, outcome, output: str | None) -> None:
    """The replayed position as board/1, on stdout or in OUT (never over the record itself)."""
    from ..records.boardfile import write_board

    if outcome.problems:
        raise typer.Exit(1)
    if not outcome.finished:
        warn(
            f"{record.file}: the game is not over; the board shows the position after turn {outcome.turns_played}"
        )
    write_output(output or "-", write_board(outcome.game, record.ruleset.ref), file)
    raise typer.Exit(0)


def moves(
    file: FileArgument,
    to: ToOption = None,
    ruleset: RulesetOption = None,
    set_: SetOption = None,
    piece: PieceOption = None,
    cell: CellOption = None,
    json_: JsonOption = False,
    no_color: NoColorOption = False,
) -> None:
    """List every legal placement for the player to move (the first placement of a turn, or the next
    one of a last turn in progress), then the board with `*` on every empty cell where one may go.
    --piece and --cell list only those of a piece, or on a cell.

    An invalid record is shown where replay stopped: the placements open to the player to move there.

    Exit status: 0 valid, 1 invalid input (shown where replay stopped), 2 unusable input or usage error.
    """
    from ..errors import MedinaError
    from ..records.status import PlacementFilter, moves_document

    doc = moves_document() if json_ else None
    record, outcome = replayed_or_exit(file, ruleset, set_, to, doc)
    try:
        keep = PlacementFilter(record, piece or (), cell or ())
    except MedinaError as exc:
        stop(exc.problems, 2, doc)
    if doc is not None:  # --json
        emit_json({**moves_document(doc["file"], outcome, keep), **_problems_of(outcome)})
    else:
        from ..render.text import colour_wanted, moves_report

        say("\n".join(moves_report(outcome, keep, colour=colour_wanted(no_color))))
    raise typer.Exit(1 if outcome.problems else 0)
