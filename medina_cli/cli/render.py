"""`medina render`: an SVG picture of a record's position (after a turn, or where replay stopped)."""

from __future__ import annotations

from typing import Annotated

import typer

from .common import (RulesetOption, SetOption, ToOption, check_suffix, load_record_or_board, refuse_terminal,
                     replay_to, report_problems, report_replay, shown_as, warn, write_output)

InputArgument = Annotated[str, typer.Argument(
    metavar="FILE", parser=shown_as("path"), help="A record/1 or board/1 file, or - for stdin.")]


def where_words(frame) -> str:
    if frame.stop is not None:
        return f"stopped at turn {frame.turn}"
    return f"after turn {frame.turn}" if frame.turn else "at the start"


def to_move_words(game) -> str:
    return "game over" if game.is_over() else f"{game.to_move} to move"


def render_command(
    file: InputArgument,
    output: Annotated[str, typer.Option(
        "--output", "-o", metavar="PATH", show_default=False,
        help="Write the picture to this .svg file (default: standard output, unless it is a terminal).")] = "-",
    to: ToOption = None,
    legal: Annotated[bool, typer.Option("--legal", help="Mark the legal placements of the player to move.")] = False,
    last: Annotated[bool, typer.Option("--last", help="Mark the placements of the last turn shown.")] = False,
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
            warn(f"{loaded.file}: --to, --legal and --last apply to records, not to a finished board")
            raise typer.Exit(2)
        svg, problems = _board_picture(loaded)
    else:
        svg, problems = _record_picture(loaded, to, legal, last)
    write_output(output, svg, file)
    raise typer.Exit(1 if problems else 0)


def _board_picture(board) -> tuple[str, list]:
    from .. import score
    from ..render.svg import board_svg
    from ..render.text import legend, render_board

    problems = board.problems.errors
    report_problems(problems)
    if problems:
        raise typer.Exit(1)
    title = f"Medina: {board.file}, {board.ruleset.id}, finished board"
    position = board.position
    return board_svg(position, title=title, description=render_board(position) + "\n" + legend(position),
                     totals=score(board).totals), problems


def _record_picture(record, to, legal: bool, last: bool) -> tuple[str, list]:
    from .. import score
    from ..render.frames import final_frame
    from ..render.svg import board_svg
    from ..render.text import legend, render_board

    outcome = replay_to(record, to)
    report_replay(outcome)
    if outcome.game is None:
        raise typer.Exit(1)
    frame = final_frame(outcome)
    game = frame.game
    title = f"Medina: {record.file}, {record.ruleset.id}, {where_words(frame)} ({to_move_words(game)})"
    description = render_board(game) + "\n" + legend(game)
    caption = "" if frame.stop is None else f"Replay stopped: {frame.stop.in_context()}"
    if caption:
        description += f"\n{caption}"
    return board_svg(game, title=title, description=description, legal=game.legal_placements() if legal else None,
                     last=frame.placed if last else (), illegal=frame.illegal_mark, caption=caption,
                     totals=score(game).totals), outcome.problems
