"""The `medina` command: wires the subcommands together and guarantees no traceback reaches a user."""

from __future__ import annotations

import os
import sys

import typer

from . import compare, importer, render, replay, rules, score, simulate, validate, view

app = typer.Typer(
    name="medina",
    help="Replay, validate and score recorded games of the board game Medina under its rule editions.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="markdown",
    context_settings={"help_option_names": ["-h", "--help"]},
)

app.command("validate")(validate.validate)
app.command("replay")(replay.replay_command)
app.command("moves")(replay.moves)
app.command("render")(render.render_command)
app.command("view")(view.view_command)
app.add_typer(importer.app, name="import")
app.command("score")(score.score)
app.command("compare")(compare.compare)
app.add_typer(rules.app, name="rules")
app.command("simulate")(simulate.simulate_command)


def main() -> None:
    """Console entry point: exit 0/1/2 as docs/format.md says; unexpected failures become one line."""
    from ..errors import MedinaError
    try:
        app()
    except MedinaError as exc:
        sys.stderr.write(exc.problem.human() + "\n")
        sys.exit(2 if exc.unusable else 1)
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        sys.exit(130)
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
    except Exception as exc:  # the last guard: a bug must still not show a traceback
        if os.environ.get("MEDINA_DEBUG"):
            raise
        sys.stderr.write(f"medina: internal error: {type(exc).__name__}: {exc} "
                         "(set MEDINA_DEBUG=1 for details; please report it)\n")
        sys.exit(2)
