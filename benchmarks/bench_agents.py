"""The agents: speed from mid-game positions, and strength shown with 95% intervals.

Speed (4-player original-2001, positions 40 placements into random games): playouts per second
(uniform random, and the MCTS playout policy), and the seconds per MCTS decision at the default
budget (target < 2 s), wall clock and CPU time: the machine may be shared, and CPU time is what one
free core would take. Then `medina analyse examples/original-2001-4p.yaml --jobs 2` at the default
budget, wall clock (target < 2 minutes).

Strength, as `medina simulate --agents` plays it (seed 1; seats rotating so that every agent plays
every seat equally often; win rates with Wilson intervals): greedy + 3 random and mcts:200 + 3 greedy in
4-player original-2001 (a fair share is 25%), mcts:200 against greedy in the 2014 two-player game
(fair: 50%).
"""

from __future__ import annotations

import argparse
import random
import subprocess
import time
from pathlib import Path

from common import compile_package, medina_command

ROOT = Path(__file__).resolve().parents[1]
MATCHES = (("original-2001", 4, ("greedy", "random", "random", "random"), 200),
           ("original-2001", 4, ("mcts:200", "greedy", "greedy", "greedy"), 16),
           ("second-edition-2014", 2, ("mcts:200", "greedy"), 16))


def mid_game_positions(ref: str, players: int, count: int, depth: int = 40) -> list:
    import medina_cli as medina
    from medina_cli.agents import make_agent
    from medina_cli.engine.playout import random_setup

    rules = medina.load_ruleset(ref, players=players)
    out = []
    for seed in range(count):
        game = medina.Game(rules, [f"P{i + 1}" for i in range(players)], *random_setup(rules, random.Random(seed)))
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
    from medina_cli.agents.mcts import DEFAULT_PLAYOUTS
    from medina_cli.agents.position import playout
    from medina_cli.engine.playout import play_out

    games = mid_game_positions("original-2001", 4, positions)
    rng = random.Random(1)

    def uniform(game):
        play_out(game, rng)

    for name, play in (("uniform random", uniform), ("mcts policy", lambda game: playout(game, rng))):
        cycle = iter(range(10 ** 9))
        calls, wall, cpu = timed(lambda: play(games[next(cycle) % len(games)].copy()))
        print(f"{name} playouts from mid-game, 4p original-2001: {calls / wall:,.0f}/s wall, {calls / cpu:,.0f}/s CPU")
    walls, cpus = [], []
    for seed, game in enumerate(games):
        agent = make_agent("mcts", seed)
        wall, cpu = time.perf_counter(), time.process_time()
        agent.choose(game)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    print(f"mcts decision ({DEFAULT_PLAYOUTS} playouts), 4p original-2001 mid-game, {len(games)} positions: "
          f"{sum(walls) / len(walls):.2f} s wall (max {max(walls):.2f}), {sum(cpus) / len(cpus):.2f} s CPU "
          f"(max {max(cpus):.2f}); {len(walls) / sum(walls):.2f} decisions/s wall (target < 2 s per decision)")


def analyse_time() -> None:
    import resource
    compile_package()
    wall = time.perf_counter()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([*medina_command(), "analyse", str(ROOT / "examples" / "original-2001-4p.yaml"), "--jobs", "2",
                    "--json"], check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    print(f"medina analyse examples/original-2001-4p.yaml --jobs 2 (default budget): "
          f"{time.perf_counter() - wall:.0f} s wall, {cpu:.0f} s CPU in all its processes, so about "
          f"{cpu / 2:.0f} s on two free cores (target < 120 s)")


def strength(jobs: int, scale: float) -> None:
    from medina_cli.rules.loader import load_ruleset
    from medina_cli.study.results import agent_rows
    from medina_cli.study.parallel import Workers
    from medina_cli.study.runner import Part, Study
    from medina_cli.study.simulate import simulate

    for ref, players, seats, games in MATCHES:
        games = max(players, round(games * scale) // players * players)
        rules = load_ruleset(ref).for_players(players)
        wall = time.perf_counter()
        results = simulate(Study((Part(ref, rules),), games, 1, seats), players, workers=Workers(jobs))
        wall = time.perf_counter() - wall
        words = "; ".join(f"{a.agent} wins {a.win_rate:.1%} [{a.win_interval[0]:.1%}, {a.win_interval[1]:.1%}] "
                          f"of {a.games} seat-games, mean score {a.scores.mean:.1f}"
                          for _, a in agent_rows(results, seats))
        print(f"{ref} {players}p, {' + '.join(seats)}: {games} games ({wall:.0f} s, {jobs} jobs): {words}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=12, help="mid-game positions for the speed figures")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--scale", type=float, default=1.0, help="play this share of the strength games")
    parser.add_argument("--skip", choices=("speed", "analyse", "strength"), action="append", default=[])
    args = parser.parse_args()
    if "speed" not in args.skip:
        speed(args.positions)
    if "analyse" not in args.skip:
        analyse_time()
    if "strength" not in args.skip:
        strength(args.jobs, args.scale)


if __name__ == "__main__":
    main()
