/* The native Medina core (see core.h). Each function names the Python engine's function whose
 * rule it follows, so that a reader can hold the two side by side. */
#include <math.h>
#include <stddef.h>
#include "core.h"

/* --- bitboards ------------------------------------------------------------------------------ */
static inline bb bb_and(bb a, bb b) { for (int i = 0; i < NW; i++) a.w[i] &= b.w[i]; return a; }
static inline bb bb_or(bb a, bb b) { for (int i = 0; i < NW; i++) a.w[i] |= b.w[i]; return a; }
static inline bb bb_andnot(bb a, bb b) { for (int i = 0; i < NW; i++) a.w[i] &= ~b.w[i]; return a; }
static inline bb bb_zero(void) { bb a; memset(&a, 0, sizeof a); return a; }
static inline bb bb_bit(int cell) { bb a = bb_zero(); a.w[cell >> 6] = 1ULL << (cell & 63); return a; }
static inline void bb_set(bb *a, int cell) { a->w[cell >> 6] |= 1ULL << (cell & 63); }
static inline int bb_eq(bb a, bb b) { return memcmp(&a, &b, sizeof a) == 0; }
static inline bb bb_shl(bb a, int k) {  /* 0 < k < 64 */
    bb r;
    for (int i = NW - 1; i > 0; i--) r.w[i] = (a.w[i] << k) | (a.w[i - 1] >> (64 - k));
    r.w[0] = a.w[0] << k;
    return r;
}
static inline bb bb_shr(bb a, int k) {
    bb r;
    for (int i = 0; i < NW - 1; i++) r.w[i] = (a.w[i] >> k) | (a.w[i + 1] << (64 - k));
    r.w[NW - 1] = a.w[NW - 1] >> k;
    return r;
}
/* the n-th (0-based) set cell, lowest first */
static int bb_nth(bb a, int n) {
    for (int i = 0; i < NW; i++) {
        int c = popcount64(a.w[i]);
        if (n < c) {
            uint64_t x = a.w[i];
            while (n--) x &= x - 1;
            return i * 64 + __builtin_ctzll(x);
        }
        n -= c;
    }
    return -1;
}

/* Geometry.orth, king, at_least_two_neighbours, more_neighbours_than */
static inline bb orth(const Variant *v, bb m) {
    bb r = bb_or(bb_and(bb_shl(m, 1), v->not_first_col), bb_and(bb_shr(m, 1), v->not_last_col));
    r = bb_or(r, bb_shr(m, v->width));
    return bb_or(r, bb_and(bb_shl(m, v->width), v->full));
}
static inline bb king(const Variant *v, bb m) {
    bb row = bb_or(m, bb_or(bb_and(bb_shl(m, 1), v->not_first_col), bb_and(bb_shr(m, 1), v->not_last_col)));
    return bb_or(row, bb_or(bb_shr(row, v->width), bb_and(bb_shl(row, v->width), v->full)));
}
static inline bb at_least_two(const Variant *v, bb m) {
    bb west = bb_and(bb_shl(m, 1), v->not_first_col), east = bb_and(bb_shr(m, 1), v->not_last_col);
    bb north = bb_shr(m, v->width), south = bb_and(bb_shl(m, v->width), v->full);
    return bb_or(bb_or(bb_and(west, east), bb_and(north, south)), bb_and(bb_or(west, east), bb_or(north, south)));
}
static bb more_than(const Variant *v, bb m, int k) {
    if (k >= 4) return bb_zero();
    bb at_least[5] = {v->full, bb_zero(), bb_zero(), bb_zero(), bb_zero()};
    bb sides[4] = {bb_and(bb_shl(m, 1), v->not_first_col), bb_and(bb_shr(m, 1), v->not_last_col),
                   bb_shr(m, v->width), bb_and(bb_shl(m, v->width), v->full)};
    for (int s = 0; s < 4; s++)
        for (int j = 4; j > 0; j--) at_least[j] = bb_or(at_least[j], bb_and(at_least[j - 1], sides[s]));
    return at_least[k + 1];
}

/* The row masks from the board's size; the given neighbour tables and masks checked against them
 * (the bitboard shifts must give what the variant's tables say). Returns -1 where they differ. */
int variant_geometry(Variant *v) {
    bb first_col = bb_zero(), last_col = bb_zero(), ring = bb_zero(), interior = bb_zero(), corners = bb_zero();
    v->full = bb_zero();
    for (int c = 0; c < v->size; c++) {
        int x = c % v->width, y = c / v->width;
        bb_set(&v->full, c);
        if (x == 0) bb_set(&first_col, c);
        if (x == v->width - 1) bb_set(&last_col, c);
        if (x == 0 || y == 0 || x == v->width - 1 || y == v->height - 1) bb_set(&ring, c);
        else bb_set(&interior, c);
        if ((x == 0 || x == v->width - 1) && (y == 0 || y == v->height - 1)) bb_set(&corners, c);
    }
    v->not_first_col = bb_andnot(v->full, first_col);
    v->not_last_col = bb_andnot(v->full, last_col);
    if (!bb_eq(v->towers, corners) || !bb_eq(bb_or(v->ring, v->towers), ring) || bb_any(bb_and(v->ring, v->towers))
        || !bb_eq(v->interior, interior))
        return -1;
    for (int c = 0; c < MAXCELLS; c++) {
        v->inner_of[c] = -1;
        v->tower_of_cell[c] = 0;
    }
    for (int c = 0; c < v->size; c++) {
        if (!bb_eq(v->orth_of[c], orth(v, bb_bit(c))) || !bb_eq(v->king_of[c], king(v, bb_bit(c)))) return -1;
        if (bb_test(v->ring, c)) v->inner_of[c] = (int16_t)bb_lowest(bb_and(v->orth_of[c], v->interior));
    }
    return 0;
}

int variant_palace_bound(int columns, int rows) { return ((columns + 1) / 2) * ((rows + 1) / 2); }

/* --- the generator (CPython's Modules/_randommodule.c and Lib/random.py) -------------------- */
static void rng_init(Rng *r, uint32_t s) {
    r->mt[0] = s;
    for (int i = 1; i < 624; i++) r->mt[i] = 1812433253U * (r->mt[i - 1] ^ (r->mt[i - 1] >> 30)) + (uint32_t)i;
    r->index = 624;
}

