"""The differential comparison of the two engines: a Python `Game` and a native `State` in the same
position must agree on everything observable (tests/test_native.py; the rule tests through conftest)."""

from __future__ import annotations

from medina_cli.engine.game import Game
from medina_cli.engine.scoring import score_game


def moves_of(game: Game, placements) -> list[int]:
    index = {piece: i for i, piece in enumerate(game.variant.pieces)}
    tea = len(game.variant.pieces) * game.variant.geometry.size
    cell = game.variant.geometry.cell_of_square
    return [tea if p.square is None else index[p.piece] * game.variant.geometry.size + cell[p.square] for p in placements]


def python_view(game: Game) -> dict:
    """What `State.observe()` reports, read from a Python game."""
    colours = list(game.variant.colours)
    ids = {id(p): p.id for p in game.palaces}

    def arm_bits(arms) -> int:
        return sum(1 << ((tower - 1) * 2 + (axis == "v")) for tower, axis in arms)

    def holder(palace):
        return None if palace is None else palace.owner

    return {
        "seat": game.seat_to_move, "turn_placed": game.turn_placed, "turn_slots": game.turn_slots,
        "tea_used": game.tea_used, "forced": game.forced, "turns_started": game.turns_started,
        "placements_made": game.placements_made, "claims": game._claims, "tea_claims": game._tea_claims,
        "retired": sum(1 << colours.index(c) for c in game.retired), "chain_ends": tuple(game._chain_ends),
        "supply": [[s[piece] for piece in game.variant.pieces] for s in game.supply], "tea": list(game.tea),
        "owned": [sum(1 << colours.index(c) for c in owned) for owned in game._owned],
        "palaces": [(colours.index(p.colour), p.buildings, p.stables, p.owner, p.roof, p.claim_order,
                     arm_bits(p.connected), p.size) for p in game.palaces],
        "palace_tiles": [holder(game.palace_tile[c]) for c in colours],
        "tower_tiles": [holder(game.tower_tile.get(t)) for t in (1, 2, 3, 4)],
        "tower_merchants_left": [game._tower_merchants_left.get(t, -1) for t in (1, 2, 3, 4)],
        "open_palaces": [None if game._open_palace[c] is None else ids[id(game._open_palace[c])] for c in colours],
        "occupied": game._occupied, "merchants": game.merchants, "walls": game.walls, "stables": game._stables,
        "roofed": game._roofed_buildings, "reach_once": game._reach_once, "reach_twice": game._reach_twice,
        "building_orth": game._building_orth, "buildings": [game._buildings[c] for c in colours],
    }


def native_view(state) -> dict:
    view = state.observe()
    as_int = lambda b: int.from_bytes(b, "little")  # noqa: E731
    for key in ("occupied", "merchants", "walls", "stables", "roofed", "reach_once", "reach_twice", "building_orth"):
        view[key] = as_int(view[key])
    view["buildings"] = [as_int(b) for b in view["buildings"]]
    view["palaces"] = [(c, as_int(b), as_int(s), *rest) for c, b, s, *rest in view["palaces"]]
    return view


def counted(game: Game) -> dict:
    kinds = [e.kind for e in game.events]
    return {"passes": kinds.count("pass"), "retirements": kinds.count("retire"),
            "forced_roofs": kinds.count("forced-roof"),
            "transfers": sum(1 for e in game.events if e.kind in ("palace-tile", "tower-tile") and e.previous is not None)}


def assert_same(game: Game, state) -> None:
    assert state.legal_moves() == moves_of(game, game.legal_placements())
    assert state.distinct_moves() == moves_of(game, game.distinct_placements())
    assert state.can_tea() == game.can_tea()
    assert native_view(state) == python_view(game)
    sheet = score_game(game)
    totals, winners = state.outcome()
    assert totals == [p.total for p in sheet.players]
    assert [game.players[seat] for seat in winners] == sheet.winners
    summary_totals, summary_winners, _, events, turns, placements = state.summary()
    assert (summary_totals, summary_winners) == (totals, winners)
    assert dict(zip(("transfers", "passes", "retirements", "forced_roofs"), events)) == counted(game)
    assert (turns, placements) == (game.turns_started, game.placements_made)
