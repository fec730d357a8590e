"""`medina hint` and `medina analyse`: an agent's view of a position, or of every placement of a game."""

from __future__ import annotations

from typing import Annotated, NoReturn

import typer

from .common import (
    JsonOption,
    RulesetOption,
    SetOption,
    ToOption,
    cannot_write,
    capped_jobs,
    complete_player,
    emit_json,
    note_engine_cost,
    replayed_or_exit,
    say,
    shown_as,
    stop,
    usage_error,
    warn,
    warnings_to_show,
    whole_number,
    with_problems,
    write_output,
)
from .progress import Progress

FileArgument = Annotated[
    str,
    typer.Argument(
        metavar="FILE", parser=shown_as("path"), help="A record/1 file, or - for stdin."
    ),
]
AgentOption = Annotated[
    str,
    typer.Option(
        "--agent",
        "-a",
        metavar="SPEC",
        help="The agent that rates placements: mcts (searches until sure at 95%, at "
        "most 3,000 playouts per decision), mcts:N (at most N), mcts@C or mcts:N@C (sure at confidence C, e.g. 0.99), "
        "greedy, alphabeta (a paranoid alpha-beta search, about 0.25 s a decision) or alphabeta:D (D placements deep).",
    ),
]
SeedOption = Annotated[
    int, typer.Option("--seed", "-s", metavar="N", help="Seed of the agent's choices.")
]
JobsOption = Annotated[
    int,
    typer.Option(
        "--jobs",
        "-j",
        metavar="N",
        parser=whole_number(1),
        help="Worker processes, at least 1, at most 4 per CPU (the result does not depend on it).",
    ),
]
TopOption = Annotated[
    int,
    typer.Option(
        "--top", "-k", metavar="K", parser=whole_number(1), help="How many placements to show."
    ),
]
WholeTurnOption = Annotated[
    bool,
    typer.Option(
        "--turn",
        help="Hint the whole turn: for each of the best first placements, the best second one after it, the "
        "pair rated together.",
    ),
]


def agent_or_exit(spec: str, doc: dict | None = None):
    """The agent `spec` names; one that is unknown or rates no placements exits 2 (with --json, in `doc`)."""
    from ..agents import UnknownAgent, make_agent
    from ..agents.analysis import RATERS, rating_agent

    try:
        if not make_agent(spec).rates:
            usage_error(f"--agent {spec}", "it does not rate placements; use " + RATERS, doc)
        return rating_agent(spec)
    except UnknownAgent as exc:
        usage_error("--agent", str(exc), doc)


def run_analysis(
    record,
    spec: str,
    seed: int,
    jobs: int,
    scheduler: str | None = None,
    doc: dict | None = None,
    selection: tuple[dict, list[int]] | None = None,
    out: str | None = None,
    done: list | None = None,
    own_command: bool = True,
) -> dict:
    """The medina-analyse/1 document of a valid record's placements (`selection`, from
    `agents.analysis.select`: default all), with a progress line on a terminal, those `done` not rated
    again; `jobs` at most 4 per CPU, or on the Dask cluster at `scheduler` (one that cannot be used exits
    2, with --json in `doc`). `out`: a file the document is written to (atomically) before the first
    placement and after each, partial until the last; on Ctrl-C what is rated stays there and, for
    `medina analyse` itself (`own_command`), its table is printed and the exit is 130."""
    from ..agents.analysis import analysis_document
    from ..study.analysis import analyse
    from ..study.backend import StudyError
    from ..study.parallel import Workers

    chosen, indices = selection or ({}, None)
    selected = len(record.placements()) if indices is None else len(indices)
    reviews: list = list(done or [])

    def document(so_far: list) -> dict:
        return analysis_document(record, spec, seed, so_far, chosen, selected)

    def rated(so_far: list) -> None:
        reviews[:] = so_far
        if out is not None:
            save(out, document(so_far))

    if out is not None:  # so that Ctrl-C before the first placement is rated leaves one to resume
        save(out, document(reviews))
    bar = Progress(selected, unit="placements")
    bar(len(reviews))
    try:
        analyse(
            record,
            spec,
            seed=seed,
            workers=Workers(capped_jobs(jobs), scheduler, notify=bar.note),
            progress=bar,
            indices=indices,
            done=reviews,
            rated=rated,
        )
    except StudyError as exc:
        bar.clear()
        usage_error(None, str(exc), doc)
    except KeyboardInterrupt:
        bar.clear()
        if not own_command:
            raise
        interrupted(document(reviews), out, doc is not None)
    bar.clear()
    finished = document(reviews)
    if out is not None:
        save(out, finished)
    return finished


