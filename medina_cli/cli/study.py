"""`medina study`: rulesets compared under play by agents, written as a report (Markdown, HTML, JSON)."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Annotated

import typer

from ..errors import Problem
from .common import (
    JsonOption,
    capped_jobs,
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

RulesetsOption = Annotated[
    str,
    typer.Option(
        "--rulesets",
        metavar="A,B,...",
        autocompletion=complete_rulesets,
        help="The rulesets to compare, comma-separated: built-in ids or ruleset files (house rules).",
    ),
]
OutOption = Annotated[
    str,
    typer.Option(
        "--out",
        "-o",
        metavar="DIR",
        help="The study's folder: every game as it finishes (a folder per player "
        "count and setup, as simulate --out writes them), then the report: report.md, report.html (charts "
        "inline), report.json.",
    ),
]
PlayersOption = Annotated[
    str,
    typer.Option(
        "--players",
        "-p",
        metavar="N[,M]",
        help="Players per game; several counts comma-separated (each ruleset "
        "at each count it takes).",
    ),
]
AgentsOption = Annotated[
    str,
    typer.Option(
        "--agents",
        metavar="A,B,...",
        help="The agents, weakest first (random, greedy, mcts, mcts:N, mcts:N@C): "
        "each plays against itself, and each against the one before it (one seat of it, the other seats of "
        "that one).",
    ),
]
GamesOption = Annotated[
    int,
    typer.Option(
        "--games",
        "-g",
        metavar="N",
        parser=whole_number(1),
        help="Games per ruleset, player count and setup.",
    ),
]
SeedOption = Annotated[
    int, typer.Option("--seed", "-s", metavar="N", help="Seed: the same seed plays the same games.")
]
ResumeOption = Annotated[
    bool,
    typer.Option(
        "--resume",
        help="Finish the study in --out DIR after an interruption (the options must be its own).",
    ),
]
SoFarOption = Annotated[
    bool,
    typer.Option(
        "--so-far",
        help="Play nothing: write the report of the games finished in --out so far (the study must be "
        "there, with these options); it says that the study is incomplete and how many games each figure rests "
        "on.",
    ),
]
JobsOption = Annotated[
    int,
    typer.Option(
        "--jobs",
        "-j",
        metavar="N",
        parser=whole_number(1),
        help="Worker processes on this machine (the games do not depend on it).",
    ),
]
SchedulerOption = Annotated[
    str | None,
    typer.Option(
        "--scheduler",
        metavar="ADDRESS",
        help="Play the games on the Dask cluster whose scheduler is at ADDRESS.",
    ),
]
ReportOption = Annotated[
    str | None,
    typer.Option(
        "--report",
        metavar="FILE.md",
        help="Also write the Markdown report to FILE.md, its charts in the folder FILE beside it.",
    ),
]
TitleOption = Annotated[
    str | None,
    typer.Option(
        "--title", metavar="TEXT", help="The report's title (default: Study of A, B, ...)."
    ),
]


def study_command(
    rulesets: RulesetsOption,
    out: OutOption,
    players: PlayersOption = "4",
    agents: AgentsOption = "random,greedy,mcts",
    games: GamesOption = 200,
    seed: SeedOption = 1,
    resume: ResumeOption = False,
    so_far: SoFarOption = False,
    jobs: JobsOption = 1,
    scheduler: SchedulerOption = None,
    report: ReportOption = None,
    title: TitleOption = None,
    json_: JsonOption = False,
) -> None:
    """Compare rulesets under play by agents: seat advantage, the winner's margin, game length, points
    by source and how much skill pays, each with its 95% interval and what differs significantly.
    Resumable like simulate --out: after an interruption the same command with --resume plays only
    the missing games.

    Exit status: 0 done, 2 usage error (a ruleset that cannot be loaded or takes none of the player
    counts, an unknown agent, an unusable --out, a --resume whose options differ, a lost cluster),
    130 interrupted (finished games stay in --out).
    """
    doc = {"format": "medina-study-report/1", "errors": [], "warnings": []} if json_ else None
    if scheduler is not None and jobs != 1:
        usage_error(None, "give either --jobs N or --scheduler ADDRESS, not both", doc)
    boards = _boards(names_or_exit(rulesets, "--rulesets", doc), _counts(players, doc), out, doc)
    specs = _agents(agents, doc)
    note_engine_cost()
    document = _play(
        boards, specs, games, seed, out, resume, so_far, capped_jobs(jobs), scheduler, doc
    )
    document["command"] = shlex.join(
        [
            "medina",
            "study",
            "--rulesets",
            rulesets,
            "--players",
            players,
            "--agents",
            agents,
            "--games",
            str(games),
            "--seed",
            str(seed),
            "--out",
            out,
        ]
        + (["--report", report] if report else [])
        + (["--title", title] if title else [])
    )
    title = title or f"Study of {', '.join(dict.fromkeys(board.part.ruleset for board in boards))}"
    written = _written(document, out, title, report, doc)
    if doc is not None:
        emit_json(with_problems({**document, **doc}, []))
    else:
        say("\n".join(str(path) for path in written))


def _written(document: dict, out: str, title: str, report: str | None, doc: dict | None) -> list:
    """The report written into `out` (and to `report`): the files written; one that cannot be exits 2."""
    from ..render.study import write_report

    try:
        return write_report(document, Path(out), title, None if report is None else Path(report))
    except OSError as exc:
        stop(
            [
                Problem(
                    "cannot-write",
                    f"cannot write the report: {exc.strerror or exc}",
                    file=exc.filename or out,
                )
            ],
            2,
            doc,
        )


def _play(boards, specs, games, seed, out, resume, so_far, jobs, scheduler, doc) -> dict:
    """The study played (or finished; with `so_far`, as it stands) in `out`, as its report document; a
    study that cannot go on exits 2 (130 when interrupted), its finished games kept."""
    from ..study.parallel import Workers
    from ..study.report import study_report
    from .progress import Progress, played_or_exit, quiet_dask_logs

    quiet_dask_logs(scheduler)
    progress = Progress(games * len(boards) * (2 * len(specs) - 1))
    found = played_or_exit(
        lambda: study_report(
            boards,
            specs,
            games,
            seed,
            Path(out),
            resume=resume,
            play=not so_far,
            progress=progress,
            notify=progress.note,
            calibrate=True,
            workers=Workers(jobs, scheduler, notify=progress.note),
        ),
        progress,
        lambda: "" if so_far else _kept(out, progress),
        out,
        doc,
    )
    return found.to_json()


def _kept(out: str, progress) -> str:
    return (
        f": {progress.finished} of {progress.total} games are finished in {out}; the same command with "
        "--resume plays the rest"
    )


def _counts(players: str, doc: dict | None) -> list[int]:
    counts = names_or_exit(players, "--players", doc)
    if not all(count.isdigit() and int(count) >= 1 for count in counts):
        usage_error(f"--players {players}", "give whole numbers ≥ 1, comma-separated", doc)
    return list(dict.fromkeys(int(count) for count in counts))


def _agents(agents: str, doc: dict | None) -> list[str]:
    from ..agents import UnknownAgent, parse_spec

    try:
        return list(
            dict.fromkeys(str(parse_spec(spec)) for spec in names_or_exit(agents, "--agents", doc))
        )
    except UnknownAgent as exc:
        usage_error("--agents", str(exc), doc)


def _boards(refs: list[str], counts: list[int], out: str, doc: dict | None) -> list:
    """Every ruleset at each player count it takes (said for those it does not take)."""
    from ..records.model import ruleset_ref_from
    from ..study.report import Board, board_label
    from ..study.runner import Part

    boards = []
    for ref in refs:
        ruleset = load_or_exit(ref, doc=doc, option="--rulesets")
        taken = [count for count in counts if not ruleset.players_refusal(count, ref)]
        if not taken:
            usage_error(
                f"--rulesets {ref}",
                f"{ruleset.players_refusal(counts[0], ref)} (--players "
                f"{','.join(map(str, counts))})",
                doc,
            )
        for count in set(counts) - set(taken):
            warn(
                f"--rulesets {ref}: not at {count} players ({ruleset.players_refusal(count, ref)})"
            )
        named = ruleset_ref_from(
            Path(out) / "setup", ref
        )  # the records lie in a folder per setup below --out
        boards += [
            Board(
                board_label(ruleset.id, count),
                count,
                Part(ruleset.id, ruleset.for_players(count), named),
                ruleset.params,
            )
            for count in taken
        ]
    boards.sort(key=lambda board: counts.index(board.players))
    if len({(b.part.ruleset, b.players) for b in boards}) != len(boards):
        usage_error(
            "--rulesets",
            "two of the rulesets have the same id, so their records would overwrite each other",
            doc,
        )
    return boards
