/* The CPython face of the native core (core.c): `Tables` (a variant's tables), `State` (a position
 * under play) and `Random` (the shared generator's state). Moves are ints: piece * cells + cell,
 * and `tea_move` for a tea tile. Bad input raises a Python exception; nothing here trusts a caller. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdlib.h>
#include "core.h"

#ifndef SOURCE_DIGEST
#define SOURCE_DIGEST ""        /* setup.py gives the SHA-256 of core.h, core.c and _core.c */
#endif
#ifndef MODULE
#define MODULE _core            /* _core_wide: the same sources with NW 11 */
#endif
#define GLUE(a, b) a##b
#define INIT(name) GLUE(PyInit_, name)
#define TEXT(x) #x
#define NAME(x) TEXT(x)
static PyTypeObject *SharedRandom = NULL;  /* in _core_wide: _core's Random, whose states it also draws from */

/* --- helpers -------------------------------------------------------------------------------- */
static int mask_from(PyObject *obj, bb *out, const char *what) {
    if (!PyBytes_Check(obj) || PyBytes_GET_SIZE(obj) != NW * 8) {
        PyErr_Format(PyExc_ValueError, "%s: expected %d bytes", what, NW * 8);
        return -1;
    }
    const unsigned char *b = (const unsigned char *)PyBytes_AS_STRING(obj);
    for (int i = 0; i < NW; i++) {
        uint64_t w = 0;
        for (int k = 7; k >= 0; k--) w = (w << 8) | b[i * 8 + k];
        out->w[i] = w;
    }
    return 0;
}

static PyObject *mask_bytes(bb m) {
    unsigned char b[NW * 8];
    for (int i = 0; i < NW; i++)
        for (int k = 0; k < 8; k++) b[i * 8 + k] = (unsigned char)(m.w[i] >> (8 * k));
    return PyBytes_FromStringAndSize((const char *)b, NW * 8);
}

static int int_items(PyObject *seq, int *out, int max, int low, int high, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > max) { Py_DECREF(fast); PyErr_Format(PyExc_ValueError, "%s: at most %d entries", what, max); return -1; }
    for (Py_ssize_t i = 0; i < n; i++) {
        long x = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (x == -1 && PyErr_Occurred()) { Py_DECREF(fast); return -1; }
        if (x < low || x > high) {
            Py_DECREF(fast);
            PyErr_Format(PyExc_ValueError, "%s: %ld is outside %d..%d", what, x, low, high);
            return -1;
        }
        out[i] = (int)x;
    }
    Py_DECREF(fast);
    return (int)n;
}

/* --- Random --------------------------------------------------------------------------------- */
typedef struct { PyObject_HEAD Rng rng; } RandomObject;
static PyTypeObject RandomType;

static int Random_init(RandomObject *self, PyObject *args, PyObject *kwds) {
    const char *key = NULL;
    Py_ssize_t length = 0;
    static char *names[] = {"key", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "y#", names, &key, &length)) return -1;
    if (length == 0 || length % 4 || length > 1 << 20) {
        PyErr_SetString(PyExc_ValueError, "key: a non-empty multiple of 4 bytes");
        return -1;
    }
    int words = (int)(length / 4);
    uint32_t *k = PyMem_Malloc(sizeof(uint32_t) * words);
    if (!k) { PyErr_NoMemory(); return -1; }
    for (int i = 0; i < words; i++) {
        const unsigned char *b = (const unsigned char *)key + 4 * i;
        k[i] = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
    }
    rng_seed(&self->rng, k, words);
    PyMem_Free(k);
    return 0;
}

static PyObject *Random_random(RandomObject *self, PyObject *unused) {
    return PyFloat_FromDouble(rng_random(&self->rng));
}

static PyObject *Random_getrandbits(RandomObject *self, PyObject *arg) {
    long k = PyLong_AsLong(arg);
    if (k == -1 && PyErr_Occurred()) return NULL;
    if (k < 0) { PyErr_SetString(PyExc_ValueError, "number of bits must be non-negative"); return NULL; }
    if (k == 0) return PyLong_FromLong(0);
    if (k <= 64) return PyLong_FromUnsignedLongLong(rng_bits(&self->rng, (int)k));
    /* wider: 32-bit words, least significant first, the last one cut to what is left */
    PyObject *result = PyLong_FromLong(0);
    for (long shift = 0; shift < k && result; shift += 32) {
        uint32_t word = rng_u32(&self->rng);
        if (k - shift < 32) word >>= 32 - (k - shift);
        PyObject *w = PyLong_FromUnsignedLong(word), *s = PyLong_FromLong(shift);
        PyObject *moved = (w && s) ? PyNumber_Lshift(w, s) : NULL;
        PyObject *next = moved ? PyNumber_Or(result, moved) : NULL;
        Py_XDECREF(w); Py_XDECREF(s); Py_XDECREF(moved); Py_DECREF(result);
        result = next;
    }
    return result;
}

