"""The `medina` command: wires the subcommands together and guarantees no traceback reaches a user."""

from __future__ import annotations

import os
import signal
import sys
from typing import Annotated

import typer

from . import compare, hint, importer, play, recording, render, replay, rules, score, simulate, study, validate, view
from .common import Command, Group, exit_status, tolerate_output_encoding

app = typer.Typer(
    name="medina",
    cls=Group,
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode="markdown",
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _print_version(wanted: bool) -> None:
    if not wanted:
        return
    from importlib.metadata import PackageNotFoundError, version
    try:
        number = version("medina-cli")
    except PackageNotFoundError:  # run from a source tree that is not installed
        from .. import __version__ as number
    from .. import engine_name
    typer.echo(f"medina-cli {number} ({engine_name()} engine)")
    raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[bool, typer.Option(
        "--version", callback=_print_version, is_eager=True,
        help="Print the version and the engine in use (native or python; MEDINA_ENGINE picks) and exit.")] = False,
) -> None:
    """Replay, validate and score recorded games of the board game Medina under its rule editions.

    Exit status: 0 all inputs valid, 1 some input invalid, 2 usage error or unreadable input (each
    command's --help says more). Errors are one line each on stderr: `WHERE: what is wrong`.
    """


app.command("validate", cls=Command)(validate.validate)
app.command("replay", cls=Command)(replay.replay_command)
app.command("moves", cls=Command)(replay.moves)
app.command("new", cls=Command)(recording.new_command)
app.command("add", cls=Command)(recording.add_command)
app.command("undo", cls=Command)(recording.undo_command)
app.command("status", cls=Command)(recording.status_command)
app.command("play", cls=Command)(play.play_command)
app.command("render", cls=Command)(render.render_command)
app.command("view", cls=Command)(view.view_command)
app.add_typer(importer.app, name="import")
app.command("score", cls=Command)(score.score)
app.command("compare", cls=Command)(compare.compare)
app.add_typer(rules.app, name="rules")
app.command("simulate", cls=Command)(simulate.simulate_command)
app.command("study", cls=Command)(study.study_command)
app.command("hint", cls=Command)(hint.hint)
app.command("analyse", cls=Command)(hint.analyse)


def main() -> None:
    """Console entry point: exit 0/1/2 as docs/format.md says; unexpected failures become one line."""
    from .. import EngineUnavailable, engine_name
    from ..errors import MedinaError
    tolerate_output_encoding()
    try:
        engine_name()  # MEDINA_ENGINE=native without a native core (or naming no engine): refuse to start
    except EngineUnavailable as exc:
        sys.stderr.write(f"{exc}\n")
        sys.exit(2)
    if hasattr(signal, "SIGPIPE"):  # a closed pipe (`| head`) ends the process quietly, as Unix tools do
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    try:
        app()
    except MedinaError as exc:
        sys.stderr.write(exc.human() + "\n")
        sys.exit(exit_status(exc))
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        sys.exit(130)
    except BrokenPipeError:  # platforms without SIGPIPE
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
    except Exception as exc:  # the last guard: a bug must still not show a traceback
        if os.environ.get("MEDINA_DEBUG"):
            raise
        sys.stderr.write(f"medina: internal error: {type(exc).__name__}: {exc} "
                         "(set MEDINA_DEBUG=1 for details; please report it)\n")
        sys.exit(2)
