"""`medina view`: a self-contained HTML page that replays a record turn by turn."""

from __future__ import annotations

from typing import Annotated

import typer

from .common import (
    RulesetOption,
    SetOption,
    check_suffix,
    load_record,
    refuse_terminal,
    report_replay,
    usage_error,
    warn,
    write_output,
)
from .hint import AgentOption, JobsOption, SeedOption, agent_or_exit, run_analysis
from .replay import FileArgument


def _saved_analysis(path: str, record) -> dict:
    """A medina-analyse/1 document read from `path` that rates this record; else exit 2 saying why."""
    import json

    from ..render.analysis import check_matches

    try:
        with open(path, encoding="utf-8") as handle:
            doc = json.load(handle)
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        usage_error(
            f"--analysis-from {path}",
            f"cannot read it as JSON: {getattr(exc, 'strerror', None) or exc}",
        )
    why = check_matches(doc, record)
    if why is not None:
        usage_error(f"--analysis-from {path}", f"not an analysis of {record.file}: {why}")
    return doc


def _annotations(record) -> dict | None:
    """The analysis `medina analyse --annotate` wrote into the record (its x-analysis key), where it rates
    this record (else a warning, and None)."""
    from ..render.analysis import check_matches
    from ..render.verdicts import ANNOTATION_KEY

    doc = record.meta.get(ANNOTATION_KEY)
    if doc is None:
        return None
    why = check_matches(doc, record)
    if why is not None:
        warn(f"{record.file}: its {ANNOTATION_KEY} is not shown: {why}")
        return None
    return doc


PageOption = Annotated[
    str,
    typer.Option(
        "--output",
        "-o",
        metavar="PATH",
        show_default=False,
        help="Write the page to this .html or .htm file (default: standard output, unless it is a terminal).",
    ),
]
AnalysisOption = Annotated[
    bool,
    typer.Option(
        "--analysis",
        help="Analyse the game first (as medina analyse; see --agent, --jobs) and show the "
        "expected margins as a chart and the agent's preferred placement on every frame (a record written by "
        "medina analyse --annotate shows its own analysis without it).",
    ),
]
AnalysisFromOption = Annotated[
    str | None,
    typer.Option(
        "--analysis-from",
        metavar="JSON",
        help="Show a saved analysis of this record (medina analyse --json).",
    ),
]


def view_command(
    file: FileArgument,
    output: PageOption = "-",
    ruleset: RulesetOption = None,
    set_: SetOption = None,
    analysis: AnalysisOption = False,
    analysis_from: AnalysisFromOption = None,
    agent_spec: AgentOption = "mcts",
    jobs: JobsOption = 1,
    seed: SeedOption = 0,
) -> None:
    """Write one HTML file (no network needed) that steps through the game: board, events, scores.

    An invalid record is shown up to where replay stopped, with the reason (it is not analysed).

    Exit status: 0 written, 1 invalid input (shown up to where replay stopped), 2 unusable input or
    usage error.
    """
    from ..records.replay import replay
    from ..render.html import viewer_html

    check_suffix(output, (".html", ".htm"), "an HTML page")
    refuse_terminal(output, "an HTML page", ".html", "view")
    if analysis and analysis_from is not None:
        usage_error(
            "--analysis",
            "give --analysis (analyse now) or --analysis-from JSON (a saved analysis), not both",
        )
    record = load_record(file, ruleset, set_)
    outcome = replay(record)
    report_replay(outcome)
    if outcome.game is None:
        raise typer.Exit(1)
    doc = None
    if analysis_from is not None:
        doc = _saved_analysis(analysis_from, record)
    elif analysis and not outcome.problems:
        doc = run_analysis(record, agent_or_exit(agent_spec).spec, seed, jobs, own_command=False)
    else:
        doc = _annotations(record)
    write_output(output, viewer_html(outcome, doc), file)
    raise typer.Exit(1 if outcome.problems else 0)
