"""The constants of the agents' evaluation and searches (search.h's SearchParams, in its order)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SearchParams:
    """The constants of `mcts` (search.c's mcts_search) and of the evaluation `alphabeta` searches on.
    The matches named are second-edition-2014 two-player games on shared setups, seats swapped
    (benchmarks/bench_strength.py or the same pairing)."""

    # UCB's constant on rewards in [0, 1]: turn 3's value; 0.3 won 40.0% [28.6, 52.6] of 60 games against
    # it (1,000 playouts each)
    exploration: float = 0.5
    # a node with n visits has at most 1 + widening * sqrt(n) children: turn 3's value, not tuned
    widening: float = 1.0
    # placements before the playout's policy takes over, each greedy's best with the chance `greedy`:
    # none; 8 with the evaluation ending them (finish 0) won 30% of 20 games against turn 3's default
    rollout: int = 0
    greedy: float = 0.5
    # points: a reward is 1 / (1 + exp(-margin / temperature)); tanh(margin / 10) as turn 3 squashed it
    temperature: float = 4.0
    # the evaluation (alphabeta's, and mcts's where a playout does not reach the end): the share of an open
    # palace's points for the seat likely to roof it, a guess; the points of a roof a seat can still use:
    # 9 won 95% of 20 games against greedy where 3 won 30% and 6 90% (a tree search ended by it at once)
    open_share: float = 0.5
    roof_in_hand: float = 9.0
    # greedy's small palace (agents.position.SMALL_PALACE), also where playouts roof the largest palace
    small: int = 5
    # playouts to the end (1), not ended by the evaluation: 2,000 of them won 60% of 20 games against turn
    # 3's default where the evaluation at once (0) won 32.5% of 40
    finish: int = 1
    # a tea tile's chance in playouts where one may replace a placement: turn 3's (PLAYOUT_TEA_CHANCE)
    tea_chance: float = 0.2
    # informed playouts: a stable, merchant or wall next to a palace of the mover weighs `good`, next only
    # to other seats' `bad`, any other placement 1. At 500 playouts (4, 0.25) won 70.0% [54.6, 81.9] of 40
    # games against uniform (1, 1); (10, 0.1) won 45.0% [30.7, 60.2] of 40 against (4, 0.25)
    good: float = 4.0
    bad: float = 0.25


DEFAULT_PARAMS = SearchParams()
