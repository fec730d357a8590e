"""A replayed record as pictures: one frame per turn, and the frame where replay stopped."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..records.replay import Replay, replay

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..errors import Problem


@dataclass
class Frame:
    turn: int  # entries of `turns` applied (0: the setup); for the stop frame, the turn that failed
    game: Game
    placed: list[int] = field(default_factory=list)  # cells placed in this turn, in order
    events: list = field(default_factory=list)
    stop: Problem | None = None  # the Problem that stopped the replay at this turn
    illegal: int | None = None  # the cell of the refused placement
    placement: int | None = (
        None  # stepping by placement: the placements of the turn made (None: the whole turn)
    )

    @property
    def illegal_mark(self) -> tuple[int, str] | None:
        if self.illegal is None or self.stop is None:
            return None
        return self.illegal, self.stop.message


def stop_problem(outcome: Replay):
    """The earliest problem tied to a turn: replay cannot go past it."""
    at_turns = [
        (p.turn, index, p) for index, p in enumerate(outcome.problems) if p.turn is not None
    ]
    return min(at_turns)[2] if at_turns else None


def _frame(outcome: Replay, number: int, game, stop=None, events: list | None = None) -> Frame:
    """Turn `number`'s frame: all its placements, or those made before `stop` refused one; `events`
    those of the turn (default: looked up in the outcome)."""
    record = outcome.record
    if events is None:
        events = dict(outcome.turn_events).get(number, [])
    frame = Frame(number, game, events=events, stop=stop)
    if number:
        entry = record.turns[number - 1]
        cell_of = game.variant.geometry.cell_of_square
        placed = [cell_of[a.square] for a in entry.actions if a.square is not None]
        frame.placed = placed[: outcome.partial] if stop is not None else placed
        if (
            stop in outcome.errors
            and stop.placement is not None
            and stop.placement <= len(entry.actions)
        ):
            frame.illegal = cell_of.get(entry.actions[stop.placement - 1].square)
    return frame


def final_frame(outcome: Replay) -> Frame:
    """The frame of the position the replay ended in (after its last turn, or where it stopped)."""
    stop = stop_problem(outcome)
    if stop is not None and stop.turn > outcome.turns_played + 1:
        stop = None  # a later turn's problem: --to ended the replay before it
    number = stop.turn if stop is not None else outcome.turns_played
    return _frame(outcome, number, outcome.game, stop)


def all_frames(outcome: Replay) -> list[Frame]:
    """The setup, every replayed turn, and the turn where replay stopped (if it did). A pass's frame
    shares the game of the frame before it (the same object): the frames of many passes take little."""
    positions = replay(
        outcome.record, to_turn=outcome.turns_played, check_result=False, keep_positions=True
    ).positions
    events = dict(outcome.turn_events)
    frames = [
        _frame(outcome, number, game, events=events.get(number, []))
        for number, game in enumerate(positions)
    ]
    stop = stop_problem(outcome)
    if stop is not None and stop.turn == outcome.turns_played + 1:
        frames.append(_frame(outcome, stop.turn, outcome.game, stop))
    return frames


def placement_frames(outcome: Replay, frames: list[Frame]) -> list[Frame]:
    """`frames` (from `all_frames`) stepped placement by placement: a turn of several placements (tea tiles
    among them) becomes one frame after each, the last its own frame (with the turn's events), each
    marking the turn's placements so far; the setup, passes and the stop frame stay as they are."""
    out: list[Frame] = []
    cell_of = frames[0].game.variant.geometry.cell_of_square
    for index, frame in enumerate(frames):
        actions = (
            []
            if not frame.turn or frame.stop is not None
            else [a for a in outcome.record.turns[frame.turn - 1].actions if a.piece != "pass"]
        )
        if len(actions) < 2:
            out.append(frame)
            continue
        game = frames[index - 1].game.copy()
        for made, action in enumerate(actions[:-1], 1):
            game.push(action)
            placed = [cell_of[a.square] for a in actions[:made] if a.square is not None]
            out.append(Frame(frame.turn, game.copy(), placed, placement=made))
        frame.placement = len(actions)
        out.append(frame)
    return out
