"""Every shipped example replays as a valid, finished game with its claimed result."""

import pytest
from conftest import EXAMPLES

from medina_cli.records.record import read_record
from medina_cli.records.replay import replay


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.yaml")), ids=lambda p: p.name)
def test_example_is_valid_and_finished(path):
    record = read_record(str(path))
    outcome = replay(record)
    assert outcome.problems == []
    assert outcome.finished
    assert record.result is not None
