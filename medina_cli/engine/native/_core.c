/* The CPython face of the native core (core.c): `Tables` (a variant's tables), `State` (a position
 * under play) and `Random` (the shared generator's state). Moves are ints: piece * cells + cell,
 * and `tea_move` for a tea tile. Bad input raises a Python exception; nothing here trusts a caller. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdlib.h>
#include "core.h"
#include "search.h"

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

static PyObject *Unsupported;  /* a variant beyond what the core holds (a ValueError): the Python engine plays it */

/* The ints of `seq` into `out` (at most `max` of them, each in low..high): their count, or -1 with
 * `error` (a type of ValueError) set. */
static int int_items(PyObject *seq, int *out, int max, int low, int high, const char *what, PyObject *error) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > max) { Py_DECREF(fast); PyErr_Format(error, "%s: at most %d entries", what, max); return -1; }
    for (Py_ssize_t i = 0; i < n; i++) {
        long x = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (x == -1 && PyErr_Occurred()) { Py_DECREF(fast); return -1; }
        if (x < low || x > high) {
            Py_DECREF(fast);
            PyErr_Format(error, "%s: %ld is outside %d..%d", what, x, low, high);
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
    /* wider: 32-bit words, least significant first, the last one cut to what is left; made into an int
     * at once (word by word would take time quadratic in k, with Ctrl-C unheard meanwhile) */
    Py_ssize_t words = (Py_ssize_t)((k - 1) / 32 + 1);
    PyObject *bytes = PyBytes_FromStringAndSize(NULL, words * 4);
    if (!bytes) return NULL;
    unsigned char *out = (unsigned char *)PyBytes_AS_STRING(bytes);
    for (Py_ssize_t i = 0; i < words; i++, k -= 32) {
        uint32_t word = rng_u32(&self->rng);
        if (k < 32) word >>= 32 - k;
        for (int b = 0; b < 4; b++) out[4 * i + b] = (unsigned char)(word >> (8 * b));
    }
    PyObject *result = PyObject_CallMethod((PyObject *)&PyLong_Type, "from_bytes", "Os", bytes, "little");
    Py_DECREF(bytes);
    return result;
}

static PyObject *Random_getstate(RandomObject *self, PyObject *unused) {
    PyObject *t = PyTuple_New(625);
    if (!t) return NULL;
    for (int i = 0; i <= 624; i++) {
        PyObject *x = i < 624 ? PyLong_FromUnsignedLong(self->rng.mt[i]) : PyLong_FromLong(self->rng.index);
        if (!x) { Py_DECREF(t); return NULL; }
        PyTuple_SET_ITEM(t, i, x);
    }
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
    if (self->v) {  /* States read their tables on every call: new tables under an existing State would break it */
        PyErr_SetString(PyExc_TypeError, "Tables are made once: make new Tables rather than initialising these again");
        return -1;
    }
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
    if (v->width < 6 || v->height < 6 || v->width >= 64 || v->height > MAXCELLS / v->width) {  /* no overflow */
        PyErr_Format(Unsupported, "a %dx%d board is outside the native core's %d cells", v->width, v->height,
                     MAXCELLS);
        goto fail;
    }
    if (variant_palace_bound(v->width - 2, v->height - 2) > MAXPAL) {
        PyErr_Format(Unsupported, "more than %d palaces fit this board", MAXPAL);
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
    v->ncol = int_items(colour_values, v->colour_value, MAXC, 0, MAX_COLOUR_VALUE, "colour_values", Unsupported);
    if (v->ncol < 0) goto fail;
    if (v->ncol < 1) { PyErr_SetString(PyExc_ValueError, "colour_values: at least one colour"); goto fail; }
    v->npieces = v->ncol + FIXED_PIECES;
    v->roof = v->ncol, v->neutral = v->ncol + 1, v->stable = v->ncol + 2, v->merchant = v->ncol + 3;
    v->wall = v->ncol + 4;
    v->tea_move = v->npieces * v->size;
    if (int_items(supply, v->supply, MAXPIECES, 0, MAX_SUPPLY, "supply", Unsupported) != v->npieces) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "supply: one count per piece");
        goto fail;
    }
    if (v->players < 2 || v->players > MAXP) { PyErr_Format(Unsupported, "players: 2..%d", MAXP); goto fail; }
    if (v->placements > MAX_PLACEMENTS) { PyErr_Format(Unsupported, "placements: at most %d", MAX_PLACEMENTS); goto fail; }
    if (v->placements < 1 || v->opening_single < 0 || v->forced_rule < 0 || v->forced_rule > 3
        || v->reconnect < 0 || v->reconnect > 2 || v->new_chain_max < 0 || v->tea_colour < -1
        || v->tea_colour >= v->ncol || v->well_bonus < 0) {
        PyErr_SetString(PyExc_ValueError, "a rule value outside what the native core knows");
        goto fail;
    }
    int merchants[5];
    if (int_items(tower_merchants, merchants, 5, -1, MAX_TOWER_MERCHANTS, "tower_merchants", Unsupported) != 5) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "tower_merchants: 5 entries");
        goto fail;
    }
    for (int t = 0; t < 5; t++) v->tower_merchants[t] = merchants[t];
    PyObject *held = PySequence_GetSlice(tea_awards, 0, MAXPAL);  /* a game has at most MAXPAL claims */
    if (!held) goto fail;
    v->ntea_awards = int_items(held, v->tea_awards, MAXPAL, 0, MAX_TEA_AWARD, "tea_awards", Unsupported);
    Py_DECREF(held);
    if (v->ntea_awards < 0) goto fail;
    int cells[8];
    int n = int_items(tower_cells, cells, 8, 0, v->size - 1, "tower_cells", PyExc_ValueError);
    if (n < 0) goto fail;
    if (n != 8) { PyErr_SetString(PyExc_ValueError, "tower_cells: (cell, number) of four corners, flat"); goto fail; }
    unsigned numbers = 0;
    for (int i = 0; i < 8; i += 2) {  /* each corner (the towers' mask) once, each number 1..4 once */
        if (!bb_test(v->towers, cells[i]) || v->tower_of_cell[cells[i]] || cells[i + 1] < 1 || cells[i + 1] > 4
            || (numbers >> cells[i + 1] & 1)) {
            PyErr_SetString(PyExc_ValueError, "tower_cells: each corner cell once, with the numbers 1..4");
            goto fail;
        }
        numbers |= 1U << cells[i + 1];
        v->tower_of_cell[cells[i]] = (int8_t)cells[i + 1];
    }
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
            int n = int_items(PySequence_Fast_GET_ITEM(fast, q), row, MAXPIECES, 0, MAX_SUPPLY, "supply", PyExc_ValueError);
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

