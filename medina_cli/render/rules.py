"""The rule editions for people and as JSON (`medina rules`): the built-in rulesets, one ruleset
resolved, the parameters that differ between rulesets, and every parameter with its open readings."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..rules.schema import SCHEMA
from ..yamlio import yaml_flow

if TYPE_CHECKING:
    from ..rules.loader import Ruleset
    from ..rules.schema import Spec

IDENTITY = (
    "medina",
    "id",
    "title",
    "extends",
    "sources",
)  # what a ruleset is called, not how it plays
ABSENT = object()  # the value of a parameter a ruleset does not have


def list_json(rulesets: Sequence[Ruleset]) -> dict:
    """The medina-rules/1 document: each ruleset's id, title, player counts and sources."""
    return {
        "format": "medina-rules/1",
        "rulesets": [
            {"id": r.id, "title": r.title, "players": r.player_counts, "sources": r.sources}
            for r in rulesets
        ],
    }


def list_lines(rulesets: Sequence[Ruleset]) -> list[str]:
    """A table of the rulesets (id, player counts, title), then each one's sources."""
    from tabulate import tabulate

    lines = [
        tabulate(
            [[r.id, ", ".join(map(str, r.player_counts)), r.title] for r in rulesets],
            headers=["id", "players", "title"],
            tablefmt="simple",
        )
    ]
    for r in rulesets:
        lines += [
            "",
            f"{r.id} sources:",
            *(f"  - {source}" for source in r.sources or ["(none given)"]),
        ]
    return lines


def resolved(ruleset: Ruleset) -> dict:
    """The ruleset as a stand-alone ruleset/1 document: identity first, `extends` already applied."""
    params = {k: v for k, v in ruleset.params.items() if k not in IDENTITY}
    return {
        "medina": "ruleset/1",
        "id": ruleset.id,
        "title": ruleset.title,
        "sources": ruleset.sources,
        **params,
    }


def show_json(ruleset: Ruleset | None = None) -> dict:
    """The medina-rules-show/1 document (without `errors` and `warnings`): the ruleset resolved; without
    one, as far as it is known before it is loaded."""
    return {
        "format": "medina-rules-show/1",
        "ruleset": None if ruleset is None else resolved(ruleset),
    }


def show_yaml(ruleset: Ruleset) -> str:
    """The ruleset resolved as ruleset YAML: its identity in block style, then its parameters."""
    import yaml

    class Dumper(
        yaml.SafeDumper
    ):  # shared default values must not become anchors: rulesets refuse aliases
        def ignore_aliases(self, data: object) -> bool:
            return True

    document = resolved(ruleset)
    identity = {k: document.pop(k) for k in ("medina", "id", "title", "sources")}
    return "\n".join(
        yaml.dump(
            part,
            Dumper=Dumper,
            sort_keys=False,
            allow_unicode=True,
            default_flow_style=flow_style,
            width=100,
        ).rstrip()
        for part, flow_style in ((identity, False), (document, None))
    )


def flatten(params: dict, prefix: str = "") -> dict[str, object]:
    """Dotted parameter path -> value for every leaf (lists are leaves; an empty mapping has none);
    identity keys left out."""
    out = {}
    for key, value in params.items():
        if not prefix and key in IDENTITY:
            continue
        path = f"{prefix}.{key}" if prefix else str(key)
        if isinstance(value, dict):
            out.update(flatten(value, path))
        else:
            out[path] = value
    return out


def flow(value: object) -> str:
    """A value as one line of YAML flow text ("—" when the ruleset has no such parameter)."""
    return "—" if value is ABSENT else yaml_flow(value)


def shown(value: object) -> str:
    """A value for the table people read: a word as it is (`off`, where YAML would quote it), else `flow`."""
    return (
        value if isinstance(value, str) and value.strip() and value.isprintable() else flow(value)
    )


