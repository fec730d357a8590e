"""The agents: speed from mid-game positions, and a strength ladder with 95% intervals.

Speed (4-player original-2001, positions 40 placements into random games): playouts per second
(uniform random, and the MCTS playout policy), and the seconds per decision of the default mcts
(it stops once sure, at most at its cap of playouts), with how often it was sure and the playouts
it spent, wall clock and CPU time: the machine may be shared, and CPU time is what one free core
would take. Then `medina analyse examples/original-2001-4p.yaml --jobs 2` at the default settings,
wall clock (target ≤ 2 minutes), and `medina hint` at one of its positions on one and two processes.

The ladder, as benchmarks/bench_strength.py plays its matches (seed 1; shared setups, the default
mcts in every seat of each): the default mcts against mcts:300 and against greedy, one seat of it
against the others, in the 2014 two-player game (a fair share is 50%) and in 4-player original-2001
(one mcts seat, three of the other: a fair share is 25%). Each line gives the default mcts's win
rate with its Wilson interval beside the fair share, its Elo and its mean score margin, with their
intervals.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import time
from pathlib import Path

from common import compile_package, medina_command

ROOT = Path(__file__).resolve().parents[1]
LADDER = (  # (ruleset, players, the default mcts against, games)
    ("second-edition-2014", 2, "mcts:300", 100),
    ("second-edition-2014", 2, "greedy", 100),
    ("original-2001", 4, "mcts:300", 100),
    ("original-2001", 4, "greedy", 100),
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
    from medina_cli.agents import make_agent
    from medina_cli.agents.mcts import DEFAULT_CONFIDENCE, DEFAULT_PLAYOUTS
    from medina_cli.agents.position import playout
    from medina_cli.engine.playout import play_out

    games = mid_game_positions("original-2001", 4, positions)
    rng = random.Random(1)

    def uniform(game):
        play_out(game, rng)

    for name, play in (
        ("uniform random", uniform),
        ("mcts policy", lambda game: playout(game, rng)),
    ):
        cycle = iter(range(10**9))
        calls, wall, cpu = timed(
            lambda play=play, cycle=cycle: play(games[next(cycle) % len(games)].copy())
        )
        print(
            f"{name} playouts from mid-game, 4p original-2001: {calls / wall:,.0f}/s wall, {calls / cpu:,.0f}/s CPU"
        )
    walls, cpus, sure, playouts = [], [], 0, 0
    for seed, game in enumerate(games):
        agent = make_agent("mcts", seed)
        wall, cpu = time.perf_counter(), time.process_time()
        race = agent.search(game)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
        sure += race.sure
        playouts += race.playouts
    print(
        f"mcts decision (sure at {DEFAULT_CONFIDENCE:g}, at most {DEFAULT_PLAYOUTS} playouts), 4p original-2001 "
        f"mid-game, {len(games)} positions: {sum(walls) / len(walls):.2f} s wall (max {max(walls):.2f}), "
        f"{sum(cpus) / len(cpus):.2f} s CPU (max {max(cpus):.2f}); sure in {sure} of {len(games)}, "
        f"{playouts / len(games):,.0f} playouts on average (target < 2 s per decision)"
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

    for ref, players, against, games in LADDER:
        games = max(players, round(games * scale) // players * players)
        match = Match("mcts", against, ref, players, games)
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