def save(path: str, doc: dict) -> None:
    """`doc` written to `path` atomically; failure exits 2."""
    import json
    from pathlib import Path

    from ..files import write_atomically

    try:
        write_atomically(Path(path), json.dumps(doc, indent=2, ensure_ascii=False) + "\n")
    except OSError as exc:
        cannot_write(path, exc)


def interrupted(partial: dict, out: str | None, json_: bool) -> NoReturn:
    """After Ctrl-C: the table of what is rated (not with --json), how much and where it is kept, exit
    130 (nothing rated: Ctrl-C as any command takes it)."""
    rated = len(partial["placements"])
    if not rated:
        raise KeyboardInterrupt  # said as for any command
    if not json_:
        from ..render.verdicts import analysis_text

        say(analysis_text(partial))
    kept = (
        f", kept in {out} (--resume goes on from them)"
        if out is not None
        else " (-o FILE.json would keep them)"
    )
    of = partial.get("partial", {}).get("of", rated)
    warn(f"medina analyse: interrupted: {rated} of {of} placements rated{kept}")
    raise typer.Exit(130)


def hint(
    file: FileArgument,
    to: ToOption = None,
    top: TopOption = 5,
    agent_spec: AgentOption = "mcts",
    whole_turn: WholeTurnOption = False,
    jobs: JobsOption = 1,
    seed: SeedOption = 0,
    ruleset: RulesetOption = None,
    set_: SetOption = None,
    json_: JsonOption = False,
    explain: Annotated[
        bool,
        typer.Option(
            "--explain", help="Say at length how to read the list (instead of its one legend line)."
        ),
    ] = False,
    line: Annotated[
        int,
        typer.Option(
            "--line",
            metavar="N",
            parser=whole_number(0),
            help="After the list, the line of best play: the first move listed, then N placements more, each the "
            "agent's choice (a search each).",
        ),
    ] = 0,
) -> None:
    """The moves the agent prefers for the player to move, each with the agent's value. A roof (or
    neutral roof) is one move per palace, shown on its lowest cell with the palace it claims.

    With mcts each move leads with `win`, the searches' chance that the mover wins (their mean reward
    after the move: a logistic of the margin, a shared win in part), and how far that is above or below
    an even game's equal share (1 in 2, 3 or 4); then its edge with its 95% interval: the final margin
    the mover can expect after the placement (own total minus the best other player's total, in points;
    --json's `value`) minus the margin an even game gives each player there (`even_margin`), so that 0
    reads as even. The values rest on replicated searches after each move ("repeats"), listed highest
    first; a move is marked `= best` unless the best's lead over it (paired replicate by replicate) is
    surely above half a point or its interval lies wholly below the first's; when more than half the
    moves are so tied, one line says so instead.
    With greedy the value is that margin if the game ended right after the placement (a roof on a
    palace smaller than five: the margin now minus 1), and the moves are ranked by it. With --turn
    each hint is a whole turn: a first placement, then the best second placement after it, rated as
    the pair; the two orders of placements that commute (reach the same position) are one entry.

    Exit status: 0 done, 1 invalid record (the hint is for where the replay stopped), 2 unusable input
    or usage error.
    """
    from ..agents.analysis import hint_document

    shown = "<stdin>" if file == "-" else file
    agent = agent_or_exit(agent_spec, hint_document(shown, seed) if json_ else None)
    record, outcome = replayed_or_exit(
        file, ruleset, set_, to, hint_document(shown, seed, agent.spec) if json_ else None
    )
    note_engine_cost()
    found = _advice(outcome, agent.spec, shown, seed, top, whole_turn, jobs)
    if line and found["hints"]:
        from ..agents.analysis import best_line

        first = found["hints"][0]
        opening = [first["placement"]] + ([first["then"]["placement"]] if first.get("then") else [])
        found["line"] = best_line(outcome.game, opening, agent.spec, seed, line)
    if json_:
        emit_json(with_problems(found, outcome.problems, warnings_to_show(outcome)))
    else:
        from ..render.verdicts import hint_text

        say(hint_text(found, f"{record.file} {outcome.position_words()}", explain))
    raise typer.Exit(1 if outcome.problems else 0)


