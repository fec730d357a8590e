"""Where output goes (faults 19 and 20 of ../shared/robustness/faults): standard output that cannot be
written is a one-line error, not a bug to report; every output file is written through a symbolic
link to the file it names, as `add` writes a record."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import EXAMPLES
from scorekit import run

GAME = EXAMPLES / "original-2001-3p.yaml"
MEDINA = str(Path(sys.executable).with_name("medina"))


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here")
@pytest.mark.parametrize("unbuffered", ["1", ""])
@pytest.mark.parametrize(
    "args",
    [
        ("validate", GAME),
        ("score", GAME, "--json"),
        ("view", GAME, "-o", "-"),
        ("rules", "show", "original-2001"),
    ],
)
@pytest.mark.slow
def test_standard_output_that_cannot_be_written_is_said_in_one_line(args, unbuffered):
    environment = {**os.environ, "PYTHONUNBUFFERED": unbuffered}
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [MEDINA, *map(str, args)],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            env=environment,
            timeout=60,
        )
    said = "standard output: cannot write: No space left on device [cannot-write]\n"
    assert (done.returncode, done.stderr) == (2, said)


@pytest.mark.parametrize("args", [("--version",), ("validate", GAME)])
def test_a_closed_standard_output_is_said_in_one_line(args):
    """Started with standard output closed (`>&-`), not writing into a file that takes its descriptor."""
    done = subprocess.run(
        ["sh", "-c", '"$@" >&-', "sh", MEDINA, *map(str, args)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (done.returncode, done.stderr) == (
        2,
        "standard output: cannot write: Bad file descriptor [cannot-write]\n",
    )


def test_a_closed_pipe_still_ends_quietly():
    done = subprocess.run(
        f"'{MEDINA}' score '{EXAMPLES}' | head -c 10",
        shell=True,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.stdout and done.stderr == ""


@pytest.fixture
def linked(tmp_path, monkeypatch):
    """`linked(name)`: `name` in the test's folder, a symbolic link to real/`name` holding "old"."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "real").mkdir()

    def make(name: str) -> tuple[Path, Path]:
        (tmp_path / "real" / name).write_text("old\n")
        (tmp_path / name).symlink_to(Path("real") / name)
        return tmp_path / name, tmp_path / "real" / name

    return make


@pytest.mark.parametrize(
    "name, args, starts",
    [
        ("page.html", ("view", GAME, "-o", "{link}"), "<!DOCTYPE html>"),
        ("pic.svg", ("render", GAME, "-o", "{link}"), "<svg"),
        (
            "g.yaml",
            (
                "new",
                "{link}",
                "--force",
                "-r",
                "original-2001",
                "--players",
                "Anna,Ben,Cleo",
                "--merchant",
                "K7",
            ),
            "medina: record/1",
        ),
        (
            "r.md",
            (
                "study",
                "--rulesets",
                "original-2001",
                "--players",
                "3",
                "--agents",
                "random",
                "--games",
                "2",
                "--out",
                "st",
                "--report",
                "{link}",
            ),
            "# Study of original-2001",
        ),
    ],
)
def test_every_output_file_is_written_through_a_symbolic_link(linked, name, args, starts):
    link, real = linked(name)
    code, _, err = run(*(str(a).replace("{link}", str(link)) for a in args))
    assert code == 0, err
    assert link.is_symlink() and os.readlink(link) == str(Path("real") / name)
    assert real.read_text().startswith(starts)
    assert sorted(os.listdir(real.parent)) == sorted({name, *(["r"] if name == "r.md" else [])})


def test_the_charts_of_a_linked_report_lie_beside_the_file_it_names(linked):
    link, real = linked("r.md")
    run(
        "study",
        "--rulesets",
        "original-2001",
        "--players",
        "3",
        "--agents",
        "random",
        "--games",
        "2",
        "--out",
        "st",
        "--report",
        link,
    )
    assert (
        "](r/seat-wins.svg)" in real.read_text() and (real.parent / "r" / "seat-wins.svg").is_file()
    )
    assert not (link.parent / "r").exists()
