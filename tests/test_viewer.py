"""`medina view`: one self-contained HTML file with a board, the events and the scores per turn."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

import pytest
from conftest import EXAMPLES, record_text
from scorekit import run

from medina_cli.engine.scoring import score_game
from medina_cli.records.record import read_record
from medina_cli.records.replay import replay

TEMPLATE = re.compile(r'<template id="frame-(\d+)">(.*?)</template>', re.S)
HOSTILE = "</script><script>alert(1)</script>"


def view(tmp_path, text: str) -> tuple[int, str, str]:
    source = tmp_path / "game.yaml"
    source.write_text(text)
    out = tmp_path / "game.html"
    code, _, err = run("view", source, "-o", out)
    return code, out.read_text() if out.exists() else "", err


def frames_of(page: str) -> list[dict]:
    data = re.search(
        r'<script type="application/json" id="frames">(.*?)</script>', page, re.S
    ).group(1)
    return json.loads(data)


@pytest.mark.slow
def test_one_frame_per_turn_with_running_scores(tmp_path):
    path = EXAMPLES / "original-2001-3p.yaml"
    code, page, _ = view(tmp_path, path.read_text())
    record = read_record(str(path))
    frames = frames_of(page)
    assert code == 0 and [f["turn"] for f in frames] == list(range(len(record.turns) + 1))
    assert frames[0]["scores"] == [0, 0, 0] and frames[0]["line"] == "Setup: start merchant G7"
    assert frames[-1]["scores"] == list(score_game(replay(record).game).totals.values())
    assert frames[4]["line"] == "Anna: stable D8, roof B9"
    assert "Anna roofs the black palace at B9 (size 1)" in frames[4]["events"]
    pictures = TEMPLATE.findall(page)
    assert [int(n) for n, _ in pictures] == list(range(len(frames)))
    boards = [ET.fromstring(svg) for _, svg in pictures]
    buildings = [sum(e.get("data-kind") == "building" for e in b.iter()) for b in boards]
    assert buildings[0] == 0 and buildings[1] == 2 and buildings == sorted(buildings)
    last_marks = [e.get("data-cell") for e in boards[4].iter() if e.get("data-kind") == "last"]
    assert last_marks == ["D8", "B9"]


@pytest.mark.slow
def test_the_page_needs_no_network(tmp_path):
    _, page, _ = view(tmp_path, (EXAMPLES / "second-edition-2014-2p.yaml").read_text())
    assert not re.search(r"\b(src|href)\s*=", page)
    assert not re.search(r"@import|url\(", page)
    assert set(re.findall(r"https?://[^\s\"'<>]+", page)) == {"http://www.w3.org/2000/svg"}


def test_player_names_cannot_break_out_of_the_page(tmp_path):
    name = HOSTILE.replace('"', "")
    text = record_text(
        "original-2001",
        [json.dumps(name), "Ben", "Cleo"],
        [f"{json.dumps(name)}: grey C3, grey C4", "Ben: roof C3, black H8"],
    )
    code, page, _ = view(tmp_path, text)
    assert code == 0 and HOSTILE not in page and "<script>alert" not in page
    assert frames_of(page)[1]["line"].startswith(name)
    assert page.count("<script") == 2


def test_an_invalid_record_shows_where_replay_stopped_and_why(tmp_path):
    text = record_text(
        "original-2001",
        ["Anna", "Ben", "Cleo"],
        ["Anna: grey C3, grey C4", "Ben: black H8, grey M9", "Cleo: stable D3"],
    )
    code, page, err = view(tmp_path, text)
    frames = frames_of(page)
    assert code == 1 and "building-not-adjacent" in err
    assert [f["turn"] for f in frames] == [0, 1, 2] and [f["stop"] for f in frames] == [
        False,
        False,
        True,
    ]
    assert (
        "Replay stopped here" in frames[-1]["heading"]
        and "building-not-adjacent" in frames[-1]["heading"]
    )
    assert "Replay stopped at turn 2." in page and 'id="jump-stop"' in page
    stop_board = ET.fromstring(TEMPLATE.findall(page)[-1][1])
    assert [e.get("data-cell") for e in stop_board.iter() if e.get("data-kind") == "illegal"] == [
        "M9"
    ]


def test_a_record_that_cannot_be_replayed_writes_nothing(tmp_path):
    text = "medina: record/1\nruleset: original-2001\nplayers: [Anna, Ben, Cleo]\nturns: []\n"
    code, page, err = view(tmp_path, text)
    assert code == 1 and page == "" and "setup" in err


@pytest.mark.slow
def test_view_writes_only_html_files(tmp_path):
    source = tmp_path / "game.yaml"
    source.write_text((EXAMPLES / "original-2001-3p.yaml").read_text())
    code, _, err = run("view", source, "-o", tmp_path / "game.svg")
    assert code == 2 and "name a .html or .htm file" in err and not (tmp_path / "game.svg").exists()
    assert run("view", source, "-o", tmp_path / "game.htm")[0] == 0
    code, out, _ = run("view", source, "-o", "-")
    assert code == 0 and out.startswith("<!DOCTYPE html>")


@pytest.mark.slow
def test_the_last_frame_names_the_winner_and_the_header_the_file(tmp_path):
    path = EXAMPLES / "original-2001-3p.yaml"
    _code, page, _ = view(tmp_path, path.read_text())
    sheet = score_game(replay(read_record(str(path))).game)
    (winner,) = sheet.winners
    heading = frames_of(page)[-1]["heading"]
    assert heading.endswith(f"the game is over: {winner} wins with {sheet.totals[winner]} points")
    assert not any("wins" in f["heading"] for f in frames_of(page)[:-1])
    header = re.search(r"<header><h1>(.*?)</h1>", page).group(1)
    assert header == "Medina: game.yaml" and str(tmp_path) not in page


@pytest.mark.slow
def test_the_score_panel_counts_tea_tiles_held(tmp_path):
    path = EXAMPLES / "second-edition-2014-4p.yaml"
    _, page, _ = view(tmp_path, path.read_text())
    record = read_record(str(path))
    for frame in frames_of(page)[::9]:
        game = replay(record, to_turn=frame["turn"]).game
        for tiles, held in zip(frame["tiles"], game.tea, strict=True):
            assert (f"{held} tea" in tiles) == bool(held)
    assert any("tea" in tiles for frame in frames_of(page) for tiles in frame["tiles"])


@pytest.mark.slow
def test_the_viewer_replays_the_record_once_for_all_its_frames(monkeypatch):
    from medina_cli.render import frames as frames_module
    from medina_cli.render.html import viewer_html

    record = read_record(str(EXAMPLES / "original-2001-3p.yaml"))
    outcome = replay(record)
    games = []
    original = frames_module.replay
    monkeypatch.setattr(
        frames_module, "replay", lambda *a, **kw: games.append(1) or original(*a, **kw)
    )
    page = viewer_html(outcome)
    assert len(games) == 1 and len(frames_of(page)) == len(record.turns) + 1
    expected = [
        list(score_game(replay(record, to_turn=t).game).totals.values()) for t in (0, 9, 30)
    ]
    assert [frames_of(page)[t]["scores"] for t in (0, 9, 30)] == expected
