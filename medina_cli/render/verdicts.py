"""The text of `medina hint` and `medina analyse`, drawn from their documents (medina-hint/1 and
medina-analyse/1), so that the text and `--json` say the same."""

from __future__ import annotations

from .tables import aligned_table

from ..agents.analysis import RANKING_MEANING


def _tenths(x: float, sign: str = "") -> str:
    """`x` to one decimal, never as "-0.0"."""
    return f"{round(x, 1) or 0.0:{sign}.1f}"


def _interval(bounds, sign: str = "+") -> str:
    return "" if bounds is None else f"[{_tenths(bounds[0], sign)}, {_tenths(bounds[1], sign)}]"


def _named(hint: dict) -> str:
    palace = hint.get("palace")
    return hint["placement"] if palace is None else f"{hint['placement']} ({palace['colour']} palace: {' '.join(palace['cells'])})"


def hint_text(doc: dict, where: str) -> str:
    """`medina hint`'s text for a position described by `where` (the file and how far it was replayed)."""
    if doc["player"] is None:
        return f"{where}: the game is over; nobody can place anything."
    what = "the whole turn" if doc.get("whole_turn") else f"placement {doc['placement']} of turn {doc['turn']}"
    lines = [f"{where}: {doc['player']} to move, {what}; agent {doc['agent']}, seed {doc['seed']}",
             f"(value: {doc['value']})",
             f"(ranked by {doc['ranked_by']}, {RANKING_MEANING[doc['ranked_by']]})"]
    search = doc.get("search")
    if search is not None:
        level = f"{100 * doc['confidence']:g}%"
        sure = ("the search was sure of its best before its cap" if search["sure"] else
                "the search reached its cap without telling its best apart from every other")
        sure += f"; {search['playouts']} playouts in all"
        lines.append(f"([low, high]: the value's {level} interval; = best: the best's lead over it (paired, on the "
                     f"same simulated games, not from the intervals shown) is not surely above {doc['tie_margin']:g} "
                     f"points at {level} over all the moves compared; {sure})")
    names = []
    for hint in doc["hints"]:
        then = hint.get("then")
        names.append(_named(hint) + ("" if then is None else f", then {_named(then)}"))
    width = max(map(len, names), default=0)
    for rank, (hint, name) in enumerate(zip(doc["hints"], names), 1):
        line = f"{rank:>3}. {name:<{width}}  {_tenths(hint['value'], '+'):>7}"
        if "value_interval" in hint:
            line += f" {_interval(hint['value_interval']):<16}"
        line += "  = best" if hint.get("tied_with_best") else "        "
        if "win" in hint:
            line += f"   win {100 * hint['win']:5.1f}%   ({hint['playouts']} playouts)"
        lines.append(line.rstrip())
    return "\n".join(lines)


def analysis_text(doc: dict) -> str:
    """`medina analyse`'s text: every placement with its loss, interval and verdict; then per player."""
    thresholds = doc["thresholds"]
    confidence = doc.get("confidence")
    if confidence is None:
        how = "the values are exact"
        rule = "loss"
    else:
        how = (f"interval: its {100 * confidence:g}% interval, the two placements played out on the same simulated "
               "games; a loss is never below 0, its interval may be: wholly below 0, the placement played did "
               "better than the preferred one")
        rule = "the interval's lower end"
    lines = [f"{doc['file']}: every placement rated by {doc['agent']}, seed {doc['seed']}",
             f"(loss: the agent's value of its preferred placement minus that of the one played; {how}; value: "
             f"{doc['value']}; a mistake: {rule} ≥ {thresholds['mistake']:g}; a blunder: {rule} ≥ "
             f"{thresholds['blunder']:g})"]
    rows = [[f"{r['turn']}.{r['placement']}", r["player"], r["played"], r["best"], f"{r['loss']:.1f}",
             _interval(r.get("loss_interval"), ""), r.get("verdict") or _better(r)] for r in doc["placements"]]
    lines.append(aligned_table(rows, ["turn", "player", "played", "preferred", "loss", "interval", "verdict"],
                               ("right", "left", "left", "left", "right", "left", "left")))
    lines.append("")
    players = [[p["player"], p["placements"], f"{p['mean_loss']:.2f}", _interval(p.get("mean_loss_interval"), ""),
                p["mistakes"], p["blunders"]] for p in doc["players"]]
    lines.append(aligned_table(players, ["player", "placements", "mean loss", "interval", "mistakes", "blunders"],
                               ("left", "right", "right", "left", "right", "right")))
    return "\n".join(lines)


def _better(review: dict) -> str:
    """What the verdict column says of a placement without a verdict: that it did significantly better
    than the preferred one, where the loss's interval says so."""
    interval = review.get("loss_interval")
    return "better than preferred" if interval is not None and interval[1] < 0 else ""
