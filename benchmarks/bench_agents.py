"""The agents: speed from mid-game positions, and a strength ladder with 95% intervals.

Speed (4-player original-2001, positions 40 placements into random games): playouts per second
(uniform random, and turn 3's playout policy), and the seconds per decision of the default mcts, of
alphabeta and of turn 3's default (the baseline, `turn3` in bench_strength.py), CPU time (what one
free core would take: the machine may be shared) and wall clock. Then `medina analyse
examples/original-2001-4p.yaml --jobs 2` at the default settings, wall clock (target ≤ 2 minutes),
and `medina hint` at one of its positions on one and two processes.

The ladder (`LADDER`), as benchmarks/bench_strength.py plays its matches (seed 1; shared setups, A in
every seat of each, B in the others): the default mcts against turn 3's default (2014 two-player games,
a fair share of 50%, and 4-player original-2001, one mcts against three, a fair share of 25%) and
against alphabeta, then alphabeta > greedy > random, and the budget ladder (each doubling of the
default's 2,000 playouts, from a quarter to four times it, against the step below). Each line gives
A's win rate with its Wilson interval beside the fair share, its Elo and its mean score margin, with
their intervals. All of it takes hours on two cores: `--scale` plays a share of the games.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import time
from pathlib import Path

from common import compile_package, medina_command

ROOT = Path(__file__).resolve().parents[1]
LADDER = (  # (ruleset, players, A, B, games): the figures, A in one seat, B in the others
    ("second-edition-2014", 2, "mcts", "turn3", 400),
    ("original-2001", 4, "mcts", "turn3", 200),
    ("second-edition-2014", 2, "mcts", "alphabeta", 200),
    ("second-edition-2014", 2, "alphabeta", "greedy", 100),
    ("second-edition-2014", 2, "greedy", "random", 100),
    # the budget ladder: each doubling of the default's budget against the step below
    ("second-edition-2014", 2, "mcts:1000", "mcts:500", 200),
    ("second-edition-2014", 2, "mcts", "mcts:1000", 200),
    ("second-edition-2014", 2, "mcts:4000", "mcts", 200),
    ("second-edition-2014", 2, "mcts:8000", "mcts:4000", 200),
)


def mid_game_positions(ref: str, players: int, count: int, depth: int = 40) -> list:
    import medina_cli as medina
    from medina_cli.agents import make_agent
    from medina_cli.engine.playout import random_setup

    rules = medina.load_ruleset(ref, players=players)
    out = []
    for seed in range(count):
        game = medina.Game(
            rules, [f"P{i + 1}" for i in range(players)], *random_setup(rules, random.Random(seed))
        )
        agent = make_agent("random", seed)
        for _ in range(depth):
            game.push(agent.choose(game))
        out.append(game)
    return out


def timed(run, seconds: float = 3.0) -> tuple[int, float, float]:
    """Call run() until `seconds` have passed: (calls, wall seconds, CPU seconds)."""
    calls, wall, cpu = 0, time.perf_counter(), time.process_time()
    while time.perf_counter() - wall < seconds:
        run()
        calls += 1
    return calls, time.perf_counter() - wall, time.process_time() - cpu


def speed(positions: int) -> None:
    from bench_strength import agent_of

    from medina_cli.agents.position import playout
    from medina_cli.agents.search import DEFAULT_PLAYOUTS
    from medina_cli.engine import native
    from medina_cli.engine.playout import play_out

    games = mid_game_positions("original-2001", 4, positions)
    rng = random.Random(1)

    def uniform(game):
        play_out(game, rng)

    for name, play in (
        ("uniform random", uniform),
        ("turn 3's mcts policy", lambda game: playout(game, rng)),
    ):
        cycle = iter(range(10**9))
        calls, wall, cpu = timed(
            lambda play=play, cycle=cycle: play(games[next(cycle) % len(games)].copy())
        )
        print(
            f"{name} playouts from mid-game, 4p original-2001: {calls / wall:,.0f}/s wall, {calls / cpu:,.0f}/s CPU"
        )
    for spec, target in (("mcts", 0.25), ("alphabeta", 0.25), ("turn3", None)):
        walls, cpus = [], []
        for seed, game in enumerate(games):
            agent = agent_of(spec, str(seed))
            wall, cpu = time.perf_counter(), time.process_time()
            agent.choose(game)
            walls.append(time.perf_counter() - wall)
            cpus.append(time.process_time() - cpu)
        budget = f" ({DEFAULT_PLAYOUTS:,} playouts)" if spec == "mcts" else ""
        print(
            f"{spec}{budget} decision, 4p original-2001 mid-game, {len(games)} positions, "
            f"{native.engine_name()} engine: {sum(cpus) / len(cpus):.3f} s CPU on average "
            f"(max {max(cpus):.3f}), {sum(walls) / len(walls):.3f} s wall"
            + (f" (target ≤ {target} s CPU)" if target else " (the baseline)")
        )


def command_time(*args: str) -> tuple[float, float]:
    """(wall clock, CPU in all its processes) of one `medina` command."""
    import resource

    wall = time.perf_counter()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([*medina_command(), *args], check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (
        time.perf_counter() - wall,
        after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime,
    )


def analyse_time() -> None:
    compile_package()
    example = str(ROOT / "examples" / "original-2001-4p.yaml")
    wall, cpu = command_time("analyse", example, "--jobs", "2", "--json")
    print(
        f"medina analyse examples/original-2001-4p.yaml --jobs 2 (default budget): "
        f"{wall:.0f} s wall, {cpu:.0f} s CPU in all its processes, so about "
        f"{cpu / 2:.0f} s on two free cores (target < 120 s)"
    )
    for jobs in ("1", "2"):
        wall, cpu = command_time("hint", example, "--to", "12", "--jobs", jobs, "--json")
        print(
            f"medina hint examples/original-2001-4p.yaml --to 12 --jobs {jobs}: {wall:.1f} s wall, {cpu:.1f} s CPU"
        )


def strength(jobs: int, scale: float) -> None:
    from bench_strength import Match

    from medina_cli.study.parallel import Workers

    for ref, players, a, b, games in LADDER:
        games = max(players, round(games * scale) // players * players)
        match = Match(a, b, ref, players, games)
        wall = time.perf_counter()
        match.run(Workers(jobs))
        print(
            f"{ref} {players}p ({time.perf_counter() - wall:.0f} s, {jobs} jobs): {match.line()}",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--positions", type=int, default=12, help="mid-game positions for the speed figures"
    )
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument(
        "--scale", type=float, default=1.0, help="play this share of the strength games"
    )
    parser.add_argument(
        "--skip", choices=("speed", "analyse", "strength"), action="append", default=[]
    )
    args = parser.parse_args()
    if "speed" not in args.skip:
        speed(args.positions)
    if "analyse" not in args.skip:
        analyse_time()
    if "strength" not in args.skip:
        strength(args.jobs, args.scale)


if __name__ == "__main__":
    main()
