"""Plain-words reasons for a placement the generator did not produce.

Legality is decided only by `Game.legal_masks`; this module is consulted afterwards to name the
rule broken. It returns (code, message); codes are documented in `medina_cli.errors.CODES`.
"""

from __future__ import annotations

from .board import bits


def explain(game, piece: str, cell: int) -> tuple[str, str]:
    geo = game.geo
    seat = game.seat_to_move
    name = geo.name(cell)
    what = f"{piece} {name}"
    bit = 1 << cell
    kind = geo.kind(cell)
    is_building = piece in game.buildings

    if piece in game.retired:
        return "colour-retired", f"{what}: {piece} has retired; no {piece} building may be placed again"
    if game.supply[seat][piece] <= 0:
        return "not-in-supply", f"{what}: {game.players[seat]} has no {piece} left"
    if (game.piece_mask(seat, piece) >> cell) & 1:  # fits the board: only the turn forbids it
        return _turn_level(game, piece, cell, what)

    if piece == "wall":
        if kind != "ring":
            return "wrong-square", f"{what}: walls go on the wall ring around the city, not on {_square(kind)}"
        if game.walls & bit:
            return "cell-occupied", f"{what}: there is already a wall there"
        anchors = game.walls | geo.towers
        if not geo.orth_of[cell] & anchors:
            return "wall-not-connected", f"{what}: a wall must continue a run from a tower (no wall or tower next to it)"
        if geo.at_least_two_neighbours(anchors) & bit:
            return "wall-gate", f"{what}: it would join two wall runs; every side keeps a gate"
        return _turn_level(game, piece, cell, what)

    if kind != "interior":
        return "wrong-square", f"{what}: a {piece} goes inside the city, not on {_square(kind)}"

    if piece in ("roof", "neutral"):
        palace = game.palace_at.get(cell)
        if palace is None or not palace.buildings & bit:
            return "roof-not-on-building", f"{what}: a roof must go on a building"
        if palace.owner is not None:
            return "roof-on-roofed-palace", f"{what}: the {palace.colour} palace there already has a roof"
        if not game.board_mask(piece) & bit:
            return "roof-on-blocked-palace", (f"{what}: the {palace.colour} palace there can take no more buildings, "
                                              "and this ruleset does not let a blocked palace be roofed")
        if piece == "roof" and palace.colour in game.owned[seat]:
            return "roof-colour-owned", (f"{what}: {game.players[seat]} already owns a {palace.colour} palace "
                                         "(one roof per colour)")
        return _turn_level(game, piece, cell, what)

    if game.occupied & bit:
        occupant = "the well" if cell == game.well else "a piece"
        return "cell-occupied", f"{what}: {name} already holds {occupant}"

    if is_building or piece == "stable":
        if game.well_zone & bit:
            return "well-zone", f"{what}: no building or stable on the well or next to it"
        if piece == "stable" and not game.building_orth & bit:
            return "stable-not-adjacent", f"{what}: a stable must touch a building orthogonally"
        if is_building:
            palace = game.open_palace[piece]
            if palace is not None and game.board_mask(piece) & palace.building_orth:
                if not palace.building_orth & bit:
                    first = geo.name(next(bits(palace.buildings)))
                    return "building-not-adjacent", (
                        f"{what}: the unfinished {piece} palace at {first} can still grow, so a {piece} "
                        "building must extend it (orthogonally next to one of its buildings)")
        if game.reach_once & bit:
            return "spacing", (f"{what}: too close to another palace (palaces may not touch, "
                               "not even diagonally)")
        return _turn_level(game, piece, cell, what)

    if piece == "merchant":
        two_plus = geo.at_least_two_neighbours(game.merchants)
        if two_plus & bit:
            return "merchant-two-neighbours", f"{what}: a merchant may not touch two or more merchants"
        ends = game.live_chain_ends()
        chain_open = bool(geo.orth(ends) & geo.interior & ~game.occupied & ~two_plus)
        end_names = " and ".join(geo.name(c) for c in bits(ends))
        if chain_open:
            return "merchant-not-at-chain-end", (f"{what}: a merchant must extend an end of the merchant "
                                                 f"chain (ends: {end_names})")
        return "merchant-new-chain", (f"{what}: the chain cannot grow, so a new chain starts, but its first "
                                      "merchant may not touch other merchants")
    return _turn_level(game, piece, cell, what)


def _turn_level(game, piece: str, cell: int, what: str) -> tuple[str, str]:
    """The piece fits the board; what forbids it is the turn (a forced roof)."""
    in_base = any(p == piece and (m >> cell) & 1 for p, m in game.piece_masks(game.seat_to_move))
    if in_base and game.forced:
        return "forced-roof", (f"{what}: {game.players[game.seat_to_move]} must place one of his roofs this turn "
                               f"({_forced_reason(game)})")
    return "not-legal", f"{what}: not a legal placement here"


def _forced_reason(game) -> str:
    if game.rules.turns.forced_roof == "only_player_with_roofs":
        return "he is the only player still holding roofs"
    if game.rules.turns.forced_roof == "only_player_with_pieces":
        return "he is the only player still holding pieces"
    return "he is the only player who can still place"


def _square(kind: str) -> str:
    return {"ring": "the wall ring", "tower": "a tower", "interior": "an interior cell"}[kind]
