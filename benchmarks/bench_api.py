"""The engine as a search would use it: random playouts to the end from mid-game positions (played
per second), and the cost of `Game.copy()` as a share of one playout (target ≤ 5%).

Mid-game positions: a random game is played to its end and then popped back to half its placements
(so `pop` is exercised too). Each playout starts from a copy of such a position. Times are the CPU
time of this process (other load on the machine disturbs them less than wall-clock time); copy()
is the best of five batches."""

from __future__ import annotations

import argparse
import random
import time

import medina_cli as medina
from medina_cli.engine.playout import play_out, random_setup

COMBOS = [
    ("original-2001", 4),
    ("original-2001", 3),
    ("second-edition-2014", 2),
    ("second-edition-2014", 4),
]


def midgame(rules, rng: random.Random) -> medina.Game:
    merchant, well = random_setup(rules, rng)
    game = medina.Game(rules, [f"P{seat}" for seat in range(1, rules.players + 1)], merchant, well)
    play_out(game, rng)
    for _ in range(len(game.move_stack) - len(game.move_stack) // 2):
        game.pop()
    return game


def timed(work) -> float:
    start = time.process_time()
    work()
    return time.process_time() - start


def measure(ruleset: str, players: int, positions: int, playouts: int, copies: int) -> None:
    rules = medina.load_ruleset(ruleset, players=players)
    rng = random.Random(f"bench-api/{ruleset}/{players}")
    playout_time = copy_time = 0.0
    placements = 0
    for _ in range(positions):
        position = midgame(rules, rng)
        copy_time += (
            min(
                timed(lambda position=position: [position.copy() for _ in range(copies)])
                for _ in range(5)
            )
            / copies
        )
        for _ in range(playouts):
            game = position.copy()
            playout_time += timed(lambda game=game: play_out(game, rng))
            placements += len(game.move_stack) - len(position.move_stack)
    per_playout = playout_time / (positions * playouts)
    per_copy = copy_time / positions
    print(
        f"{ruleset} {players}p: {1 / per_playout:,.0f} playouts/s from mid-game "
        f"({per_playout * 1e3:.2f} ms each, {placements / (positions * playouts):.0f} placements); "
        f"copy() {per_copy * 1e6:.1f} µs = {per_copy / per_playout:.1%} of a playout (target ≤ 5%)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", type=int, default=20, help="mid-game positions per ruleset")
    parser.add_argument("--playouts", type=int, default=10, help="playouts from each position")
    parser.add_argument("--copies", type=int, default=200, help="copies timed per position")
    args = parser.parse_args()
    for ruleset, players in COMBOS:
        measure(ruleset, players, args.positions, args.playouts, args.copies)


if __name__ == "__main__":
    main()
