"""`medina simulate`: statistics of random legal games, one ruleset or several side by side."""

from __future__ import annotations

import sys
from typing import Annotated, Optional

import typer

from .common import (JsonOption, SetOption, complete_ruleset, complete_rulesets, emit_json, load_or_exit, names_or_exit,
                     say, warn, whole_number)


def simulate_command(
    ruleset: Annotated[Optional[str], typer.Option(
        "--ruleset", "-r", metavar="ID|PATH", autocompletion=complete_ruleset,
        help="The ruleset to play (a built-in id or a ruleset YAML file). "
        "Give this or --rulesets.")] = None,
    rulesets: Annotated[Optional[str], typer.Option(
        "--rulesets", metavar="A,B,...", autocompletion=complete_rulesets,
        help="Several rulesets, comma-separated: the same seeds under each, "
        "statistics side by side. Give this or --ruleset.")] = None,
    set_: SetOption = None,
    players: Annotated[int, typer.Option("--players", "-p", metavar="N", parser=whole_number(1),
                                         help="Players per game.")] = 4,
    games: Annotated[int, typer.Option("--games", "-g", metavar="N", parser=whole_number(1),
                                       help="Games per ruleset, at least 1.")] = 1000,
    seed: Annotated[int, typer.Option("--seed", "-s", metavar="N", help="Seed: the same seed plays the same games.")] = 1,
    out: Annotated[Optional[str], typer.Option(
        "--out", "-o", metavar="DIR", help="Write every game as a record/1 file (with its result) into DIR "
        "(not with --set: a record cannot carry the overrides).")] = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", metavar="N", parser=whole_number(1),
                                      help="Worker processes, at least 1 (the games do not depend on it).")] = 1,
    readings: Annotated[bool, typer.Option(
        "--readings", help="Replay every game under each other reading of the ruleset's open rule points "
        "(medina rules params lists them) and count how often it changes the winner, with a 95% interval; "
        "with --ruleset only.")] = False,
    json_: JsonOption = False,
) -> None:
    """Play complete games with random legal placements and print statistics. One of --ruleset and
    --rulesets is required; --set applies to every ruleset.

    Each placement is drawn uniformly among the legal placements of the player to move; a tea tile
    is used at random where allowed. Prints winning and losing scores, where the points come from,
    game length, win rate per seat, and tile transfers, passes, colour retirements and forced roofs
    per game.

    Exit status: 0 done, 2 usage error (no or unknown ruleset, unsupported player count, unusable --out).
    """
    from ..simulate import Statistics, simulate

    if ruleset is None and rulesets is None:
        warn("medina simulate: needs --ruleset ID or --rulesets A,B,... (one of them)")
        raise typer.Exit(2)
    if ruleset is not None and rulesets is not None:
        warn("medina simulate: give either --ruleset ID or --rulesets A,B,..., not both")
        raise typer.Exit(2)
    if out is not None and set_:
        warn("--out cannot go with --set: a record/1 file names its ruleset but cannot carry --set overrides, so "
             "the records would not validate; write the overrides into a ruleset file (extends: ID) and give it "
             "with --ruleset")
        raise typer.Exit(2)
    if readings and (ruleset is None or out is not None):
        warn("--readings goes with --ruleset ID (one ruleset, against its own open readings), not with "
             "--rulesets or --out")
        raise typer.Exit(2)
    refs = [ruleset] if ruleset is not None else names_or_exit(rulesets, "--rulesets")
    overrides = tuple(set_ or ())
    loaded = []
    for ref in refs:
        loaded.append(load_or_exit(ref, overrides))
        if players not in loaded[-1].player_counts:
            from ..errors import in_words
            warn(f"{ref} is for {in_words(loaded[-1].player_counts)} players, not {players}")
            raise typer.Exit(2)
    if readings:
        _readings(ruleset, loaded[0].id, players, games, seed, overrides, jobs, json_)
        return
    out_dir = _prepare_out(out, [r.id for r in loaded]) if out is not None else None
    results = []
    for ref, loaded_ruleset in zip(refs, loaded):
        progress = Progress(f"{loaded_ruleset.id}", games) if sys.stderr.isatty() else None
        try:
            summaries = simulate(ref, players, games, seed, overrides=overrides, jobs=jobs, out_dir=out_dir,
                                 progress=progress.update if progress else None)
        except OSError as exc:  # writing a record failed (disk full, permissions)
            warn(f"{exc.filename or out}: cannot write: {exc.strerror or exc}")
            raise typer.Exit(2)
        if progress:
            progress.done()
        results.append(Statistics.of(loaded_ruleset.id, players, summaries))
    if out_dir is not None:
        warn(f"wrote {games * len(refs)} records to {out_dir}")
    if json_:
        emit_json({"format": "medina-simulate/1", "players": players, "games": games, "seed": seed,
                   "overrides": list(overrides), "rulesets": [r.to_json() for r in results]})
    else:
        say(render_statistics(results, players, games, seed, overrides))


