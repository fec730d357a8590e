"""A study's output folder (`--out DIR`): every finished game as a record/1 file beside its
statistics, written atomically as it finishes, and the study's options, so that `--resume` plays
only the missing games and refuses a study whose options differ.

    DIR/<ruleset>-<game>.yaml           the game's record (with its result)
    DIR/.study/study.json               the study's options (medina-study/1)
    DIR/.study/<ruleset>-<game>.json    the game's statistics and a digest of them and of the record:
                                        a game is finished once this exists and its digest matches

`--resume` trusts nothing it reads: options that are not a study's are refused, named; a game whose
statistics do not fit the study or whose digest does not match both files (a record or statistics
damaged or edited since) is played again, and said. The `.study` folder is hidden, so `medina
validate DIR` reads the records alone.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from ..files import write_atomically
from .backend import StudyRefused
from .games import GameSummary, check_of, seat_order
from .runner import Played, Study

FORMAT = "medina-study/1"
SUMMARY_BYTES = 1 << 16  # a game's statistics take a few hundred bytes: a larger file is not one


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


@dataclass
class Damage:
    """The games of a folder that did not check out on --resume (each is played again)."""

    files: list[tuple[Path, str]] = field(default_factory=list)  # (the game's record, what is wrong)

    def note(self, folder: Path) -> str | None:
        """One line for the user, or None when every game checked out."""
        if not self.files:
            return None
        (first, why), more = self.files[0], len(self.files) - 1
        return (f"{folder}: {len(self.files)} finished game{'s' if more else ''} did not check out and "
                f"{'are' if more else 'is'} played again: {first.name}: {why}"
                + (f" (and {more} more)" if more else ""))


class StudyFolder:
    def __init__(self, path: str | Path, study: Study):
        self.path = Path(path)
        self.meta = self.path / ".study"
        self.study = study
        self.damage = Damage()

    def start(self, options: dict) -> None:
        """Begin a new study here; a folder that holds one already is refused (finish it with --resume)."""
        if (self.meta / "study.json").exists():
            raise StudyRefused(f"{self.path} holds a study already: add --resume to finish it, or choose another "
                               "folder")
        try:
            self.meta.mkdir(parents=True, exist_ok=True)
            write_atomically(self.meta / "study.json", json.dumps(options, indent=2) + "\n")
        except OSError as exc:
            raise StudyRefused(f"{self.path}: cannot write the study: {exc.strerror or exc}") from None

    def resume(self, options: dict, *, missing: str = "to resume (no .study/study.json): run without --resume "
               "to start one") -> None:
        """Go on with the study here; refused when there is none (`missing`: what is said after `DIR holds
        no study`), when its options are damaged or differ (named)."""
        where = self.meta / "study.json"
        try:
            with where.open("rb") as text:
                held = json.loads(text.read(SUMMARY_BYTES + 1))
        except FileNotFoundError:
            raise StudyRefused(f"{self.path} holds no study {missing}") from None
        except (OSError, ValueError) as exc:
            why = exc.strerror if isinstance(exc, OSError) and exc.strerror else "it is not JSON"
            raise StudyRefused(f"{where}: cannot read the study: {why}") from None
        damage = _damage(held)
        if damage:
            raise StudyRefused(f"{where}: not a study's options ({damage}); the study cannot be resumed: start it "
                               "again in another folder")
        difference = _difference(held, options)
        if difference:
            raise StudyRefused(f"--resume: the study in {self.path} was started with {difference}; give the same "
                               "options, or another --out folder")

    def game_path(self, part: int, index: int) -> Path:
        return self.path / record_name(self.study.parts[part].ruleset, index, self.study.games)

    def summary_path(self, part: int, index: int) -> Path:
        return self.meta / self.game_path(part, index).with_suffix(".json").name

    def finished(self) -> Iterator[tuple[int, int, GameSummary]]:
        """(part, index, summary) of every game finished here whose statistics fit the study and whose
        digest matches them and its record. A game whose statistics are missing was interrupted: it is
        played again; one whose files do not check out is played again and noted in `damage`."""
        width = max(4, len(str(self.study.games)))
        for part_number, part in enumerate(self.study.parts):
            prefix = f"{part.ruleset}-"
            for path in sorted(self.meta.glob(f"{prefix}*.json")):
                number = path.stem[len(prefix):]
                if len(number) != width or not number.isdigit() or not 1 <= int(number) <= self.study.games:
                    continue
                index = int(number) - 1
                summary, why = self._checked(part_number, index)
                if summary is None:
                    self.damage.files.append((self.game_path(part_number, index), why))
                    continue
                yield part_number, index, summary

    def _checked(self, part: int, index: int) -> tuple[GameSummary | None, str]:
        """The summary of a finished game, or None and why it does not check out."""
        record = self.game_path(part, index)
        try:
            with self.summary_path(part, index).open("rb") as text:
                doc = json.loads(text.read(SUMMARY_BYTES + 1))
            check = doc.pop("check", None) if isinstance(doc, dict) else None
            summary = GameSummary.from_json(doc)
        except OSError as exc:
            return None, f"its statistics cannot be read ({exc.strerror or 'error'})"
        except ValueError:
            return None, "its statistics are damaged"
        if not self._fits(summary, index, self.study.parts[part].rules.players):
            return None, "its statistics do not fit the study"
        if check is None:
            return None, "its statistics carry no digest (written by an earlier medina)"
        try:
            matches = check == check_of(doc, record)
        except FileNotFoundError:
            return None, "its record is missing"
        except OSError as exc:
            return None, f"its record cannot be read ({exc.strerror or 'error'})"
        if not matches:
            return None, "its record or its statistics changed since they were written"
        return summary, ""

    def _fits(self, summary: GameSummary, index: int, players: int) -> bool:
        """Whether a summary can be one of game `index` of this study: a score per seat, winners among
        the seats with the best score, the seats' agents in their rotation."""
        totals, winners = summary.totals, summary.winners
        return (len(totals) == players and 0 < len(winners) == len(set(winners))
                and all(seat < players and totals[seat] == max(totals) for seat in winners)
                and summary.agents == (seat_order(self.study.seats, index) if self.study.seats else []))

    def write(self, played: Played) -> None:
        """Each game's record, then its statistics (which mark it finished), each atomically."""
        for index, record, statistics in played.files:
            write_atomically(self.game_path(played.part, index), record)
            write_atomically(self.summary_path(played.part, index), statistics)


