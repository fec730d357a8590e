/* The native Medina core: positions as fixed-size structs of bitboards, the legal-placement
 * generator, playing a placement, the end of the game and the final scores, and the random
 * generator both engines share (MT19937 seeded and drawn from as CPython's `random` does).
 *
 * Plain C, no Python: `_core.c` wraps it. Every table comes from the caller (the variant compiled
 * from a ruleset by medina_cli.engine.native.tables): nothing here knows an edition. The rules are
 * the Python engine's (medina_cli/engine/game.py, constraints.py, scoring.py), step by step; the
 * differential test (tests/test_native.py) holds the two to identical results. */
#ifndef MEDINA_CORE_H
#define MEDINA_CORE_H

#include <stdint.h>
#include <stddef.h>
#include <string.h>

#ifndef NW
#define NW 4                    /* 64-bit words per bitboard: 4 for boards up to 256 cells (_core), 11 up to
                                   704 (_core_wide: the schema's largest board, 26x26 with the ring) */
#endif
#define MAXCELLS (NW * 64)      /* cells of the largest board held natively (ring included) */
#define MAXC 24                 /* colours (a ruleset's letters allow 23) */
#define MAXP 6                  /* players */
#define FIXED_PIECES 5          /* roof, neutral, stable, merchant, wall: after the colours */
#define MAXPIECES (MAXC + FIXED_PIECES)
#define MAXPAL (NW <= 4 ? 64 : 144)  /* palaces: never more than ceil(cols/2)*ceil(rows/2) (they may not touch) */
/* The largest values the core holds (every one exported by _core as a module constant): a rule value the
 * schema allows beyond them would make the Python engine play that ruleset (tests/test_native.py checks
 * that none does). */
#define MAX_SUPPLY 1000         /* pieces of one kind a player starts with (counts are 16-bit) */
#define MAX_COLOUR_VALUE 1000   /* a colour's palace tile value */
#define MAX_TEA_AWARD 100       /* tea tiles of one claim: MAXPAL claims of it fit a 16-bit tea count */
#define MAX_TOWER_MERCHANTS 100 /* merchants waiting on one tower tile */
#define MAX_PLACEMENTS 100      /* placements a turn (turn_slots is a signed byte) */
#define NONE_PALACE 255         /* palace_at of a cell without a palace: palace ids stay below it */
_Static_assert(MAXPAL < NONE_PALACE, "palace ids must fit palace_at's bytes");
#define UNROOFED (-2)
#define NEUTRAL (-1)

typedef struct { uint64_t w[NW]; } bb;

enum { FORCED_OFF, FORCED_WHO_CAN_PLACE, FORCED_WITH_ROOFS, FORCED_WITH_PIECES };
enum { RECONNECT_ONCE_PER_TOWER, RECONNECT_ONCE_PER_ARM, RECONNECT_EVERY_CONTACT };

typedef struct {
    /* geometry */
    int width, height, size;
    bb full, not_first_col, not_last_col, ring, interior, towers;
    bb orth_of[MAXCELLS], king_of[MAXCELLS];
    int16_t inner_of[MAXCELLS];     /* a ring cell's interior neighbour (-1: none) */
    int8_t tower_of_cell[MAXCELLS]; /* tower number on a corner cell, 0 elsewhere */
    /* pieces */
    int ncol, npieces, roof, neutral, stable, merchant, wall, tea_move;
    int colour_value[MAXC];
    int supply[MAXPIECES];          /* each player's start supply by piece */
    int players;
    /* rules */
    int placements, opening_single;
    int forced_rule, check_after_first, neutral_spares;
    int on_blocked_palace, new_chain_max, reconnect, stable_first_nwse;
    int tower_merchants[5];         /* by tower number; -1: none wait there */
    int tea_colour;                 /* -1: no tea */
    int tea_awards[MAXPAL], ntea_awards;
    int tea_either, tea_keeps_open, tea_blocks_forced;
    int retire_all_own, retire_no_fit;
    int merchants_touch_stables, tiebreak_largest;
    int well_enabled, well_bonus;
} Variant;

typedef struct {
    bb buildings, stables;
    int16_t roof, claim_order;
    int8_t colour, owner;           /* owner: a seat, NEUTRAL or UNROOFED */
    uint8_t connected;              /* arms connected: bit (tower-1)*2 + axis (0 along a row, 1 a column) */
    uint8_t pad;
    int16_t size;                   /* buildings and stables */
} Palace;

typedef struct {
    int8_t seat;                    /* to move; -1 once the game is over */
    int8_t turn_placed, turn_slots, tea_used, forced;
    int16_t npalaces;               /* up to MAXPAL: more than a signed byte holds on the widest boards */
    int16_t turns_started, placements_made, claims, tea_claims;
    int16_t chain_ends[2], well, start_merchant;
    int16_t passes, retirements, forced_roofs, transfers;   /* events counted */
    int16_t open_palace[MAXC], palace_tile[MAXC], tower_tile[5];
    int8_t tower_merchants_left[5];
    uint32_t owned[MAXP], retired;
    int16_t tea[MAXP];
    int16_t supply[MAXP][MAXPIECES];
    bb occupied, merchants, walls, stables, roofed, reach_once, reach_twice, building_orth, all_buildings;
    bb well_zone, well_bonus_cells;
    bb wall_cells;                  /* the walls' board mask (it changes with the walls only) */
    bb merchant_extend, merchant_new;  /* where a merchant may extend the live chain / start a new one, occupancy aside */
    bb buildings[MAXC], open_orth[MAXC];
    uint8_t palace_at[MAXCELLS];
    uint8_t wall_arm[MAXCELLS];
    Palace palaces[MAXPAL];         /* keep last: a copy takes only the palaces in use */
} State;

#define STATE_BYTES(s) (offsetof(State, palaces) + (size_t)(s)->npalaces * sizeof(Palace))

typedef struct {
    uint32_t mt[624];
    int index;
} Rng;

/* the generator (CPython's algorithms) */
void rng_seed(Rng *r, const uint32_t *key, int length);
uint32_t rng_u32(Rng *r);
double rng_random(Rng *r);
uint64_t rng_bits(Rng *r, int k);          /* 0 < k <= 64 */
uint64_t rng_below(Rng *r, uint64_t n);    /* n > 0 */

/* variants and games */
int variant_geometry(Variant *v);   /* row masks and inner_of from the size; -1: the tables disagree */
int variant_palace_bound(int columns, int rows);
void state_start(const Variant *v, State *s, int merchant, int well, const int16_t (*supply)[MAXPIECES]);
void state_copy(State *dst, const State *src);
void legal_masks(const Variant *v, const State *s, bb out[MAXPIECES]);
int can_tea(const Variant *v, const State *s);
int is_legal(const Variant *v, const State *s, int move);
void play_move(const Variant *v, State *s, int move);  /* a legal move */
int legal_count(const Variant *v, const State *s, bb masks[MAXPIECES]);
int distinct_moves(const Variant *v, const State *s, int *out);   /* returns the count */
int legal_moves(const Variant *v, const State *s, int *out);
int playout(const Variant *v, State *s, Rng *r, double tea_chance, int roof_from,
            int16_t *log, int log_size);   /* returns moves played, -1 (no legal placement), -2 (log full) */
int informed_playout(const Variant *v, State *s, Rng *r, double tea_chance, int roof_from, double good, double bad);
int palace_size(const Palace *p);
void totals(const Variant *v, const State *s, int *out);
int palace_points(const Variant *v, const State *s, int id);  /* what palace `id` scores its owner, tiles aside */
int winners(const Variant *v, const State *s, const int *scores, int *out);  /* bitmask of seats */

typedef struct {
    int pieces, merchants, walls, well;       /* palace points by source, over every seat */
    int palace_tiles, tower_tiles;
} Sources;
void score_sources(const Variant *v, const State *s, Sources *out);
/* agents.simple.immediate_margins: every distinct move with the mover's margin right after it (a roof
 * on a palace smaller than `small` one point below no change; only a move that may change the score is
 * played, on `trial`), shuffled as random.shuffle does and stably sorted best first; `moves`, `values`
 * and `scratch` (twice as long) hold a list of every move. Returns the count. */
int greedy_margins(const Variant *v, const State *s, Rng *r, int small, int *moves, int *values, int *scratch,
                   State *trial);

/* agents.mcts.play_batch: samples start..stop-1 of `move` at `at` (a legal move there), each the final
 * margin of the seat that makes it and that seat's win share, written to margins[k - start] and
 * shares[k - start]. They come from a UCT search of the position after `move` on a fresh tree grown by
 * one node and one playout per sample; sample k draws every random choice from the generator seeded with
 * the int key << 32 | k (stop <= 2**32). A node's moves are rated by greedy_margins (with `roof_from` as
 * its small palace) when the search first goes on from it, and become its children best first while
 * fewer than 1 + widening * sqrt(visits); else the child of the highest reward / visits + exploration *
 * sqrt(log(visits of the node) / visits) is taken. Playouts as `playout` (tea_chance, roof_from). Every
 * double is worked out in the Python search's order, so that both give the same samples bit for bit.
 * Memory comes from `hooks` (at most 1 + stop - start nodes) and is given back before the return.
 * Returns 0, or SEARCH_NO_PLACEMENT, SEARCH_NO_MEMORY, SEARCH_INTERRUPTED (`interrupted` said so). */
typedef struct {
    void *(*alloc)(size_t);
    void (*release)(void *);
    int (*interrupted)(void);   /* asked once a sample (may be NULL): nonzero stops the search */
} SearchHooks;
enum { SEARCH_NO_PLACEMENT = -1, SEARCH_NO_MEMORY = -3, SEARCH_INTERRUPTED = -4 };
#define SEARCH_MAX_SAMPLES (1 << 26)   /* per call: more than a decision's cap on playouts */
int search_samples(const Variant *v, const State *at, int move, uint64_t key, int64_t start, int64_t stop,
                   double exploration, double widening, double tea_chance, int roof_from, const SearchHooks *hooks,
                   int *margins, double *shares);

/* bitboards (without the popcnt instruction in the baseline target, a SWAR count beats libgcc's) */
static inline int popcount64(uint64_t x) {
#ifdef __POPCNT__
    return __builtin_popcountll(x);
#else
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
#endif
}
static inline int bb_any(bb a) { uint64_t x = 0; for (int i = 0; i < NW; i++) x |= a.w[i]; return x != 0; }
static inline int bb_count(bb a) { int n = 0; for (int i = 0; i < NW; i++) n += popcount64(a.w[i]); return n; }
static inline int bb_test(bb a, int cell) { return (int)((a.w[cell >> 6] >> (cell & 63)) & 1); }
static inline int bb_lowest(bb a) {
    for (int i = 0; i < NW; i++) if (a.w[i]) return i * 64 + __builtin_ctzll(a.w[i]);
    return -1;
}
#endif
