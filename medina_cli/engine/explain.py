"""Plain-words reasons for a placement the generator refuses.

The reasons are the generator's own constraint layers (`medina_cli.engine.constraints`): `explain`
names the first layer of the piece whose mask leaves the cell out, and where none does, the turn
(a forced roof). It returns (code, message); codes are documented in `medina_cli.errors.CODES`.
`explain_none` does the same for a piece that has no legal cell among several (or on the board).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .board import bits
from .constraints import Condition, refusing_layer

if TYPE_CHECKING:
    from .game import Game


def explain(game: Game, piece: str, cell: int) -> tuple[str, str] | None:
    """Why the player to move may not place `piece` on `cell` now; None if he may."""
    if game._is_legal(piece, cell):
        return None
    seat = game.seat_to_move
    assert (
        seat is not None
    )  # a game over refuses every placement before it is explained (`Game._play`)
    what = f"{piece} {game._geo.name(cell)}"
    layer = refusing_layer(game, piece, cell, seat)
    if layer is not None:
        return layer.code, f"{what}: {layer.refusal(game, piece, cell, seat)}"
    return _turn_refusal(game, what)


def _turn_refusal(game: Game, what: str) -> tuple[str, str]:
    """Why the turn refuses `what` (a placement, or a piece) that every rule of the piece allows."""
    seat, forced_roof = game.seat_to_move, game.variant._forced_roof
    if game.forced:
        assert (
            seat is not None and forced_roof is not None
        )  # only a ruleset's trigger forces a roof, in a turn
        return "forced-roof", (
            f"{what}: {game.players[seat]} must place one of his roofs this turn ({forced_roof[1]})"
        )
    return "not-legal", f"{what}: not a legal placement here"


def explain_none(game: Game, piece: str, cells: int | None = None) -> tuple[str, str] | None:
    """Why the player to move may place `piece` on none of `cells` (a mask; None: anywhere on the board):
    the first of its rules that leaves none of them, in `explain`'s words for a cell it takes away (the
    piece alone for a rule that allows every cell or none: a piece used up, a colour retired); None if
    `piece` may go on one of them."""
    seat = game.seat_to_move
    allowed = game._geo.full if cells is None else cells
    if seat is None or not allowed or any(game._is_legal(piece, cell) for cell in bits(allowed)):
        return None
    for layer in game.variant._constraints[piece].layers:
        left = allowed & layer.allows(game, piece, seat if layer.per_seat else None)
        if not left:
            if isinstance(layer, Condition):
                return (
                    layer.code,
                    f"{piece}: {layer.refusal(game, piece, next(bits(allowed)), seat)}",
                )
            return explain(game, piece, next(bits(allowed)))
        allowed = left
    return _turn_refusal(game, piece)