static PyObject *Random_getstate(RandomObject *self, PyObject *unused) {
    PyObject *t = PyTuple_New(625);
    if (!t) return NULL;
    for (int i = 0; i < 624; i++) PyTuple_SET_ITEM(t, i, PyLong_FromUnsignedLong(self->rng.mt[i]));
    PyTuple_SET_ITEM(t, 624, PyLong_FromLong(self->rng.index));
    return t;
}

static PyObject *Random_setstate(RandomObject *self, PyObject *state) {
    if (!PyTuple_Check(state) || PyTuple_GET_SIZE(state) != 625) {
        PyErr_SetString(PyExc_ValueError, "state: a tuple of 625 ints");
        return NULL;
    }
    Rng r;
    for (int i = 0; i < 624; i++) {
        unsigned long x = PyLong_AsUnsignedLong(PyTuple_GET_ITEM(state, i));
        if (x == (unsigned long)-1 && PyErr_Occurred()) return NULL;
        if (x > 0xffffffffUL) { PyErr_SetString(PyExc_ValueError, "state: 32-bit words"); return NULL; }
        r.mt[i] = (uint32_t)x;
    }
    long index = PyLong_AsLong(PyTuple_GET_ITEM(state, 624));
    if (index == -1 && PyErr_Occurred()) return NULL;
    if (index < 0 || index > 624) { PyErr_SetString(PyExc_ValueError, "state: index outside 0..624"); return NULL; }
    r.index = (int)index;
    self->rng = r;
    Py_RETURN_NONE;
}

static PyMethodDef Random_methods[] = {
    {"random", (PyCFunction)Random_random, METH_NOARGS, "x in [0, 1), as random.random()"},
    {"getrandbits", (PyCFunction)Random_getrandbits, METH_O, "k random bits, as random.getrandbits(k)"},
    {"getstate", (PyCFunction)Random_getstate, METH_NOARGS, "the 624 words and the index"},
    {"setstate", (PyCFunction)Random_setstate, METH_O, "back to a getstate()"},
    {NULL}};

static PyTypeObject RandomType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "medina_cli.engine.native." NAME(MODULE) ".Random",
    .tp_basicsize = sizeof(RandomObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "MT19937 seeded from a key of 32-bit words, as CPython's random.Random",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Random_init,
    .tp_methods = Random_methods,
};

/* --- Tables --------------------------------------------------------------------------------- */
typedef struct { PyObject_HEAD Variant *v; } TablesObject;
static PyTypeObject TablesType;
static PyTypeObject StateType;

