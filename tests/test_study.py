"""Studies (`medina simulate` at scale): intervals and significance, streaming with memory that does not
grow with --games, the --jobs cap, shareable --out folders, and --resume."""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import time
import tracemalloc
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import fuzzkit
import pytest
from studykit import as_first_layout, finished_games
from terminal import on_terminal, plain

from medina_cli.rules.loader import load_ruleset
from medina_cli.study.backend import job_limit
from medina_cli.study.games import play_one
from medina_cli.study.runner import Part, Study, run_study
from medina_cli.study.stats import (
    Tally,
    mean_interval,
    means_differ,
    proportions_differ,
    wilson_interval,
)

MEDINA = Path(sys.executable).with_name("medina")
needs_cli = pytest.mark.skipif(
    not MEDINA.exists(), reason=f"no installed `medina` next to {sys.executable}"
)
SHORT = "supply.4.walls=5"  # far fewer walls than the editions' 4-player supply: shorter games


def medina(*args, cwd=None):
    """`medina ARGS` in this process, as the installed command runs it (fuzzkit.run: an internal error fails)."""
    with contextlib.chdir(cwd or os.getcwd()):
        code, out, err = fuzzkit.run([str(arg) for arg in args])
    assert "Traceback" not in out + err and "internal error" not in err
    return code, out, err


def installed_medina(*args, cwd=None):
    """The installed `medina` command in a process of its own (one that has read no ruleset before)."""
    proc = subprocess.run(
        [str(MEDINA), *map(str, args)], capture_output=True, text=True, timeout=300, cwd=cwd
    )
    assert "Traceback" not in proc.stdout + proc.stderr and "internal error" not in proc.stderr
    return proc.returncode, proc.stdout, proc.stderr


@pytest.mark.parametrize(
    "successes,trials,low,high",
    [
        (0, 10, 0.0, 0.2775),
        (5, 10, 0.2366, 0.7634),
        (10, 10, 0.7225, 1.0),
        (81, 263, 0.2553, 0.3662),
    ],
)
def test_wilson_interval_matches_published_values(successes, trials, low, high):
    # published Wilson score intervals (z = 1.96): Newcombe (1998), Brown, Cai & DasGupta (2001)
    assert wilson_interval(successes, trials) == pytest.approx((low, high), abs=1e-4)
    assert wilson_interval(0, 0) is None


def test_tally_agrees_with_the_statistics_module_in_any_order():
    rng = random.Random(3)
    values = [rng.randrange(100) for _ in range(500)]
    forward, shuffled = Tally(), Tally()
    for value in values:
        forward.add(value)
    for value in rng.sample(values, len(values)):
        shuffled.add(value)
    assert forward == shuffled
    assert forward.mean == pytest.approx(statistics.fmean(values), rel=1e-12)
    assert forward.sd == pytest.approx(statistics.stdev(values), rel=1e-12)
    half = 1.959964 * statistics.stdev(values) / len(values) ** 0.5
    assert forward.interval == pytest.approx((forward.mean - half, forward.mean + half))
    assert mean_interval(5.0, 1.0, 1) is None
    fractions = Tally()
    fractions.add(Fraction(1, 3))
    fractions.add(Fraction(2, 3))
    assert fractions.mean == 0.5


def test_a_mean_interval_of_rare_counts_stops_at_zero():
    rare = Tally()
    for value in (1, 0, 0, 0, 0, 0):  # one forced roof in six games
        rare.add(value)
    assert mean_interval(rare.mean, rare.sd, rare.n)[0] < 0 and rare.interval[0] == 0.0


def test_significance_tests():
    near, far, same = Tally(), Tally(), Tally()
    for value in range(100):
        near.add(value % 10)
        same.add(value % 10)
        far.add(value % 10 + 3)
    assert means_differ(near, far) and not means_differ(near, same)
    assert proportions_differ(30, 100, 50, 100) and not proportions_differ(30, 100, 33, 100)


def study(ref, players, games, seed=1, overrides=()):
    ruleset = load_ruleset(ref, overrides)
    return Study((Part(ruleset.id, ruleset.for_players(players)),), games, seed)


