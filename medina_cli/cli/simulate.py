"""`medina simulate`: statistics of random legal games, one ruleset or several side by side."""

from __future__ import annotations

import sys
from typing import Annotated, Optional

import typer

from .common import JsonOption, emit_json, load_or_exit, say, warn


def simulate_command(
    ruleset: Annotated[Optional[str], typer.Option(
        "--ruleset", "-r", metavar="ID|PATH", help="The ruleset to play (a built-in id or a ruleset YAML file).")] = None,
    rulesets: Annotated[Optional[str], typer.Option(
        "--rulesets", metavar="A,B,…", help="Several rulesets, comma-separated: the same seeds under each, "
        "statistics side by side.")] = None,
    players: Annotated[int, typer.Option("--players", "-p", min=1, help="Players per game.")] = 4,
    games: Annotated[int, typer.Option("--games", "-g", min=1, help="Games per ruleset.")] = 1000,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed: the same seed plays the same games.")] = 1,
    out: Annotated[Optional[str], typer.Option(
        "--out", "-o", metavar="DIR", help="Write every game as a record/1 file (with its result) into DIR.")] = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=1, help="Worker processes (the games do not "
                                      "depend on it).")] = 1,
    json_: JsonOption = False,
) -> None:
    """Play complete games with random legal placements and print statistics.

    Each placement is drawn uniformly among the legal placements of the player to move; a tea tile
    is used at random where allowed. Prints winning and losing scores, where the points come from,
    game length, win rate per seat, and tile transfers, passes, colour retirements and forced roofs
    per game.

    Exit status: 0 done, 2 usage error (unknown ruleset, unsupported player count, unusable --out).
    """
    from ..simulate import Statistics, simulate

    if (ruleset is None) == (rulesets is None):
        warn("give either --ruleset ID or --rulesets A,B,C")
        raise typer.Exit(2)
    refs = [ruleset] if ruleset is not None else [r.strip() for r in rulesets.split(",") if r.strip()]
    if not refs:
        warn("--rulesets names no ruleset")
        raise typer.Exit(2)
    loaded = []
    for ref in refs:
        loaded.append(load_or_exit(ref))
        if players not in loaded[-1].player_counts:
            counts = ", ".join(map(str, loaded[-1].player_counts))
            warn(f"{ref}: {loaded[-1].id} is for {counts} players, not {players}")
            raise typer.Exit(2)
    out_dir = _prepare_out(out, [r.id for r in loaded]) if out is not None else None
    results = []
    for ref, loaded_ruleset in zip(refs, loaded):
        progress = Progress(f"{loaded_ruleset.id}", games) if sys.stderr.isatty() else None
        try:
            summaries = simulate(ref, players, games, seed, jobs=jobs, out_dir=out_dir,
                                 progress=progress.update if progress else None)
        except OSError as exc:  # writing a record failed (disk full, permissions)
            warn(f"{exc.filename or out}: cannot write: {exc.strerror or exc}")
            raise typer.Exit(2)
        if progress:
            progress.done()
        results.append(Statistics.of(loaded_ruleset.id, players, summaries))
    if json_:
        emit_json({"format": "medina-simulate/1", "players": players, "games": games, "seed": seed,
                   "rulesets": [r.to_json() for r in results]})
    else:
        say(render_statistics(results, players, games, seed))


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


def render_statistics(results, players: int, games: int, seed: int) -> str:
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
    heading = (f"{games} random game{'s' if games != 1 else ''} per ruleset, {players} players, seed {seed} "
               "(every placement uniform among the legal ones; a shared win counts for each winner in part)")
    return f"{heading}\n\n{table}"
