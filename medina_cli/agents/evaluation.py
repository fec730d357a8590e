"""search.h's evaluate on the Python engine (temporary: the alphabeta branch owns this module)."""

from __future__ import annotations

from ..engine.scoring import palace_score, score_game


def evaluate(game, params) -> list[float]:
    values = [float(p.total) for p in score_game(game).players]
    seat = game.seat_to_move
    if seat is None:
        return values
    seats = len(values)
    supply = game.supply
    for palace in game.palaces:
        if palace.owner is not None:
            continue
        for k in range(seats):
            q = (seat + k) % seats
            if supply[q]["roof"] <= 0 or palace.colour in game._owned[q]:
                continue
            score = palace_score(game.rules, game.variant.geometry, palace, game.merchants, game.walls, game.well_bonus_cells if hasattr(game, "well_bonus_cells") else 0)
            points = score.points
            if game.palace_tile.get(palace.colour) is palace:
                points += game.rules.colour_value(palace.colour) if hasattr(game.rules, "colour_value") else 0
            values[q] += params.open_share * points
            break
    for q in range(seats):
        free = len(game.variant.colours) - len(game._owned[q]) if hasattr(game.variant, "colours") else 0
        values[q] += params.roof_in_hand * min(supply[q]["roof"], free)
    return values
