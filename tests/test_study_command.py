"""`medina study`: rulesets under self-play and stronger-against-weaker setups, the report in Markdown,
HTML and JSON with its intervals and significance, resumable, the same whatever runs the games, on
a house-rule file too."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from scorekit import run
from studykit import as_first_layout, finished_games

SMALL = ("--agents", "random,greedy", "--games", "4", "--seed", "3")


def study(tmp_path, *args, name="study"):
    out = tmp_path / name
    code, stdout, stderr = run(
        "study", "--rulesets", "original-2001,second-edition-2014", *SMALL, "--out", out, *args
    )
    return code, stdout, stderr, out


@pytest.mark.slow
def test_a_study_writes_its_report_with_intervals(tmp_path):
    code, out, _, folder = study(tmp_path, "--json")
    doc = json.loads(out)
    assert code == 0 and doc["format"] == "medina-study-report/1" and doc["errors"] == []
    assert doc["boards"] == ["original-2001 4p", "second-edition-2014 4p"]
    assert [s["setup"] for s in doc["setups"]] == [
        "random self-play",
        "greedy self-play",
        "greedy vs random",
    ]
    for setup in doc["setups"]:
        for figures in setup["boards"].values():
            assert figures["games"] == 4 and len(figures["seat_wins"]) == 4
            assert sum(seat["rate"] for seat in figures["seat_wins"]) == 1.0
            assert all(
                seat["ci95"][0] <= seat["rate"] <= seat["ci95"][1] for seat in figures["seat_wins"]
            )
            low, high = figures["margin"]["ci95"]
            assert low <= figures["margin"]["mean"] <= high
        assert set(setup["significant"]["4p"]) >= {
            "seat 1 wins",
            "margin",
            "placements",
            "points from walls",
        }
        assert "points from well" not in setup["significant"]["4p"]  # original-2001 has no well
    skill = doc["setups"][2]["boards"]["original-2001 4p"]["strong"]
    assert skill["fair_share"] in ("above", "below", "not different") and "margin" in skill
    assert json.loads((folder / "report.json").read_text()) == {
        k: v for k, v in doc.items() if k not in ("errors", "warnings")
    }
    markdown = (folder / "report.md").read_text()
    assert "### What holds" in markdown and "(charts/seat-wins.svg)" in markdown
    assert re.search(r"\| original-2001 4p \| 4 \| \d+\.\d% \[\d+\.\d, \d+\.\d\]", markdown)
    page = (folder / "report.html").read_text()
    assert (
        page.count("<svg") == 5
        and "src=" not in page
        and "http://" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")
    )
    assert sorted(p.name for p in (folder / "charts").iterdir()) == [
        "length.svg",
        "margin.svg",
        "points.svg",
        "seat-wins.svg",
        "skill.svg",
    ]
    code, out, _ = run(
        "simulate", "--out", folder / "4p-greedy-vs-random", "--write-records", "all"
    )
    assert (
        code == 0 and len(list((folder / "4p-greedy-vs-random").glob("*.yaml"))) == 8
    )  # 4 games of each ruleset
    code, out, _ = run("validate", folder / "4p-greedy-vs-random")
    assert code == 0


def figures(document: str) -> dict:
    """A study's --json document without the command line that made it (which names its --out)."""
    return {key: value for key, value in json.loads(document).items() if key != "command"}


@pytest.mark.slow
def test_the_report_does_not_depend_on_jobs_or_on_resuming(tmp_path):
    _, one, _, _ = study(tmp_path, "--json", name="one")
    _, two, _, _ = study(tmp_path, "--json", "--jobs", "2", name="two")
    assert figures(one) == figures(two) and json.loads(one)["command"] == (
        f"medina study --rulesets original-2001,second-edition-2014 --players 4 --agents random,greedy --games 4 "
        f"--seed 3 --out {tmp_path / 'one'}"
    )
    code, again, _err, folder = study(tmp_path, "--json", "--resume", name="one")
    assert code == 0 and json.loads(again) == json.loads(one)
    for path in as_first_layout(folder / "4p-greedy-self-play")[:2]:
        path.unlink()  # two games of a folder of the first layout lost: --resume plays them again, the same
    code, again, _, _ = study(tmp_path, "--json", "--resume", name="one")
    assert code == 0 and json.loads(again) == json.loads(one)


@pytest.mark.slow
def test_a_study_is_refused_where_one_is_and_resumed_only_with_its_options(tmp_path):
    study(tmp_path)
    code, _, err, _ = study(tmp_path)
    assert code == 2 and "--resume" in err
    code, _, err, _folder = study(tmp_path, "--resume", "--seed", "4")
    assert code == 2 and "--seed 3, not 4" in err


