"""What the agents read from a position: the mover, totals and margins, which placements can change
the score at once, and a fast playout policy. The one place that touches engine internals (for speed)."""

from __future__ import annotations

import math

from ..engine.board import bits
from ..engine.playout import nth_bit, random_placement
from ..engine.scoring import score_game

TEA_CHANCE = 0.5  # uniform random play uses a tea tile this often where allowed (as `medina simulate`)
PLAYOUT_TEA_CHANCE = 0.2
PLAYOUT_ROOF_CHANCE = 0.5
PLAYOUT_ROOF_MIN_SIZE = 3


def seat_to_move(game) -> int:
    return game.to_move


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


def may_score(placement, cells: int) -> bool:
    piece = placement.piece
    if piece in ("roof", "neutral"):
        return True
    return piece in ("stable", "merchant", "wall") and bool((cells >> placement.cell) & 1)


def random_move(game, rng):
    """Today's uniform random play (`medina simulate`): a tea tile half the time it is allowed,
    else a placement uniform among the legal ones. Returns (piece, cell) or ("tea", None)."""
    if game.can_tea() and rng.random() < TEA_CHANCE:
        return "tea", None
    return random_placement(game, rng)


def playout(game, rng) -> None:
    """Play `game` to its end by a cheap policy that beats uniform play: where a roof is legal, half
    the time roof the largest open palace (if it has grown to PLAYOUT_ROOF_MIN_SIZE); a tea tile now
    and then; otherwise uniform among the legal placements."""
    while game.to_move is not None:
        if game.can_tea() and rng.random() < PLAYOUT_TEA_CHANCE:
            game.use_tea()
            continue
        masks = game.legal_masks()
        if rng.random() < PLAYOUT_ROOF_CHANCE:
            roofs = next((cells for piece, cells in masks if piece == "roof"), 0)
            if roofs:
                palace_at = game.palace_at
                best = max(bits(roofs), key=lambda c: palace_at[c].size)
                if palace_at[best].size >= PLAYOUT_ROOF_MIN_SIZE:
                    game.play("roof", best)
                    continue
        pick = rng.randrange(sum(cells.bit_count() for _, cells in masks))
        for piece, cells in masks:
            count = cells.bit_count()
            if pick < count:
                game.play(piece, nth_bit(cells, pick))
                break
            pick -= count


def placement_of(piece: str, cell: int | None):
    from ..engine.game import Placement
    return Placement(piece, cell)


def new_game(record):
    """The start position of a record."""
    from ..engine.game import Game
    return Game(record.rules, record.players, record.merchant, record.well)


def record_placements(record) -> list[tuple[int, int, str, object]]:
    """(turn number, placement number within the turn, player, placement) for every placement and
    tea tile of a record, in order (passes left out)."""
    out = []
    for entry in record.turns:
        placements = [a for a in entry.actions if a.kind != "pass"]
        for k, action in enumerate(placements, 1):
            out.append((entry.number, k, entry.player,
                        placement_of("tea", None) if action.kind == "tea" else placement_of(action.piece, action.cell)))
    return out


def palace_size(game, placement) -> int:
    """Buildings and stables of the palace a roof placement would close."""
    return game.palace_at[placement.cell].size
