"""Scoring a position: owned palaces, merchants, walls, the well bonus, palace and tower tiles."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from .board import Geometry, bits
from .position import NEUTRAL, Palace, Position

if TYPE_CHECKING:
    from ..rules.typed import Rules
    from .game import Game

Json = dict[str, Any]  # a JSON object, as a --json document holds it


@dataclass
class PalaceScore:
    colour: str
    pieces: int  # mask of its buildings and stables
    geo: Geometry = field(repr=False)
    buildings: int
    stables: int
    merchants: int
    walls: int
    well: int  # bonus points
    size: int
    claim_order: int | None

    @property
    def points(self) -> int:
        return self.buildings + self.stables + self.merchants + self.walls + self.well

    @property
    def cells(self) -> list[str]:
        """Its buildings and stables, north row first, west to east (named only when shown)."""
        geo = self.geo
        return [
            geo.name(c)
            for c in sorted(bits(self.pieces), key=lambda c: (-(c // geo.width), c % geo.width))
        ]

    def to_json(self) -> Json:
        return {
            "colour": self.colour,
            "cells": self.cells,
            "buildings": self.buildings,
            "stables": self.stables,
            "merchants": self.merchants,
            "walls": self.walls,
            "well": self.well,
            "points": self.points,
        }

    def __repr__(self) -> str:
        """Its cells by name, not its mask of 2**N: `PalaceScore(colour='grey', cells=['C4', 'C3'], ...)`."""
        shown = {**self.to_json(), "size": self.size, "claim_order": self.claim_order}
        return f"PalaceScore({', '.join(f'{key}={value!r}' for key, value in shown.items())})"


@dataclass
class PlayerScore:
    name: str
    palaces: list[PalaceScore] = field(default_factory=list)
    palace_tiles: list[str] = field(default_factory=list)
    tower_tiles: list[int] = field(default_factory=list)
    tile_points: int = 0

    @property
    def total(self) -> int:
        return sum(p.points for p in self.palaces) + self.tile_points

    def to_json(self) -> Json:
        return {
            "name": self.name,
            "total": self.total,
            "palaces": [p.to_json() for p in self.palaces],
            "palace_tiles": self.palace_tiles,
            "tower_tiles": self.tower_tiles,
        }


@dataclass
class ScoreSheet:
    ruleset: str
    finished: bool
    players: list[PlayerScore]
    winners: list[str]
    undetermined: list[Json] = field(default_factory=list)

    @property
    def totals(self) -> dict[str, int]:
        """Each player's total: {"Anna": 37, ...}."""
        return {p.name: p.total for p in self.players}

    def to_json(self) -> Json:
        return {
            "format": "medina-score/1",
            "ruleset": self.ruleset,
            "finished": self.finished,
            "players": [p.to_json() for p in self.players],
            "undetermined": self.undetermined,
            "winners": self.winners,
        }


def palace_score(
    rules: Rules, geo: Geometry, palace: Palace, merchants: int, walls: int, well_bonus_cells: int
) -> PalaceScore:
    pieces = palace.buildings | palace.stables
    around = geo.orth(pieces)
    merchant_touch = geo.orth(
        pieces if rules.scoring.merchants_touching_stables else palace.buildings
    )
    return PalaceScore(
        colour=palace.colour,
        pieces=pieces,
        geo=geo,
        buildings=palace.buildings.bit_count(),
        stables=palace.stables.bit_count(),
        merchants=(merchant_touch & merchants).bit_count(),
        walls=(around & walls).bit_count(),
        well=rules.well.bonus * (pieces & well_bonus_cells).bit_count(),
        size=pieces.bit_count(),
        claim_order=palace.claim_order,
    )


