"""Hostile inputs and interrupted writes: a path a record names that is no ruleset, pipes, symbolic-link
loops, long extends chains, huge rulesets and agent budgets, YAML's other line breaks, and temporary
files left by a killed writer. Each says what is wrong in one line, in bounded time and memory."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import EXAMPLES
from scorekit import run

from medina_cli.files import write_atomically

GAME = EXAMPLES / "original-2001-3p.yaml"
SECRET = "alice:$6$c2FsdA$FAKE-HASH-DO-NOT-ECHO:19000:0:99999:7:::\nbob:!:19000:0:99999:7:::\n"


def record_naming(tmp_path: Path, ruleset: str) -> Path:
    path = tmp_path / "rec.yaml"
    path.write_text(
        f"medina: record/1\nruleset: {ruleset}\nplayers: [Anna, Ben, Cleo]\nsetup: {{merchant: K7}}\n"
        "turns: []\n"
    )
    return path


@pytest.mark.parametrize(
    "content",
    [
        SECRET,
        "title: [internal note: FAKE-SECRET]\ntoken_store: {api: 1}\n",
        "medina: record/1\nplayers: [FAKE-SECRET]\n",
    ],
)
def test_a_record_naming_a_file_that_is_no_ruleset_never_shows_its_content(tmp_path, content):
    (tmp_path / "other").write_text(content)
    for args in ((), ("--json",)):
        code, out, err = run("validate", record_naming(tmp_path, "./other"), *args)
        assert code == 2 and "FAKE" not in out + err and "alice" not in out + err
        assert (
            "a ruleset file has the line `medina: ruleset/1` (its content is not shown)"
            in out + err
        )


def test_a_ruleset_path_that_is_a_symbolic_link_loop_is_named(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    os.symlink("loop.yaml", "loop.yaml")
    code, out, err = run("validate", GAME, "--ruleset", "loop.yaml")
    assert (code, out) == (2, "") and err == (
        "--ruleset: ruleset file loop.yaml: cannot read: Too many levels of "
        "symbolic links [file-not-found]\n"
    )
    code, out, err = run("validate", record_naming(tmp_path, "loop.yaml"))
    assert (
        code == 2
        and "loop.yaml: cannot read: Too many levels of symbolic links [file-not-found]" in out
    )


@pytest.mark.slow
def test_a_pipe_named_as_a_record_a_ruleset_or_an_extends_is_refused_at_once(tmp_path):
    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)
    (tmp_path / "house.yaml").write_text("medina: ruleset/1\nextends: fifo.yaml\n")
    medina = Path(sys.executable).with_name("medina")
    said = "not a regular file (a pipe, socket or device: reading it could wait for ever) [file-not-found]"
    for args, status in (
        ([record_naming(tmp_path, "fifo.yaml")], 2),
        ([GAME, "--ruleset", fifo], 2),
        ([fifo], 2),
        ([GAME, "--ruleset", tmp_path / "house.yaml"], 2),
    ):
        done = subprocess.run(
            [medina, "validate", *map(str, args)], capture_output=True, text=True, timeout=30
        )
        assert done.returncode == status and said in done.stdout + done.stderr, done


@pytest.mark.parametrize("budget", ["²", "9" * 5000, "0", "10000001"])
def test_an_agent_budget_that_is_no_usable_number_is_a_usage_error(budget):
    for command in (("hint", GAME), ("analyse", GAME)):
        code, out, err = run(*command, "--agent", f"mcts:{budget}")
        assert (code, out) == (2, "") and err.count("\n") == 1, err
        assert "the playout budget of mcts must be a whole number ≥ 1 (at most 10,000,000)" in err
        code, out, err = run(*command, "--agent", f"mcts:{budget}", "--json")
        assert code == 2 and json.loads(out)["errors"][0]["code"] == "usage"


def chain(folder: Path, length: int, extra: str = "") -> Path:
    for i in range(length):
        parent = "original-2001" if i == 0 else f"r{i - 1}.yaml"
        (folder / f"r{i}.yaml").write_text(
            f"medina: ruleset/1\nid: r{i}\nextends: {parent}\n{extra}"
        )
    return folder / f"r{length - 1}.yaml"


def test_an_extends_chain_is_followed_32_rulesets_deep_and_no_further(tmp_path):
    assert run("rules", "show", chain(tmp_path, 31))[0] == 0
    code, out, err = run("rules", "show", chain(tmp_path, 1000))
    assert (code, out) == (2, "") and err.count("\n") == 1
    assert err.endswith(
        ".yaml:3: more than 32 rulesets extend one another from here; not read further "
        "[ruleset-invalid]\n"
    )


def test_chained_large_rulesets_are_refused_before_they_are_parsed(tmp_path):
    """Eight chained 1 MiB rulesets took 1 GB: past 256 KiB of ruleset text in all, nothing is parsed."""
    top = chain(tmp_path, 8, "sources: [" + ",".join(["1"] * 500_000) + "]\n")
    medina = Path(sys.executable).with_name("medina")
    done = subprocess.run(
        ["/usr/bin/time", "-f", "%M", medina, "rules", "show", top],
        capture_output=True,
        text=True,
        timeout=120,
    )
    said, *_, kilobytes = done.stderr.splitlines()  # `time` says the exit status, then the memory
    assert (
        done.returncode == 2
        and said == f"{top}: larger than 256 KiB with the rulesets it extends; not read [too-large]"
    )
    assert int(kilobytes) < 150_000


@pytest.mark.parametrize("brk", ["\u2028", "\u2029", "\x85", "\r"])
def test_error_lines_count_line_feeds_whatever_other_line_breaks_yaml_sees(tmp_path, brk):
    path = tmp_path / "game.yaml"
    path.write_text(
        f'medina: record/1\nruleset: original-2001\nplayers: [Anna, Ben, Cleo]\nevent: "a{brk}b{brk}c"\n'
        "setup:\n  merchant: K7\nturns:\n  - Anna: grey K8, black C3\n  - Ben: orange P7, wall A12\n"
        "  - Cleo: roof K8, stable K8\n",
        newline="",
    )
    code, out, _ = run("validate", path)
    assert code == 1 and out.startswith(f"{path}:10: turn 3 placement 2, Cleo: stable K8")
    assert json.loads(run("validate", path, "--json")[1])["results"][0]["errors"][0]["line"] == 10


def test_a_write_is_on_disk_before_its_rename(tmp_path, monkeypatch):
    done = []
    real_fsync, real_replace = os.fsync, os.replace
    monkeypatch.setattr(os, "fsync", lambda fd: (done.append("fsync"), real_fsync(fd))[1])
    monkeypatch.setattr(os, "replace", lambda a, b: (done.append("replace"), real_replace(a, b))[1])
    write_atomically(tmp_path / "g.yaml", "text\n")
    assert done[:2] == ["fsync", "replace"] and (tmp_path / "g.yaml").read_text() == "text\n"


def test_temporary_files_a_killed_writer_left_are_removed_by_the_next_write(tmp_path):
    gone = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    dead, alive = int(gone.stdout), os.getppid()
    left = tmp_path / f".g.yaml.{dead}.abcd1234.tmp"
    busy = tmp_path / f".g.yaml.{alive}.efgh5678.tmp"  # a writer still at work
    other = tmp_path / f".h.yaml.{dead}.abcd1234.tmp"  # another file's
    for path in (left, busy, other):
        path.write_text("half")
    write_atomically(tmp_path / "g.yaml", "whole\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([busy.name, other.name, "g.yaml"])


@pytest.mark.slow
def test_a_record_killed_between_write_and_rename_is_intact_and_its_leftover_goes_next_time(
    tmp_path,
):
    import shutil

    if shutil.which("strace") is None:
        pytest.skip("strace is not installed")
    medina = str(Path(sys.executable).with_name("medina"))
    record = tmp_path / "g.yaml"
    subprocess.run(
        [
            medina,
            "new",
            record,
            "--ruleset",
            "original-2001",
            "--players",
            "Anna,Ben,Cleo",
            "--merchant",
            "K7",
        ],
        check=True,
        capture_output=True,
    )
    before = record.read_text()
    killed = subprocess.run(
        [
            "strace",
            "-f",
            "-qq",
            "-o",
            "/dev/null",
            "-e",
            "trace=rename,renameat,renameat2",
            "-e",
            "inject=rename,renameat,renameat2:signal=KILL",
            medina,
            "add",
            record,
            "orange K9",
        ],
        capture_output=True,
    )
    assert killed.returncode != 0 and record.read_text() == before
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    assert subprocess.run([medina, "add", record, "orange K9"], capture_output=True).returncode == 0
    assert (
        sorted(p.name for p in tmp_path.iterdir()) == ["g.yaml"]
        and "orange K9" in record.read_text()
    )


@pytest.mark.slow
@pytest.mark.parametrize("json_", [(), ("--json",)])
def test_score_of_a_folder_holds_one_game_at_a_time(tmp_path, monkeypatch, json_):
    """`score DIR` of 8,000 records took 1 GB: each game is let go once scored (its standings added up)."""
    import gc
    import weakref

    from medina_cli.cli import score as score_command

    for number in range(6):
        (tmp_path / f"g{number}.yaml").write_text(GAME.read_text())
    alive, most = [], 0
    score_one = score_command._score_one

    def counted(*args):
        nonlocal most
        gc.collect()
        most = max(most, sum(ref() is not None for ref in alive))
        game = score_one(*args)
        alive.append(weakref.ref(game.position))
        return game

    monkeypatch.setattr(score_command, "_score_one", counted)
    code, out, _ = run("score", tmp_path, *json_)
    assert (
        code == 0 and len(alive) == 6 and most <= 1
    )  # the one scored just before may not be collected yet
    if json_:
        doc = json.loads(out)
        assert len(doc["games"]) == 6 and [row["games"] for row in doc["standings"]] == [6, 6, 6]
    else:
        assert "Standings over 6 games:" in out


def with_passes_after_the_end(passes: int) -> str:
    """The example game, finished, then `passes` turns of `pass` (validate accepts them: nobody can place)."""
    head, tail = GAME.read_text().split("event:", 1)
    return (
        head
        + "".join(f"  - {('Anna', 'Ben', 'Cleo')[n % 3]}: pass\n" for n in range(passes))
        + "event:"
        + tail
    )


@pytest.mark.slow
def test_the_viewer_of_many_passes_after_the_end_shows_one_picture_for_them(tmp_path):
    """8,000 passes after the end took 1.29 GB and wrote 392 MB of HTML (a board picture per pass): frames
    in a row that show the same board share its picture, so the page grows with the passes by their text."""
    import re

    turns = GAME.read_text().count("\n  - ")
    source, page_file = tmp_path / "passes.yaml", tmp_path / "passes.html"
    source.write_text(with_passes_after_the_end(3000))
    code, _, _err = run("view", source, "-o", page_file)
    page = page_file.read_text()
    frames = json.loads(
        re.search(r'<script type="application/json" id="frames">(.*?)</script>', page, re.S).group(
            1
        )
    )
    pictures = re.findall(r'<template id="frame-(\d+)">', page)
    assert code == 0 and len(frames) == turns + 3001
    assert pictures == [
        str(n) for n in range(turns + 2)
    ]  # the setup, each turn of the game, the passes' one
    assert [f["board"] for f in frames[: turns + 1]] == list(range(turns + 1))
    assert {f["board"] for f in frames[turns + 1 :]} == {turns + 1}
    assert f"The board after turns {turns + 1} to {turns + 3000}" in page
    assert frames[-1]["heading"].startswith(
        f"Turn {turns + 3000} of {turns + 3000}, Cleo: pass; the game is over"
    )
    assert len(page) < 40 * len(source.read_text()) + 3_000_000  # was 49 KB of picture per pass


STUDY = [
    "study",
    "--rulesets",
    "original-2001",
    "--players",
    "3",
    "--agents",
    "random,greedy",
    "--games",
    "4",
    "--seed",
    "11",
    "--out",
]


def medina_process(*args, timeout: float = 120) -> subprocess.CompletedProcess:
    medina = Path(sys.executable).with_name("medina")
    return subprocess.run(
        [str(medina), *map(str, args)], capture_output=True, text=True, timeout=timeout
    )


@pytest.fixture(scope="module")
def small_study(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("study") / "st"
    assert medina_process(*STUDY, out).returncode == 0
    return out


@pytest.mark.slow
def test_a_pipe_in_a_study_folder_is_refused_at_once(small_study, tmp_path):
    """Fault 17: a FIFO in place of a round of games or of .study/study.json blocked --so-far and --resume."""
    import shutil

    out = tmp_path / "st"
    shutil.copytree(small_study, out)
    games = out / "3p-greedy-vs-random"
    round_file = sorted(games.glob("*.jsonl"))[0]
    round_file.unlink()
    os.mkfifo(round_file)
    said = "not a regular file (a pipe, socket or device: reading it could wait for ever)"
    done = medina_process(*STUDY, out, "--so-far", timeout=60)
    assert (
        done.returncode == 0 and json.loads((out / "report.json").read_text())["complete"] is False
    )
    done = medina_process(*STUDY, out, "--resume", timeout=60)
    assert done.returncode == 0 and f"{round_file.name}: it cannot be read ({said})" in done.stderr
    assert (
        round_file.is_file() and json.loads((out / "report.json").read_text())["complete"] is True
    )
    options = out / "3p-random-self-play" / ".study" / "study.json"
    options.unlink()
    os.mkfifo(options)
    for extra in ("--so-far", "--resume"):
        done = medina_process(*STUDY, out, extra, timeout=60)
        assert (done.returncode, done.stdout) == (2, "") and done.stderr == (
            f"{options}: cannot read the study: {said} [usage]\n"
        )


@pytest.mark.slow
def test_deeply_nested_json_in_a_study_folder_is_damage_not_an_internal_error(
    small_study, tmp_path
):
    """Fault 18: `[[[[...]]]]` in .study/ ended --so-far and --resume in a RecursionError."""
    import shutil

    out = tmp_path / "st"
    shutil.copytree(small_study, out)
    deep = "[" * 100_000 + "]" * 100_000
    (out / "3p-greedy-vs-random" / ".study" / "original-2001-0001.json").write_text(
        deep
    )  # as the first layout names it
    round_file = sorted((out / "3p-random-self-play").glob("*.jsonl"))[0]
    round_file.write_text(deep)
    done = medina_process(*STUDY, out, "--resume", "--json")
    assert done.returncode == 0 and json.loads(done.stdout)["complete"] is True, done.stderr
    assert done.stderr.endswith(
        f"{round_file.parent}: 1 finished game did not check out and is played again: "
        f"{round_file.name}: it changed since it was written (or was cut short)\n"
    )
    options = out / "3p-random-self-play" / ".study" / "study.json"
    options.write_text('{"a":' * 50_000 + "1" + "}" * 50_000)
    done = medina_process(*STUDY, out, "--so-far", "--json")
    assert done.returncode == 2 and json.loads(done.stdout)["errors"][0]["message"] == (
        f"{options}: cannot read the study: it is not JSON"
    )


@pytest.mark.skipif(
    not Path("/proc/self/task").is_dir(), reason="reads the processes' children from /proc"
)
@pytest.mark.slow
def test_workers_end_when_their_command_is_killed(tmp_path):
    """Fault 16: `simulate --jobs 2` killed with SIGKILL left its workers waiting for tasks for ever."""
    import signal
    import time

    medina = Path(sys.executable).with_name("medina")
    proc = subprocess.Popen(
        [
            str(medina),
            "simulate",
            "-r",
            "original-2001",
            "-p",
            "3",
            "--games",
            "400",
            "--agents",
            "greedy,greedy,greedy",
            "--jobs",
            "2",
            "--out",
            str(tmp_path / "st"),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    children = Path(f"/proc/{proc.pid}/task/{proc.pid}/children")
    deadline = time.monotonic() + 60
    while len(children.read_text().split()) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    workers = [int(pid) for pid in children.read_text().split()]
    assert len(workers) >= 2
    proc.kill()
    proc.wait()
    deadline = time.monotonic() + 10
    while any(Path(f"/proc/{pid}").exists() for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    alive = [pid for pid in workers if Path(f"/proc/{pid}").exists()]
    for pid in alive:
        os.kill(pid, signal.SIGKILL)
    assert alive == []


@pytest.mark.slow
def test_a_study_folder_that_cannot_be_written_is_cannot_write(tmp_path):
    """`study` said [usage] where every other command says [cannot-write]."""
    (tmp_path / "a-file").write_text("")
    done = medina_process(*STUDY, tmp_path / "a-file" / "st")
    assert done.returncode == 2 and done.stderr.endswith(
        "cannot write: Not a directory [cannot-write]\n"
    )
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / ".study").write_text("")  # the study's own folder cannot be made
    done = medina_process("simulate", "-r", "original-2001", "-g", "2", "--out", tmp_path / "out")
    assert done.returncode == 2 and done.stderr.endswith("[cannot-write]\n"), done.stderr