def _prepare_out(out: str, ruleset_ids: list[str]) -> str:
    """Create the output directory; unusable (a file, no permission) exits 2."""
    from pathlib import Path

    if len(set(ruleset_ids)) != len(ruleset_ids):
        warn("--out: two of the rulesets have the same id, so their records would overwrite each other")
        raise typer.Exit(2)
    try:
        Path(out).mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        warn(f"{out}: cannot create the output directory: {exc.strerror or exc}")
        raise typer.Exit(2)
    return out


class Progress:
    """A one-line progress bar on stderr, redrawn in place."""

    WIDTH = 30

    def __init__(self, label: str, total: int):
        self.label, self.total = label, total

    def update(self, done: int) -> None:
        filled = self.WIDTH * done // self.total
        sys.stderr.write(f"\r{self.label}: [{'#' * filled}{'.' * (self.WIDTH - filled)}] {done}/{self.total} games")
        sys.stderr.flush()

    def done(self) -> None:
        sys.stderr.write("\r" + " " * (len(self.label) + self.WIDTH + 2 * len(str(self.total)) + 12) + "\r")
        sys.stderr.flush()


def render_statistics(results, players: int, games: int, seed: int, overrides=()) -> str:
    """The statistics as a table: one row per figure, one column per ruleset."""
    from tabulate import tabulate

    from ..simulate import PER_GAME, SOURCES

    def spread(s, digits=1):
        return f"{s.mean:.{digits}f} ± {s.sd:.{digits}f}"

    def percent(x):
        return f"{100 * x:.1f}%"

    rows = [["winning score (mean ± sd)", *(spread(r.winning) for r in results)],
            ["losing score (mean ± sd)", *(spread(r.losing) for r in results)]]
    rows += [[f"points from {source}", *(percent(r.point_shares[source]) for r in results)] for source in SOURCES]
    rows += [["turns per game (mean ± sd)", *(spread(r.turns) for r in results)],
             ["placements per game (mean ± sd)", *(spread(r.placements) for r in results)]]
    rows += [[f"seat {seat + 1} wins", *(percent(r.seat_wins[seat]) for r in results)] for seat in range(players)]
    rows += [[f"{name} per game", *(f"{r.per_game[name]:.2f}" for r in results)] for name in PER_GAME]
    table = tabulate(rows, headers=["", *(r.ruleset for r in results)], tablefmt="simple",
                     colalign=("left", *("right" for _ in results)), disable_numparse=True)
    variant = f", with --set {', '.join(overrides)}" if overrides else ""
    heading = (f"{games} random game{'s' if games != 1 else ''} per ruleset{variant}, {players} players, seed {seed} "
               "(every placement uniform among the legal ones; a shared win counts for each winner in part)")
    return f"{heading}\n\n{table}"


def _readings(ref: str, ruleset_id: str, players: int, games: int, seed: int, overrides, jobs: int, json_: bool) -> None:
    """How often each other reading of the ruleset's open rule points changes the simulated games."""
    from tabulate import tabulate

    from ..simulate import simulate_readings, wilson_interval

    progress = Progress(f"{ruleset_id} readings", games) if sys.stderr.isatty() else None
    found = simulate_readings(ref, players, games, seed, overrides=overrides, jobs=jobs,
                              progress=progress.update if progress else None)
    if progress:
        progress.done()
    if json_:
        emit_json({"format": "medina-simulate-readings/1", "ruleset": ruleset_id, "players": players, "games": games,
                   "seed": seed, "overrides": list(overrides), "readings": [f.to_json() for f in found]})
        return

    def percent(count: int) -> str:
        return f"{100 * count / games:.1f}%"

    say(f"{games} random game{'s' if games != 1 else ''} of {ruleset_id}, {players} players, seed {seed}"
        + (f", with --set {', '.join(overrides)}" if overrides else "")
        + ": each played as written, then replayed placement by placement under each other reading")
    if not found:
        say(f"{ruleset_id} has no open reading that applies to it (medina rules params lists them).")
        return
    rows = []
    for f in sorted(found, key=lambda f: -f.counts["changes_winner"]):
        low, high = wilson_interval(f.counts["changes_winner"], games)
        rows.append([f.label, percent(f.counts["changes_winner"]), f"{100 * low:.1f}–{100 * high:.1f}%",
                     percent(f.counts["changes_scores"]), percent(f.counts["illegal"]), percent(f.counts["unfinished"])])
    say()
    say(tabulate(rows, headers=["reading", "changes the winner", "95% interval (Wilson)", "changes scores",
                                "game illegal", "game unfinished"], tablefmt="simple", disable_numparse=True,
                 colalign=("left", "right", "right", "right", "right", "right")))
    say()
    say("game illegal: some placement of the game breaks the reading's rules (it could not have been played so);\n"
        "game unfinished: under the reading someone could still place at the end (winners are then the standings).")
