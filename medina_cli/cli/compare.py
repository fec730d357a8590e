"""`medina compare`: one record replayed under several rulesets, and what the rules change."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from .common import (JsonOption, SetOption, complete_rulesets, emit_json, exit_status, load_or_exit, names_or_exit,
                     refuse_directory, say, shown_as, stop, with_problems)


def compare(
    file: Annotated[str, typer.Argument(
        metavar="FILE", parser=shown_as("path"), help="A record/1 file, or - for stdin.")],
    rulesets: Annotated[Optional[str], typer.Option(
        "--rulesets", metavar="A,B,...", autocompletion=complete_rulesets,
        help="Rulesets to compare (ids or files, comma-separated; default: the record's own, then every built-in "
        "edition for its player count; site profiles only when named).")] = None,
    variants: Annotated[Optional[list[str]], typer.Option(
        "--variant", metavar="SPEC", help="A column of its own: SPEC is [LABEL:]ID,PARAM=VALUE,... (a ruleset id "
        "or file with overrides; quote it; commas inside brackets or braces stay in the value; see docs/format.md). "
        "Repeatable; beside --rulesets, or beside the record's own ruleset. Without LABEL the column is named by "
        "its overrides.")] = None,
    readings: Annotated[bool, typer.Option(
        "--readings", help="Replay the record under every other reading of each open rule point of its ruleset "
        "(medina rules params lists them), one at a time: which change the winner, the legality, the scores.")] = False,
    set_: SetOption = None,
    json_: JsonOption = False,
) -> None:
    """Replay one record under several rulesets: validity, scores, and what differs (tiles, legality, winner).

    Exit status: 0 when at least one ruleset replays the record without error (with --readings: when
    the record is valid as written), 1 otherwise, 2 unusable input or usage error.
    """
    from ..comparison import column_labels, default_rulesets
    from ..comparison import compare as compare_record
    from ..errors import MedinaError, Problem
    from ..records.record import parse_record
    from ..yamlio import base_dir_of, read_text

    shown = "<stdin>" if file == "-" else file
    if readings:
        doc = {"format": "medina-readings/1", "ruleset": None, "file": shown, "players": [], "baseline": None,
               "readings": []}
    else:
        doc = {"format": "medina-compare/1", "file": shown, "players": [], "results": [], "differences": None}
    doc = doc if json_ else None
    if readings and (rulesets is not None or variants):
        stop([Problem("usage", "plays the record's own ruleset against its open readings; it does not go with "
                      "--rulesets or --variant", file="--readings")], 2, doc)
    refs = names_or_exit(rulesets, "--rulesets", doc) if rulesets is not None else None
    try:
        parsed_variants = [parse_variant(text) for text in variants or ()]
    except ValueError as exc:
        stop([Problem("usage", str(exc), file="--variant")], 2, doc)
    refuse_directory(file, "compare takes one record file", doc)
    try:
        name, text = read_text(file)
        record = parse_record(text, name, base_dir=base_dir_of(file))
    except MedinaError as exc:
        stop(exc.problems, exit_status(exc), doc)
    if not record.players:
        stop(record.problems.errors, 1, doc)  # says why the record cannot be read
    overrides = tuple(set_ or ())
    if readings:
        _readings(record, overrides, doc)
    if refs:
        refs = list(dict.fromkeys(refs))
    else:
        refs = [record.ruleset] if parsed_variants else default_rulesets(record)
    loaded = [load_or_exit(ref, overrides, doc=doc) for ref in refs]  # an unusable ruleset or --set exits 2
    columns = dict(zip(column_labels(refs, loaded), loaded))
    for label, ref, changes in parsed_variants:
        if label in columns:
            stop([Problem("usage", f"{label!r}: another column has this name; give the variant a label of its own "
                          "(LABEL:ID,...)", file="--variant")], 2, doc)
        columns[label] = load_or_exit(load_or_exit(ref, overrides, doc=doc), changes, doc=doc)
    comparison = compare_record(record, columns)
    if json_:
        emit_json(with_problems(comparison.to_json(), []))
    else:
        _print(comparison)
    raise typer.Exit(0 if comparison.comparable else 1)


def parse_variant(text: str) -> tuple[str, str, tuple[str, ...]]:
    """`[LABEL:]ID,PARAM=VALUE,...` -> (label, ruleset ref, overrides); commas inside brackets, braces or
    quotes belong to a value. Without a label, the column is named by the ruleset and its overrides.
    Raises ValueError (the message says what is expected)."""
    items, depth, quote, start = [], 0, None, 0
    for i, char in enumerate(text):
        if quote:
            quote = None if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char in "[{":
            depth += 1
        elif char in "]}":
            depth -= 1
        elif char == "," and depth == 0:
            items.append(text[start:i].strip())
            start = i + 1
    items.append(text[start:].strip())
    head, changes = items[0], tuple(items[1:])
    label, sep, ref = head.partition(":")
    if not sep or "=" in label:
        label, ref = "", head
    label, ref = label.strip(), ref.strip()
    if not ref or "=" in ref or not all(changes) or not all("=" in change for change in changes):
        raise ValueError(f"{text!r}: expected [LABEL:]ID,PARAM=VALUE,..., e.g. "
                         "'arm:ID,towers.reconnect=once_per_palace_arm' (ID: a ruleset, `medina rules list`)")
    return label or " ".join((ref, *changes)), ref, changes


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
    unfinished = any(not o.game.is_over() for o in comparable)
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
    finished = outcome.game.is_over()
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


# --- the readings sweep ----------------------------------------------------------------------------

def _readings(record, overrides: tuple, doc: dict | None) -> None:
    """Print the record under each other reading of its ruleset's open rule points (with --json, `doc`
    filled), then exit."""
    from ..comparison import sweep_readings

    load_or_exit(record.ruleset, overrides, doc=doc)  # an unusable --set exits 2
    sweep = sweep_readings(record, overrides=overrides)
    if doc is not None:
        emit_json(with_problems(sweep.to_json(), []))
    else:
        _print_readings(sweep)
    raise typer.Exit(0 if sweep.baseline.comparable else 1)


def _print_readings(sweep) -> None:
    from tabulate import tabulate

    players, base = sweep.players, sweep.baseline
    say(f"{sweep.file}: {len(players)} players ({', '.join(players)}) under {sweep.ruleset.id}; "
        f"as written: {status_words(base)}")
    if not sweep.readings:
        say(f"{sweep.ruleset.id} has no open reading that applies to it (medina rules params lists them).")
        return
    shown = [r for r in sweep.ranked() if r.has_effect]
    if shown:
        rows = [["as written", "", " and ".join(base.winners), *(base.totals.get(p, "") for p in players)]]
        rows += [[r.alternative.label, _effect_words(r), " and ".join(r.outcome.winners),
                  *(r.outcome.totals.get(p, "") for p in players)] for r in shown]
        say()
        say(tabulate(rows, headers=["reading", "effect", "winner", *players], tablefmt="simple",
                     maxcolwidths=[None, 56, None, *(None for _ in players)], disable_numparse=True))
    quiet = [r.alternative.label for r in sweep.readings if not r.has_effect]
    say()
    if quiet:
        say(f"No effect on this game: {'; '.join(quiet)}")
    if not base.game or not base.game.is_over():
        say("(The record is not a finished game: winners are the standings where it stops.)")


def _effect_words(reading) -> str:
    if reading.changes_legality:
        return ("legal under this reading" if reading.outcome.comparable
                else status_words(reading.outcome).replace("invalid at", "illegal at", 1))
    words = []
    if reading.changes_winner:
        words.append("changes the winner")
    if reading.changes_scores:
        words.append("changes scores")
    return ", ".join(words) or "moves tiles, same scores"
