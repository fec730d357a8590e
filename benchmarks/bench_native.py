"""The native core beside the Python engine, in the same run (MEDINA_ENGINE switched in-process):

- random 4-player original-2001 games per second on one core, as `medina simulate` plays them
  (`study.games.play_one`: setup, the game, its statistics; target ≥ 15,000 native);
- random playouts per second from mid-game positions through the agents' own path (the search's
  copy of the position and `agents.position.playout`; target ≥ 30,000 native);
- seconds per `mcts:300` decision at 4-player mid-game positions (target ≤ 0.05 s native), and per
  decision of the default `mcts` (2,000 playouts; target ≤ 0.25 s native, the Python engine's stated);
- `medina validate` of simulated 4-player games, placements per second, wall clock (validation stays
  on the Python engine, which explains refusals: the figure must not fall below the Python engine's);
- cold start of `medina validate` on one record, wall clock (target ≤ 0.3 s with either engine);
- on the native core, `medina simulate --jobs 1` games per second once started (CPU time of the command
  beyond its start) beside the engine's games/s above (target ≥ 75%), and the wall clock of `medina
  simulate` of 2,000 games with and without `--out` (target: `--out` at most 2×).

Rates are CPU time of this process (the machine is shared: CPU time is what one free core would
take); the machine's load is printed first.
"""

from __future__ import annotations

import argparse
import os
import random
import tempfile
import time
from pathlib import Path

from common import best_wall_time, machine_load, out_cost, simulate_rate, write_games

RECORD = Path(__file__).resolve().parents[1] / "examples" / "original-2001-4p.yaml"


def engine(name: str) -> None:
    os.environ["MEDINA_ENGINE"] = name


def cpu(work) -> float:
    start = time.process_time()
    work()
    return time.process_time() - start


def games_per_second(games: int) -> float:
    from medina_cli.rules.loader import load_ruleset
    from medina_cli.study.games import play_one

    rules = load_ruleset("original-2001").for_players(4)
    return games / cpu(lambda: [play_one(rules, 7, index) for index in range(games)])


def mid_game_positions(count: int, depth: int = 40) -> list:
    import medina_cli as medina
    from medina_cli.engine.playout import random_setup

    rules = medina.load_ruleset("original-2001", players=4)
    out = []
    for seed in range(count):
        rng = random.Random(seed)
        game = medina.Game(rules, [f"P{i + 1}" for i in range(4)], *random_setup(rules, rng))
        for _ in range(depth):
            legal = game.legal_placements()
            game.push(legal[rng.randrange(len(legal))])
        out.append(game)
    return out


def playouts_per_second(games: list, playouts: int) -> float:
    from medina_cli.agents.position import playout, search_position
    from medina_cli.engine.native import generator

    rng = generator("bench-native")
    positions = [search_position(game, rng) for game in games]

    def run():
        for i in range(playouts):
            playout(positions[i % len(positions)].copy(), rng)

    return playouts / cpu(run)


def mcts_decision(games: list, spec: str) -> tuple[float, float]:
    """(mean, max) CPU seconds of one decision of the agent `spec` at each of `games`."""
    from medina_cli.agents import make_agent

    times = [
        cpu(lambda seed=seed, game=game: make_agent(spec, seed).choose(game))
        for seed, game in enumerate(games)
    ]
    return sum(times) / len(times), max(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games", type=int, default=400, help="Python engine games (native: 25 times as many)"
    )
    parser.add_argument(
        "--playouts",
        type=int,
        default=300,
        help="Python engine playouts (native: 50 times as many)",
    )
    parser.add_argument("--positions", type=int, default=6)
    parser.add_argument(
        "--repeats", type=int, default=6, help="validate runs timed per engine (the best counts)"
    )
    parser.add_argument("--validate-games", type=int, default=300, help="simulated games validated")
    parser.add_argument(
        "--simulate-games", type=int, default=20_000, help="games of the timed simulate --jobs 1"
    )
    args = parser.parse_args()
    print(machine_load())
    games = mid_game_positions(args.positions)
    rows = []
    for name in ("python", "native"):
        engine(name)
        rows.append(
            [
                name,
                games_per_second(args.games * (25 if name == "native" else 1)),
                playouts_per_second(games, args.playouts * (50 if name == "native" else 1)),
                *mcts_decision(games, "mcts:300"),
                *mcts_decision(games, "mcts"),
            ]
        )
    # the wall-clock figures alternate the engines, one run at a time, so that both meet the same load
    validate, cold = {"python": [], "native": []}, {"python": [], "native": []}
    with tempfile.TemporaryDirectory() as folder:
        placements = write_games(Path(folder), args.validate_games, seed=2024)
        for _ in range(args.repeats):
            for name in ("python", "native"):
                engine(name)
                validate[name].append(placements / best_wall_time(["validate", folder], 1))
                cold[name].append(best_wall_time(["validate", str(RECORD)], 1))
    for row in rows:
        row += [max(validate[row[0]]), min(cold[row[0]])]
    print(
        f"{'engine':8} {'games/s':>10} {'playouts/s':>11} {'mcts:300 s (max)':>17} {'mcts s (max)':>15} "
        f"{'validate pl./s':>15} {'cold start s':>13}"
    )
    for (
        name,
        games_rate,
        playout_rate,
        mean,
        worst,
        default_mean,
        default_worst,
        validate,
        cold,
    ) in rows:
        print(
            f"{name:8} {games_rate:10,.0f} {playout_rate:11,.0f} {mean:10.3f} ({worst:.3f}) "
            f"{default_mean:8.3f} ({default_worst:.3f}) {validate:15,.0f} {cold:13.3f}"
        )
    print(
        "targets (native): games/s >= 15,000; playouts/s >= 30,000; mcts:300 <= 0.05 s; mcts <= 0.25 s; validate "
        ">= the Python engine's; cold start <= 0.3 s"
    )
    engine("native")
    command = simulate_rate(args.simulate_games, args.repeats)
    engine_rate = rows[1][1]
    print(
        f"simulate --jobs 1, once started: {command:,.0f} games/s, {command / engine_rate:.0%} of the engine's "
        f"{engine_rate:,.0f} (target >= 75%)"
    )
    plain, out = out_cost(2000, args.repeats)
    print(
        f"simulate of 2,000 games: {plain:.2f} s, with --out {out:.2f} s: {out / plain:.2f}x (target <= 2x)"
    )


if __name__ == "__main__":
    main()
