"""Load rulesets: built-in ids or paths, `extends:` chains, validation and `--set` overrides.

`load_ruleset(ref)` returns a `Ruleset` (all player counts); `Ruleset.for_players(n)` gives the
`Rules` the engine plays by.
"""

from __future__ import annotations

import copy
import difflib
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path

import yaml

from ..errors import (
    BadArgument,
    MedinaError,
    Problem,
    UnusableInput,
    as_named,
    brief,
    fail,
    in_words,
)
from ..yamlio import Lines, parse_yaml, read_text
from .pieces import FIXED_PIECES
from .schema import (
    CORNERS,
    NAME_RE,
    NOT_PLAY,
    PLAYER_COUNT,
    READINGS,
    RESERVED_LETTERS,
    SCHEMA,
    Choice,
    Fields,
    MapOf,
    Reading,
    ReadingValue,
    SchemaError,
    Spec,
    Text,
    parameter_names,
    resolve_written,
    words_back,
    yaml_flow,
)
from .typed import Rules, rules_for


@cache
def builtin_dir() -> Path:
    """Installed wheels carry the rulesets inside the package; a source checkout has them at the top."""
    inside = Path(__file__).resolve().parent.parent / "rulesets"
    return inside if inside.is_dir() else Path(__file__).resolve().parents[2] / "rulesets"


def builtin_ids() -> list[str]:
    return sorted(p.stem for p in builtin_dir().glob("*.yaml"))


@dataclass
class Ruleset:
    id: str
    title: str
    source: str  # "built-in" or the file path
    params: dict  # fully resolved, validated parameters
    sources: list = field(default_factory=list)
    record_ref: str | None = (
        None  # how a record names it: the built-in id or the file's absolute path; None
    )
    # once overrides apply (a record names a ruleset, not overrides)
    ref: str = ""  # as it was named: a built-in's id, else the path as given (overrides apart)
    rules_by_players: dict = field(
        default_factory=dict, repr=False, compare=False
    )  # for_players cache

    @property
    def player_counts(self) -> list[int]:
        return sorted(self.params["players"])

    def players_refusal(self, n: int, name: str | None = None) -> str | None:
        """Why this ruleset (`name`: as the user named it; else its id) cannot be played by `n` players,
        in words; None when it can."""
        counts = self.player_counts
        return (
            None if n in counts else f"{name or self.id} is for {in_words(counts)} players, not {n}"
        )

    def for_players(self, n: int) -> Rules:
        """The rules for `n` players (built once per ruleset and player count); BadArgument for a count
        the ruleset does not support."""
        rules = self.rules_by_players.get(n)
        if rules is None:
            refusal = self.players_refusal(n)
            if refusal is not None:
                raise fail("unsupported-player-count", refusal, error=BadArgument)
            rules = self.rules_by_players[n] = rules_for(self.id, self.params, n, self.record_ref)
        return rules


def is_path(ref: str) -> bool:
    return ref.endswith((".yaml", ".yml")) or "/" in ref or "\\" in ref


def load_ruleset(
    ref: str | Ruleset, overrides: list[str] | tuple | Mapping = (), *, base_dir: Path | None = None
) -> Ruleset:
    """Load a built-in id or a ruleset file (or take a loaded `Ruleset`), then apply overrides:
    `--set PARAM=VALUE` strings or a mapping {PARAM: value}. A relative path resolves against
    `base_dir` (the directory of the file that names it), or the current directory when None.
    Raises MedinaError."""
    if isinstance(ref, Ruleset):
        ruleset = copy.copy(ref)
    else:
        shown = _locate(ref, base_dir)
        ruleset = copy.copy(
            _load_cached(os.path.realpath(shown), shown, ref)
        )  # apply_overrides copies params
    if overrides:
        apply_overrides(ruleset, overrides)
    return ruleset


