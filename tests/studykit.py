"""Study folders for the tests: how many games one holds, and the same folder in the first layout (a record
and a statistics file per game, as docs/format.md describes it), which medina still reads."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from medina_cli.study.folder import StudyFolder


def finished_games(folder: Path) -> int:
    """The games finished in a study's folder that check out (0 where there is none yet)."""
    if not (folder / ".study" / "study.json").is_file():
        return 0
    return sum(1 for _ in StudyFolder.opened(folder).finished())


def as_first_layout(folder: Path) -> list[Path]:
    """Rewrite a study's folder as the first layout wrote it: `DIR/<game>.yaml` and `DIR/.study/<game>.json`
    (the statistics and their digest of both), the rounds removed. The records, in game order."""
    opened = StudyFolder.opened(folder)
    summaries = {
        opened.game_path(part, index): summary for part, index, summary in opened.finished()
    }
    records = opened.write_records()
    for record in records:
        doc = summaries[record].to_json()
        text = (
            json.dumps(doc, sort_keys=True, separators=(",", ":")).encode()
            + b"\n"
            + record.read_bytes()
        )
        (folder / ".study" / record.with_suffix(".json").name).write_text(
            json.dumps({**doc, "check": hashlib.sha256(text).hexdigest()}) + "\n"
        )
    for round_file in folder.glob("*.jsonl"):
        round_file.unlink()
    return sorted(records)
