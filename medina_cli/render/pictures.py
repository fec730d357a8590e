"""`medina render`'s SVG pictures: a finished board, or a record's position after a turn (or where the
replay stopped), each with its title, a text description of the board and a caption naming the position."""

from __future__ import annotations

from ..engine.scoring import score_game
from ..records.boardfile import score_board
from .frames import final_frame
from .svg import board_svg
from .text import legend, render_board


def board_picture(board) -> str:
    """A valid finished board, with each player's total."""
    position = board.position
    return board_svg(
        position,
        title=f"Medina: {board.file}, {board.ruleset.id}, finished board",
        description=render_board(position) + "\n" + legend(position),
        totals=score_board(board).totals,
        position_caption=f"{board.file}, {board.ruleset.id}, finished board",
    )


def record_picture(outcome, *, legal: bool = False, last: bool = False) -> str:
    """The position a replay reached (the refused placement crossed out where it stopped), with each player's
    total; `legal` marks the legal placements of the player to move, `last` those of the last turn shown."""
    record, frame = outcome.record, final_frame(outcome)
    game = frame.game
    where = f"{record.file}, {record.ruleset.id}, {where_words(frame)} ({to_move_words(game)})"
    title = f"Medina: {where}"
    description = render_board(game) + "\n" + legend(game)
    caption = "" if frame.stop is None else f"Replay stopped: {frame.stop.in_context()}"
    if caption:
        description += f"\n{caption}"
    return board_svg(
        game,
        title=title,
        description=description,
        legal=game.legal_placements() if legal else None,
        last=frame.placed if last else (),
        illegal=frame.illegal_mark,
        caption=caption,
        totals=score_game(game).totals,
        position_caption=where,
    )


def where_words(frame) -> str:
    if frame.stop is not None:
        return f"stopped at turn {frame.turn}"
    return f"after turn {frame.turn}" if frame.turn else "at the start"


def to_move_words(game) -> str:
    return "game over" if game.is_over() else f"{game.to_move} to move"
