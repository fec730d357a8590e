"""How much analyse's verdicts depend on the seed: the six examples analysed at default settings with
seed 0 and with seed 1 (or the `--seeds` given; the targets are measured on the first two).

Figures, beside their targets:
- agreement on the labelled placements: |A ∩ B| / |A ∪ B| over the (turn, placement, verdict) of every
  placement labelled a mistake or a blunder, A by seed 0 and B by seed 1 (target ≥ 90%), for all six
  examples together and for each;
- at every position, the first seed's preferred move is among the moves the second seed finds tied
  with its best (target: every position), with the positions where it is not.
Also the time each analysis took (`--jobs`, default 2; wall clock, with the machine's load) and the
verdicts and positions counted; with more than two seeds, the figures of every ordered pair.

    .venv/bin/python benchmarks/bench_stability.py [--jobs 2] [--agent mcts] [--seeds 0,1]
"""

from __future__ import annotations

import argparse
import itertools
import os
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def labelled(reviews) -> set[tuple[int, int, str]]:
    return {(r.turn, r.placement, r.verdict) for r in reviews if r.verdict}


def agreement(names: list[str], first: list, second: list) -> tuple[int, int, int, int, list[str]]:
    """(labelled by both, by either, positions, positions where the first's preferred move is among the
    second's ties, those positions named) for two seeds' reviews of the examples `names`."""
    both = either = positions = agreeing = 0
    missed = []
    for name, a_run, b_run in zip(names, first, second, strict=True):
        a_labels, b_labels = labelled(a_run), labelled(b_run)
        both, either = both + len(a_labels & b_labels), either + len(a_labels | b_labels)
        for a, b in zip(a_run, b_run, strict=True):
            positions += 1
            if a.best_move in b.tied_moves:
                agreeing += 1
            else:
                missed.append(
                    f"{name} {a.turn}.{a.placement}: the first prefers {a.best_move}, the second "
                    f"{b.best_move} and ties it with {len(b.tied_moves) - 1} other move(s)"
                )
    return both, either, positions, agreeing, missed


def seed_list(text: str) -> list[int]:
    """`--seeds`: two or more different whole numbers, comma-separated."""
    seeds = [int(seed) for seed in text.split(",")]
    if len(seeds) < 2 or len(set(seeds)) < len(seeds):
        raise ValueError(text)
    return seeds


def main() -> None:
    from common import machine_load

    from medina_cli.records.record import parse_record
    from medina_cli.study.analysis import analyse
    from medina_cli.study.parallel import Workers

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--agent", default="mcts")
    parser.add_argument(
        "--seeds",
        type=seed_list,
        default=[0, 1],
        help="two or more different seeds, comma-"
        "separated: the targets are measured on the first two; more add every other ordered pair",
    )
    args = parser.parse_args()
    seeds = args.seeds
    print(machine_load())
    runs = {seed: [] for seed in seeds}
    paths = sorted((ROOT / "examples").glob("*.yaml"))
    names = [path.name for path in paths]
    for path in paths:
        record = parse_record(path.read_text(encoding="utf-8"), str(path))
        for seed in seeds:
            wall = time.perf_counter()
            reviews = analyse(record, args.agent, seed=seed, workers=Workers(args.jobs))
            runs[seed].append(reviews)
            print(
                f"{path.name}, seed {seed}: {len(reviews)} placements in {time.perf_counter() - wall:.0f} s "
                f"(load {os.getloadavg()[0]:.1f}), {len(labelled(reviews))} labelled",
                flush=True,
            )
    first, second = seeds[:2]
    for name, a_run, b_run in zip(names, runs[first], runs[second], strict=True):
        both, either, *_ = agreement([name], [a_run], [b_run])
        print(
            f"  {name}: labelled by both seeds: {both} of {either}"
            + (f" ({both / either:.0%})" if either else " (none labelled)")
        )
    both, either, positions, agreeing, missed = agreement(names, runs[first], runs[second])
    share = both / either if either else 1.0
    print(
        f"\nseeds {first} and {second}: agreement on the labelled placements, six examples: {both} of {either} = "
        f"{share:.1%} (target ≥ 90%): {'met' if share >= 0.9 else 'NOT met'}"
    )
    print(
        f"seed {first}'s preferred move among seed {second}'s moves tied with its best: {agreeing} of {positions} "
        f"positions (target: all): {'met' if agreeing == positions else 'NOT met'}"
    )
    for line in missed:
        print("  " + line)
    if len(seeds) > 2:
        print(
            "\nevery ordered pair of seeds (first, second): labels agreeing; the first's preferred move among the "
            "second's ties"
        )
        for a, b in itertools.permutations(seeds, 2):
            both, either, positions, agreeing, missed = agreement(names, runs[a], runs[b])
            print(
                f"  {a}, {b}: {both} of {either} ({both / either if either else 1:.1%}); {agreeing} of {positions}"
            )
            for line in missed:
                print("    " + line)


if __name__ == "__main__":
    main()
