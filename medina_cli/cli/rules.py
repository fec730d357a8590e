"""`medina rules list|show|diff|params`: the rule editions and their parameters, side by side."""

from __future__ import annotations

from typing import Annotated

import typer

from .common import (
    Command,
    Group,
    JsonOption,
    SetOption,
    complete_ruleset,
    emit_json,
    load_or_exit,
    say,
    shown_as,
    stop,
    with_problems,
)

app = typer.Typer(
    help="The rule editions: list them, show one resolved, compare them, list the parameters.\n\n"
    "Exit status: 0 done, 2 an unknown, unreadable or invalid ruleset, or another usage error.",
    no_args_is_help=True,
    cls=Group,
)

RefArgument = Annotated[
    str,
    typer.Argument(
        metavar="ID|PATH",
        parser=shown_as("ruleset"),
        autocompletion=complete_ruleset,
        help="A built-in ruleset id or a ruleset YAML file.",
    ),
]


@app.command("list", cls=Command)
def list_rulesets(json_: JsonOption = False) -> None:
    """The built-in rulesets: id, title, player counts and sources.

    Exit status: 0 listed, 2 usage error.
    """
    from ..render.rules import list_json, list_lines
    from ..rules.loader import builtin_ids

    rulesets = [load_or_exit(rid) for rid in builtin_ids()]
    if json_:
        emit_json(list_json(rulesets))
    else:
        say("\n".join(list_lines(rulesets)))


@app.command("show", cls=Command)
def show(ref: RefArgument, set_: SetOption = None, json_: JsonOption = False) -> None:
    """Every parameter of one ruleset, `extends` applied (and --set), as ruleset YAML (--json: as JSON,
    with every error of an invalid ruleset file).

    Exit status: 0 shown, 2 an unknown, unreadable or invalid ruleset (every error is listed), a bad
    --set, or another usage error.
    """
    from ..render.rules import show_json, show_yaml

    doc = show_json() if json_ else None
    ruleset = load_or_exit(ref, set_, doc=doc)
    if json_:
        emit_json(with_problems(show_json(ruleset), []))
    else:
        say(show_yaml(ruleset))


@app.command("diff", cls=Command)
def diff(
    refs: Annotated[
        list[str],
        typer.Argument(
            metavar="A B [C...]",
            parser=shown_as("ruleset"),
            autocompletion=complete_ruleset,
            help="Two or more ruleset ids or files.",
        ),
    ],
    json_: JsonOption = False,
) -> None:
    """A table of every parameter that differs between rulesets, values side by side.

    Exit status: 0 compared, 2 an unknown, unreadable or invalid ruleset, or another usage error.
    """
    from ..render.rules import Differences, diff_json

    doc = diff_json(refs) if json_ else None
    if len(refs) < 2:
        from ..errors import Problem
        from ..rules.loader import builtin_ids

        stop(
            [
                Problem(
                    "usage",
                    f"needs at least two rulesets (ids or files); built-in ids: {', '.join(builtin_ids())}",
                    file="medina rules diff",
                )
            ],
            2,
            doc,
        )
    differences = Differences([load_or_exit(ref, doc=doc) for ref in refs], refs)
    if json_:
        emit_json(with_problems(differences.to_json(), []))
    else:
        say("\n".join(differences.lines()))


@app.command("params", cls=Command)
def params(json_: JsonOption = False) -> None:
    """Every ruleset parameter: dotted path (for --set), type, allowed values, default, meaning.

    Exit status: 0 listed, 2 usage error.
    """
    from ..render.rules import params_json, params_lines

    if json_:
        emit_json(params_json())
    else:
        say("\n".join(params_lines()))
