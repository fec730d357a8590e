"""`medina hint` and `medina analyse`: an agent's view of a position, or of every placement of a game."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from .common import (JsonOption, RulesetOption, SetOption, ToOption, capped_jobs, emit_json, replayed_or_exit, say,
                     shown_as, stop, usage_error, warn, warnings_to_show, whole_number, with_problems)
from .progress import Progress

FileArgument = Annotated[str, typer.Argument(
    metavar="FILE", parser=shown_as("path"), help="A record/1 file, or - for stdin.")]
AgentOption = Annotated[str, typer.Option(
    "--agent", "-a", metavar="SPEC", help="The agent that rates placements: mcts (searches until sure at 95%, at "
    "most 3,000 playouts per decision), mcts:N (at most N), mcts@C or mcts:N@C (sure at confidence C, e.g. 0.99), "
    "or greedy.")]
SeedOption = Annotated[int, typer.Option("--seed", "-s", metavar="N", help="Seed of the agent's choices.")]
JobsOption = Annotated[int, typer.Option("--jobs", "-j", metavar="N", parser=whole_number(1),
                                         help="Worker processes, at least 1, at most 4 per CPU (the result does not depend on it).")]
TopOption = Annotated[int, typer.Option("--top", "-k", metavar="K", parser=whole_number(1),
                                        help="How many placements to show.")]
WholeTurnOption = Annotated[bool, typer.Option(
    "--turn", help="Hint the whole turn: for each of the best first placements, the best second one after it, the "
    "pair rated together.")]


def agent_or_exit(spec: str, doc: dict | None = None):
    """The agent `spec` names; one that is unknown or rates no placements exits 2 (with --json, in `doc`)."""
    from ..agents import UnknownAgent, make_agent
    try:
        agent = make_agent(spec)
    except UnknownAgent as exc:
        usage_error("--agent", str(exc), doc)
    if not agent.rates:
        usage_error(f"--agent {spec}", "it does not rate placements; use greedy, mcts or mcts:N", doc)
    return agent


def run_analysis(record, spec: str, seed: int, jobs: int, scheduler: str | None = None,
                 doc: dict | None = None) -> dict:
    """The medina-analyse/1 document of a valid record, with a progress line on a terminal; `jobs` at
    most 4 per CPU, or on the Dask cluster at `scheduler` (one that cannot be used exits 2, with
    --json in `doc`)."""
    from ..agents.analysis import analysis_document
    from ..study.analysis import analyse
    from ..study.backend import StudyError
    from ..study.parallel import Workers
    bar = Progress(1, unit="placements")
    try:
        reviews = analyse(record, spec, seed=seed, workers=Workers(capped_jobs(jobs), scheduler, notify=bar.note),
                          progress=bar)
    except StudyError as exc:
        bar.clear()
        usage_error(None, str(exc), doc)
    bar.clear()
    return analysis_document(record, spec, seed, reviews)


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
    explain: Annotated[bool, typer.Option(
        "--explain", help="Say at length how to read the list (instead of its one legend line).")] = False,
) -> None:
    """The moves the agent prefers for the player to move, each with the agent's value. A roof (or
    neutral roof) is one move per palace, shown on its lowest cell with the palace it claims.

    With mcts each move leads with `win`, the share of the search's simulated games the mover wins
    (a shared win in part), and how far that is above or below an even game's equal share (1 in 2, 3
    or 4: "vs even"); then the margin, the final margin the mover can expect after the placement (own
    total minus the best other player's total, in points) with its 95% interval. The values rest on
    fresh searches of each move ("repeats"), listed highest margin first; a move is marked `= best`
    unless the best's lead over it (paired, on the same simulated games) is surely above half a point
    or its interval lies wholly below the first's; when more than half the moves are so tied, one
    line says so instead.
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
    record, outcome = replayed_or_exit(file, ruleset, set_, to, hint_document(shown, seed, agent.spec) if json_ else None)
    found = _advice(outcome, agent.spec, shown, seed, top, whole_turn, jobs)
    if json_:
        emit_json(with_problems(found, outcome.problems, warnings_to_show(outcome)))
    else:
        from ..render.verdicts import hint_text
        say(hint_text(found, f"{record.file} {outcome.position_words()}", explain))
    raise typer.Exit(1 if outcome.problems else 0)


def _advice(outcome, spec: str, shown: str, seed: int, top: int, whole_turn: bool, jobs: int) -> dict:
    """The medina-hint/1 document of the agent's advice for the position the replay `outcome` reached."""
    from ..agents.analysis import hint_document
    from ..study.analysis import advise_on
    from ..study.parallel import Workers
    advice = advise_on(outcome.game, spec, seed=seed, top=top, whole_turn=whole_turn, workers=Workers(capped_jobs(jobs)))
    return hint_document(shown, seed, spec, outcome.next_placement() or (None, None), advice)


def analyse(
    file: FileArgument,
    agent_spec: AgentOption = "mcts",
    jobs: JobsOption = 1,
    scheduler: Annotated[Optional[str], typer.Option(
        "--scheduler", metavar="ADDRESS", help="Rate the placements on the Dask distributed cluster whose scheduler "
        "is at ADDRESS (e.g. tcp://10.0.0.5:8786; needs `pip install '.[cluster]'`); the result is the same.")] = None,
    seed: SeedOption = 0,
    ruleset: RulesetOption = None,
    set_: SetOption = None,
    json_: JsonOption = False,
) -> None:
    """Rate every placement of a game: what was played, what the agent prefers, and the estimated
    loss (the agent's value of its preferred placement minus that of the placement played, in points
    of expected final margin, never below 0). With mcts both are played out on the same simulated
    games and the loss has its 95% interval; a placement is a mistake when the interval's lower end is
    5 points or more, a blunder when it is 12 or more (with greedy, the loss itself). Per player: the
    mean loss (with its interval), mistakes and blunders.

    Exit status: 0 done, 1 invalid record (nothing is analysed), 2 unusable input or usage error.
    """
    from ..agents.analysis import analysis_document_before

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
    analysis = run_analysis(record, agent.spec, seed, jobs, scheduler, doc)
    if doc is not None:
        emit_json(with_problems(analysis, [], warnings_to_show(outcome)))
        return
    from ..render.verdicts import analysis_text
    say(analysis_text(analysis))
