"""`mcts`, `mcts:N`, `mcts@C`, `mcts:N@C`: Monte Carlo tree search that searches until it is sure of
its best move at confidence C (0.95 by default), with at most N playouts per decision (3,000 by
default).

The distinct moves at the root race (race.py): each is sampled in batches, and a batch is a UCT
search of the position after the move, from a fresh tree, one playout per sample. In the tree a
turn's two placements are two levels, both the mover's; each node is scored from the side of the
player who made the placement into it (half the win share, half the squashed final margin); a node's
children are added one by one as it is visited more (progressive widening), best first by the greedy
rating. Playouts follow a cheap policy that beats uniform play (`position.playout`). Sample k of every
move draws all its random choices from stream k (common random numbers). The same seed, cap and
confidence give the same choices.
"""

from __future__ import annotations

import math

from .base import Agent, AgentSpec, Rating
from .position import (
    PLAYOUT_TEA_CHANCE,
    SMALL_PALACE,
    NativePosition,
    as_move,
    as_placement,
    margin,
    outcome,
    playout,
    position_stream,
    reward,
    search_position,
    seat_to_move,
    stream,
    totals,
)
from .race import Arm, Race, z_value
from .simple import immediate_margins

DEFAULT_PLAYOUTS = 3000  # the cap on playouts per decision
DEFAULT_CONFIDENCE = 0.95
EXPLORATION = 0.5  # UCB constant for rewards in [0, 1]
WIDENING = 1.0  # a node with n visits may have 1 + WIDENING * sqrt(n) children


class Node:
    __slots__ = ("children", "mover", "placement", "reward", "untried", "visits")

    def __init__(self, placement, mover: int):
        self.placement = placement
        self.mover = mover  # the seat that made `placement`
        self.visits = 0
        self.reward = 0.0
        self.children: list[Node] = []
        self.untried: list | None = None  # placements not added yet, the best last


def play_batch(position, move, start: int, stop: int, key: int) -> list[tuple[float, float]]:
    """Samples start..stop-1 of `move` at `position`: (the mover's final margin, the mover's win share)
    of each. They come from a UCT search of the position after `move` on a fresh tree, grown by one
    playout per sample; sample k draws from stream (key, k). On a NativePosition the native core runs
    the whole search, with the same samples as `_searched`, which plays it on any position."""
    if isinstance(position, NativePosition):
        return position.state.search_samples(
            move, key, start, stop, EXPLORATION, WIDENING, PLAYOUT_TEA_CHANCE, SMALL_PALACE
        )
    return _searched(position, move, start, stop, key)


def _searched(position, move, start: int, stop: int, key: int) -> list[tuple[float, float]]:
    """play_batch's search, step by step in Python (the reference for the native core's)."""
    mover = seat_to_move(position)
    after = position.copy()
    after.push(move)
    root = Node(move, mover)
    out: list[tuple[float, float]] = []
    for k in range(start, stop):
        scores, shares = _iterate(after, root, stream(key, k))
        out.append((margin(scores, mover), shares[mover]))
    return out


def play_batches(position, key: int, batches: list[tuple]) -> list[list[tuple[float, float]]]:
    """The samples of each batch (move, start, stop) of the search keyed `key` at `position` (a game, or
    the native core's copy of one), in order."""
    return [play_batch(position, move, start, stop, key) for move, start, stop in batches]


def _iterate(start, root: Node, rng) -> tuple[list[int], list[float]]:
    """One sample: down the tree from `root` (at position `start`) to a new node, a playout to the end,
    the result recorded along the path."""
    game = start.copy()
    path = [root]
    node = root
    while not game.is_over():
        child = _select(node, game, rng)
        game.push(child.placement)
        path.append(child)
        node = child
        if child.visits == 0:
            break
    if not game.is_over():
        playout(game, rng)
    scores, shares = outcome(game)
    rewards = {}  # by mover: a path's nodes have one or two
    for visited in path:
        mover = visited.mover
        if mover not in rewards:
            rewards[mover] = reward(margin(scores, mover), shares[mover])
        visited.visits += 1
        visited.reward += rewards[mover]
    return scores, shares


def _select(node: Node, game, rng) -> Node:
    if node.untried is None:
        node.untried = [p for p, _ in reversed(immediate_margins(game, rng))]
    if node.untried and len(node.children) < 1 + WIDENING * math.sqrt(node.visits):
        child = Node(node.untried.pop(), seat_to_move(game))
        node.children.append(child)
        return child
    log_n = math.log(node.visits)
    best, best_value = None, -math.inf
    for child in node.children:  # the first of the highest upper bounds
        value = child.reward / child.visits + EXPLORATION * math.sqrt(log_n / child.visits)
        if value > best_value:
            best, best_value = child, value
    assert best is not None  # a node selected from has children
    return best


class MctsAgent(Agent):
    rates = True
    estimates = True
    ranked_by = "playouts"
    confidence: float

    def __init__(
        self, seed: int | str = 0, playouts: int | None = None, confidence: float | None = None
    ):
        self.playouts = playouts or DEFAULT_PLAYOUTS
        self.confidence = confidence or DEFAULT_CONFIDENCE
        self.spec = str(AgentSpec("mcts", playouts, confidence))
        super().__init__(seed)

    def _choose(self, game):
        race = self.search(game)
        return race.placement(race.best)

    def search(self, game, *, include=None, play=None) -> Race:
        """The finished race of the distinct moves at `game` (which it leaves as it was), considered in the
        greedy rating's order (equal ratings in an order fixed by the position). `include`: a
        placement whose move races too whatever the cap; `play(game, key, batches)`: how the batches
        (move, start, stop) of the search keyed `key` are made, their samples in the batches' order
        (default `play_batches`, here and in order)."""
        now = margin(totals(game), seat_to_move(game))
        position = search_position(game, self.rng)  # the native core's copy where it runs
        arms = [
            Arm(move, value > now)
            for move, value in immediate_margins(position, position_stream(game))
        ]
        key = self.rng.getrandbits(64)
        runner = play or play_batches
        race = Race(
            arms,
            cap=self.playouts,
            confidence=self.confidence,
            play=lambda batches: runner(position, key, batches),
            placement=lambda move: as_placement(position, move),
        )
        included = None
        if include is not None:
            move = as_move(position, game.equivalent_placements(include)[0])
            included = next(arm for arm in arms if arm.move == move)
        race.run(included)
        return race

    def _rate(self, game, *, include=None) -> list[Rating]:
        """Every move the race sampled, the most searched first (the race's choice first), each with its
        mean margin and win share, the interval of the margin at the agent's confidence, and whether the
        best beats it significantly (`tied`: it does not)."""
        return ratings(self.search(game, include=include), self.confidence)


def ratings(race: Race, confidence: float) -> list[Rating]:
    """The race's moves as Ratings, the most searched first."""
    z, floor, tied = z_value(confidence, two_sided=True), race.pooled_sd(), race.tied()
    return [
        Rating(
            race.placement(arm),
            arm.mean,
            arm.win,
            arm.n,
            interval=arm.interval(z, floor),
            tied=id(arm) in tied,
        )
        for arm in race.ranked()
    ]
