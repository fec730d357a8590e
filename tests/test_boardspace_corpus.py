"""The real boardspace.net record in shared/corpus/boardspace/ (read in place, never copied here)."""

from pathlib import Path

import pytest
from conftest import BOARDSPACE_CORPUS as CORPUS

from medina_cli.records.boardspace import is_boardspace
from medina_cli.records.record import read_record
from medina_cli.records.replay import replay


@pytest.fixture
def corpus_records() -> list[Path]:
    if not CORPUS.is_dir():
        pytest.skip(
            f"{CORPUS} is absent: the shared folder beside the checkout holds the real records"
        )
    found = [
        p for p in sorted(CORPUS.iterdir()) if p.is_file() and is_boardspace(p.name, p.read_text())
    ]
    assert found, f"no boardspace record in {CORPUS}"
    return found


def placements_in(text: str) -> int:
    """Pieces the story puts on the board: drops and robot moves, less the ones picked back up."""
    verbs = [
        item.split()[1].lower()
        for item in text.split(".end.")[0].split(",")[1:]
        if len(item.split()) > 1
    ]
    return verbs.count("dropb") + verbs.count("onboard") - verbs.count("pickb")


def test_every_placement_replays_legally_under_the_profile_its_header_implies(corpus_records):
    for path in corpus_records:
        record = read_record(str(path))
        outcome = replay(record)
        assert record.ruleset.id == "boardspace-original-r100"  # `story medina 3 ...`: no revision
        assert outcome.problems == [], [p.human() for p in outcome.problems]
        assert [w.code for w in outcome.warnings] == [
            "unfinished"
        ]  # it stops mid-game, not an error
        assert outcome.turns_played == len(record.turns)
        # every piece of the record was played: the start merchant is setup, the rest placements
        assert outcome.game.placements_made + 1 == placements_in(path.read_text())


def test_the_revision_matters_for_this_game(corpus_records):
    """Under the current engine's rules (revision 101 on) grey retires before this game places its
    last grey buildings: the old-revision profile is what makes it legal."""
    for path in corpus_records:
        outcome = replay(read_record(str(path), ruleset="boardspace-original"))
        assert [p.code for p in outcome.problems] == ["colour-retired"]
