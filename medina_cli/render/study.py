"""A study report (`medina study`) as Markdown and as a self-contained HTML page, with its charts as
SVG built as element trees: the same blocks (headings, paragraphs, tables, lists, charts) drawn
both ways, from the report's document (medina-study-report/1)."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any

from ..files import write_atomically
from ..study.games import SOURCES
from ..study.report import COMPARED

FAIR = {"above": "above", "below": "below", "not different": "not different from"}


@dataclass
class Block:
    kind: str  # "h1", "h2", "h3", "p", "code", "list", "table", "chart"
    content: (
        Any  # text (headings, p, code, a chart's name), list[str] (list), (header, rows) (table)
    )


def percent(rate: float | None, interval) -> str:
    if rate is None or interval is None:
        return "—"
    return f"{100 * rate:.1f}% [{100 * interval[0]:.1f}, {100 * interval[1]:.1f}]"


def mean_text(tally: dict, signed: bool = False) -> str:
    if tally.get("mean") is None or tally.get("ci95") is None:
        return "—"
    form = "+.1f" if signed else ".1f"
    low, high = tally["ci95"]
    return f"{tally['mean']:{form}} [{low:{form}}, {high:{form}}]"


def players_of(label: str) -> int:
    return int(label.rsplit(" ", 1)[1][:-1])


# --- the blocks ---------------------------------------------------------------------------------------


def blocks(doc: dict, title: str) -> list[Block]:
    """The report's blocks: what holds first, then each setup's tables, then the charts."""
    out = [Block("h1", title)]
    if doc.get("command"):
        out += [
            Block("p", "Reproduce everything below (results, tables and charts) with one command:"),
            Block("code", doc["command"]),
        ]
    if doc.get("complete") is False:
        out.append(
            Block(
                "p",
                f"This study is INCOMPLETE: {doc['games_finished']} of its {doc['games_planned']} games "
                "are finished, and every figure below rests on the games finished for its board and "
                "setup, counted in the column 'games' of its table and beside each finding; a "
                "setup with none is not shown. The same command with --resume plays the rest.",
            )
        )
    tests = doc["correction"]["tests"]
    family = (
        f"all {tests} test{'' if tests == 1 else 's'} of this report"
        if tests
        else f"all the tests of a report (this one has nothing to test: no board has {COMPARED} games)"
    )
    out += [
        Block(
            "p",
            f"Seed {doc['seed']}, {doc['games']} games per board and setup. Brackets hold 95% intervals, "
            "each on its own (Wilson for win rates, the normal approximation for means). A finding is a "
            f"two-sided test that holds after Holm's correction over {family}, "
            "so that the chance of any false finding "
            "stays below 5%. The family: each seat's win rate against the fair share (self-play; the "
            "score test), the stronger agent's against its fair share (a setup of two agents), and between "
            "each two boards of a player count seat 1's wins and the stronger agent's (pooled z test), the "
            "margin, the length and the points from each source both rulesets have (Welch's z), under "
            f"every setup. Boards are tested only on {COMPARED} games or more; a source of points that a "
            "ruleset does not have (such as a well) has neither figure nor test.",
        ),
        Block("h3", "What holds"),
        Block("list", findings(doc)),
    ]
    for setup in doc["setups"]:
        out += setup_blocks(setup)
    out += [Block("h3", "Charts")] + [Block("chart", name) for name in chart_names(doc)]
    return out


MORE = {
    "seat 1 wins": "seat 1 wins more often",
    "margin": "the winner's margin is larger",
    "placements": "games are longer",
    "stronger agent's wins": "the stronger agent wins more often",
}


def figure_text(figures: dict, figure: str) -> tuple[float, str]:
    """A board's value of a figure its tests name, and that value as text with its interval."""
    if figure.startswith("seat "):
        seat = figures["seat_wins"][int(figure.split()[1]) - 1]
        return seat["rate"], percent(seat["rate"], seat["ci95"])
    if figure == "stronger agent's wins":
        return figures["strong"]["win_rate"], percent(
            figures["strong"]["win_rate"], figures["strong"]["ci95"]
        )
    tally = (
        figures["points"][figure.removeprefix("points from ")]
        if figure.startswith("points from ")
        else figures[figure]
    )
    return tally["mean"], mean_text(tally)