OPTIONS = {"format": str, "players": int, "games": int, "seed": int, "seats": list, "rulesets": list}
RULESET_OPTIONS = {"id": str, "ruleset": str, "parameters": str}


def _damage(held) -> str | None:
    """What makes `held` something other than a study's options (medina-study/1), in words; None if nothing."""
    if not isinstance(held, dict):
        return "not a JSON object"
    for key, kind in OPTIONS.items():
        if type(held.get(key)) is not kind:
            return f"{key!r} is missing or not {kind.__name__}"
    if not all(isinstance(seat, str) for seat in held["seats"]):
        return "'seats' holds something other than agent names"
    for ruleset in held["rulesets"]:
        if not isinstance(ruleset, dict) or any(type(ruleset.get(k)) is not kind for k, kind in RULESET_OPTIONS.items()):
            return "'rulesets' holds something other than {'id', 'ruleset', 'parameters'}"
    return None


def _difference(held: dict, given: dict) -> str | None:
    """The first option in which `given` differs from the `held` study, in words; None if none."""
    if held["format"] != FORMAT:
        return f"another format ({held['format']!r}, not {FORMAT})"
    for option in ("players", "games", "seed"):
        if held[option] != given[option]:
            return f"--{option} {held[option]}, not {given[option]}"
    if held["seats"] != given["seats"]:
        return f"the players {','.join(held['seats']) or 'random'}, not {','.join(given['seats']) or 'random'}"
    ids = [r["id"] for r in held["rulesets"]]
    if ids != [r["id"] for r in given["rulesets"]]:
        return f"the rulesets {','.join(ids)}, not {','.join(r['id'] for r in given['rulesets'])}"
    for was, now in zip(held["rulesets"], given["rulesets"]):
        if was["ruleset"] != now["ruleset"]:
            return f"ruleset {was['ruleset']}, not {now['ruleset']} (as named from the folder)"
        if was["parameters"] != now["parameters"]:
            return f"other parameters of ruleset {now['id']} (its file has changed since)"
    return None
