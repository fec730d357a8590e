"""How `medina hint` reads (issue 34): the chance to win against an even share first, the list in the
order of the margin it prints, turns whose placements commute listed once, and `= best` only where the
intervals allow it."""

from __future__ import annotations

import json
import re

import pytest
from conftest import EXAMPLES
from rulekit import Position
from scorekit import run

from medina_cli.agents.analysis import TurnHint, merged_orders, value_first
from medina_cli.agents.base import Rating
from medina_cli.render.verdicts import hint_text

ORANGE_OPEN = [
    "Anna: orange C3, orange C4",
    "Ben: orange C5, orange C6",
    "Cleo: orange C7, brown F11",
]


def _document(hints: list[dict], **more) -> dict:
    return {
        "format": "medina-hint/1",
        "file": "g.yaml",
        "agent": "mcts",
        "seed": 0,
        "player": "Anna",
        "turn": 4,
        "placement": 1,
        "value": "v",
        "ranked_by": "repeats",
        "confidence": 0.95,
        "whole_turn": False,
        "search": {"playouts": 100, "sure": False},
        "tie_margin": 0.5,
        "even_win": 0.25,
        "hints": hints,
        **more,
    }


def _hint(placement: str, value: float, win: float, tied: bool) -> dict:
    return {
        "placement": placement,
        "value": value,
        "win": win,
        "playouts": 10,
        "value_interval": [value - 1, value + 1],
        "tied_with_best": tied,
    }


def test_value_first_lists_by_the_value_shown_and_unties_a_move_wholly_below_the_first():
    ratings = [
        Rating("wall A1", -5.0, interval=(-5.5, -4.5), tied=True),
        Rating("wall A2", -4.0, interval=(-4.4, -3.6), tied=True),
        Rating("wall A3", -4.2, interval=(-4.5, -3.9), tied=True),
        Rating("wall A4", -9.0, interval=(-9.5, -8.5), tied=False),
    ]
    ordered = value_first(ratings)
    assert [str(r.placement) for r in ordered] == ["wall A2", "wall A3", "wall A1", "wall A4"]
    # wall A1's interval [-5.5, -4.5] lies wholly below the first's [-4.4, -3.6]: not "= best"
    assert [r.tied for r in ordered] == [True, True, False, False]


def test_the_text_leads_with_the_chance_to_win_and_the_edge_over_an_even_game_on_one_legend_line():
    doc = _document(
        [_hint("wall A2", -4.0, 0.284, True), _hint("wall A3", -6.0, 0.2, False)], even_margin=-7.75
    )
    text = hint_text(doc, "g.yaml after turn 3")
    lines = text.splitlines()
    assert (
        len(lines) == 4
        and lines[1].startswith("(")
        and "--explain" in lines[1]
        and "even 25%" in lines[1]
    )
    assert "0 = even (margin -7.8)" in lines[1]
    assert re.search(
        r"1\. wall A2\s+win  28\.4% \( \+3\.4\)\s+edge\s+\+3\.8 \[\+2\.8, \+4\.8\]\s+= best$",
        lines[2],
    )
    assert "= best" not in lines[3] and "edge   +1.8" in lines[3]
    raw = hint_text(
        {**doc, "even_margin": None}, "g.yaml"
    )  # no even game to compare with: the margin itself
    assert "margin   -4.0 [-5.0, -3.0]" in raw and "edge" not in raw
    explained = hint_text(doc, "g.yaml after turn 3", explain=True)
    assert "--explain" not in explained and "not surely above 0.5 points" in explained
    assert "the margin an even game gives each player here, -7.8" in explained


def test_more_than_half_tied_is_said_in_one_line_instead_of_marks():
    doc = _document([_hint(f"wall A{i}", -4.0 - i / 10, 0.25, i != 3) for i in range(1, 5)])
    text = hint_text(doc, "g.yaml")
    assert (
        "= best" not in text
        and "3 of these 4 moves are tied with the best" in text
        and "(all but 3)" in text
    )
    doc = _document(
        [
            _hint("wall A1", -4.0, 0.25, True),
            _hint("wall A2", -5.0, 0.25, True),
            _hint("wall A3", -9.0, 0.25, False),
            _hint("wall A4", -9.0, 0.25, False),
        ]
    )
    assert hint_text(doc, "g.yaml").count("= best") == 2  # half, not more: each marked


