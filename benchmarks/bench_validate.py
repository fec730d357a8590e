"""`medina validate DIR` over 1,000 simulated 4-player original-2001 games: placements per second,
end to end (start-up, reading and parsing the files, replaying, the per-file summary). Target ≥ 50,000."""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from common import best_wall_time, write_games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        placements = write_games(Path(tmp), args.games, seed=2024)
        seconds = best_wall_time(["validate", tmp], args.repeats)
    print(
        f"validate: {args.games} games, {placements} placements in {seconds:.2f} s (best of {args.repeats}): "
        f"{placements / seconds:,.0f} placements/s (target 50,000)"
    )


if __name__ == "__main__":
    main()
