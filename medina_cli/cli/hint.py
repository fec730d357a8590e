"""`medina hint` and `medina analyse`: an agent's view of a position, or of every placement of a game."""

from __future__ import annotations

from typing import Annotated

import typer

from .common import (JsonOption, RulesetOption, SetOption, ToOption, capped_jobs, emit_json, replayed_or_exit, say,
                     shown_as, stop, usage_error, warn, warnings_to_show, whole_number, with_problems)
from .progress import Progress

FileArgument = Annotated[str, typer.Argument(
    metavar="FILE", parser=shown_as("path"), help="A record/1 file, or - for stdin.")]
AgentOption = Annotated[str, typer.Option(
    "--agent", "-a", metavar="SPEC", help="The agent that rates placements: mcts (300 playouts per decision), "
    "mcts:N (N playouts) or greedy.")]
SeedOption = Annotated[int, typer.Option("--seed", "-s", metavar="N", help="Seed of the agent's choices.")]
JobsOption = Annotated[int, typer.Option("--jobs", "-j", metavar="N", parser=whole_number(1),
                                         help="Worker processes, at least 1, at most 4 per CPU (the result does not depend on it).")]


def agent_or_exit(spec: str, doc: dict | None = None):
    """The agent `spec` names; one that is unknown or rates no placements exits 2 (with --json, in `doc`,
    which then names it)."""
    from ..agents import UnknownAgent, make_agent
    try:
        agent = make_agent(spec)
    except UnknownAgent as exc:
        usage_error("--agent", str(exc), doc)
    if not agent.rates:
        usage_error(f"--agent {spec}", "it does not rate placements; use greedy, mcts or mcts:N", doc)
    if doc is not None:
        from ..agents.analysis import value_meaning
        doc.update(agent=agent.spec, value=value_meaning(agent.spec))
    return agent


def run_analysis(record, spec: str, seed: int, jobs: int) -> dict:
    """The medina-analyse/1 document of a valid record, with a progress line on a terminal; `jobs` at
    most 4 per CPU."""
    from ..agents.analysis import analysis_document
    from ..study.analysis import analyse
    from ..study.parallel import Workers
    bar = Progress(1, unit="placements")
    reviews = analyse(record, spec, seed=seed, workers=Workers(capped_jobs(jobs)), progress=bar)
    bar.clear()
    return analysis_document(record, spec, seed, reviews)


def hint(
    file: FileArgument,
    to: ToOption = None,
    top: Annotated[int, typer.Option("--top", "-k", metavar="K", parser=whole_number(1),
                                     help="How many placements to show.")] = 5,
    agent_spec: AgentOption = "mcts",
    seed: SeedOption = 0,
    ruleset: RulesetOption = None,
    set_: SetOption = None,
    json_: JsonOption = False,
) -> None:
    """The moves the agent prefers for the player to move, each with the agent's value. A roof (or
    neutral roof) is one move per palace, shown on its lowest cell with the palace it claims.

    With mcts the value is the final margin the mover can expect after the placement (own total
    minus the best other player's total, in points, averaged over the search's simulated games) and
    `win` the share of those games the mover wins; the moves are ranked by playouts, the most searched
    (the search's choice) first. With greedy the value is that margin if the game ended right after
    the placement, and the moves are ranked by it.

    Exit status: 0 done, 1 invalid record (the hint is for where the replay stopped), 2 unusable input
    or usage error.
    """
    from ..agents.analysis import RANKING_MEANING, hints, value_meaning

    doc = {"format": "medina-hint/1", "file": "<stdin>" if file == "-" else file, "agent": None, "seed": seed,
           "player": None, "turn": None, "placement": None, "value": None, "ranked_by": None, "hints": []
           } if json_ else None
    agent = agent_or_exit(agent_spec, doc)
    record, outcome = replayed_or_exit(file, ruleset, set_, to, doc)
    game = outcome.game
    status = 1 if outcome.problems else 0
    player = game.to_move
    turn, placement = outcome.next_placement() or (None, None)
    rated = [] if player is None else hints(game, agent.spec, seed=seed, top=top)
    if doc is not None:
        emit_json(with_problems({**doc, "player": player, "turn": turn, "placement": placement,
                                 "ranked_by": agent.ranked_by, "hints": [r.to_json() for r in rated]},
                                outcome.problems, warnings_to_show(outcome)))
        raise typer.Exit(status)
    if player is None:
        say(f"{record.file} {outcome.position_words()}: the game is over; nobody can place anything.")
        raise typer.Exit(status)
    say(f"{record.file} {outcome.position_words()}: {player} to move, placement {placement} of turn {turn}; "
        f"agent {agent.spec}, seed {seed}")
    say(f"(value: {value_meaning(agent.spec)})")
    say(f"(ranked by {agent.ranked_by}, {RANKING_MEANING[agent.ranked_by]})")
    names = [str(r.placement) if r.palace is None else f"{r.placement} ({r.palace[0]} palace: {' '.join(r.palace[1])})"
             for r in rated]
    width = max(map(len, names))
    for rank, (r, name) in enumerate(zip(rated, names), 1):
        line = f"{rank:>3}. {name:<{width}}  {r.value:+7.1f}"
        if r.win is not None:
            line += f"   win {100 * r.win:5.1f}%   ({r.playouts} playouts)"
        say(line)
    raise typer.Exit(status)


