"""Shared helpers for the benchmarks: the installed command, wall-clock timing, generated input."""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

MEDINA = Path(sys.executable).with_name("medina")


def medina_command() -> list[str]:
    """The installed `medina` next to this Python, else the module (same code, same imports)."""
    return [str(MEDINA)] if MEDINA.exists() else [sys.executable, "-m", "medina_cli"]


def compile_package() -> None:
    """Write the package's bytecode first, as an install does: a checkout run with
    PYTHONDONTWRITEBYTECODE set would otherwise compile every module on every start."""
    import compileall

    import medina_cli

    compileall.compile_dir(Path(medina_cli.__file__).parent, quiet=1)


def machine_load() -> str:
    """The load the figures were measured under: wall-clock speed-ups mean little on a busy machine."""
    import os

    return f"machine: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} (1 min)"


def best_wall_time(args: list[str], repeats: int) -> float:
    """The best wall-clock time of `repeats` runs of `medina ARGS` (the least disturbed by other load)."""
    compile_package()
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        subprocess.run([*medina_command(), *args], check=True, stdout=subprocess.DEVNULL)
        best = min(best, time.perf_counter() - start)
    return best


def simulate_benchmark(
    description: str, out_option: bool = False, games: int = 3000, options: dict | None = None
) -> tuple[argparse.Namespace, list[str]]:
    """The simulate benchmarks' options (--games, --repeats; with `out_option` also --out, writing
    every game; `options`: more, as {name: add_argument keywords}), with the machine's load printed,
    and the `medina simulate` arguments of their 4-player original-2001 games."""
    parser = argparse.ArgumentParser(
        description=description, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=games)
    parser.add_argument("--repeats", type=int, default=2)
    if out_option:
        parser.add_argument(
            "--out", action="store_true", help="write every game into a fresh folder"
        )
    for name, keywords in (options or {}).items():
        parser.add_argument(name, **keywords)
    args = parser.parse_args()
    print(machine_load())
    return args, [
        "simulate",
        "--ruleset",
        "original-2001",
        "--players",
        "4",
        "--games",
        str(args.games),
        "--seed",
        "7",
    ]


def write_games(out_dir: Path, games: int, seed: int) -> int:
    """Simulate `games` 4-player original-2001 games into `out_dir`, each a record/1 file there; returns their
    placements."""
    from medina_cli.rules.loader import load_ruleset
    from medina_cli.study.folder import StudyFolder, options_of
    from medina_cli.study.parallel import Workers
    from medina_cli.study.runner import Part, Study, run_study

    ruleset = load_ruleset("original-2001")
    study = Study((Part(ruleset.id, ruleset.for_players(4), ruleset.id),), games, seed)
    folder = StudyFolder(out_dir, study)
    folder.start(options_of(study, 4, [ruleset.params]))
    placements = 0
    for played in run_study(study, Workers(2)):
        folder.write(played)
        placements += played.statistics.placements.total
    folder.write_records()  # record/1 files beside the rounds
    return placements


SIMULATE = ["simulate", "--ruleset", "original-2001", "--players", "4", "--seed", "7"]


def children_cpu(args: list[str]) -> float:
    """CPU seconds (user + system) of one run of `medina ARGS` and the processes it started."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([*medina_command(), *args], check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def simulate_rate(games: int, repeats: int) -> float:
    """`medina simulate --jobs 1` games per second once started: the games beyond a run of 100 over the CPU
    time beyond that run's (the start-up, Python's and the package's imports, paid once), the best of
    `repeats` (CPU time: what one free core would take)."""
    compile_package()
    start = min(children_cpu([*SIMULATE, "--games", "100"]) for _ in range(repeats))
    whole = min(children_cpu([*SIMULATE, "--games", str(games)]) for _ in range(repeats))
    return (games - 100) / max(whole - start, 1e-9)


def out_cost(games: int, repeats: int) -> tuple[float, float]:
    """(wall-clock seconds of `medina simulate` of `games` games, the same with --out into a fresh folder),
    each the best of `repeats`, alternating."""
    import shutil
    import tempfile

    compile_package()
    plain, out = [], []
    with tempfile.TemporaryDirectory() as scratch:
        for repeat in range(repeats):
            plain.append(best_wall_time([*SIMULATE, "--games", str(games)], 1))
            folder = Path(scratch) / str(repeat)
            out.append(best_wall_time([*SIMULATE, "--games", str(games), "--out", str(folder)], 1))
            shutil.rmtree(folder)
    return min(plain), min(out)
