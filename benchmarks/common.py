"""Shared helpers for the benchmarks: the installed command, wall-clock timing, generated input."""

from __future__ import annotations

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


def best_wall_time(args: list[str], repeats: int) -> float:
    """The best wall-clock time of `repeats` runs of `medina ARGS` (the least disturbed by other load)."""
    compile_package()
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        subprocess.run([*medina_command(), *args], check=True, stdout=subprocess.DEVNULL)
        best = min(best, time.perf_counter() - start)
    return best


def write_games(out_dir: Path, games: int, seed: int) -> int:
    """Simulate `games` 4-player original-2001 games into `out_dir`; returns their placements."""
    from medina_cli.simulate import simulate
    summaries = simulate("original-2001", 4, games, seed, jobs=2, out_dir=str(out_dir))
    return sum(s.placements for s in summaries)
