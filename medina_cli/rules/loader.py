"""Load rulesets: built-in ids or paths, `extends:` chains, validation and `--set` overrides.

`load_ruleset(ref)` returns a `Ruleset` (all player counts); `Ruleset.for_players(n)` gives the
`Rules` the engine plays by.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import yaml

from ..errors import MedinaError, fail
from ..yamlio import Lines, read_yaml
from .schema import CORNERS, NAME_RE, RESERVED_LETTERS, SCHEMA, Choice, Fields, MapOf, SchemaError, Text, parameter_names


@lru_cache(maxsize=None)
def builtin_dir() -> Path:
    """Installed wheels carry the rulesets inside the package; a source checkout has them at the top."""
    inside = Path(__file__).resolve().parent.parent / "rulesets"
    return inside if inside.is_dir() else Path(__file__).resolve().parents[2] / "rulesets"


def builtin_ids() -> list[str]:
    return sorted(p.stem for p in builtin_dir().glob("*.yaml"))


@dataclass(frozen=True)
class Colour:
    name: str
    value: int
    letter: str
    aliases: tuple[str, ...]


@dataclass(frozen=True)
class Rules:
    """Everything the engine needs for one player count, resolved from a ruleset."""

    ruleset_id: str
    players: int
    columns: int
    rows: int
    towers: dict  # corner -> tower number
    colours: tuple[Colour, ...]
    supply: dict  # per_colour, roofs, neutral_roofs, stables, merchants, walls
    well: bool
    well_bonus: int
    placements_per_turn: int
    opening_single: int
    forced_roof: str
    new_chain_max_neighbours: int
    tower_reconnect: str
    tower_merchants: dict  # tower number -> merchants
    tea_colour: str | None
    tea_awards: tuple[int, ...]
    tea_replaces: str
    retirement: tuple[str, ...]
    merchants_touching_stables: bool
    tiebreak: str

    @property
    def colour_names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.colours)


@dataclass
class Ruleset:
    id: str
    title: str
    source: str  # "built-in" or the file path
    params: dict  # fully resolved, validated parameters
    sources: list = field(default_factory=list)
    rules_by_players: dict = field(default_factory=dict, repr=False, compare=False)  # for_players cache

    @property
    def player_counts(self) -> list[int]:
        return sorted(self.params["players"])

    def piece_names(self) -> dict[str, str]:
        """Every accepted piece spelling (lower case) -> canonical piece name."""
        names = {n: n for n in ("roof", "neutral", "stable", "merchant", "wall")}
        for colour, spec in self.params["colours"].items():
            names[colour] = colour
            for alias in spec["aliases"]:
                names[alias.lower()] = colour
        return names

    def for_players(self, n: int) -> Rules:
        """The rules for `n` players (built once per ruleset and player count; treat them as read-only)."""
        rules = self.rules_by_players.get(n)
        if rules is None:
            rules = self.rules_by_players[n] = self._build_rules(n)
        return rules

    def _build_rules(self, n: int) -> Rules:
        p = self.params
        if n not in p["players"]:
            raise ValueError(n)
        columns, rows = p["board"]["interior"][n]
        return Rules(
            ruleset_id=self.id,
            players=n,
            columns=columns,
            rows=rows,
            towers=dict(p["board"]["towers"]),
            colours=tuple(Colour(name, c["value"], c["letter"], tuple(c["aliases"])) for name, c in p["colours"].items()),
            supply=dict(p["supply"][n]),
            well=p["well"]["enabled"],
            well_bonus=p["well"]["bonus"],
            placements_per_turn=p["turns"]["placements"],
            opening_single=p["turns"]["opening_single"].get(n, 0),
            forced_roof=p["turns"]["forced_roof"],
            new_chain_max_neighbours=p["merchants"]["new_chain_max_neighbours"],
            tower_reconnect=p["towers"]["reconnect"],
            tower_merchants=dict(p["towers"]["merchants"]),
            tea_colour=p["tea"]["colour"],
            tea_awards=tuple(p["tea"]["awards"]),
            tea_replaces=p["tea"]["replaces"],
            retirement=tuple(p["retirement"]),
            merchants_touching_stables=p["scoring"]["merchants_touching_stables"],
            tiebreak=p["scoring"]["tiebreak"],
        )


def is_path(ref: str) -> bool:
    return ref.endswith((".yaml", ".yml")) or "/" in ref or "\\" in ref


def load_ruleset(ref: str, overrides: list[str] | tuple = (), *, base_dir: Path | None = None) -> Ruleset:
    """Load a built-in id or a ruleset file (relative paths resolve against `base_dir`), then apply
    `--set PARAM=VALUE` overrides. Raises MedinaError."""
    ruleset = copy.copy(_load_cached(_resolve_ref(ref, base_dir), ref))  # apply_overrides copies params
    if overrides:
        apply_overrides(ruleset, overrides)
    return ruleset


def _resolve_ref(ref: str, base_dir: Path | None) -> str:
    if is_path(ref):
        path = Path(ref)
        if not path.is_absolute() and base_dir is not None and not path.exists():
            path = base_dir / path
        return str(path.resolve())
    builtin = builtin_dir() / f"{ref}.yaml"
    if not builtin.is_file():
        raise fail("unknown-ruleset", f"unknown ruleset {ref!r}; built-in rulesets: {', '.join(builtin_ids())} "
                   "(or give a path to a .yaml file)")
    return str(builtin)


@lru_cache(maxsize=32)
def _load_cached(resolved: str, ref: str) -> Ruleset:
    raw, lines, name = _read_chain(resolved, ())
    params = _validate(raw, lines, name, partial=False)
    _cross_check(params, name, lines)
    builtin = Path(resolved).parent == builtin_dir()
    rid = params["id"] or Path(resolved).stem
    return Ruleset(id=rid, title=params["title"] or rid, source="built-in" if builtin else ref,
                   params=params, sources=list(params["sources"]))


def _read_chain(path: str, seen: tuple) -> tuple[dict, Lines, str]:
    """Read a ruleset file and the files it extends; return merged raw data, merged line map, name."""
    if path in seen:
        raise fail("ruleset-extends-cycle", "rulesets extend each other in a cycle: "
                   + " -> ".join(Path(p).name for p in seen + (path,)))
    try:
        name, data, lines = read_yaml(path)
    except MedinaError as exc:  # a ruleset that cannot be read makes the run unusable
        if exc.problem.code == "file-not-found":
            exc.problem.code = "unknown-ruleset"
        exc.unusable = True
        raise
    if not isinstance(data, dict):
        raise fail("ruleset-invalid", "a ruleset file must be a mapping", file=name, line=1, unusable=True)
    tag = data.get("medina")
    if isinstance(tag, str) and tag != "ruleset/1" and tag.partition("/")[0] in ("record", "board"):
        raise fail("ruleset-invalid", f"this is a {'game record' if tag.startswith('record') else 'finished board'} "
                   f"(`medina: {tag}`), not a ruleset (`medina: ruleset/1`)", file=name, line=lines.of("medina"),
                   unusable=True)
    _validate(data, lines, name, partial=True)
    parent = data.get("extends")
    if parent is None:
        return data, lines, name
    parent_path = _resolve_ref(parent, Path(path).parent)
    base, base_lines, _ = _read_chain(parent_path, seen + (path,))
    merged = _merge(base, {k: v for k, v in data.items() if k != "extends"})
    for key in ("id", "title", "sources"):  # identity is never inherited
        if key not in data:
            merged.pop(key, None)
    merged_lines = Lines({k: v for k, v in base_lines.items()})
    merged_lines.update(lines)
    return merged, merged_lines, name


def _merge(base: dict, over: dict) -> dict:
    out = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = value
    return out


def _validate(data: dict, lines: Lines, name: str, *, partial: bool) -> dict:
    try:
        return SCHEMA.check(data, (), partial)
    except SchemaError as exc:
        where = ".".join(map(str, exc.path)) or "top level"
        raise fail("ruleset-invalid", f"{where}: {exc.message}", file=name, line=lines.of(*exc.path), unusable=True)


def _cross_check(p: dict, name: str, lines: Lines) -> None:
    def bad(path: tuple, message: str):
        raise fail("ruleset-invalid", f"{'.'.join(map(str, path))}: {message}", file=name,
                   line=lines.of(*path), unusable=True)

    for n in p["players"]:
        for section in (("board", "interior"), ("supply",)):
            table = p[section[0]] if len(section) == 1 else p[section[0]][section[1]]
            if n not in table:
                bad(section, f"no entry for {n} players (players lists {p['players']})")
    for n, size in p["board"]["interior"].items():
        if len(size) != 2:
            bad(("board", "interior", n), "expected [columns, rows]")
    towers = p["board"]["towers"]
    if sorted(towers) != sorted(CORNERS) or sorted(towers.values()) != [1, 2, 3, 4]:
        bad(("board", "towers"), "give each corner NW, NE, SE, SW a distinct tower number 1-4")
    letters = set()
    for colour, spec in p["colours"].items():
        if not NAME_RE.match(colour) or colour in ("roof", "neutral", "stable", "merchant", "wall", "tea", "pass"):
            bad(("colours", colour), "a colour name is a lower-case word that is not a piece name")
        letter = spec["letter"]
        if len(letter) != 1 or not letter.islower() or letter in RESERVED_LETTERS or letter in letters:
            bad(("colours", colour, "letter"), f"{letter!r}: need one distinct lower-case letter other than m, s, w")
        letters.add(letter)
    if not p["colours"]:
        bad(("colours",), "at least one colour is needed")
    tea = p["tea"]["colour"]
    if tea is not None and tea not in p["colours"]:
        bad(("tea", "colour"), f"{tea!r} is not a colour of this ruleset ({', '.join(p['colours'])})")


def _spec_at(path: list[str]):
    """The schema entry for a dotted --set path, following map keys (player counts, towers)."""
    spec = SCHEMA
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


def apply_overrides(ruleset: Ruleset, overrides) -> None:
    """Apply `PARAM=VALUE` strings in place; unknown parameters list the valid names."""
    params = copy.deepcopy(ruleset.params)
    for item in overrides:
        param, sep, raw = item.partition("=")
        if not sep:
            raise fail("bad-set", f"{item!r}: expected PARAM=VALUE, e.g. towers.reconnect=every_new_contact",
                       unusable=True)
        spec, keys = _spec_at(param.strip().split("."))
        if spec is None:
            raise fail("bad-set", f"{item!r}: no such parameter. Valid parameters: "
                       + ", ".join(parameter_names()), unusable=True)
        raw = raw.strip()
        if isinstance(spec, (Choice, Text)) and not raw.startswith(("[", "{")):
            value = None if raw in ("null", "~") else raw.strip("\"'")
        else:
            try:
                value = yaml.safe_load(raw)
            except yaml.YAMLError:
                raise fail("bad-set", f"{item!r}: unreadable value", unusable=True)
        target = params
        for key in keys[:-1]:
            target = target.setdefault(key, {})
        target[keys[-1]] = value
    try:
        params = SCHEMA.check(params, (), False)
    except SchemaError as exc:
        raise fail("bad-set", f"{'.'.join(map(str, exc.path))}: {exc.message}", unusable=True)
    _cross_check(params, "--set", Lines())
    ruleset.params = params
    ruleset.rules_by_players = {}  # a new dict: copies of the unchanged ruleset keep sharing theirs
    ruleset.source += " with --set " + ", ".join(overrides)
