"""An analysis (`medina analyse --json`) drawn into the viewer: the players' expected margins over the
game as an SVG chart with mistakes and blunders marked, and per frame the agent's words and its
preferred next placement."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from . import palette
from .svg import to_text

WIDTH, HEIGHT, LEFT, RIGHT, TOP, BOTTOM = 640, 190, 46, 10, 12, 34


def check_matches(doc: dict, record) -> str | None:
    """Why the analysis document does not belong to `record` (None: it does)."""
    if not isinstance(doc, dict) or doc.get("format") != "medina-analyse/1":
        return "not a medina-analyse/1 document (write one with medina analyse FILE --json)"
    for review in doc.get("placements", []):
        turn, k = review.get("turn"), review.get("placement")
        if not isinstance(turn, int) or not 1 <= turn <= len(record.turns):
            return f"it rates turn {turn}, which the record does not have"
        actions = [a for a in record.turns[turn - 1].actions if a.piece != "pass"]
        if not isinstance(k, int) or not 1 <= k <= len(actions):
            return f"it rates placement {k} of turn {turn}, which the record does not have"
        token = str(actions[k - 1])
        if token != review.get("played"):
            return f"turn {turn}: it rates {review.get('played')!r}, the record has {token!r}"
    return None


def _y_scale(values: list[float]):
    low, high = min([0.0, *values]), max([0.0, *values])
    if high - low < 10:
        high, low = high + 5, low - 5
    span = high - low

    def y(value: float) -> float:
        return TOP + (high - value) / span * (HEIGHT - TOP - BOTTOM)

    return y, low, high


def x_of(made: int, count: int) -> float:
    """The chart's x after `made` of `count` placements (0: the setup, at the axis)."""
    return LEFT + (WIDTH - LEFT - RIGHT) * made / max(1, count)


def chart_svg(doc: dict, players: list[str], keys: list[tuple[int, int]] | None = None) -> str:
    """Each player's expected final margin after each of his placements, mistakes and blunders marked (an
    SVG element tree); across the record's placements `keys` ((turn, placement) in order; default: the
    document's), so that it shares its axis with a viewer stepping placement by placement."""
    reviews = doc["placements"]
    where = _places(reviews, keys)
    count = len(keys) if keys is not None else len(reviews)
    y, low, high = _y_scale([r["played_value"] for r in reviews])
    chart = ET.Element(
        "svg",
        {
            "xmlns": "http://www.w3.org/2000/svg",
            "viewBox": f"0 0 {WIDTH} {HEIGHT}",
            "role": "img",
            "font-family": "DejaVu Sans, Verdana, sans-serif",
        },
    )
    ET.SubElement(chart, "title").text = (
        "Expected final margin of each player over the game, by " + doc.get("agent", "the agent")
    )

    def line(x1, x2, y1, y2, stroke: str, **more: str) -> ET.Element:
        return ET.SubElement(
            chart,
            "line",
            {**more, "x1": str(x1), "x2": str(x2), "y1": str(y1), "y2": str(y2), "stroke": stroke},
        )

    def text(words: str | None, attrs: dict) -> ET.Element:
        element = ET.SubElement(chart, "text", attrs)
        element.text = words
        return element

    line(LEFT, WIDTH - RIGHT, f"{y(0):.1f}", f"{y(0):.1f}", "#999").set("stroke-dasharray", "4 3")
    line(LEFT, LEFT, TOP, HEIGHT - BOTTOM, "#555")
    line(LEFT, WIDTH - RIGHT, HEIGHT - BOTTOM, HEIGHT - BOTTOM, "#555")
    for value in (low, 0.0, high):
        text(
            f"{value:+.0f}",
            {
                "x": str(LEFT - 4),
                "y": f"{y(value) + 4:.1f}",
                "text-anchor": "end",
                "font-size": "11",
            },
        )
    text(
        f"placement (1 to {count}); circles: mistakes, filled: blunders",
        {
            "x": f"{(LEFT + WIDTH) / 2:.0f}",
            "y": str(HEIGHT - 6),
            "text-anchor": "middle",
            "font-size": "11",
        },
    )
    text(
        "expected margin",
        {
            "transform": f"translate(12 {(HEIGHT - BOTTOM + TOP) / 2:.0f}) rotate(-90)",
            "text-anchor": "middle",
            "font-size": "11",
        },
    )
    for seat, name in enumerate(players):
        colour = palette.seat_colour(seat)[1]
        points = [
            (x_of(where[i] + 1, count), y(r["played_value"]))
            for i, r in enumerate(reviews)
            if r["player"] == name
        ]
        if points:
            polyline = ET.SubElement(
                chart,
                "polyline",
                {
                    "points": " ".join(f"{px:.1f},{py:.1f}" for px, py in points),
                    "fill": "none",
                    "stroke": colour,
                    "stroke-width": "2",
                },
            )
            ET.SubElement(polyline, "title").text = name
        for i, r in enumerate(reviews):
            if r["player"] == name and verdict_of(r, doc):
                fill = colour if verdict_of(r, doc) == "blunder" else "#ffffff"
                circle = ET.SubElement(
                    chart,
                    "circle",
                    {
                        "cx": f"{x_of(where[i] + 1, count):.1f}",
                        "cy": f"{y(r['played_value']):.1f}",
                        "r": "4.5",
                        "fill": fill,
                        "stroke": colour,
                        "stroke-width": "2",
                    },
                )
                ET.SubElement(circle, "title").text = _review_words(
                    r, doc.get("agent", "the agent")
                )
    line(LEFT, LEFT, TOP, HEIGHT - BOTTOM, "#111", id="analysis-cursor").set("stroke-width", "1.5")
    legend = text(
        None, {"x": str(LEFT + 4), "y": str(TOP + 10), "font-size": "11", "font-weight": "bold"}
    )
    for seat, name in enumerate(players):
        ET.SubElement(
            legend, "tspan", {"fill": palette.seat_colour(seat)[1]}
        ).text = f"\u25a0 {name}  "
    return to_text(chart)


