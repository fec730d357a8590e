"""`medina replay` and `medina moves`: a record's position, its event log, and the legal placements."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from .common import (CellOption, JsonOption, NoColorOption, PieceOption, RulesetOption, SetOption, ToOption, emit_json,
                     replayed_or_exit, say, shown_as, stop, usage_error, warn, warnings_to_show, with_problems,
                     write_output)

FileArgument = Annotated[str, typer.Argument(
    metavar="FILE", parser=shown_as("path"), help="A record/1 file, or - for stdin.")]


def _problems_of(outcome) -> dict:
    """The errors and warnings of a replay for a --json document (`unfinished` apart: the document says
    where the game stands)."""
    return with_problems({}, outcome.problems, warnings_to_show(outcome))


def replay_command(
    file: FileArgument,
    to: ToOption = None,
    ruleset: RulesetOption = None,
    set_: SetOption = None,
    final_board: Annotated[bool, typer.Option(
        "--final-board", help="Print the final position as a board/1 file (tiles filled in) instead.")] = False,
    output: Annotated[Optional[str], typer.Option(
        "--output", "-o", metavar="PATH", help="With --final-board: write the board to this file.")] = None,
    json_: JsonOption = False,
    no_color: NoColorOption = False,
) -> None:
    """Replay a record: the event log turn by turn, then the board, the supplies and who is to move.
    With --json, one document: the turns with their placements and events, then the position.

    Exit status: 0 valid, 1 invalid input (the log stops at the illegal turn), 2 unusable input or
    usage error.
    """
    from ..errors import ordinal
    from ..records.status import supply_table
    from ..render.text import colour_wanted, legend, render_board

    doc = {"format": "medina-replay/1", "file": "<stdin>" if file == "-" else file, "ruleset": None, "players": [],
           "setup": None, "turns": [], "position": None} if json_ else None
    if output is not None and not final_board:
        usage_error("-o/--output", "goes only with --final-board", doc)
    if json_ and final_board:
        usage_error("--json", "not with --final-board (which writes a board/1 file)", doc)
    record, outcome = replayed_or_exit(file, ruleset, set_, to, doc)
    if final_board:
        _write_final_board(file, record, outcome, output)
    if json_:
        emit_json({**doc, **_replay_json(record, outcome), **_problems_of(outcome)})
        raise typer.Exit(1 if outcome.problems else 0)
    game = outcome.game
    setup = record.setup
    say(f"{record.file}: {record.ruleset.id}, players {', '.join(record.players)}")
    say(f"setup: start merchant {setup['merchant']}" + (f", well {setup['well']}" if setup["well"] else ""))
    say()
    entries = {entry.number: entry for entry in record.turns}
    width = max(len(p) for p in record.players)
    for number, events in outcome.turn_events:
        if number:
            entry = entries[number]
            tokens = ", ".join(record.tokens(entry))
            say(f"{number:>4}  {entry.player:<{width}}  {tokens}")
        for event in events:
            say(f"{'':>4}  {'':<{width}}    * {event}")
    say()
    say(f"Position {outcome.position_words()}:")
    colour = colour_wanted(no_color)
    say(render_board(game, colour=colour))
    say(legend(game, colour=colour))
    say()
    say("Supply left:")
    say(supply_table(game))
    say()
    if outcome.errors:
        say(f"Replay stopped at turn {outcome.errors[0].turn}: {outcome.errors[0].message}")
    elif game.is_over():
        say("The game is over.")
    elif outcome.in_progress:
        turn, placement = outcome.next_placement()
        say(f"{game.to_move} is to make the {ordinal(placement)} placement of turn {turn}.")
    else:
        say(f"{game.to_move} is to move.")
    raise typer.Exit(1 if outcome.problems else 0)


def _replay_json(record, outcome) -> dict:
    """The medina-replay/1 fields of a replayed record: setup, turns with their placements and events,
    and the position reached."""
    entries = {entry.number: entry for entry in record.turns}
    setup = {**record.setup, "events": []}
    turns = []
    for number, events in outcome.turn_events:
        if not number:
            setup["events"] = [_event_json(e) for e in events]
            continue
        entry = entries[number]
        turns.append({"turn": number, "player": entry.player, "line": entry.line,
                      "placements": record.tokens(entry),
                      "events": [_event_json(e) for e in events]})
    return {"ruleset": record.ruleset.id, "players": record.players, "setup": setup, "turns": turns,
            "position": outcome.position_json()}


def _event_json(event) -> dict:
    """An event as JSON: its kind, player and sentence, then whatever fields its kind has."""
    from dataclasses import fields
    extra = {f.name: getattr(event, f.name) for f in fields(event) if f.name not in ("kind", "player", "text")}
    return {"kind": event.kind, "player": event.player, "text": event.text, **extra}


def _write_final_board(file: str, record, outcome, output: str | None) -> None:
    """The replayed position as board/1, on stdout or in OUT (never over the record itself)."""
    from ..records.boardfile import write_board

    if outcome.problems:
        raise typer.Exit(1)
    if not outcome.finished:
        warn(f"{record.file}: the game is not over; the board shows the position after turn {outcome.turns_played}")
    source = record.ruleset.source  # "built-in" or the path as the record gives it (+ " with --set ...")
    ruleset_ref = record.ruleset.id if source.startswith("built-in") else source.split(" with --set")[0]
    write_output(output or "-", write_board(outcome.game, ruleset_ref), file)
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
    from ..errors import MedinaError, ordinal
    from ..records.status import PlacementFilter, legal_by_piece, listing_lines
    from ..render.text import colour_wanted, legend, render_board

    doc = {"format": "medina-moves/1", "after_turn": None, "player": None, "turn": None, "placement": None,
           "placements": [], "file": None} if json_ else None
    record, outcome = replayed_or_exit(file, ruleset, set_, to, doc)
    try:
        keep = PlacementFilter(record, piece or (), cell or ())
    except MedinaError as exc:
        stop(exc.problems, 2, doc)
    game = outcome.game
    player = game.to_move
    legal = game.legal_placements()
    placements = [p for p in legal if " " in str(p)]  # the rest: tea
    groups = legal_by_piece(game, keep)
    if json_:
        tokens = sorted(f"{piece} {cell}" for piece, cells in groups.items() for cell in cells)
        turn, placement = outcome.next_placement() or (None, None)
        emit_json({**doc, "after_turn": outcome.turns_played, "player": player, "turn": turn, "placement": placement,
                   "placements": tokens, **_problems_of(outcome)})
        raise typer.Exit(1 if outcome.problems else 0)
    where = outcome.position_words()
    if outcome.errors:
        where += f", where the replay stopped (turn {outcome.errors[0].turn} is illegal)"
    if player is None:
        say(f"{record.file} {where}: the game is over; nobody can place anything.")
        raise typer.Exit(1 if outcome.problems else 0)
    total = len(placements)
    turn, placement = outcome.next_placement()
    which = f", {ordinal(placement)} placement of turn {turn}" if placement > 1 else ""
    say(f"{record.file} {where}: {player} to move{which}, {total} legal placement{'s' if total != 1 else ''}"
        + (" (a roof is forced this turn)" if game.forced else ""))
    if keep.words():
        kept = sum(map(len, groups.values()))
        say(f"  {keep.words()}: {kept or 'none'} of them")
    for line in listing_lines(groups):
        say(line)
    if len(legal) > total and not keep.words():
        say("  tea may replace one placement this turn")
    colour = colour_wanted(no_color)
    say()
    empty = {cell for piece, cells in groups.items() if piece not in ("roof", "neutral") for cell in cells}
    say(render_board(game, marks=dict.fromkeys(empty, " * "), colour=colour))
    say(legend(game, colour=colour))
    say("* an empty cell where a legal placement may go")
    raise typer.Exit(1 if outcome.problems else 0)
