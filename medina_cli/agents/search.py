"""The tree search the agents share: one Monte Carlo tree per decision whose nodes are positions (the two
orders of a turn's placements, and any lines that meet, share one node), grown in greedy's order by
progressive widening, each descent ended by a rollout and the evaluation, and backed up as max-n (every
seat's reward in every node; each seat picks by its own).

`search(game, seed, iterations)` runs it on the native core (search.c) where it runs, else the same
algorithm in Python on the Python engine (slow; the same choice where one move is clearly best, not the
same numbers: the two draw their random numbers differently). The same engine, position, seed and budget
give the same result on any machine; a budget in seconds does not.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import astuple, dataclass, field

from ..engine import native
from ..engine.board import bits
from ..engine.placement import Placement
from ..engine.playout import nth_bit
from .base import Agent, AgentSpec, Rating
from .evaluation import evaluate
from .params import DEFAULT_PARAMS, SearchParams
from .position import outcome
from .simple import immediate_margins


@dataclass(frozen=True)
class RootMove:
    """A move at the root of a search: the visits of the position after it, and over them the mover's mean
    reward (in [0, 1]) and mean margin (the mover's value minus the best other seat's, in points)."""

    placement: Placement
    visits: int
    reward: float
    margin: float


@dataclass(frozen=True)
class SearchResult:
    """The root moves a search tried, the most visited first (its choice), the descents it made, and each
    seat's mean margin over them (the position's value to each seat)."""

    moves: list[RootMove]
    iterations: int
    margins: list[float]


def search(
    game,
    seed: int,
    iterations: int,
    seconds: float = 0.0,
    params: SearchParams = DEFAULT_PARAMS,
) -> SearchResult:
    """Search `game` (someone to move) with `iterations` descents, or until `seconds` have passed where
    > 0, its random choices drawn from `seed` (0 <= seed < 2**64)."""
    state = native.state_of(game)
    if state is None:
        return _search(game.copy(), seed, iterations, seconds, params)
    found, done, margins = state.mcts(seed, iterations, seconds, astuple(params))
    decode = game.variant.decode
    return SearchResult(
        [RootMove(decode(move), visits, reward, margin) for move, visits, reward, margin in found],
        done,
        margins,
    )


# Descents a decision (each ends in one playout): 0.21 s of CPU on average (at most 0.43 s) with the native
# core on 55 positions of four-player original-2001 games between greedy players, the budget of
# 0.25 s a decision (2 000 at 0.14 s in two-player second-edition-2014 games)
DEFAULT_PLAYOUTS = 2000


MAX_PLAYOUTS = 10_000_000  # a decision's descents, a time budget's too (about 20 minutes native)
DEFAULT_CONFIDENCE = 0.95  # of hint's and analyse's intervals and verdicts (turn 3's)


class MctsAgent(Agent):
    """`mcts`, `mcts:N`, `mcts:Ts`: `search` with N descents a decision (DEFAULT_PLAYOUTS), or as many as
    T seconds of the clock allow (not reproducible: the count depends on the machine and its load; at
    most MAX_PLAYOUTS, and a native search stops once its tree holds 512 MB); it plays the most visited
    move. `confidence` (`mcts@C`) is that of hint's and analyse's intervals: play does not use it."""

    rates = True
    estimates = True
    ranked_by = "playouts"
    confidence: float

    def __init__(
        self,
        seed: int | str = 0,
        playouts: int | None = None,
        confidence: float | None = None,
        seconds: float | None = None,
    ):
        self.playouts = playouts or (MAX_PLAYOUTS if seconds else DEFAULT_PLAYOUTS)
        self.seconds = seconds or 0.0
        self.confidence = confidence or DEFAULT_CONFIDENCE
        self.spec = str(AgentSpec("mcts", playouts, confidence, seconds))
        super().__init__(seed)

    def search(self, game) -> SearchResult:
        return search(game, self.rng.getrandbits(64), self.playouts, self.seconds)

    def _choose(self, game):
        return self.search(game).moves[0].placement

    def _rate(self, game, *, include=None) -> list[Rating]:
        """The root moves of one search, the most visited first, each with its mean margin (`value`), its
        mean reward (`win`: half the win share, half the squashed margin, not a probability) and its visits
        (`playouts`). `include`: where the search did not try its move, that move follows, valued by a
        search of the position after it (an eighth of the budget)."""
        result = self.search(game)
        rated = [
            Rating(move.placement, move.margin, move.reward, move.visits) for move in result.moves
        ]
        if include is not None:
            same = game.equivalent_placements(include)
            if not any(rating.placement in same for rating in rated):
                rated.append(self._after(game, same[0]))
        return rated

    def _after(self, game, placement) -> Rating:
        mover = game.seat_to_move
        after = game.copy()
        after.push(placement)
        if after.is_over():
            scores, shares = outcome(after)
            margin = scores[mover] - max(scores[:mover] + scores[mover + 1 :])
            return Rating(placement, float(margin), shares[mover], 0)
        budget = max(1, self.playouts // 8)
        found = search(after, self.rng.getrandbits(64), budget, self.seconds / 8)
        return Rating(placement, found.margins[mover], None, found.iterations)


# --- the same search on the Python engine (search.c's steps, in its order) -------------------------
@dataclass
class _Node:
    seats: int
    visits: int = 0
    edges: list[list] | None = None  # [placement, child key or None], greedy's best first
    reward: list[float] = field(default_factory=list)
    margin: list[float] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.reward = [0.0] * self.seats
        self.margin = [0.0] * self.seats


def _search(game, seed: int, iterations: int, seconds: float, params: SearchParams) -> SearchResult:
    rng = random.Random(seed)
    seats = len(game.players)
    mover = game.seat_to_move
    nodes: dict = {}
    root = nodes.setdefault(game.key(), _Node(seats))
    deadline = time.monotonic() + seconds if seconds > 0 else None
    done = 0
    while done < iterations and not (
        deadline and done and done % 16 == 0 and time.monotonic() > deadline
    ):  # as search.c: the clock read every 16 descents
        path, pushed, node = [root], 0, root
        while game.seat_to_move is not None and (node.visits or node is root):
            if node.edges is None:
                node.edges = [
                    [placement, None] for placement, _ in immediate_margins(game, rng, params.small)
                ]
            edge = _select(node, nodes, game.seat_to_move, params)
            game.push(edge[0])
            pushed += 1
            if edge[1] is None:
                edge[1] = game.key()
            node = nodes.setdefault(edge[1], _Node(seats))
            path.append(node)
        after = game.copy() if game.seat_to_move is not None else game
        _rollout(after, rng, params)
        values = evaluate(after, params)
        margins = [values[q] - max(values[:q] + values[q + 1 :]) for q in range(seats)]
        rewards = [1 / (1 + math.exp(-m / params.temperature)) for m in margins]
        if after.seat_to_move is None:  # the game's end: half the reward is the win share
            shares = outcome(after)[1]
            rewards = [0.5 * r + 0.5 * share for r, share in zip(rewards, shares, strict=True)]
        for visited in path:
            visited.visits += 1
            for q in range(seats):
                visited.reward[q] += rewards[q]
                visited.margin[q] += margins[q]
        for _ in range(pushed):
            game.pop()
        done += 1
    moves = []
    for placement, key in root.edges or []:
        child = nodes.get(key) if key is not None else None
        if child is not None and child.visits:
            moves.append(
                RootMove(
                    placement,
                    child.visits,
                    child.reward[mover] / child.visits,
                    child.margin[mover] / child.visits,
                )
            )
    code = game.variant.encode
    moves.sort(key=lambda m: (-m.visits, -m.reward, code(m.placement)))  # search.c's by_visits
    return SearchResult(moves, done, [m / max(1, root.visits) for m in root.margin])


def _select(node: _Node, nodes: dict, seat: int, params: SearchParams) -> list:
    """search.c's select_edge: the first untried edge while widening allows, else the highest bound."""
    assert node.edges
    allowed = min(len(node.edges), int(1 + params.widening * math.sqrt(node.visits)))
    log_n = math.log(max(1, node.visits))
    best, best_value = node.edges[0], -math.inf
    for edge in node.edges[:allowed]:
        child = nodes.get(edge[1]) if edge[1] is not None else None
        if child is None or not child.visits:
            return edge
        value = child.reward[seat] / child.visits + params.exploration * math.sqrt(
            log_n / child.visits
        )
        if value > best_value:
            best, best_value = edge, value
    return best