def finding(test: dict, setups: dict) -> str:
    """The plain sentence of a test that holds."""
    boards = setups[test["setup"]]["boards"]
    if test["test"] == "fair share":
        board = test["boards"][0]
        figures = boards[board]
        value, text = figure_text(figures, test["figure"])
        fair = 1 / players_of(board)
        side = "above" if value > fair else "below"
        if test["figure"] == "stronger agent's wins":
            return (
                f"{test['setup']}, {board} ({games(figures)}): the stronger agent wins {text}, {side} its fair "
                f"share of {100 * fair:.0f}%; its margin over the best other "
                f"{mean_text(figures['strong']['margin'], signed=True)}."
            )
        return (
            f"{test['setup']}, {board} ({games(figures)}): {test['figure'].removesuffix(' wins')} wins {text}, "
            f"{side} the fair share of {100 * fair:.0f}%."
        )
    (high, high_board), (low, low_board) = sorted(
        ((figure_text(boards[board], test["figure"]), board) for board in test["boards"]),
        reverse=True,
    )
    phrase = (
        MORE.get(test["figure"])
        or f"more points come from {test['figure'].removeprefix('points from ')}"
    )
    return f"{test['setup']}: {phrase} on {high_board} ({high[1]}) than on {low_board} ({low[1]})."


def nothing_found(tests: list[dict]) -> str:
    """The one line naming the tests that found nothing, a sentence per setup: the boards whose seats
    (naming them where another seat of the board differs) or stronger agent did not differ from the fair
    share, and the figures that did not differ between the boards of a player count (naming the pairs
    where another pair differs)."""
    groups: dict[
        tuple, list[dict]
    ] = {}  # the tests of a board against the fair share, or of a figure
    for test in tests:
        board = test["boards"][0]
        key = (
            (test["setup"], "fair share", board, test["figure"] == "stronger agent's wins")
            if test["test"] == "fair share"
            else (test["setup"], "boards", board.rsplit(" ", 1)[1], test["figure"])
        )
        groups.setdefault(key, []).append(test)
    said: dict[str, dict[str, list[str]]] = {}  # setup -> what -> the names of what found nothing
    for (setup, kind, where, what), group in groups.items():
        quiet = [test for test in group if not test["holds"]]
        if not quiet:
            continue
        if kind == "fair share":
            part = (
                "the stronger agent's wins no different from its fair share on"
                if what
                else "no seat advantage on"
            )
            name = (
                where
                if len(quiet) == len(group)
                else f"{where} (seat{'s' if len(quiet) > 1 else ''} {', '.join(t['figure'].split()[1] for t in quiet)})"
            )
        else:
            part = f"no difference between the {where} boards in"
            name = (
                what
                if len(quiet) == len(group)
                else f"{what} ({', '.join(' vs '.join(test['boards']) for test in quiet)})"
            )
        said.setdefault(setup, {}).setdefault(part, []).append(name)
    setups = [
        f"{setup}: " + "; ".join(f"{part} {', '.join(names)}" for part, names in parts.items())
        for setup, parts in said.items()
    ]
    missed = sum(not test["holds"] for test in tests)
    return f"Found nothing ({missed} of {len(tests)} tests). " + ". ".join(setups) + "."


def findings(doc: dict) -> list[str]:
    """A sentence for each test that holds, then one line naming those that found nothing and one naming
    the boards with too few games to test."""
    setups = {setup["setup"]: setup for setup in doc["setups"]}
    tests = doc["tests"]
    lines = [finding(test, setups) for test in tests if test["holds"]]
    if not tests:
        lines.append(f"No test: no board has {COMPARED} games.")
    elif not all(test["holds"] for test in tests):
        lines.append(nothing_found(tests))
    untested = [
        f"{setup['setup']}, {board} ({games(f)})"
        for setup in doc["setups"]
        for board, f in played(setup).items()
        if f["games"] < COMPARED
    ]
    if untested:
        lines.append(f"Too few games to test (fewer than {COMPARED}): " + "; ".join(untested) + ".")
    return lines


