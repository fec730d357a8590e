"""Cold start: wall time of `medina validate` on one shipped record (target ≤ 0.3 s)."""

from __future__ import annotations

import argparse
from pathlib import Path

from common import best_wall_time

RECORD = Path(__file__).resolve().parents[1] / "examples" / "original-2001-4p.yaml"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=10)
    args = parser.parse_args()
    seconds = best_wall_time(["validate", str(RECORD)], args.repeats)
    print(
        f"cold start: validate {RECORD.name} in {seconds:.3f} s (best of {args.repeats}; target 0.3 s)"
    )


if __name__ == "__main__":
    main()