def test_two_of_two_tied_is_said_in_one_line_as_three_are():
    doc = _document([_hint("wall A1", -4.0, 0.25, True), _hint("wall A2", -4.2, 0.25, True)])
    text = hint_text(doc, "g.yaml")
    assert "= best" not in text and text.endswith(
        "both moves are tied with the best: the search cannot tell them apart"
    )
    one = _document([_hint("wall A1", -4.0, 0.25, True), _hint("wall A2", -9.0, 0.25, False)])
    assert hint_text(one, "g.yaml").count("= best") == 1 and "tied with" not in hint_text(
        one, "g.yaml"
    )


def test_exact_values_tied_are_worth_the_same_not_beyond_a_search():
    exact = [{"placement": f"wall A{i}", "value": 0, "tied_with_best": True} for i in range(1, 4)]
    doc = _document(exact, agent="greedy", ranked_by="value", search=None, tie_margin=None)
    text = hint_text(doc, "g.yaml")
    assert text.endswith("all 3 moves are tied with the best: they are worth the same")
    assert "search" not in text


def test_a_turn_hint_in_the_middle_of_the_turn_says_the_rest_of_the_turn():
    doc = _document([_hint("wall A2", -4.0, 0.28, True)], whole_turn=True, placement=2)
    header = hint_text(doc, "g.yaml").splitlines()[0]
    assert "the rest of the turn (placement 2 of turn 4)" in header and "whole" not in header
    whole = hint_text({**doc, "placement": 1}, "g.yaml").splitlines()[0]
    assert "Anna to move, the whole turn;" in whole


def test_the_hint_play_gives_names_no_seed_and_no_explain_option():
    doc = _document([_hint("wall A2", -4.0, 0.28, True)], seed="0/7")
    header, legend = hint_text(doc, "g.yaml", command=False).splitlines()[:2]
    assert header.endswith("agent mcts") and "seed" not in header and "--explain" not in legend
    assert hint_text(doc, "g.yaml").splitlines()[0].endswith("agent mcts, seed 0/7")


def _commuting_pair(game):
    """Two placements of the mover's turn that reach the same position in either order, and a pair that does not."""
    legal = [p for p in game.legal_placements() if p.piece == "wall"][:6]
    for a in legal:
        for b in legal:
            if a != b:
                one, other = game.copy(), game.copy()
                one.push(a)
                if b not in one.legal_placements():
                    continue
                one.push(b)
                other.push(b)
                if a in other.legal_placements():
                    other.push(a)
                    if one.to_plain() == other.to_plain():
                        return a, b
    raise AssertionError("no commuting pair")


def test_merged_orders_lists_a_turn_whose_placements_commute_once():
    game = Position("original-2001", 3, *ORANGE_OPEN).game
    a, b = _commuting_pair(game)
    turns = [
        TurnHint(Rating(a, -1.0), Rating(b, -1.0)),
        TurnHint(Rating(b, -1.5), Rating(a, -1.5)),
        TurnHint(Rating(a, -2.0), None),
    ]
    merged = merged_orders(game, turns)
    assert [(m.first.placement, m.either_order) for m in merged] == [(a, True), (a, False)]
    assert merged[0].to_json()["either_order"] is True and "either_order" not in merged[1].to_json()


@pytest.mark.slow
def test_hint_turn_has_one_entry_per_turn_in_the_order_printed():
    code, out, _ = run(
        "hint",
        EXAMPLES / "original-2001-4p.yaml",
        "--to",
        "12",
        "--turn",
        "--top",
        "5",
        "--agent",
        "mcts:100",
        "--json",
    )
    doc = json.loads(out)
    assert code == 0 and doc["even_win"] == 0.25 and doc["even_margin"] < -1
    turns = [frozenset((h["placement"], h["then"]["placement"])) for h in doc["hints"]]
    assert len(turns) == len(set(turns))
    values = [h["value"] for h in doc["hints"]]
    assert values == sorted(values, reverse=True)
    best_low = doc["hints"][0]["value_interval"][0]
    assert not any(h["tied_with_best"] and h["value_interval"][1] < best_low for h in doc["hints"])


