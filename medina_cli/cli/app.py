"""The `medina` command: wires the subcommands together and guarantees no traceback reaches a user."""

from __future__ import annotations

import os
import signal
import sys
from typing import Annotated

import typer
from typer import completion

from . import (
    compare,
    hint,
    importer,
    play,
    recording,
    render,
    replay,
    rules,
    score,
    simulate,
    study,
    validate,
    view,
)
from .common import (
    Command,
    Group,
    OutputUnwritable,
    exit_status,
    guard_standard_output,
    note_engine_cost,
    tolerate_output_encoding,
)

app = typer.Typer(
    name="medina",
    cls=Group,
    no_args_is_help=True,
    add_completion=False,  # its own --show-completion ignores a shell named after it: see _completion_option
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
    note_engine_cost()
    raise typer.Exit()


SHELLS = ("bash", "zsh", "fish", "powershell", "pwsh")
completion.completion_init()  # typer's completion scripts ask through _MEDINA_COMPLETE: its answers


def _completion_option(action: str):
    """A callback for `--show-completion [SHELL]` or `--install-completion [SHELL]`: the named shell, else the
    one this runs in (common.OPTIONAL_VALUE; typer's own options take no shell: `--show-completion zsh` printed bash's
    script)."""

    def callback(ctx, param, value: str | None) -> None:
        if value is None or ctx.resilient_parsing:
            return
        shell = value or _current_shell()
        if shell not in SHELLS:
            said = (
                f"{value!r} is not a shell medina completes"
                if value
                else "cannot tell which shell this is"
            )
            raise typer.BadParameter(
                f"{said}; name one: --{action}-completion bash, zsh, fish or powershell"
            )
        (completion.show_callback if action == "show" else completion.install_callback)(
            ctx, param, shell
        )

    return callback


def _current_shell() -> str | None:
    import shellingham  # typer's own dependency, which it detects the shell with

    try:
        return shellingham.detect_shell()[0]
    except shellingham.ShellDetectionFailure:
        return None


@app.callback()
def _options(
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            callback=_print_version,
            is_eager=True,
            help="Print the version and the engine in use (native or python; MEDINA_ENGINE picks) and exit.",
        ),
    ] = False,
    install_completion: Annotated[
        str | None,
        typer.Option(
            "--install-completion",
            metavar="[SHELL]",
            callback=_completion_option("install"),
            expose_value=False,
            is_eager=True,
            help="Turn on shell completion in SHELL's start-up file (bash, zsh, fish or "
            "powershell; default: the shell this runs in).",
        ),
    ] = None,
    show_completion: Annotated[
        str | None,
        typer.Option(
            "--show-completion",
            metavar="[SHELL]",
            callback=_completion_option("show"),
            expose_value=False,
            is_eager=True,
            help="Print SHELL's completion script (bash, zsh, fish or powershell; "
            "default: the shell this runs in), to put it where you like.",
        ),
    ] = None,
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
    from ..errors import MedinaError, Problem

    tolerate_output_encoding()
    guard_standard_output()
    try:
        engine_name()  # MEDINA_ENGINE=native without a native core (or naming no engine): refuse to start
    except EngineUnavailable as exc:
        sys.stderr.write(f"{exc} [usage]\n")  # the engine's words, with the CLI's code
        sys.exit(2)
    if hasattr(
        signal, "SIGPIPE"
    ):  # a closed pipe (`| head`) ends the process quietly, as Unix tools do
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    try:
        try:
            app()
        finally:
            sys.stdout.flush()  # what is still buffered fails here, not unseen at exit
    except MedinaError as exc:
        sys.stderr.write(exc.human() + "\n")
        sys.exit(exit_status(exc))
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        sys.exit(130)
    except BrokenPipeError:  # platforms without SIGPIPE
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
    except OutputUnwritable as exc:
        problem = Problem("cannot-write", f"cannot write: {exc.strerror}", file="standard output")
        sys.stderr.write(problem.human() + "\n")
        sys.exit(2)
    except Exception as exc:  # the last guard: a bug must still not show a traceback
        if os.environ.get("MEDINA_DEBUG"):
            raise
        sys.stderr.write(
            f"medina: internal error: {type(exc).__name__}: {exc} "
            "(set MEDINA_DEBUG=1 for details; please report it)\n"
        )
        sys.exit(2)
