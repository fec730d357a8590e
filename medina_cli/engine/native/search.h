/* The agents' native search (search.c): a static evaluation of a position; a Monte Carlo tree search over
 * one tree per decision whose nodes are positions (transpositions share them), grown in greedy's order by
 * progressive widening, each descent ended by a playout (informed_playout, core.c) or, with `finish` off,
 * by the evaluation after `rollout` placements, backed up as max-n; and a paranoid alpha-beta search on
 * the evaluation. Plain C on core.h; `_core.c` wraps it. Every tuning constant comes from the caller
 * (medina_cli/agents/params.py says how each was chosen). */
#ifndef MEDINA_SEARCH_H
#define MEDINA_SEARCH_H

#include "core.h"

typedef struct {
    double exploration;   /* UCB constant, on rewards in [0, 1] */
    double widening;      /* a node with n visits may have 1 + widening * sqrt(n) children */
    int rollout;          /* placements before the playout (finish) or the evaluation: greedy or uniform */
    double greedy;        /* the chance that a rollout placement is greedy's best (else uniform) */
    double temperature;   /* points: a seat's reward is 1 / (1 + exp(-margin / temperature)) */
    double open_share;    /* the part of an open palace's points credited to the seat likely to roof it */
    double roof_in_hand;  /* points for each roof a seat holds and can still use (a colour it owns no palace of) */
    int small;            /* greedy's small palace: a roof on a smaller one rates below every quiet placement */
    int finish;           /* after the rollout's placements, play to the end as `playout` plays */
    double tea_chance;    /* ... with this chance of a tea tile where one may replace a placement */
    double good, bad;     /* ... a stable, merchant or wall next to the mover's palace weighing `good`, next
                             only to others' `bad`, every other placement 1 (informed_playout) */
} SearchParams;

/* Each seat's value of a position in points: its total now, plus `open_share` of the points of every
 * unroofed palace for the first seat in turn order (the mover first) that holds a roof and owns no palace
 * of its colour, plus `roof_in_hand` a roof it can still use. At the end of the game: the totals. */
void evaluate(const Variant *v, const State *s, const SearchParams *p, double *out);

/* The search's transposition key: a hash of everything that decides the game from the position on, the same
 * for any order of the placements that led to it (Game.key() in Python is equal exactly when it is). */
uint64_t position_key(const Variant *v, const State *s);

/* One root move's statistics: visits of the position after it, and the mean reward and mean margin (the
 * root mover's evaluation minus the best other seat's) over them. */
typedef struct {
    int move, visits;
    double reward, margin;
} RootMove;

#define SEARCH_MAX_TREE_BYTES ((size_t)512 << 20)  /* a search stops once its tree holds this much */

/* A search of `root` (a position where someone is to move) seeded with `seed`: `iterations` descents (or
 * until `seconds` of wall clock have passed, where > 0, or its tree holds SEARCH_MAX_TREE_BYTES: the memory
 * of a long budget stays bounded), `interrupted` asked every 256 descents (may be NULL). Writes the root moves tried, most visited first, to `out` (room for every distinct move) and
 * their count to *count, the descents made to *done, each seat's mean margin over them to root_margin.
 * Returns 0, SEARCH_NO_PLACEMENT, SEARCH_NO_MEMORY or SEARCH_INTERRUPTED. */
int mcts_search(const Variant *v, const State *root, uint64_t seed, int64_t iterations, double seconds,
                const SearchParams *p, int (*interrupted)(void), RootMove *out, int *count, int64_t *done,
                double *root_margin);

/* A depth-limited paranoid alpha-beta search of `root` (a position where someone is to move): the value of
 * a position is the root seat's evaluation minus the best other seat's, which the root seat maximises
 * and every other seat minimises (the side to move is read from each position: a turn is most often two
 * placements by the same seat), with a finished game valued by its totals (evaluate's). Depth counts
 * placements. Iterative deepening from 1 to `depth` (taken into 1..ALPHABETA_MAX_DEPTH) placements: each
 * iteration searches the root moves best first by the last one (greedy_margins' order, drawing on `r`, at
 * the first) and every other node's best first by greedy_margins. A deeper iteration is abandoned, keeping
 * the last completed one, once more than `max_nodes` nodes have been searched in all (where > 0) or
 * `seconds` of wall clock have passed (where > 0); the first always completes. `interrupted` is asked every
 * 256 nodes (may be NULL). With `exact` every root move is searched with a full window, so every value is
 * exact; else a move's value below the best is an upper bound (the search is cheaper). Writes every
 * distinct root move with its value at the last completed depth, best first (the earlier searched first
 * among equals), to `out` (room for every distinct move), their count to *count, the depth completed to
 * *reached and the nodes searched to *nodes. Deterministic for a given `r` unless `seconds` > 0. Returns
 * 0, SEARCH_NO_PLACEMENT, SEARCH_NO_MEMORY or SEARCH_INTERRUPTED. */
#define ALPHABETA_MAX_DEPTH 12
typedef struct {
    int move;
    double value;
} RatedMove;
int alphabeta_search(const Variant *v, const State *root, Rng *r, int depth, int64_t max_nodes, double seconds,
                     int exact, const SearchParams *p, int (*interrupted)(void), RatedMove *out, int *count,
                     int *reached, int64_t *nodes);

#endif
