"""`pytest --hypothesis-seed N` reaches the derandomised hypothesis tests too (tests/conftest.py), so that
CI's run with a fresh seed draws new examples and the printed seed replays them."""

from __future__ import annotations

from types import SimpleNamespace

from conftest import pytest_collection_modifyitems
from hypothesis import core, given, settings
from hypothesis import strategies as st


def drawn_with(seed, monkeypatch) -> list[int]:
    """The examples a derandomised test draws in a session started with `--hypothesis-seed seed` (None: without)."""
    examples = []

    @settings(derandomize=True, database=None, max_examples=5)
    @given(st.integers())
    def probe(n):
        examples.append(n)

    config = SimpleNamespace(getoption=lambda name, default=None: seed)
    pytest_collection_modifyitems(config, [SimpleNamespace(obj=probe)])
    monkeypatch.setattr(core, "global_force_seed", seed)
    probe()
    return examples


def test_a_seed_draws_other_examples_and_the_same_seed_the_same(monkeypatch):
    assert drawn_with(1, monkeypatch) == drawn_with(1, monkeypatch) != drawn_with(2, monkeypatch)


def test_without_a_seed_a_derandomised_test_draws_the_same_examples_every_run(monkeypatch):
    assert drawn_with(None, monkeypatch) == drawn_with(None, monkeypatch)