def score_position(
    position: Position, *, finished: bool, undetermined: Sequence[Json] = ()
) -> ScoreSheet:
    """Score every player of `position` (the tiles a board/1 file leaves `undetermined` counted for nobody)."""
    rules, geo = position.rules, position.variant.geometry
    merchants, walls, well_bonus_cells = (
        position.merchants,
        position.walls,
        position.well_bonus_cells,
    )
    sheet = [PlayerScore(name) for name in position.players]
    colour_order = rules.colour_names
    for palace in sorted(position.palaces, key=lambda p: (colour_order.index(p.colour), p.id)):
        if palace.owner is not None and palace.owner != NEUTRAL:
            sheet[palace.owner].palaces.append(
                palace_score(rules, geo, palace, merchants, walls, well_bonus_cells)
            )
    palace_tiles, tower_tiles = tile_holders(position)
    values = {c.name: c.value for c in rules.colours}
    for colour in rules.colour_names:
        holder = palace_tiles.get(colour)
        if holder is not None and holder != NEUTRAL:
            sheet[holder].palace_tiles.append(colour)
            sheet[holder].tile_points += values[colour]
    for tower in sorted(tower_tiles):
        holder = tower_tiles[tower]
        if holder is not None and holder != NEUTRAL:
            sheet[holder].tower_tiles.append(tower)
            sheet[holder].tile_points += tower
    winners = [] if undetermined else winners_of(rules.scoring.tiebreak, sheet)
    return ScoreSheet(rules.ruleset_id, finished, sheet, winners, list(undetermined))


def winners_of(tiebreak: str, sheet: list[PlayerScore]) -> list[str]:
    best = max(p.total for p in sheet)
    tied = [p for p in sheet if p.total == best]
    if tiebreak == "largest_palace_then_earliest_claim" and len(tied) > 1:

        def strength(player: PlayerScore) -> tuple[int, float]:
            largest = max((p.size for p in player.palaces), default=0)
            earliest = min(
                (
                    p.claim_order
                    for p in player.palaces
                    if p.size == largest and p.claim_order is not None
                ),
                default=float("inf"),
            )
            return (-largest, earliest)

        top = min(strength(p) for p in tied)
        tied = [p for p in tied if strength(p) == top]
    return [p.name for p in tied]


def tile_holders(position: Position) -> tuple[dict[str, int | None], dict[int, int | None]]:
    """Who holds each palace and tower tile: seat index, NEUTRAL or None."""
    return (
        {c: (p.owner if p else None) for c, p in position.palace_tile.items()},
        {t: (p.owner if p else None) for t, p in position.tower_tile.items()},
    )


def score_game(game: Game) -> ScoreSheet:
    """The score sheet of a game's current position (final if the game is over)."""
    return score_position(game, finished=game.is_over())


class Outcome(NamedTuple):
    """How a finished game ended (`Game.outcome()`): its `winners` (one name, several on a shared win)
    and every player's final `totals`."""

    winners: tuple[str, ...]
    totals: dict[str, int]

    @property
    def winner(self) -> str | None:
        """The one winner; None on a shared win."""
        return self.winners[0] if len(self.winners) == 1 else None


def outcome_of(game: Game) -> Outcome | None:
    """A game's `Outcome` once it is over, else None."""
    if not game.is_over():
        return None
    sheet = score_game(game)
    return Outcome(tuple(sheet.winners), sheet.totals)


def standings(sheets: list[ScoreSheet]) -> list[Json]:
    """Per player name over several games: games played, wins alone, shared wins and points; the most
    wins first, then shared wins, then points."""
    table: dict[str, Json] = {}
    for sheet in sheets:
        for player in sheet.players:
            row = table.setdefault(
                player.name,
                {"player": player.name, "games": 0, "wins": 0, "shared_wins": 0, "points": 0},
            )
            row["games"] += 1
            row["points"] += player.total
            if player.name in sheet.winners:
                row["wins" if len(sheet.winners) == 1 else "shared_wins"] += 1
    return sorted(
        table.values(), key=lambda r: (-r["wins"], -r["shared_wins"], -r["points"], r["player"])
    )