def _locate(ref: str, base_dir: Path | None) -> str:
    """The file `ref` names, as a path from the current directory (shown in messages)."""
    if is_path(ref):
        if "\0" in ref:  # YAML can write one ("\0"); no file name holds it
            raise fail(
                "file-not-found",
                f"ruleset file {ref!r}: cannot read: a file name cannot hold a NUL character",
            )
        return ref if base_dir is None else str(base_dir / ref)
    builtin = builtin_dir() / f"{ref}.yaml"
    if not os.path.isfile(builtin):  # False, not an error, for a name too long or holding a NUL
        ids = builtin_ids()
        close = difflib.get_close_matches(ref, ids, n=1)
        hint = f" (did you mean {close[0]}?)" if close else ""
        raise fail(
            "unknown-ruleset",
            f"unknown ruleset {brief(ref)}{hint}; built-in rulesets: {', '.join(ids)} "
            "(or give a path to a .yaml file)",
        )
    return str(builtin)


@lru_cache(maxsize=32)
def _load_cached(resolved: str, shown: str, ref: str) -> Ruleset:
    raw, lines, name = _read_chain(resolved, shown, ())
    params = _validate(raw, lines, name, partial=False)
    builtin = Path(resolved).parent == builtin_dir()
    rid = params["id"] or Path(resolved).stem
    return Ruleset(
        id=rid,
        title=params["title"] or rid,
        source="built-in" if builtin else ref,
        params=params,
        sources=list(params["sources"]),
        record_ref=rid if builtin else resolved,
        ref=rid if builtin else ref,
    )


MAX_EXTENDS = 32  # rulesets in one `extends:` chain (the built-in ones: 3 at most)
MAX_CHAIN_TEXT = (
    256 * 1024
)  # characters of a ruleset with the files it extends (the built-in ones: a few thousand)
RULESET_TAG_RE = re.compile(r"^medina:[ \t]*([\"']?)ruleset/1\1[ \t]*(#.*)?$", re.M)
OTHER_TAG_RE = re.compile(r"^medina:[ \t]*[\"']?(record|board)/1[\"']?[ \t]*(#.*)?$", re.M)


def _read_chain(path: str, shown: str, seen: tuple, read: int = 0) -> tuple[dict, Lines, str]:
    """Read the ruleset file at `path` (`shown` in messages) and the files it extends (`seen` so far,
    `read` characters of them); return merged raw data, merged line map, name. A file that cannot be
    found is left for the caller to blame on whatever named it (a record, `--ruleset`, an `extends:`).
    A file without the line `medina: ruleset/1` is refused unread: a record may name any path, and
    what is not a ruleset is never shown."""
    if path in seen:
        raise fail(
            "ruleset-extends-cycle",
            "rulesets extend each other in a cycle: "
            + " -> ".join(Path(p).name for p in seen + (path,)),
        )
    try:
        _, text = read_text(path)
        read += len(text)
        if read > MAX_CHAIN_TEXT:
            raise fail(
                "too-large",
                f"larger than {MAX_CHAIN_TEXT // 1024} KiB with the rulesets it extends; not read",
            )
        if not RULESET_TAG_RE.search(text):
            other = OTHER_TAG_RE.search(text)
            kind = (
                f"this is a {'game record' if other.group(1) == 'record' else 'finished board'}"
                if other
                else "not a ruleset file"
            )
            raise fail(
                "ruleset-invalid",
                kind + ": a ruleset file has the line `medina: ruleset/1` (its content is "
                "not shown)",
            )
        data, lines = parse_yaml(text, shown)
    except MedinaError as exc:  # a ruleset that cannot be read makes the run unusable
        if exc.problem.code == "file-not-found":
            exc.problem.file, exc.problem.message = (
                None,
                f"ruleset file {as_named(shown)}: {exc.problem.message}",
            )
        else:
            exc.problem.file = shown  # read_text names the resolved path
        raise UnusableInput.of(exc) from exc
    if not isinstance(data, dict):
        raise fail(
            "ruleset-invalid",
            "a ruleset file must be a mapping",
            file=shown,
            line=1,
            error=UnusableInput,
        )
    words_back(data, lines.written)
    resolve_written(data)
    _validate(data, lines, shown, partial=True)
    parent = data.get("extends")
    if parent is None:
        return data, lines, shown
    try:
        parent_shown = _locate(parent, Path(shown).parent)
        if len(seen) + 2 > MAX_EXTENDS:
            raise fail(
                "ruleset-invalid",
                f"more than {MAX_EXTENDS} rulesets extend one another from here; not read further",
                file=shown,
                line=lines.of("extends"),
                error=UnusableInput,
            )
        base, base_lines, _ = _read_chain(
            os.path.realpath(parent_shown), parent_shown, seen + (path,), read
        )
    except MedinaError as exc:
        if (
            exc.problem.file is None
        ):  # the parent is unknown, missing or closes a cycle: this file's fault
            problem = exc.problem
            problem.file, problem.line, problem.message = (
                shown,
                lines.of("extends"),
                f"extends: {problem.message}",
            )
            raise UnusableInput.of(exc) from exc
        raise
    merged = _merge(base, {k: v for k, v in data.items() if k != "extends"})
    for key in ("id", "title", "sources"):  # identity is never inherited
        if key not in data:
            merged.pop(key, None)
    merged_lines = Lines(base_lines)
    merged_lines.update(lines)
    return merged, merged_lines, shown


