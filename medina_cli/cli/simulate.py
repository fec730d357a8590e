"""`medina simulate`: statistics of random legal games, one ruleset or several side by side."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from .common import (
    JsonOption,
    SetOption,
    capped_jobs,
    complete_ruleset,
    complete_rulesets,
    emit_json,
    load_or_exit,
    names_or_exit,
    note_engine_cost,
    say,
    stop,
    usage_error,
    warn,
    whole_number,
    with_problems,
)
from .progress import Progress, played_or_exit, quiet_dask_logs

OneRulesetOption = Annotated[
    str | None,
    typer.Option(
        "--ruleset",
        "-r",
        metavar="ID|PATH",
        autocompletion=complete_ruleset,
        help="The ruleset to play (a built-in id or a ruleset YAML file). Give this or --rulesets.",
    ),
]
RulesetsOption = Annotated[
    str | None,
    typer.Option(
        "--rulesets",
        metavar="A,B,...",
        autocompletion=complete_rulesets,
        help="Several rulesets, comma-separated: the same seeds under each, statistics side by side. Give this or "
        "--ruleset.",
    ),
]
PlayersOption = Annotated[
    int,
    typer.Option("--players", "-p", metavar="N", parser=whole_number(1), help="Players per game."),
]
GamesOption = Annotated[
    int,
    typer.Option(
        "--games", "-g", metavar="N", parser=whole_number(1), help="Games per ruleset, at least 1."
    ),
]
SeedOption = Annotated[
    int, typer.Option("--seed", "-s", metavar="N", help="Seed: the same seed plays the same games.")
]
OutOption = Annotated[
    str | None,
    typer.Option(
        "--out",
        "-o",
        metavar="DIR",
        help="Write every game as it finishes into DIR, a round of games to a file: "
        "its statistics and its moves, which --write-records makes a record/1 file (not with --set: a record "
        "cannot carry the overrides).",
    ),
]
WriteRecordsOption = Annotated[
    str | None,
    typer.Option(
        "--write-records",
        metavar="GAME,...|all",
        help="Play nothing: write these finished games of the study in "
        "--out DIR as record/1 files (DIR/GAME.yaml, with their result), each named by its ruleset and "
        "number, e.g. original-2001-0017, comma-separated, or all; the study's folder says the rest (no "
        "other option needed).",
    ),
]
ResumeOption = Annotated[
    bool,
    typer.Option(
        "--resume",
        help="Finish the study in --out DIR after an interruption: play only the games missing "
        "there (the options must be the study's own).",
    ),
]
JobsOption = Annotated[
    int,
    typer.Option(
        "--jobs",
        "-j",
        metavar="N",
        parser=whole_number(1),
        help="Worker processes on this machine, at least 1, at most 4 per CPU "
        "(the games do not depend on it).",
    ),
]
SchedulerOption = Annotated[
    str | None,
    typer.Option(
        "--scheduler",
        metavar="ADDRESS",
        help="Play the games on the Dask distributed cluster whose scheduler "
        "is at ADDRESS (tcp://HOST:PORT, e.g. tcp://10.0.0.5:8786; tls:// with certificates in Dask's "
        "configuration); needs Dask: pip install '.[cluster]' in medina-cli's checkout.",
    ),
]
WorkerWaitOption = Annotated[
    int,
    typer.Option(
        "--worker-wait",
        metavar="SECONDS",
        parser=whole_number(0),
        envvar="MEDINA_WORKER_WAIT",
        help="With --scheduler: how long the cluster may go without any worker (none joined yet, or all were "
        "lost) before the study stops with exit 2, finished games kept in --out; the wait is said at once.",
    ),
]
ReadingsOption = Annotated[
    bool,
    typer.Option(
        "--readings",
        help="Replay every game under each other reading of the ruleset's open rule points "
        "(medina rules params lists them), and play it under each reading and replay it as written; count how "
        "often the reading changes the winner (with a 95% interval) or the game's legality; with --ruleset "
        "only.",
    ),
]
AgentsOption = Annotated[
    str | None,
    typer.Option(
        "--agents",
        metavar="A,B,...",
        help="Who plays: one agent per seat (random, greedy, mcts or mcts:N); "
        "the seats rotate over the games, so every agent plays every seat equally often (over a multiple of "
        "the player count). Adds each agent's games, wins, win rate and mean score. Default: all random.",
    ),
]


def simulate_command(
    ruleset: OneRulesetOption = None,
    rulesets: RulesetsOption = None,
    set_: SetOption = None,
    players: PlayersOption = 4,
    games: GamesOption = 1000,
    seed: SeedOption = 1,
    out: OutOption = None,
    resume: ResumeOption = False,
    jobs: JobsOption = 1,
    scheduler: SchedulerOption = None,
    worker_wait: WorkerWaitOption = 60,
    readings: ReadingsOption = False,
    agents: AgentsOption = None,
    write_records: WriteRecordsOption = None,
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
    workers for --worker-wait seconds), 130 interrupted (finished games stay in --out; without --out, the
    statistics of the games finished so far are printed).
    """
    if write_records is not None:
        _write_records(out, write_records, json_)
        return
    overrides = tuple(set_ or ())
    doc = _skeleton(readings, players, games, seed, overrides) if json_ else None
    jobs, seats = _checked(
        ruleset, rulesets, overrides, out, resume, jobs, scheduler, readings, agents, players, doc
    )
    if any(seat.startswith("mcts") for seat in seats):
        note_engine_cost()
    refs, loaded = _loaded(ruleset, rulesets, overrides, players, doc)
    if readings:
        assert ruleset is not None, "--readings goes with --ruleset (_checked)"
        _readings(ruleset, loaded[0].id, players, games, seed, overrides, jobs, doc)
    else:
        study, folder = _study(refs, loaded, players, games, seed, out, resume, seats, doc)
        results = _played(
            study,
            players,
            folder,
            (jobs, scheduler, worker_wait),
            out,
            doc,
            lambda results: _show(results, loaded, study, players, overrides, doc),
        )
        _show(results, loaded, study, players, overrides, doc)


