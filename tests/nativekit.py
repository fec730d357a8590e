"""The differential comparison of the two engines: a Python `Game` and a native `State` in the same
position must agree on everything observable (tests/test_native.py; the rule tests through conftest)."""

from __future__ import annotations

from medina_cli.engine.game import Game
from medina_cli.engine.scoring import score_game


def python_view(game: Game) -> dict:
    """What `State.observe()` reports, from a Python game's public values (`to_plain()`, its palaces and
    tiles, the variant's tables): the derived masks the native core keeps (occupied cells, reach of the
    palaces, ...) are worked out here afresh, so no name inside `Game` is read."""
    variant, plain = game.variant, game.to_plain()
    colours = list(variant.colours)
    seat, turns_started, turn_placed, tea_used, turn_slots, forced, placements_made = plain["turn"]
    palaces = plain[
        "palaces"
    ]  # (colour, buildings, stables, owner, roof, claim order, wall arms), as started

    def around(cells: int, table) -> int:
        out = 0
        while cells:
            low = cells & -cells
            out |= table[low.bit_length() - 1]
            cells ^= low
        return out

    def every(masks) -> int:
        out = 0
        for mask in masks:
            out |= mask
        return out

    def holder(palace):
        return None if palace is None else palace.owner

    reach_once = reach_twice = 0
    for _, buildings, stables, *_ in palaces:
        reach = around(buildings | stables, variant.king_of)
        reach_twice |= reach_once & reach
        reach_once |= reach
    last_of = {colour: i for i, (colour, *_) in enumerate(palaces)}  # each colour's latest palace
    buildings = [every(b for c, b, *_ in palaces if c == colour) for colour in colours]
    stables = every(s for _, _, s, *_ in palaces)
    tower_merchants = dict(plain["tower_merchants"])
    return {
        "seat": seat,
        "turn_placed": turn_placed,
        "turn_slots": turn_slots,
        "tea_used": tea_used,
        "forced": forced,
        "turns_started": turns_started,
        "placements_made": placements_made,
        "claims": plain["claims"],
        "tea_claims": plain["tea_claims"],
        "retired": sum(1 << colours.index(c) for c in plain["retired"]),
        "chain_ends": tuple(plain["chain_ends"]),
        "supply": [list(counts) for counts in plain["supply"]],
        "tea": list(plain["tea"]),
        "owned": [
            sum(1 << colours.index(c) for c, _, _, owner, *_ in palaces if owner == s)
            for s in range(len(game.players))
        ],
        "palaces": [
            (
                colours.index(c),
                b,
                s,
                owner,
                roof,
                order,
                sum(1 << ((tower - 1) * 2 + (axis == "v")) for tower, axis in arms),
                (b | s).bit_count(),
            )
            for c, b, s, owner, roof, order, arms in palaces
        ],
        "palace_tiles": [holder(game.palace_tile[c]) for c in colours],
        "tower_tiles": [holder(game.tower_tile.get(t)) for t in (1, 2, 3, 4)],
        "tower_merchants_left": [tower_merchants.get(t, -1) for t in (1, 2, 3, 4)],
        "open_palaces": [
            i if (i := last_of.get(c)) is not None and palaces[i][3] is None else None
            for c in colours
        ],
        "occupied": plain["merchants"]
        | (0 if plain["well"] is None else 1 << plain["well"])
        | stables
        | every(buildings),
        "merchants": plain["merchants"],
        "walls": plain["walls"],
        "stables": stables,
        "roofed": every(b for _, b, _, owner, *_ in palaces if owner is not None),
        "reach_once": reach_once,
        "reach_twice": reach_twice,
        "building_orth": every(around(b, variant.orth_of) for _, b, *_ in palaces),
        "buildings": buildings,
    }


def native_view(state) -> dict:
    view = state.observe()
    as_int = lambda b: int.from_bytes(b, "little")  # noqa: E731
    for key in (
        "occupied",
        "merchants",
        "walls",
        "stables",
        "roofed",
        "reach_once",
        "reach_twice",
        "building_orth",
    ):
        view[key] = as_int(view[key])
    view["buildings"] = [as_int(b) for b in view["buildings"]]
    view["palaces"] = [(c, as_int(b), as_int(s), *rest) for c, b, s, *rest in view["palaces"]]
    return view


def counted(game: Game) -> dict:
    kinds = [e.kind for e in game.events]
    return {
        "passes": kinds.count("pass"),
        "retirements": kinds.count("retire"),
        "forced_roofs": kinds.count("forced-roof"),
        "transfers": sum(
            1
            for e in game.events
            if e.kind in ("palace-tile", "tower-tile") and e.previous is not None
        ),
    }


def assert_same(game: Game, state) -> None:
    assert state.legal_moves() == list(map(game.variant.encode, game.legal_placements()))
    assert state.distinct_moves() == list(map(game.variant.encode, game.distinct_placements()))
    assert state.can_tea() == game.can_tea()
    assert native_view(state) == python_view(game)
    sheet = score_game(game)
    totals, winners = state.outcome()
    assert totals == [p.total for p in sheet.players]
    assert [game.players[seat] for seat in winners] == sheet.winners
    summary_totals, summary_winners, _, events, turns, placements = state.summary()
    assert (summary_totals, summary_winners) == (totals, winners)
    assert dict(
        zip(("transfers", "passes", "retirements", "forced_roofs"), events, strict=True)
    ) == counted(game)
    assert (turns, placements) == (game.turns_started, game.placements_made)