def _merge(base: dict, over: dict) -> dict:
    out = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = value
    return out


def _validate(data: dict, lines: Lines, name: str, *, partial: bool) -> dict:
    """The data checked against the schema; a complete ruleset (not `partial`) is cross-checked too."""
    try:
        params = SCHEMA.check(data, (), partial)
        if not partial:
            _cross_check(params)
        return params
    except SchemaError as exc:
        first, *more = [
            Problem(
                "ruleset-invalid",
                f"{_dotted(path) or 'top level'}: {message}",
                file=name,
                line=lines.of(*path),
            )
            for path, message in exc.every
        ]
        raise UnusableInput(first, more=more) from exc


def _dotted(path) -> str:
    return ".".join(map(str, path))


def _cross_check(p: dict) -> None:
    """What the schema alone cannot check: entries for every player count, towers, colours, tea.
    Raises one SchemaError holding every problem found."""
    errors = []

    def error(path, message):
        errors.append(SchemaError(path, message))

    if not p["players"]:
        error(("players",), "at least one player count is needed")
    for n in p["players"]:
        for section in (("board", "interior"), ("supply",)):
            table = p[section[0]] if len(section) == 1 else p[section[0]][section[1]]
            if n not in table:
                error(section, f"no entry for {n} players (players lists {p['players']})")
    for n, size in p["board"]["interior"].items():
        if len(size) != 2:
            error(("board", "interior", n), "expected [columns, rows]")
    towers = p["board"]["towers"]
    if sorted(towers) != sorted(CORNERS) or sorted(towers.values()) != [1, 2, 3, 4]:
        error(("board", "towers"), "give each corner NW, NE, SE, SW a distinct tower number 1-4")
    letters = set()
    for colour, spec in p["colours"].items():
        if not NAME_RE.match(colour) or colour in OTHER_WORDS:
            error(
                ("colours", colour), "a colour name is a lower-case word that is not a piece name"
            )
        letter = spec["letter"]
        if (
            len(letter) != 1
            or not letter.islower()
            or letter in RESERVED_LETTERS
            or letter in letters
        ):
            error(
                ("colours", colour, "letter"),
                f"{letter!r}: need one distinct lower-case letter other than m, s, w",
            )
        letters.add(letter)
    if not p["colours"]:
        error(("colours",), "at least one colour is needed")
    _check_aliases(p["colours"], error)
    open_readings = [r.param for r in READINGS]
    for i, param in enumerate(p["settled_readings"]):
        if param not in open_readings:
            error(
                ("settled_readings", i),
                f"{param!r} is not an open reading; the open readings: {', '.join(open_readings)}",
            )
    tea = p["tea"]["colour"]
    if tea is not None and tea not in p["colours"]:
        error(
            ("tea", "colour"),
            f"{tea!r} is not a colour of this ruleset ({', '.join(p['colours'])})",
        )
    if errors:
        raise SchemaError.of(errors)


OTHER_WORDS = (*FIXED_PIECES, "tea", "pass")  # what else a word of a turn can be


