"""The text of `medina hint` and `medina analyse`, drawn from their documents (medina-hint/1 and
medina-analyse/1), so that the text and `--json` say the same."""

from __future__ import annotations

from ..agents.analysis import RANKING_MEANING
from .tables import aligned_table


def _tenths(x: float, sign: str = "") -> str:
    """`x` to one decimal, never as "-0.0"."""
    return f"{round(x, 1) or 0.0:{sign}.1f}"


def _interval(bounds, sign: str = "+") -> str:
    return "" if bounds is None else f"[{_tenths(bounds[0], sign)}, {_tenths(bounds[1], sign)}]"


def _named(hint: dict) -> str:
    palace = hint.get("palace")
    if palace is None:
        return hint["placement"]
    return f"{hint['placement']} ({palace['colour']} palace: {' '.join(palace['cells'])})"


def hint_legend(doc: dict, pointer: bool = True) -> str:
    """The one short line that says how to read `medina hint`'s list; `pointer`: ending with --explain."""
    even = doc.get("even_margin")
    words = [f"highest {'edge' if even is not None else 'margin'} first"]
    if doc.get("even_win") is not None and any("win" in hint for hint in doc["hints"]):
        words.append(f"win: chance to win, ± an even {100 * doc['even_win']:.3g}%")
    if even is not None:
        words.append(
            f"edge: expected points over the best other, 0 = even (margin {_tenths(even, '+')})"
        )
    else:
        words.append("margin: points over the best other player")
    if doc.get("search") is not None:
        words[-1] += f" [{100 * doc['confidence']:g}%]"
    if doc.get("search") is not None:
        words.append(f"{doc['search']['playouts']} playouts")
    return "(" + "; ".join(words + ["--explain"] * pointer) + ")"


def hint_explained(doc: dict) -> list[str]:
    """The long text on how to read `medina hint`'s list (`--explain`)."""
    lines = [f"(value, the margin: {doc['value']})"]
    if doc.get("even_margin") is not None:
        lines.append(
            f"(edge: the value minus the margin an even game gives each player here, "
            f"{_tenths(doc['even_margin'], '+')} (the mean over the seats of their final margins in "
            f"simulated games from this position): 0 is even, above it better placed than an equal share; "
            f"win: the chance to win, against an equal share of {100 * doc['even_win']:.3g}%; --json gives "
            "the value itself)"
        )
    lines += [f"(ranked by {doc['ranked_by']}, {RANKING_MEANING[doc['ranked_by']]})"]
    search = doc.get("search")
    if search is not None:
        level = f"{100 * doc['confidence']:g}%"
        sure = (
            "the best is surely better than every other move valued"
            if search["sure"]
            else "the searches did not tell the best apart from every other move valued"
        )
        sure += f"; {search['playouts']} playouts in all"
        lines.append(
            f"([low, high]: the value's {level} interval; = best: the best's lead over it (paired replicate "
            f"by replicate, not from the intervals shown) is not surely above {doc['tie_margin']:g} "
            f"points at {level} over all the moves compared, and its interval is not wholly below the "
            f"first's; {sure})"
        )
    if doc.get("whole_turn"):
        lines.append(
            "(either order: the two placements commute, both orders reach the same position)"
        )
    return lines


def hint_text(doc: dict, where: str, explain: bool = False, command: bool = True) -> str:
    """`medina hint`'s text for a position described by `where` (the file and how far it was replayed):
    one legend line (with `explain`, the long text), then the moves as listed; when more than half of
    two or more moves are tied with the best, one line says so instead of marking each. `command`
    False: the hint `play` gives, without the seed (`play` seeds its hints as `hint` cannot) and the
    --explain pointer."""
    if doc["player"] is None:
        return f"{where}: the game is over; nobody can place anything."
    if not doc.get("whole_turn"):
        what = f"placement {doc['placement']} of turn {doc['turn']}"
    elif doc["placement"] == 1:
        what = "the whole turn"
    else:
        what = f"the rest of the turn (placement {doc['placement']} of turn {doc['turn']})"
    seeded = f", seed {doc['seed']}" if command else ""
    lines = [f"{where}: {doc['player']} to move, {what}; agent {doc['agent']}{seeded}"]
    lines += hint_explained(doc) if explain else [hint_legend(doc, command)]
    hints = doc["hints"]
    names = []
    for hint in hints:
        then = hint.get("then")
        joined = " and " if hint.get("either_order") else ", then "
        names.append(
            _named(hint)
            + ("" if then is None else f"{joined}{_named(then)}")
            + (" (either order)" if hint.get("either_order") else "")
        )
    width = max(map(len, names), default=0)
    tied = [rank for rank, hint in enumerate(hints, 1) if hint.get("tied_with_best")]
    many_tied = len(tied) >= 2 and 2 * len(tied) > len(hints)
    for rank, (hint, name) in enumerate(zip(hints, names, strict=True), 1):
        line = f"{rank:>3}. {name:<{width}}"
        if "win" in hint:
            line += f"  win {100 * hint['win']:5.1f}%"
            if doc.get("even_win") is not None:
                line += f" ({_tenths(100 * (hint['win'] - doc['even_win']), '+'):>5})"
        even = doc.get("even_margin") or 0.0
        line += f"  {'margin' if doc.get('even_margin') is None else 'edge'} {_tenths(hint['value'] - even, '+'):>6}"
        if "value_interval" in hint:
            line += f" {_interval([bound - even for bound in hint['value_interval']]):<16}"
        if not many_tied:
            line += "  = best" if hint.get("tied_with_best") else ""
        lines.append(line.rstrip())
    if many_tied:
        apart = [rank for rank in range(1, len(hints) + 1) if rank not in tied]
        if apart:
            some = f"{len(tied)} of these {len(hints)} moves are"
        else:
            some = "both moves are" if len(hints) == 2 else f"all {len(hints)} moves are"
        estimated = doc.get("ranked_by") == "repeats" or any("value_interval" in h for h in hints)
        why = "the search cannot tell them apart" if estimated else "they are worth the same"
        lines.append(
            f"{some} tied with the best: {why}"
            + (f" (all but {', '.join(map(str, apart))})" if apart else "")
        )
    if doc.get("line"):
        lines.append(
            "line: " + ", ".join(f"{step['player']} {step['placement']}" for step in doc["line"])
        )
    return "\n".join(lines)


