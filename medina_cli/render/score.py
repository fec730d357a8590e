"""`medina score` for people and as JSON: a game's score sheet (the board, each player's palaces and
tiles, the winner) and the standings over several games."""

from __future__ import annotations

from tabulate import SEPARATING_LINE, tabulate

from ..errors import in_words
from .text import legend, render_board


def score_json(name: str, sheet=None) -> dict:
    """A file's medina-score/1 document (without `errors` and `warnings`): its score sheet, or with none
    (it could not be scored) an empty one."""
    base = (
        sheet.to_json()
        if sheet
        else {
            "format": "medina-score/1",
            "ruleset": None,
            "finished": False,
            "players": [],
            "undetermined": [],
            "winners": [],
        }
    )
    return {**base, "file": name}


def scores_json(games=(), standings=()) -> dict:
    """The medina-scores/1 document of several files: each one's medina-score/1, then the standings."""
    return {"format": "medina-scores/1", "games": list(games), "standings": list(standings)}


def state_words(outcome) -> str:
    """What a replayed record's score sheet is: final, the standings so far, or where the replay stopped."""
    if outcome.stopped_at is not None:
        return f"standings {outcome.position_words()}{outcome.stop_words()}"
    if outcome.game.is_over():
        return "final score"
    return f"current standings after turn {outcome.turns_played} (the game is not over)"


def sheet_report(name: str, position, sheet, state: str, *, colour: bool = False) -> list[str]:
    """The board, each player's palaces and tiles with the points they bring, the tiles the position
    leaves undetermined, and the winner."""
    rules = position.rules
    lines = [
        f"{name}: {rules.ruleset_id}, {len(position.players)} players: {state}",
        render_board(position, colour=colour),
        legend(position, colour=colour),
    ]
    values = {c.name: c.value for c in rules.colours}
    headers = [
        "palace",
        "cells",
        "buildings",
        "stables",
        "merchants",
        "walls",
        *(["well"] * rules.well.enabled),
        "points",
    ]
    blank = [""] * (len(headers) - 3)
    for player in sheet.players:
        rows: list[list | str] = [
            [
                p.colour,
                " ".join(p.cells),
                p.buildings,
                p.stables,
                p.merchants,
                p.walls,
                *([p.well] * rules.well.enabled),
                p.points,
            ]
            for p in player.palaces
        ]
        tiles = [["palace tile", colour, *blank, values[colour]] for colour in player.palace_tiles]
        tiles += [["tower tile", str(tower), *blank, tower] for tower in player.tower_tiles]
        for block in (tiles, [["total", "", *blank, player.total]]):
            if rows and block:
                rows.append(SEPARATING_LINE)
            rows.extend(block)
        lines += [
            "",
            f"{player.name}: {player.total} points"
            + ("" if player.palaces else " (owns no palace)"),
        ]
        if player.palaces or tiles:
            lines.append(
                tabulate(
                    rows,
                    headers=headers,
                    tablefmt="simple",
                    maxcolwidths=[None, 32] + [None] * (len(headers) - 2),
                )
            )
    lines.append("")
    if sheet.undetermined:
        lines.append(
            "Undetermined tiles (the position alone does not decide them; the totals leave them out):"
        )
        for tile in sheet.undetermined:
            what = (
                f"{tile['colour']} palace tile ({values[tile['colour']]} points)"
                if tile["tile"] == "palace"
                else f"tower tile {tile['tower']} ({tile['tower']} points)"
            )
            lines.append(f"  {what}: {in_words(tile['candidates'])}")
        lines.append(
            "  (name their holders under `tiles:` in the board file to complete the score)"
        )
    return lines + [winner_line(sheet, state)]


def winner_line(sheet, state: str) -> str:
    """Who wins (or leads, or shares the win), with how many points."""
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


def standings_report(table: list[dict], counted: int, left_out: list[str]) -> list[str]:
    """The standings per player name over the `counted` games (those `left_out` named); with none counted,
    why there are none."""
    if not counted:
        return [
            f"No standings: they count valid, finished games, and none of these {len(left_out)} is one "
            f"(invalid or unfinished: {', '.join(left_out)})."
        ]
    lines = [
        f"Standings over {counted} game{'s' if counted != 1 else ''}"
        + (f" (left out, invalid or unfinished: {', '.join(left_out)})" if left_out else "")
        + ":"
    ]
    if table:
        lines.append(
            tabulate(
                [
                    [r["player"], r["games"], r["wins"], r["shared_wins"], r["points"]]
                    for r in table
                ],
                headers=["player", "games", "wins", "shared wins", "points"],
                tablefmt="simple",
            )
        )
    return lines