def _check_aliases(colours: dict, error) -> None:
    """An alias spells one colour only: not a piece, `tea` or `pass`, nor another colour's name, letter or alias
    (each clash reported by `error(path, message)`)."""
    owner = {}  # every word that spells a colour -> that colour
    for colour, spec in colours.items():
        owner.update({colour: colour, spec["letter"]: colour})
    for colour, spec in colours.items():
        for i, alias in enumerate(spec["aliases"]):
            word = alias.lower()
            if word in OTHER_WORDS:
                error(
                    ("colours", colour, "aliases", i),
                    f"{alias!r} is a piece or a turn's word, not a colour",
                )
            elif owner.setdefault(word, colour) != colour:
                error(
                    ("colours", colour, "aliases", i),
                    f"{alias!r} already spells {owner[word]} (its name, letter or an alias)",
                )


def _spec_at(path: list[str]):
    """The schema entry for a dotted --set path, following map keys (player counts, towers)."""
    spec: Spec = SCHEMA
    keys = []
    for part in path:
        if isinstance(spec, Fields) and part in spec.fields:
            spec = spec.fields[part]
            keys.append(part)
        elif isinstance(spec, MapOf):
            try:
                key = spec.key.check(yaml.safe_load(part) if part.isdigit() else part, ())
            except SchemaError:
                return None, None
            keys.append(key)
            spec = spec.value
        else:
            return None, None
    return spec, keys


def _player_counts_in(keys) -> list:
    """The player counts a parameter's path names as keys of a table per player count (`supply.5.walls`: 5)."""
    spec: Spec = SCHEMA
    counts = []
    for key in keys:
        if isinstance(spec, MapOf):
            if spec.key is PLAYER_COUNT:
                counts.append(key)
            spec = spec.value
        elif isinstance(spec, Fields) and key in spec.fields:
            spec = spec.fields[key]
        else:
            break
    return counts


def _closest_parameter(param: str) -> str | None:
    """The parameter a misspelt dotted name most likely means: its first unknown key replaced by the
    closest key at that level, else the closest of all names."""
    parts = param.split(".")
    spec: Spec = SCHEMA
    for i, part in enumerate(parts):
        if isinstance(spec, MapOf):
            spec = spec.value
        elif isinstance(spec, Fields) and part in spec.fields:
            spec = spec.fields[part]
        else:
            keys = (
                [k for k in spec.fields if i or k not in NOT_PLAY]
                if isinstance(spec, Fields)
                else []
            )
            for key in difflib.get_close_matches(part, keys, n=1):
                guess = [*parts[:i], key, *parts[i + 1 :]]
                if _spec_at(guess)[0] is not None:
                    return ".".join(guess)
            break
    return next(iter(difflib.get_close_matches(param, parameter_names(), n=1)), None)


def _bad_set(message: str) -> MedinaError:
    return fail("bad-set", message, error=BadArgument)