def analysis_text(doc: dict) -> str:
    """`medina analyse`'s text: every placement with its loss, interval and verdict; then per player (a
    player with nothing rated yet, "—" for a mean loss)."""
    thresholds = doc["thresholds"]
    confidence = doc.get("confidence")
    if confidence is None:
        how = "the values are exact"
        rule = "loss"
    else:
        how = (
            f"interval: its {100 * confidence:g}% interval, the two placements valued by replicated "
            "searches paired replicate by replicate; a loss is never below 0, its interval may be: wholly "
            "below 0, the placement played did better than the preferred one"
        )
        rule = "the interval's lower end"
    lines = [
        f"{doc['file']}: {_rated_words(doc)} rated by {doc['agent']}, seed {doc['seed']}",
        f"(loss: the agent's value of its preferred placement minus that of the one played; {how}; value: "
        f"{doc['value']}; a mistake: {rule} ≥ {thresholds['mistake']:g}; a blunder: {rule} ≥ "
        f"{thresholds['blunder']:g})",
    ]
    rows = [
        [
            f"{r['turn']}.{r['placement']}",
            r["player"],
            r["played"],
            r["best"],
            f"{r['loss']:.1f}",
            _interval(r.get("loss_interval"), ""),
            r.get("verdict") or _better(r),
        ]
        for r in doc["placements"]
    ]
    lines.append(
        aligned_table(
            rows,
            ["turn", "player", "played", "preferred", "loss", "interval", "verdict"],
            ("right", "left", "left", "left", "right", "left", "left"),
        )
    )
    lines.append("")
    players = [
        [
            p["player"],
            p["placements"] - p.get("tea_tiles", 0),
            p.get("tea_tiles", 0),
            f"{p['mean_loss']:.2f}" if p["placements"] else "—",
            _interval(p.get("mean_loss_interval"), ""),
            p["mistakes"],
            p["blunders"],
        ]
        for p in doc["players"]
    ]
    lines.append(
        aligned_table(
            players,
            ["player", "placements", "tea tiles", "mean loss", "interval", "mistakes", "blunders"],
            ("left", "right", "right", "right", "left", "right", "right"),
        )
    )
    return "\n".join(lines)


def _rated_words(doc: dict) -> str:
    """What the analysis rated: every placement, or those its selection names; so far, if it is partial."""
    selection = doc.get("selection", {})
    words = "every placement" if not selection else "the placements"
    if "from" in selection or "to" in selection:
        words += f" of turns {selection.get('from', 1)} to {selection.get('to', 'the end')}"
    if "player" in selection:
        words += f" by {selection['player']}"
    partial = doc.get("partial")
    tea = sum(review["played"] == "tea" for review in doc["placements"])
    placements = len(doc["placements"]) - tea
    count = f"{placements} placement{'s' * (placements != 1)}"
    if tea:
        count += f" and {tea} tea tile{'s' * (tea != 1)}"
    so_far = "" if partial is None else f" of {partial['of']} so far"
    return f"{words} ({count}{so_far})"


def _better(review: dict) -> str:
    """What the verdict column says of a placement without a verdict: that it did significantly better
    than the preferred one, where the loss's interval says so."""
    interval = review.get("loss_interval")
    return "better than preferred" if interval is not None and interval[1] < 0 else ""


ANNOTATION_KEY = (
    "x-analysis"  # the record/1 key `medina analyse --annotate` writes its document under
)
ANNOTATION_MARK = "# --- medina analyse --annotate"  # the first line of the block it appends


def annotated_record(text: str, doc: dict) -> str:
    """A record's `text` with the medina-analyse/1 document `doc` appended as its `x-analysis` key (which
    every reader keeps and `validate` ignores), after comment lines naming each mistake and blunder; a
    block appended so before is replaced, the rest of the text kept as it is."""
    import yaml

    kept = text.split("\n" + ANNOTATION_MARK)[0] if not text.startswith(ANNOTATION_MARK) else ""
    lines = [
        ANNOTATION_MARK
        + f" (agent {doc['agent']}, seed {doc['seed']}): loss in points of expected margin"
    ]
    for review in doc["placements"]:
        if review.get("verdict"):
            lines.append(
                f"#   {review['turn']}.{review['placement']} {review['player']} {review['played']}: a "
                f"{review['verdict']}, {review['best']} preferred (loss {review['loss']:.1f})"
            )
    if len(lines) == 1:
        lines.append("#   no mistake and no blunder")
    body = yaml.safe_dump(
        {ANNOTATION_KEY: {key: value for key, value in doc.items() if key != "partial"}},
        sort_keys=False,
        allow_unicode=True,
        default_flow_style=False,
        width=1000,
    )
    return kept.rstrip("\n") + "\n" + "\n".join(lines) + "\n" + body
