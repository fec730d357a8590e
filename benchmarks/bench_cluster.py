"""`medina simulate --scheduler` beside `medina simulate --jobs` at equal workers, in the same run:
4-player original-2001 games on N local processes and on a Dask cluster of N single-threaded workers
started as a user starts them (`dask scheduler`, `dask worker`), for N = 1 and 2 (target: Dask
within 10% of local), with the workers as `dask worker` starts them by default and as README
recommends for these CPU-bound games (the setups below).

Each figure is the median of --repeats runs, the two ways interleaved, with the fastest and slowest
run beside it (a busy machine spreads them), and the machine's load when the row was measured. The
cluster is paused (SIGSTOP) while `--jobs` runs, so that its idle work does not weigh on the local
runs. A run's wall clock includes the client's start: starting the command, and under --scheduler
importing Dask's `distributed` and connecting (about half a second of CPU, whatever the number of
games). So each way's start is timed too (runs of a few games), and its throughput once started is
the games beyond those over the time beyond that start. The workers play a few games first, untimed.

Where the time goes, measured inside the processes (CPU time, which another job on the machine
disturbs far less than the wall clock): the CPU per 1,000 games of every process of each way — the
`medina` command and its local workers; the client, the scheduler, the nannies and the workers under
--scheduler, the workers' event-loop threads apart (Dask's own bookkeeping: heartbeats, the
statistical profiler, the memory monitor, messages). The client's CPU per 1,000 games (its start and
the few games apart) says how many workers one client can serve before it becomes the limit.
With --out, every game is also written to a fresh folder (records and statistics). Needs the
[cluster] extra."""

from __future__ import annotations

import json
import os
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import compile_package, machine_load, medina_command, simulate_benchmark

WARM_UP = 20  # games: the workers import the package, each way's start is measured
DASK = Path(sys.executable).with_name("dask")
TICK = os.sysconf("SC_CLK_TCK")
# (what the row says, environment of the workers, `dask worker` options beyond --nthreads 1)
SETUPS = {
    "default": ("`dask worker` as started by default", {}, []),
    "recommended": (
        "`dask worker` as README recommends: profiler off, no nanny",
        {"DASK_DISTRIBUTED__WORKER__PROFILE__ENABLED": "False"},
        ["--no-nanny"],
    ),
}


def cpu_seconds(pid: int, thread: int | None = None) -> float:
    """CPU time (user + system) of a process, or of one of its threads, so far (0 once it is gone)."""
    path = f"/proc/{pid}/stat" if thread is None else f"/proc/{pid}/task/{thread}/stat"
    try:
        fields = Path(path).read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICK


def children(pid: int) -> list[int]:
    """The processes `pid` started (any of its threads), and theirs."""
    found = []
    for thread in os.listdir(f"/proc/{pid}/task"):
        for child in Path(f"/proc/{pid}/task/{thread}/children").read_text().split():
            found += [int(child), *children(int(child))]
    return found


class Cluster:
    """`dask scheduler` and `workers` single-threaded `dask worker` processes, as a user starts them."""

    def __init__(self, workers: int, env: dict, options: list[str], scratch: Path):
        import distributed

        file = scratch / "scheduler.json"
        quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
        self.scheduler = subprocess.Popen(
            [
                str(DASK),
                "scheduler",
                "--host",
                "127.0.0.1",
                "--port",
                "0",
                "--no-dashboard",
                "--scheduler-file",
                str(file),
            ],
            **quiet,
        )
        deadline = time.monotonic() + 60
        while True:
            try:
                self.address = json.loads(file.read_text())["address"]
                break
            except (OSError, ValueError, KeyError):
                if time.monotonic() > deadline:
                    raise SystemExit("dask scheduler did not start") from None
                time.sleep(0.1)
        command = [str(DASK), "worker", self.address, "--nthreads", "1", "--no-dashboard", *options]
        nanny = "--no-nanny" not in options
        self.started = [
            subprocess.Popen(
                [*command, *(["--nworkers", str(workers)] if nanny else [])],
                env=os.environ | env,
                **quiet,
            )
            for _ in range(1 if nanny else workers)
        ]
        try:
            with distributed.Client(self.address, set_as_default=False) as client:
                client.wait_for_workers(workers, timeout=120)
        except BaseException:
            self.kinds = {}
            self.close()
            raise
        self.kinds = {"scheduler": [self.scheduler.pid], "nanny": [], "worker": []}
        for process in self.started:
            if nanny:  # the nanny starts each worker process (and Python's resource tracker)
                self.kinds["nanny"].append(process.pid)
                for pid in children(process.pid):
                    cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
                    self.kinds["worker" if b"spawn_main" in cmdline else "nanny"].append(pid)
            else:
                self.kinds["worker"].append(process.pid)

    def cpu(self) -> dict[str, float]:
        """CPU seconds so far of each kind of process, and of the workers' event-loop (main) threads."""
        used = {kind: sum(map(cpu_seconds, pids)) for kind, pids in self.kinds.items()}
        return used | {"event loops": sum(cpu_seconds(pid, pid) for pid in self.kinds["worker"])}

    def pause(self, paused: bool) -> None:
        for pid in (pid for pids in self.kinds.values() for pid in pids):
            os.kill(pid, signal.SIGSTOP if paused else signal.SIGCONT)
        if not paused:
            time.sleep(0.5)  # the timers that fell due meanwhile run now, not in the timed run

    def close(self) -> None:
        self.pause(False)
        for process in [*self.started, self.scheduler]:
            process.terminate()
            process.wait()


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


