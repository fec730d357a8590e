"""The tables `medina simulate` prints: a study's statistics side by side per ruleset (with each
agent's results when agents play), and how often each other reading of the open rule points changes
the games."""

from __future__ import annotations

from ..study.games import PER_GAME, SOURCES
from ..study.results import agent_rows, key
from ..study.stats import wilson_interval
from .tables import aligned_table


def interval(bounds, digits: int, scale: float = 1) -> str:
    """` [low, high]`, or nothing when the interval is unknown."""
    return (
        ""
        if bounds is None
        else f" [{scale * bounds[0]:.{digits}f}, {scale * bounds[1]:.{digits}f}]"
    )


def percent(share: float) -> str:
    return f"{100 * share:.1f}%"


def statistics_report(
    results, players: int, games: int, seed: int, overrides=(), seats=(), wells=None
) -> str:
    """The statistics as a table: one row per figure, one column per ruleset, 95% intervals in
    brackets; a * marks a figure that differs significantly from the first ruleset's. With agents,
    a second table: each agent's seat-games, wins, win rate and mean score per ruleset. `wells`: whether
    each ruleset has a well (points from the well: "—" for one without, no row when none has one)."""
    marked = [set()] + [set(r.differs_from(results[0])) for r in results[1:]]

    def spread(path):
        return [
            f"{t.mean:.1f} ± {t.sd:.1f}{interval(t.interval, 1)}{'*' if path in marks else ''}"
            for t, marks in zip((r.figures()[path] for r in results), marked, strict=True)
        ]

    rows = [
        ["winning score (mean ± sd)", *spread("scores.winning")],
        ["losing score (mean ± sd)", *spread("scores.losing")],
    ]
    wells = [True] * len(results) if wells is None else wells
    rows += [
        [
            f"points from {source}",
            *(
                percent(r.point_shares[source]) if well or source != "well" else "—"
                for r, well in zip(results, wells, strict=True)
            ),
        ]
        for source in SOURCES
        if source != "well" or any(wells)
    ]
    rows += [
        ["turns per game (mean ± sd)", *spread("length.turns")],
        ["placements per game (mean ± sd)", *spread("length.placements")],
    ]
    rows += [
        [
            f"seat {seat + 1} wins",
            *(
                percent(r.seat_wins[seat])
                + interval(r.seat_win_intervals[seat], 1, 100)
                + ("*" if f"seat_wins[{seat}]" in marks else "")
                for r, marks in zip(results, marked, strict=True)
            ),
        ]
        for seat in range(players)
    ]
    rows += [
        [
            f"{name} per game",
            *(
                f"{r.happenings[name].mean:.2f}{interval(r.happenings[name].interval, 2)}"
                + ("*" if f"per_game.{key(name)}" in marks else "")
                for r, marks in zip(results, marked, strict=True)
            ),
        ]
        for name in PER_GAME
    ]
    table = aligned_table(
        rows, ["", *(r.ruleset for r in results)], ("left", *("right" for _ in results))
    )
    footer = (
        f"\n\n* differs from {results[0].ruleset} at the 95% level (z test)" if any(marked) else ""
    )
    if seats:
        footer += "\n\n" + agents_table(results, seats)
    return f"{_heading(players, games, seed, overrides, seats)}\n\n{table}{footer}"


def _heading(players: int, games: int, seed: int, overrides, seats) -> str:
    variant = f", with --set {', '.join(overrides)}" if overrides else ""
    how = (
        f"seats played by {', '.join(seats)}, rotating one seat per game"
        if seats
        else "every placement uniform among the legal ones"
    )
    return (
        f"{games} {'' if seats else 'random '}game{'s' if games != 1 else ''} per ruleset{variant}, "
        f"{players} players, seed {seed} ({how}; a shared win counts for each winner in part); "
        "[95% confidence interval]"
    )


def agents_table(results, seats) -> str:
    """Each agent's seat-games, wins, win rate and mean score, per ruleset."""
    rows = [
        [
            ruleset,
            a.agent,
            a.games,
            f"{float(a.wins):g}",
            percent(a.win_rate) + interval(a.win_interval, 1, 100),
            f"{a.scores.mean:.1f}{interval(a.scores.interval, 1)}",
        ]
        for ruleset, a in agent_rows(results, seats)
    ]
    return aligned_table(
        rows,
        ["ruleset", "agent", "seat-games", "wins", "win rate", "mean score"],
        ("left", "left", "right", "right", "right", "right"),
    )


READINGS_WAYS = (  # (how the games went, which rules made a placement illegal, the counts of a reading)
    (
        "played as written, replayed placement by placement under each other reading",
        "the reading's",
        lambda f: f.counts,
    ),
    (
        "played under each other reading (the same seeds), replayed as written",
        "the written",
        lambda f: f.reverse,
    ),
)


def readings_report(
    found, ruleset_id: str, players: int, games: int, seed: int, overrides=()
) -> list[str]:
    """How often each other reading changes the games, both ways, in lines of text (worst first)."""
    lines = [
        f"{games} random game{'s' if games != 1 else ''} of {ruleset_id}, {players} players, seed {seed}"
        + (f", with --set {', '.join(overrides)}" if overrides else "")
    ]
    if not found:
        return lines + [
            f"{ruleset_id} has no open reading that applies to it (medina rules params lists them)."
        ]
    for title, against, counts_of in READINGS_WAYS:
        lines += ["", f"Games {title}:", _readings_table(found, games, against, counts_of)]
    return lines + [
        "",
        "illegal: some placement of the game breaks the rules it is replayed under (it could not have "
        "been played so);\ngame unfinished: replayed so, someone could still place at the end (winners "
        "are then the standings).",
    ]


def _readings_table(found, games: int, against: str, counts_of) -> str:
    def share(count: int) -> str:
        return f"{100 * count / games:.1f}%"

    rows = []
    for f in sorted(found, key=lambda f: -counts_of(f)["changes_winner"]):
        counts = counts_of(f)
        interval = wilson_interval(counts["changes_winner"], games)
        assert interval is not None  # games > 0: the share above divides by it
        low, high = interval
        rows.append(
            [
                f.label,
                share(counts["changes_winner"]),
                f"{100 * low:.1f}–{100 * high:.1f}%",
                share(counts["changes_scores"]),
                share(counts["illegal"]),
                share(counts["unfinished"]),
            ]
        )
    return aligned_table(
        rows,
        [
            "reading",
            "changes the winner",
            "95% interval (Wilson)",
            "changes scores",
            f"illegal by {against} rules",
            "game unfinished",
        ],
        ("left", "right", "right", "right", "right", "right"),
    )
