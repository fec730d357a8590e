"""`medina simulate --scheduler` beside `medina simulate --jobs` at equal workers, in the same run:
4-player original-2001 games on a Dask LocalCluster of N single-threaded worker processes and on N
local processes, for N = 1 and 2 (target: Dask within 10% of local).

Each figure is the median of --repeats runs, the two ways interleaved, with the fastest and slowest
run beside it (a busy machine spreads them), and the machine's load when the row was measured. A run's
wall clock includes the client's start: starting the command, and under --scheduler importing Dask's
`distributed` and connecting (a second or two, whatever the number of games). So each way's start is
timed too (runs of a few games), and its throughput once started is the games beyond those over the
time beyond that start. The cluster's workers play a few games first, untimed, so that both ways start
with the package imported in their workers. The client's CPU time per 1,000 games (the `medina` process
alone under --scheduler, less what its start and the few games took) says how many workers one client
can serve before it becomes the limit. The native engine plays a game in about 60 µs: the default
--games keeps the start a small part of a run.
With --out, every game is also written to a fresh folder (records and statistics). Needs the
[cluster] extra."""

from __future__ import annotations

import resource
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from common import compile_package, machine_load, medina_command, simulate_benchmark

WARM_UP = 20  # games: the cluster's workers import the package, the client's start is measured


def timed(args: list[str]) -> tuple[float, float]:
    """(wall-clock seconds, CPU seconds of the process and its children) of one run of `medina ARGS`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([*medina_command(), *args], check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):6.2f} s [{min(values):.2f}–{max(values):.2f}]"


def main() -> None:
    import warnings

    from distributed import LocalCluster

    args, run = simulate_benchmark(__doc__, out_option=True, games=100_000)
    compile_package()
    print(f"{args.games} games per run, {args.repeats} runs each way, interleaved; median [fastest–slowest]"
          + (", every game written with --out" if args.out else ""))
    for workers in (1, 2):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # Dask's dashboard port may be taken: none is used
            cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                                   dashboard_address=None)
        with cluster, tempfile.TemporaryDirectory() as scratch:
            ways = {"local": ["--jobs", str(workers)], "dask": ["--scheduler", cluster.scheduler_address]}
            warm_up = [arg if arg != str(args.games) else str(WARM_UP) for arg in run]
            _, start_cpu = timed([*warm_up, *ways["dask"]])  # the client's CPU for its start and a few games
            walls: dict[str, list[float]] = {way: [] for way in ways}
            starts: dict[str, list[float]] = {way: [] for way in ways}
            cpu = []
            for repeat in range(args.repeats):
                for way in (ways if repeat % 2 == 0 else reversed(ways)):
                    out = ["--out", str(Path(scratch) / f"{way}-{repeat}")] if args.out else []
                    starts[way].append(timed([*warm_up, *ways[way]])[0])
                    wall, seconds = timed([*run, *ways[way], *out])
                    walls[way].append(wall)
                    if way == "dask":
                        cpu.append(seconds)
        local, dask = (statistics.median(walls[way]) for way in ways)
        started = {way: statistics.median(walls[way]) - statistics.median(starts[way]) for way in ways}
        client = (statistics.median(cpu) - start_cpu) / (args.games - WARM_UP)  # CPU seconds per game, start apart
        print(f"{workers} worker{'s' if workers > 1 else ' '}  --jobs {workers}: {spread(walls['local'])} "
              f"{args.games / local:5.0f} games/s   --scheduler: {spread(walls['dask'])} {args.games / dask:5.0f} "
              f"games/s   Dask/local {dask / local:.2f}   ({machine_load()})")
        print(f"   once started (start: --jobs {statistics.median(starts['local']):.2f} s, --scheduler "
              f"{statistics.median(starts['dask']):.2f} s): --jobs {(args.games - WARM_UP) / started['local']:5.0f} "
              f"games/s, --scheduler {(args.games - WARM_UP) / started['dask']:5.0f} games/s, Dask/local "
              f"{started['dask'] / started['local']:.2f}")
        if client > 0:
            print(f"   the client's CPU under --scheduler, its start apart: {1000 * 1000 * client:.0f} ms per 1000 "
                  f"games ({1 / client:.0f} games/s): it keeps up with about "
                  f"{1 / client / (args.games / dask / workers):.0f} workers as fast as these")
        else:
            print("   the client's CPU under --scheduler, its start apart: too little to tell from its start")

if __name__ == "__main__":
    main()