def _write_records(out: str | None, names: str, json_: bool) -> None:
    """The games `names` names (or all) of the study in `out` written as record/1 files there, their paths
    said (with --json, in a medina-simulate-records/1 document); exit 2 for a folder without a study or a
    game it has not finished."""
    from ..errors import Problem
    from ..study.backend import StudyRefused
    from ..study.folder import StudyFolder

    doc: dict[str, Any] | None = (
        {"format": "medina-simulate-records/1", "folder": out, "records": []} if json_ else None
    )
    if out is None:
        usage_error(None, "--write-records needs --out DIR: the folder of the study", doc)
    wanted = None if names.strip() == "all" else set(names_or_exit(names, "--write-records", doc))
    try:
        written = StudyFolder.opened(out).write_records(wanted)
    except (StudyRefused, ValueError) as exc:
        usage_error("--write-records", str(exc), doc)
    except OSError as exc:
        stop(
            [
                Problem(
                    "cannot-write", f"cannot write: {exc.strerror or exc}", file=exc.filename or out
                )
            ],
            2,
            doc,
        )
    if doc is not None:
        emit_json(with_problems({**doc, "records": [str(path) for path in written]}, []))
    else:
        say("\n".join(str(path) for path in written))


def _skeleton(readings: bool, players: int, games: int, seed: int, overrides) -> dict:
    """The --json document before any game is played (where a usage error goes)."""
    from ..study.readings import readings_json
    from ..study.results import simulate_json

    return (readings_json if readings else simulate_json)(players, games, seed, overrides)


