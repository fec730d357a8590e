"""`medina hint`, `medina analyse` and `medina view --analysis`: documents, exit codes, the chart and
the preferred placement on the viewer's frames."""

from __future__ import annotations

import json
import re

import pytest
from conftest import record_text
from scorekit import run
from terminal import on_terminal, plain

from medina_cli.agents.replicates import LOSS_REPLICATES, budget_split
from medina_cli.render.verdicts import hint_text

ORANGE_OPEN = [
    "Anna: orange C3, orange C4",
    "Ben: orange C5, orange C6",
    "Cleo: orange C7, brown F11",
]
ORANGE_CELLS = {"C3", "C4", "C5", "C6", "C7"}
MISSED = [*ORANGE_OPEN, "Anna: wall A2, wall A3", "Ben: roof C4, black P10"]


def write(tmp_path, turns, name="game.yaml"):
    path = tmp_path / name
    path.write_text(record_text("original-2001", ["Anna", "Ben", "Cleo"], turns))
    return path


def test_hint_json_names_the_mover_and_the_roof(tmp_path):
    code, out, _ = run(
        "hint", write(tmp_path, ORANGE_OPEN), "--agent", "greedy", "--top", "3", "--json"
    )
    doc = json.loads(out)
    assert code == 0 and doc["format"] == "medina-hint/1"
    assert (doc["player"], doc["turn"], doc["placement"]) == ("Anna", 4, 1)
    assert len(doc["hints"]) == 3 and doc["hints"][0]["placement"] in {
        "roof C3",
        "roof C4",
        "roof C5",
        "roof C6",
        "roof C7",
    }
    assert [h["value"] for h in doc["hints"]] == sorted(
        (h["value"] for h in doc["hints"]), reverse=True
    )


def test_hint_text_and_game_over(tmp_path):
    code, out, _ = run("hint", write(tmp_path, ORANGE_OPEN), "--agent", "mcts:30", "--top", "2")
    assert code == 0 and "Anna to move, placement 1 of turn 4" in out and "playouts" in out
    assert len(re.findall(r"^\s+\d\. ", out, re.M)) == 2


def test_hint_at_the_end_says_the_ranking_it_would_have_used(examples_dir):
    finished = examples_dir / "original-2001-3p.yaml"
    for options, ranked_by in (
        ([], "repeats"),
        (["--turn"], "repeats"),
        (["--agent", "greedy"], "value"),
        (["--agent", "greedy", "--turn"], "value"),
    ):
        code, out, _ = run("hint", finished, "--json", *options)
        doc = json.loads(out)
        assert (
            code == 0
            and doc["player"] is None
            and doc["hints"] == []
            and doc["ranked_by"] == ranked_by
        )


@pytest.mark.slow
def test_hint_names_its_ranking_and_each_roofed_palace_once(tmp_path):
    game = write(tmp_path, ORANGE_OPEN)
    code, out, _ = run("hint", game, "--agent", "mcts:100", "--top", "6", "--explain")
    assert code == 0 and "(ranked by repeats, the highest value first" in out
    assert len(re.findall(r"^\s+\d\. roof C3 \(orange palace: C3 C4 C5 C6 C7\)", out, re.M)) == 1
    assert not re.search(r"^\s+\d\. roof C[4-7]", out, re.M)
    _, out, _ = run("hint", game, "--agent", "mcts:100", "--top", "6", "--json")
    doc = json.loads(out)
    assert doc["ranked_by"] == "repeats"
    values = [
        h["value"] for h in doc["hints"]
    ]  # the preferred move, then others chosen among (8 are, here)
    assert values[1:] == sorted(values[1:], reverse=True) and doc["hints"][0]["tied_with_best"]
    assert len({h["playouts"] for h in doc["hints"]}) == 1  # each on as many fresh repeats
    roofs = [h for h in doc["hints"] if h["placement"].startswith("roof C")]
    assert roofs == [
        {
            **roofs[0],
            "placement": "roof C3",
            "palace": {"colour": "orange", "cells": sorted(ORANGE_CELLS)},
        }
    ]
    _, out, _ = run("hint", game, "--agent", "greedy", "--json")
    assert json.loads(out)["ranked_by"] == "value"


def test_analyse_table_names_every_column(tmp_path):
    code, out, _ = run("analyse", write(tmp_path, MISSED), "--agent", "greedy")
    header, rule = out.splitlines()[2:4]
    assert (
        code == 0 and header.split()[-1] == "verdict" and len(rule.split()) == len(header.split())
    )


