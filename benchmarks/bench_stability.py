"""How much analyse's verdicts depend on the seed: the six examples analysed at default settings with
seed 0 and with seed 1.

Figures, beside their targets:
- agreement on the labelled placements: |A ∩ B| / |A ∪ B| over the (turn, placement, verdict) of every
  placement labelled a mistake or a blunder, A by seed 0 and B by seed 1 (target ≥ 90%), for all six
  examples together and for each;
- at every position, the first seed's preferred move is among the moves the second seed finds tied
  with its best (target: every position), with the positions where it is not.
Also the time each analysis took (`--jobs`, default 2; wall clock, with the machine's load) and the
verdicts and positions counted.

    .venv/bin/python benchmarks/bench_stability.py [--jobs 2] [--agent mcts]
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def labelled(reviews) -> set[tuple[int, int, str]]:
    return {(r.turn, r.placement, r.verdict) for r in reviews if r.verdict}


def main() -> None:
    from common import machine_load
    from medina_cli.records.record import parse_record
    from medina_cli.study.analysis import analyse
    from medina_cli.study.parallel import Workers

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--agent", default="mcts")
    args = parser.parse_args()
    print(machine_load())
    union = common = positions = agreeing = 0
    missed = []
    for path in sorted((ROOT / "examples").glob("*.yaml")):
        record = parse_record(path.read_text(encoding="utf-8"), str(path))
        runs = []
        for seed in (0, 1):
            wall = time.perf_counter()
            runs.append(analyse(record, args.agent, seed=seed, workers=Workers(args.jobs)))
            print(f"{path.name}, seed {seed}: {len(runs[-1])} placements in {time.perf_counter() - wall:.0f} s "
                  f"(load {os.getloadavg()[0]:.1f}), {len(labelled(runs[-1]))} labelled", flush=True)
        first, second = (labelled(run) for run in runs)
        both, either = len(first & second), len(first | second)
        common, union = common + both, union + either
        print(f"  labelled by both seeds: {both} of {either}"
              + (f" ({both / either:.0%})" if either else " (none labelled)"))
        for a, b in zip(*runs):
            positions += 1
            if a.best_move in b.tied_moves:
                agreeing += 1
            else:
                missed.append(f"{path.name} {a.turn}.{a.placement}: seed 0 prefers {a.best_move}, seed 1 {b.best_move} "
                              f"and ties it with {len(b.tied_moves) - 1} other move(s)")
    share = common / union if union else 1.0
    print(f"\nagreement on the labelled placements, six examples: {common} of {union} = {share:.1%} "
          f"(target ≥ 90%): {'met' if share >= 0.9 else 'NOT met'}")
    print(f"seed 0's preferred move among seed 1's moves tied with its best: {agreeing} of {positions} positions "
          f"(target: all): {'met' if agreeing == positions else 'NOT met'}")
    for line in missed:
        print("  " + line)


if __name__ == "__main__":
    main()
