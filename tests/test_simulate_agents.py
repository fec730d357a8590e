"""`medina simulate --agents`: one spec per seat, seats rotating over the games, per-agent win rates
and mean scores with their intervals, the same document with one job or two."""

from __future__ import annotations

import json

import pytest
from scorekit import run

from medina_cli.rules.loader import load_ruleset
from medina_cli.study.games import play_one


def simulate(*args: str) -> tuple[int, dict | None, str]:
    code, out, err = run("simulate", *args)
    return code, json.loads(out) if code == 0 and out.startswith("{") else None, err


def test_agents_rotate_over_the_seats():
    rules = load_ruleset("original-2001").for_players(4)
    seats = ("greedy", "random", "random", "random")
    held = [play_one(rules, 3, index, seats=seats)[0].agents.index("greedy") for index in range(4)]
    assert sorted(held) == [0, 1, 2, 3]


def test_per_agent_rows_with_intervals():
    code, doc, _ = simulate(
        "--ruleset",
        "original-2001",
        "--games",
        "8",
        "--agents",
        "greedy,random,random,random",
        "--json",
    )
    rows = {row["agent"]: row for row in doc["agents"]}
    assert code == 0 and list(rows) == ["greedy", "random"]
    assert rows["greedy"]["games"] == 8 and rows["random"]["games"] == 24
    assert rows["greedy"]["wins"] + rows["random"]["wins"] == pytest.approx(8)
    for row in rows.values():
        low, high = row["win_rate_ci95"]
        assert low <= row["win_rate"] <= high
        low, high = row["mean_score_ci95"]
        assert low <= row["mean_score"] <= high


@pytest.mark.slow
def test_the_document_does_not_depend_on_jobs():
    args = (
        "--ruleset",
        "second-edition-2014",
        "--players",
        "2",
        "--games",
        "4",
        "--agents",
        "mcts:4,greedy",
        "--json",
    )
    assert simulate(*args, "--jobs", "1")[1] == simulate(*args, "--jobs", "2")[1]


def test_without_agents_every_seat_plays_random():
    code, doc, _ = simulate("--ruleset", "original-2001", "--games", "6", "--json")
    _, pooled, _ = simulate(
        "--ruleset",
        "original-2001",
        "--games",
        "6",
        "--json",
        "--agents",
        "random,random,random,random",
    )
    assert code == 0 and "agents" not in doc
    assert pooled["rulesets"] == doc["rulesets"]


@pytest.mark.parametrize(
    "agents,words",
    [("greedy,random", "one agent per seat"), ("greedy,deep-blue,random,random", "unknown agent")],
)
def test_bad_agents_are_usage_errors(agents, words):
    code, _, err = simulate("--ruleset", "original-2001", "--games", "2", "--agents", agents)
    assert code == 2 and words in err
