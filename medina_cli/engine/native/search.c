/* The agents' native search: see search.h. */
#include <math.h>
#include <stdlib.h>
#include <time.h>
#include "search.h"

/* --- the evaluation ------------------------------------------------------------------------- */
void evaluate(const Variant *v, const State *s, const SearchParams *p, double *out) {
    int scores[MAXP];
    totals(v, s, scores);
    for (int q = 0; q < v->players; q++) out[q] = scores[q];
    if (s->seat < 0) return;
    for (int i = 0; i < s->npalaces; i++) {
        const Palace *palace = &s->palaces[i];
        if (palace->owner != UNROOFED) continue;
        for (int k = 0; k < v->players; k++) {
            int q = (s->seat + k) % v->players;
            if (s->supply[q][v->roof] <= 0 || (s->owned[q] >> palace->colour & 1)) continue;
            double points = palace_points(v, s, i);
            if (s->palace_tile[palace->colour] == i) points += v->colour_value[palace->colour];
            for (int t = 1; t <= 4; t++)
                if (s->tower_tile[t] == i) points += t;
            out[q] += p->open_share * points;
            break;
        }
    }
    for (int q = 0; q < v->players; q++) {  /* roofs a seat can still use: one a colour it owns no palace of */
        int free_colours = v->ncol - popcount64(s->owned[q]);
        int roofs = s->supply[q][v->roof];
        out[q] += p->roof_in_hand * (roofs < free_colours ? roofs : free_colours);
    }
}

static void rewards_of(const Variant *v, const double *values, double temperature, double *margin,
                       double *reward) {
    for (int q = 0; q < v->players; q++) {
        double best = -INFINITY;
        for (int o = 0; o < v->players; o++)
            if (o != q && values[o] > best) best = values[o];
        margin[q] = values[q] - best;
        reward[q] = 1.0 / (1.0 + exp(-margin[q] / temperature));
    }
}

