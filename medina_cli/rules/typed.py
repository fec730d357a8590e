"""`Rules`: one ruleset's parameters for one player count, as typed, immutable, hashable values.

The class is generated from the schema, so a parameter is defined once (in `schema.SCHEMA`) and read
under the same dotted name everywhere: `turns.forced_roof` in a ruleset file and in `--set` is
`rules.turns.forced_roof` here. How the schema's shapes become values:

- a section (`turns:`) becomes a frozen dataclass (`rules.turns`, of class `TurnsParams`);
- a mapping keyed by player count (`board.interior`, `supply`, `turns.opening_single`) becomes its entry
  for this count (a count left out takes the entry's default);
- a mapping of named sections (`colours`) becomes a tuple of them, each with its `name` first;
- any other mapping becomes a `FrozenMap`, a list a tuple.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field, fields, make_dataclass
from typing import Any, Literal

from .schema import (
    NOT_PLAY,
    SCHEMA,
    Bool,
    Choice,
    Fields,
    Int,
    ListOf,
    MapOf,
    SchemaError,
    Spec,
    Text,
)


class FrozenMap(Mapping):
    """A read-only, hashable mapping (tower numbers by corner, merchants by tower)."""

    __slots__ = ("_hash", "_items")

    def __init__(self, items=()):
        self._items = dict(items)
        self._hash = None

    def __getitem__(self, key):
        return self._items[key]

    def __iter__(self):
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(frozenset(self._items.items()))
        return self._hash

    def __repr__(self) -> str:
        return f"FrozenMap({self._items!r})"

    def __reduce__(self):
        return FrozenMap, (self._items,)


def _per_player_count(spec: Spec) -> bool:
    return isinstance(spec, MapOf) and spec.key_label == "players"


def _named_sections(spec: Spec) -> bool:
    return isinstance(spec, MapOf) and isinstance(spec.value, Fields)


def _class_name(key: str, named: bool) -> str:
    """`turns` -> TurnsParams; the sections of a named mapping by the singular: `colours` -> Colour."""
    title = "".join(part.title() for part in key.split("_"))
    return title.removesuffix("s") if named else title + "Params"


class _Shape:
    """How one schema entry becomes a value of `Rules`: its Python type and its conversion."""

    def __init__(self, spec: Spec, key: str, path: tuple[str, ...] = ()):
        self.spec, self.key, self.path = spec, key, (*path, key)
        if _per_player_count(spec):
            self.inner = _Shape(spec.value, key, path)
            self.type = self.inner.type
        elif isinstance(spec, Fields) or _named_sections(spec):
            fields = spec.fields if isinstance(spec, Fields) else spec.value.fields
            self.fields = {name: _Shape(sub, name, self.path) for name, sub in fields.items()}
            named = [("name", str)] if _named_sections(spec) else []
            self.cls = make_dataclass(
                _class_name(key, bool(named)),
                named + [(name, shape.type) for name, shape in self.fields.items()],
                frozen=True,
                slots=True,
                namespace={
                    "__post_init__": _checker(self.fields),
                    "__reduce__": _reducer(self.path),
                },
            )
            self.cls.__doc__ = spec.doc if not named else spec.value.doc
            self.cls.__module__ = __name__
            self.type = tuple[self.cls, ...] if named else self.cls
        elif isinstance(spec, MapOf):
            self.type = Mapping[_Shape(spec.key, key).type, _Shape(spec.value, key).type]
        elif isinstance(spec, ListOf):
            self.type = tuple[_Shape(spec.item, key).type, ...]
        else:
            self.type = _scalar_type(spec)

    def value(self, data, players: int):
        spec = self.spec
        if _per_player_count(spec):
            entry = data.get(players, spec.value.default)
            return self.inner.value(entry, players)
        if isinstance(spec, Fields):
            return self.cls(
                **{name: shape.value(data[name], players) for name, shape in self.fields.items()}
            )
        if _named_sections(spec):
            return tuple(
                self.cls(
                    name,
                    **{key: shape.value(entry[key], players) for key, shape in self.fields.items()},
                )
                for name, entry in data.items()
            )
        if isinstance(spec, MapOf):
            return FrozenMap(data)
        if isinstance(spec, ListOf):
            return tuple(data)
        return data


def _reducer(path: tuple[str, ...]):
    """A `__reduce__` that pickles a section by its place in the schema (`section_class(path)`) and
    its values, so that the generated classes need no importable name."""

    def __reduce__(self):
        return _section, (path, tuple(getattr(self, f.name) for f in fields(self)))

    return __reduce__


def _section(path: tuple[str, ...], values: tuple):
    """A section of `Rules` rebuilt from its place in the schema and its values (see `_reducer`)."""
    shape = _PLAY[path[0]]
    for key in path[1:]:
        shape = getattr(shape, "inner", shape).fields[key]
    return getattr(shape, "inner", shape).cls(*values)


def _checker(fields: dict):
    """A `__post_init__` refusing a value its schema entry refuses (`dataclasses.replace` included)."""
    scalars = {name: getattr(shape, "inner", shape).spec for name, shape in fields.items()}
    scalars = {
        name: spec for name, spec in scalars.items() if isinstance(spec, (Bool, Int, Choice))
    }

    def __post_init__(self):
        for name, spec in scalars.items():
            try:
                spec.check(getattr(self, name), (name,))
            except SchemaError as exc:
                raise ValueError(f"{type(self).__name__}.{name}: {exc.message}") from None

    return __post_init__


def _scalar_type(spec: Spec):
    if isinstance(spec, Bool):
        return bool
    if isinstance(spec, Int):
        return int
    if isinstance(spec, Choice):
        choices = Literal[spec.choices]  # type: ignore[valid-type]
        return choices | None if spec.nullable else choices
    if isinstance(spec, Text):
        return str | None if spec.default is None else str
    return Any


_PLAY = {
    key: _Shape(spec, key)
    for key, spec in SCHEMA.fields.items()
    if key not in NOT_PLAY and key != "players"
}


# names `Rules` had before it mirrored the schema, as docs/api.md published them: still read, never written
FORMER_NAMES = {"placements_per_turn": "turns.placements", "tower_reconnect": "towers.reconnect"}


def _former(path: str) -> property:
    section, name = path.split(".")
    return property(
        lambda rules: getattr(getattr(rules, section), name), doc=f"The same as `{path}`."
    )


def _colour_names(rules) -> tuple[str, ...]:
    return tuple(c.name for c in rules.colours)


Rules = make_dataclass(
    "Rules",
    [
        ("ruleset_id", str),
        ("players", int),
        *((key, shape.type) for key, shape in _PLAY.items()),
        ("record_ref", str | None, field(default=None, compare=False)),
    ],  # provenance, not rules
    frozen=True,
    namespace={
        "colour_names": property(_colour_names, doc="The building colours' names, in order."),
        **{former: _former(path) for former, path in FORMER_NAMES.items()},
    },
)
Rules.__module__ = __name__
Rules.__doc__ = (
    "Everything the engine needs for one player count, resolved from a ruleset: "
    "`ruleset_id`, `players` (the count), then one attribute per section of the schema, "
    "named as in ruleset files (" + ", ".join(_PLAY) + "), and `record_ref`, how a record names "
    "the ruleset (its built-in id or its file's absolute path; None with overrides)."
)


def rules_for(ruleset_id: str, params: dict, players: int, record_ref: str | None = None) -> Rules:
    """The `Rules` for `players` from a ruleset's resolved parameters (which must support that count)."""
    if players not in params["players"]:
        raise ValueError(players)
    return Rules(
        ruleset_id,
        players,
        **{key: shape.value(params[key], players) for key, shape in _PLAY.items()},
        record_ref=record_ref,
    )