@pytest.mark.slow
def test_statistics_merged_by_task_are_those_added_game_by_game():
    from medina_cli.study.results import Statistics

    rules = load_ruleset("original-2001", (SHORT,)).for_players(4)
    seats = ("greedy", "random", "random", "random")
    summaries = [play_one(rules, 3, index, seats=seats)[0] for index in range(24)]
    one_by_one = Statistics.of("original-2001", 4, summaries)
    rng = random.Random(5)
    for _ in range(5):
        cuts = sorted(rng.sample(range(1, 24), rng.randrange(1, 8)))
        merged = Statistics("original-2001", 4)
        for start, stop in itertools.pairwise([0, *cuts, 24]):
            merged.merge(Statistics.of("original-2001", 4, summaries[start:stop]))
        assert merged.to_json() == one_by_one.to_json() and merged.wins == one_by_one.wins
        assert {spec: a.to_json() for spec, a in merged.agents.items()} == {
            spec: a.to_json() for spec, a in one_by_one.agents.items()
        }


def test_a_seat_spec_per_seat_plays_the_default_games():
    rules = load_ruleset("original-2001").for_players(3)
    (summary, record), default = play_one(rules, 4, 2, seats=("random",) * 3), play_one(rules, 4, 2)
    assert summary.agents == ["random"] * 3 and (replace(summary, agents=[]), record) == default
    with pytest.raises(ValueError, match="unknown agent"):
        play_one(rules, 4, 2, seats=("random", "nobody", "random"))


@pytest.mark.slow
def test_a_billion_games_stream_in_little_memory():
    tracemalloc.start()
    try:
        tasks = run_study(study("original-2001", 4, 10**9, overrides=(SHORT,)))
        first = list(itertools.islice(tasks, 4))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert [(task.start, task.stop) for task in first] == list(
        itertools.pairwise([0, *(t.stop for t in first)])
    )
    assert first[0].stop == 1 and sum(task.statistics.games for task in first) == first[-1].stop
    assert peak < 5_000_000  # before streaming: every chunk of the billion games was made up front