def apply_overrides(ruleset: Ruleset, overrides) -> None:
    """Apply overrides in place: `PARAM=VALUE` strings, a mapping {PARAM: value} or (PARAM, value)
    pairs (a value given as text is read as `--set` reads it); an unknown parameter gets the closest
    name and the valid ones."""
    params = copy.deepcopy(ruleset.params)
    applied = []  # (item, keys) of each override, to blame a value the schema refuses on its override
    implied = []  # (section path, section, {parameter: value}) that the overrides' values give besides
    items = []  # each override as PARAM=VALUE text
    for entry in list(overrides.items()) if isinstance(overrides, Mapping) else list(overrides):
        given = None  # (value,) when the override gives a value, not text to read
        if isinstance(entry, (tuple, list)) and len(entry) == 2 and isinstance(entry[0], str):
            param, value = entry
            item = f"{param}={value if isinstance(value, str) else brief(value)}"
            given = None if isinstance(value, str) else (value,)
        else:
            item = entry if isinstance(entry, str) else brief(entry)
        items.append(item)
        param, sep, raw = item.partition("=")
        param = param.strip()
        if not sep:
            raise _bad_set(
                f"{brief(item)}: expected PARAM=VALUE, e.g. towers.reconnect=every_new_contact"
            )
        parts = param.split(".")
        if parts[0] in NOT_PLAY:
            hint = " (to play by another ruleset, use --ruleset)" if parts[0] == "extends" else ""
            raise _bad_set(
                f"{brief(item)}: `{parts[0]}` is not a parameter: it names or describes the ruleset and "
                f"does not change play{hint}"
            )
        spec, keys = _spec_at(parts)
        if spec is None:
            guess = _closest_parameter(param)
            raise _bad_set(
                f"{brief(item)}: no such parameter"
                + (f"; did you mean {guess}?" if guess else ".")
                + " Valid parameters: "
                + ", ".join(parameter_names())
            )
        raw = raw.strip()
        if given is not None:
            value = given[0]
        elif isinstance(spec, (Choice, Text)) and not raw.startswith(("[", "{")):
            value = None if raw in ("null", "~") else raw.strip("\"'")
        else:
            try:
                value, _ = parse_yaml(raw, "--set")
            except MedinaError as exc:
                raise _bad_set(f"{brief(item)}: {exc.problem.message}") from exc
        target = params
        for key in keys[:-1]:
            target = target.setdefault(key, {})
        if isinstance(spec, Choice):
            value, also = spec.written_with(value)
            implied.append((tuple(keys[:-1]), target, also))
        target[keys[-1]] = value
        applied.append((item, tuple(keys)))
    overridden = {keys for _, keys in applied}
    for section, target, values in implied:  # unless an override gives that parameter itself
        target.update((key, v) for key, v in values.items() if (*section, key) not in overridden)
    counts = params.get("players")
    for item, keys in applied:
        for count in _player_counts_in(keys):
            if isinstance(counts, list) and count not in counts:
                raise _bad_set(
                    f"{brief(item)}: {ruleset.players_refusal(count)} (to add a player count, --set "
                    "players as well, with the board and supply for it)"
                )
    try:
        params = SCHEMA.check(params, (), False)
        _cross_check(params)
    except SchemaError as exc:
        raise _override_error(exc, applied) from exc
    ruleset.params = params
    ruleset.record_ref = None
    ruleset.rules_by_players = {}  # a new dict: copies of the unchanged ruleset keep sharing theirs
    ruleset.source += " with --set " + ", ".join(items)


def _override_error(exc: SchemaError, applied: list[tuple[str, tuple]]) -> MedinaError:
    """A value refused after `--set`, blamed on the overrides of that parameter (all of them when the
    trouble is how the ruleset fits together, e.g. `players` without a board for the new count)."""
    path = tuple(exc.path)
    blamed = [
        (item, keys)
        for item, keys in applied
        if path[: len(keys)] == keys or keys[: len(path)] == path
    ]
    if len(blamed) == 1 and blamed[0][1] == path:
        return _bad_set(f"{brief(blamed[0][0])}: {exc.message}")
    items = ", ".join(brief(item) for item, _ in blamed or applied)
    return _bad_set(f"{items}: {_dotted(path)}: {exc.message}")


@dataclass(frozen=True)
class Alternative:
    """Another reading of an open rule point for one ruleset: the `--set` overrides that play it."""

    reading: Reading
    value: ReadingValue

    @property
    def overrides(self) -> tuple[str, ...]:
        return (f"{self.reading.param}={yaml_flow(self.value.value)}", *self.value.also)

    @property
    def label(self) -> str:
        return ", ".join(self.overrides)


def value_at(params: dict, dotted: str):
    """The value of a dotted parameter (`colours.purple.value`) in resolved parameters; KeyError if absent."""
    value = params
    for part in dotted.split("."):
        value = value[int(part) if part.isdigit() else part]
    return value


def alternatives(ruleset: Ruleset) -> list[Alternative]:
    """Every other reading of every open rule point that applies to `ruleset` (its value is one of the
    point's readings and its `settled_readings` do not name it), in the schema's order."""
    out: list[Alternative] = []
    for reading in READINGS:
        if reading.param in ruleset.params["settled_readings"]:
            continue
        try:
            current = value_at(ruleset.params, reading.param)
        except KeyError:
            continue
        if any(v.value == current for v in reading.values):
            out.extend(Alternative(reading, v) for v in reading.values if v.value != current)
    return out