static void Tables_dealloc(TablesObject *self) {
    PyMem_Free(self->v);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int Tables_init(TablesObject *self, PyObject *args, PyObject *kwds) {
    static char *names[] = {"width", "height", "ring", "interior", "towers", "orth_of", "king_of", "tower_cells",
                            "colour_values", "supply", "players", "placements", "opening_single", "forced_rule",
                            "check_after_first", "neutral_spares", "on_blocked_palace", "new_chain_max", "reconnect",
                            "stable_first_nwse", "tower_merchants", "tea_colour", "tea_awards", "tea_either",
                            "tea_keeps_open", "tea_blocks_forced", "retire_all_own", "retire_no_fit",
                            "merchants_touch_stables", "tiebreak_largest", "well_enabled", "well_bonus", NULL};
    PyObject *masks[3], *orth_of, *king_of, *tower_cells, *colour_values, *supply, *tower_merchants, *tea_awards;
    Variant *v = PyMem_Calloc(1, sizeof(Variant));
    if (!v) { PyErr_NoMemory(); return -1; }
    if (!PyArg_ParseTupleAndKeywords(
            args, kwds, "$iiOOOOOOOOiiiiiiiiiiOiOiiiiiiiii", names, &v->width, &v->height, &masks[0], &masks[1],
            &masks[2], &orth_of, &king_of, &tower_cells, &colour_values, &supply,
            &v->players, &v->placements, &v->opening_single, &v->forced_rule, &v->check_after_first,
            &v->neutral_spares, &v->on_blocked_palace, &v->new_chain_max, &v->reconnect, &v->stable_first_nwse,
            &tower_merchants, &v->tea_colour, &tea_awards, &v->tea_either, &v->tea_keeps_open,
            &v->tea_blocks_forced, &v->retire_all_own, &v->retire_no_fit, &v->merchants_touch_stables,
            &v->tiebreak_largest, &v->well_enabled, &v->well_bonus))
        goto fail;
    if (v->width < 6 || v->height < 6 || v->width * v->height > MAXCELLS || v->width >= 64) {
        PyErr_Format(PyExc_ValueError, "a %dx%d board is outside the native core's %d cells", v->width, v->height,
                     MAXCELLS);
        goto fail;
    }
    if (variant_palace_bound(v->width - 2, v->height - 2) > MAXPAL) {
        PyErr_SetString(PyExc_ValueError, "too many palaces fit this board for the native core");
        goto fail;
    }
    v->size = v->width * v->height;
    bb *targets[3] = {&v->ring, &v->interior, &v->towers};
    for (int i = 0; i < 3; i++) if (mask_from(masks[i], targets[i], names[i + 2]) < 0) goto fail;
    if (!PyBytes_Check(orth_of) || !PyBytes_Check(king_of) || PyBytes_GET_SIZE(orth_of) != (Py_ssize_t)v->size * NW * 8
        || PyBytes_GET_SIZE(king_of) != (Py_ssize_t)v->size * NW * 8) {
        PyErr_SetString(PyExc_ValueError, "orth_of, king_of: one mask per cell");
        goto fail;
    }
    for (int c = 0; c < v->size; c++) {
        PyObject *o = PyBytes_FromStringAndSize(PyBytes_AS_STRING(orth_of) + (Py_ssize_t)c * NW * 8, NW * 8);
        PyObject *k = o ? PyBytes_FromStringAndSize(PyBytes_AS_STRING(king_of) + (Py_ssize_t)c * NW * 8, NW * 8) : NULL;
        int bad = !k || mask_from(o, &v->orth_of[c], "orth_of") < 0 || mask_from(k, &v->king_of[c], "king_of") < 0;
        Py_XDECREF(o);
        Py_XDECREF(k);
        if (bad) goto fail;
    }
    if (variant_geometry(v) < 0) {
        PyErr_SetString(PyExc_ValueError, "orth_of, king_of, ring, interior, towers: not the neighbours of this board");
        goto fail;
    }
    v->ncol = int_items(colour_values, v->colour_value, MAXC, 0, 1000, "colour_values");
    if (v->ncol < 0) goto fail;
    if (v->ncol < 1) { PyErr_SetString(PyExc_ValueError, "colour_values: at least one colour"); goto fail; }
    v->npieces = v->ncol + FIXED_PIECES;
    v->roof = v->ncol, v->neutral = v->ncol + 1, v->stable = v->ncol + 2, v->merchant = v->ncol + 3;
    v->wall = v->ncol + 4;
    v->tea_move = v->npieces * v->size;
    if (int_items(supply, v->supply, MAXPIECES, 0, 1000, "supply") != v->npieces) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "supply: one count per piece");
        goto fail;
    }
    if (v->players < 2 || v->players > MAXP) { PyErr_SetString(PyExc_ValueError, "players: 2..6"); goto fail; }
    if (v->placements < 1 || v->placements > 100 || v->opening_single < 0 || v->forced_rule < 0 || v->forced_rule > 3
        || v->reconnect < 0 || v->reconnect > 2 || v->new_chain_max < 0 || v->tea_colour < -1
        || v->tea_colour >= v->ncol || v->well_bonus < 0) {
        PyErr_SetString(PyExc_ValueError, "a rule value outside what the native core knows");
        goto fail;
    }
    int merchants[5];
    if (int_items(tower_merchants, merchants, 5, -1, 100, "tower_merchants") != 5) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "tower_merchants: 5 entries");
        goto fail;
    }
    for (int t = 0; t < 5; t++) v->tower_merchants[t] = merchants[t];
    int awards[1024];
    int n = int_items(tea_awards, awards, 1024, 0, 1000, "tea_awards");
    if (n < 0) goto fail;
    v->ntea_awards = n < MAXPAL ? n : MAXPAL;  /* a game has at most MAXPAL claims */
    for (int i = 0; i < v->ntea_awards; i++) v->tea_awards[i] = awards[i];
    int cells[8];
    n = int_items(tower_cells, cells, 8, 0, v->size - 1, "tower_cells");
    if (n < 0) goto fail;
    if (n != 8) { PyErr_SetString(PyExc_ValueError, "tower_cells: (cell, number) of four corners, flat"); goto fail; }
    for (int i = 0; i < 8; i += 2) {
        if (!bb_test(v->towers, cells[i]) || cells[i + 1] < 1 || cells[i + 1] > 4) {
            PyErr_SetString(PyExc_ValueError, "tower_cells: a corner cell and a number 1..4");
            goto fail;
        }
        v->tower_of_cell[cells[i]] = (int8_t)cells[i + 1];
    }
    PyMem_Free(self->v);
    self->v = v;
    return 0;
fail:
    PyMem_Free(v);
    return -1;
}

static PyObject *Tables_get(TablesObject *self, void *what) {
    if (!self->v) { PyErr_SetString(PyExc_ValueError, "uninitialised tables"); return NULL; }
    const char *name = what;
    if (!strcmp(name, "size")) return PyLong_FromLong(self->v->size);
    if (!strcmp(name, "tea_move")) return PyLong_FromLong(self->v->tea_move);
    if (!strcmp(name, "players")) return PyLong_FromLong(self->v->players);
    if (!strcmp(name, "State")) { Py_INCREF(&StateType); return (PyObject *)&StateType; }
    return PyLong_FromLong(self->v->npieces);
}