@pytest.mark.slow
@needs_cli
def test_a_billion_games_start_at_once_and_stop_on_ctrl_c(tmp_path):
    out = tmp_path / "games"
    limit = (
        "import resource, sys, os; resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30)); "
        "os.execv(sys.argv[1], sys.argv[1:])"
    )
    proc = subprocess.Popen(
        [
            sys.executable,
            "-c",
            limit,
            str(MEDINA),
            "simulate",
            "-r",
            "original-2001",
            "--games",
            str(10**9),
            "--jobs",
            "2",
            "--out",
            str(out),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 60
    while not list(out.glob("*.jsonl")) and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.1)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "internal error" not in err and "Traceback" not in err
    assert (
        "interrupted: " in err
        and f"of {10**9} games are finished in {out}" in err
        and "--resume" in err
    )
    said = int(
        err.split("interrupted: ")[1].split()[0]
    )  # the workers were stopped at once: what came back is kept
    assert said == finished_games(out) > 0


@pytest.mark.slow
@needs_cli
def test_jobs_are_capped_with_a_message():
    code, out, err = installed_medina(
        "simulate", "-r", "original-2001", "-g", 2, "--jobs", 1_000_000, "--json"
    )
    assert code == 0 and json.loads(out)["rulesets"][0]["games"] == 2
    assert err == f"warning: --jobs 1000000 is more than 4 per CPU: using {job_limit()}\n"
    assert job_limit() == 4 * os.cpu_count()


@needs_cli
def test_intervals_and_significance_marks(tmp_path):
    code, out, _ = medina("simulate", "--rulesets", "original-2001,bsw-dm-2003", "-g", 40, "--json")
    assert code == 0
    doc = json.loads(out)
    assert doc["confidence"] == 0.95
    for result in doc["rulesets"]:
        for spread in (*result["scores"].values(), *result["length"].values()):
            low, high = spread["ci95"]
            assert low < spread["mean"] < high
        for share, (low, high) in zip(result["seat_wins"], result["seat_wins_ci95"], strict=True):
            assert 0 <= low < share < high <= 1
        for name, (low, high) in result["per_game_ci95"].items():
            assert low <= result["per_game"][name] <= high
    # forced roofs: hardly ever under the original rules, every game under bsw-dm-2003
    assert "per_game.forced_roofs" in doc["significant"]["bsw-dm-2003"]
    assert "seat_wins[0]" not in doc["significant"]["bsw-dm-2003"]
    code, text, _ = medina("simulate", "--rulesets", "original-2001,bsw-dm-2003", "-g", 40)
    row = next(line for line in text.splitlines() if line.startswith("forced roofs per game"))
    assert row.endswith("]*") and row.count("*") == 1
    assert "* differs from original-2001 at the 95% level" in text
    assert "[95% confidence interval]" in text


HOUSE = (
    "medina: ruleset/1\nid: short-house\ntitle: Short games\nextends: original-2001\n"
    "supply:\n  4:\n    walls: 5\n"
)


@needs_cli
def test_out_names_a_ruleset_file_from_the_folder_and_a_built_in_by_id(tmp_path):
    (tmp_path / "house").mkdir()
    (tmp_path / "house" / "short.yaml").write_text(HOUSE)
    code, _, err = medina(
        "simulate", "-r", "house/short.yaml", "-g", 3, "--out", "study/games", cwd=tmp_path
    )
    assert code == 0, err
    games = tmp_path / "study" / "games"
    assert medina("simulate", "--out", games, "--write-records", "all")[0] == 0
    records = sorted(games.glob("*.yaml"))
    assert len(records) == 3
    for path in [*records, *games.glob(".study/*")]:
        assert str(tmp_path) not in path.read_text()
    assert "ruleset: ../../house/short.yaml\n" in records[0].read_text()
    # the folder and the ruleset moved together elsewhere still validate
    moved = tmp_path / "elsewhere"
    (moved / "study").mkdir(parents=True)
    games.rename(moved / "study" / "games")
    (tmp_path / "house").rename(moved / "house")
    code, out, _ = medina("validate", moved / "study" / "games")
    assert code == 0 and out.count("valid (finished") == 3
    code, _, _ = medina("simulate", "-r", "original-2001", "-g", 1, "--out", tmp_path / "built-in")
    code, out, _ = medina(
        "simulate", "--out", tmp_path / "built-in", "--write-records", "original-2001-0001"
    )
    assert code == 0 and "ruleset: original-2001\n" in Path(out.strip()).read_text()


def study_command(out, *extra):
    return (
        "simulate",
        "--rulesets",
        "original-2001,second-edition-2014",
        "-p",
        3,
        "-g",
        12,
        "-s",
        3,
        "--json",
        "--out",
        out,
        *extra,
    )


@needs_cli
def test_resume_plays_only_the_missing_games_and_gives_the_same_document(tmp_path):
    code, whole, _ = medina(*study_command(tmp_path / "whole")[:-2])  # no --out: the plain document
    assert code == 0
    code, first, _ = medina(*study_command(tmp_path / "games"))
    assert code == 0 and first == whole
    # an interruption: the rounds written last never were
    rounds = sorted((tmp_path / "games").glob("*.jsonl"), key=lambda path: path.stat().st_mtime_ns)
    lost = rounds[len(rounds) // 2 :]
    games = sum(len(path.read_text().splitlines()) - 2 for path in lost)
    for path in lost:
        path.unlink()
    code, resumed, err = medina(*study_command(tmp_path / "games", "--resume"))
    assert code == 0 and resumed == whole
    assert err == f"wrote {games} games to {tmp_path / 'games'} ({24 - games} were there already)\n"


@needs_cli
def test_a_folder_of_the_first_layout_is_resumed_in_rounds(tmp_path):
    code, whole, _ = medina(*study_command(tmp_path / "games"))
    records = as_first_layout(tmp_path / "games")
    # an interruption: some games never finished, one left a record without its statistics
    for record in records[3:9]:
        record.unlink()
        (tmp_path / "games" / ".study" / record.with_suffix(".json").name).unlink()
    (tmp_path / "games" / ".study" / records[10].with_suffix(".json").name).unlink()
    before = {p: p.stat().st_mtime_ns for p in (tmp_path / "games").glob("*.yaml")}
    code, resumed, err = medina(*study_command(tmp_path / "games", "--resume"))
    assert code == 0 and resumed == whole
    assert err == f"wrote 7 games to {tmp_path / 'games'} (17 were there already)\n"
    assert all(
        p.stat().st_mtime_ns == mtime for p, mtime in before.items()
    )  # the records kept are untouched
    played = set()
    for path in (tmp_path / "games").glob("*.jsonl"):
        ruleset, first, last = path.stem.rsplit("-", 2)
        played |= {f"{ruleset}-{number:04d}.yaml" for number in range(int(first), int(last) + 1)}
    assert played == {record.name for record in [*records[3:9], records[10]]}


@needs_cli
@pytest.mark.parametrize(
    "extra,words",
    [
        (("-s", 4), "was started with --seed 3, not 4"),
        (("-g", 13), "--games 12, not 13"),
        (("-p", 4), "--players 3, not 4"),
        (
            ("--rulesets", "original-2001"),
            "the rulesets original-2001,second-edition-2014, not original-2001",
        ),
    ],
)
def test_resume_refuses_other_options_naming_the_difference(tmp_path, extra, words):
    code, _, _ = medina(*study_command(tmp_path / "games"))
    assert code == 0
    code, out, err = medina(*study_command(tmp_path / "games", "--resume"), *extra)
    assert code == 2 and err == "" and words in only_error(out)


def edit_json(path: Path, change) -> None:
    doc = json.loads(path.read_text())
    change(doc)
    path.write_text(json.dumps(doc))


GAME = "original-2001-0007"  # the game damaged below (of the first ruleset)
DAMAGE = {  # what is done to game 7's files -> why --resume plays it again
    "a garbled key": (
        lambda s, r: s.write_text(s.read_text().replace('"walls"', '"{{walls"')),
        "its statistics are damaged",
    ),
    "a winner who is no seat": (
        lambda s, r: edit_json(s, lambda d: d.update(winners=[7])),
        "its statistics do not fit the study",
    ),
    "a score below 0": (
        lambda s, r: edit_json(s, lambda d: d.update(totals=[-5, *d["totals"][1:]])),
        "its statistics are damaged",
    ),
    "a score that is text": (
        lambda s, r: edit_json(s, lambda d: d.update(totals=["x", *d["totals"][1:]])),
        "its statistics are damaged",
    ),
    "scores 100 higher": (
        lambda s, r: edit_json(s, lambda d: d.update(totals=[t + 100 for t in d["totals"]])),
        "its record or its statistics changed since they were written",
    ),
    "a count of 10**30": (
        lambda s, r: edit_json(s, lambda d: d["counts"].update(passes=10**30)),
        "its record or its statistics changed since they were written",
    ),
    "one score for three players": (
        lambda s, r: edit_json(s, lambda d: d.update(totals=d["totals"][:1])),
        "its statistics do not fit the study",
    ),
    "statistics that are not JSON": (
        lambda s, r: s.write_bytes(b"\xff\xfe{"),
        "its statistics are damaged",
    ),
    "statistics without a digest": (
        lambda s, r: edit_json(s, lambda d: d.pop("check")),
        "its statistics carry no digest (written by an earlier medina)",
    ),
    "an emptied record": (
        lambda s, r: r.write_text(""),
        "its record or its statistics changed since they were written",
    ),
    "a truncated record": (
        lambda s, r: r.write_text(r.read_text()[:200]),
        "its record or its statistics changed since they were written",
    ),
    "a record's result edited": (
        lambda s, r: r.write_text(re.sub(r"(?m)^(result: \{P1:) \d+", r"\1 999", r.read_text())),
        "its record or its statistics changed since they were written",
    ),
    "a garbled record": (
        lambda s, r: r.write_bytes(b"\x00\xff" * 50),
        "its record or its statistics changed since they were written",
    ),
    "a missing record": (lambda s, r: r.unlink(), "its record is missing"),
}


@pytest.fixture(scope="module")
def finished_study(tmp_path_factory):
    """A finished study's folder, and the document an undisturbed run prints."""
    out = tmp_path_factory.mktemp("study") / "games"
    code, whole, _ = medina(*study_command(out))
    assert code == 0
    return out, whole


@pytest.fixture(scope="module")
def first_layout(finished_study, tmp_path_factory):
    """The finished study's folder as the first layout wrote it (a record and statistics per game)."""
    import shutil

    folder, whole = finished_study
    out = tmp_path_factory.mktemp("first") / "games"
    shutil.copytree(folder, out)
    as_first_layout(out)
    return out, whole


@needs_cli
def test_each_round_carries_the_digest_docs_format_describes(finished_study):
    import hashlib

    folder, _ = finished_study
    rounds = sorted(folder.glob("*.jsonl"))
    games = 0
    for path in rounds:
        *lines, last = path.read_text().splitlines(keepends=True)
        assert json.loads(lines[0])["format"] == "medina-study-round/1"
        assert json.loads(last) == {"check": hashlib.sha256("".join(lines).encode()).hexdigest()}
        games += len(lines) - 1
    assert games == 24 and len(rounds) < 24


def copied(folder: Path, tmp_path: Path) -> Path:
    import shutil

    shutil.copytree(folder, tmp_path / "games")
    return tmp_path / "games"


@needs_cli
@pytest.mark.parametrize("damage", DAMAGE)
def test_resume_plays_again_a_game_whose_files_do_not_check_out(first_layout, tmp_path, damage):
    out = copied(first_layout[0], tmp_path)
    change, why = DAMAGE[damage]
    record = out / f"{GAME}.yaml"
    before = record.read_text()
    summary = out / ".study" / f"{GAME}.json"
    files = {path: path.read_bytes() for path in (summary, record)}
    change(summary, record)
    assert any(
        not path.exists() or path.read_bytes() != text for path, text in files.items()
    )  # damaged indeed
    code, resumed, err = medina(*study_command(out, "--resume"))
    assert code == 0 and resumed == first_layout[1]
    assert err == (
        f"{out}: 1 finished game did not check out and is played again: {GAME}.yaml: {why}\n"
        f"wrote 1 games to {out} (23 were there already)\n"
    )
    assert (
        not record.exists() and not summary.exists()
    )  # the damaged files went: the game is in a round now
    assert (
        medina("simulate", "--out", out, "--write-records", GAME)[0] == 0
        and record.read_text() == before
    )
    assert medina("validate", out)[0] == 0


@needs_cli
def test_resume_names_how_many_games_did_not_check_out(first_layout, tmp_path):
    out = copied(first_layout[0], tmp_path)
    for game in ("original-2001-0003", "original-2001-0011", "second-edition-2014-0001"):
        (out / f"{game}.yaml").write_text("medina: record/1\n")
    code, resumed, err = medina(*study_command(out, "--resume"))
    assert code == 0 and resumed == first_layout[1]
    assert err == (
        f"{out}: 3 finished games did not check out and are played again: original-2001-0003.yaml: its "
        f"record or its statistics changed since they were written (and 2 more)\n"
        f"wrote 3 games to {out} (21 were there already)\n"
    )


def digested(change):
    """A change to a round's games that writes its digest anew (as an editor who knows the format would)."""
    import hashlib

    def rewrite(text: str) -> str:
        body = change("".join(text.splitlines(keepends=True)[:-1]))
        return body + json.dumps({"check": hashlib.sha256(body.encode()).hexdigest()}) + "\n"

    return rewrite


ROUND_DAMAGE = {  # what is done to a round -> why --resume plays its games again
    "a line cut short": (
        lambda text: text[: len(text) // 2],
        "it changed since it was written (or was cut short)",
    ),
    "a score edited": (
        lambda text: text.replace('"totals":[', '"totals":[1'),
        "it changed since it was written (or was cut short)",
    ),
    "deep nesting": (
        lambda text: "[" * 100_000 + "]" * 100_000,
        "it changed since it was written (or was cut short)",
    ),
    "a turn of no seat, digest anew": (
        digested(lambda text: text.replace('"turns":["0 ', '"turns":["7 ')),
        "its games are damaged",
    ),
    "a winner who is no seat, digest anew": (
        digested(lambda text: text.replace('"winners":[', '"winners":[9,', 1)),
        "game NUMBER does not fit the study",
    ),
}


@needs_cli
@pytest.mark.parametrize("damage", ROUND_DAMAGE)
def test_resume_plays_again_the_games_of_a_round_that_does_not_check_out(
    finished_study, tmp_path, damage
):
    out = copied(finished_study[0], tmp_path)
    path = max(out.glob("original-2001-*.jsonl"), key=lambda path: path.stat().st_size)
    games = len(path.read_text().splitlines()) - 2
    change, why = ROUND_DAMAGE[damage]
    path.write_text(change(path.read_text()))
    why = why.replace("NUMBER", str(int(path.stem.rsplit("-", 2)[1])))  # the round's first game
    code, resumed, err = medina(*study_command(out, "--resume"))
    assert code == 0 and resumed == finished_study[1]
    assert err == (
        f"{out}: {games} finished game{'s' if games > 1 else ''} did not check out and "
        f"{'are' if games > 1 else 'is'} played again: {path.name}: {why}\n"
        f"wrote {games} games to {out} ({24 - games} were there already)\n"
    )
    assert (
        medina(*study_command(out, "--resume"))[2]
        == f"wrote 0 games to {out} (24 were there already)\n"
    )


@needs_cli
@pytest.mark.parametrize(
    "options, why",
    [
        ([], "not a JSON object"),
        ({"rulesets": 5}, "'rulesets' is missing or not list"),
        ({"players": "3"}, "'players' is missing or not int"),
        ({"seats": [1]}, "'seats' holds something other than agent names"),
        (
            {"rulesets": [{"id": "original-2001"}]},
            "'rulesets' holds something other than {'id', 'ruleset', 'parameters'}",
        ),
    ],
    ids=[
        "a list",
        "rulesets 5",
        "players as text",
        "a seat that is a number",
        "a ruleset without parameters",
    ],
)
def test_resume_refuses_damaged_options_naming_them(finished_study, tmp_path, options, why):
    import shutil

    folder, _ = finished_study
    out = tmp_path / "games"
    shutil.copytree(folder, out)
    study = out / ".study" / "study.json"
    if isinstance(options, dict):
        edit_json(study, lambda d: d.update(options))
    else:
        study.write_text(json.dumps(options))
    code, doc, err = medina(*study_command(out, "--resume"))
    assert (
        code == 2
        and err == ""
        and only_error(doc)
        == (
            f"{study}: not a study's options ({why}); the study cannot be resumed: start it again in another folder"
        )
    )
    study.write_text("{")
    code, doc, _ = medina(*study_command(out, "--resume"))
    assert code == 2 and only_error(doc) == f"{study}: cannot read the study: it is not JSON"


def only_error(out: str) -> str:
    """The message of the one error of a --json document that refuses a study."""
    doc = json.loads(out)
    assert (
        doc["format"] == "medina-simulate/1" and doc["rulesets"] == [] and len(doc["errors"]) == 1
    )
    return doc["errors"][0]["message"]


@pytest.mark.slow
@needs_cli
def test_a_changed_ruleset_file_is_refused_on_resume(tmp_path):
    (tmp_path / "short.yaml").write_text(HOUSE)
    command = ("simulate", "-r", "short.yaml", "-g", 2, "--out", "games")
    assert installed_medina(*command, cwd=tmp_path)[0] == 0
    (tmp_path / "short.yaml").write_text(HOUSE.replace("walls: 5", "walls: 6"))
    code, _, err = installed_medina(*command, "--resume", cwd=tmp_path)
    assert (
        code == 2 and "other parameters of ruleset short-house (its file has changed since)" in err
    )


@needs_cli
def test_out_and_resume_refuse_the_wrong_folder(tmp_path):
    code, out, _ = medina(*study_command(tmp_path / "empty", "--resume"))
    assert code == 2 and "holds no study to resume" in only_error(out)
    assert medina(*study_command(tmp_path / "games"))[0] == 0
    code, out, _ = medina(*study_command(tmp_path / "games"))
    assert code == 2 and "holds a study already: add --resume" in only_error(out)
    code, _, err = medina("simulate", "-r", "original-2001", "--resume")
    assert code == 2 and "--resume needs --out DIR" in err


@pytest.mark.slow
def test_a_progress_line_on_a_terminal_only():
    code, shown, out = on_terminal(
        "simulate", "-r", "original-2001", "-g", "200", "--json", stream="stderr"
    )
    assert code == 0 and json.loads(out)["games"] == 200
    lines = plain(shown).split("\r")
    final = next(line for line in lines if "200/200 games" in line)
    assert re.fullmatch(r"━+ 200/200 games, \d+ games/s, \d:\d\d:\d\d left", final.strip()), final
    assert lines[-1].strip() == ""  # the line is cleared before the document
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "medina_cli",
            "simulate",
            "-r",
            "original-2001",
            "-g",
            "200",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (
        json.loads(proc.stdout)["games"] == 200 and proc.stderr == ""
    )  # off a terminal: no progress line


@pytest.mark.slow
def test_no_progress_display_is_loaded_off_a_terminal():
    script = (
        "import sys; from medina_cli.cli.app import main; sys.argv = ['medina', 'simulate', '-r', 'original-2001', "
        "'-g', '3', '--json']\ntry: main()\nexcept SystemExit: pass\nprint('rich' in sys.modules, file=sys.stderr)"
    )
    proc = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    assert proc.stderr == "False\n" and json.loads(proc.stdout)["games"] == 3


def test_ctrl_c_while_a_game_is_written_and_counted_comes_after():
    """An interruption never falls between a game's files and its count: the count said after Ctrl-C
    is that of the games written."""
    from medina_cli.study.simulate import interrupts_held

    steps = []
    with pytest.raises(KeyboardInterrupt):
        with interrupts_held():
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.05)  # Python would act on it here
            steps.append("written and counted")
    assert steps == ["written and counted"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


@pytest.mark.parametrize("json_", [False, True])
def test_ctrl_c_without_out_shows_the_statistics_of_the_games_finished(monkeypatch, json_):
    import medina_cli.cli.simulate as command
    from medina_cli.cli.progress import Progress

    class CtrlC(Progress):
        def __call__(self, finished, total=None):
            super().__call__(finished, total)
            if finished >= 300:
                raise KeyboardInterrupt

    monkeypatch.setattr(command, "Progress", CtrlC)
    code, out, err = medina(
        "simulate", "-r", "original-2001", "-g", 10**9, *(["--json"] if json_ else [])
    )
    assert code == 130
    finished = int(err.split("original-2001: ")[1].split()[0])
    assert finished >= 300 and err == (
        "interrupted: the statistics above are of the games finished so far "
        f"(original-2001: {finished} of {10**9})\n"
    )
    if json_:
        doc = json.loads(out)
        assert (
            doc["games"] == 10**9
            and doc["rulesets"][0]["games"] == finished
            and doc["errors"] == []
        )
    else:
        assert (
            out.startswith(f"{finished} random games per ruleset, 4 players, seed 1")
            and "seat 4 wins" in out
        )


@needs_cli
def test_write_records_names_what_it_cannot_write(finished_study, first_layout, tmp_path):
    folder, _ = finished_study
    code, out, err = medina(
        "simulate", "--out", folder, "--write-records", "original-2001-0099", "--json"
    )
    doc = json.loads(out)
    assert (
        code == 2
        and doc["format"] == "medina-simulate-records/1"
        and doc["records"] == []
        and doc["errors"][0]["message"]
        == (
            f"--write-records: {folder} holds no finished game original-2001-0099 (one that checks out); "
            "its games are named <ruleset id>-<number>, e.g. original-2001-0001"
        )
    )
    code, _, err = medina("simulate", "--out", tmp_path, "--write-records", "all")
    assert (
        code == 2
        and err == f"--write-records: {tmp_path} holds no study (no .study/study.json) [usage]\n"
    )
    code, _, err = medina("simulate", "--write-records", "all")
    assert code == 2 and "--write-records needs --out DIR" in err
    old, _ = first_layout  # a folder of the first layout holds its records already
    code, out, _ = medina(
        "simulate", "--out", old, "--write-records", "second-edition-2014-0012,original-2001-0002"
    )
    assert code == 0 and out.split() == [
        str(old / "original-2001-0002.yaml"),
        str(old / "second-edition-2014-0012.yaml"),
    ]