def games(figures: dict) -> str:
    return f"{figures['games']} game{'' if figures['games'] == 1 else 's'}"


def played(setup: dict) -> dict:
    """A setup's boards that have finished games."""
    return {board: f for board, f in setup["boards"].items() if f["games"]}


def sources(figures: dict) -> list[str]:
    """The sources of points a board's ruleset has."""
    return figures.get("sources", list(SOURCES))


def setup_blocks(setup: dict) -> list[Block]:
    boards = played(setup)
    if not boards:
        return []
    out = [Block("h3", f"{setup['setup']} ({setup['seats']})")]
    most = max(len(f["seat_wins"]) for f in boards.values())
    header = [
        "board",
        "games",
        *(f"seat {s + 1} wins" for s in range(most)),
        "margin 1st-2nd",
        "placements",
    ]
    rows = [
        [
            board,
            str(f["games"]),
            *(percent(seat["rate"], seat["ci95"]) for seat in f["seat_wins"]),
            *([""] * (most - len(f["seat_wins"]))),
            mean_text(f["margin"]),
            mean_text(f["placements"]),
        ]
        for board, f in boards.items()
    ]
    out.append(Block("table", (header, rows)))
    shown = [source for source in SOURCES if any(source in sources(f) for f in boards.values())]
    out.append(
        Block(
            "p",
            "Points per game from each source (all players together; — where the ruleset has no such "
            "source):",
        )
    )
    out.append(
        Block(
            "table",
            (
                ["board", *shown],
                [
                    [board, *(mean_text(f["points"][s]) if s in sources(f) else "—" for s in shown)]
                    for board, f in boards.items()
                ],
            ),
        )
    )
    if "strong" in next(iter(boards.values())):
        rows = [
            [
                board,
                percent(f["strong"]["win_rate"], f["strong"]["ci95"]),
                f"{100 / players_of(board):.0f}% "
                f"({FAIR[f['strong']['fair_share']] if f['games'] >= COMPARED else 'untested'})",
                mean_text(f["strong"]["margin"], signed=True),
            ]
            for board, f in boards.items()
        ]
        out.append(
            Block(
                "table",
                (
                    [
                        "board",
                        "stronger agent wins",
                        "fair share",
                        "its margin over the best other",
                    ],
                    rows,
                ),
            )
        )
    return out


# --- charts ---------------------------------------------------------------------------------------------

CAPTIONS = {
    "seat-wins": "Win rate per seat with 95% intervals (dashed: the fair share)",
    "margin": "The winner's lead over the second, mean with 95% interval",
    "length": "Placements per game, mean with 95% interval",
    "points": "Points per game from each source, mean with 95% interval",
    "skill": "The stronger agent's win rate with 95% interval (dashed: its fair share)",
}
PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f")


def chart_names(doc: dict) -> list[str]:
    skill = any("strong" in f for setup in doc["setups"] for f in played(setup).values())
    return ["seat-wins", "margin", "length", "points"] + (["skill"] if skill else [])