def verdict_of(review: dict, doc: dict) -> str | None:
    """A review's verdict: as the document gives it, or for a document written before verdicts were
    given, by its loss against the thresholds."""
    if "verdict" in review:
        return review["verdict"]
    thresholds = doc.get("thresholds", {})
    loss = review["loss"]
    return (
        "blunder"
        if loss >= thresholds.get("blunder", float("inf"))
        else "mistake"
        if loss >= thresholds.get("mistake", float("inf"))
        else None
    )


def _review_words(r: dict, agent: str) -> str:
    if r["played"] == r["best"]:
        return f"turn {r['turn']}.{r['placement']}: {r['player']} played {r['played']}, {agent}'s choice too"
    interval = r.get("loss_interval")
    bounds = "" if interval is None else f", interval {interval[0]:.1f} to {interval[1]:.1f}"
    verdict = f": a {r['verdict']}" if r.get("verdict") else ""
    return (
        f"turn {r['turn']}.{r['placement']}: {r['player']} played {r['played']}; {agent} prefers {r['best']} "
        f"(loss {r['loss']:.1f}{bounds}){verdict}"
    )


def _places(reviews: list[dict], keys: list[tuple[int, int]] | None) -> list[int]:
    """Each review's place on the chart's axis: its index among `keys` (default: among the reviews)."""
    if keys is None:
        return list(range(len(reviews)))
    index = {key: i for i, key in enumerate(keys)}
    return [index[(r["turn"], r["placement"])] for r in reviews]


def frame_notes(
    doc: dict, frames: list[tuple[int, int | None]], keys: list[tuple[int, int]]
) -> list[dict]:
    """Per frame (after turn t, or after its placement k: `frames` as (t, k or None)): the words on the
    placements it shows, the chart cursor (at the next placement of the record's `keys`), and the agent's
    preferred next placement, where the document rates it ({"advice", "cursor", "preferred"})."""
    reviews = doc["placements"]
    agent = doc.get("agent", "the agent")
    by_key = {(r["turn"], r["placement"]): r for r in reviews}
    out = []
    for turn, placement in frames:
        shown = [
            key for key in keys if key[0] == turn and (placement is None or key[1] == placement)
        ]
        made = sum(
            1
            for key in keys
            if key[0] < turn or (key[0] == turn and (placement is None or key[1] <= placement))
        )
        following = by_key.get(keys[made]) if made < len(keys) else None
        advice = "; ".join(_review_words(by_key[key], agent) for key in shown if key in by_key)
        preferred = None
        if following is not None and following["best"] != "tea":
            preferred = (
                following["best"],
                f"{agent} prefers {following['best']} for {following['player']} "
                f"next (expected margin {following['best_value']:+.1f})",
            )
        out.append(
            {"advice": advice, "cursor": round(x_of(made, len(keys)), 1), "preferred": preferred}
        )
    return out