def test_bad_agents_are_usage_errors(tmp_path):
    game = write(tmp_path, ORANGE_OPEN)
    code, _, err = run("hint", game, "--agent", "deep-blue")
    assert code == 2 and "unknown agent" in err and "mcts:N" in err
    code, _, err = run("analyse", game, "--agent", "random")
    assert code == 2 and "does not rate placements" in err


@pytest.mark.slow
def test_analyse_json_rates_every_placement(tmp_path):
    code, out, _ = run("analyse", write(tmp_path, MISSED), "--agent", "mcts:30", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["format"] == "medina-analyse/1" and len(doc["placements"]) == 10
    assert [(p["turn"], p["placement"]) for p in doc["placements"]][6:8] == [(4, 1), (4, 2)]
    assert all(p["loss"] >= 0 for p in doc["placements"])
    assert [p["player"] for p in doc["players"]] == ["Anna", "Ben", "Cleo"]
    assert sum(p["placements"] for p in doc["players"]) == 10


def test_an_invalid_record_is_not_analysed(tmp_path):
    code, out, err = run(
        "analyse", write(tmp_path, [*ORANGE_OPEN, "Anna: roof C3, roof C4"]), "--agent", "greedy"
    )
    assert code == 1 and out == "" and "not analysed" in err


def test_view_shows_a_saved_analysis(tmp_path):
    game = write(tmp_path, MISSED)
    _, out, _ = run("analyse", game, "--agent", "greedy", "--json")
    saved = tmp_path / "analysis.json"
    saved.write_text(out)
    page_path = tmp_path / "game.html"
    code, _, _ = run("view", game, "--analysis-from", saved, "-o", page_path)
    page = page_path.read_text()
    frames = json.loads(re.search(r'id="frames">(.*?)</script>', page, re.S).group(1))
    assert code == 0 and 'id="analysis-cursor"' in page and "expected margin" in page
    assert [f["cursor"] for f in frames] == sorted(f["cursor"] for f in frames)
    # with an analysis the viewer steps placement by placement: frame k is after the record's k-th
    assert frames[8]["heading"].startswith("Turn 4 of 5, placement 2 of 2, Anna: wall A3")
    assert "Anna played wall A3" in frames[8]["advice"] and "wall A2" not in frames[8]["advice"]
    assert "Anna played wall A2" in frames[7]["advice"]
    # after turn 3 (six placements) greedy prefers a roof on the orange palace for Anna: marked on that board
    frame3 = re.search(r'<template id="frame-6">(.*?)</template>', page, re.S).group(1)
    assert re.search(r'data-kind="preferred" data-cell="C[3-7]"', frame3)


def test_view_refuses_an_analysis_of_another_game(tmp_path):
    other = write(tmp_path, ORANGE_OPEN, "other.yaml")
    _, out, _ = run("analyse", other, "--agent", "greedy", "--json")
    saved = tmp_path / "analysis.json"
    saved.write_text(out)
    changed = [*ORANGE_OPEN[:2], "Cleo: orange C7, brown F10"]
    code, _, err = run(
        "view", write(tmp_path, changed), "--analysis-from", saved, "-o", tmp_path / "x.html"
    )
    assert code == 2 and "not an analysis of" in err and "brown F10" in err
    code, _, err = run(
        "view", other, "--analysis-from", tmp_path / "missing.json", "-o", tmp_path / "x.html"
    )
    assert code == 2 and "cannot read" in err


@pytest.mark.slow
def test_analyse_draws_its_progress_on_a_terminal(tmp_path):
    """On a terminal stderr, a bar counts the placements rated; it is cleared before the table."""
    code, shown, out = on_terminal(
        "analyse", write(tmp_path, MISSED), "--agent", "greedy", stream="stderr"
    )
    assert code == 0 and "Anna" in out
    shown = plain(shown)
    assert "internal error" not in shown and "10/10 placements" in shown
    assert shown.split("\r")[-1].strip() == ""


def test_analyse_interrupted_says_so_and_exits_130(tmp_path, monkeypatch):
    import medina_cli.study.analysis as analysis

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(analysis, "analyse", interrupted)
    path = write(tmp_path, MISSED)
    for json_ in ((), ("--json",)):
        code, out, err = run("analyse", path, "--agent", "greedy", *json_)
        assert (code, out, err) == (130, "", "medina analyse: interrupted\n")


def test_ctrl_c_before_the_first_placement_is_rated_leaves_a_document_resume_finishes(
    tmp_path, monkeypatch
):
    import medina_cli.study.analysis as analysis

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    path = write(tmp_path, MISSED)
    kept = tmp_path / "a.json"
    with monkeypatch.context() as patched:
        patched.setattr(analysis, "analyse", interrupted)
        assert run("analyse", path, "--agent", "greedy", "-o", kept)[0] == 130
    assert json.loads(kept.read_text())["partial"] == {"rated": 0, "of": 10, "reviews": []}
    code, out, _ = run("analyse", path, "--agent", "greedy", "-o", kept, "--resume")
    assert code == 0 and "(10 placements)" in out and "partial" not in json.loads(kept.read_text())


@pytest.mark.slow
def test_analyse_stopped_by_ctrl_c_in_its_worker_processes_says_so(tmp_path):
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    from conftest import EXAMPLES

    proc = subprocess.Popen(
        [
            str(Path(sys.executable).with_name("medina")),
            "analyse",
            EXAMPLES / "original-2001-3p.yaml",
            "--agent",
            "mcts:100000@0.999",
            "--jobs",
            "2",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(3)  # well into the analysis (which takes many minutes)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)  # the workers are stopped, not waited for
    assert (proc.returncode, out, err) == (130, "", "medina analyse: interrupted\n")


@pytest.mark.slow
def test_analyse_jobs_are_capped_as_simulate_caps_them(tmp_path):
    """`--jobs 1000` starts at most 4 processes per CPU (said once on stderr); the document is the one of
    a single process."""
    import os

    game = write(tmp_path, MISSED)
    code, alone, _ = run("analyse", game, "--agent", "greedy", "--json")
    assert code == 0
    code, out, err = run("analyse", game, "--agent", "greedy", "--json", "--jobs", "1000")
    assert (code, out) == (0, alone)
    assert err == f"warning: --jobs 1000 is more than 4 per CPU: using {4 * os.cpu_count()}\n"


@pytest.mark.slow
def test_hint_gives_each_value_its_interval_and_marks_the_ties(tmp_path):
    game = write(tmp_path, [*ORANGE_OPEN, "Anna: wall A2"])
    code, out, _ = run("hint", game, "--agent", "mcts:400", "--top", "4", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["confidence"] == 0.95 and doc["tie_margin"] == 0.5
    assert len({hint["playouts"] for hint in doc["hints"]}) == 1  # each on the same fresh repeats
    first = doc["hints"][0]
    assert first["placement"] == "roof C3" and first["tied_with_best"] is True
    for hint in doc["hints"]:
        low, high = hint["value_interval"]
        assert low <= hint["value"] <= high and isinstance(hint["tied_with_best"], bool)
    code, out, _ = run("hint", game, "--agent", "mcts:400", "--top", "4", "--explain")
    assert re.search(
        r"^\s+1\. roof C3 .*\[[+-]\d+\.\d, [+-]\d+\.\d\](\s+= best|.*\n.*tied with the best)",
        out,
        re.M,
    )
    assert "95% interval" in out and "lead over it (paired replicate by replicate" in out
    assert "is not surely above 0.5 points at 95%" in out
    assert f"; {doc['search']['playouts']} playouts in all)" in out


@pytest.mark.slow
def test_hint_rates_a_whole_turn(tmp_path):
    game = write(tmp_path, ORANGE_OPEN)
    code, out, _ = run("hint", game, "--agent", "greedy", "--turn", "--top", "3", "--json")
    doc = json.loads(out)
    assert (
        code == 0
        and doc["whole_turn"] is True
        and doc["ranked_by"] == "value"
        and len(doc["hints"]) == 3
    )
    assert doc["tie_margin"] is None
    # the best turn roofs the orange palace (5 + its tile, 4) and adds a stable beside it: 10
    best = doc["hints"][0]
    assert best["value"] == 10 and {
        best["placement"].split()[0],
        best["then"]["placement"].split()[0],
    } == {"roof", "stable"}
    assert [h["value"] for h in doc["hints"]] == sorted(
        (h["value"] for h in doc["hints"]), reverse=True
    )
    code, out, _ = run("hint", game, "--agent", "mcts:200", "--turn", "--top", "2")
    assert (
        code == 0
        and "the whole turn" in out
        and len(re.findall(r"^\s+\d\. .*, then ", out, re.M)) == 2
    )
    code, out, _ = run("hint", game, "--agent", "mcts:200", "--turn", "--top", "2", "--json")
    doc = json.loads(out)
    assert (doc["ranked_by"], doc["tie_margin"], doc["whole_turn"]) == ("repeats", 0.5, True)
    single = json.loads(run("hint", game, "--agent", "mcts:200", "--top", "2", "--json")[1])
    assert {h["placement"] for h in doc["hints"]} == {h["placement"] for h in single["hints"]}
    assert all(h["then"]["placement"] for h in doc["hints"]) and doc["hints"][0]["tied_with_best"]
    for hint in doc["hints"]:
        low, high = hint["value_interval"]
        assert low <= hint["value"] <= high and hint["playouts"] == single["hints"][0]["playouts"]
    assert (
        "not surely above 0.5 points"
        in run("hint", game, "--agent", "mcts:200", "--turn", "--top", "2", "--explain")[1]
    )


@pytest.mark.slow
def test_analyse_labels_a_placement_only_when_its_interval_clears_the_threshold(tmp_path):
    code, out, _ = run("analyse", write(tmp_path, MISSED), "--agent", "mcts:300", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["confidence"] == 0.95
    for review in doc["placements"]:
        low, high = review["loss_interval"]
        assert low <= high and review["paired_playouts"] >= 2
        expected = "blunder" if low >= 12 else "mistake" if low >= 5 else None
        assert review["verdict"] == expected
    other = [
        r["paired_playouts"]
        for r in doc["placements"]
        if r["best"] != r["played"] and r["loss_interval"] != [0, 0]
    ]
    assert other and set(other) == {
        LOSS_REPLICATES * budget_split(300)[1]
    }  # every loss on the same count: the fresh replicates' searches after each move
    missed = next(r for r in doc["placements"] if (r["turn"], r["placement"]) == (4, 2))
    assert missed["played"] == "wall A3" and missed["verdict"] in ("mistake", "blunder")
    anna = doc["players"][0]
    assert anna["mistakes"] + anna["blunders"] == sum(
        1 for r in doc["placements"] if r["player"] == "Anna" and r["verdict"]
    )
    low, high = anna["mean_loss_interval"]
    assert low <= anna["mean_loss"] <= high
    code, out, _ = run("analyse", write(tmp_path, MISSED), "--agent", "mcts:300")
    assert re.search(
        r"^\s+4\.2\s+Anna\s+wall A3\s+roof C\d\s+\d+\.\d\s+\[-?\d+\.\d, \d+\.\d\]\s+(mistake|blunder)$",
        out,
        re.M,
    )


@pytest.mark.slow
def test_hint_on_several_processes_says_what_one_says(tmp_path):
    game = write(tmp_path, [*ORANGE_OPEN, "Anna: wall A2"])
    for extra in ((), ("--turn",)):
        _, alone, _ = run("hint", game, "--agent", "mcts:300", "--top", "3", "--json", *extra)
        code, shared, _ = run(
            "hint", game, "--agent", "mcts:300", "--top", "3", "--json", "--jobs", "2", *extra
        )
        assert code == 0 and shared == alone


@pytest.mark.slow
def test_view_shows_each_loss_with_its_interval_and_marks_the_verdicts(tmp_path):
    game = write(tmp_path, MISSED)
    _, out, _ = run("analyse", game, "--agent", "mcts:300", "--json")
    saved = tmp_path / "analysis.json"
    saved.write_text(out)
    doc = json.loads(out)
    page_path = tmp_path / "game.html"
    code, _, _ = run("view", game, "--analysis-from", saved, "-o", page_path)
    page = page_path.read_text()
    frames = json.loads(re.search(r'id="frames">(.*?)</script>', page, re.S).group(1))
    other = [
        r["paired_playouts"]
        for r in doc["placements"]
        if r["best"] != r["played"] and r["loss_interval"] != [0, 0]
    ]
    assert other and set(other) == {
        LOSS_REPLICATES * budget_split(300)[1]
    }  # every loss on the same count: the fresh replicates' searches after each move
    missed = next(r for r in doc["placements"] if (r["turn"], r["placement"]) == (4, 2))
    low, high = missed["loss_interval"]
    assert (
        code == 0
        and f"interval {low:.1f} to {high:.1f}): a {missed['verdict']}" in frames[8]["advice"]
    )
    marked = sum(1 for r in doc["placements"] if r["verdict"])
    assert page.count('r="4.5"') == marked  # one circle per verdict, none for a loss without one


def test_a_placement_that_did_better_than_the_preferred_one_says_so():
    """The loss is never below 0, its interval may be: wholly below 0, the move played did better."""
    from medina_cli.render.verdicts import analysis_text

    review = {
        "turn": 1,
        "placement": 1,
        "player": "Ann",
        "played": "grey L5",
        "best": "grey H5",
        "loss": 0.0,
        "loss_interval": [-19.5, -1.1],
        "verdict": None,
    }
    doc = {
        "file": "g.yaml",
        "agent": "mcts:30",
        "seed": 0,
        "value": "margin",
        "confidence": 0.95,
        "thresholds": {"mistake": 5.0, "blunder": 12.0},
        "players": [],
        "placements": [review, {**review, "turn": 2, "loss_interval": [-3.0, 1.0]}],
    }
    rows = [line for line in analysis_text(doc).splitlines() if "grey L5" in line]
    assert rows[0].endswith("better than preferred") and not rows[1].endswith(
        "better than preferred"
    )


def test_a_record_without_placements_is_analysed_with_every_tabulate_allowed(tmp_path):
    """A table without rows is its headers alone (tabulate 0.9.0 failed to align no columns)."""
    path = tmp_path / "empty.yaml"
    path.write_text(
        "medina: record/1\nruleset: original-2001\nplayers: [Ann, Ben, Cy]\nsetup:\n  merchant: K7\n"
        "turns: []\n",
        encoding="utf-8",
    )
    code, out, err = run("analyse", path, "--agent", "greedy")
    assert code == 0 and err == ""
    assert "turn    player    played    preferred    loss    interval    verdict" in out
    assert re.search(r"^Ann +0 +0 +— +0 +0$", out, re.M)  # nothing rated, not a mean loss of 0


def test_hint_text_never_prints_minus_zero():
    doc = {
        "player": "Anna",
        "whole_turn": False,
        "placement": 1,
        "turn": 2,
        "agent": "mcts",
        "seed": 0,
        "value": "v",
        "ranked_by": "value",
        "search": None,
        "hints": [
            {
                "placement": "wall A2",
                "value": -0.04,
                "value_interval": [-0.04, 0.96],
                "tied_with_best": True,
            }
        ],
    }
    line = hint_text(doc, "game.yaml").splitlines()[-1]
    assert "-0.0" not in line and "+0.0 [+0.0, +1.0]" in line


def _interrupted_analysis(arguments: list, out, after: int):
    """`medina analyse ARGUMENTS -o OUT` in a process of its own, sent Ctrl-C once OUT holds `after`
    rated placements; its (exit code, stdout, stderr)."""
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    command = [
        str(Path(sys.executable).with_name("medina")),
        "analyse",
        *map(str, arguments),
        "-o",
        str(out),
    ]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            if json.loads(out.read_text())["partial"]["rated"] >= after:
                break
        except (OSError, ValueError, KeyError):
            pass
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=60)
    return proc.returncode, stdout, stderr


@pytest.mark.slow
def test_analyse_keeps_what_is_rated_on_ctrl_c_and_resume_finishes_it(tmp_path):
    """-o fills in as it goes; Ctrl-C prints the partial table and keeps it; --resume ends with the very
    document of a run never interrupted (each placement seeded by its index)."""
    from conftest import EXAMPLES

    arguments = [
        EXAMPLES / "original-2001-4p.yaml",
        "--agent",
        "mcts:100",
        "--from",
        "10",
        "--to",
        "17",
    ]
    kept = tmp_path / "a.json"
    code, out, err = _interrupted_analysis(arguments, kept, 3)
    partial = json.loads(kept.read_text())
    assert code == 130 and "interrupted: " in err and f"kept in {kept}" in err, err
    assert (
        3
        <= partial["partial"]["rated"]
        == len(partial["placements"])
        < partial["partial"]["of"]
        == 16
    )
    assert f"({len(partial['placements'])} placements of 16 so far)" in out
    code, out, _ = run("analyse", *arguments, "-o", kept, "--resume")
    assert code == 0 and "turns 10 to 17 (16 placements)" in out
    whole = tmp_path / "b.json"
    assert run("analyse", *arguments, "-o", whole)[0] == 0
    assert kept.read_text() == whole.read_text() and "partial" not in json.loads(whole.read_text())


@pytest.mark.slow
def test_analyse_rates_a_part_of_the_game_and_writes_its_document_in_the_same_run(tmp_path):
    from conftest import EXAMPLES

    saved = tmp_path / "a.json"
    code, out, err = run(
        "analyse",
        EXAMPLES / "original-2001-4p.yaml",
        "--from",
        "10",
        "--to",
        "20",
        "--player",
        "Anna",
        "--agent",
        "greedy",
        "-o",
        saved,
    )
    doc = json.loads(saved.read_text())
    assert (
        code == 0
        and "the placements of turns 10 to 20 by Anna (4 placements)" in out
        and f"wrote {saved}" in err
    )
    assert [(r["turn"], r["player"]) for r in doc["placements"]] == [(13, "Anna")] * 2 + [
        (17, "Anna")
    ] * 2
    assert doc["selection"] == {"from": 10, "to": 20, "player": "Anna"} and [
        p["player"] for p in doc["players"]
    ] == ["Anna"]
    code, out, _ = run(
        "analyse",
        EXAMPLES / "original-2001-4p.yaml",
        "--from",
        "10",
        "--to",
        "20",
        "--player",
        "Anna",
        "--agent",
        "greedy",
        "--json",
    )
    assert code == 0 and json.loads(out) == {**doc, "errors": [], "warnings": []}
    finished = saved.read_text()
    code, out, err = run(
        "analyse",
        EXAMPLES / "original-2001-4p.yaml",
        "--from",
        "10",
        "--to",
        "20",
        "--player",
        "Anna",
        "--agent",
        "greedy",
        "-o",
        saved,
        "--resume",
    )
    assert code == 0 and "(4 placements)" in out and err == "" and saved.read_text() == finished
    for bad, words in (
        (["--player", "Zoe"], "'Zoe' does not play"),
        (["--from", "9", "--to", "3"], "comes after"),
        (
            ["--from", "99"],
            "--from 99: " + str(EXAMPLES / "original-2001-4p.yaml") + " has 72 turns",
        ),
        (["--resume"], "give -o FILE.json"),
    ):
        code, _, err = run("analyse", EXAMPLES / "original-2001-4p.yaml", "--agent", "greedy", *bad)
        assert code == 2 and words in err, err
    saved.write_text(
        json.dumps({**doc, "seed": 5, "partial": {"rated": 0, "of": 4, "reviews": []}})
    )
    resumed = [
        "analyse",
        EXAMPLES / "original-2001-4p.yaml",
        "--from",
        "10",
        "--to",
        "20",
        "--player",
        "Anna",
    ]
    resumed += ["--agent", "greedy", "-o", saved, "--resume"]
    code, _, err = run(*resumed)
    assert code == 2 and "it was written with --seed 5, not 0 [usage]" in err, err
    code, _, err = run(
        "analyse",
        EXAMPLES / "original-2001-4p.yaml",
        "--from",
        "10",
        "--agent",
        "mcts:20",
        "-o",
        saved,
        "--resume",
    )
    assert (
        code == 2
        and (
            "it was written with --agent greedy, not mcts:20; --seed 5, not 0; --to 20, not without it; "
            "--player Anna, not without it [usage]"
        )
        in err
    ), err
    changed = [{**doc["placements"][0], "played": "wall A1"}]
    saved.write_text(
        json.dumps({**doc, "placements": changed, "partial": {"rated": 1, "of": 4, "reviews": []}})
    )
    code, _, err = run(*resumed)
    assert code == 2 and "'wall A1' in turn 13, which" in err, err


@pytest.mark.slow
def test_analyse_counts_tea_tiles_apart_as_validate_does():
    from conftest import EXAMPLES

    path = EXAMPLES / "second-edition-2014-2p.yaml"
    assert "101 placements" in run("validate", path)[1]
    code, out, _ = run("analyse", path, "--agent", "greedy")
    assert code == 0 and "every placement (101 placements and 5 tea tiles)" in out
    doc = json.loads(run("analyse", path, "--agent", "greedy", "--json")[1])
    assert sum(p["placements"] - p["tea_tiles"] for p in doc["players"]) == 101
    assert sum(p["tea_tiles"] for p in doc["players"]) == 5


@pytest.mark.slow
def test_analyse_annotate_writes_a_copy_that_validates_replays_scores_and_views_as_the_original(
    tmp_path,
):
    """The copy keeps the record's text and adds the analysis under x-analysis (mistakes as comments);
    annotating it again replaces that block; `view` of it shows the analysis (its chart)."""
    from conftest import EXAMPLES

    original = EXAMPLES / "second-edition-2014-2p.yaml"
    copy, again = tmp_path / "annotated.yaml", tmp_path / "again.yaml"
    code, _, err = run("analyse", original, "--agent", "greedy", "--annotate", copy)
    text = copy.read_text()
    assert (
        code == 0
        and f"wrote {copy}" in err
        and text.startswith(original.read_text().rstrip("\n") + "\n")
    )
    assert (
        "\nx-analysis:\n  format: medina-analyse/1\n" in text
        and "a mistake, stable C10 preferred" in text
    )
    for command in (["validate"], ["replay", "--json"], ["score", "--json"]):
        code, out, _ = run(*command, copy)
        expected = run(*command, original)
        assert code == expected[0] == 0 and out.replace(str(copy), "F") == expected[1].replace(
            str(original), "F"
        )
    assert run("analyse", copy, "--agent", "greedy", "--annotate", again)[0] == 0
    assert again.read_text().count("x-analysis:") == 1
    code, _, _ = run("view", copy, "-o", tmp_path / "page.html")
    assert code == 0 and 'id="analysis-cursor"' in (tmp_path / "page.html").read_text()
    code, _, _ = run("view", original, "-o", tmp_path / "plain.html")
    assert code == 0 and 'id="analysis-cursor"' not in (tmp_path / "plain.html").read_text()


def test_ctrl_c_after_some_placements_prints_them_in_analyse_and_nothing_in_view(
    tmp_path, monkeypatch
):
    import medina_cli.study.analysis as analysis

    real = analysis.analyse

    def one_then_interrupted(record, spec, **options):
        rated = options.pop("rated")
        reviews = real(record, spec, **{**options, "indices": [0]})
        rated(reviews)
        raise KeyboardInterrupt

    monkeypatch.setattr(analysis, "analyse", one_then_interrupted)
    path = write(tmp_path, MISSED)
    code, out, err = run("analyse", path, "--agent", "greedy")
    assert code == 130 and "(1 placement of 10 so far)" in out and "   1.1  Anna" in out
    summary = {line.split()[0]: line for line in out.splitlines()[-3:]}
    assert "—" not in summary["Anna"] and "0.00" not in summary["Ben"]  # Ben: nothing rated
    assert re.match(r"Ben\s+0\s+0\s+—\s+0\s+0$", summary["Ben"]), out
    assert (
        err
        == "medina analyse: interrupted: 1 of 10 placements rated (-o FILE.json would keep them)\n"
    )
    code, out, err = run(
        "view", path, "--analysis", "--agent", "greedy", "-o", tmp_path / "page.html"
    )
    assert (code, out, err) == (130, "", "medina view: interrupted\n")


@pytest.mark.parametrize("command", ["hint", "analyse"])
def test_a_budget_of_seconds_is_refused_for_hints_and_analysis(command):
    from conftest import EXAMPLES

    code, _, err = run(command, str(EXAMPLES / "original-2001-3p.yaml"), "--agent", "mcts:2s")
    assert code == 2 and "not of seconds" in err and "internal error" not in err


def test_an_analysis_records_its_engine_and_resumes_on_it_only(tmp_path):
    from medina_cli.engine import native

    path = write(tmp_path, MISSED)
    kept = tmp_path / "a.json"
    assert run("analyse", path, "--agent", "greedy", "-o", kept)[0] == 0
    doc = json.loads(kept.read_text())
    assert doc["engine"] == native.engine_name()
    other = "python" if doc["engine"] == "native" else "native"
    kept.write_text(json.dumps({**doc, "engine": other}))
    code, _, err = run("analyse", path, "--agent", "greedy", "-o", kept, "--resume")
    assert code == 2 and f"written on the {other} engine" in err
    hinted = json.loads(run("hint", path, "--agent", "greedy", "--json")[1])
    assert hinted["engine"] == native.engine_name()
