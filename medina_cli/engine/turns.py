"""The forced roof (`turns.forced_roof`): when a player must place one of his roofs this turn near
the end of the game, and why, in the words `explain` gives."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .game import Game


def _others_stuck(game: Game, seat: int) -> bool:
    """Can no other player move? (A held tea tile counts as a move where the ruleset says so.)"""
    tea_counts = game.rules.tea.blocks_forced_roof
    for other in range(len(game.players)):
        if other != seat and (game.can_place(other) or (tea_counts and game.tea[other])):
            return False
    return True


def _others_hold_nothing(game: Game, seat: int) -> bool:
    return all(
        not any(game.supply[other].values()) for other in range(len(game.players)) if other != seat
    )


def _only_one_with_roofs(game: Game, seat: int) -> bool:
    supply = game.supply
    return supply[seat]["roof"] > 0 and all(
        supply[other]["roof"] == 0 for other in range(len(game.players)) if other != seat
    )


# turns.forced_roof -> (does it hold for `seat` in `game`?, why, in words); "off": never
FORCED_ROOF = {
    "only_player_who_can_place": (_others_stuck, "he is the only player who can still place"),
    "only_player_with_pieces": (_others_hold_nothing, "he is the only player still holding pieces"),
    "only_player_with_roofs": (_only_one_with_roofs, "he is the only player still holding roofs"),
}
