"""`medina view`: a self-contained HTML page that replays a record turn by turn."""

from __future__ import annotations

from typing import Annotated

import typer

from .common import RulesetOption, SetOption, check_suffix, load_record, refuse_terminal, report_replay, write_output
from .replay import FileArgument


def view_command(
    file: FileArgument,
    output: Annotated[str, typer.Option(
        "--output", "-o", metavar="PATH", show_default=False,
        help="Write the page to this .html or .htm file (default: standard output, unless it is a "
        "terminal).")] = "-",
    ruleset: RulesetOption = None,
    set_: SetOption = None,
) -> None:
    """Write one HTML file (no network needed) that steps through the game: board, events, scores.

    An invalid record is shown up to where replay stopped, with the reason.

    Exit status: 0 written, 1 invalid input (shown up to where replay stopped), 2 unusable input or
    usage error.
    """
    from ..records.replay import replay
    from ..render.html import viewer_html

    check_suffix(output, (".html", ".htm"), "an HTML page")
    refuse_terminal(output, "an HTML page", ".html", "view")
    record = load_record(file, ruleset, set_)
    outcome = replay(record)
    report_replay(outcome)
    if outcome.game is None:
        raise typer.Exit(1)
    write_output(output, viewer_html(outcome), file)
    raise typer.Exit(1 if outcome.problems else 0)
