"""`medina simulate --scheduler` on a Dask LocalCluster on this machine: 4-player original-2001
games per second with 1 and with 2 worker processes (one thread each: the games are pure Python),
and the speed-up, wall clock including the client's start-up and connection. Needs the [cluster]
extra."""

from __future__ import annotations

from common import best_wall_time, simulate_benchmark


def main() -> None:
    from distributed import LocalCluster

    args, run = simulate_benchmark(__doc__)
    seconds = {}
    for workers in (1, 2):
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                          dashboard_address=None) as cluster:
            seconds[workers] = best_wall_time([*run, "--scheduler", cluster.scheduler_address], args.repeats)
        print(f"simulate --scheduler: {args.games} games, {workers} worker{'s' if workers > 1 else ''} "
              f"{seconds[workers]:.2f} s: {args.games / seconds[workers]:.0f} games/s")
    print(f"speed-up from 1 to 2 workers: {seconds[1] / seconds[2]:.2f}x")


if __name__ == "__main__":
    main()
