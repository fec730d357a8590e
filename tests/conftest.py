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
BOARDSPACE_CORPUS = next((p / "shared/corpus/boardspace" for p in ROOT.parents if (p / "shared/corpus/boardspace").is_dir()),
                         ROOT.parent / "shared/corpus/boardspace")


def rules_for(ruleset: str, players: int, *overrides: str):
    return load_ruleset(ruleset, overrides).for_players(players)


def new_game(ruleset: str, players: int = 3, merchant: str = "J7", well: str | None = None, *overrides: str) -> Game:
    rules = rules_for(ruleset, players, *overrides)
    names = ["Anna", "Ben", "Cleo", "Dan"][:players]
    if rules.well.enabled and well is None:
        well = "D4"
    return Game(rules, names, merchant, well)


def record_text(ruleset: str, players: list[str], turns: list[str], *, merchant: str = "J7",
                well: str | None = None, extra: str = "") -> str:
    lines = ["medina: record/1", f"ruleset: {ruleset}", f"players: [{', '.join(players)}]", "setup:",
             f"  merchant: {merchant}"]
    if well:
        lines.append(f"  well: {well}")
    lines.append("turns:" if turns else "turns: []")
    lines.extend(f"  - {t}" for t in turns)
    return "\n".join(lines) + "\n" + extra


def replay_text(text: str, **kw):
    record = parse_record(text, "test.yaml", **kw)
    return record, replay(record)


@pytest.fixture
def examples_dir() -> Path:
    return EXAMPLES
