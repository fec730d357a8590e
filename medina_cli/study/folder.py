"""A study's output folder (`--out DIR`): every finished game as a record/1 file beside its
statistics, written atomically as it finishes, and the study's options, so that `--resume` plays
only the missing games and refuses a study whose options differ.

    DIR/<ruleset>-<game>.yaml           the game's record (with its result)
    DIR/.study/study.json               the study's options (medina-study/1)
    DIR/.study/<ruleset>-<game>.json    the game's statistics: a game is finished once this exists

The `.study` folder is hidden, so `medina validate DIR` reads the records alone.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from ..files import write_atomically
from .games import GameSummary
from .backend import StudyError
from .runner import Finished, Study

FORMAT = "medina-study/1"


def record_name(ruleset_id: str, index: int, games: int) -> str:
    return f"{ruleset_id}-{index + 1:0{max(4, len(str(games)))}d}.yaml"


def options_of(study: Study, players: int, parameters: list[dict]) -> dict:
    """The options a resumed study must share: `parameters` are the rulesets' resolved parameters."""
    return {"format": FORMAT, "players": players, "games": study.games, "seed": study.seed,
            "seats": list(study.seats),
            "rulesets": [{"id": part.ruleset, "ruleset": part.record_ref, "parameters": _digest(params)}
                         for part, params in zip(study.parts, parameters)]}


def _digest(params: dict) -> str:
    return hashlib.sha256(json.dumps(params, sort_keys=True, default=str).encode()).hexdigest()


class StudyFolder:
    def __init__(self, path: str | Path, study: Study):
        self.path = Path(path)
        self.meta = self.path / ".study"
        self.study = study

    def start(self, options: dict) -> None:
        """Begin a new study here; a folder that holds one already is refused (finish it with --resume)."""
        if (self.meta / "study.json").exists():
            raise StudyError(f"{self.path} holds a study already: add --resume to finish it, or choose another "
                             "folder")
        try:
            self.meta.mkdir(parents=True, exist_ok=True)
            write_atomically(self.meta / "study.json", json.dumps(options, indent=2) + "\n")
        except OSError as exc:
            raise StudyError(f"{self.path}: cannot write the study: {exc.strerror or exc}") from None

    def resume(self, options: dict) -> None:
        """Go on with the study here; refused when there is none or its options differ (named)."""
        try:
            held = json.loads((self.meta / "study.json").read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise StudyError(f"{self.path} holds no study to resume (no .study/study.json): run without "
                             "--resume to start one") from None
        except (OSError, ValueError) as exc:
            raise StudyError(f"{self.meta / 'study.json'}: cannot read the study: {exc}") from None
        difference = _difference(held, options)
        if difference:
            raise StudyError(f"--resume: the study in {self.path} was started with {difference}; give the same "
                             "options, or another --out folder")

    def game_path(self, part: int, index: int) -> Path:
        return self.path / record_name(self.study.parts[part].ruleset, index, self.study.games)

    def summary_path(self, part: int, index: int) -> Path:
        return self.meta / self.game_path(part, index).with_suffix(".json").name

    def finished(self):
        """(part, index, summary) of every game finished here, read from its statistics file; a file
        that cannot be read counts as not finished (the game is played again)."""
        for part_number, part in enumerate(self.study.parts):
            prefix = f"{part.ruleset}-"
            width = max(4, len(str(self.study.games)))
            for path in self.meta.glob(f"{prefix}*.json"):
                number = path.stem[len(prefix):]
                if len(number) != width or not number.isdigit() or not 1 <= int(number) <= self.study.games:
                    continue
                if not self.game_path(part_number, int(number) - 1).exists():
                    continue
                try:
                    summary = GameSummary.from_json(json.loads(path.read_text(encoding="utf-8")))
                except (OSError, ValueError, KeyError, TypeError):
                    continue
                yield part_number, int(number) - 1, summary

    def write(self, game: Finished) -> None:
        """The game's record, then its statistics (which mark it finished), each atomically."""
        write_atomically(self.game_path(game.part, game.index), game.record)
        write_atomically(self.summary_path(game.part, game.index), json.dumps(game.summary.to_json()) + "\n")


def _difference(held: dict, given: dict) -> str | None:
    """The first option in which `given` differs from the `held` study, in words; None if none."""
    if held.get("format") != FORMAT:
        return f"another format ({held.get('format')!r}, not {FORMAT})"
    for option in ("players", "games", "seed"):
        if held.get(option) != given[option]:
            return f"--{option} {held.get(option)}, not {given[option]}"
    if held.get("seats", []) != given["seats"]:
        return f"the players {','.join(held.get('seats', [])) or 'random'}, not {','.join(given['seats']) or 'random'}"
    ids = [r.get("id") for r in held.get("rulesets", [])]
    if ids != [r["id"] for r in given["rulesets"]]:
        return f"the rulesets {','.join(map(str, ids))}, not {','.join(r['id'] for r in given['rulesets'])}"
    for was, now in zip(held["rulesets"], given["rulesets"]):
        if was.get("ruleset") != now["ruleset"]:
            return f"ruleset {was.get('ruleset')}, not {now['ruleset']} (as named from the folder)"
        if was.get("parameters") != now["parameters"]:
            return f"other parameters of ruleset {now['id']} (its file has changed since)"
    return None
