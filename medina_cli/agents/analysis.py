"""Hints (the best placements for the player to move) and whole-game analysis (every placement
rated against the agent's preferred one), with the agent's value: the mover's expected final
margin over the best other player, in points."""

from __future__ import annotations

from dataclasses import dataclass

from .base import Rating
from .specs import make_agent
from .position import new_game, record_placements, roof_palace

MISTAKE = 5.0  # a loss of at least this many points of expected margin is a mistake (the estimates of a
# placement at the default budget vary by about 2-3 points: a smaller loss is within the noise)
BLUNDER = 12.0  # ... and of at least this many a blunder


def hints(game, spec: str, *, seed: int = 0, top: int = 5) -> list[Rating]:
    """The agent's `top` moves for the player to move, in its order of preference (its `ranked_by`),
    a roof naming the palace it claims."""
    rated = make_agent(spec, seed).rate(game)[:top]
    for rating in rated:
        rating.palace = roof_palace(game, rating.placement)
    return rated


@dataclass
class PlacementReview:
    turn: int
    placement: int  # 1 or 2 within the turn
    player: str
    played: str
    best: str
    loss: float  # expected margin lost by `played` against `best`, in points, >= 0
    played_value: float
    best_value: float
    choices: int  # legal placements there

    def to_json(self) -> dict:
        return {"turn": self.turn, "placement": self.placement, "player": self.player, "played": self.played,
                "best": self.best, "loss": round(self.loss, 2), "played_value": round(self.played_value, 2),
                "best_value": round(self.best_value, 2), "choices": self.choices}


@dataclass
class PlayerSummary:
    player: str
    placements: int
    mean_loss: float
    mistakes: int
    blunders: int

    def to_json(self) -> dict:
        return {"player": self.player, "placements": self.placements, "mean_loss": round(self.mean_loss, 2),
                "mistakes": self.mistakes, "blunders": self.blunders}


def review_position(game, played, spec: str, seed) -> tuple[Rating, Rating, int]:
    """(the agent's best, the played placement's rating, number of legal placements) at `game`; the
    best is named as played when it is the same move (a roof on the same palace)."""
    choices = len(game.legal_placements())
    if len(game.distinct_placements()) == 1:
        only = Rating(played, 0.0)
        return only, only, choices
    same = game.equivalent_placements(played)
    ratings = make_agent(spec, seed).rate(game, include=played)
    mine = next(r for r in ratings if r.placement in same)
    mine = Rating(played, mine.value, mine.win, mine.playouts)
    best = mine if ratings[0].placement in same else ratings[0]
    return best, mine, choices


def review_placements(context: tuple, start: int, stop: int) -> list[PlacementReview]:
    """Worker entry: review placements `start..stop-1` of the record in `context` (record, agent spec,
    seed), each seeded by its index, so the result does not depend on how the work is split."""
    record, spec, seed = context
    placements = record_placements(record)
    game = new_game(record)
    for *_, placement in placements[:start]:
        game.push(placement)
    out = []
    for index in range(start, stop):
        turn, k, player, played = placements[index]
        best, mine, choices = review_position(game, played, spec, f"{seed}/{index}")
        loss = 0.0 if best is mine else max(0.0, best.value - mine.value)
        out.append(PlacementReview(turn, k, player, str(played), str(best.placement), loss, mine.value,
                                   best.value, choices))
        game.push(played)
    return out


def summarise(players: list[str], reviews: list[PlacementReview]) -> list[PlayerSummary]:
    out = []
    for player in players:
        losses = [r.loss for r in reviews if r.player == player]
        out.append(PlayerSummary(player, len(losses), sum(losses) / len(losses) if losses else 0.0,
                                 sum(MISTAKE <= x < BLUNDER for x in losses), sum(x >= BLUNDER for x in losses)))
    return out


VALUE_MEANING = ("the final margin the mover can expect (own total minus the best other player's, in points); "
                 "win: the estimated chance to win")
GREEDY_MEANING = "the mover's margin (own total minus the best other player's) if the game ended right after"


def value_meaning(spec: str) -> str:
    return GREEDY_MEANING if spec == "greedy" else VALUE_MEANING


RANKING_MEANING = {  # how `medina hint` words an agent's `ranked_by`
    "playouts": "the most searched first, the search's choice: it spends its playouts on the moves it rates "
                "best, and a little-searched move's value rests on few games",
    "value": "the highest first"}


def analysis_document(record, spec: str, seed: int, reviews: list[PlacementReview]) -> dict:
    """The medina-analyse/1 document of a record's reviews."""
    return {"format": "medina-analyse/1", "file": record.file, "agent": spec, "seed": seed,
            "value": value_meaning(spec), "thresholds": {"mistake": MISTAKE, "blunder": BLUNDER},
            "placements": [r.to_json() for r in reviews],
            "players": [p.to_json() for p in summarise(record.players, reviews)]}
