"""A study's output folder (`--out DIR`): the finished games, written a round at a time (the games of
one task of the parallel map, in one file, atomically: one write to disk per round), and the
study's options, so that `--resume` plays only the missing games and refuses a study whose options
differ.

    DIR/<ruleset>-<first>-<last>.jsonl  a round: games first..last, each its statistics and its moves
                                        (what its record holds), and a digest of the whole file
    DIR/.study/study.json               the study's options (medina-study/1), with agents the engine
    DIR/<ruleset>-<game>.yaml           a game's record/1 file, written when asked for (`write_records`)

Folders of the first layout, a record and a statistics file per game (`DIR/<ruleset>-<game>.yaml`,
`DIR/.study/<ruleset>-<game>.json` with a digest of both), are read too, and a resumed one is
finished in rounds. `--resume` trusts nothing it reads: options that are not a study's are refused,
named; a round or game that does not check out (damaged or edited since, not a regular file) is
played again, and said.
"""

from __future__ import annotations

import contextlib
import glob
import hashlib
import json
import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from ..engine.native import ENGINES
from ..files import write_atomically
from .backend import StudyRefused
from .games import GameSummary, Moves, agents_engine, check_of, record_text, seat_order
from .runner import Part, Played, Study

FORMAT = "medina-study/1"
ROUND_FORMAT = "medina-study-round/1"
SUMMARY_BYTES = 1 << 16  # a game's statistics take a few hundred bytes: a larger file is not one
RECORD_BYTES = 1 << 22  # a record of the first layout (a few KB)
ROUND_BYTES = 1 << 27  # a round of at most MAX_UNITS games of a few KB each
SPECIAL = "not a regular file (a pipe, socket or device: reading it could wait for ever)"


def game_name(ruleset_id: str, index: int, games: int) -> str:
    """How a game is named (its record's file name without `.yaml`)."""
    return f"{ruleset_id}-{index + 1:0{width(games)}d}"


def round_name(ruleset_id: str, start: int, stop: int, games: int) -> str:
    """The file of the round of games start..stop-1 (0-based)."""
    return f"{ruleset_id}-{start + 1:0{width(games)}d}-{stop:0{width(games)}d}.jsonl"


def width(games: int) -> int:
    """The digits of a game's number in file names."""
    return max(4, len(str(games)))


def options_of(study: Study, players: int, parameters: list[dict]) -> dict:
    """The options a resumed study must share: `parameters` are the rulesets' resolved parameters; with
    an agent other than random, the engine that plays it (`agents_engine`)."""
    options = {
        "format": FORMAT,
        "players": players,
        "games": study.games,
        "seed": study.seed,
        "seats": list(study.seats),
        "rulesets": [
            {"id": part.ruleset, "ruleset": part.record_ref, "parameters": _digest(params)}
            for part, params in zip(study.parts, parameters, strict=True)
        ],
    }
    engine = agents_engine(study.seats)
    return options if engine is None else {**options, "engine": engine}


def _digest(params: dict) -> str:
    return hashlib.sha256(json.dumps(params, sort_keys=True, default=str).encode()).hexdigest()


def read_regular(path: Path, limit: int) -> bytes:
    """At most `limit` + 1 bytes of the file at `path`; OSError (its strerror SPECIAL) for what is no
    regular file, which is never read (a pipe would block)."""
    descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    with open(descriptor, "rb") as handle:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            raise OSError(0, SPECIAL, str(path))
        return handle.read(limit + 1)


def json_of(raw: bytes, limit: int):
    """The JSON value of `raw`; ValueError for what is longer than `limit` bytes, not JSON, or nested too
    deeply to read."""
    if len(raw) > limit:
        raise ValueError("too large")
    try:
        return json.loads(raw)
    except RecursionError:
        raise ValueError("nested too deeply") from None


@dataclass
class Damage:
    """The games of a folder that did not check out on --resume (each is played again)."""

    files: list[tuple[Path, str, int]] = field(
        default_factory=list
    )  # (the file, what is wrong, its games)

    def note(self, folder: Path) -> str | None:
        """One line for the user, or None when every game checked out."""
        if not self.files:
            return None
        (first, why, _), games = self.files[0], sum(count for _, _, count in self.files)
        more = len(self.files) - 1
        return (
            f"{folder}: {games} finished game{'s' if games > 1 else ''} did not check out and "
            f"{'are' if games > 1 else 'is'} played again: {first.name}: {why}"
            + (f" (and {more} more)" if more else "")
        )


