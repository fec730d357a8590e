/* The agents' native search (search.c): a static evaluation of a position, and a Monte Carlo tree search
 * over one tree per decision whose nodes are positions (transpositions share them), grown by progressive
 * widening in greedy's order, with short informed rollouts ended by the evaluation and max-n backups.
 * Plain C on core.h; `_core.c` wraps it. Every tuning constant comes from the caller
 * (medina_cli/agents/mcts.py says how each was chosen). */
#ifndef MEDINA_SEARCH_H
#define MEDINA_SEARCH_H

#include "core.h"

typedef struct {
    double exploration;   /* UCB constant, on rewards in [0, 1] */
    double widening;      /* a node with n visits may have 1 + widening * sqrt(n) children */
    int rollout;          /* placements a rollout plays before the evaluation ends it */
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

/* One root move's statistics: visits of the position after it, and the mean reward and mean margin (the
 * root mover's evaluation minus the best other seat's) over them. */
typedef struct {
    int move, visits;
    double reward, margin;
} RootMove;

/* A search of `root` (a position where someone is to move) seeded with `seed`: `iterations` descents (or
 * until `seconds` of wall clock have passed, where > 0), `interrupted` asked every 256 descents (may be
 * NULL). Writes the root moves tried, most visited first, to `out` (room for every distinct move) and
 * their count to *count, the descents made to *done, each seat's mean margin over them to root_margin.
 * Returns 0, SEARCH_NO_PLACEMENT, SEARCH_NO_MEMORY or SEARCH_INTERRUPTED. */
int mcts_search(const Variant *v, const State *root, uint64_t seed, int64_t iterations, double seconds,
                const SearchParams *p, int (*interrupted)(void), RootMove *out, int *count, int64_t *done,
                double *root_margin);

#endif
