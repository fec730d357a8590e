"""`medina score`: the score sheet of a record (final, or the standings so far) or of a finished board."""

from __future__ import annotations

from typing import Annotated

import typer

from ..errors import in_words
from .common import (JsonOption, NoColorOption, RulesetOption, SetOption, ToOption, emit_json, load_record_or_board,
                     replay_to, report_problems, report_replay, say, warn)


def score(
    file: Annotated[str, typer.Argument(metavar="FILE", help="A record/1 or board/1 file, or - for stdin.")],
    to: ToOption = None,
    ruleset: RulesetOption = None,
    set_: SetOption = None,
    json_: JsonOption = False,
    no_color: NoColorOption = False,
) -> None:
    """Score a recorded game (final scores, or the standings where it stops) or a finished board.

    Exit status: 0 valid, 1 invalid input (an illegal placement, a wrong claimed result, a bad board),
    2 unusable input or usage error.
    """
    from ..engine.scoring import score_game
    from ..records.boardfile import Board, score_board

    source = load_record_or_board(file, ruleset, set_)
    name = source.file
    is_board = isinstance(source, Board)
    if is_board:
        if to is not None:
            warn(f"{name}: --to applies to records, not to a board")
            raise typer.Exit(2)
        position = source
        report_problems(position.problems.errors)
        if position.problems.errors:
            raise typer.Exit(1)
        sheet, problems, state = score_board(position), [], "finished board"
    else:
        outcome = replay_to(source, to)
        problems = outcome.problems
        report_replay(outcome)
        if outcome.game is None:
            raise typer.Exit(1)
        position = outcome.game
        sheet, state = score_game(position), _record_state(outcome)
        sheet.finished = outcome.finished
    if json_:
        emit_json(sheet.to_json())
    else:
        _print_sheet(name, position, sheet, state, no_color)
    raise typer.Exit(1 if problems else 0)


def _record_state(outcome) -> str:
    if outcome.errors:
        return (f"standings {outcome.position_words()}, where the replay stopped "
                f"(turn {outcome.errors[0].turn} is illegal)")
    if outcome.game.finished:
        return "final score"
    return f"current standings after turn {outcome.turns_played} (the game is not over)"


def _print_sheet(name: str, position, sheet, state: str, no_color: bool) -> None:
    from tabulate import SEPARATING_LINE, tabulate

    from ..render.text import colour_wanted, legend, render_board

    rules = position.rules
    say(f"{name}: {rules.ruleset_id}, {len(position.players)} players: {state}")
    colour = colour_wanted(no_color)
    say(render_board(position, colour=colour))
    say(legend(position, colour=colour))
    values = {c.name: c.value for c in rules.colours}
    headers = ["palace", "cells", "buildings", "stables", "merchants", "walls", *(["well"] * rules.well), "points"]
    blank = [""] * (len(headers) - 3)
    for player in sheet.players:
        rows = [[p.colour, " ".join(p.cells), p.buildings, p.stables, p.merchants, p.walls,
                 *([p.well] * rules.well), p.points] for p in player.palaces]
        tiles = [["palace tile", colour, *blank, values[colour]] for colour in player.palace_tiles]
        tiles += [["tower tile", str(tower), *blank, tower] for tower in player.tower_tiles]
        for block in (tiles, [["total", "", *blank, player.total]]):
            if rows and block:
                rows.append(SEPARATING_LINE)
            rows.extend(block)
        say()
        say(f"{player.name}: {player.total} points" + ("" if player.palaces else " (owns no palace)"))
        if player.palaces or tiles:
            say(tabulate(rows, headers=headers, tablefmt="simple",
                         maxcolwidths=[None, 32] + [None] * (len(headers) - 2)))
    say()
    if sheet.undetermined:
        say("Undetermined tiles (the position alone does not decide them; the totals leave them out):")
        for tile in sheet.undetermined:
            what = (f"{tile['colour']} palace tile ({values[tile['colour']]} points)" if tile["tile"] == "palace"
                    else f"tower tile {tile['tower']} ({tile['tower']} points)")
            say(f"  {what}: {in_words(tile['candidates'])}")
        say("  (name their holders under `tiles:` in the board file to complete the score)")
    say(_winner_line(sheet, state))


def _winner_line(sheet, state: str) -> str:
    totals = sheet.totals()
    winners = sheet.winners
    if not winners:
        return "Winner: cannot be decided without the undetermined tiles."
    if sheet.undetermined:
        title = "Shared win" if len(winners) > 1 else "Winner"
        return f"{title}: {in_words(winners, 'and')}, whoever holds the undetermined tiles."
    points = totals[winners[0]]
    if not state.startswith(("final", "finished")):
        return f"Leading: {in_words(winners, 'and')} ({points} points)."
    if len(winners) > 1:
        return f"Shared win: {in_words(winners, 'and')} with {points} points each."
    return f"Winner: {winners[0]} with {points} points."