@pytest.mark.slow
def test_a_house_rule_is_studied_beside_an_edition(tmp_path):
    house = tmp_path / "rules" / "house.yaml"
    house.parent.mkdir()
    house.write_text(
        "medina: ruleset/1\nid: house\nextends: second-edition-2014\nwell:\n  bonus: 4\n"
    )
    out = tmp_path / "study"
    code, _stdout, stderr = run(
        "study",
        "--rulesets",
        f"second-edition-2014,{house}",
        "--players",
        "4,2",
        *SMALL,
        "--out",
        out,
        "--report",
        tmp_path / "docs" / "house.md",
        "--title",
        "A deeper well",
    )
    assert code == 0, stderr
    assert (tmp_path / "docs" / "house.md").read_text().startswith("# A deeper well\n")
    doc = json.loads((out / "report.json").read_text())
    assert doc["boards"] == [
        "second-edition-2014 4p",
        "house 4p",
        "second-edition-2014 2p",
        "house 2p",
    ]
    code, written, _ = run(
        "simulate", "--out", out / "2p-greedy-self-play", "--write-records", "house-0001"
    )
    record = Path(written.strip()).read_text()
    assert "ruleset: ../../rules/house.yaml" in record
    code, _, _ = run("validate", out / "2p-greedy-self-play")
    assert code == 0
    assert "(house/seat-wins.svg)" in (tmp_path / "docs" / "house.md").read_text()
    assert (tmp_path / "docs" / "house" / "skill.svg").exists()


def test_bad_options_are_usage_errors(tmp_path):
    code, _, err = run(
        "study", "--rulesets", "original-2001", "--players", "2", "--out", tmp_path / "x"
    )
    assert code == 2 and "original-2001 is for 3 or 4 players, not 2" in err
    code, _, err = run(
        "study",
        "--rulesets",
        "original-2001",
        "--agents",
        "random,deep-blue",
        "--out",
        tmp_path / "x",
    )
    assert code == 2 and "unknown agent" in err
    code, out, _ = run(
        "study", "--rulesets", "original-2001", "--players", "x", "--out", tmp_path / "x", "--json"
    )
    assert code == 2 and json.loads(out)["errors"]


@pytest.mark.slow
def test_an_interrupted_study_has_grown_every_setup_together(tmp_path, monkeypatch):
    from medina_cli.rules.loader import load_ruleset
    from medina_cli.study import report
    from medina_cli.study.runner import Part

    monkeypatch.setattr(report, "ROUND", 2)
    assert report.rounds(5) == [2, 4, 5] and report.rounds(2) == [2]
    boards = []
    for ref in ("original-2001", "second-edition-2014"):
        ruleset = load_ruleset(ref)
        boards.append(
            report.Board(f"{ref} 4p", 4, Part(ref, ruleset.for_players(4), ref), ruleset.params)
        )

    def stop_after_a_round(finished):
        if finished >= 2 * 2 * 3:  # the first round: 2 games of 2 boards under 3 setups
            raise KeyboardInterrupt

    out = tmp_path / "study"
    try:
        report.study_report(boards, ["random", "greedy"], 6, 3, out, progress=stop_after_a_round)
    except KeyboardInterrupt:
        pass
    else:
        raise AssertionError("the study was not interrupted")
    kept = {folder.name: finished_games(folder) for folder in out.iterdir()}
    assert kept == {"4p-random-self-play": 4, "4p-greedy-self-play": 4, "4p-greedy-vs-random": 4}
    so_far = report.study_report(boards, ["random", "greedy"], 6, 3, out, play=False).to_json()
    assert so_far["complete"] is False and (so_far["games_finished"], so_far["games_planned"]) == (
        12,
        36,
    )
    assert {f["games"] for setup in so_far["setups"] for f in setup["boards"].values()} == {2}