static PyGetSetDef Tables_getset[] = {
    {"size", (getter)Tables_get, NULL, "cells of the board, ring included", "size"},
    {"tea_move", (getter)Tables_get, NULL, "the move of a tea tile", "tea_move"},
    {"players", (getter)Tables_get, NULL, "player count", "players"},
    {"pieces", (getter)Tables_get, NULL, "piece kinds (colours, then roof, neutral, stable, merchant, wall)", "pieces"},
    {"State", (getter)Tables_get, NULL, "the State type of this module (for positions of these tables)", "State"},
    {NULL}};

static PyTypeObject TablesType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "medina_cli.engine.native." NAME(MODULE) ".Tables",
    .tp_basicsize = sizeof(TablesObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A variant's tables for the native core (built by medina_cli.engine.native.tables)",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Tables_init,
    .tp_dealloc = (destructor)Tables_dealloc,
    .tp_getset = Tables_getset,
};

/* --- State ---------------------------------------------------------------------------------- */
typedef struct {
    PyObject_HEAD
    TablesObject *tables;
    State *s;
    State *history;   /* the positions before each push, for pop */
    int *pushed;      /* the moves pushed */
    Py_ssize_t depth, capacity;
} StateObject;

static void State_dealloc(StateObject *self) {
    Py_XDECREF(self->tables);
    PyMem_Free(self->s);
    PyMem_Free(self->history);
    PyMem_Free(self->pushed);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static StateObject *state_new(TablesObject *tables) {
    StateObject *self = PyObject_New(StateObject, &StateType);
    if (!self) return NULL;
    self->s = PyMem_Malloc(sizeof(State));
    self->history = NULL;
    self->pushed = NULL;
    self->depth = self->capacity = 0;
    Py_INCREF(tables);
    self->tables = tables;
    if (!self->s) { Py_DECREF(self); PyErr_NoMemory(); return NULL; }
    return self;
}

static PyObject *State_create(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    static char *names[] = {"tables", "merchant", "well", "supply", NULL};
    TablesObject *tables;
    int merchant, well = -1;
    PyObject *supply = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O!i|iO", names, &TablesType, &tables, &merchant, &well, &supply))
        return NULL;
    const Variant *v = tables->v;
    if (!v) { PyErr_SetString(PyExc_ValueError, "uninitialised tables"); return NULL; }
    if (merchant < 0 || merchant >= v->size || !bb_test(v->interior, merchant)
        || (well >= 0 && (well >= v->size || !bb_test(v->interior, well) || well == merchant))
        || (well >= 0) != (v->well_enabled != 0) || well < -1) {
        PyErr_SetString(PyExc_ValueError, "merchant and well: distinct interior cells (a well only where the rules have one)");
        return NULL;
    }
    int16_t counts[MAXP][MAXPIECES];
    int16_t (*start)[MAXPIECES] = NULL;
    if (supply != Py_None) {
        PyObject *fast = PySequence_Fast(supply, "supply: one sequence of counts per seat");
        if (!fast) return NULL;
        if (PySequence_Fast_GET_SIZE(fast) != v->players) {
            Py_DECREF(fast);
            PyErr_SetString(PyExc_ValueError, "supply: one sequence of counts per seat");
            return NULL;
        }
        for (int q = 0; q < v->players; q++) {
            int row[MAXPIECES];
            int n = int_items(PySequence_Fast_GET_ITEM(fast, q), row, MAXPIECES, 0, 10000, "supply");
            if (n != v->npieces) {
                Py_DECREF(fast);
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "supply: one count per piece");
                return NULL;
            }
            for (int p = 0; p < n; p++) counts[q][p] = (int16_t)row[p];
        }
        Py_DECREF(fast);
        start = counts;
    }
    StateObject *self = state_new(tables);
    if (!self) return NULL;
    state_start(v, self->s, merchant, well, (const int16_t (*)[MAXPIECES])start);
    return (PyObject *)self;
}

static PyObject *State_copy(StateObject *self, PyObject *unused) {
    StateObject *copy = state_new(self->tables);
    if (!copy) return NULL;
    state_copy(copy->s, self->s);
    return (PyObject *)copy;
}

static int move_arg(StateObject *self, PyObject *arg, int *move) {
    long m = PyLong_AsLong(arg);
    if (m == -1 && PyErr_Occurred()) return -1;
    if (m < 0 || m > self->tables->v->tea_move) { PyErr_Format(PyExc_ValueError, "move %ld: not a move of this variant", m); return -1; }
    *move = (int)m;
    return 0;
}

static PyObject *State_push(StateObject *self, PyObject *arg) {
    const Variant *v = self->tables->v;
    int move;
    if (move_arg(self, arg, &move) < 0) return NULL;
    if (!is_legal(v, self->s, move)) { PyErr_Format(PyExc_ValueError, "move %d: not legal here", move); return NULL; }
    if (self->depth == self->capacity) {
        Py_ssize_t capacity = self->capacity ? self->capacity * 2 : 8;
        State *history = PyMem_Realloc(self->history, sizeof(State) * capacity);
        if (!history) return PyErr_NoMemory();
        self->history = history;
        int *pushed = PyMem_Realloc(self->pushed, sizeof(int) * capacity);
        if (!pushed) return PyErr_NoMemory();
        self->pushed = pushed;
        self->capacity = capacity;
    }
    state_copy(&self->history[self->depth], self->s);
    self->pushed[self->depth++] = move;
    play_move(v, self->s, move);
    Py_RETURN_NONE;
}