def _show(results, loaded, study, players: int, overrides, doc: dict | None) -> None:
    """The statistics of the study's games: the --json document (`doc` given), or the tables."""
    if doc is not None:
        from ..study.results import simulate_json

        emit_json(
            with_problems(
                simulate_json(players, study.games, study.seed, overrides, results, study.seats), []
            )
        )
    else:
        from ..render.statistics import statistics_report

        wells = [r.for_players(players).well.enabled for r in loaded]
        games = min(r.games for r in results)  # (fewer than asked for after Ctrl-C)
        say(
            statistics_report(
                results, players, games, study.seed, overrides, study.seats, wells=wells
            )
        )


def _checked(
    ruleset, rulesets, overrides, out, resume, jobs, scheduler, readings, agents, players, doc
) -> tuple[int, tuple[str, ...]]:
    """The options that do not go together refused (exit 2; with --json, in `doc`); `--jobs` as capped, and the
    seats' agents (`--agents`, checked; none: uniform random play)."""
    if ruleset is None and rulesets is None:
        usage_error(
            "medina simulate", "needs --ruleset ID or --rulesets A,B,... (one of them)", doc
        )
    if ruleset is not None and rulesets is not None:
        usage_error(
            "medina simulate", "give either --ruleset ID or --rulesets A,B,..., not both", doc
        )
    if out is not None and overrides:
        usage_error(
            None,
            "--out cannot go with --set: a record/1 file names its ruleset but cannot carry --set "
            "overrides, so the records would not validate; write the overrides into a ruleset file "
            "(extends: ID) and give it with --ruleset",
            doc,
        )
    if resume and out is None:
        usage_error(None, "--resume needs --out DIR: the folder of the study to finish", doc)
    if scheduler is not None and jobs != 1:
        usage_error(
            None,
            "give either --jobs N (processes on this machine) or --scheduler ADDRESS (a cluster), "
            "not both",
            doc,
        )
    jobs = capped_jobs(jobs)
    if readings and (ruleset is None or out is not None or resume or scheduler is not None):
        usage_error(
            None,
            "--readings goes with --ruleset ID (one ruleset, against its own open readings), not with "
            "--rulesets, --out, --resume or --scheduler",
            doc,
        )
    if readings and agents is not None:
        usage_error(None, "--readings replays random games; it does not take --agents", doc)
    return jobs, (_seats(agents, players, doc) if agents is not None else ())


def _loaded(ruleset, rulesets, overrides, players: int, doc: dict | None) -> tuple[list[str], list]:
    """The rulesets named (by --ruleset, or by --rulesets) and each loaded; one that cannot be, or does not take
    `players`, exits 2 (with --json, in `doc`)."""
    from ..errors import Problem

    refs = [ruleset] if ruleset is not None else names_or_exit(rulesets, "--rulesets", doc)
    option = "--ruleset" if ruleset is not None else "--rulesets"
    loaded = []
    for ref in refs:
        loaded.append(load_or_exit(ref, overrides, doc=doc, option=option))
        refusal = loaded[-1].players_refusal(players, ref)
        if refusal:
            stop(
                [
                    Problem(
                        "unsupported-player-count", f"{refusal} (--players {players})", file=option
                    )
                ],
                2,
                doc,
            )
    return refs, loaded


def _played(
    study, players: int, folder, where: tuple[int, str | None, float], out, doc: dict | None, show
) -> list:
    """The statistics of the study played on the workers `where` says (jobs, scheduler, worker wait) with a
    progress line, finished games written into `folder` (and said); a study that cannot go on exits 2 (130
    when interrupted: without a folder, after `show(statistics)` of the games finished so far)."""
    from ..study.parallel import Workers
    from ..study.simulate import fresh_results, simulate

    quiet_dask_logs(where[1])
    progress = Progress(study.games * len(study.parts))
    workers = Workers(*where, progress.note)
    results = fresh_results(study, players)

    def play():
        try:
            return simulate(
                study,
                players,
                workers=workers,
                folder=folder,
                progress=progress,
                notify=progress.note,
                results=results,
            )
        except KeyboardInterrupt:
            if folder is not None or not any(r.games for r in results):
                raise  # (what is finished stays in --out, for --resume)
            progress.clear()
            show(results)
            warn(
                "interrupted: the statistics above are of the games finished so far ("
                + ", ".join(f"{r.ruleset}: {r.games} of {study.games}" for r in results)
                + ")"
            )
            raise typer.Exit(130) from None

    results = played_or_exit(play, progress, lambda: _kept(folder, progress), out, doc)
    if folder is not None:
        warn(
            f"wrote {progress.finished - progress.first} games to {out}"
            + (f" ({progress.first} were there already)" if progress.first else "")
        )
    return results