class StudyFolder:
    def __init__(self, path: str | Path, study: Study, players: int | None = None):
        self.path = Path(path)
        self.meta = self.path / ".study"
        self.study = study
        if players is None:
            rules = study.parts[0].rules
            assert rules is not None, (
                "a study read from its folder is given its player count (opened)"
            )
            players = rules.players
        self.players = players
        self.damage = Damage()
        self.superseded: set[tuple[int, int]] = (
            set()
        )  # (part, index) of damaged games of the first layout

    @classmethod
    def opened(cls, path: str | Path) -> StudyFolder:
        """The study in the folder at `path` as its options say (to read its games, not to play them);
        StudyRefused when there is none or its options are damaged."""
        held = cls._held(Path(path) / ".study" / "study.json", Path(path), "(no .study/study.json)")
        parts = tuple(Part(ruleset["id"], None, ruleset["ruleset"]) for ruleset in held["rulesets"])
        return cls(
            path, Study(parts, held["games"], held["seed"], tuple(held["seats"])), held["players"]
        )

    def start(self, options: dict) -> None:
        """Begin a new study here; a folder that holds one already is refused (finish it with --resume).
        Raises OSError when the folder cannot be written."""
        if os.path.lexists(self.meta / "study.json"):
            raise StudyRefused(
                f"{self.path} holds a study already: add --resume to finish it, or choose another "
                "folder"
            )
        self.meta.mkdir(parents=True, exist_ok=True)
        write_atomically(self.meta / "study.json", json.dumps(options, indent=2) + "\n")

    def resume(
        self,
        options: dict,
        *,
        missing: str = "to resume (no .study/study.json): run without --resume to start one",
    ) -> None:
        """Go on with the study here; refused when there is none (`missing`: what is said after `DIR holds
        no study`), when its options are damaged or differ (named)."""
        held = self._held(self.meta / "study.json", self.path, missing)
        difference = _difference(held, options)
        if difference:
            raise StudyRefused(
                f"--resume: the study in {self.path} was started with {difference}; give the same "
                "options, or another --out folder"
            )

    @staticmethod
    def _held(where: Path, folder: Path, missing: str) -> dict:
        """The options in `where`; StudyRefused when there are none (`missing` says so) or they are damaged."""
        try:
            held = json_of(read_regular(where, SUMMARY_BYTES), SUMMARY_BYTES)
        except FileNotFoundError:
            raise StudyRefused(f"{folder} holds no study {missing}") from None
        except (OSError, ValueError) as exc:
            why = exc.strerror if isinstance(exc, OSError) and exc.strerror else "it is not JSON"
            raise StudyRefused(f"{where}: cannot read the study: {why}") from None
        damage = _damage(held)
        if damage:
            raise StudyRefused(
                f"{where}: not a study's options ({damage}); the study cannot be resumed: start it "
                "again in another folder"
            )
        return held

    def game_name(self, part: int, index: int) -> str:
        return game_name(self.study.parts[part].ruleset, index, self.study.games)

    def game_path(self, part: int, index: int) -> Path:
        return self.path / f"{self.game_name(part, index)}.yaml"

    def summary_path(self, part: int, index: int) -> Path:
        return self.meta / self.game_path(part, index).with_suffix(".json").name

    def finished(self) -> Iterator[tuple[int, int, GameSummary]]:
        """(part, index, summary) of every game finished here that checks out: those of the rounds, then
        those of the first layout not in a round. A game whose statistics are missing was interrupted: it
        is played again; one whose files do not check out is played again and noted in `damage`."""
        for part_number, _part in enumerate(self.study.parts):
            found: set[int] = set()
            damaged = []
            for path, start, stop in self._rounds(part_number):
                games, why = self._round(path, part_number, start, stop)
                if games is None:
                    damaged.append((path, why, range(start, stop)))
                    continue
                for index, summary, _ in games:
                    if index not in found:
                        found.add(index)
                        yield part_number, index, summary
            for index in self._first_layout(part_number):
                if index in found:
                    continue
                summary, why = self._checked(part_number, index)
                if summary is None:
                    damaged.append(
                        (self.game_path(part_number, index), why, range(index, index + 1))
                    )
                    self.superseded.add((part_number, index))
                    continue
                found.add(index)
                yield part_number, index, summary
            for path, why, indices in damaged:
                lost = sum(1 for index in indices if index not in found)
                if lost:
                    self.damage.files.append((path, why, lost))

    def _rounds(self, part: int) -> list[tuple[Path, int, int]]:
        """(path, start, stop) of the files of rounds of `part` here, by their names."""
        prefix, digits = f"{self.study.parts[part].ruleset}-", width(self.study.games)
        rounds = []
        for path in sorted(self.path.glob(f"{glob.escape(prefix)}*.jsonl")):
            first, dash, last = path.stem[len(prefix) :].partition("-")
            if (
                dash
                and len(first) == len(last) == digits
                and first.isdigit()
                and last.isdigit()
                and 1 <= int(first) <= int(last) <= self.study.games
            ):
                rounds.append((path, int(first) - 1, int(last)))
        return rounds

    def _round(self, path: Path, part: int, start: int, stop: int) -> tuple[list | None, str]:
        """[(index, summary, moves)] of a round's games, or None and why it does not check out."""
        try:
            raw = read_regular(path, ROUND_BYTES)
        except OSError as exc:
            return None, f"it cannot be read ({exc.strerror or 'error'})"
        body, _, last = raw.rstrip(b"\n").rpartition(b"\n")
        try:
            check = json_of(last, SUMMARY_BYTES)
        except ValueError:
            check = None
        if (
            len(raw) > ROUND_BYTES
            or not isinstance(check, dict)
            or check.get("check") != hashlib.sha256(body + b"\n").hexdigest()
        ):
            return None, "it changed since it was written (or was cut short)"
        try:
            lines = body.split(b"\n")
            header = json_of(lines[0], SUMMARY_BYTES)
            if (
                header
                != {
                    "format": ROUND_FORMAT,
                    "ruleset": self.study.parts[part].ruleset,
                    "first": start + 1,
                    "last": stop,
                }
                or len(lines) != 1 + stop - start
            ):
                raise ValueError("not this round")
            games = []
            for index, line in zip(range(start, stop), lines[1:], strict=False):
                doc = json_of(line, ROUND_BYTES)
                if (
                    not isinstance(doc, dict)
                    or doc.get("game") != index + 1
                    or set(doc) != {"game", "summary", "setup", "turns"}
                ):
                    raise ValueError("not a game")
                summary = GameSummary.from_json(doc["summary"])
                if not self._fits(summary, index):
                    return None, f"game {index + 1} does not fit the study"
                games.append((index, summary, Moves.from_json(doc, self.players)))
        except ValueError:
            return None, "its games are damaged"
        return games, ""

    def _first_layout(self, part: int) -> list[int]:
        """The indices of the games of `part` with statistics in a file of their own (the first layout)."""
        prefix, digits = f"{self.study.parts[part].ruleset}-", width(self.study.games)
        indices = []
        for path in sorted(self.meta.glob(f"{glob.escape(prefix)}*.json")):
            number = path.stem[len(prefix) :]
            if len(number) == digits and number.isdigit() and 1 <= int(number) <= self.study.games:
                indices.append(int(number) - 1)
        return indices

    def _checked(self, part: int, index: int) -> tuple[GameSummary | None, str]:
        """The summary of a finished game of the first layout, or None and why it does not check out."""
        try:
            doc = json_of(
                read_regular(self.summary_path(part, index), SUMMARY_BYTES), SUMMARY_BYTES
            )
            check = doc.pop("check", None) if isinstance(doc, dict) else None
            summary = GameSummary.from_json(doc)
        except OSError as exc:
            return None, f"its statistics cannot be read ({exc.strerror or 'error'})"
        except ValueError:
            return None, "its statistics are damaged"
        if not self._fits(summary, index):
            return None, "its statistics do not fit the study"
        if check is None:
            return None, "its statistics carry no digest (written by an earlier medina)"
        try:
            matches = check == check_of(
                doc, read_regular(self.game_path(part, index), RECORD_BYTES)
            )
        except FileNotFoundError:
            return None, "its record is missing"
        except OSError as exc:
            return None, f"its record cannot be read ({exc.strerror or 'error'})"
        if not matches:
            return None, "its record or its statistics changed since they were written"
        return summary, ""

    def _fits(self, summary: GameSummary, index: int) -> bool:
        """Whether a summary can be one of game `index` of this study: a score per seat, winners among
        the seats with the best score, the seats' agents in their rotation."""
        totals, winners, players = summary.totals, summary.winners, self.players
        return (
            len(totals) == players
            and 0 < len(winners) == len(set(winners))
            and all(seat < players and totals[seat] == max(totals) for seat in winners)
            and summary.agents == (seat_order(self.study.seats, index) if self.study.seats else [])
        )

    def write(self, played: Played) -> None:
        """A task's games as one round, atomically (its last line the digest of the lines before it)."""
        if not played.games:
            return
        ruleset = self.study.parts[played.part].ruleset
        header = {
            "format": ROUND_FORMAT,
            "ruleset": ruleset,
            "first": played.start + 1,
            "last": played.stop,
        }
        body = "".join(
            json.dumps(line, separators=(",", ":")) + "\n" for line in (header, *played.games)
        )
        digest = hashlib.sha256(body.encode()).hexdigest()
        write_atomically(
            self.path / round_name(ruleset, played.start, played.stop, self.study.games),
            body + json.dumps({"check": digest}) + "\n",
        )
        for index in range(
            played.start, played.stop
        ):  # the damaged files of a game played again go
            if (played.part, index) in self.superseded:
                for path in (
                    self.summary_path(played.part, index),
                    self.game_path(played.part, index),
                ):
                    with contextlib.suppress(FileNotFoundError):
                        path.unlink()

    def write_records(self, names: set[str] | None = None) -> list[Path]:
        """The games `names` names (by game_name; None: every finished game) as record/1 files here, each
        written atomically from its round (those of the first layout are there already): their paths, in
        the study's order.
        ValueError names a game that is not finished here (or does not check out)."""
        written: dict[str, tuple[int, int, Path]] = {}  # name -> (part, index, path)
        for part_number in range(len(self.study.parts)):
            for path, start, stop in self._rounds(part_number):
                if names is not None and not names & {
                    self.game_name(part_number, i) for i in range(start, stop)
                }:
                    continue
                for index, summary, moves in self._round(path, part_number, start, stop)[0] or ():
                    name = self.game_name(part_number, index)
                    if (names is None or name in names) and name not in written:
                        written[name] = (part_number, index, self.game_path(part_number, index))
                        ref = self.study.parts[part_number].record_ref
                        assert ref is not None, (
                            "an opened study's parts name their rulesets (opened)"
                        )
                        write_atomically(
                            written[name][2],
                            record_text(moves, summary, ref, self.study.seed, index),
                        )
            for index in self._first_layout(part_number):
                name = self.game_name(part_number, index)
                if (
                    (names is None or name in names)
                    and name not in written
                    and self._checked(part_number, index)[0] is not None
                ):
                    written[name] = (part_number, index, self.game_path(part_number, index))
        missing = sorted((names or set()) - set(written))
        if missing:
            raise ValueError(
                f"{self.path} holds no finished game {missing[0]} (one that checks out); its games are "
                f"named <ruleset id>-<number>, e.g. {self.game_name(0, 0)}"
            )
        return [path for _, _, path in sorted(written.values())]


