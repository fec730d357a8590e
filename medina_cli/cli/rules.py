"""`medina rules list|show|diff|params`: the rule editions and their parameters, side by side."""

from __future__ import annotations

from typing import Annotated

import typer

from .common import (Command, Group, JsonOption, SetOption, complete_ruleset, emit_json, load_or_exit, say, shown_as,
                     stop, with_problems)

app = typer.Typer(help="The rule editions: list them, show one resolved, compare them, list the parameters.\n\n"
                  "Exit status: 0 done, 2 an unknown, unreadable or invalid ruleset, or another usage error.",
                  no_args_is_help=True, cls=Group)

RefArgument = Annotated[str, typer.Argument(metavar="ID|PATH", parser=shown_as("ruleset"),
                                            autocompletion=complete_ruleset, help="A built-in ruleset id or a ruleset YAML file.")]
IDENTITY = ("medina", "id", "title", "extends", "sources")  # what a ruleset is called, not how it plays
ABSENT = object()


def resolved(ruleset) -> dict:
    """The ruleset as a stand-alone ruleset/1 document: identity first, `extends` already applied."""
    params = {k: v for k, v in ruleset.params.items() if k not in IDENTITY}
    return {"medina": "ruleset/1", "id": ruleset.id, "title": ruleset.title, "sources": ruleset.sources, **params}


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


def flow(value) -> str:
    """A value as one line of YAML flow text ("—" when the ruleset has no such parameter)."""
    if value is ABSENT:
        return "—"
    from ..yamlio import yaml_flow
    return yaml_flow(value)


def shown(value) -> str:
    """A value for the table people read: a word as it is (`off`, where YAML would quote it), else `flow`."""
    return value if isinstance(value, str) and value.strip() and value.isprintable() else flow(value)


@app.command("list", cls=Command)
def list_rulesets(json_: JsonOption = False) -> None:
    """The built-in rulesets: id, title, player counts and sources.

    Exit status: 0 listed, 2 usage error.
    """
    from tabulate import tabulate

    from ..rules.loader import builtin_ids

    rulesets = [load_or_exit(rid) for rid in builtin_ids()]
    if json_:
        emit_json({"format": "medina-rules/1", "rulesets": [
            {"id": r.id, "title": r.title, "players": r.player_counts, "sources": r.sources} for r in rulesets]})
        return
    say(tabulate([[r.id, ", ".join(map(str, r.player_counts)), r.title] for r in rulesets],
                 headers=["id", "players", "title"], tablefmt="simple"))
    for r in rulesets:
        say()
        say(f"{r.id} sources:")
        for source in r.sources or ["(none given)"]:
            say(f"  - {source}")


@app.command("show", cls=Command)
def show(ref: RefArgument, set_: SetOption = None, json_: JsonOption = False) -> None:
    """Every parameter of one ruleset, `extends` applied (and --set), as ruleset YAML (--json: as JSON,
    with every error of an invalid ruleset file).

    Exit status: 0 shown, 2 an unknown, unreadable or invalid ruleset (every error is listed), a bad
    --set, or another usage error.
    """
    import yaml

    class Dumper(yaml.SafeDumper):  # shared default values must not become anchors: rulesets refuse aliases
        def ignore_aliases(self, data):
            return True

    doc = {"format": "medina-rules-show/1", "ruleset": None} if json_ else None
    document = resolved(load_or_exit(ref, set_, doc=doc))
    if json_:
        emit_json(with_problems({**doc, "ruleset": document}, []))
        return
    identity = {k: document.pop(k) for k in ("medina", "id", "title", "sources")}
    for part, flow_style in ((identity, False), (document, None)):
        say(yaml.dump(part, Dumper=Dumper, sort_keys=False, allow_unicode=True, default_flow_style=flow_style,
                      width=100).rstrip())