static PyObject *int_or_none(int x, int none) {  /* x, or None where x is `none` */
    if (x == none) Py_RETURN_NONE;
    return PyLong_FromLong(x);
}

static PyObject *holder(const State *s, int id) {  /* a tile's holder: seat, -1 neutral, None */
    return id < 0 ? int_or_none(id, id) : PyLong_FromLong(s->palaces[id].owner);
}

/* d[key] = value, the reference to `value` (NULL: an error already raised) given up either way */
static int put(PyObject *d, const char *key, PyObject *value) {
    if (!value) return -1;
    int failed = PyDict_SetItemString(d, key, value);
    Py_DECREF(value);
    return failed;
}

/* list[i] = item (NULL: an error already raised); a list left with empty items is safe to release */
static int set_item(PyObject *list, Py_ssize_t i, PyObject *item) {
    if (!item) return -1;
    PyList_SET_ITEM(list, i, item);
    return 0;
}

static PyObject *State_observe(StateObject *self, PyObject *unused) {
    const Variant *v = self->tables->v;
    const State *s = self->s;
    PyObject *d = PyDict_New(), *list = NULL;
    if (!d) return NULL;
#define PUT(key, value) do { if (put(d, key, value) < 0) goto fail; } while (0)
#define LIST(key, n, i, item) do {  /* d[key] = [item for i in range(n)] */ \
        if (!(list = PyList_New(n))) goto fail; \
        for (Py_ssize_t i = 0; i < (n); i++) if (set_item(list, i, item) < 0) goto fail; \
        PyObject *made = list; \
        list = NULL; \
        PUT(key, made); \
    } while (0)
    PUT("seat", int_or_none(s->seat, -1));
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
    int supply[MAXP][MAXPIECES];  /* one list per seat, in piece order */
    for (int q = 0; q < v->players; q++)
        for (int p = 0; p < v->npieces; p++) supply[q][p] = s->supply[q][p];
    LIST("supply", v->players, q, int_list(supply[q], v->npieces));
    LIST("tea", v->players, q, PyLong_FromLong(s->tea[q]));
    LIST("owned", v->players, q, PyLong_FromUnsignedLong(s->owned[q]));
    const Palace *p = s->palaces;
    LIST("palaces", s->npalaces, i, Py_BuildValue(
        "(iNNNNNii)", p[i].colour, mask_bytes(p[i].buildings), mask_bytes(p[i].stables),
        int_or_none(p[i].owner, UNROOFED), int_or_none(p[i].roof, -1),
        int_or_none(p[i].claim_order, -1), p[i].connected, p[i].size));
    LIST("palace_tiles", v->ncol, c, holder(s, s->palace_tile[c]));
    LIST("tower_tiles", 4, t, holder(s, s->tower_tile[t + 1]));
    LIST("tower_merchants_left", 4, t, PyLong_FromLong(s->tower_merchants_left[t + 1]));
    LIST("open_palaces", v->ncol, c, int_or_none(s->open_palace[c], -1));
    const bb *fields[] = {&s->occupied, &s->merchants, &s->walls, &s->stables, &s->roofed, &s->reach_once,
                          &s->reach_twice, &s->building_orth};
    const char *keys[] = {"occupied", "merchants", "walls", "stables", "roofed", "reach_once", "reach_twice",
                          "building_orth"};
    for (int i = 0; i < 8; i++) PUT(keys[i], mask_bytes(*fields[i]));
    LIST("buildings", v->ncol, c, mask_bytes(s->buildings[c]));