static PyObject *State_play(StateObject *self, PyObject *arg) {  /* push without a way back */
    int move;
    if (move_arg(self, arg, &move) < 0) return NULL;
    if (!is_legal(self->tables->v, self->s, move)) { PyErr_Format(PyExc_ValueError, "move %d: not legal here", move); return NULL; }
    play_move(self->tables->v, self->s, move);
    Py_RETURN_NONE;
}

static PyObject *State_pop(StateObject *self, PyObject *unused) {
    if (!self->depth) { PyErr_SetString(PyExc_IndexError, "pop from an empty move stack"); return NULL; }
    self->depth--;
    state_copy(self->s, &self->history[self->depth]);
    return PyLong_FromLong(self->pushed[self->depth]);
}

static PyObject *int_list(const int *items, int n) {
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *x = PyLong_FromLong(items[i]);
        if (!x) { Py_DECREF(list); return NULL; }
        PyList_SET_ITEM(list, i, x);
    }
    return list;
}

static PyObject *moves_list(StateObject *self, int distinct) {
    int *moves = PyMem_Malloc(sizeof(int) * (MAXPIECES * MAXCELLS + 1));
    if (!moves) return PyErr_NoMemory();
    int n = (distinct ? distinct_moves : legal_moves)(self->tables->v, self->s, moves);
    PyObject *list = int_list(moves, n);
    PyMem_Free(moves);
    return list;
}

static PyObject *State_legal_moves(StateObject *self, PyObject *unused) { return moves_list(self, 0); }
static PyObject *State_distinct_moves(StateObject *self, PyObject *unused) { return moves_list(self, 1); }

static PyObject *State_masks(StateObject *self, PyObject *unused) {
    const Variant *v = self->tables->v;
    bb masks[MAXPIECES];
    legal_masks(v, self->s, masks);
    PyObject *t = PyTuple_New(v->npieces);
    if (!t) return NULL;
    for (int p = 0; p < v->npieces; p++) {
        PyObject *b = mask_bytes(masks[p]);
        if (!b) { Py_DECREF(t); return NULL; }
        PyTuple_SET_ITEM(t, p, b);
    }
    return t;
}

static PyObject *State_can_tea(StateObject *self, PyObject *unused) {
    return PyBool_FromLong(can_tea(self->tables->v, self->s));
}

static PyObject *State_is_legal(StateObject *self, PyObject *arg) {
    long m = PyLong_AsLong(arg);
    if (m == -1 && PyErr_Occurred()) return NULL;
    if (m < 0 || m > self->tables->v->tea_move) Py_RETURN_FALSE;
    return PyBool_FromLong(is_legal(self->tables->v, self->s, (int)m));
}

static Rng *rng_of(PyObject *obj) {
    if (!PyObject_TypeCheck(obj, &RandomType) && !(SharedRandom && PyObject_TypeCheck(obj, SharedRandom))) {
        PyErr_SetString(PyExc_TypeError, "rng: a medina_cli.engine.native._core.Random");
        return NULL;
    }
    return &((RandomObject *)obj)->rng;
}

static int max_moves(const Variant *v, const State *s) {  /* every piece and tea tile that can still be played */
    int n = 0;
    for (int q = 0; q < v->players; q++) {
        for (int p = 0; p < v->npieces; p++) n += s->supply[q][p];
        n += s->tea[q];
    }
    for (int t = 1; t <= 4; t++) if (s->tower_merchants_left[t] > 0) n += s->tower_merchants_left[t];
    for (int i = 0; i < v->ntea_awards; i++) n += v->tea_awards[i];
    return n + 1;
}

static PyObject *State_playout(StateObject *self, PyObject *args, PyObject *kwds) {
    static char *names[] = {"rng", "tea_chance", "roof_from", "log", NULL};
    PyObject *rng_obj, *roof_obj = Py_None;
    double tea_chance = 0.5;
    int roof_from = -1, want_log = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|dOp", names, &rng_obj, &tea_chance, &roof_obj, &want_log))
        return NULL;
    Rng *r = rng_of(rng_obj);
    if (!r) return NULL;
    if (roof_obj != Py_None) {
        long x = PyLong_AsLong(roof_obj);
        if (x == -1 && PyErr_Occurred()) return NULL;
        if (x < 0 || x > 100000) { PyErr_SetString(PyExc_ValueError, "roof_from: None or a size >= 0"); return NULL; }
        roof_from = (int)x;
    }
    const Variant *v = self->tables->v;
    int16_t *log = NULL;
    int size = 0;
    if (want_log) {
        size = max_moves(v, self->s);
        log = PyMem_Malloc(sizeof(int16_t) * 3 * (size_t)size);
        if (!log) return PyErr_NoMemory();
    }
    int played = playout(v, self->s, r, tea_chance, roof_from, log, size);
    if (played < 0) {
        PyMem_Free(log);
        PyErr_SetString(PyExc_RuntimeError, played == -1 ? "no legal placement for the player to move" : "log too short");
        return NULL;
    }
    if (!want_log) return PyLong_FromLong(played);
    PyObject *list = PyList_New(played);
    for (int i = 0; list && i < played; i++) {
        PyObject *item = Py_BuildValue("(iii)", log[3 * i], log[3 * i + 1], log[3 * i + 2]);
        if (!item) { Py_CLEAR(list); break; }
        PyList_SET_ITEM(list, i, item);
    }
    PyMem_Free(log);
    return list;
}