@app.command("diff", cls=Command)
def diff(
    refs: Annotated[list[str], typer.Argument(metavar="A B [C...]", parser=shown_as("ruleset"),
                                              autocompletion=complete_ruleset, help="Two or more ruleset ids or files.")],
    json_: JsonOption = False,
) -> None:
    """A table of every parameter that differs between rulesets, values side by side.

    Exit status: 0 compared, 2 an unknown, unreadable or invalid ruleset, or another usage error.
    """
    from tabulate import tabulate

    from ..rules.schema import SCHEMA

    doc = {"format": "medina-rules-diff/1", "rulesets": refs, "differences": []} if json_ else None
    if len(refs) < 2:
        from ..errors import Problem
        from ..rules.loader import builtin_ids
        stop([Problem("usage", f"needs at least two rulesets (ids or files); built-in ids: {', '.join(builtin_ids())}",
                      file="medina rules diff")], 2, doc)
    rulesets = [load_or_exit(ref, doc=doc) for ref in refs]
    ids = [r.id for r in rulesets]
    names = ids if len(set(ids)) == len(ids) else refs
    flat = [flatten(r.params) for r in rulesets]
    sections = list(SCHEMA.fields)
    paths = sorted(dict.fromkeys(path for table in flat for path in table),
                   key=lambda path: sections.index(path.split(".")[0]))
    differing = [(path, [table.get(path, ABSENT) for table in flat]) for path in paths]
    differing = [(path, values) for path, values in differing if len(set(map(flow, values))) > 1]
    if json_:
        emit_json(with_problems({**doc, "rulesets": names, "differences": [
            {"parameter": path, "values": [None if v is ABSENT else v for v in values]}
            for path, values in differing]}, []))
        return
    if not differing:
        say(f"{' and '.join(names)}: no parameter differs")
        return
    say(tabulate([[path, *map(shown, values)] for path, values in differing],
                 headers=["parameter", *names], tablefmt="simple"))
    if any(value is ABSENT for _, values in differing for value in values):
        say("(— : the ruleset has no such parameter)")


@app.command("params", cls=Command)
def params(json_: JsonOption = False) -> None:
    """Every ruleset parameter: dotted path (for --set), type, allowed values, default, meaning.

    Exit status: 0 listed, 2 usage error.
    """
    from tabulate import tabulate

    from ..rules.schema import parameter_rows, parameters, reading_lines

    if json_:
        emit_json({"format": "medina-rules-params/2", "parameters": [parameter_json(path, spec)
                                                                     for path, spec in parameters()]})
        return
    widths = (None, None, 30, 24, 50)
    rows = [[wrap(cell, width) for cell, width in zip(row, widths)] for row in parameter_rows()]
    say(tabulate(rows, headers=["parameter", "type", "allowed", "default", "meaning"], tablefmt="simple"))
    say()
    say("Open readings (rule points no rules text we have settles; R-n: the rulings' numbers). A ruleset that uses\n"
        "one of a point's readings, and does not list it in settled_readings, is played under the others by\n"
        "`medina compare FILE --readings` and `medina simulate --readings`:")
    for line in reading_lines():
        say("  " + line)


def parameter_json(path: str, spec) -> dict:
    """One parameter for `rules params --json`: allowed values, keys and default as JSON values."""
    from ..rules.schema import REQUIRED, MapOf, readings_of

    required = spec.default is REQUIRED
    return {"parameter": path, "type": spec.type_name, "allowed": spec.allowed_values(),
            "keys": spec.key.allowed_values() if isinstance(spec, MapOf) else None,
            "default": None if required else spec.default, "required": required, "meaning": spec.doc,
            "readings": [{"param": r.param, "point": r.point, "values": [
                {"value": v.value, "source": v.source, "also": list(v.also)} for v in r.values]}
                for r in readings_of(path)]}


def wrap(text: str, width: int | None) -> str:
    """`text` in lines of at most `width` characters, broken at spaces only (a longer word stays whole)."""
    import textwrap

    if width is None:
        return text
    return "\n".join(textwrap.wrap(text, width, break_long_words=False, break_on_hyphens=False)) or text
