"""A fuzz campaign of any length: generated inputs (structure-aware mutations of the examples, boards,
rulesets and boardspace.net records; bytes, text, YAML documents) through the library readers and
the `medina` commands in-process, checked as tests/test_fuzz.py checks them (exit 0/1/2, no internal
error, inputs unchanged, messages naming the file), plus a time limit per input.

    .venv/bin/python benchmarks/fuzz_campaign.py --seed 1 --duration 1800 [--save DIR]
    .venv/bin/python benchmarks/fuzz_campaign.py --case 1:4711     # one case again, with its details

Case `S:I` is the I-th input of seed S: the same on every run. Prints its counts at the end.
"""

from __future__ import annotations

import argparse
import random
import re
import resource
import signal
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from fuzzkit import Broken, check_reader, make_case, run_case

CASE_SECONDS = 60  # an input that takes longer hangs
MEMORY_BYTES = 3 << 30
PROGRESS_SECONDS = 300


class Hang(Exception):
    pass


def _alarm(signum, frame):
    raise Hang(f"still running after {CASE_SECONDS} s")


def run_one(case_id: str, folder: Path):
    """(case, exit statuses by command, failure or None) of case `case_id`."""
    rng = random.Random(case_id)
    case = make_case(rng)
    commands = [("validate", "{in}"), *rng.sample(case.commands, k=min(2, len(case.commands)))]
    signal.alarm(CASE_SECONDS)
    try:
        check_reader(case)
        codes = run_case(case, folder, commands)
        return case, dict(zip((" ".join(c[:2]) for c in commands), codes, strict=True)), None
    except (Broken, Hang, MemoryError, RecursionError) as exc:
        return case, {}, f"{type(exc).__name__}: {exc}"
    finally:
        signal.alarm(0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--duration", type=float, default=60.0, help="seconds to run (default 60)")
    parser.add_argument("--save", type=Path, help="write every failing input into this folder")
    parser.add_argument("--case", help="run one case S:I and print what happened")
    options = parser.parse_args()
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BYTES, MEMORY_BYTES))
    signal.signal(signal.SIGALRM, _alarm)
    with tempfile.TemporaryDirectory() as tmp:
        if options.case:
            case, codes, failure = run_one(options.case, Path(tmp))
            print(
                f"case {options.case}: {case.kind} {case.name}, {len(case.content)} bytes: {case.content[:300]!r}"
            )
            print(failure or f"fine: {codes}")
            sys.exit(1 if failure else 0)
        _campaign(options, Path(tmp))


def _campaign(options, tmp: Path) -> None:
    kinds, statuses, commands, failures, first_case = Counter(), Counter(), Counter(), Counter(), {}
    start, i, shown = time.monotonic(), 0, time.monotonic()
    while time.monotonic() - start < options.duration:
        if time.monotonic() - shown > PROGRESS_SECONDS:
            shown = time.monotonic()
            print(
                f"after {shown - start:.0f} s: {i} inputs, {sum(failures.values())} failing",
                flush=True,
            )
        case_id = f"{options.seed}:{i}"
        folder = tmp / str(i)
        folder.mkdir()
        case, codes, failure = run_one(case_id, folder)
        kinds[case.kind] += 1
        for command, code in codes.items():
            commands[command] += 1
            statuses[code] += 1
        if failure:
            signature = re.sub(r"/\S+|'[^']*'", "…", failure.splitlines()[0])[:160]
            failures[signature] += 1
            first_case.setdefault(signature, case_id)
            if options.save:
                options.save.mkdir(parents=True, exist_ok=True)
                (options.save / f"case-{case_id.replace(':', '-')}-{case.name}").write_bytes(
                    case.content
                )
            print(
                f"FAIL case {case_id} ({case.kind} {case.name}): {failure.splitlines()[0][:300]}",
                flush=True,
            )
        for path in sorted(folder.rglob("*"), reverse=True):
            path.rmdir() if path.is_dir() else path.unlink()
        folder.rmdir()
        i += 1
    elapsed = time.monotonic() - start
    print(
        f"seed {options.seed}: {i} inputs in {elapsed:.0f} s ({i / elapsed:.1f}/s), "
        f"{sum(commands.values())} command runs, {sum(failures.values())} failing inputs"
    )
    print("inputs by kind: " + ", ".join(f"{k} {n}" for k, n in kinds.most_common()))
    print("exit statuses: " + ", ".join(f"{code}: {n}" for code, n in sorted(statuses.items())))
    print("runs by command: " + ", ".join(f"{c} {n}" for c, n in commands.most_common()))
    for signature, count in failures.most_common():
        print(f"  {count} x {signature} (first: --case {first_case[signature]})")


if __name__ == "__main__":
    main()
