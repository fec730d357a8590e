"""`medina score`: the score sheet of a record (final, or the standings so far) or of a finished board."""

from __future__ import annotations

import os
from typing import Annotated

import typer

from ..errors import Problem, in_words
from .common import (JsonOption, NoColorOption, RulesetOption, SetOption, ToOption, emit_json, exit_status,
                     expand_inputs, read_record_or_board, replay_to, report_problems, say, shown_as, stop, warn,
                     warnings_to_show, with_problems)


def score(
    files: Annotated[list[str], typer.Argument(
        metavar="FILE...", parser=shown_as("path"),
        help="Record/1 or board/1 files, directories (every record and board below them but "
        "hidden ones and rulesets), or - for stdin.")],
    to: ToOption = None,
    ruleset: RulesetOption = None,
    set_: SetOption = None,
    json_: JsonOption = False,
    no_color: NoColorOption = False,
) -> None:
    """Score recorded games (final scores, or the standings where a record stops) and finished boards.
    With more than one game, a table of standings per player name follows (games, wins, shared wins,
    points) over the valid, finished games.

    Exit status: 0 all valid, 1 some input invalid (an illegal placement, a wrong claimed result, a bad
    board), 2 unusable input or usage error.
    """
    from .. import standings

    many = len(files) > 1 or any(path != "-" and os.path.isdir(path) for path in files)
    paths = expand_inputs(files, boards=True)
    list_doc = {"format": "medina-scores/1", "games": [], "standings": []}
    if not paths:
        stop([Problem("usage", "no record or board files (*.yaml, *.yml, *.sgf) found", file=", ".join(files))], 2,
             list_doc if json_ else None)
    docs, left_out, status, counted = [], [], 0, 0

    def sheets_counted():
        """Each game scored in turn, shown (or its document kept) and let go: only its sheet, when it
        counts, reaches the standings, so memory does not grow with the number of games."""
        nonlocal status, counted
        for number, path in enumerate(paths):
            game = _score_one(path, "<stdin>" if path == "-" else path, to, ruleset, set_)
            if game.usage:  # a bad --ruleset, --set or --to: the same for every file
                stop(game.errors, 2, ({**list_doc, "games": docs} if many else game.doc) if json_ else None)
            status = max(status, game.status)
            if json_:
                docs.append(game.doc)
            else:
                if many and number:
                    say()
                game.show(no_color)
            if game.counts:
                counted += 1
                yield game.sheet
            else:
                left_out.append(game.name)

    table = standings(sheets_counted())
    if json_:
        emit_json({**list_doc, "games": docs, "standings": table} if many else docs[0])
    elif len(paths) > 1:
        say()
        _print_standings(table, counted, left_out)
    raise typer.Exit(status)


class ScoredGame:
    """One file of `score`: its sheet (or why there is none), its document, its exit status."""

    def __init__(self, name: str):
        self.name = name
        self.sheet = self.position = self.state = None
        self.errors, self.warnings, self.status, self.usage = [], [], 0, False
        self.counts = False  # valid and finished: it counts in the standings

    @property
    def doc(self) -> dict:
        base = self.sheet.to_json() if self.sheet else {
            "format": "medina-score/1", "ruleset": None, "finished": False, "players": [], "undetermined": [],
            "winners": []}
        return with_problems({**base, "file": self.name}, self.errors, self.warnings)

    def show(self, no_color: bool) -> None:
        report_problems(self.errors)
        for problem in self.warnings:
            warn("warning: " + problem.human())
        if self.sheet is not None:
            _print_sheet(self.name, self.position, self.sheet, self.state, no_color)


def _score_one(path: str, name: str, to, ruleset, set_) -> ScoredGame:
    from .. import score as score_sheet
    from ..errors import BadArgument, MedinaError
    from ..records.boardfile import Board

    game = ScoredGame(name)
    try:
        source = read_record_or_board(path, ruleset, set_)
    except MedinaError as exc:
        game.errors, game.status, game.usage = exc.problems, exit_status(exc), isinstance(exc, BadArgument)
        return game
    game.name = source.file
    if isinstance(source, Board):
        if to is not None:
            game.errors, game.status, game.usage = [Problem("usage", "--to applies to records, not to a board",
                                                            file=source.file)], 2, True
            return game
        game.errors = source.problems.errors
        if game.errors:
            game.status = 1
            return game
        game.sheet, game.position, game.state, game.counts = score_sheet(source), source.position, "finished board", True
        return game
    outcome = replay_to(source, to)
    game.errors = outcome.problems
    game.warnings = warnings_to_show(outcome)
    game.status = 1 if game.errors else 0
    if outcome.game is not None:
        game.position, game.sheet, game.state = outcome.game, score_sheet(outcome.game), _record_state(outcome)
        game.sheet.finished = outcome.finished
        game.counts = outcome.finished and not game.errors
    return game


def _print_standings(table: list[dict], counted: int, left_out: list[str]) -> None:
    from tabulate import tabulate

    say(f"Standings over {counted} game{'s' if counted != 1 else ''}"
        + (f" (left out, invalid or unfinished: {', '.join(left_out)})" if left_out else "") + ":")
    if table:
        say(tabulate([[r["player"], r["games"], r["wins"], r["shared_wins"], r["points"]] for r in table],
                     headers=["player", "games", "wins", "shared wins", "points"], tablefmt="simple"))


def _record_state(outcome) -> str:
    if outcome.errors:
        return (f"standings {outcome.position_words()}, where the replay stopped "
                f"(turn {outcome.errors[0].turn} is illegal)")
    if outcome.game.is_over():
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
    headers = ["palace", "cells", "buildings", "stables", "merchants", "walls", *(["well"] * rules.well.enabled), "points"]
    blank = [""] * (len(headers) - 3)
    for player in sheet.players:
        rows = [[p.colour, " ".join(p.cells), p.buildings, p.stables, p.merchants, p.walls,
                 *([p.well] * rules.well.enabled), p.points] for p in player.palaces]
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
    totals = sheet.totals
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
