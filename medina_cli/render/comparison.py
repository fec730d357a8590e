"""`medina compare` for people: a record under several rulesets (validity, scores, what differs), and
under each other reading of its ruleset's open rule points, in lines of text."""

from __future__ import annotations

from tabulate import tabulate


def comparison_report(comparison) -> list[str]:
    """Each ruleset's outcome, the scores of those that replay the record, and what differs."""
    players, outcomes = comparison.players, comparison.outcomes
    lines = [
        f"{comparison.file}: {len(players)} players ({', '.join(players)}), {comparison.turns} turns",
        "",
    ]
    applicable = [o for o in outcomes if not o.reason]
    if applicable:
        lines.append(
            tabulate(
                [[o.name, status_words(o)] for o in applicable],
                headers=["ruleset", "outcome"],
                tablefmt="simple",
                maxcolwidths=[None, 90],
            )
        )
    for reason in dict.fromkeys(o.reason for o in outcomes if o.reason):
        lines.append(
            f"Not applicable ({reason}): {', '.join(o.name for o in outcomes if o.reason == reason)}"
        )
    dry = [o.name for o in outcomes if o.without_well]
    if dry:
        lines.append(
            f"Played without the record's well (these rulesets have none; its cell is free): {', '.join(dry)}"
        )
    comparable = comparison.comparable
    if not comparable:
        return lines + [
            "",
            "No ruleset replays the record without error: there are no scores to compare.",
        ]
    unfinished = _unfinished(comparison)
    rows = [[player, *(o.totals[player] for o in comparable)] for player in players]
    rows.append(
        ["leading" if unfinished else "winner", *(" and ".join(o.winners) for o in comparable)]
    )
    lines += [
        "",
        "Scores"
        + (" (standings where the record stops: it is unfinished)" if unfinished else "")
        + ":",
        tabulate(rows, headers=["player", *(o.name for o in comparable)], tablefmt="simple"),
        "",
        "What differs:",
    ]
    return lines + difference_lines(comparison)


def status_words(outcome) -> str:
    """A column's outcome in words: not applicable why, invalid where, or valid and whether finished."""
    if outcome.reason:
        return f"not applicable: {outcome.reason}"
    if outcome.error:
        e = outcome.error
        where = (
            f"turn {e.turn}"
            + (f", placement {e.placement}" if e.placement else "")
            + f" ({e.player})"
            if e.turn
            else "the record"
        )
        return f"invalid at {where}: {e.message} [{e.code}]"
    finished = outcome.game.is_over()
    return (
        "valid, finished"
        if finished
        else f"valid, unfinished (stops after turn {outcome.turns_played})"
    )


def difference_lines(comparison) -> list[str]:
    """What the rulesets change: legality, tile holders, the winner."""
    diffs = comparison.differences()
    lines = []
    for spot in diffs["legality"]:
        where = f"turn {spot['turn']}" + (
            f" placement {spot['placement']}" if spot["placement"] else ""
        )
        illegal = ", ".join(spot["illegal_under"])
        legal = f"legal under {', '.join(spot['legal_under'])}, " if spot["legal_under"] else ""
        lines.append(f"  - legality: {where} ({spot['player']}) is {legal}illegal under {illegal}")
    if not diffs["legality"]:
        lines.append("  - legality: every placement is legal under every ruleset that applies")
    comparable = [o.name for o in comparison.comparable]
    if len(comparable) < 2:
        lines.append(
            "  - tiles and winner: only one ruleset replays the record without error; nothing to compare"
        )
        return lines
    if diffs["tiles"]:
        lines.append("  - tiles that end with someone else:")
        rows = [
            [
                f"{t['colour']} palace tile"
                if t["tile"] == "palace"
                else f"tower tile {t['tower']}",
                *(t["holders"].get(name, "—") for name in comparable),
            ]
            for t in diffs["tiles"]
        ]
        table = tabulate(rows, headers=["tile", *comparable], tablefmt="simple")
        lines.extend("      " + row for row in table.splitlines())
    else:
        lines.append("  - tiles: every tile ends with the same holder")
    winners = diffs["winners"]["by_ruleset"]
    who = "leader" if _unfinished(comparison) else "winner"  # as the scores table says
    if diffs["winners"]["changes"]:
        by_ruleset = "; ".join(f"{' and '.join(w)} under {name}" for name, w in winners.items())
        lines.append(f"  - {who} changes: {by_ruleset}")
    else:
        lines.append(
            f"  - {who}: {' and '.join(next(iter(winners.values())))} under every ruleset compared"
        )
    return lines


def _unfinished(comparison) -> bool:
    """Whether a ruleset that replays the record leaves its game unfinished: its winners are leaders."""
    return any(not o.game.is_over() for o in comparison.comparable)


def readings_report(sweep) -> list[str]:
    """The record as written beside each other reading that changes it (winner, scores, legality), then
    the readings that do not."""
    players, base = sweep.players, sweep.baseline
    lines = [
        f"{sweep.file}: {len(players)} players ({', '.join(players)}) under {sweep.ruleset.id}; "
        f"as written: {status_words(base)}"
    ]
    if base.reason:  # no reading can make it apply: nothing to compare
        return lines
    if not sweep.readings:
        return lines + [
            f"{sweep.ruleset.id} has no open reading that applies to it (medina rules params lists them)."
        ]
    shown = [r for r in sweep.ranked() if r.has_effect]
    if shown:
        rows = [
            [
                "as written",
                "",
                " and ".join(base.winners),
                *(base.totals.get(p, "") for p in players),
            ]
        ]
        rows += [
            [
                r.alternative.label,
                effect_words(r),
                " and ".join(r.outcome.winners),
                *(r.outcome.totals.get(p, "") for p in players),
            ]
            for r in shown
        ]
        lines += [
            "",
            tabulate(
                rows,
                headers=["reading", "effect", "winner", *players],
                tablefmt="simple",
                maxcolwidths=[None, 56, None, *(None for _ in players)],
                disable_numparse=True,
            ),
        ]
    quiet = [r.alternative.label for r in sweep.readings if not r.has_effect]
    lines.append("")
    if quiet:
        lines.append(f"No effect on this game: {'; '.join(quiet)}")
    if not base.game or not base.game.is_over():
        lines.append(
            "(The record is not a finished game: winners are the standings where it stops.)"
        )
    return lines


def effect_words(reading) -> str:
    """What one reading changes in the game, in words."""
    if reading.changes_legality:
        return (
            "legal under this reading"
            if reading.outcome.comparable
            else status_words(reading.outcome).replace("invalid at", "illegal at", 1)
        )
    words = []
    if reading.changes_winner:
        words.append("changes the winner")
    if reading.changes_scores:
        words.append("changes scores")
    return ", ".join(words) or "moves tiles, same scores"
