"""The agents: speed from mid-game positions, and strength shown with 95% intervals.

Speed (4-player original-2001, positions 40 placements into random games): uniform random playouts
per second, the MCTS playouts per second, and the seconds per MCTS decision at the default budget
(target < 2 s), wall clock and CPU time (the machine may be shared: CPU time is what one free core
would take). Then `medina analyse examples/original-2001-4p.yaml --jobs 2` at the default budget,
wall clock (target < 2 minutes).

Strength (`medina simulate --agents`, seats rotating so that every agent plays every seat equally
often; win rates with Wilson intervals): greedy + 3 random and mcts:200 + 3 greedy in 4-player
original-2001 (a fair share is 25%), mcts:200 against greedy in the 2014 two-player game (fair: 50%).
"""

from __future__ import annotations

import argparse
import random
import subprocess
import time

from common import ROOT, compile_package, medina_command

POSITIONS = 12


def mid_game_positions(ref: str, players: int, count: int, depth: int = 40) -> list:
    from medina_cli.agents.position import new_game_from, random_move, apply_move
    from medina_cli.engine.playout import random_setup
    from medina_cli.rules.loader import load_ruleset

    rules = load_ruleset(ref).for_players(players)
    out = []
    for seed in range(count):
        rng = random.Random(seed)
        game = new_game_from(rules, [f"P{i + 1}" for i in range(players)], *random_setup(rules, rng))
        for _ in range(depth):
            apply_move(game, random_move(game, rng))
        out.append(game)
    return out


def speed() -> None:
    from medina_cli.agents import make_agent
    from medina_cli.agents.mcts import DEFAULT_PLAYOUTS
    from medina_cli.agents.position import apply_move, playout, random_move

    positions = mid_game_positions("original-2001", 4, POSITIONS)
    rng = random.Random(1)
    for name, play in (("uniform random", lambda g: _uniform(g, rng)), ("mcts playout policy",
                                                                        lambda g: playout(g, rng))):
        runs = 0
        wall, cpu = time.perf_counter(), time.process_time()
        while time.perf_counter() - wall < 3:
            for game in positions:
                play(game.copy())
                runs += 1
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        print(f"{name} playouts from mid-game (4p original-2001): {runs / wall:.0f}/s wall, {runs / cpu:.0f}/s CPU")
    walls, cpus = [], []
    for seed, game in enumerate(positions):
        agent = make_agent("mcts", seed)
        wall, cpu = time.perf_counter(), time.process_time()
        agent.choose(game)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    print(f"mcts ({DEFAULT_PLAYOUTS} playouts) decision, 4p mid-game, {len(walls)} positions: "
          f"mean {sum(walls) / len(walls):.2f} s wall (max {max(walls):.2f}), "
          f"{sum(cpus) / len(cpus):.2f} s CPU (max {max(cpus):.2f}); {len(walls) / sum(walls):.2f} decisions/s "
          "(target < 2 s per decision)")
    del apply_move, random_move


def _uniform(game, rng) -> None:
    from medina_cli.agents.position import apply_move, random_move
    while not game.is_over():
        apply_move(game, random_move(game, rng))


def analyse_time() -> None:
    compile_package()
    wall = time.perf_counter()
    subprocess.run([*medina_command(), "analyse", str(ROOT / "examples" / "original-2001-4p.yaml"), "--jobs", "2",
                    "--json"], check=True, stdout=subprocess.DEVNULL)
    print(f"medina analyse examples/original-2001-4p.yaml --jobs 2 (default budget): "
          f"{time.perf_counter() - wall:.0f} s wall (target < 120 s)")