#undef LIST
#undef PUT
    return d;
fail:
    Py_XDECREF(list);
    Py_DECREF(d);
    return NULL;
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

/* Ctrl-C heard within a search (which may run without the GIL: it takes it to ask) */
static int signalled(void) {
    PyGILState_STATE held = PyGILState_Ensure();
    int heard = PyErr_CheckSignals() < 0;
    PyGILState_Release(held);
    return heard;
}

static PyObject *State_search_samples(StateObject *self, PyObject *args, PyObject *kwds) {
    static char *names[] = {"move", "key", "start", "stop", "exploration", "widening", "tea_chance", "roof_from", NULL};
    PyObject *move_obj, *key_obj;
    long long start, stop;
    double exploration, widening, tea_chance;
    int roof_from, move;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOLLdddi", names, &move_obj, &key_obj, &start, &stop, &exploration,
                                     &widening, &tea_chance, &roof_from))
        return NULL;
    const Variant *v = self->tables->v;
    if (move_arg(self, move_obj, &move) < 0) return NULL;
    if (!is_legal(v, self->s, move)) { PyErr_Format(PyExc_ValueError, "move %d: not legal here", move); return NULL; }
    if (!PyLong_Check(key_obj)) { PyErr_SetString(PyExc_TypeError, "key: an int"); return NULL; }
    unsigned long long key = PyLong_AsUnsignedLongLong(key_obj);
    if (key == (unsigned long long)-1 && PyErr_Occurred()) {
        PyErr_SetString(PyExc_ValueError, "key: an int in 0..2**64-1");
        return NULL;
    }
    if (start < 0 || stop < start || stop > (1LL << 32) || stop - start > SEARCH_MAX_SAMPLES) {
        PyErr_Format(PyExc_ValueError, "start, stop: 0 <= start <= stop <= 2**32, at most %d samples a call",
                     SEARCH_MAX_SAMPLES);
        return NULL;
    }
    if (!isfinite(exploration) || exploration < 0 || !isfinite(widening) || widening < 0 || !isfinite(tea_chance)
        || tea_chance < 0) {
        PyErr_SetString(PyExc_ValueError, "exploration, widening, tea_chance: finite numbers >= 0");
        return NULL;
    }
    if (roof_from < 0 || roof_from > 100000) { PyErr_SetString(PyExc_ValueError, "roof_from: a size >= 0"); return NULL; }
    Py_ssize_t n = (Py_ssize_t)(stop - start);
    int *margins = PyMem_Malloc(sizeof(int) * (size_t)(n ? n : 1));
    double *shares = PyMem_Malloc(sizeof(double) * (size_t)(n ? n : 1));
    if (!margins || !shares) { PyMem_Free(margins); PyMem_Free(shares); return PyErr_NoMemory(); }
    SearchHooks hooks = {PyMem_Malloc, PyMem_Free, signalled};
    int done = search_samples(v, self->s, move, (uint64_t)key, start, stop, exploration, widening, tea_chance,
                              roof_from, &hooks, margins, shares);
    PyObject *list = NULL;
    if (done == SEARCH_NO_MEMORY) PyErr_NoMemory();
    else if (done == SEARCH_NO_PLACEMENT) PyErr_SetString(PyExc_RuntimeError, "no legal placement for the player to move");
    else if (done == 0) list = PyList_New(n);  /* SEARCH_INTERRUPTED: the signal handler's exception is set */
    for (Py_ssize_t i = 0; list && i < n; i++) {
        PyObject *item = Py_BuildValue("(id)", margins[i], shares[i]);
        if (!item) { Py_CLEAR(list); break; }
        PyList_SET_ITEM(list, i, item);
    }
    PyMem_Free(margins);
    PyMem_Free(shares);
    return list;
}