/* --- position keys -------------------------------------------------------------------------- */
static inline uint64_t mix(uint64_t x) {  /* splitmix64's finaliser */
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

static inline uint64_t add(uint64_t h, uint64_t x) { return mix(h ^ x) + 0x9e3779b97f4a7c15ULL; }

static uint64_t add_bb(uint64_t h, bb b) {
    for (int i = 0; i < NW; i++) h = add(h, b.w[i]);
    return h;
}

static int palace_cell(const State *s, int id) {  /* a palace's name that no order of play changes */
    return id < 0 ? -1 : bb_lowest(s->palaces[id].buildings);
}

/* A hash of everything that decides the game from here on, the same for any order of the placements
 * that led to it (palace numbers, claim order and the like are left out or named by a cell). */
uint64_t position_key(const Variant *v, const State *s) {
    uint64_t h = add(0, (uint64_t)(s->seat + 2) | (uint64_t)s->turn_placed << 8 | (uint64_t)s->turn_slots << 16
                            | (uint64_t)s->tea_used << 24 | (uint64_t)s->forced << 32);
    h = add(h, (uint64_t)s->placements_made | (uint64_t)s->turns_started << 16 | (uint64_t)s->passes << 32
                   | (uint64_t)(uint16_t)s->chain_ends[0] << 48);
    h = add(h, (uint64_t)(uint16_t)s->chain_ends[1] | (uint64_t)s->retired << 16);
    h = add_bb(h, s->occupied);
    h = add_bb(h, s->merchants);
    h = add_bb(h, s->walls);
    h = add_bb(h, s->stables);
    h = add_bb(h, s->roofed);
    for (int c = 0; c < v->ncol; c++) {
        h = add_bb(h, s->buildings[c]);
        h = add(h, (uint64_t)(palace_cell(s, s->palace_tile[c]) + 1) | (uint64_t)(palace_cell(s, s->open_palace[c]) + 1) << 16);
    }
    for (int t = 1; t <= 4; t++)
        h = add(h, (uint64_t)(palace_cell(s, s->tower_tile[t]) + 1) | (uint64_t)(uint8_t)s->tower_merchants_left[t] << 16);
    for (int q = 0; q < v->players; q++) {
        h = add(h, (uint64_t)s->owned[q] | (uint64_t)(uint16_t)s->tea[q] << 32);
        for (int k = 0; k < v->npieces; k++) h = add(h, (uint64_t)(uint16_t)s->supply[q][k] << 8 | (uint64_t)k);
    }
    uint64_t owners = 0;  /* a sum: the same in any order of the palaces */
    for (int i = 0; i < s->npalaces; i++)
        owners += mix((uint64_t)(palace_cell(s, i) + 1) << 16 | (uint64_t)(uint8_t)(s->palaces[i].owner + 2) << 8
                      | s->palaces[i].connected);
    return add(h, owners);
}

/* --- the tree: positions (nodes) found by their key, moves (edges) best first by greedy ---------- */
typedef struct {
    int move, child;  /* child: the node after the move, -1 until first taken */
} Edge;

typedef struct {
    uint64_t key;
    int visits, first, count;  /* edges first..first+count-1; count -1 until the node is expanded */
    double reward[MAXP], margin[MAXP];
} Node;

typedef struct {
    Node *nodes;
    Edge *edges;
    int *slots;  /* open addressing on the key: node + 1, 0 for an empty slot */
    int nodes_used, nodes_room, edges_used, edges_room;
    uint64_t slot_mask;
} Tree;

static int grow(void **array, int *room, int need, size_t item) {
    if (need <= *room) return 0;
    int wanted = *room ? *room : 1024;
    while (wanted < need) {
        if (wanted > (1 << 29)) return -1;
        wanted *= 2;
    }
    void *bigger = realloc(*array, item * (size_t)wanted);
    if (!bigger) return -1;
    *array = bigger;
    *room = wanted;
    return 0;
}

static int rehash(Tree *t, uint64_t size) {
    int *slots = calloc(size, sizeof(int));
    if (!slots) return -1;
    for (int i = 0; i < t->nodes_used; i++) {
        uint64_t at = t->nodes[i].key & (size - 1);
        while (slots[at]) at = (at + 1) & (size - 1);
        slots[at] = i + 1;
    }
    free(t->slots);
    t->slots = slots;
    t->slot_mask = size - 1;
    return 0;
}

/* The node of `key`, made (unexpanded, unvisited) where it is new; -1 where memory fails. */
static int node_of(Tree *t, uint64_t key) {
    uint64_t at = key & t->slot_mask;
    for (; t->slots[at]; at = (at + 1) & t->slot_mask)
        if (t->nodes[t->slots[at] - 1].key == key) return t->slots[at] - 1;
    if (grow((void **)&t->nodes, &t->nodes_room, t->nodes_used + 1, sizeof(Node)) < 0) return -1;
    int id = t->nodes_used++;
    memset(&t->nodes[id], 0, sizeof(Node));
    t->nodes[id].key = key;
    t->nodes[id].count = -1;
    t->slots[at] = id + 1;
    if ((uint64_t)t->nodes_used * 2 > t->slot_mask && rehash(t, (t->slot_mask + 1) * 2) < 0) return -1;
    return id;
}

typedef struct {  /* room for every distinct move of a position, and a trial position (greedy_margins) */
    int *moves, *values, *scratch;
    State *trial;
} Scratch;

static int expand(const Variant *v, const State *s, Tree *t, int node, Rng *r, const SearchParams *p, Scratch *w) {
    int n = greedy_margins(v, s, r, p->small, w->moves, w->values, w->scratch, w->trial);
    if (!n) return SEARCH_NO_PLACEMENT;
    if (grow((void **)&t->edges, &t->edges_room, t->edges_used + n, sizeof(Edge)) < 0) return SEARCH_NO_MEMORY;
    Node *at = &t->nodes[node];
    at->first = t->edges_used;
    at->count = n;
    for (int i = 0; i < n; i++) t->edges[t->edges_used + i] = (Edge){w->moves[i], -1};
    t->edges_used += n;
    return 0;
}

/* The edge to follow from `node` (where `seat` moves): the first untried one while widening allows,
 * else the highest upper confidence bound of the seat's reward. */
static int select_edge(const Tree *t, int node, int seat, const SearchParams *p) {
    const Node *at = &t->nodes[node];
    double allowed = 1.0 + p->widening * sqrt((double)at->visits);
    int open = at->count < allowed ? at->count : (int)allowed;
    double log_n = log((double)(at->visits > 0 ? at->visits : 1));
    int best = at->first;
    double best_value = -INFINITY;
    for (int e = at->first; e < at->first + open; e++) {
        int child = t->edges[e].child;
        if (child < 0 || !t->nodes[child].visits) return e;
        const Node *c = &t->nodes[child];
        double value = c->reward[seat] / c->visits + p->exploration * sqrt(log_n / c->visits);
        if (value > best_value) {
            best = e;
            best_value = value;
        }
    }
    return best;
}

/* Up to p->rollout placements, each greedy's best with the chance p->greedy, else uniform among the
 * distinct moves; then with p->finish to the end as `playout` plays; 0, or SEARCH_NO_PLACEMENT. */
static int rollout(const Variant *v, State *s, Rng *r, const SearchParams *p, Scratch *w) {
    for (int i = 0; i < p->rollout && s->seat >= 0; i++) {
        int move;
        if (rng_random(r) < p->greedy) {
            if (!greedy_margins(v, s, r, p->small, w->moves, w->values, w->scratch, w->trial)) return SEARCH_NO_PLACEMENT;
            move = w->moves[0];
        } else {
            int n = distinct_moves(v, s, w->moves);
            if (!n) return SEARCH_NO_PLACEMENT;
            move = w->moves[rng_below(r, (uint64_t)n)];
        }
        play_move(v, s, move);
    }
    if (p->finish && s->seat >= 0 && informed_playout(v, s, r, p->tea_chance, p->small, p->good, p->bad) < 0)
        return SEARCH_NO_PLACEMENT;
    return 0;
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int by_visits(const void *a, const void *b) {
    const RootMove *x = a, *y = b;
    if (x->visits != y->visits) return y->visits - x->visits;
    if (x->reward != y->reward) return y->reward > x->reward ? 1 : -1;
    return x->move - y->move;
}

int mcts_search(const Variant *v, const State *root, uint64_t seed, int64_t iterations, double seconds,
                const SearchParams *p, int (*interrupted)(void), RootMove *out, int *count, int64_t *done,
                double *root_margin) {
    int capacity = MAXPIECES * MAXCELLS + 1, result = 0, path_room = 0;
    Tree t = {0};
    Scratch w = {malloc(sizeof(int) * (size_t)capacity), malloc(sizeof(int) * (size_t)capacity),
                 malloc(sizeof(int) * 2 * (size_t)capacity), malloc(sizeof(State))};
    State *game = malloc(sizeof(State));
    int *path = NULL;
    Rng r;
    uint32_t words[2] = {(uint32_t)seed, (uint32_t)(seed >> 32)};
    rng_seed(&r, words, 2);
    *count = 0;
    *done = 0;
    if (!w.moves || !w.values || !w.scratch || !w.trial || !game || rehash(&t, 4096) < 0
        || grow((void **)&path, &path_room, 256, sizeof(int)) < 0) {
        result = SEARCH_NO_MEMORY;
        goto end;
    }
    if (root->seat < 0) {
        result = SEARCH_NO_PLACEMENT;
        goto end;
    }
    int top = node_of(&t, position_key(v, root));
    if (top < 0) { result = SEARCH_NO_MEMORY; goto end; }
    double deadline = seconds > 0 ? now() + seconds : 0;
    for (int64_t k = 0; k < iterations; k++) {
        if ((k & 255) == 0 && interrupted && interrupted()) { result = SEARCH_INTERRUPTED; goto end; }
        if (deadline && (k & 15) == 0 && k && now() > deadline) break;
        if ((size_t)t.nodes_used * sizeof(Node) + (size_t)t.edges_used * sizeof(Edge) > SEARCH_MAX_TREE_BYTES) break;
        state_copy(game, root);
        int depth = 0, node = top;
        path[depth++] = node;
        while (game->seat >= 0 && (t.nodes[node].visits || node == top)) {  /* the root expands at once */
            if (t.nodes[node].count < 0 && (result = expand(v, game, &t, node, &r, p, &w)) < 0) goto end;
            int edge = select_edge(&t, node, game->seat, p);
            play_move(v, game, t.edges[edge].move);
            if (t.edges[edge].child < 0) {
                int child = node_of(&t, position_key(v, game));
                if (child < 0) { result = SEARCH_NO_MEMORY; goto end; }
                t.edges[edge].child = child;
            }
            node = t.edges[edge].child;
            if (grow((void **)&path, &path_room, depth + 1, sizeof(int)) < 0) { result = SEARCH_NO_MEMORY; goto end; }
            path[depth++] = node;
        }
        if ((result = rollout(v, game, &r, p, &w)) < 0) goto end;
        double values[MAXP], margin[MAXP], reward[MAXP];
        evaluate(v, game, p, values);
        rewards_of(v, values, p->temperature, margin, reward);
        if (game->seat < 0) {  /* the game's end: half the reward is the win share */
            int scores[MAXP], seats[MAXP], n;
            totals(v, game, scores);
            n = winners(v, game, scores, seats);
            for (int q = 0; q < v->players; q++) reward[q] *= 0.5;
            for (int i = 0; i < n; i++) reward[seats[i]] += 0.5 / n;
        }
        for (int i = 0; i < depth; i++) {
            Node *n = &t.nodes[path[i]];
            n->visits++;
            for (int q = 0; q < v->players; q++) {
                n->reward[q] += reward[q];
                n->margin[q] += margin[q];
            }
        }
        *done = k + 1;
    }
    const Node *at = &t.nodes[top];
    for (int q = 0; q < v->players; q++) root_margin[q] = at->visits ? at->margin[q] / at->visits : 0.0;
    for (int e = at->first; e < at->first + (at->count > 0 ? at->count : 0); e++) {
        int child = t.edges[e].child;
        if (child < 0 || !t.nodes[child].visits) continue;
        const Node *c = &t.nodes[child];
        out[*count] = (RootMove){t.edges[e].move, c->visits, c->reward[root->seat] / c->visits,
                                 c->margin[root->seat] / c->visits};
        (*count)++;
    }
    qsort(out, (size_t)*count, sizeof(RootMove), by_visits);
end:
    free(path);
    free(t.nodes);
    free(t.edges);
    free(t.slots);
    free(w.moves);
    free(w.values);
    free(w.scratch);
    free(w.trial);
    free(game);
    return result;
}

/* --- alpha-beta: a depth-limited paranoid search (see search.h) -------------------------------- */
typedef struct {  /* one ply's own room: its moves in greedy's order, and the position after one of them */
    int *moves, *values;
    State *child;
} AlphaBetaPly;

typedef struct {
    const Variant *v;
    const SearchParams *p;
    Rng *r;
    int root_seat, limited, stopped;  /* limited: the budget applies; stopped: ALPHABETA_SPENT or SEARCH_INTERRUPTED */
    int64_t nodes, max_nodes;
    double deadline;
    int (*interrupted)(void);
    int *scratch;  /* greedy_margins' scratch and trial position, shared by every ply */
    State *trial;
    AlphaBetaPly ply[ALPHABETA_MAX_DEPTH];
} AlphaBeta;

enum { ALPHABETA_SPENT = 1 };

/* The root seat's evaluation minus the best other seat's. */
static double root_margin(const AlphaBeta *ab, const State *s) {
    double values[MAXP], best = -INFINITY;
    evaluate(ab->v, s, ab->p, values);
    for (int q = 0; q < ab->v->players; q++)
        if (q != ab->root_seat && values[q] > best) best = values[q];
    return values[ab->root_seat] - best;
}

/* Counts a node about to be searched; nonzero (and ab->stopped set) once the search must stop. */
static int spent(AlphaBeta *ab) {
    ab->nodes++;
    if ((ab->nodes & 255) == 0 && ab->interrupted && ab->interrupted()) ab->stopped = SEARCH_INTERRUPTED;
    else if (ab->limited && ab->max_nodes > 0 && ab->nodes > ab->max_nodes) ab->stopped = ALPHABETA_SPENT;
    else if (ab->limited && ab->deadline && (ab->nodes & 255) == 0 && now() > ab->deadline) ab->stopped = ALPHABETA_SPENT;
    return ab->stopped;
}

/* The value of `s` searched `depth` placements deep at `ply`, fail-soft within (alpha, beta): the root
 * seat maximises, every other seat minimises; a position without placements is a leaf. */
static double ab_value(AlphaBeta *ab, const State *s, int depth, int ply, double alpha, double beta) {
    if (s->seat < 0 || depth == 0) return root_margin(ab, s);
    AlphaBetaPly *at = &ab->ply[ply];
    int n = greedy_margins(ab->v, s, ab->r, ab->p->small, at->moves, at->values, ab->scratch, ab->trial);
    if (!n) return root_margin(ab, s);
    int maximising = s->seat == ab->root_seat;
    double best = maximising ? -INFINITY : INFINITY;
    for (int i = 0; i < n && alpha < beta; i++) {
        if (spent(ab)) return 0;
        state_copy(at->child, s);
        play_move(ab->v, at->child, at->moves[i]);
        double value = ab_value(ab, at->child, depth - 1, ply + 1, alpha, beta);
        if (ab->stopped) return 0;
        if (maximising && value > best) {
            best = value;
            if (best > alpha) alpha = best;
        } else if (!maximising && value < best) {
            best = value;
            if (best < beta) beta = best;
        }
    }
    return best;
}

/* Stable: the higher value first, then the earlier place. */
static void sort_rated(RatedMove *moves, int n) {
    for (int i = 1; i < n; i++) {
        RatedMove x = moves[i];
        int j = i;
        for (; j > 0 && moves[j - 1].value < x.value; j--) moves[j] = moves[j - 1];
        moves[j] = x;
    }
}

int alphabeta_search(const Variant *v, const State *root, Rng *r, int depth, int64_t max_nodes, double seconds,
                     int exact, const SearchParams *p, int (*interrupted)(void), RatedMove *out, int *count,
                     int *reached, int64_t *nodes) {
    int capacity = MAXPIECES * MAXCELLS + 1, result = 0;
    AlphaBeta ab = {v, p, r, root->seat, 0, 0, 0, max_nodes, seconds > 0 ? now() + seconds : 0, interrupted,
                    malloc(sizeof(int) * 2 * (size_t)capacity), malloc(sizeof(State)), {{0}}};
    RatedMove *next = malloc(sizeof(RatedMove) * (size_t)capacity);
    *count = *reached = 0;
    *nodes = 0;
    depth = depth < 1 ? 1 : depth > ALPHABETA_MAX_DEPTH ? ALPHABETA_MAX_DEPTH : depth;
    int ok = ab.scratch && ab.trial && next;
    for (int d = 0; d < depth; d++) {
        AlphaBetaPly *at = &ab.ply[d];
        at->moves = malloc(sizeof(int) * (size_t)capacity);
        at->values = malloc(sizeof(int) * (size_t)capacity);
        at->child = malloc(sizeof(State));
        ok = ok && at->moves && at->values && at->child;
    }
    if (!ok) {
        result = SEARCH_NO_MEMORY;
        goto end;
    }
    int n = root->seat < 0 ? 0 : greedy_margins(v, root, r, p->small, ab.ply[0].moves, ab.ply[0].values, ab.scratch, ab.trial);
    if (!n) {
        result = SEARCH_NO_PLACEMENT;
        goto end;
    }
    for (int i = 0; i < n; i++) out[i] = (RatedMove){ab.ply[0].moves[i], ab.ply[0].values[i]};
    for (int d = 1; d <= depth && !ab.stopped; d++) {
        ab.limited = d > 1;
        double alpha = -INFINITY;
        for (int i = 0; i < n; i++) {
            if (spent(&ab)) break;
            state_copy(ab.ply[0].child, root);
            play_move(v, ab.ply[0].child, out[i].move);
            double value = ab_value(&ab, ab.ply[0].child, d - 1, 1, exact ? -INFINITY : alpha, INFINITY);
            if (ab.stopped) break;
            next[i] = (RatedMove){out[i].move, value};
            if (value > alpha) alpha = value;
        }
        if (ab.stopped) break;
        sort_rated(next, n);
        memcpy(out, next, sizeof(RatedMove) * (size_t)n);
        *reached = d;
    }
    if (ab.stopped == SEARCH_INTERRUPTED) result = SEARCH_INTERRUPTED;
    else *count = n;
end:
    *nodes = ab.nodes;
    for (int d = 0; d < depth; d++) {
        free(ab.ply[d].moves);
        free(ab.ply[d].values);
        free(ab.ply[d].child);
    }
    free(ab.scratch);
    free(ab.trial);
    free(next);
    return result;
}