@pytest.mark.slow
def test_a_partial_study_reports_what_it_holds_and_says_so(tmp_path):
    _, whole, _, folder = study(tmp_path, "--json")
    assert json.loads(whole)["complete"] is True
    for setup in ("4p-greedy-vs-random", "4p-random-self-play"):
        as_first_layout(folder / setup)  # a statistics file per game: games can go one by one
    (
        folder / "4p-greedy-vs-random" / ".study" / "original-2001-0002.json"
    ).unlink()  # as if interrupted
    for path in (folder / "4p-random-self-play" / ".study").glob("second-edition-2014-*.json"):
        path.unlink()
    code, partial, err, _ = study(
        tmp_path, "--json", "--so-far", "--report", tmp_path / "partial.md"
    )
    assert code == 0, err
    doc = json.loads(partial)
    assert (doc["complete"], doc["games_finished"], doc["games_planned"]) == (False, 19, 24)
    games = {
        (s["setup"], board): f["games"] for s in doc["setups"] for board, f in s["boards"].items()
    }
    assert (
        games[("greedy vs random", "original-2001 4p")] == 3
        and games[("random self-play", "second-edition-2014 4p")] == 0
    )
    assert not (
        folder / "4p-greedy-vs-random" / ".study" / "original-2001-0002.json"
    ).exists()  # nothing played
    markdown = (tmp_path / "partial.md").read_text()
    assert "This study is INCOMPLETE: 19 of its 24 games are finished" in markdown
    assert "greedy vs random, original-2001 4p (3 games)" in markdown
    assert "random self-play, second-edition-2014 4p" not in markdown  # no games: not shown
    assert "| original-2001 4p | 3 |" in markdown
    code, _, err = run(
        "study", "--rulesets", "original-2001", *SMALL, "--out", tmp_path / "none", "--so-far"
    )
    assert code == 2 and "holds no study" in err


def test_so_far_on_a_folder_without_a_study_says_what_it_needs(tmp_path):
    """--so-far plays nothing: on an empty folder it says that it reports on a study already there, and
    neither speaks of --resume (not given) nor of games to play with it."""
    (tmp_path / "st").mkdir()
    code, out, err = run(
        "study", "--rulesets", "original-2001", "--games", "1", "--out", tmp_path / "st", "--so-far"
    )
    assert (code, out) == (2, "") and len(err.splitlines()) == 1
    assert (
        "holds no study to report on (no .study/study.json): --so-far reports on the games of a study begun in "
        "--out with these options; begin it without --so-far [usage]" in err
    )
    assert "--resume" not in err and "games are finished" not in err


def test_boards_with_few_games_are_not_compared():
    from medina_cli.study.games import SOURCES, GameSummary
    from medina_cli.study.report import COMPARED, Figures, board_tests

    def board(games: int, winner: int) -> Figures:
        figures = Figures(2)
        for _ in range(games):
            totals = [30, 10] if winner == 0 else [10, 30]
            figures.add(GameSummary(totals, [winner], dict.fromkeys(SOURCES, 20), 30, 60, {}), None)
        return figures

    # seat 1 wins every game of one board and none of the other: tested on enough games only
    seat1 = [
        test
        for test in board_tests({"a": board(COMPARED, 0), "b": board(COMPARED, 1)}, False)
        if test["figure"] == "seat 1 wins"
    ]
    assert [test["boards"] for test in seat1] == [["a", "b"]] and seat1[0]["p"] < 0.001
    assert board_tests({"a": board(COMPARED - 1, 0), "b": board(COMPARED, 1)}, False) == []


def test_no_seat_is_tested_against_its_fair_share_on_fewer_than_ten_games(tmp_path):
    """2 wins of 2 at a fair share of 1/3: the Wilson interval leaves 1/3 out, an exact test does not
    (1/9 > 5%); with fewer than ten games the report says it does not test."""
    out = tmp_path / "two"
    code, stdout, _ = run(
        "study",
        "--rulesets",
        "original-2001",
        "--players",
        "3",
        "--agents",
        "random",
        "--games",
        "2",
        "--seed",
        "1",
        "--out",
        out,
        "--json",
    )
    seats = json.loads(stdout)["setups"][0]["boards"]["original-2001 3p"]["seat_wins"]
    assert code == 0 and max(seat["rate"] for seat in seats) == 1.0 and seats[1]["ci95"][0] > 1 / 3
    assert [seat["fair_share"] for seat in seats] == ["not different"] * 3
    assert (
        "Too few games to test (fewer than 10): random self-play, original-2001 3p (2 games)."
        in (out / "report.md").read_text()
    )


@pytest.mark.slow
def test_a_folder_refused_says_nothing_of_games_finished_there(tmp_path):
    """A folder that holds a study already is refused before any game: the message does not count its
    games (it once said "0 of N games are finished" of a finished study)."""
    command = (
        "study",
        "--rulesets",
        "original-2001",
        "--players",
        "3",
        *SMALL[:2],
        "--games",
        "2",
        "--out",
        tmp_path / "st",
    )
    assert run(*command)[0] == 0
    code, out, err = run(*command)
    assert (code, out) == (2, "") and "holds a study already: add --resume" in err
    assert "games are finished" not in err
