"""`medina render`: an SVG picture of a record's position (after a turn, or where replay stopped)."""

from __future__ import annotations

from typing import Annotated

import typer

from .common import (
    RulesetOption,
    SetOption,
    ToOption,
    check_suffix,
    load_record_or_board,
    refuse_terminal,
    replay_to,
    report_problems,
    report_replay,
    shown_as,
    usage_error,
    write_output,
)

InputArgument = Annotated[
    str,
    typer.Argument(
        metavar="FILE", parser=shown_as("path"), help="A record/1 or board/1 file, or - for stdin."
    ),
]


def render_command(
    file: InputArgument,
    output: Annotated[
        str,
        typer.Option(
            "--output",
            "-o",
            metavar="PATH",
            show_default=False,
            help="Write the picture to this .svg file (default: standard output, unless it is a terminal).",
        ),
    ] = "-",
    to: ToOption = None,
    legal: Annotated[
        bool, typer.Option("--legal", help="Mark the legal placements of the player to move.")
    ] = False,
    last: Annotated[
        bool, typer.Option("--last", help="Mark the placements of the last turn shown.")
    ] = False,
    ruleset: RulesetOption = None,
    set_: SetOption = None,
) -> None:
    """Draw a record's position (after --to TURN turns, or all of them) or a board as an SVG picture.

    An invalid record is drawn where replay stopped, the refused placement crossed out.

    Exit status: 0 drawn, 1 invalid input (drawn where replay stopped), 2 unusable input or usage error.
    """
    from ..records.boardfile import Board

    check_suffix(output, (".svg",), "an SVG picture")
    refuse_terminal(output, "an SVG picture", ".svg", "render")
    loaded = load_record_or_board(file, ruleset, set_)
    if isinstance(loaded, Board):
        if to is not None or legal or last:
            usage_error(
                loaded.file, "--to, --legal and --last apply to records, not to a finished board"
            )
        svg, problems = _board_picture(loaded)
    else:
        svg, problems = _record_picture(loaded, to, legal, last)
    write_output(output, svg, file)
    raise typer.Exit(1 if problems else 0)


def _board_picture(board) -> tuple[str, list]:
    from ..render.pictures import board_picture

    problems = board.problems.errors
    report_problems(problems)
    if problems:
        raise typer.Exit(1)
    return board_picture(board), problems


def _record_picture(record, to, legal: bool, last: bool) -> tuple[str, list]:
    from ..render.pictures import record_picture

    outcome = replay_to(record, to)
    report_replay(outcome)
    if outcome.game is None:
        raise typer.Exit(1)
    return record_picture(outcome, legal=legal, last=last), outcome.problems
