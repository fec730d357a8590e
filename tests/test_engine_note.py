"""The cost of the Python engine said where it is paid (issue 33): without a native engine built, the
commands that search or play agents say in one line on stderr which engine runs, how much longer it
takes and how to get the native one; `analyse` draws its progress line before its first placement."""

from __future__ import annotations

import io
from types import SimpleNamespace

import pytest
from conftest import EXAMPLES
from scorekit import run

from medina_cli.engine import native

NOTE = "medina: the Python engine runs (no native engine was built at install): search and simulation take about "
GAME = EXAMPLES / "second-edition-2014-2p.yaml"


@pytest.fixture
def no_native_engine(monkeypatch):
    """This installation as one made without a C compiler: no native engine."""
    monkeypatch.delenv(native.ENGINE_VARIABLE, raising=False)
    monkeypatch.setattr(native, "built", lambda: None)
    native._core_for.cache_clear()
    yield
    native._core_for.cache_clear()


def noted(err: str) -> bool:
    lines = [line for line in err.splitlines() if line.startswith(NOTE)]
    assert len(lines) <= 1 and all(
        "times as long; for the native one install a C compiler" in line for line in lines
    )
    return bool(lines)


@pytest.mark.parametrize(
    "args",
    [
        ("--version",),
        ("hint", GAME, "--to", "4", "--agent", "greedy"),
        ("analyse", GAME, "--agent", "greedy"),
        (
            "simulate",
            "-r",
            "second-edition-2014",
            "-p",
            "2",
            "-g",
            "1",
            "--agents",
            "mcts:2,random",
        ),
        (
            "study",
            "--rulesets",
            "second-edition-2014",
            "--players",
            "2",
            "--agents",
            "random",
            "--games",
            "1",
            "--out",
            "{tmp}/study",
        ),
        (
            "play",
            "{tmp}/game.yaml",
            "-r",
            "second-edition-2014",
            "--seat",
            "random",
            "--seat",
            "random",
        ),
    ],
)
@pytest.mark.slow
def test_the_python_engine_says_what_it_costs(no_native_engine, tmp_path, args):
    code, out, err = run(*(str(arg).replace("{tmp}", str(tmp_path)) for arg in args))
    assert code == 0 and noted(err), err
    assert args[0] != "--version" or out.endswith("(python engine)\n")


@pytest.mark.parametrize(
    "args", [("validate", GAME), ("simulate", "-r", "second-edition-2014", "-p", "2", "-g", "1")]
)
def test_commands_that_do_not_search_say_nothing_of_it(no_native_engine, args):
    code, _, err = run(*args)
    assert code == 0 and not noted(err)


def test_nothing_is_said_where_the_python_engine_is_asked_for(no_native_engine, monkeypatch):
    monkeypatch.setenv(native.ENGINE_VARIABLE, "python")
    code, _, err = run("hint", GAME, "--to", "4", "--agent", "greedy")
    assert code == 0 and not noted(err)


def test_the_engine_asked_for_is_read_where_the_engine_is_chosen(no_native_engine, monkeypatch):
    """The note asks `engine_requested()` (which reads `native.ENGINE_VARIABLE`), not the variable itself."""
    monkeypatch.setattr(native, "ENGINE_VARIABLE", "MEDINA_TEST_ENGINE")
    monkeypatch.setenv("MEDINA_TEST_ENGINE", "python")
    code, _, err = run("hint", GAME, "--to", "4", "--agent", "greedy")
    assert code == 0 and not noted(err)


def test_analyse_draws_its_progress_line_before_the_first_placement(monkeypatch):
    from medina_cli.cli import hint, progress
    from medina_cli.records.record import read_record
    from medina_cli.study import analysis

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    class Display:
        def update(self, task, completed, total):
            seen.append(("drawn", completed, total))

        def refresh(self):
            pass

        def stop(self):
            pass

    seen: list[tuple] = []
    monkeypatch.setattr(progress, "sys", SimpleNamespace(stderr=Terminal()))
    monkeypatch.setattr(
        progress, "start_display", lambda unit, total, first, rate, left: (Display(), None)
    )
    reviewed = analysis.analyse
    monkeypatch.setattr(
        analysis,
        "analyse",
        lambda *args, **kw: (seen.append(("reviewing",)), reviewed(*args, **kw))[1],
    )
    record = read_record(str(GAME))
    document = hint.run_analysis(record, "greedy", 0, 1)
    total = len(document["placements"])
    assert seen[:2] == [("drawn", 0, total), ("reviewing",)] and seen[-1] == ("drawn", total, total)