/* SearchParams from a tuple in search.h's order */
static int params_of(PyObject *obj, SearchParams *p) {
    if (!PyTuple_Check(obj) || PyTuple_GET_SIZE(obj) != 12) {
        PyErr_SetString(PyExc_TypeError, "params: a tuple of 12 numbers (search.h's SearchParams)");
        return -1;
    }
    double x[12];
    for (int i = 0; i < 12; i++) {
        x[i] = PyFloat_AsDouble(PyTuple_GET_ITEM(obj, i));
        if (x[i] == -1.0 && PyErr_Occurred()) return -1;
        if (!isfinite(x[i]) || x[i] < 0) {
            PyErr_Format(PyExc_ValueError, "params[%d]: a finite number >= 0", i);
            return -1;
        }
    }
    if (x[2] > 10000 || x[7] > 100000 || x[4] <= 0) {
        PyErr_SetString(PyExc_ValueError, "params: rollout <= 10000, small <= 100000, temperature > 0");
        return -1;
    }
    *p = (SearchParams){x[0], x[1], (int)x[2], x[3], x[4], x[5], x[6], (int)x[7], x[8] != 0, x[9], x[10], x[11]};
    return 0;
}

static PyObject *State_key(StateObject *self, PyObject *unused) {
    (void)unused;
    return PyLong_FromUnsignedLongLong(position_key(self->tables->v, self->s));
}

static PyObject *State_evaluate(StateObject *self, PyObject *arg) {
    SearchParams p;
    if (params_of(arg, &p) < 0) return NULL;
    const Variant *v = self->tables->v;
    double values[MAXP];
    evaluate(v, self->s, &p, values);
    PyObject *list = PyList_New(v->players);
    for (int q = 0; list && q < v->players; q++) {
        PyObject *item = PyFloat_FromDouble(values[q]);
        if (!item) { Py_CLEAR(list); break; }
        PyList_SET_ITEM(list, q, item);
    }
    return list;
}

