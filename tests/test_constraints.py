"""The constraint layers are the one definition of the placement rules. Over random legal games
(every choice drawn by hypothesis, so a failure shrinks to a short game) under every built-in
ruleset and some variants, for random (piece, cell) pairs: the generator's mask is the AND of the
piece's layers, `explain` gives a reason exactly when the generator refuses the placement, and the
layer it names does leave the cell out."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import medina_cli as medina
from medina_cli.engine.board import bits, geometry_for
from medina_cli.engine.constraints import Either
from medina_cli.engine.explain import explain
from medina_cli.errors import CODES
from medina_cli.rules.loader import builtin_ids, load_ruleset

NAMES = ["Anna", "Ben", "Cleo", "Dan"]
VARIANTS = [
    (),
    ("merchants.new_chain_max_neighbours=1",),
    ("merchants.new_chain_max_neighbours=2",),
    ("roofs.on_blocked_palace=false",),
    ("retirement=[no_building_fits, all_players_own]",),
]


def layered(game, piece: str, seat: int, layers=None) -> int:
    """The AND of the piece's layers, each read alone (an Either through the layers that apply)."""
    cells = game.variant.geometry.full
    for layer in game.variant._constraints[piece].layers if layers is None else layers:
        if isinstance(layer, Either):
            cells &= layered(game, piece, seat, layer.layers(game, piece))
        else:
            cells &= layer.allows(game, piece, seat if layer.per_seat else None)
    return cells


def codes_of(layers) -> set[str]:
    return {
        code
        for layer in layers
        for code in (
            codes_of((*layer.within, *layer.first, *layer.otherwise))
            if isinstance(layer, Either)
            else {layer.code}
        )
    }


def check(game, piece: str, cell: int) -> None:
    seat = game.seat_to_move
    assert game._piece_mask(seat, piece) == layered(game, piece, seat), piece
    for cached, cells in list(
        game._board_masks.items()
    ):  # the cache holds what the board layers give now
        if cached in game.variant._constraints:
            assert cells == game.variant._board_functions[cached](game, cached, None), cached
    legal = bool(dict(game.legal_masks()).get(piece, 0) >> cell & 1)
    reason = explain(game, piece, cell)
    assert (reason is None) == legal, (piece, game.variant.geometry.name(cell), reason)
    if legal:
        return
    code, message = reason
    assert code in CODES and code != "not-legal", (piece, game.variant.geometry.name(cell), reason)
    if game._piece_mask(seat, piece) >> cell & 1:  # every layer allows it: only the turn refuses it
        assert code == "forced-roof" and game.forced
    else:  # a rule of this piece refuses it, and says so with the cell
        assert code in codes_of(game.variant._constraints[piece].layers) and message.startswith(
            f"{piece} {game.variant.geometry.name(cell)}: "
        ), (piece, reason)


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", builtin_ids())
@settings(
    max_examples=5,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.large_base_example,
    ],
)
@given(data=st.data())
def test_explain_names_the_layer_that_refuses_exactly_what_the_generator_refuses(ruleset, data):
    loaded = load_ruleset(ruleset)
    players = data.draw(st.sampled_from(loaded.player_counts), label="players")
    rules = load_ruleset(
        ruleset, data.draw(st.sampled_from(VARIANTS), label="variant")
    ).for_players(players)
    geo = geometry_for(rules)
    cells = [geo.name(c) for c in bits(geo.interior & ~geo.edge_row)]
    merchant = data.draw(st.sampled_from(cells), label="merchant")
    well = (
        data.draw(st.sampled_from([c for c in cells if c != merchant]), label="well")
        if rules.well.enabled
        else None
    )
    game = medina.Game(rules, NAMES[:players], merchant=merchant, well=well)
    choices = data.draw(
        st.randoms(use_true_random=False), label="choices"
    )  # each answer a choice that shrinks
    while not game.is_over():
        held = [piece for piece in game.variant.pieces if game.supply[game.seat_to_move][piece]]
        for _ in range(3):
            piece = choices.choice(held if held and choices.randrange(2) else game.variant.pieces)
            check(game, piece, draw_cell(choices, game, piece))
        game.push(choices.choice(game.legal_placements()))


def draw_cell(choices, game, piece: str) -> int:
    """Any cell, or one the piece may take, one only the turn refuses, or one on or next to a piece."""
    legal = dict(game.legal_masks()).get(piece, 0)
    held = game._piece_mask(game.seat_to_move, piece)
    kinds = {
        "legal": legal,
        "refused by the turn": held & ~legal,
        "near a piece": game.variant.geometry.king(game._occupied | game.walls) & ~legal,
    }
    kind = choices.choice(["any", *(name for name, cells in kinds.items() if cells)])
    if kind == "any":
        return choices.randrange(game.variant.geometry.size)
    return choices.choice(list(bits(kinds[kind])))
