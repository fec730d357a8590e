"""What the agents read from a position: the mover, totals and margins, which placements can change
the score at once, and a fast playout policy. The one place that touches engine internals (for speed)."""

from __future__ import annotations

import math
import random

from ..engine.board import bits, geometry_for
from ..engine.placement import TEA, TEA_PLACEMENT, Placement
from ..engine.playout import random_placement, uniform_placement
from ..engine.scoring import score_game

TEA_CHANCE = 0.5  # the `random` agent uses a tea tile this often where allowed (as `medina simulate`)
PLAYOUT_TEA_CHANCE = 0.2
# A roof is scarce (one palace per colour per player): greedy rates a roof on a palace smaller than
# this below every placement that changes nothing, and playouts roof the largest palace once one has
# grown to it. Without it greedy roofs single buildings for their tiles and loses to random play
# (the 2001 edition, 4 players: 9 wins of 80 against 3 random; with it 67 of 80). In playouts against
# random play, roofing at 5 won 50% of 600 games, at 3 (half the time) 36%, at 4 46%, at 6 47%.
SMALL_PALACE = 5


def seat_to_move(game) -> int:
    return game.seat_to_move


def totals(game) -> list[int]:
    """Every seat's total if the game ended now."""
    return [p.total for p in score_game(game).players]


def margin(scores: list[int], seat: int) -> int:
    """`seat`'s total minus the best other total (positive: ahead)."""
    return scores[seat] - max(s for other, s in enumerate(scores) if other != seat)


def outcome(game) -> tuple[list[int], list[float]]:
    """Totals and win shares by seat (a shared win split evenly) of a finished game."""
    sheet = score_game(game)
    shares = [0.0] * len(sheet.players)
    for name in sheet.winners:
        shares[game.players.index(name)] = 1 / len(sheet.winners)
    return [p.total for p in sheet.players], shares


def reward(margin_points: float, win_share: float) -> float:
    """A result in [0, 1] for search: half the win share, half a squashed score margin."""
    return 0.5 * win_share + 0.25 * (1 + math.tanh(margin_points / 10))


def scoring_cells(game) -> int:
    """Cells where a stable, merchant or wall may change the score at once: those next to a roofed
    palace. (A building never changes it; roofs always may.)"""
    geo = game.geo
    pieces = 0
    for palace in game.palaces:
        if palace.owner is not None:
            pieces |= palace.buildings | palace.stables
    return geo.orth(pieces)


def may_score(game, placement, cells: int) -> bool:
    piece = placement.piece
    if piece in ("roof", "neutral"):
        return True
    return piece in ("stable", "merchant", "wall") and bool((cells >> game.geo.cell_of_name[placement.cell]) & 1)


def random_move(game, rng) -> tuple[str, int | None]:
    """Uniform random play, as `medina simulate` plays: a tea tile half the time it is allowed, else a
    placement uniform among the legal ones (tea, too, where a tea tile is all that is left). Returns
    (piece, cell number) or ("tea", None)."""
    if game.can_tea() and (rng.random() < TEA_CHANCE or not game.legal_masks()):
        return TEA, None
    return random_placement(game, rng)


def stream(key: int, k: int) -> random.Random:
    """Random stream `k` of a search keyed `key`: every random choice of its k-th sample of any move
    (common random numbers)."""
    return random.Random(key << 32 | k)


def position_stream(game) -> random.Random:
    """A stream fixed by the position alone (its setup and placements), not by any seed: the order in
    which a search considers moves the greedy rating cannot tell apart."""
    return random.Random(f"medina-position/{game.start_merchant}/{game.well}/{'/'.join(map(str, game.move_stack))}")


def playout(game, rng) -> None:
    """Play `game` to its end by a cheap policy that beats uniform play: where a roof is legal on a
    palace of SMALL_PALACE or more, roof the largest; a tea tile now and then; otherwise uniform among
    the legal placements."""
    palace_at = game.palace_at
    while game.seat_to_move is not None:
        masks = game.legal_masks()
        if game.can_tea() and (not masks or rng.random() < PLAYOUT_TEA_CHANCE):
            game.use_tea()
            continue
        roofs = next((cells for piece, cells in masks if piece == "roof"), 0)
        if roofs:
            best = max(bits(roofs), key=lambda c: palace_at[c].size)
            if palace_at[best].size >= SMALL_PALACE:
                game.play("roof", best)
                continue
        game.play(*uniform_placement(masks, rng))


def placement_of(game, piece: str, cell: int | None) -> Placement:
    """The Placement of an engine (piece, cell number), or tea (piece "tea", cell None)."""
    return TEA_PLACEMENT if piece == TEA else Placement(piece, game.geo.cell_names[cell])


def new_game(record):
    """The start position of a record."""
    from ..engine.game import Game
    return Game(record.rules, record.players, record.merchant, record.well)


def record_placements(record) -> list[tuple[int, int, str, Placement]]:
    """(turn number, placement number within the turn, player, placement) for every placement and
    tea tile of a record, in order (passes left out)."""
    name = geometry_for(record.rules).cell_names
    out = []
    for entry in record.turns:
        placements = [a for a in entry.actions if a.kind != "pass"]
        for k, action in enumerate(placements, 1):
            out.append((entry.number, k, entry.player,
                        TEA_PLACEMENT if action.kind == "tea" else Placement(action.piece, name[action.cell])))
    return out


def roof_palace(game, placement) -> tuple[str, list[str]] | None:
    """For a roof or neutral roof: the colour of the palace it claims and the cells of its buildings
    (any of which may carry it: one move); None for any other placement."""
    if placement.piece not in ("roof", "neutral"):
        return None
    palace = game.palace_at.get(game.geo.cell_of_name.get(placement.cell))
    return None if palace is None else (palace.colour, [p.cell for p in game.equivalent_placements(placement)])


def palace_size(game, placement) -> int:
    """Buildings and stables of the palace a roof placement would close."""
    return game.palace_at[game.geo.cell_of_name[placement.cell]].size
