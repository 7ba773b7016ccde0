/* The compiled inner loops of Sudoku Explainer's pattern producers (techniques.se).
 *
 * Each function here has a pure-Python twin in explainer/core/sepattern.py that
 * returns the same value for the same arguments (tests/core compare them on
 * states SE reached and on random ones). SE is a 9×9 program: a state comes in
 * as ``cand``, a list of 81 value masks (bit v-1 for value v, 0 for a placed
 * cell). The functions return the first hint of SE's scan as plain values;
 * the techniques write the step.
 *
 *   aligned(cand, degree, classic) -> (cells, excluders, removals) or None
 *       Sudoku Explainer's aligned pair (degree 2) or triplet (3) exclusion:
 *       its first base set that removes something (cells in SE's order, the
 *       common excluders in index order, removals as (cell, value) pairs).
 *
 *   unique_loops(cand, holding, start, both, per_branch, valid) -> list of loops
 *       Sudoku Explainer's unique-loop walk from the bivalue cell ``start``
 *       (techniques.uniqueloops._se_walk is its pure twin): ``holding`` the
 *       cells holding both values of ``both`` (a mask of 81 bits), each loop a
 *       list of cells in the order the walk closes them; ``valid``: only the
 *       loops that pass SE's test (techniques.uniqueloops._se_valid).
 */
#include "glue.h"

#define CELLS 81

typedef struct {
    uint64_t lo, hi; /* cells 0-63, 64-80 */
} set81;

static inline void set_add(set81 *s, int c) {
    if (c < 64) s->lo |= (uint64_t)1 << c;
    else s->hi |= (uint64_t)1 << (c - 64);
}
static inline int set_has(const set81 *s, int c) {
    return c < 64 ? (int)(s->lo >> c & 1) : (int)(s->hi >> (c - 64) & 1);
}
static inline set81 set_and(set81 a, set81 b) {
    set81 r = {a.lo & b.lo, a.hi & b.hi};
    return r;
}
static inline int set_count(set81 s) { return __builtin_popcountll(s.lo) + __builtin_popcountll(s.hi); }

/* ---- SE's geometry: each cell's peers in a flavour's order ------------------------------- */

static int PEERS[2][CELLS][20]; /* [classic][cell]: Sukaku Explainer's order (index), classic SE's (box, row, column) */
static set81 HOUSE[CELLS][3];  /* each cell's block, row and column (SE's order of region types) */
static int REGION[CELLS][3];   /* their numbers: rows 0-8, columns 9-17, blocks 18-26 */
static unsigned char SEES[CELLS][CELLS];
static int READY = 0;

static void geometry(void) {
    if (READY) return;
    for (int c = 0; c < CELLS; c++) {
        int r = c / 9, k = c % 9, b = 3 * (r / 3) + k / 3, n = 0;
        for (int x = 0; x < CELLS; x++) {
            int xb = 3 * (x / 9 / 3) + (x % 9) / 3;
            SEES[c][x] = x != c && (x / 9 == r || x % 9 == k || xb == b);
            if (SEES[c][x]) PEERS[0][c][n++] = x;
        }
        /* classic SE: the block's cells, then the row's, then the column's, each cell once */
        REGION[c][0] = 18 + b;
        REGION[c][1] = r;
        REGION[c][2] = 9 + k;
        for (int x = 0; x < CELLS; x++) {
            int xb = 3 * (x / 9 / 3) + (x % 9) / 3;
            if (xb == b) set_add(&HOUSE[c][0], x);
            if (x / 9 == r) set_add(&HOUSE[c][1], x);
            if (x % 9 == k) set_add(&HOUSE[c][2], x);
        }
        int seen[CELLS] = {0}, m = 0;
        int r0 = 3 * (b / 3), c0 = 3 * (b % 3);
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) {
                int x = (r0 + i) * 9 + c0 + j;
                if (x != c && !seen[x]) { seen[x] = 1; PEERS[1][c][m++] = x; }
            }
        for (int j = 0; j < 9; j++) {
            int x = r * 9 + j;
            if (x != c && !seen[x]) { seen[x] = 1; PEERS[1][c][m++] = x; }
        }
        for (int i = 0; i < 9; i++) {
            int x = i * 9 + k;
            if (x != c && !seen[x]) { seen[x] = 1; PEERS[1][c][m++] = x; }
        }
    }
    READY = 1;
}

