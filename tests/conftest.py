"""Shared test helpers: build games and records from short texts."""

from __future__ import annotations

from pathlib import Path

import pytest

from medina_cli.engine.game import Game
from medina_cli.records.record import parse_record
from medina_cli.records.replay import replay
from medina_cli.rules.loader import load_ruleset

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
EDITIONS = ("original-2001", "bsw-dm-2003", "second-edition-2014")
# the project's shared folder sits beside the checkout (../shared); a worktree may be deeper
BOARDSPACE_CORPUS = next(
    (
        p / "shared/corpus/boardspace"
        for p in ROOT.parents
        if (p / "shared/corpus/boardspace").is_dir()
    ),
    ROOT.parent / "shared/corpus/boardspace",
)


def rules_for(ruleset: str, players: int, *overrides: str):
    return load_ruleset(ruleset, overrides).for_players(players)


def new_game(
    ruleset: str, players: int = 3, merchant: str = "J7", well: str | None = None, *overrides: str
) -> Game:
    rules = rules_for(ruleset, players, *overrides)
    names = ["Anna", "Ben", "Cleo", "Dan"][:players]
    if rules.well.enabled and well is None:
        well = "D4"
    return Game(rules, names, merchant, well)


def record_text(
    ruleset: str,
    players: list[str],
    turns: list[str],
    *,
    merchant: str = "J7",
    well: str | None = None,
    extra: str = "",
) -> str:
    lines = [
        "medina: record/1",
        f"ruleset: {ruleset}",
        f"players: [{', '.join(players)}]",
        "setup:",
        f"  merchant: {merchant}",
    ]
    if well:
        lines.append(f"  well: {well}")
    lines.append("turns:" if turns else "turns: []")
    lines.extend(f"  - {t}" for t in turns)
    return "\n".join(lines) + "\n" + extra


def replay_text(text: str, **kw):
    record = parse_record(text, "test.yaml", **kw)
    return record, replay(record)


def pytest_configure(config):
    """The commands the tests start run as a user's do. Ctrl-C reaches them: a suite started where it is ignored
    (a background job of a script) would hand that on, and the Ctrl-C tests would wait in vain. They start from
    bytecode compiled once, not by each of the hundreds of commands, even where the environment asks for none
    (PYTHONDONTWRITEBYTECODE): it is kept outside the checkout (PYTHONPYCACHEPREFIX). So do the test modules
    imported from here on, whose assertions pytest would otherwise rewrite anew in every run (seconds each time).
    Where no native engine is built the commands are asked for the Python one, as a user who knows would ask."""
    import os
    import signal
    import sys
    import tempfile

    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if os.environ.pop("PYTHONDONTWRITEBYTECODE", None) is not None:
        os.environ.setdefault(
            "PYTHONPYCACHEPREFIX", os.path.join(tempfile.gettempdir(), "medina-tests-pycache")
        )
        sys.pycache_prefix = sys.pycache_prefix or os.environ["PYTHONPYCACHEPREFIX"]
        sys.dont_write_bytecode = False
    from medina_cli.engine import native

    if (
        native.engine_name() == "python"
    ):  # so that commands do not say on stderr what it costs (test_engine_note)
        os.environ.setdefault(native.ENGINE_VARIABLE, "python")


def pytest_collection_modifyitems(config, items):
    """`--hypothesis-seed N` (hypothesis's pytest option) draws the examples of every hypothesis test from N,
    the derandomised ones too, which otherwise draw the same examples on every run whatever the seed: CI
    runs the property and differential tests once more with a fresh seed it prints, and that seed replays
    the run."""
    if config.getoption("hypothesis_seed", None) is None:
        return
    from hypothesis import settings

    for test in {item.obj for item in items if getattr(item, "obj", None) is not None}:
        drawn = getattr(test, "_hypothesis_internal_use_settings", None)
        if drawn is not None and drawn.derandomize:
            test._hypothesis_internal_use_settings = settings(drawn, derandomize=False)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config):
    """`-n auto`: one worker more than the usable cores, since the cluster tests spend most of their time
    waiting for Dask (a scheduler, a worker, a port that never answers) and another worker meanwhile
    uses the core; PYTEST_XDIST_AUTO_NUM_WORKERS and `-n logical` still decide as xdist does."""
    import os

    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS") or config.option.numprocesses == "logical":
        return None
    return (
        len(os.sched_getaffinity(0)) + 1
        if hasattr(os, "sched_getaffinity")
        else (os.cpu_count() or 1) + 1
    )


def engine_line() -> str:
    """Which engine the tests run on, and why not the native one where a core built from other C sources
    lies beside them (a checkout whose C sources changed since its install: its native tests are skipped)."""
    import importlib.machinery

    from medina_cli.engine import native

    name = native.engine_name()
    here = Path(native.__file__).parent
    if (
        name == "python"
        and native.engine_requested() is None
        and any(
            (here / f"_core{suffix}").is_file() for suffix in importlib.machinery.EXTENSION_SUFFIXES
        )
    ):
        return f"medina engine: {name} (the native core here was built from other C sources: reinstall to test it)"
    return f"medina engine: {name}"


def pytest_report_header(config):
    return engine_line()


def pytest_terminal_summary(terminalreporter):
    """Even with -q: which engine the tests ran on (the differential test needs the native one)."""
    terminalreporter.write_line(engine_line())


@pytest.fixture
def examples_dir() -> Path:
    return EXAMPLES


RULE_POINT_FILES = {
    "test_boardspace_profiles.py",
    "test_score_tiles.py",
    "test_turn_in_progress.py",
    "test_score.py",
}


@pytest.fixture(autouse=True)
def native_shadow(request, monkeypatch):
    """In the rule-point tests (tests/test_rules_*.py and RULE_POINT_FILES), where the native core runs, every
    placement a test makes on a Python game is replayed through the native core and the two positions compared
    (nativekit)."""
    from medina_cli.engine import native

    name = Path(str(request.node.fspath)).name
    if not (name.startswith("test_rules_") or name in RULE_POINT_FILES) or native.core() is None:
        yield
        return
    from nativekit import assert_same

    def shadowed(method):
        def run(game, *args, **kwargs):
            result = method(game, *args, **kwargs)
            state = native.state_of(game)
            # a test that set a supply by hand has a position no replay reaches: nothing to compare
            hand_set = (
                state is None
                or [[s[p] for p in game.variant.pieces] for s in game.supply]
                != state.observe()["supply"]
            )
            if not hand_set:
                assert_same(game, state)
            return result

        return run

    monkeypatch.setattr(Game, "_play", shadowed(Game._play))
    monkeypatch.setattr(Game, "_use_tea", shadowed(Game._use_tea))
    yield