def charts(doc: dict) -> dict[str, str]:
    """Every chart of the report as SVG text, by name."""
    shown = [{**s, "boards": played(s)} for s in doc["setups"] if played(s)]
    selfplay = [s for s in shown if "strong" not in next(iter(s["boards"].values()))]
    skill = [s for s in shown if "strong" in next(iter(s["boards"].values()))]
    out = {}
    groups = []
    for setup in selfplay:
        for board, f in setup["boards"].items():
            groups.append(
                (
                    f"{board}\n{setup['setup']}",
                    [
                        (f"seat {s + 1}", seat["rate"], seat["ci95"])
                        for s, seat in enumerate(f["seat_wins"])
                    ],
                    1 / len(f["seat_wins"]),
                )
            )
    out["seat-wins"] = bar_chart(CAPTIONS["seat-wins"], groups, "win rate", percent_axis=True)
    for name, key in (("margin", "margin"), ("length", "placements")):
        out[name] = bar_chart(
            CAPTIONS[name],
            [
                (
                    setup["setup"],
                    [
                        (board, f[key]["mean"], f[key]["ci95"])
                        for board, f in setup["boards"].items()
                    ],
                    None,
                )
                for setup in selfplay
            ],
            "points" if key == "margin" else "placements",
        )
    out["points"] = bar_chart(
        CAPTIONS["points"],
        [
            (source, bars, None)
            for source in SOURCES
            if (
                bars := [
                    (
                        f"{board}, {setup['setup']}",
                        f["points"][source]["mean"],
                        f["points"][source]["ci95"],
                    )
                    for setup in selfplay
                    for board, f in setup["boards"].items()
                    if source in sources(f)
                ]
            )
        ],
        "points per game",
    )
    if skill:
        out["skill"] = bar_chart(
            CAPTIONS["skill"],
            [
                (
                    f"{board}\n{setup['setup']}",
                    [("stronger agent", f["strong"]["win_rate"], f["strong"]["ci95"])],
                    1 / players_of(board),
                )
                for setup in skill
                for board, f in setup["boards"].items()
            ],
            "win rate",
            percent_axis=True,
        )
    return out


WIDTH, HEIGHT, LEFT, RIGHT, TOP, BOTTOM = 760, 360, 56, 12, 30, 126
LEGEND_CHARACTERS = 110  # per legend row