static PyObject *State_totals(StateObject *self, PyObject *unused) {
    int scores[MAXP];
    totals(self->tables->v, self->s, scores);
    return int_list(scores, self->tables->v->players);
}

static PyObject *State_outcome(StateObject *self, PyObject *unused) {  /* (totals, winners) */
    const Variant *v = self->tables->v;
    int scores[MAXP], seats[MAXP];
    totals(v, self->s, scores);
    int n = winners(v, self->s, scores, seats);
    PyObject *a = int_list(scores, v->players), *b = a ? int_list(seats, n) : NULL;
    if (!b) { Py_XDECREF(a); return NULL; }
    return Py_BuildValue("(NN)", a, b);
}

static PyObject *State_summary(StateObject *self, PyObject *unused) {
    /* (totals, winners, points by source, events counted, turns, placements), for a study:
     * points: palace pieces, merchants, walls, palace tiles, tower tiles, well (every seat's together);
     * events: tile transfers, passes, colour retirements, forced roofs */
    const Variant *v = self->tables->v;
    const State *s = self->s;
    Sources src;
    score_sources(v, s, &src);
    int scores[MAXP], seats[MAXP];
    totals(v, s, scores);
    int n = winners(v, s, scores, seats);
    PyObject *a = int_list(scores, v->players), *b = a ? int_list(seats, n) : NULL;
    if (!b) { Py_XDECREF(a); return NULL; }
    return Py_BuildValue("(NN(iiiiii)(iiii)ii)", a, b, src.pieces, src.merchants, src.walls, src.palace_tiles,
                         src.tower_tiles, src.well, s->transfers, s->passes, s->retirements, s->forced_roofs,
                         s->turns_started, s->placements_made);
}

static PyObject *holder(const State *s, int id) {  /* a tile's holder: seat, -1 neutral, None */
    if (id < 0) Py_RETURN_NONE;
    return PyLong_FromLong(s->palaces[id].owner);
}

