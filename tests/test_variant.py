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


def test_move_codes_are_piece_times_size_plus_cell_and_decode_inverts_encode():
    import pytest

    from medina_cli.engine.game import Game
    from medina_cli.engine.placement import (
        PASS_PLACEMENT,
        TEA_PLACEMENT,
        IllegalPlacement,
        Placement,
    )

    for ruleset, players, setup in (
        ("original-2001", 4, ("K7",)),
        ("second-edition-2014", 2, ("F5", "K8")),
    ):
        game = Game(
            load_ruleset(ruleset).for_players(players),
            ["Anna", "Ben", "Cleo", "Dan"][:players],
            *setup,
        )
        variant = game.variant
        for placement in game.legal_placements():
            code = variant.encode(placement)
            assert code == variant.pieces.index(
                placement.piece
            ) * variant.size + variant.geometry.parse(placement.cell)
            assert (
                variant.decode(code) is variant.decode(code) == placement
                and variant.encode(str(placement)) == code
            )
        tea = len(variant.pieces) * variant.size
        encoded = (
            variant.encode(TEA_PLACEMENT),
            variant.encode("Tea"),
            variant.encode(PASS_PLACEMENT),
        )
        assert encoded == (tea, tea, tea + 1)
        assert (variant.decode(tea), variant.decode(tea + 1)) == (TEA_PLACEMENT, PASS_PLACEMENT)
        assert variant.encode("GRAY k08") == variant.encode(Placement("grey", "K8"))
        for code in (-1, tea + 2, 1.0, True):
            with pytest.raises(ValueError, match="not a move code"):
                variant.decode(code)
        for text, refusal in (
            ("gold K8", "unknown-piece"),
            ("grey S8", "bad-cell"),
            ("grey", "bad-placement"),
        ):
            with pytest.raises(IllegalPlacement) as refused:
                variant.encode(text)
            assert refused.value.code == refusal
        with pytest.raises(IllegalPlacement) as refused:
            variant.encode(Placement("grey"))  # a piece with no cell: neither tea nor pass
        assert refused.value.code == "bad-placement"


def test_code_and_piece_and_cell_convert_the_engines_pairs_as_encode_and_decode_do():
    import pytest

    variant = Variant.of(load_ruleset("second-edition-2014").for_players(2))
    for code in range(variant.encode("pass") + 1):
        piece, cell = variant.piece_and_cell(code)
        assert variant.code(piece, cell) == code and variant.decode(code).piece == piece
        if cell is not None:
            assert variant.decode(code).square == variant.geometry.square_of[cell]
            assert variant.placements_on(piece, 1 << cell) == [variant.decode(code)]
    assert variant.piece_and_cell(variant.encode("tea")) == ("tea", None)
    assert variant.code("pass") == variant.encode("pass")
    assert variant.placements_on("wall", 0b1010) == [
        variant.decode(variant.code("wall", c)) for c in (1, 3)
    ]
    for code in (-1, variant.encode("pass") + 1, 1.0, True):
        with pytest.raises(ValueError, match="not a move code"):
            variant.piece_and_cell(code)


def test_only_the_variant_lays_out_move_codes():
    """Issue 32: one place converts a placement to an int and back (`piece * size + cell`): no other module
    splits a move code or reads the variant's tables of them."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    layout = re.compile(
        r"\._first_code|\._pieces_and_cells|divmod\((code|move)\b|\b(code|move)\s*(//|%)"
        r"|encode\(.*\)\s*(//|%)"
    )
    sources = (*root.glob("medina_cli/**/*.py"), *root.glob("tests/*.py"))
    found = [
        f"{path.relative_to(root)}:{number}"
        for path in sources
        if path.name not in ("variant.py", "test_variant.py")
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if layout.search(line)
    ]
    assert found == []


def test_placement_and_variant_read_a_text_the_same_way():
    import pytest

    from medina_cli.engine.placement import IllegalPlacement, Placement

    variant = Variant.of(load_ruleset("original-2001").for_players(3))
    for text in ("grey", "grey K8 wall", "grey 8K", "", "teas", None):
        refusals = []
        for parse in (Placement.parse, variant.parse):
            with pytest.raises(IllegalPlacement) as refused:
                parse(text)
            refusals.append((refused.value.code, refused.value.message))
        assert refusals[0] == refusals[1] and refusals[0][0] == "bad-placement"
    assert Placement.parse(" Grey   k08 ") == variant.parse("grey K8") == Placement("grey", 192)