def bar_chart(
    title: str,
    groups: Sequence[tuple[str, Sequence[tuple[str, float | None, list | None]], float | None]],
    axis: str,
    *,
    percent_axis: bool = False,
) -> str:
    """Grouped bars with their intervals as whiskers; `groups`: (label, [(series, value, [low, high])],
    a reference value drawn dashed across the group or None)."""
    values = [
        v
        for _, bars, _ in groups
        for _, value, ci in bars
        for v in ([value] + list(ci or []))
        if v is not None
    ]
    values += [ref for *_, ref in groups if ref is not None]
    top = max(values + [0.0]) * 1.1 or 1.0
    bottom = min(values + [0.0])
    bottom = bottom * 1.1 if bottom < 0 else 0.0

    def y(value: float) -> float:
        return TOP + (top - value) / (top - bottom) * (HEIGHT - TOP - BOTTOM)

    svg = ET.Element(
        "svg", xmlns="http://www.w3.org/2000/svg", viewBox=f"0 0 {WIDTH} {HEIGHT}", role="img"
    )
    svg.set("font-family", "DejaVu Sans, Verdana, sans-serif")
    svg.set("font-size", "11")
    ET.SubElement(svg, "title").text = title
    ET.SubElement(
        svg, "text", x=str(WIDTH / 2), y="16", attrib={"text-anchor": "middle", "font-size": "13"}
    ).text = title
    ET.SubElement(
        svg, "line", x1=str(LEFT), x2=str(LEFT), y1=str(TOP), y2=str(HEIGHT - BOTTOM), stroke="#555"
    )
    ET.SubElement(
        svg,
        "line",
        x1=str(LEFT),
        x2=str(WIDTH - RIGHT),
        y1=f"{y(0):.1f}",
        y2=f"{y(0):.1f}",
        stroke="#555",
    )
    for tick in ticks(bottom, top):
        label = f"{100 * tick:.0f}%" if percent_axis else f"{tick:g}"
        ET.SubElement(
            svg, "text", x=str(LEFT - 4), y=f"{y(tick) + 4:.1f}", attrib={"text-anchor": "end"}
        ).text = label
        ET.SubElement(
            svg,
            "line",
            x1=str(LEFT - 3),
            x2=str(LEFT),
            y1=f"{y(tick):.1f}",
            y2=f"{y(tick):.1f}",
            stroke="#555",
        )
    ET.SubElement(
        svg,
        "text",
        transform=f"translate(14 {(TOP + HEIGHT - BOTTOM) / 2:.0f}) rotate(-90)",
        attrib={"text-anchor": "middle"},
    ).text = axis
    series = list(dict.fromkeys(name for _, bars, _ in groups for name, _, _ in bars))
    span = (WIDTH - LEFT - RIGHT) / max(1, len(groups))
    for g, (label, bars, reference) in enumerate(groups):
        x0 = LEFT + g * span
        width = span * 0.8 / max(1, len(bars))
        for b, (name, value, ci) in enumerate(bars):
            if value is None:
                continue
            x = x0 + span * 0.1 + b * width
            colour = PALETTE[series.index(name) % len(PALETTE)]
            bar = ET.SubElement(
                svg,
                "rect",
                x=f"{x:.1f}",
                y=f"{min(y(value), y(0)):.1f}",
                width=f"{width * 0.9:.1f}",
                height=f"{abs(y(0) - y(value)):.1f}",
                fill=colour,
            )
            ET.SubElement(bar, "title").text = (
                f"{label.replace(chr(10), ', ')}: {name}: {value:g}"
                + ("" if ci is None else f" [{ci[0]:g}, {ci[1]:g}]")
            )
            if ci is not None:
                middle = x + width * 0.45
                ET.SubElement(
                    svg,
                    "line",
                    x1=f"{middle:.1f}",
                    x2=f"{middle:.1f}",
                    y1=f"{y(ci[0]):.1f}",
                    y2=f"{y(ci[1]):.1f}",
                    stroke="#222",
                )
                for end in ci:
                    ET.SubElement(
                        svg,
                        "line",
                        x1=f"{middle - 3:.1f}",
                        x2=f"{middle + 3:.1f}",
                        y1=f"{y(end):.1f}",
                        y2=f"{y(end):.1f}",
                        stroke="#222",
                    )
        if reference is not None:
            ET.SubElement(
                svg,
                "line",
                x1=f"{x0 + span * 0.05:.1f}",
                x2=f"{x0 + span * 0.95:.1f}",
                y1=f"{y(reference):.1f}",
                y2=f"{y(reference):.1f}",
                stroke="#000",
                attrib={"stroke-dasharray": "4 3"},
            )
        text = ET.SubElement(
            svg,
            "text",
            x=f"{x0 + span / 2:.1f}",
            y=str(HEIGHT - BOTTOM + 14),
            attrib={"text-anchor": "middle", "font-size": "9"},
        )
        for line, part in enumerate(label.split("\n")):
            ET.SubElement(
                text, "tspan", x=f"{x0 + span / 2:.1f}", dy="0" if line == 0 else "11"
            ).text = part
    rows: list[list[int]] = [[]]
    for index, name in enumerate(series):  # legend rows of at most LEGEND_CHARACTERS
        if rows[-1] and sum(len(series[i]) + 4 for i in rows[-1]) + len(name) > LEGEND_CHARACTERS:
            rows.append([])
        rows[-1].append(index)
    for row, indices in enumerate(rows):
        legend = ET.SubElement(
            svg,
            "text",
            x=str(LEFT),
            y=str(HEIGHT - BOTTOM + 44 + 13 * row),
            attrib={"font-size": "10"},
        )
        for index in indices:
            ET.SubElement(
                legend, "tspan", fill=PALETTE[index % len(PALETTE)]
            ).text = f"■ {series[index]}   "
    return ET.tostring(svg, encoding="unicode")


def ticks(low: float, high: float) -> list[float]:
    """About five round values (1, 2 or 5 times a power of ten apart) from `low` to `high`."""
    raw = (high - low) / 5 or 1.0
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw)
    first = math.ceil(low / step) * step
    return [round(first + i * step, 10) for i in range(int((high - first) / step + 1e-9) + 1)]


# --- Markdown and HTML -------------------------------------------------------------------------------------