def compare(workers: int, setup: str, args, run: list[str], scratch: Path) -> None:
    """One row: --jobs `workers` beside a cluster of `workers` Dask workers set up as SETUPS[setup] says."""
    title, env, options = SETUPS[setup]
    cluster = Cluster(workers, env, options, scratch)
    try:
        ways = {"local": ["--jobs", str(workers)], "dask": ["--scheduler", cluster.address]}
        warm_up = [arg if arg != str(args.games) else str(WARM_UP) for arg in run]
        timed([*warm_up, *ways["dask"]])  # the workers import the package and compile the rules
        walls: dict[str, list[float]] = {way: [] for way in ways}
        starts: dict[str, list[float]] = {way: [] for way in ways}
        cpu: dict[str, list[dict[str, float]]] = {way: [] for way in ways}
        start_cpu: list[float] = []  # the client's, under --scheduler
        for repeat in range(args.repeats):
            for way in ways if repeat % 2 == 0 else reversed(ways):
                cluster.pause(way == "local")
                out = (
                    ["--out", str(scratch / f"{way}-{workers}-{setup}-{repeat}")]
                    if args.out
                    else []
                )
                wall, client = timed([*warm_up, *ways[way]])
                starts[way].append(wall)
                if way == "dask":
                    start_cpu.append(client)
                before = cluster.cpu()
                wall, client = timed([*run, *ways[way], *out])
                walls[way].append(wall)
                used = (
                    {kind: seconds - before[kind] for kind, seconds in cluster.cpu().items()}
                    if way == "dask"
                    else {}
                )
                cpu[way].append({"client": client} | used)
        cluster.pause(False)
    finally:
        cluster.close()
    local, dask = (statistics.median(walls[way]) for way in ways)
    started = {way: statistics.median(walls[way]) - statistics.median(starts[way]) for way in ways}
    per_1000 = {
        way: {
            kind: 1e6 * statistics.median(run[kind] for run in cpu[way]) / args.games
            for kind in cpu[way][0]
        }
        for way in ways
    }
    print(f"{workers} worker{'s' if workers > 1 else ''}, {title}   ({machine_load()})")
    for way, label in (("local", f"--jobs {workers}"), ("dask", "--scheduler")):
        print(
            f"   {label:11s} {spread(walls[way])} {args.games / statistics.median(walls[way]):6.0f} games/s   start "
            f"{statistics.median(starts[way]):.2f} s, once started {(args.games - WARM_UP) / started[way]:6.0f} games/s"
        )
    print(
        f"   Dask/local: whole run {dask / local:.2f}, once started {started['dask'] / started['local']:.2f}"
    )
    d = per_1000["dask"]
    total = d["client"] + d["scheduler"] + d["nanny"] + d["worker"]
    print(
        f"   CPU per 1,000 games, every process: --jobs {per_1000['local']['client']:.0f} ms; "
        f"--scheduler {total:.0f} ms "
        f"= client {d['client']:.0f} + scheduler {d['scheduler']:.0f} + nannies {d['nanny']:.0f} + workers "
        f"{d['worker']:.0f} (their event loops {d['event loops']:.0f})"
    )
    client = (
        statistics.median(run["client"] for run in cpu["dask"]) - statistics.median(start_cpu)
    ) / (args.games - WARM_UP)
    if client > 0:
        print(
            f"   the client's CPU, its start apart: {1e6 * client:.1f} ms per 1,000 games ({1 / client:.0f} games/s): "
            f"it keeps up with about {1 / client / (args.games / dask / workers):.0f} workers as fast as these"
        )
    else:
        print("   the client's CPU, its start apart: too little to tell from its start")


def main() -> None:
    args, run = simulate_benchmark(
        __doc__,
        out_option=True,
        games=100_000,
        options={
            "--workers": {"default": "1,2", "help": "worker counts to compare, comma-separated"},
            "--setups": {
                "default": ",".join(SETUPS),
                "help": f"Dask worker setups ({', '.join(SETUPS)})",
            },
        },
    )
    compile_package()
    print(
        f"{args.games} games per run, {args.repeats} runs each way, interleaved; median [fastest–slowest]"
        + (", every game written with --out" if args.out else "")
    )
    with tempfile.TemporaryDirectory() as scratch:
        for workers in map(int, args.workers.split(",")):
            for setup in args.setups.split(","):
                compare(workers, setup, args, run, Path(scratch))


if __name__ == "__main__":
    main()