def test_hint_explain_prints_the_long_text():
    path = EXAMPLES / "original-2001-4p.yaml"
    short = run("hint", path, "--to", "12", "--agent", "greedy", "--top", "2")[1]
    long = run("hint", path, "--to", "12", "--agent", "greedy", "--top", "2", "--explain")[1]
    assert (
        "(ranked by value, the highest first)" in long
        and "ranked by" not in short
        and "--explain" in short
    )


def test_two_roofs_of_one_turn_commute_though_the_engine_numbers_their_claims():
    """The issue's example: after turn 12 Anna roofs the brown and the black palace, in either order; the
    engine numbers the claims in the order made, which no rule can tell apart within one turn."""
    from medina_cli.records.record import read_record
    from medina_cli.records.replay import replay

    game = replay(read_record(str(EXAMPLES / "original-2001-4p.yaml")), to_turn=12).game
    one, other = game.copy(), game.copy()
    for after, order in ((one, ("roof C11", "roof O5")), (other, ("roof O5", "roof C11"))):
        for placement in order:
            after.push(placement)
    assert one.to_plain() != other.to_plain()  # the claims' numbers differ
    brown, black = (
        next(p for p in game.legal_placements() if str(p) == name)
        for name in ("roof C11", "roof O5")
    )
    turns = [
        TurnHint(Rating(brown, -4.0), Rating(black, -4.0)),
        TurnHint(Rating(black, -4.5), Rating(brown, -4.5)),
    ]
    assert [(str(t.first.placement), t.either_order) for t in merged_orders(game, turns)] == [
        ("roof C11", True)
    ]


def test_the_even_margin_is_0_for_two_players_and_below_0_for_more():
    from medina_cli.agents.analysis import even_margin
    from medina_cli.records.record import read_record
    from medina_cli.records.replay import replay

    two = replay(read_record(str(EXAMPLES / "second-edition-2014-2p.yaml")), to_turn=10).game
    four = replay(read_record(str(EXAMPLES / "original-2001-4p.yaml")), to_turn=12).game
    assert even_margin(two, 64) == 0 and even_margin(four, 64) < -1
    assert even_margin(four, 64) == even_margin(
        four, 64
    )  # its own streams: no seed, the same every time
    greedy = json.loads(
        run(
            "hint", EXAMPLES / "original-2001-4p.yaml", "--to", "12", "--agent", "greedy", "--json"
        )[1]
    )
    assert greedy["even_margin"] is None  # greedy's values are margins now, not final ones


def test_hint_line_plays_on_from_the_first_move_listed():
    path = EXAMPLES / "original-2001-4p.yaml"
    doc = json.loads(
        run("hint", path, "--to", "12", "--agent", "greedy", "--line", "3", "--json")[1]
    )
    line = doc["line"]
    assert [step["placement"] for step in line[:1]] == [doc["hints"][0]["placement"]] and len(
        line
    ) == 4
    assert [step["player"] for step in line] == ["Anna", "Anna", "Ben", "Ben"]
    turn = json.loads(
        run("hint", path, "--to", "12", "--agent", "greedy", "--turn", "--line", "1", "--json")[1]
    )
    first = turn["hints"][0]
    assert [s["placement"] for s in turn["line"][:2]] == [
        first["placement"],
        first["then"]["placement"],
    ]
    assert len(turn["line"]) == 3 and turn["line"][2]["player"] == "Ben"
    text = run("hint", path, "--to", "12", "--agent", "greedy", "--line", "3")[1]
    assert text.splitlines()[-1] == "line: " + ", ".join(
        f"{s['player']} {s['placement']}" for s in line
    )
    assert "line" not in json.loads(
        run("hint", path, "--to", "12", "--agent", "greedy", "--json")[1]
    )
