"""The HTML viewer in a real headless Chromium: stepping changes the board and the scores.

Needs Debian's `chromium` (or MEDINA_CHROMIUM=/path/to/chromium) and the `playwright` package; it
skips without them, except under CI (the CI variable set), where a missing browser is a failure.
"""

from __future__ import annotations

import os
import shutil

import pytest
from conftest import EXAMPLES, record_text
from scorekit import run

from medina_cli.engine.scoring import score_game
from medina_cli.records.record import read_record
from medina_cli.records.replay import replay

pytestmark = pytest.mark.slow  # a browser started for the module
CHROMIUM = os.environ.get("MEDINA_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
GAME = EXAMPLES / "original-2001-3p.yaml"


def _unavailable(reason: str):
    if os.environ.get("CI"):
        pytest.fail(f"browser test required under CI: {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("the playwright package is not installed (pip install playwright)")
    if not (os.path.isfile(CHROMIUM) or shutil.which(CHROMIUM)):
        _unavailable(
            f"no Chromium at {CHROMIUM} (apt-get install chromium, or set MEDINA_CHROMIUM)"
        )
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()


@pytest.fixture
def open_viewer(browser, tmp_path):
    """Write the viewer for a record and open it; every network request is refused and recorded."""
    pages = []

    def opener(text: str, fragment: str = "", *options):
        source, html = tmp_path / "game.yaml", tmp_path / "game.html"
        source.write_text(text)
        run("view", source, "-o", html, *options)
        page = browser.new_page(viewport={"width": 1300, "height": 1000})
        page.requests, page.errors = [], []
        page.on("pageerror", lambda error: page.errors.append(str(error)))
        page.route(
            "**/*",
            lambda route: (
                route.continue_()
                if route.request.url.startswith("file:")
                else (page.requests.append(route.request.url), route.abort())
            ),
        )
        page.goto(html.as_uri() + fragment)
        pages.append(page)
        return page

    yield opener
    for page in pages:
        assert page.errors == [] and page.requests == []
        page.close()


def position(page) -> str:
    return page.inner_text("#position")


def board_count(page, kind: str) -> int:
    return page.locator(f'#board [data-kind="{kind}"]').count()


def scores(page) -> list[int]:
    return [int(text) for text in page.locator("#scores td.points").all_inner_texts()]


def expected_scores(turn: int) -> list[int]:
    return list(score_game(replay(read_record(str(GAME)), to_turn=turn).game).totals.values())


def test_stepping_changes_the_board_and_the_scores(open_viewer, tmp_path):
    page = open_viewer(GAME.read_text())
    turns = len(read_record(str(GAME)).turns)
    assert position(page) == f"0 / {turns}" and page.inner_text("#heading").startswith("Setup")
    assert board_count(page, "merchant") == 1 and board_count(page, "building") == 0
    assert scores(page) == [0, 0, 0] and page.is_disabled("#prev")

    page.keyboard.press("ArrowRight")
    assert position(page) == f"1 / {turns}" and board_count(page, "building") == 2
    assert page.inner_text("#heading").startswith("Turn 1 of 58, Anna: orange G11, brown L3")
    turn_one = page.inner_html("#board")

    for _ in range(3):
        page.click("#next")
    assert position(page) == f"4 / {turns}"
    assert scores(page) == expected_scores(4) and scores(page) != [0, 0, 0]
    assert board_count(page, "roof") == 1
    assert page.locator("#log li.current").first.inner_text().startswith("Anna: stable D8, roof B9")

    for _ in range(3):
        page.keyboard.press("ArrowLeft")
    assert position(page) == f"1 / {turns}" and page.inner_html("#board") == turn_one
    assert scores(page) == expected_scores(1)

    page.keyboard.press("End")
    assert position(page) == f"{turns} / {turns}" and page.is_disabled("#next")
    assert scores(page) == expected_scores(turns)
    assert board_count(page, "gate") > 0 and "the game is over" in page.inner_text("#heading")
    page.screenshot(path=str(tmp_path / "viewer-end.png"))

    page.focus("#slider")
    page.keyboard.press("Home")  # the slider's own key: back to the setup
    assert position(page) == f"0 / {turns}" and board_count(page, "building") == 0
    page.keyboard.press("ArrowRight")
    assert position(page) == f"1 / {turns}" and page.inner_html("#board") == turn_one

    page.keyboard.press("End")
    page.locator("#log > li").nth(4).click()  # the log lists the turns so far; a click jumps back
    assert position(page) == f"4 / {turns}" and scores(page) == expected_scores(4)


def test_passes_after_the_end_show_the_final_board_without_marks(open_viewer):
    text = GAME.read_text().replace(
        "event:", "  - Ben: pass\n  - Cleo: pass\n  - Anna: pass\nevent:", 1
    )
    turns = len(read_record(str(GAME)).turns)
    page = open_viewer(text, f"#turn-{turns}")
    assert board_count(page, "last") > 0
    final = page.inner_html("#board")
    page.keyboard.press("ArrowRight")
    assert position(page) == f"{turns + 1} / {turns + 3}" and board_count(page, "last") == 0
    assert scores(page) == expected_scores(turns) and page.inner_html("#board") != final
    passed = page.inner_html("#board")
    page.keyboard.press("End")
    assert page.inner_text("#heading").startswith(f"Turn {turns + 3} of {turns + 3}, Anna: pass")
    assert page.inner_html("#board") == passed and scores(page) == expected_scores(turns)


def test_a_link_to_a_turn_opens_that_turn(open_viewer):
    page = open_viewer(GAME.read_text(), "#turn-20")
    assert position(page).startswith("20 / ") and scores(page) == expected_scores(20)


def test_an_invalid_record_shows_the_refused_placement(open_viewer):
    text = record_text(
        "original-2001",
        ["Anna", "Ben", "Cleo"],
        ["Anna: grey C3, grey C4", "Ben: black H8, grey M9", "Cleo: stable D3"],
    )
    page = open_viewer(text)
    assert "Replay stopped at turn 2" in page.inner_text("#problems")
    page.click("#jump-stop")
    assert position(page) == "2 / 2" and "building-not-adjacent" in page.inner_text("#heading")
    assert page.locator('#board [data-kind="illegal"]').get_attribute("data-cell") == "M9"
    assert board_count(page, "building") == 3


def test_autoplay_steps_on_by_itself_until_paused_or_the_end(open_viewer):
    page = open_viewer(GAME.read_text())
    turns = len(read_record(str(GAME)).turns)
    page.select_option("#speed", label="10 turns/s")
    page.click("#play")
    assert page.get_attribute("#play", "aria-label") == "pause"
    page.wait_for_function(
        "Number(document.getElementById('position').textContent.split(' / ')[0]) >= 3"
    )
    page.click("#play")
    assert page.get_attribute("#play", "aria-label") == "play"
    paused = position(page)
    page.wait_for_timeout(400)  # four steps' time: a running timer would have moved on
    assert position(page) == paused and scores(page) == expected_scores(int(paused.split(" / ")[0]))

    page.keyboard.press("End")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press(" ")  # Space plays too, and playing stops by itself at the last turn
    page.wait_for_function("document.getElementById('play').getAttribute('aria-label') === 'play'")
    assert position(page) == f"{turns} / {turns}" and "wins with" in page.inner_text("#heading")
    page.select_option("#speed", label="0.5 turns/s")
    page.click("#play")  # from the end, play starts over
    page.click("#play")
    assert int(position(page).split(" / ")[0]) < turns // 2


def test_each_control_has_its_own_icon_and_next_is_not_play(open_viewer):
    page = open_viewer(GAME.read_text())
    icons = {
        name: page.locator(f"#{name} svg").first.inner_html()
        for name in ("first", "prev", "play", "next", "last")
    }
    assert len(set(icons.values())) == len(icons)
    # "next" is a bar before a triangle (step forward), not the bare triangle of "play"
    assert page.locator("#next svg path").get_attribute("d").count("z") == 2


def test_with_an_analysis_it_steps_placement_by_placement_on_the_chart_s_axis(
    open_viewer, tmp_path
):
    """The slider counts placements as the chart does: each step places one piece and moves the chart's
    cursor one placement on, to the point of the placement just made."""
    saved = tmp_path / "analysis.json"
    assert run("analyse", GAME, "--agent", "greedy", "-o", saved)[0] == 0
    page = open_viewer(GAME.read_text(), "", "--analysis-from", saved)
    placements = len(read_record(str(GAME)).placements())
    assert position(
        page
    ) == f"0 / {placements}" and f"placement (1 to {placements})" in page.inner_text("#analysis")

    def cursor() -> float:
        return float(page.get_attribute("#analysis-cursor", "x1"))

    def point(
        index: int,
    ) -> float:  # the chart's circle or polyline vertex x of placement `index` (1-based)
        left, right = 46, 640 - 10
        return round(left + (right - left) * index / placements, 1)

    assert cursor() == point(0)
    page.keyboard.press("ArrowRight")
    assert position(page) == f"1 / {placements}" and board_count(page, "building") == 1
    assert page.inner_text("#heading").startswith(
        "Turn 1 of 58, placement 1 of 2, Anna: orange G11"
    )
    assert cursor() == point(1) and "Anna played orange G11" in page.inner_text("#advice")
    page.keyboard.press("ArrowRight")
    assert (
        position(page) == f"2 / {placements}"
        and board_count(page, "building") == 2
        and cursor() == point(2)
    )
    assert "brown L3" in page.inner_text("#advice") and "orange G11" not in page.inner_text(
        "#advice"
    )
    page.keyboard.press("End")
    assert cursor() == point(placements) and "the game is over" in page.inner_text("#heading")