def _seats(agents: str, players: int, doc: dict | None) -> tuple[str, ...]:
    """The --agents specs, one per seat, spelled canonically (`MCTS:200` is `mcts:200`); a wrong count or an
    unknown agent is a usage error (with --json, in `doc`)."""
    from ..agents import UnknownAgent, parse_spec

    specs = names_or_exit(agents, "--agents", doc)
    if len(specs) != players:
        usage_error(
            f"--agents {agents}",
            f"give one agent per seat, {players} for --players {players}, not {len(specs)}",
            doc,
        )
    try:
        return tuple(str(parse_spec(spec)) for spec in specs)
    except UnknownAgent as exc:
        usage_error("--agents", str(exc), doc)


def _kept(folder, progress) -> str:
    if folder is None:
        return ""
    return (
        f": {progress.finished} of {progress.total} games are finished in {folder.path}; the same command "
        "with --resume plays the rest"
    )


def _study(refs, loaded, players, games, seed, out, resume, seats=(), doc: dict | None = None):
    """The study, and its output folder (started or resumed) when --out is given; an unusable folder
    exits 2 (with --json, in `doc`)."""
    from pathlib import Path

    from ..errors import Problem
    from ..records.model import ruleset_ref_from
    from ..study.backend import StudyError
    from ..study.folder import StudyFolder, options_of
    from ..study.runner import Part, Study

    rules = [r.for_players(players) for r in loaded]
    if out is None:
        return Study(
            tuple(Part(r.id, rule) for r, rule in zip(loaded, rules, strict=True)),
            games,
            seed,
            seats,
        ), None
    if len({r.id for r in loaded}) != len(loaded):
        usage_error(
            "--out",
            "two of the rulesets have the same id, so their records would overwrite each other",
            doc,
        )
    try:
        Path(out).mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        stop(
            [
                Problem(
                    "cannot-write",
                    f"cannot create the output directory: {exc.strerror or exc}",
                    file=out,
                )
            ],
            2,
            doc,
        )
    study = Study(
        tuple(
            Part(r.id, rule, ruleset_ref_from(out, ref))
            for ref, r, rule in zip(refs, loaded, rules, strict=True)
        ),
        games,
        seed,
        seats,
    )
    folder = StudyFolder(out, study)
    options = options_of(study, players, [r.params for r in loaded])
    try:
        folder.resume(options) if resume else folder.start(options)
    except StudyError as exc:
        usage_error(None, str(exc), doc)
    except OSError as exc:
        stop(
            [
                Problem(
                    "cannot-write",
                    f"cannot write the study: {exc.strerror or exc}",
                    file=exc.filename or out,
                )
            ],
            2,
            doc,
        )
    return study, folder


def _readings(
    ref: str,
    ruleset_id: str,
    players: int,
    games: int,
    seed: int,
    overrides,
    jobs: int,
    doc: dict | None,
) -> None:
    """How often each other reading of the ruleset's open rule points changes the simulated games (with
    --json, `doc` filled)."""
    from ..render.statistics import readings_report
    from ..study.readings import readings_json, simulate_readings

    progress = Progress(games)
    found = simulate_readings(
        ref, players, games, seed, overrides=overrides, jobs=jobs, progress=progress
    )
    progress.clear()
    if doc is not None:
        emit_json(
            with_problems(readings_json(players, games, seed, overrides, ruleset_id, found), [])
        )
    else:
        say("\n".join(readings_report(found, ruleset_id, players, games, seed, overrides)))