OPTIONS = {
    "format": str,
    "players": int,
    "games": int,
    "seed": int,
    "seats": list,
    "rulesets": list,
}
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
        if not isinstance(ruleset, dict) or any(
            type(ruleset.get(k)) is not kind for k, kind in RULESET_OPTIONS.items()
        ):
            return "'rulesets' holds something other than {'id', 'ruleset', 'parameters'}"
    if "engine" in held and held["engine"] not in ENGINES:
        return f"'engine' is none of {', '.join(ENGINES)}"
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
    # A folder written before studies recorded their engine holds none: its engine is unknown, not
    # another, so it resumes on either (its games cannot tell which engine played them, and refusing
    # would strand every study begun before). Otherwise, the seats being equal, both or neither hold one.
    was, now = held.get("engine"), given.get("engine")
    if was is not None and now is not None and was != now:
        return f"the {was} engine, not the {now} engine (MEDINA_ENGINE={was} resumes it)"
    ids = [r["id"] for r in held["rulesets"]]
    if ids != [r["id"] for r in given["rulesets"]]:
        return f"the rulesets {','.join(ids)}, not {','.join(r['id'] for r in given['rulesets'])}"
    for was, now in zip(held["rulesets"], given["rulesets"], strict=True):
        if was["ruleset"] != now["ruleset"]:
            return f"ruleset {was['ruleset']}, not {now['ruleset']} (as named from the folder)"
        if was["parameters"] != now["parameters"]:
            return f"other parameters of ruleset {now['id']} (its file has changed since)"
    return None
