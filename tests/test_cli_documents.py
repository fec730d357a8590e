"""Each --json document keeps its keys in their order (the order is part of the output people and
scripts diff), whichever module builds it; and `rules list` gives every built-in ruleset as loaded."""

from __future__ import annotations

import json

import pytest
from scorekit import FIXTURES, TILE_EXAMPLES, run

from medina_cli.rules.loader import builtin_ids, load_ruleset

GAME = str(TILE_EXAMPLES / "e6-tea.yaml")
PROBLEMS = ["errors", "warnings"]
CASES = [  # (arguments, the document's keys in order)
    (["validate", GAME], ["format", "results"]),
    (
        ["replay", GAME],
        ["format", "file", "ruleset", "players", "setup", "turns", "position", *PROBLEMS],
    ),
    (
        ["moves", GAME, "--to", "3"],
        ["format", "after_turn", "player", "turn", "placement", "placements", "file", *PROBLEMS],
    ),
    (["status", GAME], ["format", "file", "ruleset", "players", "position", "score", *PROBLEMS]),
    (
        ["score", GAME],
        ["format", "ruleset", "finished", "players", "undetermined", "winners", "file", *PROBLEMS],
    ),
    (["score", GAME, GAME], ["format", "games", "standings"]),
    (["compare", GAME], ["format", "file", "players", "results", "differences", *PROBLEMS]),
    (
        ["compare", GAME, "--readings"],
        ["format", "ruleset", "file", "players", "baseline", "readings", *PROBLEMS],
    ),
    (
        ["hint", GAME, "--to", "3", "--agent", "greedy"],
        [
            "format",
            "file",
            "agent",
            "seed",
            "player",
            "turn",
            "placement",
            "value",
            "ranked_by",
            "hints",
            "engine",
            "confidence",
            "whole_turn",
            "search",
            "tie_margin",
            "even_win",
            "even_margin",
            *PROBLEMS,
        ],
    ),
    (
        ["analyse", GAME, "--agent", "greedy"],
        [
            "format",
            "file",
            "agent",
            "seed",
            "engine",
            "value",
            "thresholds",
            "confidence",
            "placements",
            "players",
            *PROBLEMS,
        ],
    ),
    (
        ["simulate", "-r", "original-2001", "-p", "3", "-g", "2"],
        [
            "format",
            "players",
            "games",
            "seed",
            "overrides",
            "rulesets",
            "confidence",
            "significant",
            *PROBLEMS,
        ],
    ),
    (
        [
            "simulate",
            "-r",
            "original-2001",
            "-p",
            "3",
            "-g",
            "2",
            "--agents",
            "random,greedy,random",
        ],
        [
            "format",
            "players",
            "games",
            "seed",
            "overrides",
            "rulesets",
            "confidence",
            "significant",
            "engine",
            "agents",
            *PROBLEMS,
        ],
    ),
    (
        ["simulate", "-r", "second-edition-2014", "-p", "3", "-g", "2", "--readings"],
        ["format", "ruleset", "players", "games", "seed", "overrides", "readings", *PROBLEMS],
    ),
    (
        ["import", "boardspace", str(FIXTURES / "boardspace" / "v1-3p-00046.sgf")],
        ["format", "file", "output", "ruleset", "players", "turns", "errors", "warnings", "record"],
    ),
    (["rules", "list"], ["format", "rulesets"]),
    (["rules", "show", "original-2001"], ["format", "ruleset", *PROBLEMS]),
    (
        ["rules", "diff", "original-2001", "second-edition-2014"],
        ["format", "rulesets", "differences", *PROBLEMS],
    ),
    (["rules", "params"], ["format", "parameters"]),
]
BEFORE_REPLAY = [  # (arguments, the keys of the document an unreadable record leaves)
    (["replay"], ["format", "file", "ruleset", "players", "setup", "turns", "position", *PROBLEMS]),
    (
        ["moves"],
        ["format", "after_turn", "player", "turn", "placement", "placements", "file", *PROBLEMS],
    ),
    (["status"], ["format", "file", "ruleset", "players", "position", "score", *PROBLEMS]),
    (
        ["score"],
        ["format", "ruleset", "finished", "players", "undetermined", "winners", "file", *PROBLEMS],
    ),
    (["compare"], ["format", "file", "players", "results", "differences", *PROBLEMS]),
    (
        ["compare", "--readings"],
        ["format", "ruleset", "file", "players", "baseline", "readings", *PROBLEMS],
    ),
    (
        ["hint"],
        [
            "format",
            "file",
            "agent",
            "seed",
            "player",
            "turn",
            "placement",
            "value",
            "ranked_by",
            "hints",
            *PROBLEMS,
        ],
    ),
    (
        ["analyse"],
        [
            "format",
            "file",
            "agent",
            "seed",
            "value",
            "thresholds",
            "placements",
            "players",
            *PROBLEMS,
        ],
    ),
    (["undo"], ["format", "file", "removed", "to_move", "turn", "placement", *PROBLEMS]),
    (
        ["import", "boardspace"],
        ["format", "file", "output", "ruleset", "players", "turns", "errors", "warnings"],
    ),
]


@pytest.mark.parametrize(
    "args, keys", CASES, ids=lambda v: " ".join(v[:2]) if isinstance(v, list) else None
)
def test_each_document_keeps_its_keys_in_order(args, keys):
    _, out, _ = run(*args, "--json")
    assert list(json.loads(out)) == keys


@pytest.mark.parametrize(
    "args, keys", BEFORE_REPLAY, ids=lambda v: " ".join(v) if isinstance(v, list) else None
)
def test_a_missing_record_leaves_the_document_as_far_as_it_is_known(args, keys, tmp_path):
    missing = str(tmp_path / "nope.yaml")
    code, out, err = run(*args, missing, "--json")
    doc = json.loads(out)
    assert (code, err, list(doc)) == (2, "", keys)
    assert doc["errors"][0]["code"] == "file-not-found"


def test_rules_list_gives_every_built_in_ruleset_as_loaded():
    code, out, _ = run("rules", "list", "--json")
    rulesets = [load_ruleset(rid) for rid in builtin_ids()]
    assert code == 0 and json.loads(out)["rulesets"] == [
        {"id": r.id, "title": r.title, "players": r.player_counts, "sources": r.sources}
        for r in rulesets
    ]
    code, text, _ = run("rules", "list")
    lines = text.splitlines()
    assert lines[0].split() == ["id", "players", "title"]
    for r in rulesets:
        at = lines.index(f"{r.id} sources:")
        assert lines[at - 1] == "" and lines[at + 1 : at + 1 + len(r.sources or [1])] == [
            f"  - {source}" for source in r.sources or ["(none given)"]
        ]
