"""`Variant.of`: one compiled variant for equal `Rules`, found by identity when the same `Rules` asks again
(a study asks once a game, and a worker process receives its own copy of the `Rules` with every task)."""

from __future__ import annotations

import pickle

from medina_cli.engine.variant import Variant
from medina_cli.rules.loader import load_ruleset
from medina_cli.rules.typed import Rules


def fresh_rules() -> Rules:
    """A `Rules` object never seen before, equal to the built-in 4-player original-2001 rules (as a worker
    process unpickles it from a task)."""
    return pickle.loads(pickle.dumps(load_ruleset("original-2001").for_players(4)))


def test_equal_rules_share_one_variant():
    rules, copy = fresh_rules(), fresh_rules()
    assert copy is not rules and copy == rules
    assert Variant.of(copy) is Variant.of(rules)


def test_rules_asked_for_again_are_found_without_hashing_or_comparing_them(monkeypatch):
    rules = fresh_rules()
    variant = Variant.of(rules)
    calls = []
    monkeypatch.setattr(Rules, "__hash__", lambda self: calls.append("hash") or 0)
    monkeypatch.setattr(Rules, "__eq__", lambda self, other: calls.append("eq") or NotImplemented)
    for _ in range(3):
        assert Variant.of(rules) is variant
    assert calls == []
