"""`medina simulate` of 4-player original-2001 games: complete games per second with one job
(target ≥ 150) and the speed-up of `--jobs 2` over one job (target ≥ 1.7), wall clock including
start-up. The default 3,000 games measure throughput: in a run of a second or two the fixed start-up
(interpreter, process pool) would weigh more than the work. Then 2,000 games with and without
`--out` (target: `--out` at most 2×)."""

from __future__ import annotations

from common import best_wall_time, out_cost, simulate_benchmark


def main() -> None:
    args, run = simulate_benchmark(__doc__)
    one = best_wall_time([*run, "--jobs", "1"], args.repeats)
    two = best_wall_time([*run, "--jobs", "2"], args.repeats)
    print(
        f"simulate: {args.games} games, 1 job {one:.2f} s: {args.games / one:.0f} games/s (target 150)"
    )
    print(
        f"simulate: {args.games} games, 2 jobs {two:.2f} s: {args.games / two:.0f} games/s, "
        f"speed-up {one / two:.2f}x (target 1.7x)"
    )
    plain, out = out_cost(2000, args.repeats)
    print(
        f"simulate: 2000 games {plain:.2f} s, with --out {out:.2f} s: {out / plain:.2f}x (target at most 2x)"
    )


if __name__ == "__main__":
    main()
