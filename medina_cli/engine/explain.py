"""Plain-words reasons for a placement the generator refuses.

The reasons are the generator's own constraint layers (`medina_cli.engine.constraints`): `explain`
names the first layer of the piece whose mask leaves the cell out, and where none does, the turn
(a forced roof). It returns (code, message); codes are documented in `medina_cli.errors.CODES`.
"""

from __future__ import annotations

from .constraints import refusing_layer


def explain(game, piece: str, cell: int) -> tuple[str, str] | None:
    """Why the player to move may not place `piece` on `cell` now; None if he may."""
    if game._is_legal(piece, cell):
        return None
    seat = game.seat_to_move
    what = f"{piece} {game._geo.name(cell)}"
    layer = refusing_layer(game, piece, cell, seat)
    if layer is not None:
        return layer.code, f"{what}: {layer.refusal(game, piece, cell, seat)}"
    if game.forced:
        return "forced-roof", (f"{what}: {game.players[seat]} must place one of his roofs this turn "
                               f"({game.variant._forced_roof[1]})")
    return "not-legal", f"{what}: not a legal placement here"