void rng_seed(Rng *r, const uint32_t *key, int length) {
    uint32_t *mt = r->mt;
    rng_init(r, 19650218U);
    int i = 1, j = 0;
    for (int k = 624 > length ? 624 : length; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525U)) + key[j] + (uint32_t)j;
        i++, j++;
        if (i >= 624) { mt[0] = mt[623]; i = 1; }
        if (j >= length) j = 0;
    }
    for (int k = 623; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941U)) - (uint32_t)i;
        i++;
        if (i >= 624) { mt[0] = mt[623]; i = 1; }
    }
    mt[0] = 0x80000000U;
}

uint32_t rng_u32(Rng *r) {
    static const uint32_t mag01[2] = {0x0U, 0x9908b0dfU};
    uint32_t y, *mt = r->mt;
    if (r->index >= 624) {
        int kk;
        for (kk = 0; kk < 624 - 397; kk++) {
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
            mt[kk] = mt[kk + 397] ^ (y >> 1) ^ mag01[y & 1U];
        }
        for (; kk < 623; kk++) {
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
            mt[kk] = mt[kk + (397 - 624)] ^ (y >> 1) ^ mag01[y & 1U];
        }
        y = (mt[623] & 0x80000000U) | (mt[0] & 0x7fffffffU);
        mt[623] = mt[396] ^ (y >> 1) ^ mag01[y & 1U];
        r->index = 0;
    }
    y = mt[r->index++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

double rng_random(Rng *r) {
    uint32_t a = rng_u32(r) >> 5, b = rng_u32(r) >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

uint64_t rng_bits(Rng *r, int k) {  /* getrandbits: 32-bit words, least significant first */
    if (k <= 32) return rng_u32(r) >> (32 - k);
    uint64_t low = rng_u32(r);
    uint64_t high = rng_u32(r) >> (64 - k);
    return low | (high << 32);
}

uint64_t rng_below(Rng *r, uint64_t n) {  /* _randbelow_with_getrandbits */
    int k = 64 - __builtin_clzll(n);
    uint64_t x = rng_bits(r, k);
    while (x >= n) x = rng_bits(r, k);
    return x;
}

/* --- positions ------------------------------------------------------------------------------ */
typedef struct {  /* the board masks of one position (Game.board_masks), computed on demand */
    uint32_t have;
    bb mask[MAXPIECES];
} Boards;

int palace_size(const Palace *p) { return p->size; }

static bb within_site(const Variant *v, const State *s) {  /* SITE: inside, empty, off the well */
    return bb_andnot(bb_andnot(v->interior, s->occupied), s->well_zone);
}

/* EXTEND_ELSE_NEW's first layers: the cells where the open palace of `c` can still grow */
static bb extension_cells(const State *s, int c, bb within) {
    if (s->open_palace[c] < 0) return bb_zero();
    return bb_andnot(bb_and(within, s->open_orth[c]), s->reach_twice);
}

static bb live_chain_ends(const Variant *v, const State *s) {
    bb ends = bb_zero();
    for (int i = 0; i < 2; i++) {
        int end = s->chain_ends[i];
        if (bb_count(bb_and(v->orth_of[end], s->merchants)) < 2) bb_set(&ends, end);
    }
    return ends;
}

static bb compute_board(const Variant *v, const State *s, int piece) {
    if (piece < v->ncol) {  /* NOT_RETIRED, EXTEND_ELSE_NEW */
        if (s->retired >> piece & 1) return bb_zero();
        bb within = within_site(v, s);
        bb first = extension_cells(s, piece, within);
        return bb_any(first) ? first : bb_andnot(within, s->reach_once);
    }
    if (piece == v->roof || piece == v->neutral) {  /* INSIDE, ON_BUILDING, UNROOFED, NOT_BLOCKED */
        bb cells = bb_andnot(bb_and(v->interior, s->all_buildings), s->roofed);
        if (!v->on_blocked_palace) {
            bb growing = bb_zero(), within = within_site(v, s);
            for (int c = 0; c < v->ncol; c++)
                if (s->open_palace[c] >= 0 && bb_any(extension_cells(s, c, within)))
                    growing = bb_or(growing, s->palaces[s->open_palace[c]].buildings);
            cells = bb_and(cells, growing);
        }
        return cells;
    }
    if (piece == v->stable)  /* SITE, BESIDE_BUILDING, CLEAR_OF_OTHER_PALACES */
        return bb_andnot(bb_and(within_site(v, s), s->building_orth), s->reach_twice);
    if (piece == v->merchant) {  /* EXTEND_ELSE_NEW_CHAIN (its merchant layers kept by refresh_merchants) */
        bb within = bb_andnot(v->interior, s->occupied);
        bb first = bb_and(within, s->merchant_extend);
        return bb_any(first) ? first : bb_and(within, s->merchant_new);
    }
    return s->wall_cells;  /* kept by refresh_walls */
}

/* The wall layers (ON_RING, NO_WALL_THERE, CONTINUES_RUN, KEEPS_GATES): they read the walls only */
static void refresh_walls(const Variant *v, State *s) {
    bb runs = bb_or(s->walls, v->towers);
    bb gates = bb_andnot(bb_and(v->ring, at_least_two(v, runs)), s->walls);
    s->wall_cells = bb_andnot(bb_and(bb_andnot(v->ring, s->walls), orth(v, runs)), gates);
}

/* The merchant layers but INSIDE and EMPTY: BESIDE_AT_MOST_ONE and AT_CHAIN_END (extending the live
 * chain), NEW_CHAIN_CROWD and NEW_CHAIN (more than max(1, k) neighbours, more than k: the second holds
 * the first); they read the merchants only */
static void refresh_merchants(const Variant *v, State *s) {
    s->merchant_extend = bb_andnot(orth(v, live_chain_ends(v, s)), at_least_two(v, s->merchants));
    s->merchant_new = bb_andnot(v->full, more_than(v, s->merchants, v->new_chain_max));
}

static inline bb board(const Variant *v, const State *s, Boards *b, int piece) {
    if (!(b->have >> piece & 1)) {
        b->mask[piece] = compute_board(v, s, piece);
        b->have |= 1U << piece;
    }
    return b->mask[piece];
}

static bb not_owned(const Variant *v, const State *s, int seat) {
    bb cells = v->full;
    for (int c = 0; c < v->ncol; c++)
        if (s->owned[seat] >> c & 1) cells = bb_andnot(cells, s->buildings[c]);
    return cells;
}

/* Game.piece_mask */
static bb piece_mask(const Variant *v, const State *s, Boards *b, int seat, int piece) {
    if (s->supply[seat][piece] <= 0) return bb_zero();
    bb cells = board(v, s, b, piece);
    if (piece == v->roof && s->owned[seat] && bb_any(cells)) cells = bb_and(cells, not_owned(v, s, seat));
    return cells;
}

/* Game.can_place: the cheapest masks first (walls) */
static int can_place(const Variant *v, const State *s, Boards *b, int seat) {
    for (int p = v->npieces - 1; p >= 0; p--)
        if (bb_any(piece_mask(v, s, b, seat, p))) return 1;
    return 0;
}

/* Game.legal_masks with the forced-roof filter (_forced_roof_filter); empty masks are zero */
static void legal_masks_b(const Variant *v, const State *s, Boards *b, bb out[MAXPIECES]) {
    int seat = s->seat;
    if (seat < 0) { for (int p = 0; p < v->npieces; p++) out[p] = bb_zero(); return; }
    for (int p = 0; p < v->npieces; p++) out[p] = piece_mask(v, s, b, seat, p);
    if (!s->forced) return;
    bb roof = out[v->roof];
    if (s->turn_placed || s->tea_used || s->turn_slots == 1) {
        if (bb_any(roof))
            for (int p = 0; p < v->npieces; p++) if (p != v->roof) out[p] = bb_zero();
        return;
    }
    if (!bb_any(roof)) {
        for (int p = 0; p < v->npieces; p++)
            if (p >= v->ncol || (s->owned[seat] >> p & 1)) out[p] = bb_zero();
        return;
    }
    bb neutral = out[v->neutral], kept = bb_zero();
    for (int c = bb_lowest(neutral); c >= 0; c = bb_lowest(neutral)) {
        neutral.w[c >> 6] &= ~(1ULL << (c & 63));
        if (bb_any(bb_andnot(roof, s->palaces[s->palace_at[c]].buildings))) bb_set(&kept, c);
    }
    out[v->neutral] = kept;
}

void legal_masks(const Variant *v, const State *s, bb out[MAXPIECES]) {
    Boards b;
    b.have = 0;
    legal_masks_b(v, s, &b, out);
}

static int masks_any(const Variant *v, const bb *masks) {
    for (int p = 0; p < v->npieces; p++) if (bb_any(masks[p])) return 1;
    return 0;
}

/* Game.can_tea */
static int can_tea_b(const Variant *v, const State *s, Boards *b) {
    int seat = s->seat;
    if (seat < 0 || !s->tea[seat] || s->tea_used || s->turn_slots < 2) return 0;
    if (s->turn_placed == 0) {
        if (!v->tea_either) return 0;
        if (!s->forced) return 1;
        bb masks[MAXPIECES];
        legal_masks_b(v, s, b, masks);
        return bb_any(masks[v->roof]);
    }
    return s->turn_placed < s->turn_slots && !s->forced;
}

int can_tea(const Variant *v, const State *s) {
    Boards b;
    b.have = 0;
    return can_tea_b(v, s, &b);
}

int is_legal(const Variant *v, const State *s, int move) {
    if (s->seat < 0) return 0;
    if (move == v->tea_move) return can_tea(v, s);
    if (move < 0 || move > v->tea_move) return 0;
    int piece = move / v->size, cell = move % v->size;
    bb masks[MAXPIECES];
    legal_masks(v, s, masks);
    return bb_test(masks[piece], cell);
}

/* --- turns ---------------------------------------------------------------------------------- */
/* Game._others_stuck */
static int others_stuck(const Variant *v, const State *s, Boards *b, int seat) {
    for (int other = 0; other < v->players; other++)
        if (other != seat && (can_place(v, s, b, other) || (v->tea_blocks_forced && s->tea[other]))) return 0;
    return 1;
}

/* Game._forced_trigger */
static int forced_trigger(const Variant *v, const State *s, Boards *b, int seat) {
    switch (v->forced_rule) {
    case FORCED_WHO_CAN_PLACE:
        return others_stuck(v, s, b, seat);
    case FORCED_WITH_PIECES:
        for (int q = 0; q < v->players; q++) {
            if (q == seat) continue;
            for (int p = 0; p < v->npieces; p++) if (s->supply[q][p]) return 0;
        }
        return 1;
    case FORCED_WITH_ROOFS:
        if (s->supply[seat][v->roof] <= 0) return 0;
        for (int q = 0; q < v->players; q++) if (q != seat && s->supply[q][v->roof]) return 0;
        return 1;
    }
    return 0;
}

/* Game._roof_reachable */
static int roof_reachable(const Variant *v, const State *s, Boards *b, int seat) {
    if (bb_any(piece_mask(v, s, b, seat, v->roof))) return 1;
    if (s->turn_slots <= 1 || s->supply[seat][v->roof] <= 0) return 0;
    for (int c = 0; c < v->ncol; c++)
        if (!(s->owned[seat] >> c & 1) && bb_any(piece_mask(v, s, b, seat, c))) return 1;
    return 0;
}

/* Game._start_turn */
static void start_turn(const Variant *v, State *s, Boards *b, int seat) {
    s->seat = (int8_t)seat;
    s->turn_placed = 0;
    s->tea_used = 0;
    s->turn_slots = (int8_t)(s->turns_started < v->opening_single ? 1 : v->placements);
    s->turns_started++;
    s->forced = (int8_t)(!v->check_after_first && forced_trigger(v, s, b, seat) && roof_reachable(v, s, b, seat));
    if (s->forced) s->forced_roofs++;
}

/* Game._end_turn */
static void end_turn(const Variant *v, State *s, Boards *b) {
    int n = v->players, seat = s->seat;
    for (int step = 1; step <= n; step++) {
        int next = (seat + step) % n;
        if (can_place(v, s, b, next)) { start_turn(v, s, b, next); return; }
        if (step < n) s->passes++;
    }
    s->seat = -1;
}

void state_start(const Variant *v, State *s, int merchant, int well, const int16_t (*supply)[MAXPIECES]) {
    memset(s, 0, sizeof *s);
    for (int seat = 0; seat < v->players; seat++)
        for (int p = 0; p < v->npieces; p++) s->supply[seat][p] = supply ? supply[seat][p] : (int16_t)v->supply[p];
    for (int c = 0; c < MAXC; c++) s->open_palace[c] = s->palace_tile[c] = -1;
    for (int t = 0; t < 5; t++) {
        s->tower_tile[t] = -1;
        s->tower_merchants_left[t] = (int8_t)v->tower_merchants[t];
    }
    memset(s->palace_at, NONE_PALACE, sizeof s->palace_at);
    s->start_merchant = (int16_t)merchant;
    s->merchants = bb_bit(merchant);
    s->chain_ends[0] = s->chain_ends[1] = (int16_t)merchant;
    s->well = (int16_t)well;
    s->occupied = s->merchants;
    if (well >= 0) {
        s->well_zone = king(v, bb_bit(well));
        bb_set(&s->occupied, well);
        int x = well % v->width, y = well / v->width;  /* Geometry.straight_two */
        int cols = v->width - 2, rows = v->height - 2;
        int dx[4] = {2, -2, 0, 0}, dy[4] = {0, 0, 2, -2};
        for (int i = 0; i < 4; i++) {
            int cx = x + dx[i], cy = y + dy[i];
            if (1 <= cx && cx <= cols && 1 <= cy && cy <= rows) bb_set(&s->well_bonus_cells, cy * v->width + cx);
        }
    }
    refresh_walls(v, s);
    refresh_merchants(v, s);
    s->seat = (int8_t)(v->players - 1);
    Boards b;
    b.have = 0;
    end_turn(v, s, &b);
}

void state_copy(State *dst, const State *src) { memcpy(dst, src, STATE_BYTES(src)); }

/* --- tiles ---------------------------------------------------------------------------------- */
/* Game._palace_tile_check */
static void palace_tile_check(State *s, int id) {
    Palace *p = &s->palaces[id];
    int holder = s->palace_tile[p->colour];
    if (holder == id || (holder >= 0 && palace_size(p) <= palace_size(&s->palaces[holder]))) return;
    s->palace_tile[p->colour] = (int16_t)id;
    if (holder >= 0) s->transfers++;
}

/* Game._tea_award */
static void tea_award(const Variant *v, State *s, Palace *p) {
    if (p->colour != v->tea_colour) return;
    int award = s->tea_claims < v->ntea_awards ? v->tea_awards[s->tea_claims] : 0;
    s->tea_claims++;
    if (award && p->owner != NEUTRAL) s->tea[p->owner] += (int16_t)award;
}

/* Game._connect: `arms` of `tower` (bits (tower-1)*2 + axis) */
static void connect(const Variant *v, State *s, int id, int tower, unsigned arms) {
    Palace *p = &s->palaces[id];
    unsigned of_tower = 3U << ((tower - 1) * 2);
    if (v->reconnect == RECONNECT_ONCE_PER_TOWER && (p->connected & of_tower)) return;
    if (v->reconnect == RECONNECT_ONCE_PER_ARM && !(arms & ~p->connected)) return;
    p->connected |= (uint8_t)arms;
    int previous = s->tower_tile[tower];
    s->tower_tile[tower] = (int16_t)id;
    if (previous >= 0 && s->palaces[previous].owner != p->owner) s->transfers++;
    int waiting = s->tower_merchants_left[tower];
    if (waiting >= 0) {
        s->tower_merchants_left[tower] = -1;
        if (waiting && p->owner != NEUTRAL) s->supply[p->owner][v->merchant] += (int16_t)waiting;
    }
}

/* Game._connect_walls: by tower, in tower order */
static void connect_walls(const Variant *v, State *s, int id, bb walls) {
    unsigned by_tower[5] = {0};
    for (int c = bb_lowest(walls); c >= 0; c = bb_lowest(walls)) {
        walls.w[c >> 6] &= ~(1ULL << (c & 63));
        int arm = s->wall_arm[c];
        by_tower[arm / 2 + 1] |= 1U << arm;
    }
    for (int t = 1; t <= 4; t++) if (by_tower[t]) connect(v, s, id, t, by_tower[t]);
}

/* --- placing -------------------------------------------------------------------------------- */
/* Game._grow: the palace takes `cell` (its pieces before it: `before`) */
static void grow(const Variant *v, State *s, int id, int cell, bb before) {
    bb new_reach = bb_andnot(v->king_of[cell], king(v, before));
    s->reach_twice = bb_or(s->reach_twice, bb_and(s->reach_once, new_reach));
    s->reach_once = bb_or(s->reach_once, new_reach);
    s->palace_at[cell] = (uint8_t)id;
}

static void place_building(const Variant *v, State *s, int colour, int cell) {
    int id = s->open_palace[colour];
    bb before = bb_zero();
    if (id < 0 || !bb_test(s->open_orth[colour], cell)) {
        id = s->npalaces++;
        Palace *p = &s->palaces[id];
        memset(p, 0, sizeof *p);
        p->colour = (int8_t)colour;
        p->owner = UNROOFED;
        p->roof = p->claim_order = -1;
        s->open_palace[colour] = (int16_t)id;
        s->open_orth[colour] = bb_zero();
    } else {
        before = bb_or(s->palaces[id].buildings, s->palaces[id].stables);
    }
    Palace *p = &s->palaces[id];
    bb_set(&p->buildings, cell);
    p->size++;
    s->open_orth[colour] = bb_or(s->open_orth[colour], v->orth_of[cell]);
    s->building_orth = bb_or(s->building_orth, v->orth_of[cell]);
    bb_set(&s->buildings[colour], cell);
    bb_set(&s->all_buildings, cell);
    bb_set(&s->occupied, cell);
    grow(v, s, id, cell, before);
}

/* Game._claim */
static void claim(const Variant *v, State *s, int id, int owner, int cell) {
    Palace *p = &s->palaces[id];
    p->owner = (int8_t)owner;
    p->roof = (int16_t)cell;
    p->claim_order = s->claims++;
    s->roofed = bb_or(s->roofed, p->buildings);
    if (s->open_palace[p->colour] == id) s->open_palace[p->colour] = -1;
    if (owner != NEUTRAL) s->owned[owner] |= 1U << p->colour;
    palace_tile_check(s, id);
    tea_award(v, s, p);
    connect_walls(v, s, id, bb_and(orth(v, bb_or(p->buildings, p->stables)), s->walls));
}

/* Game._place_stable with _stable_contact */
static void place_stable(const Variant *v, State *s, int cell) {
    int id = s->palace_at[bb_lowest(bb_and(v->orth_of[cell], s->all_buildings))];
    Palace *p = &s->palaces[id];
    bb before = bb_or(p->buildings, p->stables);
    bb_set(&p->stables, cell);
    p->size++;
    bb_set(&s->stables, cell);
    bb_set(&s->occupied, cell);
    grow(v, s, id, cell, before);
    if (p->owner == UNROOFED) return;
    palace_tile_check(s, id);
    bb walls = bb_and(v->orth_of[cell], s->walls), contact = walls;
    if (v->stable_first_nwse && bb_count(walls) > 1) {
        int steps[4] = {v->width, -1, -v->width, 1};  /* north, west, south, east */
        for (int i = 0; i < 4; i++) {
            int c = cell + steps[i];
            if (c >= 0 && c < v->size && bb_test(walls, c)) { contact = bb_bit(c); break; }
        }
    }
    connect_walls(v, s, id, contact);
    for (int c = bb_lowest(walls); c >= 0; c = bb_lowest(walls)) {
        walls.w[c >> 6] &= ~(1ULL << (c & 63));
        p->connected |= (uint8_t)(1U << s->wall_arm[c]);
    }
}

/* Game._place_merchant */
static void place_merchant(const Variant *v, State *s, int cell) {
    int first = s->chain_ends[0], last = s->chain_ends[1];
    bb ends = live_chain_ends(v, s), around = v->orth_of[cell];
    if (bb_any(bb_and(around, ends)) && !bb_any(bb_andnot(bb_and(around, s->merchants), ends))) {
        if (first == last) s->chain_ends[1] = (int16_t)cell;
        else if (bb_test(around, first)) s->chain_ends[0] = (int16_t)cell;
        else s->chain_ends[1] = (int16_t)cell;
    } else {
        s->chain_ends[0] = s->chain_ends[1] = (int16_t)cell;
    }
    bb_set(&s->merchants, cell);
    bb_set(&s->occupied, cell);
    refresh_merchants(v, s);
}

/* Game._place_wall */
static void place_wall(const Variant *v, State *s, int cell) {
    int anchor = bb_lowest(bb_and(v->orth_of[cell], bb_or(s->walls, v->towers)));
    int arm;
    if (v->tower_of_cell[anchor]) {
        int axis = (anchor - cell == 1 || cell - anchor == 1) ? 0 : 1;
        arm = (v->tower_of_cell[anchor] - 1) * 2 + axis;
    } else {
        arm = s->wall_arm[anchor];
    }
    s->wall_arm[cell] = (uint8_t)arm;
    bb_set(&s->walls, cell);
    refresh_walls(v, s);
    int inner = v->inner_of[cell];
    int id = inner >= 0 ? s->palace_at[inner] : NONE_PALACE;
    if (id != NONE_PALACE && s->palaces[id].owner != UNROOFED) connect(v, s, id, arm / 2 + 1, 1U << arm);
}

/* Game._check_retirement */
static void check_retirement(const Variant *v, State *s, Boards *b, int piece) {
    int check_owners = piece == v->roof && v->retire_all_own;
    int check_room = piece != v->wall && v->retire_no_fit;
    if (!check_owners && !check_room) return;
    uint32_t by_all = 0;
    if (check_owners) {
        by_all = ~0U;
        for (int q = 0; q < v->players; q++) by_all &= s->owned[q];
    }
    for (int c = 0; c < v->ncol; c++) {
        if (s->retired >> c & 1) continue;
        int everyone = by_all >> c & 1;
        if (everyone || (check_room && !bb_any(board(v, s, b, c)))) {
            s->retired |= 1U << c;
            b->have &= ~(1U << c);
            for (int q = 0; q < v->players; q++) s->supply[q][c] = 0;
            s->retirements++;
        }
    }
}

/* Game._force_second_roof */
static void force_second_roof(const Variant *v, State *s, Boards *b) {
    int seat = s->seat;
    if (s->turn_placed + s->tea_used < s->turn_slots && bb_any(piece_mask(v, s, b, seat, v->roof))
        && forced_trigger(v, s, b, seat)) {
        s->forced = 1;
        s->forced_roofs++;
    }
}

/* Game.play (piece, cell) and Game.use_tea: the move must be legal */
/* `b`: the board masks of the position before the move; after it, those of the position after it
 * (a tea tile changes no board mask) */
static void play_cached(const Variant *v, State *s, int move, Boards *b) {
    int seat = s->seat;
    if (move == v->tea_move) {
        s->tea[seat]--;
        s->tea_used = 1;
        if (s->turn_placed) end_turn(v, s, b);
        return;
    }
    b->have = 0;
    int piece = move / v->size, cell = move % v->size;
    s->supply[seat][piece]--;
    s->placements_made++;
    if (piece < v->ncol) place_building(v, s, piece, cell);
    else if (piece == v->roof) claim(v, s, s->palace_at[cell], seat, cell);
    else if (piece == v->neutral) claim(v, s, s->palace_at[cell], NEUTRAL, cell);
    else if (piece == v->stable) place_stable(v, s, cell);
    else if (piece == v->merchant) place_merchant(v, s, cell);
    else place_wall(v, s, cell);
    check_retirement(v, s, b, piece);
    s->turn_placed++;
    if (piece == v->roof) s->forced = 0;
    else if (s->turn_placed == 1 && v->check_after_first && !(piece == v->neutral && v->neutral_spares))
        force_second_roof(v, s, b);
    int go_on;
    if (s->turn_placed + s->tea_used >= s->turn_slots) go_on = 0;
    else if (s->forced) {
        bb masks[MAXPIECES];
        legal_masks_b(v, s, b, masks);
        go_on = masks_any(v, masks);
    } else {  /* Game.can_go_on */
        go_on = can_place(v, s, b, seat) || (v->tea_keeps_open && s->tea[seat] && !s->tea_used);
    }
    if (!go_on) end_turn(v, s, b);
}

void play_move(const Variant *v, State *s, int move) {
    Boards b;
    b.have = 0;
    play_cached(v, s, move, &b);
}

/* --- lists of moves ------------------------------------------------------------------------- */
static int lowest_of_each_palace(const State *s, bb cells, int *out, int base) {
    int n = 0;
    for (int c = bb_lowest(cells); c >= 0; c = bb_lowest(cells)) {
        out[n++] = base + c;
        cells = bb_andnot(cells, s->palaces[s->palace_at[c]].buildings);
    }
    return n;
}

static int list_moves(const Variant *v, const State *s, int *out, int distinct) {
    Boards b;
    b.have = 0;
    bb masks[MAXPIECES];
    legal_masks_b(v, s, &b, masks);
    int n = 0;
    for (int p = 0; p < v->npieces; p++) {
        bb cells = masks[p];
        if (distinct && (p == v->roof || p == v->neutral)) { n += lowest_of_each_palace(s, cells, out + n, p * v->size); continue; }
        for (int c = bb_lowest(cells); c >= 0; c = bb_lowest(cells)) {
            cells.w[c >> 6] &= ~(1ULL << (c & 63));
            out[n++] = p * v->size + c;
        }
    }
    if (can_tea_b(v, s, &b)) out[n++] = v->tea_move;
    return n;
}

int legal_moves(const Variant *v, const State *s, int *out) { return list_moves(v, s, out, 0); }
int distinct_moves(const Variant *v, const State *s, int *out) { return list_moves(v, s, out, 1); }

/* --- playouts ------------------------------------------------------------------------------- */
/* One game played to its end as engine.playout.play_out plays it: a tea tile where allowed when no
 * piece fits, else with the chance `tea_chance`; with `roof_from` >= 0, a roof on the largest palace
 * the player may roof once it has `roof_from` pieces or more; else uniform among the legal placements.
 * `log` (when given, `log_size` moves long) receives each move, its seat and whether it opened a turn. */
int playout(const Variant *v, State *s, Rng *r, double tea_chance, int roof_from, int16_t *log, int log_size) {
    int played = 0;
    bb masks[MAXPIECES];
    Boards b;
    b.have = 0;
    while (s->seat >= 0) {
        legal_masks_b(v, s, &b, masks);
        int move = -1;
        if (can_tea_b(v, s, &b) && (!masks_any(v, masks) || rng_random(r) < tea_chance)) move = v->tea_move;
        if (move < 0 && roof_from >= 0 && bb_any(masks[v->roof])) {
            int best = -1, best_size = -1;
            bb roofs = masks[v->roof];
            for (int c = bb_lowest(roofs); c >= 0; c = bb_lowest(roofs)) {
                roofs.w[c >> 6] &= ~(1ULL << (c & 63));
                int size = palace_size(&s->palaces[s->palace_at[c]]);
                if (size > best_size) { best = c; best_size = size; }
            }
            if (best_size >= roof_from) move = v->roof * v->size + best;
        }
        if (move < 0) {
            int total = 0, counts[MAXPIECES];
            for (int p = 0; p < v->npieces; p++) total += counts[p] = bb_count(masks[p]);
            if (!total) return -1;
            int pick = (int)rng_below(r, (uint64_t)total);
            for (int p = 0; p < v->npieces; p++) {
                if (pick < counts[p]) { move = p * v->size + bb_nth(masks[p], pick); break; }
                pick -= counts[p];
            }
        }
        if (log) {
            if (played >= log_size) return -2;
            log[3 * played] = (int16_t)move;
            log[3 * played + 1] = s->seat;
            log[3 * played + 2] = (int16_t)(s->turn_placed == 0 && !s->tea_used);
        }
        play_cached(v, s, move, &b);
        played++;
    }
    return played;
}

/* search.h's rollouts: as `playout` (tea, roofs), but among the other placements a stable, merchant or wall
 * next to a palace of the mover weighs `good`, one next only to other seats' palaces `bad`, any other 1. */
int informed_playout(const Variant *v, State *s, Rng *r, double tea_chance, int roof_from, double good, double bad) {
    int played = 0;
    bb masks[MAXPIECES];
    Boards b;
    b.have = 0;
    while (s->seat >= 0) {
        legal_masks_b(v, s, &b, masks);
        int move = -1;
        if (can_tea_b(v, s, &b) && (!masks_any(v, masks) || rng_random(r) < tea_chance)) move = v->tea_move;
        if (move < 0 && roof_from >= 0 && bb_any(masks[v->roof])) {
            int best = -1, best_size = -1;
            bb roofs = masks[v->roof];
            for (int c = bb_lowest(roofs); c >= 0; c = bb_lowest(roofs)) {
                roofs.w[c >> 6] &= ~(1ULL << (c & 63));
                int size = palace_size(&s->palaces[s->palace_at[c]]);
                if (size > best_size) { best = c; best_size = size; }
            }
            if (best_size >= roof_from) move = v->roof * v->size + best;
        }
        if (move < 0) {
            bb own = bb_zero(), other = bb_zero();
            for (int i = 0; i < s->npalaces; i++) {
                const Palace *p = &s->palaces[i];
                if (p->owner == s->seat) own = bb_or(own, bb_or(p->buildings, p->stables));
                else if (p->owner >= 0) other = bb_or(other, bb_or(p->buildings, p->stables));
            }
            own = orth(v, own);
            other = bb_andnot(orth(v, other), own);
            bb parts[MAXPIECES][3];
            double weight[3] = {good, bad, 1.0}, total = 0.0;
            for (int p = 0; p < v->npieces; p++) {
                int scoring = p == v->stable || p == v->merchant || p == v->wall;
                parts[p][0] = scoring ? bb_and(masks[p], own) : bb_zero();
                parts[p][1] = scoring ? bb_and(masks[p], other) : bb_zero();
                parts[p][2] = scoring ? bb_andnot(bb_andnot(masks[p], own), other) : masks[p];
                for (int k = 0; k < 3; k++) total += weight[k] * bb_count(parts[p][k]);
            }
            if (total <= 0.0) return -1;
            double u = rng_random(r) * total;
            for (int p = 0; p < v->npieces && move < 0; p++)
                for (int k = 0; k < 3 && move < 0; k++) {
                    int n = bb_count(parts[p][k]);
                    if (!n || weight[k] <= 0.0) continue;
                    if (u < weight[k] * n) {
                        int pick = (int)(u / weight[k]);
                        move = p * v->size + bb_nth(parts[p][k], pick < n ? pick : n - 1);
                    } else {
                        u -= weight[k] * n;
                    }
                }
            if (move < 0) {  /* rounding left u at the very top: the last cell of any weight */
                for (int p = v->npieces - 1; p >= 0 && move < 0; p--)
                    for (int k = 2; k >= 0 && move < 0; k--)
                        if (bb_any(parts[p][k]) && weight[k] > 0.0) move = p * v->size + bb_nth(parts[p][k], bb_count(parts[p][k]) - 1);
            }
        }
        play_cached(v, s, move, &b);
        played++;
    }
    return played;
}

/* --- scores (engine/scoring.py) ------------------------------------------------------------- */
static void palace_points_by_source(const Variant *v, const State *s, const Palace *p, int *pieces, int *merchants,
                                    int *walls, int *well) {
    bb all = bb_or(p->buildings, p->stables);
    bb around = orth(v, all);
    bb touch = v->merchants_touch_stables ? around : orth(v, p->buildings);
    *pieces = bb_count(all);
    *merchants = bb_count(bb_and(touch, s->merchants));
    *walls = bb_count(bb_and(around, s->walls));
    *well = v->well_bonus * bb_count(bb_and(all, s->well_bonus_cells));
}

int palace_points(const Variant *v, const State *s, int id) {
    int pieces, merchants, walls, well;
    palace_points_by_source(v, s, &s->palaces[id], &pieces, &merchants, &walls, &well);
    return pieces + merchants + walls + well;
}

void totals(const Variant *v, const State *s, int *out) {
    for (int q = 0; q < v->players; q++) out[q] = 0;
    for (int i = 0; i < s->npalaces; i++) {
        const Palace *p = &s->palaces[i];
        if (p->owner < 0) continue;
        int pieces, merchants, walls, well;
        palace_points_by_source(v, s, p, &pieces, &merchants, &walls, &well);
        out[p->owner] += pieces + merchants + walls + well;
    }
    for (int c = 0; c < v->ncol; c++) {
        int id = s->palace_tile[c];
        if (id >= 0 && s->palaces[id].owner >= 0) out[s->palaces[id].owner] += v->colour_value[c];
    }
    for (int t = 1; t <= 4; t++) {
        int id = s->tower_tile[t];
        if (id >= 0 && s->palaces[id].owner >= 0) out[s->palaces[id].owner] += t;
    }
}

/* scoring.winners_of */
int winners(const Variant *v, const State *s, const int *scores, int *out) {
    int best = scores[0];
    for (int q = 1; q < v->players; q++) if (scores[q] > best) best = scores[q];
    int tied = 0;
    for (int q = 0; q < v->players; q++) if (scores[q] == best) tied |= 1 << q;
    if (v->tiebreak_largest && (tied & (tied - 1))) {
        int largest[MAXP], earliest[MAXP];
        for (int q = 0; q < v->players; q++) { largest[q] = 0; earliest[q] = 1 << 30; }
        for (int i = 0; i < s->npalaces; i++) {
            const Palace *p = &s->palaces[i];
            if (p->owner < 0) continue;
            int size = palace_size(p);
            if (size > largest[p->owner]) largest[p->owner] = size;
        }
        for (int i = 0; i < s->npalaces; i++) {
            const Palace *p = &s->palaces[i];
            if (p->owner < 0 || palace_size(p) != largest[p->owner]) continue;
            if (p->claim_order < earliest[p->owner]) earliest[p->owner] = p->claim_order;
        }
        int top = -1;
        for (int q = 0; q < v->players; q++) {
            if (!(tied >> q & 1)) continue;
            if (top < 0 || largest[q] > largest[top] || (largest[q] == largest[top] && earliest[q] < earliest[top])) top = q;
        }
        int kept = 0;
        for (int q = 0; q < v->players; q++)
            if ((tied >> q & 1) && largest[q] == largest[top] && earliest[q] == earliest[top]) kept |= 1 << q;
        tied = kept;
    }
    int n = 0;
    for (int q = 0; q < v->players; q++) if (tied >> q & 1) out[n++] = q;
    return n;
}

void score_sources(const Variant *v, const State *s, Sources *out) {
    memset(out, 0, sizeof *out);
    for (int i = 0; i < s->npalaces; i++) {
        const Palace *p = &s->palaces[i];
        if (p->owner < 0) continue;
        int pieces, merchants, walls, well;
        palace_points_by_source(v, s, p, &pieces, &merchants, &walls, &well);
        out->pieces += pieces;
        out->merchants += merchants;
        out->walls += walls;
        out->well += well;
    }
    for (int c = 0; c < v->ncol; c++) {
        int id = s->palace_tile[c];
        if (id >= 0 && s->palaces[id].owner >= 0) out->palace_tiles += v->colour_value[c];
    }
    for (int t = 1; t <= 4; t++) {
        int id = s->tower_tile[t];
        if (id >= 0 && s->palaces[id].owner >= 0) out->tower_tiles += t;
    }
}

/* --- greedy ratings (agents/simple.py) ------------------------------------------------------- */
static int margin_of(const Variant *v, const int *scores, int seat) {
    int best = -(1 << 30);
    for (int q = 0; q < v->players; q++) if (q != seat && scores[q] > best) best = scores[q];
    return scores[seat] - best;
}

static void merge_sort(int *moves, int *values, int *tmp_m, int *tmp_v, int n) {  /* stable, highest first */
    if (n < 2) return;
    int h = n / 2;
    merge_sort(moves, values, tmp_m, tmp_v, h);
    merge_sort(moves + h, values + h, tmp_m, tmp_v, n - h);
    int i = 0, j = h, k = 0;
    while (i < h && j < n) {
        if (values[j] > values[i]) { tmp_m[k] = moves[j]; tmp_v[k++] = values[j++]; }
        else { tmp_m[k] = moves[i]; tmp_v[k++] = values[i++]; }
    }
    while (i < h) { tmp_m[k] = moves[i]; tmp_v[k++] = values[i++]; }
    while (j < n) { tmp_m[k] = moves[j]; tmp_v[k++] = values[j++]; }
    memcpy(moves, tmp_m, sizeof(int) * n);
    memcpy(values, tmp_v, sizeof(int) * n);
}

int greedy_margins(const Variant *v, const State *s, Rng *r, int small, int *moves, int *values, int *scratch,
                   State *trial) {
    if (s->seat < 0) return 0;
    int seat = s->seat;
    int n = distinct_moves(v, s, moves);
    int scores[MAXP];
    totals(v, s, scores);
    int now = margin_of(v, scores, seat);
    bb scoring = bb_zero();  /* agents.position.scoring_cells */
    for (int i = 0; i < s->npalaces; i++)
        if (s->palaces[i].owner != UNROOFED) scoring = bb_or(scoring, bb_or(s->palaces[i].buildings, s->palaces[i].stables));
    scoring = orth(v, scoring);
    for (int i = 0; i < n; i++) {
        int move = moves[i], value = now, play = 0;
        int piece = move == v->tea_move ? -1 : move / v->size, cell = move % v->size;
        if (piece == v->roof && palace_size(&s->palaces[s->palace_at[cell]]) < small) value = now - 1;
        else if (piece == v->roof || piece == v->neutral) play = 1;
        else if ((piece == v->stable || piece == v->merchant || piece == v->wall) && bb_test(scoring, cell)) play = 1;
        if (play) {
            state_copy(trial, s);
            play_move(v, trial, move);
            totals(v, trial, scores);
            value = margin_of(v, scores, seat);
        }
        values[i] = value;
    }
    for (int i = n - 1; i > 0; i--) {  /* random.shuffle */
        int j = (int)rng_below(r, (uint64_t)i + 1);
        int m = moves[i]; moves[i] = moves[j]; moves[j] = m;
        int x = values[i]; values[i] = values[j]; values[j] = x;
    }
    merge_sort(moves, values, scratch, scratch + n, n);
    return n;
}

/* --- tree search (agents/mcts.py) ----------------------------------------------------------- */
typedef struct {
    int move, mover;            /* the placement into the node, and the seat that made it */
    int visits, nchildren, nslots;  /* nslots: -1 until the node is first selected from */
    int *slots;                 /* the children's node numbers [0, nchildren), then the moves not tried yet, best first */
    double reward;
} SearchNode;

/* agents.position.stream: the generator of sample k, seeded from the int key << 32 | k as random.seed
 * seeds from an int (its 32-bit words, least significant first, without the zero words of its top) */
static void seed_sample(Rng *r, uint64_t key, uint32_t k) {
    uint32_t words[3] = {k, (uint32_t)key, (uint32_t)(key >> 32)};
    rng_seed(r, words, words[2] ? 3 : words[1] ? 2 : 1);
}

/* agents.position.reward, its operations in the same order */
static double search_reward(int margin, double share) {
    return 0.5 * share + 0.25 * (1.0 + tanh((double)margin / 10.0));
}

/* agents.mcts._select: the child of `node` (at position `game`) to go down to, a new one while the
 * widening allows; -1 where the node has no move at all, -3 where memory fails */
static int search_select(const Variant *v, const State *game, SearchNode *nodes, int *nnodes, int node, Rng *r,
                         double exploration, double widening, int small, int *buffer, State *trial,
                         const SearchHooks *hooks) {
    SearchNode *at = &nodes[node];
    if (at->nslots < 0) {
        int capacity = MAXPIECES * MAXCELLS + 1;
        int n = greedy_margins(v, game, r, small, buffer, buffer + capacity, buffer + 2 * capacity, trial);
        at->slots = hooks->alloc(sizeof(int) * (size_t)(n ? n : 1));
        if (!at->slots) return SEARCH_NO_MEMORY;
        memcpy(at->slots, buffer, sizeof(int) * (size_t)n);
        at->nslots = n;
    }
    if (at->nchildren < at->nslots && (double)at->nchildren < 1.0 + widening * sqrt((double)at->visits)) {
        int child = (*nnodes)++;
        SearchNode *made = &nodes[child];
        memset(made, 0, sizeof *made);
        made->move = at->slots[at->nchildren];
        made->mover = game->seat;
        made->nslots = -1;
        at->slots[at->nchildren++] = child;
        return child;
    }
    if (!at->nchildren) return SEARCH_NO_PLACEMENT;
    double log_n = log((double)at->visits);
    int best = at->slots[0];
    double best_value = -INFINITY;
    for (int i = 0; i < at->nchildren; i++) {  /* the first of the highest upper bounds */
        const SearchNode *c = &nodes[at->slots[i]];
        double value = c->reward / (double)c->visits + exploration * sqrt(log_n / (double)c->visits);
        if (value > best_value) {
            best = at->slots[i];
            best_value = value;
        }
    }
    return best;
}

int search_samples(const Variant *v, const State *at, int move, uint64_t key, int64_t start, int64_t stop,
                   double exploration, double widening, double tea_chance, int roof_from, const SearchHooks *hooks,
                   int *margins, double *shares) {
    int samples = (int)(stop - start), capacity = MAXPIECES * MAXCELLS + 1, nnodes = 0, result = 0;
    int root_mover = at->seat;
    State *after = hooks->alloc(sizeof(State)), *game = hooks->alloc(sizeof(State)), *trial = hooks->alloc(sizeof(State));
    int *buffer = hooks->alloc(sizeof(int) * 4 * (size_t)capacity);
    SearchNode *nodes = hooks->alloc(sizeof(SearchNode) * ((size_t)samples + 1));
    int *path = hooks->alloc(sizeof(int) * ((size_t)samples + 1));
    if (!after || !game || !trial || !buffer || !nodes || !path) {
        result = SEARCH_NO_MEMORY;
        goto done;
    }
    state_copy(after, at);
    play_move(v, after, move);
    memset(&nodes[0], 0, sizeof nodes[0]);
    nodes[0].move = move;
    nodes[0].mover = root_mover;
    nodes[0].nslots = -1;
    nnodes = 1;
    for (int64_t k = start; k < stop; k++) {  /* agents.mcts._iterate */
        if (hooks->interrupted && hooks->interrupted()) {
            result = SEARCH_INTERRUPTED;
            goto done;
        }
        Rng r;
        seed_sample(&r, key, (uint32_t)k);
        state_copy(game, after);
        int depth = 0, node = 0;
        path[depth++] = 0;
        while (game->seat >= 0) {
            int child = search_select(v, game, nodes, &nnodes, node, &r, exploration, widening, roof_from, buffer,
                                      trial, hooks);
            if (child < 0) {
                result = child;
                goto done;
            }
            play_move(v, game, nodes[child].move);
            path[depth++] = node = child;
            if (nodes[child].visits == 0) break;
        }
        if (game->seat >= 0 && playout(v, game, &r, tea_chance, roof_from, NULL, 0) < 0) {
            result = SEARCH_NO_PLACEMENT;
            goto done;
        }
        int scores[MAXP], seats[MAXP];
        double won[MAXP], rewards[MAXP];
        totals(v, game, scores);
        int n = winners(v, game, scores, seats);
        for (int q = 0; q < v->players; q++) won[q] = 0.0;
        for (int i = 0; i < n; i++) won[seats[i]] = 1.0 / (double)n;
        unsigned rated = 0;  /* seats whose reward is worked out */
        for (int i = 0; i < depth; i++) {
            SearchNode *visited = &nodes[path[i]];
            int mover = visited->mover;
            if (!(rated >> mover & 1)) {
                rewards[mover] = search_reward(margin_of(v, scores, mover), won[mover]);
                rated |= 1U << mover;
            }
            visited->visits++;
            visited->reward += rewards[mover];
        }
        margins[k - start] = margin_of(v, scores, root_mover);
        shares[k - start] = won[root_mover];
    }
done:
    if (nodes)
        for (int i = 0; i < nnodes; i++) hooks->release(nodes[i].slots);
    hooks->release(path);
    hooks->release(nodes);
    hooks->release(buffer);
    hooks->release(trial);
    hooks->release(game);
    hooks->release(after);
    return result;
}
