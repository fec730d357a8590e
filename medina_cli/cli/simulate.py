"""`medina simulate`: statistics of random legal games, one ruleset or several side by side."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from .common import (JsonOption, SetOption, capped_jobs, complete_ruleset, complete_rulesets, emit_json, load_or_exit,
                     names_or_exit, say, stop, usage_error, warn, whole_number, with_problems)
from .progress import Progress


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
        "--out", "-o", metavar="DIR", help="Write every game as it finishes into DIR: a record/1 file (with its "
        "result) and its statistics (not with --set: a record cannot carry the overrides).")] = None,
    resume: Annotated[bool, typer.Option(
        "--resume", help="Finish the study in --out DIR after an interruption: play only the games missing "
        "there (the options must be the study's own).")] = False,
    jobs: Annotated[int, typer.Option("--jobs", "-j", metavar="N", parser=whole_number(1),
                                      help="Worker processes on this machine, at least 1, at most 4 per CPU "
                                      "(the games do not depend on it).")] = 1,
    scheduler: Annotated[Optional[str], typer.Option(
        "--scheduler", metavar="ADDRESS", help="Play the games on the Dask distributed cluster whose scheduler "
        "is at ADDRESS (tcp://HOST:PORT, e.g. tcp://10.0.0.5:8786; tls:// with certificates in Dask's "
        "configuration); needs Dask: pip install '.[cluster]' in medina-cli's checkout.")] = None,
    worker_wait: Annotated[int, typer.Option(
        "--worker-wait", metavar="SECONDS", parser=whole_number(0), envvar="MEDINA_WORKER_WAIT",
        help="With --scheduler: how long the cluster may go without any worker (none joined yet, or all were "
        "lost) before the study stops with exit 2, finished games kept in --out; the wait is said at once.")] = 60,
    readings: Annotated[bool, typer.Option(
        "--readings", help="Replay every game under each other reading of the ruleset's open rule points "
        "(medina rules params lists them), and play it under each reading and replay it as written; count how "
        "often the reading changes the winner (with a 95% interval) or the game's legality; with --ruleset "
        "only.")] = False,
    agents: Annotated[Optional[str], typer.Option(
        "--agents", metavar="A,B,...", help="Who plays: one agent per seat (random, greedy, mcts or mcts:N); "
        "the seats rotate over the games, so every agent plays every seat equally often (over a multiple of "
        "the player count). Adds each agent's games, wins, win rate and mean score. Default: all random.")] = None,
    json_: JsonOption = False,
) -> None:
    """Play complete games with random legal placements (or the --agents) and print statistics. One
    of --ruleset and --rulesets is required; --set applies to every ruleset.

    Each placement is drawn uniformly among the legal placements of the player to move; a tea tile
    is used at random where allowed. Prints winning and losing scores, where the points come from,
    game length, win rate per seat, and tile transfers, passes, colour retirements and forced roofs
    per game, each with its 95% confidence interval; beside the first ruleset, a figure that differs
    from it significantly is marked with *. The games depend only on the seed: the same document
    comes from --jobs, --scheduler, or a study interrupted and finished with --resume.

    Exit status: 0 done, 2 usage error (no or unknown ruleset, unsupported player count, unusable --out,
    a --resume whose options differ, an unusable --scheduler address, a lost cluster, a cluster without
    workers for --worker-wait seconds), 130 interrupted (finished games stay in --out).
    """
    from ..errors import Problem
    from ..study.backend import StudyError

    overrides = tuple(set_ or ())
    doc = _document(readings, players, games, seed, overrides) if json_ else None
    if ruleset is None and rulesets is None:
        usage_error("medina simulate", "needs --ruleset ID or --rulesets A,B,... (one of them)", doc)
    if ruleset is not None and rulesets is not None:
        usage_error("medina simulate", "give either --ruleset ID or --rulesets A,B,..., not both", doc)
    if out is not None and set_:
        usage_error(None, "--out cannot go with --set: a record/1 file names its ruleset but cannot carry --set "
                    "overrides, so the records would not validate; write the overrides into a ruleset file "
                    "(extends: ID) and give it with --ruleset", doc)
    if resume and out is None:
        usage_error(None, "--resume needs --out DIR: the folder of the study to finish", doc)
    if scheduler is not None and jobs != 1:
        usage_error(None, "give either --jobs N (processes on this machine) or --scheduler ADDRESS (a cluster), "
                    "not both", doc)
    jobs = capped_jobs(jobs)
    if readings and (ruleset is None or out is not None or resume or scheduler is not None):
        usage_error(None, "--readings goes with --ruleset ID (one ruleset, against its own open readings), not with "
                    "--rulesets, --out, --resume or --scheduler", doc)
    if readings and agents is not None:
        usage_error(None, "--readings replays random games; it does not take --agents", doc)
    seats = _seats(agents, players, doc) if agents is not None else ()
    refs = [ruleset] if ruleset is not None else names_or_exit(rulesets, "--rulesets", doc)
    loaded = []
    for ref in refs:
        loaded.append(load_or_exit(ref, overrides, doc=doc))
        refusal = loaded[-1].players_refusal(players, ref)
        if refusal:
            where = "--ruleset" if ruleset is not None else "--rulesets"
            stop([Problem("unsupported-player-count", f"{refusal} (--players {players})", file=where)], 2, doc)
    if readings:
        _readings(ruleset, loaded[0].id, players, games, seed, overrides, jobs, doc)
        return
    study, folder = _study(refs, loaded, players, games, seed, out, resume, seats, doc)
    if scheduler is not None:  # Dask's own log lines stay off the terminal unless asked for
        import os
        os.environ.setdefault("DASK_LOGGING", str({name: "critical" for name in DASK_LOGGERS}))
    from ..study.parallel import Workers
    progress = Progress(games * len(refs))
    workers = Workers(jobs, scheduler, worker_wait, progress.note)
    try:
        from ..study.simulate import simulate
        results = simulate(study, players, workers=workers, folder=folder, progress=progress, notify=progress.note)
    except StudyError as exc:
        progress.clear()
        usage_error(None, f"{exc}{_kept(folder, progress)}", doc)
    except OSError as exc:  # writing a record failed (disk full, permissions)
        progress.clear()
        stop([Problem("cannot-write", f"cannot write: {exc.strerror or exc}", file=exc.filename or out)], 2, doc)
    except KeyboardInterrupt:
        progress.clear()
        warn(f"interrupted{_kept(folder, progress)}")
        raise typer.Exit(130)
    progress.clear()
    if folder is not None:
        warn(f"wrote {progress.finished - progress.first} records to {out}"
             + (f" ({progress.first} were there already)" if progress.first else ""))
    if doc is not None:
        from ..study.results import agents_json, comparison_json
        emit_json(with_problems({**doc, "rulesets": [r.to_json() for r in results], **comparison_json(results),
                                 **({"agents": agents_json(results, seats)} if seats else {})}, []))
    else:
        wells = [r.for_players(players).well.enabled for r in loaded]
        say(render_statistics(results, players, games, seed, overrides, seats, wells=wells))


def _document(readings: bool, players: int, games: int, seed: int, overrides: tuple) -> dict:
    """The --json document as far as the options make it, before anything is played (what an error
    leaves it at): medina-simulate-readings/1 with --readings, else medina-simulate/1."""
    if readings:
        return {"format": "medina-simulate-readings/1", "ruleset": None, "players": players, "games": games,
                "seed": seed, "overrides": list(overrides), "readings": []}
    return {"format": "medina-simulate/1", "players": players, "games": games, "seed": seed,
            "overrides": list(overrides), "rulesets": []}


def _seats(agents: str, players: int, doc: dict | None) -> tuple[str, ...]:
    """The --agents specs, one per seat, spelled canonically (`MCTS:200` is `mcts:200`); a wrong count or an
    unknown agent is a usage error (with --json, in `doc`)."""
    from ..agents import UnknownAgent, parse_spec
    specs = names_or_exit(agents, "--agents", doc)
    if len(specs) != players:
        usage_error(f"--agents {agents}", f"give one agent per seat, {players} for --players {players}, "
                    f"not {len(specs)}", doc)
    try:
        return tuple(str(parse_spec(spec)) for spec in specs)
    except UnknownAgent as exc:
        usage_error("--agents", str(exc), doc)


DASK_LOGGERS = ("distributed", "distributed.client", "distributed.gc")  # those Dask's defaults give a level


def _kept(folder, progress) -> str:
    if folder is None:
        return ""
    return (f": {progress.finished} of {progress.total} games are finished in {folder.path}; the same command "
            "with --resume plays the rest")


def _study(refs, loaded, players, games, seed, out, resume, seats=(), doc: dict | None = None):
    """The study, and its output folder (started or resumed) when --out is given; an unusable folder
    exits 2 (with --json, in `doc`)."""
    from pathlib import Path

    from ..errors import Problem
    from ..study.folder import StudyFolder, options_of
    from ..study.backend import StudyError
    from ..study.runner import Part, Study

    rules = [r.for_players(players) for r in loaded]
    if out is None:
        return Study(tuple(Part(r.id, rule) for r, rule in zip(loaded, rules)), games, seed, seats), None
    if len({r.id for r in loaded}) != len(loaded):
        usage_error("--out", "two of the rulesets have the same id, so their records would overwrite each other", doc)
    try:
        Path(out).mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        stop([Problem("cannot-write", f"cannot create the output directory: {exc.strerror or exc}", file=out)], 2,
             doc)
    study = Study(tuple(Part(r.id, rule, record_ref(ref, out)) for ref, r, rule in zip(refs, loaded, rules)),
                  games, seed, seats)
    folder = StudyFolder(out, study)
    options = options_of(study, players, [r.params for r in loaded])
    try:
        folder.resume(options) if resume else folder.start(options)
    except StudyError as exc:
        usage_error(None, str(exc), doc)
    return study, folder


def record_ref(ref: str, out: str) -> str:
    """How a record written into `out` names its ruleset: a built-in by its id, a file by its path from
    `out` (records name rulesets from their own folder), so the folder can be shared."""
    import os
    from pathlib import Path

    from ..rules.loader import is_path

    if not is_path(ref):
        return ref
    return Path(os.path.relpath(Path(ref).resolve(), Path(out).resolve())).as_posix()


def render_statistics(results, players: int, games: int, seed: int, overrides=(), seats=(), wells=None) -> str:
    """The statistics as a table: one row per figure, one column per ruleset, 95% intervals in
    brackets; a * marks a figure that differs significantly from the first ruleset's. With agents,
    a second table: each agent's seat-games, wins, win rate and mean score per ruleset. `wells`: whether
    each ruleset has a well (points from the well: "—" for one without, no row when none has one)."""
    from tabulate import tabulate

    from ..study.games import PER_GAME, SOURCES
    from ..study.results import key

    marked = [set()] + [set(r.differs_from(results[0])) for r in results[1:]]

    def interval(bounds, digits, scale=1):
        return "" if bounds is None else f" [{scale * bounds[0]:.{digits}f}, {scale * bounds[1]:.{digits}f}]"

    def spread(figure, path):
        return [f"{t.mean:.1f} ± {t.sd:.1f}{interval(t.interval, 1)}{'*' if path in marks else ''}"
                for t, marks in zip((getattr(r, figure) for r in results), marked)]

    def percent(x):
        return f"{100 * x:.1f}%"

    rows = [["winning score (mean ± sd)", *spread("winning", "scores.winning")],
            ["losing score (mean ± sd)", *spread("losing", "scores.losing")]]
    wells = [True] * len(results) if wells is None else wells
    rows += [[f"points from {source}", *(percent(r.point_shares[source]) if well or source != "well" else "—"
                                         for r, well in zip(results, wells))]
             for source in SOURCES if source != "well" or any(wells)]
    rows += [["turns per game (mean ± sd)", *spread("turns", "length.turns")],
             ["placements per game (mean ± sd)", *spread("placements", "length.placements")]]
    rows += [[f"seat {seat + 1} wins", *(percent(r.seat_wins[seat]) + interval(r.seat_win_intervals[seat], 1, 100)
                                         + ("*" if f"seat_wins[{seat}]" in marks else "")
                                         for r, marks in zip(results, marked))] for seat in range(players)]
    rows += [[f"{name} per game", *(f"{r.happenings[name].mean:.2f}{interval(r.happenings[name].interval, 2)}"
                                    + ("*" if f"per_game.{key(name)}" in marks else "")
                                    for r, marks in zip(results, marked))] for name in PER_GAME]
    table = tabulate(rows, headers=["", *(r.ruleset for r in results)], tablefmt="simple",
                     colalign=("left", *("right" for _ in results)), disable_numparse=True)
    variant = f", with --set {', '.join(overrides)}" if overrides else ""
    how = (f"seats played by {', '.join(seats)}, rotating one seat per game" if seats
           else "every placement uniform among the legal ones")
    heading = (f"{games} {'' if seats else 'random '}game{'s' if games != 1 else ''} per ruleset{variant}, "
               f"{players} players, seed {seed} ({how}; a shared win counts for each winner in part); "
               "[95% confidence interval]")
    footer = (f"\n\n* differs from {results[0].ruleset} at the 95% level (z test)"
              if any(marked) else "")
    if seats:
        from ..study.results import agent_rows
        rows = [[ruleset, a.agent, a.games, f"{float(a.wins):g}", percent(a.win_rate) + interval(a.win_interval, 1, 100),
                 f"{a.scores.mean:.1f}{interval(a.scores.interval, 1)}"] for ruleset, a in agent_rows(results, seats)]
        footer += "\n\n" + tabulate(rows, headers=["ruleset", "agent", "seat-games", "wins", "win rate", "mean score"],
                                    tablefmt="simple", disable_numparse=True,
                                    colalign=("left", "left", "right", "right", "right", "right"))
    return f"{heading}\n\n{table}{footer}"


def _readings(ref: str, ruleset_id: str, players: int, games: int, seed: int, overrides, jobs: int,
              doc: dict | None) -> None:
    """How often each other reading of the ruleset's open rule points changes the simulated games (with
    --json, `doc` filled)."""
    from tabulate import tabulate

    from ..study.readings import simulate_readings
    from ..study.stats import wilson_interval

    progress = Progress(games)
    found = simulate_readings(ref, players, games, seed, overrides=overrides, jobs=jobs, progress=progress)
    progress.clear()
    if doc is not None:
        emit_json(with_problems({**doc, "ruleset": ruleset_id, "readings": [f.to_json() for f in found]}, []))
        return

    def percent(count: int) -> str:
        return f"{100 * count / games:.1f}%"

    say(f"{games} random game{'s' if games != 1 else ''} of {ruleset_id}, {players} players, seed {seed}"
        + (f", with --set {', '.join(overrides)}" if overrides else ""))
    if not found:
        say(f"{ruleset_id} has no open reading that applies to it (medina rules params lists them).")
        return
    for title, counts_of, against in (
            ("played as written, replayed placement by placement under each other reading", lambda f: f.counts,
             "the reading's"),
            ("played under each other reading (the same seeds), replayed as written", lambda f: f.reverse,
             "the written")):
        rows = []
        for f in sorted(found, key=lambda f: -counts_of(f)["changes_winner"]):
            counts = counts_of(f)
            low, high = wilson_interval(counts["changes_winner"], games)
            rows.append([f.label, percent(counts["changes_winner"]), f"{100 * low:.1f}–{100 * high:.1f}%",
                         percent(counts["changes_scores"]), percent(counts["illegal"]), percent(counts["unfinished"])])
        say()
        say(f"Games {title}:")
        say(tabulate(rows, headers=["reading", "changes the winner", "95% interval (Wilson)", "changes scores",
                                    f"illegal by {against} rules", "game unfinished"], tablefmt="simple",
                     disable_numparse=True, colalign=("left", "right", "right", "right", "right", "right")))
    say()
    say("illegal: some placement of the game breaks the rules it is replayed under (it could not have been played "
        "so);\ngame unfinished: replayed so, someone could still place at the end (winners are then the standings).")