def stub() -> str:
    """`typed.pyi`: the generated classes spelt out for type checkers (docs/generate.py writes it)."""

    def name(tp) -> str:
        text = tp.__name__ if isinstance(tp, type) else str(tp)
        for prefix in ("typing.", "collections.abc.", f"{__name__}."):
            text = text.replace(prefix, "")
        return text

    def section(cls, doc: str) -> list[str]:
        return [
            "",
            "",
            "@dataclass(frozen=True)",
            f"class {cls.__name__}:",
            f'    """{doc}"""',
            "",
            *(f"    {f.name}: {name(f.type)}" for f in fields(cls)),
        ]

    lines = [
        '"""Generated by docs/generate.py from medina_cli/rules/schema.py: the classes typed.py makes, for '
        'type checkers."""',
        "",
        "from collections.abc import Iterator, Mapping",
        "from dataclasses import dataclass",
        "from typing import Any, Literal, Optional",
        "",
        "",
        "class FrozenMap(Mapping[Any, Any]):",
        "    def __init__(self, items: Any = ...) -> None: ...",
        "    def __getitem__(self, key: Any) -> Any: ...",
        "    def __iter__(self) -> Iterator[Any]: ...",
        "    def __len__(self) -> int: ...",
        "    def __hash__(self) -> int: ...",
    ]

    def classes(shape):
        shape = getattr(shape, "inner", shape)
        for sub in getattr(shape, "fields", {}).values():
            yield from classes(sub)
        if hasattr(shape, "cls"):
            yield shape.cls

    for shape in _PLAY.values():
        for cls in classes(shape):
            lines += section(cls, cls.__doc__)
    lines += section(
        Rules, "Everything the engine needs for one player count, resolved from a ruleset."
    )
    lines += ["", "    @property", "    def colour_names(self) -> tuple[str, ...]: ..."]
    for former, path in FORMER_NAMES.items():
        section_name, field_name = path.split(".")
        tp = next(f.type for f in fields(_PLAY[section_name].cls) if f.name == field_name)
        lines += ["", "    @property", f"    def {former}(self) -> {name(tp)}: ..."]
    lines += [
        "",
        "",
        "FORMER_NAMES: dict[str, str]",
        "",
        "",
        "def rules_for(ruleset_id: str, params: dict[str, Any], players: int, "
        "record_ref: str | None = ...) -> Rules: ...",
        "",
        "",
        "def stub() -> str: ...",
    ]
    return "\n".join(lines) + "\n"
