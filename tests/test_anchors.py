"""Fixed anchors (tests/anchorkit.py writes them: `python tests/anchorkit.py`): perft counts of the
legal-placement generator on both engines, for every built-in ruleset and player count, and one golden
playthrough per ruleset, byte for byte."""

from __future__ import annotations

import json

import pytest
from anchorkit import (
    GOLDEN,
    PERFT,
    game_at,
    golden_placements,
    golden_text,
    native_golden_placements,
    native_perft,
    perft,
)

from medina_cli.engine import native
from medina_cli.rules.loader import builtin_ids, load_ruleset

POSITIONS = [
    (fixture["ruleset"], position)
    for path in sorted(PERFT.glob("*.json"))
    for fixture in [json.loads(path.read_text())]
    for position in fixture["positions"]
]


def position_id(case) -> str:
    ruleset, position = case
    return (
        f"{ruleset}-{position['players']}p-{len(position['placements'])}-depth{position['depth']}"
    )


def breakdown(expected: dict, counts) -> str:
    """Piece by piece, what the fixture says and what the engine counted."""
    pieces = sorted(set(expected) | set(counts))
    return "; ".join(
        f"{piece} {expected.get(piece, 0)} expected, {counts.get(piece, 0)} counted"
        for piece in pieces
    )


def check_perft(ruleset: str, position: dict, counts) -> None:
    assert sum(counts.values()) == position["count"] and dict(counts) == position["pieces"], (
        f"{ruleset}, {position['players']} players, after {position['placements']}: perft({position['depth']}) "
        f"{sum(counts.values())}, expected {position['count']}: {breakdown(position['pieces'], counts)}"
    )


def test_every_ruleset_and_player_count_has_its_perft_positions():
    found = {
        (ruleset, position["players"], bool(position["placements"]))
        for ruleset, position in POSITIONS
    }
    assert found == {
        (ruleset, players, midgame)
        for ruleset in builtin_ids()
        for players in load_ruleset(ruleset).player_counts
        for midgame in (False, True)
    }


@pytest.mark.parametrize(
    "case",
    [
        pytest.param(case, marks=pytest.mark.slow)  # the native engine counts them in the quick run
        for case in POSITIONS
    ],
    ids=position_id,
)
def test_perft_on_the_python_engine(case):
    """A start position's perft (hundreds of thousands of placements) is slow on the Python engine: the quick
    run counts it on the native core, the mid-game ones on both."""
    ruleset, position = case
    check_perft(ruleset, position, perft(game_at(ruleset, position), position["depth"]))


@pytest.mark.skipif(
    native.core() is None,
    reason="the native core is not in use (not built, or MEDINA_ENGINE=python)",
)
@pytest.mark.parametrize("case", POSITIONS, ids=position_id)
def test_perft_on_the_native_engine(case):
    ruleset, position = case
    check_perft(ruleset, position, native_perft(game_at(ruleset, position), position["depth"]))


@pytest.mark.parametrize("ruleset", builtin_ids())
def test_golden_playthrough(ruleset):
    """The seeded game's placements, events and scores as written; the native core's own playout from
    the same seed places the same pieces."""
    expected = (GOLDEN / f"{ruleset}.log").read_text()
    assert golden_text(ruleset) == expected
    placements = native_golden_placements(ruleset)
    if placements is not None:
        assert placements == golden_placements(expected)