/* ---- aligned exclusion ------------------------------------------------------------------- */

/* the values of a mask, ascending (values 1..9): their count */
static int values(unsigned mask, int *out) {
    int k = 0;
    for (int v = 1; v <= 9; v++)
        if (mask >> (v - 1) & 1) out[k++] = v;
    return k;
}

/* the removals of a base set (k cells, their masks): candidates no possible combination uses;
 * their count (0: none), written as (cell, value) pairs */
static int removals(const unsigned *cand, const int *cells, int k, const int *walls, int nwalls, int *out) {
    unsigned masks[3], used[3] = {0, 0, 0};
    int vals[3][9], nv[3];
    for (int i = 0; i < k; i++) {
        masks[i] = cand[cells[i]];
        nv[i] = values(masks[i], vals[i]);
    }
    int sees[3][3];
    for (int i = 0; i < k; i++)
        for (int j = 0; j < k; j++) sees[i][j] = SEES[cells[i]][cells[j]];
    int idx[2] = {0, 0}, heads = k - 1;
    for (;;) {
        int combo[2], ok = 1;
        unsigned chosen = 0;
        for (int i = 0; i < heads; i++) {
            combo[i] = vals[i][idx[i]];
            for (int j = 0; j < i; j++)
                if (combo[j] == combo[i] && sees[i][j]) ok = 0;
            chosen |= 1u << (combo[i] - 1);
        }
        if (ok) {
            unsigned allowed = masks[k - 1];
            for (int i = 0; i < heads; i++)
                if (sees[i][k - 1]) allowed &= ~(1u << (combo[i] - 1));
            for (int w = 0; w < nwalls && allowed; w++) {
                unsigned rest = cand[walls[w]] & ~chosen;
                if (!rest) allowed = 0;
                else if (!(rest & (rest - 1))) allowed &= ~rest;
            }
            if (allowed) {
                for (int i = 0; i < heads; i++) used[i] |= 1u << (combo[i] - 1);
                used[k - 1] |= allowed;
                int full = 1;
                for (int i = 0; i < k; i++)
                    if (used[i] != masks[i]) full = 0;
                if (full) return 0;
            }
        }
        /* the next combination of the first k - 1 cells (the last one's index moves fastest) */
        int i = heads - 1;
        while (i >= 0 && ++idx[i] == nv[i]) idx[i--] = 0;
        if (i < 0) break;
    }
    int n = 0;
    for (int i = 0; i < k; i++)
        for (int v = 1; v <= 9; v++)
            if ((masks[i] & ~used[i]) >> (v - 1) & 1) {
                out[2 * n] = cells[i];
                out[2 * n + 1] = v;
                n++;
            }
    return n;
}

static PyObject *hint(const int *cells, int k, set81 common, const int *rem, int nrem) {
    int walls[CELLS], nwalls = 0;
    for (int c = 0; c < CELLS; c++)
        if (set_has(&common, c)) walls[nwalls++] = c;
    PyObject *out_cells = ints_to_py(cells, k, 1);
    PyObject *out_walls = ints_to_py(walls, nwalls, 1);
    PyObject *out_rem = PyList_New(0);
    for (int i = 0; out_rem && i < nrem; i++)
        if (list_add(out_rem, Py_BuildValue("(ii)", rem[2 * i], rem[2 * i + 1])) < 0) Py_CLEAR(out_rem);
    if (!out_cells || !out_walls || !out_rem) {
        Py_XDECREF(out_cells);
        Py_XDECREF(out_walls);
        Py_XDECREF(out_rem);
        return NULL;
    }
    return Py_BuildValue("(NNN)", out_cells, out_walls, out_rem);
}

/* a state's 81 value masks into ``cand``: 0, or -1 with the error set */
static int read_cand(PyObject *cand_obj, unsigned *cand) {
    PyObject *seq = PySequence_Fast(cand_obj, "cand: a sequence of 81 masks");
    if (!seq) return -1;
    if (PySequence_Fast_GET_SIZE(seq) != CELLS) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "cand: 81 masks (Sudoku Explainer's grids are 9x9)");
        return -1;
    }
    for (int c = 0; c < CELLS; c++) {
        long x = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, c));
        if (x == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
        cand[c] = (unsigned)x;
    }
    Py_DECREF(seq);
    return 0;
}