class Differences:
    """The parameters that differ between rulesets, in schema order, each with its value per ruleset
    (ABSENT where a ruleset has no such parameter); the rulesets named by id, or by `refs` when two
    ids are the same."""

    def __init__(self, rulesets: Sequence[Ruleset], refs: Sequence[str]) -> None:
        ids = [r.id for r in rulesets]
        self.names = ids if len(set(ids)) == len(ids) else list(refs)
        flat = [flatten(r.params) for r in rulesets]
        sections = list(SCHEMA.fields)
        paths = sorted(
            dict.fromkeys(path for table in flat for path in table),
            key=lambda path: sections.index(path.split(".")[0]),
        )
        values = [(path, [table.get(path, ABSENT) for table in flat]) for path in paths]
        self.differing = [
            (path, values) for path, values in values if len(set(map(flow, values))) > 1
        ]

    def to_json(self) -> dict:
        """The medina-rules-diff/1 document (without `errors` and `warnings`)."""
        return diff_json(
            self.names,
            [
                {"parameter": path, "values": [None if v is ABSENT else v for v in values]}
                for path, values in self.differing
            ],
        )

    def lines(self) -> list[str]:
        """The differing parameters as a table, values side by side."""
        from tabulate import tabulate

        if not self.differing:
            return [f"{' and '.join(self.names)}: no parameter differs"]
        lines = [
            tabulate(
                [[path, *map(shown, values)] for path, values in self.differing],
                headers=["parameter", *self.names],
                tablefmt="simple",
            )
        ]
        if any(value is ABSENT for _, values in self.differing for value in values):
            lines.append("(— : the ruleset has no such parameter)")
        return lines


def diff_json(refs: Sequence[str], differences: Sequence[dict] = ()) -> dict:
    """The medina-rules-diff/1 document (without `errors` and `warnings`); without `differences`, as far as
    it is known before the rulesets are loaded."""
    return {"format": "medina-rules-diff/1", "rulesets": refs, "differences": list(differences)}


def params_json() -> dict:
    """The medina-rules-params/2 document: every parameter with its allowed values and readings."""
    from ..rules.schema import parameters

    return {
        "format": "medina-rules-params/2",
        "parameters": [parameter_json(path, spec) for path, spec in parameters()],
    }


def parameter_json(path: str, spec: Spec) -> dict:
    """One parameter for `rules params --json`: allowed values, keys and default as JSON values."""
    from ..rules.schema import REQUIRED, MapOf, readings_of

    required = spec.default is REQUIRED
    return {
        "parameter": path,
        "type": spec.type_name,
        "allowed": spec.allowed_values(),
        "keys": spec.key.allowed_values() if isinstance(spec, MapOf) else None,
        "default": None if required else spec.default,
        "required": required,
        "meaning": spec.doc,
        "readings": [
            {
                "param": r.param,
                "point": r.point,
                "values": [
                    {"value": v.value, "source": v.source, "also": list(v.also)} for v in r.values
                ],
            }
            for r in readings_of(path)
        ],
    }


def params_lines() -> list[str]:
    """Every parameter as a table (path, type, allowed values, default, meaning), then the open readings."""
    from tabulate import tabulate

    from ..rules.schema import parameter_rows, reading_lines

    widths = (None, None, 30, 24, 50)
    rows = [
        [wrap(cell, width) for cell, width in zip(row, widths, strict=True)]
        for row in parameter_rows()
    ]
    return [
        tabulate(
            rows, headers=["parameter", "type", "allowed", "default", "meaning"], tablefmt="simple"
        ),
        "",
        "Open readings (rule points no rules text we have settles; R-n: the rulings' numbers). "
        "A ruleset that uses\n"
        "one of a point's readings, and does not list it in settled_readings, is played under the others by\n"
        "`medina compare FILE --readings` and `medina simulate --readings`:",
        *("  " + line for line in reading_lines()),
    ]


def wrap(text: str, width: int | None) -> str:
    """`text` in lines of at most `width` characters, broken at spaces only (a longer word stays whole)."""
    import textwrap

    if width is None:
        return text
    return (
        "\n".join(textwrap.wrap(text, width, break_long_words=False, break_on_hyphens=False))
        or text
    )