static PyObject *State_mcts(StateObject *self, PyObject *args, PyObject *kwds) {
    static char *names[] = {"seed", "iterations", "seconds", "params", NULL};
    unsigned long long seed;
    long long iterations;
    double seconds;
    PyObject *params_obj;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "KLdO", names, &seed, &iterations, &seconds, &params_obj)) return NULL;
    SearchParams p;
    if (params_of(params_obj, &p) < 0) return NULL;
    if (iterations < 1 || !isfinite(seconds) || seconds < 0) {
        PyErr_SetString(PyExc_ValueError, "iterations >= 1, seconds >= 0 (0: no limit)");
        return NULL;
    }
    if (self->s->seat < 0) { PyErr_SetString(PyExc_ValueError, "the game is over"); return NULL; }
    RootMove *out = PyMem_Malloc(sizeof(RootMove) * (MAXPIECES * MAXCELLS + 1));
    State *root = PyMem_Malloc(sizeof(State));
    if (!out || !root) { PyMem_Free(out); PyMem_Free(root); return PyErr_NoMemory(); }
    state_copy(root, self->s);  /* the search reads its own copy: other threads run meanwhile */
    int count;
    int64_t done;
    double root_margin[MAXP];
    int result;
    Py_BEGIN_ALLOW_THREADS
    result = mcts_search(self->tables->v, root, (uint64_t)seed, iterations, seconds, &p, signalled, out, &count, &done,
                         root_margin);
    Py_END_ALLOW_THREADS
    PyMem_Free(root);
    PyObject *list = NULL;
    if (result == SEARCH_NO_MEMORY) PyErr_NoMemory();
    else if (result == SEARCH_NO_PLACEMENT) PyErr_SetString(PyExc_RuntimeError, "no legal placement for the player to move");
    else if (result == 0) list = PyList_New(count);  /* SEARCH_INTERRUPTED: the signal handler's exception is set */
    for (int i = 0; list && i < count; i++) {
        PyObject *item = Py_BuildValue("(iidd)", out[i].move, out[i].visits, out[i].reward, out[i].margin);
        if (!item) { Py_CLEAR(list); break; }
        PyList_SET_ITEM(list, i, item);
    }
    PyMem_Free(out);
    PyObject *margins = list ? PyList_New(self->tables->v->players) : NULL;
    for (int q = 0; margins && q < self->tables->v->players; q++) {
        PyObject *item = PyFloat_FromDouble(root_margin[q]);
        if (!item) { Py_CLEAR(margins); break; }
        PyList_SET_ITEM(margins, q, item);
    }
    if (!margins) { Py_XDECREF(list); return NULL; }
    return Py_BuildValue("(NLN)", list, (long long)done, margins);
}

