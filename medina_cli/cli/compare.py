"""`medina compare`: one record replayed under several rulesets, and what the rules change."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from .common import (JsonOption, SetOption, emit_json, load_or_exit, names_or_exit, refuse_directory, report_problems,
                     say, warn)


def compare(
    file: Annotated[str, typer.Argument(metavar="FILE", help="A record/1 file, or - for stdin.")],
    rulesets: Annotated[Optional[str], typer.Option(
        "--rulesets", metavar="A,B,...", help="Rulesets to compare (ids or files, comma-separated; default: the "
        "record's own, then every built-in edition for its player count; site profiles only when named).")] = None,
    set_: SetOption = None,
    json_: JsonOption = False,
) -> None:
    """Replay one record under several rulesets: validity, scores, and what differs (tiles, legality, winner).

    Exit status: 0 when at least one ruleset replays the record without error, 1 otherwise,
    2 unusable input or usage error.
    """
    from ..compare import compare as compare_record
    from ..compare import default_rulesets
    from ..errors import MedinaError
    from ..records.record import parse_record
    from ..yamlio import base_dir_of, read_text

    refs = names_or_exit(rulesets, "--rulesets") if rulesets is not None else None
    refuse_directory(file, "compare takes one record file")
    try:
        name, text = read_text(file)
        record = parse_record(text, name, base_dir=base_dir_of(file))
    except MedinaError as exc:
        warn(exc.human())
        raise typer.Exit(2 if exc.unusable else 1)
    if not record.players:
        report_problems(record.problems.errors)  # says why the record cannot be read
        raise typer.Exit(1)
    overrides = tuple(set_ or ())
    refs = list(dict.fromkeys(refs)) if refs else default_rulesets(record)
    for ref in refs:
        load_or_exit(ref, overrides)  # an unusable ruleset or --set exits 2 with its message
    comparison = compare_record(record, refs, overrides=overrides)
    if json_:
        emit_json(comparison.to_json())
    else:
        _print(comparison)
    raise typer.Exit(0 if comparison.comparable else 1)


# --- the table for people --------------------------------------------------------------------------

def _print(comparison) -> None:
    from tabulate import tabulate

    players, outcomes = comparison.players, comparison.outcomes
    say(f"{comparison.file}: {len(players)} players ({', '.join(players)}), {comparison.turns} turns")
    say()
    applicable = [o for o in outcomes if not o.reason]
    if applicable:
        say(tabulate([[o.name, status_words(o)] for o in applicable], headers=["ruleset", "outcome"],
                     tablefmt="simple", maxcolwidths=[None, 90]))
    for reason in dict.fromkeys(o.reason for o in outcomes if o.reason):
        say(f"Not applicable ({reason}): {', '.join(o.name for o in outcomes if o.reason == reason)}")
    dry = [o.name for o in outcomes if o.without_well]
    if dry:
        say(f"Played without the record's well (these rulesets have none; its cell is free): {', '.join(dry)}")
    comparable = comparison.comparable
    if not comparable:
        say()
        say("No ruleset replays the record without error: there are no scores to compare.")
        return
    unfinished = any(not o.game.finished for o in comparable)
    rows = [[player, *(o.totals[player] for o in comparable)] for player in players]
    rows.append(["leading" if unfinished else "winner", *(" and ".join(o.winners) for o in comparable)])
    say()
    say("Scores" + (" (standings where the record stops: it is unfinished)" if unfinished else "") + ":")
    say(tabulate(rows, headers=["player", *(o.name for o in comparable)], tablefmt="simple"))
    say()
    say("What differs:")
    for line in _difference_lines(comparison):
        say(line)


def status_words(outcome) -> str:
    """A column's outcome in words: invalid where, or valid and whether finished."""
    if outcome.error:
        e = outcome.error
        where = (f"turn {e.turn}" + (f", placement {e.placement}" if e.placement else "") + f" ({e.player})"
                 if e.turn else "the record")
        return f"invalid at {where}: {e.message} [{e.code}]"
    finished = outcome.game.finished
    return "valid, finished" if finished else f"valid, unfinished (stops after turn {outcome.turns_played})"


def _difference_lines(comparison) -> list[str]:
    from tabulate import tabulate

    diffs = comparison.differences()
    lines = []
    for spot in diffs["legality"]:
        where = f"turn {spot['turn']}" + (f" placement {spot['placement']}" if spot["placement"] else "")
        illegal = ", ".join(spot["illegal_under"])
        legal = f"legal under {', '.join(spot['legal_under'])}, " if spot["legal_under"] else ""
        lines.append(f"  - legality: {where} ({spot['player']}) is {legal}illegal under {illegal}")
    if not diffs["legality"]:
        lines.append("  - legality: every placement is legal under every ruleset that applies")
    comparable = [o.name for o in comparison.comparable]
    if len(comparable) < 2:
        lines.append("  - tiles and winner: only one ruleset replays the record without error; nothing to compare")
        return lines
    if diffs["tiles"]:
        lines.append("  - tiles that end with someone else:")
        rows = [[f"{t['colour']} palace tile" if t["tile"] == "palace" else f"tower tile {t['tower']}",
                 *(t["holders"].get(name, "—") for name in comparable)] for t in diffs["tiles"]]
        table = tabulate(rows, headers=["tile", *comparable], tablefmt="simple")
        lines.extend("      " + row for row in table.splitlines())
    else:
        lines.append("  - tiles: every tile ends with the same holder")
    winners = diffs["winners"]["by_ruleset"]
    if diffs["winners"]["changes"]:
        by_ruleset = "; ".join(f"{' and '.join(w)} under {name}" for name, w in winners.items())
        lines.append(f"  - winner changes: {by_ruleset}")
    else:
        lines.append(f"  - winner: {' and '.join(next(iter(winners.values())))} under every ruleset compared")
    return lines