static PyObject *State_observe(StateObject *self, PyObject *unused) {
    const Variant *v = self->tables->v;
    const State *s = self->s;
    PyObject *d = PyDict_New(), *x;
    if (!d) return NULL;
#define PUT(key, value) do { x = (value); if (!x || PyDict_SetItemString(d, key, x) < 0) { Py_XDECREF(x); Py_DECREF(d); return NULL; } Py_DECREF(x); } while (0)
    PUT("seat", s->seat < 0 ? (Py_INCREF(Py_None), Py_None) : PyLong_FromLong(s->seat));
    PUT("turn_placed", PyLong_FromLong(s->turn_placed));
    PUT("turn_slots", PyLong_FromLong(s->turn_slots));
    PUT("tea_used", PyBool_FromLong(s->tea_used));
    PUT("forced", PyBool_FromLong(s->forced));
    PUT("turns_started", PyLong_FromLong(s->turns_started));
    PUT("placements_made", PyLong_FromLong(s->placements_made));
    PUT("claims", PyLong_FromLong(s->claims));
    PUT("tea_claims", PyLong_FromLong(s->tea_claims));
    PUT("retired", PyLong_FromUnsignedLong(s->retired));
    PUT("chain_ends", Py_BuildValue("(ii)", s->chain_ends[0], s->chain_ends[1]));
    PyObject *supply = PyList_New(v->players), *tea = PyList_New(v->players), *owned = PyList_New(v->players);
    if (!supply || !tea || !owned) { Py_XDECREF(supply); Py_XDECREF(tea); Py_XDECREF(owned); Py_DECREF(d); return NULL; }
    for (int q = 0; q < v->players; q++) {
        int row[MAXPIECES];
        for (int p = 0; p < v->npieces; p++) row[p] = s->supply[q][p];
        PyList_SET_ITEM(supply, q, int_list(row, v->npieces));
        PyList_SET_ITEM(tea, q, PyLong_FromLong(s->tea[q]));
        PyList_SET_ITEM(owned, q, PyLong_FromUnsignedLong(s->owned[q]));
    }
    PUT("supply", supply);
    PUT("tea", tea);
    PUT("owned", owned);
    PyObject *palaces = PyList_New(s->npalaces);
    if (!palaces) { Py_DECREF(d); return NULL; }
    for (int i = 0; i < s->npalaces; i++) {
        const Palace *p = &s->palaces[i];
        PyObject *owner = p->owner == UNROOFED ? (Py_INCREF(Py_None), Py_None) : PyLong_FromLong(p->owner);
        PyObject *roof = p->roof < 0 ? (Py_INCREF(Py_None), Py_None) : PyLong_FromLong(p->roof);
        PyObject *order = p->claim_order < 0 ? (Py_INCREF(Py_None), Py_None) : PyLong_FromLong(p->claim_order);
        PyList_SET_ITEM(palaces, i, Py_BuildValue("(iNNNNNii)", p->colour, mask_bytes(p->buildings),
                                                  mask_bytes(p->stables), owner, roof, order, p->connected, p->size));
    }
    PUT("palaces", palaces);
    PyObject *tiles = PyList_New(v->ncol), *towers = PyList_New(4), *waiting = PyList_New(4), *open = PyList_New(v->ncol);
    if (!tiles || !towers || !waiting || !open) {
        Py_XDECREF(tiles); Py_XDECREF(towers); Py_XDECREF(waiting); Py_XDECREF(open); Py_DECREF(d); return NULL;
    }
    for (int c = 0; c < v->ncol; c++) {
        PyList_SET_ITEM(tiles, c, holder(s, s->palace_tile[c]));
        PyList_SET_ITEM(open, c, s->open_palace[c] < 0 ? (Py_INCREF(Py_None), Py_None) : PyLong_FromLong(s->open_palace[c]));
    }
    for (int t = 1; t <= 4; t++) {
        PyList_SET_ITEM(towers, t - 1, holder(s, s->tower_tile[t]));
        PyList_SET_ITEM(waiting, t - 1, PyLong_FromLong(s->tower_merchants_left[t]));
    }
    PUT("palace_tiles", tiles);
    PUT("tower_tiles", towers);
    PUT("tower_merchants_left", waiting);
    PUT("open_palaces", open);
    const bb *fields[] = {&s->occupied, &s->merchants, &s->walls, &s->stables, &s->roofed, &s->reach_once,
                          &s->reach_twice, &s->building_orth};
    const char *keys[] = {"occupied", "merchants", "walls", "stables", "roofed", "reach_once", "reach_twice",
                          "building_orth"};
    for (int i = 0; i < 8; i++) PUT(keys[i], mask_bytes(*fields[i]));
    PyObject *buildings = PyList_New(v->ncol);
    if (!buildings) { Py_DECREF(d); return NULL; }
    for (int c = 0; c < v->ncol; c++) PyList_SET_ITEM(buildings, c, mask_bytes(s->buildings[c]));
    PUT("buildings", buildings);
#undef PUT
    return d;
}

static PyObject *State_palace(StateObject *self, PyObject *arg) {  /* (buildings, size) of the palace on a cell, or None */
    long cell = PyLong_AsLong(arg);
    if (cell == -1 && PyErr_Occurred()) return NULL;
    if (cell < 0 || cell >= self->tables->v->size || self->s->palace_at[cell] == NONE_PALACE) Py_RETURN_NONE;
    const Palace *p = &self->s->palaces[self->s->palace_at[cell]];
    return Py_BuildValue("(Ni)", mask_bytes(p->buildings), palace_size(p));
}

static PyObject *State_margins(StateObject *self, PyObject *args) {
    PyObject *rng_obj;
    int small;
    if (!PyArg_ParseTuple(args, "Oi", &rng_obj, &small)) return NULL;
    Rng *r = rng_of(rng_obj);
    if (!r) return NULL;
    const Variant *v = self->tables->v;
    int *buffer = PyMem_Malloc(sizeof(int) * 4 * (MAXPIECES * MAXCELLS + 1));
    State *trial = PyMem_Malloc(sizeof(State));
    if (!buffer || !trial) { PyMem_Free(buffer); PyMem_Free(trial); return PyErr_NoMemory(); }
    int *moves = buffer, *values = moves + (MAXPIECES * MAXCELLS + 1);
    int n = greedy_margins(v, self->s, r, small, moves, values, values + (MAXPIECES * MAXCELLS + 1), trial);
    PyMem_Free(trial);
    PyObject *list = PyList_New(n);
    for (int i = 0; list && i < n; i++) {
        PyObject *item = Py_BuildValue("(ii)", moves[i], values[i]);
        if (!item) { Py_CLEAR(list); break; }
        PyList_SET_ITEM(list, i, item);
    }
    PyMem_Free(buffer);
    return list;
}

static PyObject *State_get(StateObject *self, void *what) {
    const char *name = what;
    const State *s = self->s;
    if (!strcmp(name, "seat")) { if (s->seat < 0) Py_RETURN_NONE; return PyLong_FromLong(s->seat); }
    if (!strcmp(name, "depth")) return PyLong_FromSsize_t(self->depth);
    if (!strcmp(name, "over")) return PyBool_FromLong(s->seat < 0);
    if (!strcmp(name, "turn_open")) return PyBool_FromLong(s->seat >= 0 && (s->turn_placed > 0 || s->tea_used));
    Py_INCREF(self->tables);
    return (PyObject *)self->tables;
}