static PyObject *State_alphabeta(StateObject *self, PyObject *args, PyObject *kwds) {
    static char *names[] = {"rng", "depth", "max_nodes", "seconds", "params", "exact", NULL};
    PyObject *rng_obj, *params_obj;
    int depth, exact = 0;
    long long max_nodes;
    double seconds;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OiLdO|p", names, &rng_obj, &depth, &max_nodes, &seconds, &params_obj,
                                     &exact))
        return NULL;
    Rng *r = rng_of(rng_obj);
    if (!r) return NULL;
    SearchParams p;
    if (params_of(params_obj, &p) < 0) return NULL;
    if (depth < 1 || depth > ALPHABETA_MAX_DEPTH || max_nodes < 0 || !isfinite(seconds) || seconds < 0) {
        PyErr_Format(PyExc_ValueError, "depth in 1..%d, max_nodes >= 0, seconds >= 0 (0: no limit)", ALPHABETA_MAX_DEPTH);
        return NULL;
    }
    if (self->s->seat < 0) { PyErr_SetString(PyExc_ValueError, "the game is over"); return NULL; }
    RatedMove *out = PyMem_Malloc(sizeof(RatedMove) * (MAXPIECES * MAXCELLS + 1));
    if (!out) return PyErr_NoMemory();
    int count, reached;
    int64_t nodes;
    State *root = PyMem_Malloc(sizeof(State));
    if (!root) { PyMem_Free(out); return PyErr_NoMemory(); }
    state_copy(root, self->s);  /* the search works on copies of the position and the generator: other */
    Rng draws = *r;             /* threads run meanwhile */
    int result;
    Py_BEGIN_ALLOW_THREADS
    result = alphabeta_search(self->tables->v, root, &draws, depth, max_nodes, seconds, exact, &p, signalled, out,
                              &count, &reached, &nodes);
    Py_END_ALLOW_THREADS
    *r = draws;
    PyMem_Free(root);
    PyObject *list = NULL;
    if (result == SEARCH_NO_MEMORY) PyErr_NoMemory();
    else if (result == SEARCH_NO_PLACEMENT) PyErr_SetString(PyExc_RuntimeError, "no legal placement for the player to move");
    else if (result == 0) list = PyList_New(count);  /* SEARCH_INTERRUPTED: the signal handler's exception is set */
    for (int i = 0; list && i < count; i++) {
        PyObject *item = Py_BuildValue("(id)", out[i].move, out[i].value);
        if (!item) { Py_CLEAR(list); break; }
        PyList_SET_ITEM(list, i, item);
    }
    PyMem_Free(out);
    if (!list) return NULL;
    return Py_BuildValue("(NiL)", list, reached, (long long)nodes);
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
    {"__copy__", (PyCFunction)State_copy, METH_NOARGS, "copy(): copy.copy and copy.deepcopy (the tables never change)"},
    {"__deepcopy__", (PyCFunction)State_copy, METH_O, "copy()"},
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
    {"key", (PyCFunction)State_key, METH_NOARGS, "the search's transposition key (search.h's position_key)"},
    {"evaluate", (PyCFunction)State_evaluate, METH_O, "each seat's value in points (search.h's evaluate; params: SearchParams)"},
    {"mcts", (PyCFunction)(void (*)(void))State_mcts, METH_VARARGS | METH_KEYWORDS,
     "mcts(seed, iterations, seconds, params): ([(move, visits, mean reward, mean margin)] most visited first, descents, [each seat's mean margin])"},
    {"alphabeta", (PyCFunction)(void (*)(void))State_alphabeta, METH_VARARGS | METH_KEYWORDS,
     "alphabeta(rng, depth, max_nodes, seconds, params, exact=False): a paranoid alpha-beta search (search.h's "
     "alphabeta_search; 0: no limit), ([(move, value)] best first, depth completed, nodes searched)"},
    {"search_samples", (PyCFunction)(void (*)(void))State_search_samples, METH_VARARGS | METH_KEYWORDS,
     "search_samples(move, key, start, stop, exploration, widening, tea_chance, roof_from): samples start..stop-1 "
     "of a UCT search of the position after `move`, as agents.mcts.play_batch makes them: [(margin, win share)] "
     "of the seat that makes `move`"},
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
        Py_CLEAR(SharedRandom);
        return NULL;
    }
#endif
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    if (!Unsupported) Unsupported = PyErr_NewExceptionWithDoc(
        "medina_cli.engine.native." NAME(MODULE) ".Unsupported",
        "A variant beyond what this core holds (its limits are the MAX_ constants): the Python engine plays it.",
        PyExc_ValueError, NULL);
    if (!Unsupported || PyModule_AddObjectRef(m, "Unsupported", Unsupported) < 0) { Py_DECREF(m); return NULL; }
    if (PyModule_AddType(m, &RandomType) < 0 || PyModule_AddType(m, &TablesType) < 0
        || PyModule_AddType(m, &StateType) < 0 || PyModule_AddIntConstant(m, "MAX_CELLS", MAXCELLS) < 0
        || PyModule_AddIntConstant(m, "MAX_COLOURS", MAXC) < 0 || PyModule_AddIntConstant(m, "MAX_PLAYERS", MAXP) < 0
        || PyModule_AddIntConstant(m, "MAX_PALACES", MAXPAL) < 0 || PyModule_AddIntConstant(m, "MAX_SUPPLY", MAX_SUPPLY) < 0
        || PyModule_AddIntConstant(m, "MAX_COLOUR_VALUE", MAX_COLOUR_VALUE) < 0
        || PyModule_AddIntConstant(m, "MAX_TEA_AWARD", MAX_TEA_AWARD) < 0
        || PyModule_AddIntConstant(m, "MAX_TOWER_MERCHANTS", MAX_TOWER_MERCHANTS) < 0
        || PyModule_AddIntConstant(m, "MAX_PLACEMENTS", MAX_PLACEMENTS) < 0
        || PyModule_AddIntConstant(m, "MASK_BYTES", NW * 8) < 0
        || PyModule_AddIntConstant(m, "ALPHABETA_MAX_DEPTH", ALPHABETA_MAX_DEPTH) < 0
        || PyModule_AddStringConstant(m, "SOURCE_DIGEST", SOURCE_DIGEST) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