def _rollout(game, rng: random.Random, params: SearchParams) -> None:
    """search.c's rollout: params.rollout placements greedy's best (with its chance) or uniform among the
    distinct ones, then with params.finish to the end as core.c's informed_playout plays."""
    for _ in range(params.rollout):
        if game.seat_to_move is None:
            return
        if rng.random() < params.greedy:
            game.push(immediate_margins(game, rng, params.small)[0][0])
        else:
            distinct = game.distinct_placements()
            game.push(distinct[rng.randrange(len(distinct))])
    while params.finish and game.seat_to_move is not None:
        _informed_placement(game, rng, params)


def _informed_placement(game, rng: random.Random, params: SearchParams) -> None:
    """One placement of core.c's informed_playout."""
    masks = game.legal_masks()
    if game.can_tea() and (not masks or rng.random() < params.tea_chance):
        game._use_tea()
        return
    roofs = next((cells for piece, cells in masks if piece == "roof"), 0)
    if roofs:
        best = max(bits(roofs), key=lambda c: game._palace_at[c].size)
        if game._palace_at[best].size >= params.small:
            game._play("roof", best)
            return
    seat, orth = game.seat_to_move, game.variant.geometry.orth
    own = other = 0
    for palace in game.palaces:
        if palace.owner == seat:
            own |= palace.pieces
        elif palace.owner is not None and palace.owner >= 0:
            other |= palace.pieces
    own = orth(own)
    other = orth(other) & ~own
    weights = (params.good, params.bad, 1.0)
    parts = []
    for piece, cells in masks:
        scoring = piece in ("stable", "merchant", "wall")
        split = (cells & own, cells & other, cells & ~own & ~other) if scoring else (0, 0, cells)
        parts += [
            (piece, part, weight)
            for part, weight in zip(split, weights, strict=True)
            if part and weight > 0
        ]
    total = sum(weight * part.bit_count() for _, part, weight in parts)
    u = rng.random() * total
    for piece, part, weight in parts:
        n = part.bit_count()
        if u < weight * n:
            game._play(piece, nth_bit(part, min(int(u / weight), n - 1)))
            return
        u -= weight * n
    piece, part, _ = parts[-1]
    game._play(piece, nth_bit(part, part.bit_count() - 1))
