"""The static evaluation of a position on the Python engine: the same numbers as the native core's
`State.evaluate` (search.h's `evaluate`), for the searches that run where the core does not."""

from __future__ import annotations

from ..engine.position import NEUTRAL
from ..engine.scoring import palace_score
from .params import SearchParams
from .position import totals


def evaluate(game, params: SearchParams) -> list[float]:
    """Each seat's value of `game` in points: its total now, plus `params.open_share` of the points of
    every unroofed palace (its tiles included) for the first seat in turn order (the mover first) that
    holds a roof and owns no palace of its colour, plus `params.roof_in_hand` for each roof it can still
    use (one of a colour it owns no palace of). Once the game is over: the totals."""
    values = [float(total) for total in totals(game)]
    mover = game.seat_to_move
    if mover is None:
        return values
    players, variant = len(values), game.variant
    owned: list[set[str]] = [set() for _ in range(players)]
    for palace in game.palaces:
        if palace.owner is not None and palace.owner != NEUTRAL:
            owned[palace.owner].add(palace.colour)
    roofs = [supply["roof"] for supply in game.supply]
    colour_values = {colour.name: colour.value for colour in game.rules.colours}
    for palace in game.palaces:
        if palace.owner is not None:
            continue
        for k in range(players):
            seat = (mover + k) % players
            if roofs[seat] <= 0 or palace.colour in owned[seat]:
                continue
            score = palace_score(
                game.rules,
                variant.geometry,
                palace,
                game.merchants,
                game.walls,
                game.well_bonus_cells,
            )
            points = score.points
            if game.palace_tile[palace.colour] is palace:
                points += colour_values[palace.colour]
            points += sum(tower for tower, holder in game.tower_tile.items() if holder is palace)
            values[seat] += params.open_share * points
            break
    for seat in range(players):
        usable = min(roofs[seat], len(variant.colours) - len(owned[seat]))
        values[seat] += params.roof_in_hand * usable
    return values