def analyse(
    file: FileArgument,
    agent_spec: AgentOption = "mcts",
    jobs: JobsOption = 1,
    seed: SeedOption = 0,
    ruleset: RulesetOption = None,
    set_: SetOption = None,
    json_: JsonOption = False,
) -> None:
    """Rate every placement of a game: what was played, what the agent prefers, and the estimated
    loss (the agent's value of its preferred placement minus that of the placement played, in points
    of expected final margin, never below 0). Per player: the mean loss, mistakes (a loss of 5 points
    or more) and blunders (12 or more).

    Exit status: 0 done, 1 invalid record (nothing is analysed), 2 unusable input or usage error.
    """
    from ..agents.analysis import BLUNDER, MISTAKE

    doc = {"format": "medina-analyse/1", "file": "<stdin>" if file == "-" else file, "agent": None, "seed": seed,
           "value": None, "thresholds": {"mistake": MISTAKE, "blunder": BLUNDER}, "placements": [], "players": []
           } if json_ else None
    agent = agent_or_exit(agent_spec, doc)
    record, outcome = replayed_or_exit(file, ruleset, set_, None, doc)
    if outcome.problems:
        if doc is not None:
            stop(outcome.problems, 1, doc)
        warn(f"{record.file}: not analysed: the record is invalid")
        raise typer.Exit(1)
    analysis = run_analysis(record, agent.spec, seed, jobs)
    if doc is not None:
        emit_json(with_problems(analysis, [], warnings_to_show(outcome)))
        return
    from tabulate import tabulate
    say(f"{record.file}: every placement rated by {agent.spec}, seed {seed}")
    say(f"(loss: the agent's value of its preferred placement minus that of the one played; "
        f"value: {analysis['value']}; a mistake: loss ≥ {MISTAKE:g}; a blunder: loss ≥ {BLUNDER:g})")
    rows = [[f"{r['turn']}.{r['placement']}", r["player"], r["played"], r["best"], f"{r['loss']:.1f}",
             "blunder" if r["loss"] >= BLUNDER else "mistake" if r["loss"] >= MISTAKE else ""] for r in analysis["placements"]]
    say(tabulate(rows, headers=["turn", "player", "played", "preferred", "loss", "verdict"], tablefmt="simple",
                 disable_numparse=True, colalign=("right", "left", "left", "left", "right", "left")))
    say()
    say(tabulate([[p["player"], p["placements"], f"{p['mean_loss']:.2f}", p["mistakes"], p["blunders"]]
                  for p in analysis["players"]],
                 headers=["player", "placements", "mean loss", "mistakes", "blunders"], tablefmt="simple",
                 disable_numparse=True, colalign=("left", "right", "right", "right", "right")))
