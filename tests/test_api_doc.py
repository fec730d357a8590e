"""docs/api.md: every example in it runs (against the installed package, from outside the checkout),
and it documents every public name."""

from __future__ import annotations

import subprocess
import sys

from conftest import ROOT

import medina_cli

API = ROOT / "docs" / "api.md"
RUN_DOCTEST = (
    "import doctest, sys, medina_cli; "
    "result = doctest.testfile(sys.argv[1], module_relative=False, optionflags=doctest.ELLIPSIS); "
    "print(result, medina_cli.__file__); sys.exit(1 if result.failed or not result.attempted else 0)"
)


def test_every_example_in_the_api_doc_runs(tmp_path):
    # the examples name files of the checkout; they are linked in, the package is imported as installed
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "fixtures").symlink_to(ROOT / "tests" / "fixtures")
    proc = subprocess.run(
        [sys.executable, "-c", RUN_DOCTEST, str(API)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_the_api_doc_names_every_public_name():
    text = API.read_text(encoding="utf-8")
    assert [
        name
        for name in medina_cli.__all__
        if f"`{name}" not in text and f"medina.{name}" not in text
    ] == []


def test_the_api_doc_lists_what_the_engine_values_offer():
    """Every name a Variant, Position, Game or Placement offers without an underscore is in its row of the
    table of public names (a Game's row adds to the Position's; a Placement's tuple methods aside): what
    else they hold is the engine's own."""
    import re

    import medina_cli as medina

    rows = {
        m.group(1): set(re.findall(r"\w+", " ".join(re.findall(r"`([^`]*)`", m.group(2)))))
        for m in re.finditer(r"^\| `(\w+)[^|]*\| (.*) \|$", API.read_text(encoding="utf-8"), re.M)
    }
    rows["Game"] |= rows["Position"]
    game = medina.Game(
        medina.load_ruleset("second-edition-2014", players=3),
        ["A", "B", "C"],
        merchant="K7",
        well="D4",
    )
    board = medina.read_board(
        str(ROOT / "tests" / "fixtures" / "boards" / "e1-original-2001.yaml")
    ).position
    values = {
        "Variant": game.variant,
        "Position": board,
        "Game": game,
        "Placement": medina.Placement("grey", "K8"),
    }
    offered = {
        kind: {name for name in dir(value) if not name.startswith("_")}
        - ({*dir(tuple)} if kind == "Placement" else set())
        for kind, value in values.items()
    }
    assert {kind: sorted(names - rows[kind]) for kind, names in offered.items()} == {
        key: [] for key in values
    }
