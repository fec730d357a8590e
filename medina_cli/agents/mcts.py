"""`mcts` / `mcts:N`: Monte Carlo tree search over placements with N playouts per decision.

UCT over the distinct moves (a turn's two placements are two levels of the tree, both the mover's;
a roof on a palace is one move, whichever of its buildings carries it), each
node scored from the side of the player who made the placement into it: half the win share, half
the squashed final margin (own total minus the best other total). A node's children are added one by
one as it is visited more (progressive widening), best first by the greedy rating, so the search
spends its playouts on the placements that matter. Playouts follow a cheap policy that beats uniform
play (see `position.playout`). The same seed and budget give the same choices.
"""

from __future__ import annotations

import math

from .base import Agent, Rating
from .position import as_move, as_placement, margin, outcome, playout, reward, search_position, seat_to_move
from .simple import immediate_margins

DEFAULT_PLAYOUTS = 300
EXPLORATION = 0.5  # UCB constant for rewards in [0, 1]
WIDENING = 1.0  # a node with n visits may have 1 + WIDENING * sqrt(n) children


class Node:
    __slots__ = ("placement", "mover", "visits", "reward", "margin", "win", "children", "untried")

    def __init__(self, placement, mover: int | None):
        self.placement = placement
        self.mover = mover  # the seat that made `placement`
        self.visits = 0
        self.reward = self.margin = self.win = 0.0
        self.children: list[Node] = []
        self.untried: list | None = None  # placements not added yet, the best last

    def record(self, scores: list[int], shares: list[float]) -> None:
        self.visits += 1
        if self.mover is not None:
            points = margin(scores, self.mover)
            self.margin += points
            self.win += shares[self.mover]
            self.reward += reward(points, shares[self.mover])

    def rating(self) -> Rating:
        n = self.visits or 1
        return Rating(self.placement, self.margin / n, self.win / n, self.visits)


class MctsAgent(Agent):
    rates = True
    ranked_by = "playouts"

    def __init__(self, seed: int | str = 0, playouts: int | None = None):
        self.playouts = playouts or DEFAULT_PLAYOUTS
        self.spec = "mcts" if playouts is None else f"mcts:{playouts}"
        super().__init__(seed)

    def choose(self, game):
        return self.rate(game)[0].placement

    def rate(self, game, *, include=None) -> list[Rating]:
        """The root's children (one per distinct move), most visited first: the search spends its
        playouts on the moves it rates best, so the count is the steadier ranking (a little-searched
        move's value rests on few games). `include`'s move is then searched further until it has a
        fifth of the budget (for a fair estimate of it); the order is the search's before that."""
        position = search_position(game, self.rng)  # the native core's copy where it runs
        root = Node(None, None)
        root.untried = [p for p, _ in reversed(immediate_margins(position, self.rng))]
        for _ in range(self.playouts):
            self._iterate(position, root)
        searched = {id(child): child.visits for child in root.children}
        if include is not None:
            include = as_move(position, game.equivalent_placements(include)[0])
            forced = next((child for child in root.children if child.placement == include), None)
            if forced is None:
                root.untried.remove(include)
                forced = Node(include, seat_to_move(position))
                root.children.append(forced)
            while forced.visits < max(10, self.playouts // 5):
                self._iterate(position, root, forced)
        ranked = sorted(root.children, key=lambda c: (-searched.get(id(c), 0), -c.reward / c.visits))
        ratings = [child.rating() for child in ranked]
        for rating in ratings:
            rating.placement = as_placement(position, rating.placement)
        return ratings

    def _iterate(self, start, root: Node, forced: Node | None = None) -> None:
        game = start.copy()
        path = [root]
        node = root
        while not game.is_over():
            if forced is not None and node is root:
                child = forced
            else:
                child = self._select(node, game)
            game.push(child.placement)
            path.append(child)
            node = child
            if child.visits == 0:
                break
        if not game.is_over():
            playout(game, self.rng)
        scores, shares = outcome(game)
        for visited in path:
            visited.record(scores, shares)

    def _select(self, node: Node, game) -> Node:
        if node.untried is None:
            node.untried = [p for p, _ in reversed(immediate_margins(game, self.rng))]
        if node.untried and len(node.children) < 1 + WIDENING * math.sqrt(node.visits):
            child = Node(node.untried.pop(), seat_to_move(game))
            node.children.append(child)
            return child
        log_n = math.log(node.visits)
        return max(node.children, key=lambda c: c.reward / c.visits + EXPLORATION * math.sqrt(log_n / c.visits))
