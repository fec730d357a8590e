"""`medina hint` and `medina analyse`: an agent's view of a position, or of every placement of a game."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from .common import (JsonOption, RulesetOption, SetOption, ToOption, emit_json, load_record, replay_to, report_replay,
                     say, shown_as, warn, whole_number)

FileArgument = Annotated[str, typer.Argument(
    metavar="FILE", parser=shown_as("path"), help="A record/1 file, or - for stdin.")]
AgentOption = Annotated[str, typer.Option(
    "--agent", "-a", metavar="SPEC", help="The agent that rates placements: mcts (300 playouts per decision), "
    "mcts:N (N playouts) or greedy.")]
SeedOption = Annotated[int, typer.Option("--seed", "-s", metavar="N", help="Seed of the agent's choices.")]
JobsOption = Annotated[int, typer.Option("--jobs", "-j", metavar="N", parser=whole_number(1),
                                         help="Worker processes, at least 1 (the result does not depend on it).")]


def agent_or_exit(spec: str):
    from ..agents import UnknownAgent, make_agent
    try:
        agent = make_agent(spec)
    except UnknownAgent as exc:
        warn(f"--agent: {exc}")
        raise typer.Exit(2)
    if not agent.rates:
        warn(f"--agent {spec}: it does not rate placements; use greedy, mcts or mcts:N")
        raise typer.Exit(2)
    return agent


def run_analysis(record, spec: str, seed: int, jobs: int) -> dict:
    """The medina-analyse/1 document of a valid record, with a progress bar on a terminal."""
    from ..agents.analysis import analyse, analysis_document
    from .simulate import Progress
    bar = Progress(1, sys.stderr.isatty(), unit="placements")

    def advance(done: int, total: int) -> None:
        bar.total = total
        bar(done)
    reviews = analyse(record, spec, seed=seed, jobs=jobs, progress=advance)
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
    """The best placements for the player to move, best first, each with the agent's value.

    With mcts the value is the final margin the mover can expect after the placement (own total
    minus the best other player's total, in points, averaged over the search's simulated games) and
    `win` the share of those games the mover wins; with greedy it is that margin if the game ended
    right after the placement.

    Exit status: 0 done, 1 invalid record (the hint is for where the replay stopped), 2 unusable input
    or usage error.
    """
    from ..agents.analysis import hints, value_meaning

    agent = agent_or_exit(agent_spec)
    record = load_record(file, ruleset, set_)
    outcome = replay_to(record, to)
    report_replay(outcome)
    if outcome.game is None:
        raise typer.Exit(1)
    game = outcome.game
    status = 1 if outcome.problems else 0
    player = game.to_move
    turn, placement = outcome.next_placement() or (None, None)
    rated = [] if player is None else hints(game, agent.spec, seed=seed, top=top)
    if json_:
        emit_json({"format": "medina-hint/1", "file": record.file, "agent": agent.spec, "seed": seed,
                   "player": player, "turn": turn, "placement": placement,
                   "value": value_meaning(agent.spec), "hints": [r.to_json() for r in rated]})
        raise typer.Exit(status)
    if player is None:
        say(f"{record.file} {outcome.position_words()}: the game is over; nobody can place anything.")
        raise typer.Exit(status)
    say(f"{record.file} {outcome.position_words()}: {player} to move, placement {placement} of turn {turn}; "
        f"agent {agent.spec}, seed {seed}")
    say(f"(value: {value_meaning(agent.spec)})")
    width = max(len(str(r.placement)) for r in rated)
    for rank, r in enumerate(rated, 1):
        line = f"{rank:>3}. {str(r.placement):<{width}}  {r.value:+7.1f}"
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

    agent = agent_or_exit(agent_spec)
    record = load_record(file, ruleset, set_)
    outcome = replay_to(record, None)
    report_replay(outcome)
    if outcome.problems:
        warn(f"{record.file}: not analysed: the record is invalid")
        raise typer.Exit(1)
    doc = run_analysis(record, agent.spec, seed, jobs)
    if json_:
        emit_json(doc)
        return
    from tabulate import tabulate
    say(f"{record.file}: every placement rated by {agent.spec}, seed {seed}")
    say(f"(loss: the agent's value of its preferred placement minus that of the one played; value: {doc['value']}; "
        f"? a mistake, loss ≥ {MISTAKE:g}; ?? a blunder, loss ≥ {BLUNDER:g})")
    rows = [[f"{r['turn']}.{r['placement']}", r["player"], r["played"], r["best"], f"{r['loss']:.1f}",
             "??" if r["loss"] >= BLUNDER else "?" if r["loss"] >= MISTAKE else ""] for r in doc["placements"]]
    say(tabulate(rows, headers=["turn", "player", "played", "preferred", "loss", ""], tablefmt="simple",
                 disable_numparse=True, colalign=("right", "left", "left", "left", "right", "left")))
    say()
    say(tabulate([[p["player"], p["placements"], f"{p['mean_loss']:.2f}", p["mistakes"], p["blunders"]]
                  for p in doc["players"]],
                 headers=["player", "placements", "mean loss", "mistakes", "blunders"], tablefmt="simple",
                 disable_numparse=True, colalign=("left", "right", "right", "right", "right")))