def markdown(doc: dict, title: str, chart_folder: str) -> str:
    """The report in Markdown; the charts are files in `chart_folder` (a path from the Markdown file)."""
    lines = []
    for block in blocks(doc, title):
        if block.kind == "h1":
            lines += [f"# {block.content}", ""]
        elif block.kind == "h2":
            lines += [f"## {block.content}", ""]
        elif block.kind == "code":
            lines += ["```sh", block.content, "```", ""]
        elif block.kind == "h3":
            lines += [f"### {block.content}", ""]
        elif block.kind == "p":
            lines += [block.content, ""]
        elif block.kind == "list":
            lines += [f"- {line}" for line in block.content] + [""]
        elif block.kind == "table":
            header, rows = block.content
            lines += ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
            lines += ["| " + " | ".join(row) + " |" for row in rows] + [""]
        else:
            caption = CAPTIONS[block.content]
            lines += [f"![{caption}]({chart_folder}/{block.content}.svg)", "", f"*{caption}.*", ""]
    return "\n".join(lines)


def html(doc: dict, title: str) -> str:
    """The report as one HTML page, its charts inline (no network, no external files)."""
    drawn = charts(doc)
    parts = []
    for block in blocks(doc, title):
        if block.kind in ("h1", "h2", "h3"):
            parts.append(f"<{block.kind}>{escape(block.content)}</{block.kind}>")
        elif block.kind == "code":
            parts.append(f"<pre><code>{escape(block.content)}</code></pre>")
        elif block.kind == "p":
            parts.append(f"<p>{escape(block.content)}</p>")
        elif block.kind == "list":
            parts.append(
                "<ul>" + "".join(f"<li>{escape(line)}</li>" for line in block.content) + "</ul>"
            )
        elif block.kind == "table":
            header, rows = block.content
            parts.append(
                "<table><thead><tr>"
                + "".join(f"<th>{escape(h)}</th>" for h in header)
                + "</tr></thead><tbody>"
                + "".join(
                    "<tr>" + "".join(f"<td>{escape(c)}</td>" for c in row) + "</tr>" for row in rows
                )
                + "</tbody></table>"
            )
        else:
            parts.append(
                f"<figure>{drawn[block.content]}<figcaption>{escape(CAPTIONS[block.content])}.</figcaption>"
                "</figure>"
            )
    return PAGE.replace("@@TITLE@@", escape(title)).replace("@@BODY@@", "\n".join(parts))


PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>@@TITLE@@</title>
<style>
body { font-family: "DejaVu Sans", Verdana, sans-serif; margin: 18px auto; max-width: 1000px; color: #222;
       padding: 0 12px; }
table { border-collapse: collapse; margin: 8px 0 16px; font-size: 13px; }
th, td { border: 1px solid #bbb; padding: 3px 7px; text-align: right; }
th:first-child, td:first-child { text-align: left; }
figure { margin: 12px 0 24px; }
figure svg { width: 100%; height: auto; }
figcaption { font-size: 13px; font-style: italic; }
</style>
</head>
<body>
@@BODY@@
</body>
</html>
"""


def write_report(doc: dict, out: Path, title: str, markdown_path: Path | None = None) -> list[Path]:
    """Write the report into the study folder `out` (report.json, report.md with its charts in charts/,
    report.html with them inline) and, with `markdown_path`, the Markdown also there, its charts in the
    folder of that name without its suffix beside it (beside the file a symbolic link names, which is
    written through). Each file atomically; the paths written."""
    import json
    import os

    drawn = charts(doc)
    written = []
    targets = [(out / "report.md", out / "charts", "charts")]
    if markdown_path is not None:
        folder = Path(os.path.realpath(markdown_path)).with_suffix("")
        targets.append((markdown_path, folder, folder.name))
    for path, folder, link in targets:
        folder.mkdir(parents=True, exist_ok=True)
        for name, svg in drawn.items():
            write_atomically(folder / f"{name}.svg", svg + "\n")
            written.append(folder / f"{name}.svg")
        write_atomically(path, markdown(doc, title, link))
        written.append(path)
    write_atomically(out / "report.html", html(doc, title))
    write_atomically(out / "report.json", json.dumps(doc, indent=1) + "\n")
    return written + [out / "report.html", out / "report.json"]