static PyObject *aligned(PyObject *self, PyObject *args) {
    PyObject *cand_obj;
    int degree, classic;
    if (!PyArg_ParseTuple(args, "Oii", &cand_obj, &degree, &classic)) return NULL;
    if (degree != 2 && degree != 3) {
        PyErr_SetString(PyExc_ValueError, "aligned exclusion: degree 2 or 3");
        return NULL;
    }
    unsigned cand[CELLS];
    if (read_cand(cand_obj, cand) < 0) return NULL;
    geometry();
    const int(*order)[20] = PEERS[classic ? 1 : 0];
    /* SE's base cells, their excluders (in the flavour's peer order) and their mask */
    int base[CELLS], nb = 0, is_base[CELLS] = {0};
    int excl[CELLS][20], nexcl[CELLS];
    set81 mask[CELLS];
    for (int c = 0; c < CELLS; c++) {
        if (__builtin_popcount(cand[c]) < 2) continue;
        int single = 0, n = 0;
        set81 m = {0, 0};
        for (int i = 0; i < 20; i++) {
            int p = order[c][i], kp = __builtin_popcount(cand[p]);
            if (kp == 1) single = 1;
            else if (kp >= 2 && kp <= degree) {
                excl[c][n++] = p;
                set_add(&m, p);
            }
        }
        if (!single && n) {
            base[nb++] = c;
            is_base[c] = 1;
            nexcl[c] = n;
            mask[c] = m;
        }
    }
    if (nb < degree) Py_RETURN_NONE;
    int rem[2 * 27];
    for (int j = 1; j < nb; j++)
        for (int i = 0; i < j; i++) {
            int a = base[i], b = base[j];
            set81 pair = set_and(mask[a], mask[b]);
            if (set_count(pair) < 2) continue;
            if (degree == 2) {
                int cells[2] = {a, b}, walls[CELLS], nwalls = 0;
                for (int c = 0; c < CELLS; c++)
                    if (set_has(&pair, c)) walls[nwalls++] = c;
                int n = removals(cand, cells, 2, walls, nwalls, rem);
                if (n) return hint(cells, 2, pair, rem, n);
                continue;
            }
            /* the third cell: an excluder of a, then of b, that is a base cell (each once) */
            int tail[40], nt = 0;
            unsigned char taken[CELLS] = {0};
            for (int s = 0; s < 2; s++) {
                int x = s ? b : a;
                for (int t = 0; t < nexcl[x]; t++) {
                    int c = excl[x][t];
                    if (taken[c]) continue;
                    taken[c] = 1;
                    if (is_base[c] && c != a && c != b) tail[nt++] = c;
                }
            }
            for (int t = 0; t < nt; t++) {
                int c = tail[t];
                set81 common = set_and(pair, mask[c]);
                if (set_count(common) < 2) continue;
                int cells[3] = {a, b, c}, walls[CELLS], nwalls = 0;
                for (int x = 0; x < CELLS; x++)
                    if (set_has(&common, x)) walls[nwalls++] = x;
                int n = removals(cand, cells, 3, walls, nwalls, rem);
                if (n) return hint(cells, 3, common, rem, n);
            }
        }
    Py_RETURN_NONE;
}

/* ---- unique loops ------------------------------------------------------------------------ */

typedef struct {
    const unsigned *cand;
    set81 holding;    /* the cells holding both values */
    int start;
    unsigned both;    /* the two values' mask */
    int per_branch;   /* Sukaku Explainer: the extras per branch; classic SE: shared by siblings */
    int valid;        /* record only the loops passing SE's test */
    int loop[CELLS];  /* the current path */
    int n;
    PyObject *out;    /* the loops found; NULL once an error is set */
} walk_t;

/* SE's test: no region holds two cells at places of one parity, and the regions of the odd and
 * the even places are the same */