def _advice(
    outcome, spec: str, shown: str, seed: int, top: int, whole_turn: bool, jobs: int
) -> dict:
    """The medina-hint/1 document of the agent's advice for the position the replay `outcome` reached."""
    from ..agents.analysis import hint_document
    from ..study.analysis import advise_on
    from ..study.parallel import Workers

    advice = advise_on(
        outcome.game,
        spec,
        seed=seed,
        top=top,
        whole_turn=whole_turn,
        workers=Workers(capped_jobs(jobs)),
    )
    return hint_document(shown, seed, spec, outcome.next_placement() or (None, None), advice)


def analyse(
    file: FileArgument,
    agent_spec: AgentOption = "mcts",
    jobs: JobsOption = 1,
    scheduler: Annotated[
        str | None,
        typer.Option(
            "--scheduler",
            metavar="ADDRESS",
            help="Rate the placements on the Dask distributed cluster whose scheduler "
            "is at ADDRESS (e.g. tcp://10.0.0.5:8786; needs `pip install '.[cluster]'`); the result is the same.",
        ),
    ] = None,
    seed: SeedOption = 0,
    ruleset: RulesetOption = None,
    set_: SetOption = None,
    json_: JsonOption = False,
    first: Annotated[
        int | None,
        typer.Option(
            "--from",
            metavar="TURN",
            parser=whole_number(1),
            help="Rate the placements from this turn on (default: the first).",
        ),
    ] = None,
    last: Annotated[
        int | None,
        typer.Option(
            "--to",
            metavar="TURN",
            parser=whole_number(1),
            help="Rate the placements up to this turn (default: the last).",
        ),
    ] = None,
    player: Annotated[
        str | None,
        typer.Option(
            "--player",
            "-p",
            metavar="NAME",
            autocompletion=complete_player,
            help="Rate only this player's placements.",
        ),
    ] = None,
    output: Annotated[
        str | None,
        typer.Option(
            "--output",
            "-o",
            metavar="FILE.json",
            help="Also write the medina-analyse/1 document here, rewritten after "
            "each placement (a partial document until the last): Ctrl-C keeps what is rated.",
        ),
    ] = None,
    resume: Annotated[
        bool,
        typer.Option(
            "--resume",
            help="Go on from the partial document in -o FILE.json (written with the same record, agent, "
            "seed and selection): the result is that of a run never interrupted.",
        ),
    ] = False,
    annotate: Annotated[
        str | None,
        typer.Option(
            "--annotate",
            metavar="OUT.yaml",
            help="Also write a copy of the record with the analysis in it (the key "
            "x-analysis, which every reader keeps and validate ignores; mistakes and blunders as comments above it); "
            "`medina view` of the copy shows it.",
        ),
    ] = None,
) -> None:
    """Rate every placement of a game: what was played, what the agent prefers, and the estimated
    loss (the agent's value of its preferred placement minus that of the placement played, in points
    of expected final margin, never below 0). With mcts both are played out on the same simulated
    games and the loss has its 95% interval; a placement is a mistake when the interval's lower end is
    5 points or more, a blunder when it is 12 or more (with greedy, the loss itself). Per player: the
    mean loss (with its interval), mistakes and blunders; placements counted as `validate` counts
    them, tea tiles apart. --from/--to/--player rate a part of the game; progress is shown per
    placement; Ctrl-C prints what is rated (and keeps it in -o FILE.json, which --resume finishes).

    Exit status: 0 done, 1 invalid record (nothing is analysed), 2 unusable input or usage error,
    130 interrupted.
    """
    from ..agents.analysis import analysis_document_before, select

    shown = "<stdin>" if file == "-" else file
    agent = agent_or_exit(agent_spec, analysis_document_before(shown, seed) if json_ else None)
    doc = analysis_document_before(shown, seed, agent.spec) if json_ else None
    record, outcome = replayed_or_exit(file, ruleset, set_, None, doc)
    if outcome.problems:
        if doc is not None:
            stop(outcome.problems, 1, doc)
        warn(f"{record.file}: not analysed: the record is invalid")
        raise typer.Exit(1)
    if scheduler is not None and jobs != 1:
        usage_error(None, "give either --jobs N or --scheduler ADDRESS, not both", doc)
    note_engine_cost()
    if player is not None and player not in record.players:
        usage_error(
            "--player",
            f"{player!r} does not play in {record.file} (its players: {', '.join(record.players)})",
            doc,
        )
    if first is not None and last is not None and first > last:
        usage_error("--from", f"turn {first} comes after --to {last}", doc)
    if first is not None and first > len(record.turns):
        usage_error(f"--from {first}", f"{record.file} has {len(record.turns)} turns", doc)
    selection = select(record, first, last, player)
    if selection[0] and not selection[1]:
        who = "" if player is None else f" by {player}"
        usage_error(
            None,
            f"{record.file} has no placement{who} in turns {first or 1} to {last or len(record.turns)} "
            f"(it has {len(record.turns)} turns)",
            doc,
        )
    done = _resumed(output, record, agent.spec, seed, selection[0], doc) if resume else []
    if output is not None and file != "-" and _same_file(output, file):
        usage_error(
            "--output", "refusing to overwrite the input file; choose another output file", doc
        )
    if done is None:  # the document is finished already
        import json

        with open(output, encoding="utf-8") as handle:  # type: ignore[arg-type]
            analysis = json.load(handle)
    else:
        analysis = run_analysis(
            record, agent.spec, seed, jobs, scheduler, doc, selection, output, done
        )
    if annotate is not None:
        from ..render.verdicts import annotated_record

        write_output(annotate, annotated_record(record.text, analysis), file)
    if doc is not None:
        emit_json(with_problems(analysis, [], warnings_to_show(outcome)))
        return
    from ..render.verdicts import analysis_text

    say(analysis_text(analysis))
    if output is not None and done is not None:  # (a finished document is left as it was)
        warn(f"wrote {output}")


def _same_file(a: str, b: str) -> bool:
    import os

    return os.path.exists(a) and os.path.exists(b) and os.path.samefile(a, b)


def _resumed(output: str | None, record, spec: str, seed: int, selection: dict, doc: dict | None):
    """The reviews of the partial document in `output` (None: it is finished); one that cannot be
    resumed exits 2."""
    import json

    from ..agents.analysis import resumed_reviews

    if output is None:
        usage_error("--resume", "give -o FILE.json, the partial document to go on from", doc)
    try:
        with open(output, encoding="utf-8") as handle:
            found = resumed_reviews(json.load(handle), record, spec, seed, selection)
    except (OSError, ValueError) as exc:
        usage_error(
            "--resume", f"cannot read {output}: {getattr(exc, 'strerror', None) or exc}", doc
        )
    if isinstance(found, str):
        usage_error("--resume", f"cannot go on from {output}: {found}", doc)
    return found