static PyGetSetDef State_getset[] = {
    {"seat", (getter)State_get, NULL, "the seat to move; None once the game is over", "seat"},
    {"over", (getter)State_get, NULL, "nobody can place anything any more", "over"},
    {"turn_open", (getter)State_get, NULL, "the player to move has begun his turn", "turn_open"},
    {"depth", (getter)State_get, NULL, "pushes that pop can undo", "depth"},
    {"tables", (getter)State_get, NULL, "the variant's tables", "tables"},
    {NULL}};

static PyMethodDef State_methods[] = {
    {"copy", (PyCFunction)State_copy, METH_NOARGS, "the same position (a memory copy), with nothing to pop"},
    {"push", (PyCFunction)State_push, METH_O, "play a legal move, keeping the way back for pop (ValueError: not legal)"},
    {"play", (PyCFunction)State_play, METH_O, "play a legal move with no way back (ValueError: not legal)"},
    {"pop", (PyCFunction)State_pop, METH_NOARGS, "undo the last push and return its move"},
    {"legal_moves", (PyCFunction)State_legal_moves, METH_NOARGS, "every legal move, piece order then cell order, tea last"},
    {"distinct_moves", (PyCFunction)State_distinct_moves, METH_NOARGS, "legal_moves with a roof once per palace"},
    {"masks", (PyCFunction)State_masks, METH_NOARGS, "the legal cells of each piece, as bytes"},
    {"can_tea", (PyCFunction)State_can_tea, METH_NOARGS, "may a tea tile replace a placement now"},
    {"is_legal", (PyCFunction)State_is_legal, METH_O, "is the move legal now"},
    {"playout", (PyCFunction)(void (*)(void))State_playout, METH_VARARGS | METH_KEYWORDS,
     "play to the end as engine.playout.play_out does (tea_chance; roof_from: None, or roof the largest "
     "palace once it has that many pieces); log=True returns [(move, seat, opens_turn)]"},
    {"totals", (PyCFunction)State_totals, METH_NOARGS, "each seat's total now"},
    {"outcome", (PyCFunction)State_outcome, METH_NOARGS, "(totals, winning seats)"},
    {"summary", (PyCFunction)State_summary, METH_NOARGS,
     "(totals, winners, points by source, events counted, turns, placements), for a study"},
    {"observe", (PyCFunction)State_observe, METH_NOARGS, "the whole position, for the differential test"},
    {"palace", (PyCFunction)State_palace, METH_O, "(buildings, size) of the palace on a cell, or None"},
    {"margins", (PyCFunction)State_margins, METH_VARARGS, "greedy ratings: [(move, margin)] best first"},
    {NULL}};

static PyTypeObject StateType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "medina_cli.engine.native." NAME(MODULE) ".State",
    .tp_basicsize = sizeof(StateObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A position under play: State(tables, merchant, well=-1, supply=None)",
    .tp_new = State_create,
    .tp_dealloc = (destructor)State_dealloc,
    .tp_methods = State_methods,
    .tp_getset = State_getset,
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, NAME(MODULE), "The native Medina core.", -1, NULL};

PyMODINIT_FUNC INIT(MODULE)(void) {
    if (PyType_Ready(&RandomType) < 0 || PyType_Ready(&TablesType) < 0 || PyType_Ready(&StateType) < 0) return NULL;
#if NW != 4
    PyObject *narrow = PyImport_ImportModule("medina_cli.engine.native._core");
    if (!narrow) return NULL;
    SharedRandom = (PyTypeObject *)PyObject_GetAttrString(narrow, "Random");
    Py_DECREF(narrow);
    if (!SharedRandom) return NULL;
    if (!PyType_Check(SharedRandom) || SharedRandom->tp_basicsize != (Py_ssize_t)sizeof(RandomObject)) {
        PyErr_SetString(PyExc_ImportError, "_core.Random is not the generator this module knows");
        return NULL;
    }
#endif
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&RandomType);
    Py_INCREF(&TablesType);
    Py_INCREF(&StateType);
    if (PyModule_AddObject(m, "Random", (PyObject *)&RandomType) < 0 || PyModule_AddObject(m, "Tables", (PyObject *)&TablesType) < 0
        || PyModule_AddObject(m, "State", (PyObject *)&StateType) < 0 || PyModule_AddIntConstant(m, "MAX_CELLS", MAXCELLS) < 0
        || PyModule_AddIntConstant(m, "MAX_COLOURS", MAXC) < 0 || PyModule_AddIntConstant(m, "MAX_PLAYERS", MAXP) < 0
        || PyModule_AddIntConstant(m, "MASK_BYTES", NW * 8) < 0
        || PyModule_AddStringConstant(m, "SOURCE_DIGEST", SOURCE_DIGEST) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