static int valid_loop(const int *loop, int n) {
    uint32_t seen[2] = {0, 0};
    for (int i = 0; i < n; i++)
        for (int t = 0; t < 3; t++) {
            uint32_t h = (uint32_t)1 << REGION[loop[i]][t];
            if (seen[i % 2] & h) return 0;
            seen[i % 2] |= h;
        }
    return seen[0] == seen[1];
}

/* one step of the walk, as _se_walk's visit: the path goes on from ``cell`` to the cells holding
 * both values in its regions but the one it came along (``last``), in index order */
static void visit(walk_t *w, int cell, int allowed, unsigned extras, int last, set81 used) {
    w->loop[w->n++] = cell;
    set_add(&used, cell);
    unsigned shared = extras;
    for (int kind = 0; kind < 3 && w->out; kind++) {
        if (kind == last) continue;
        set81 room = set_and(HOUSE[cell][kind], w->holding);
        for (int half = 0; half < 2 && w->out; half++) {
            uint64_t bitsleft = half ? room.hi : room.lo;
            while (bitsleft && w->out) {
                int nxt = __builtin_ctzll(bitsleft) + 64 * half;
                bitsleft &= bitsleft - 1;
                if (nxt == w->start && w->n >= 4) {
                    if (!w->valid || valid_loop(w->loop, w->n))
                        if (list_add(w->out, ints_to_py(w->loop, w->n, 0)) < 0) Py_CLEAR(w->out);
                } else if (!set_has(&used, nxt)) {
                    unsigned m = w->cand[nxt], mine;
                    if (w->per_branch) mine = (extras | m) & ~w->both;
                    else {
                        shared = (shared | m) & ~w->both;
                        mine = shared;
                    }
                    int k = __builtin_popcount(m);
                    if (k == 2 || __builtin_popcount(mine) == 1 || allowed > 0)
                        visit(w, nxt, allowed - (k > 2 ? 1 : 0), mine, kind, used);
                }
            }
        }
    }
    w->n--;
}

static PyObject *unique_loops(PyObject *self, PyObject *args) {
    PyObject *cand_obj, *holding_obj;
    int start, per_branch, valid;
    unsigned both;
    if (!PyArg_ParseTuple(args, "OOiIii", &cand_obj, &holding_obj, &start, &both, &per_branch, &valid)) return NULL;
    if (start < 0 || start >= CELLS) {
        PyErr_SetString(PyExc_ValueError, "unique loops: start is a cell of a 9x9 grid");
        return NULL;
    }
    walk_t w;
    unsigned cand[CELLS];
    if (read_cand(cand_obj, cand) < 0) return NULL;
    /* the holding mask: its low 64 bits, then the rest */
    w.holding.lo = PyLong_AsUnsignedLongLongMask(holding_obj);
    if (w.holding.lo == (uint64_t)-1 && PyErr_Occurred()) return NULL;
    PyObject *shift = PyLong_FromLong(64);
    PyObject *high = shift ? PyNumber_Rshift(holding_obj, shift) : NULL;
    Py_XDECREF(shift);
    if (!high) return NULL;
    w.holding.hi = PyLong_AsUnsignedLongLongMask(high) & (((uint64_t)1 << (CELLS - 64)) - 1);
    Py_DECREF(high);
    if (PyErr_Occurred()) return NULL;
    geometry();
    w.cand = cand;
    w.start = start;
    w.both = both;
    w.per_branch = per_branch;
    w.valid = valid;
    w.n = 0;
    w.out = PyList_New(0);
    if (!w.out) return NULL;
    set81 none = {0, 0};
    visit(&w, start, 2, 0, -1, none);
    return w.out;
}

static PyMethodDef methods[] = {
    {"aligned", aligned, METH_VARARGS, "Sudoku Explainer's aligned pair or triplet exclusion: its first hint."},
    {"unique_loops", unique_loops, METH_VARARGS, "Sudoku Explainer's unique-loop walk from a bivalue cell: its loops."},
    {NULL, NULL, 0, NULL}};

CORE_MODULE("explainer.core._sepattern", "The compiled inner loops of Sudoku Explainer's pattern producers.");

PyMODINIT_FUNC PyInit__sepattern(void) { return PyModule_Create(&module); }
