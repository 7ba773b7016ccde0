/* The compiled fish and tuple searches: the loops of techniques/fish.py and techniques/subsets.py.
 *
 * Each function here has a pure-Python twin in explainer/core/fish.py that returns the same list
 * for the same input (tests/core/test_fish.py compares them on real and random states of every
 * size). They read candidate bitmasks only and return compact leads in the order the finders
 * yield them; the steps (texts, roles) are built in Python for the lead the engine takes.
 *
 * - ``fish_of(n, v, pv)``, ``finned_of(n, v, pv)``: one value's fish from its places ``pv`` (a
 *   cell mask), as ``techniques.fish`` keeps them per value in the session;
 * - ``naked_hits(n, cand, top)``, ``hidden_hits(n, cand, top)``: the tuples of every house, sizes
 *   2..top, in the finders' order (size, house, discovery).
 *
 * Per-size tables (the houses, their cells in ``Geometry.houses``' order) are built once per grid
 * size and kept (a pure function of the size).
 */
#include "glue.h"

#define MAXN 25
#define MAXP 4 /* the largest fish and tuple searched */

/* ---- geometry ---------------------------------------------------------------------------- */

typedef struct {
    int n, m, N, nw;
    cellset house[3 * MAXN];   /* rows, columns, boxes (explainer.model.grid's order) */
    int hcell[3 * MAXN][MAXN]; /* each house's cells in that order */
} geo_t;

static geo_t *GEOS[MAXN + 1];

static const geo_t *geo_of(int n) {
    if (n < 4 || n > MAXN) return (const geo_t *)PyErr_Format(PyExc_ValueError, "unsupported grid size %d", n);
    if (GEOS[n]) return GEOS[n];
    int m = 0;
    while ((m + 1) * (m + 1) <= n) m++;
    if (m * m != n) return (const geo_t *)PyErr_Format(PyExc_ValueError, "unsupported grid size %d", n);
    geo_t *g = calloc(1, sizeof *g);
    if (!g) return (const geo_t *)PyErr_NoMemory();
    g->n = n; g->m = m; g->N = n * n; g->nw = (n * n + 63) / 64;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            int b0 = m * (i / m) * n + m * (i % m);  /* box i's first cell */
            g->hcell[i][j] = i * n + j;
            g->hcell[n + i][j] = j * n + i;
            g->hcell[2 * n + i][j] = b0 + (j / m) * n + j % m;
        }
    for (int h = 0; h < 3 * n; h++)
        for (int j = 0; j < n; j++) cs_add(&g->house[h], g->hcell[h][j]);
    GEOS[n] = g;
    return g;
}

/* read (n, cand, top) and the value masks of the cells: the geometry, or NULL with the error set */
static const geo_t *cand_of(PyObject *args, uint32_t *cand, int *top) {
    int n;
    PyObject *list;
    if (!PyArg_ParseTuple(args, "iO!i", &n, &PyList_Type, &list, top)) return NULL;
    const geo_t *g = geo_of(n);
    if (!g) return NULL;
    if (PyList_GET_SIZE(list) != (Py_ssize_t)n * n)
        return (const geo_t *)PyErr_Format(PyExc_ValueError, "cand: a list of %d value masks", n * n);
    if (*top > MAXP) return (const geo_t *)PyErr_Format(PyExc_ValueError, "tuples of at most %d", MAXP);
    for (int c = 0; c < g->N; c++) {
        long x = PyLong_AsLong(PyList_GET_ITEM(list, c));
        if (x == -1 && PyErr_Occurred()) return NULL;
        cand[c] = (uint32_t)x;
    }
    return g;
}

static inline int popc(uint32_t x) { return __builtin_popcount(x); }

/* the largest fish: jellyfish (4), or n // 2 on 4x4 grids (``fish.max_size``) */
static int max_size(int n) {
    int p = n / 2;
    return p < 2 ? 2 : p > MAXP ? MAXP : p;
}

/* the union of the cells of the houses ``first + i`` for the bits i of ``lines`` */
static void lines_cells(cellset *out, const geo_t *g, int first, uint32_t lines) {
    cs_clear(out);
    for (; lines; lines &= lines - 1) cs_or(out, out, &g->house[first + __builtin_ctz(lines)], g->nw);
}

/* ---- one value's fish ---------------------------------------------------------------------- */

typedef struct {
    const geo_t *g;
    int v, o, open, max_p, found;
    cellset pv;
    uint32_t masks[MAXN];        /* per base line, the cover lines where v can go */
    int pool[MAXN], npool;
    int chosen[MAXP], depth;
    PyObject *out;
} fish_t;

/* per line of orientation o (rows, then columns), the bit set of the other lines where v can go */
static void value_masks(const geo_t *g, const cellset *pv, uint32_t masks[2][MAXN]) {
    int n = g->n;
    memset(masks, 0, sizeof(uint32_t) * 2 * MAXN);
    CS_FOREACH(c, pv, g->nw) {
        masks[0][c / n] |= (uint32_t)1 << (c % n);
        masks[1][c % n] |= (uint32_t)1 << (c / n);
    }
}

static PyObject *int_list(const int *xs, int k) { return ints_to_py(xs, k, 0); }

/* a base set found by the walk (its lines ``chosen``, cover ``u``): added when it removes something */
static int fish_found(fish_t *f, uint32_t cover) {
    const geo_t *g = f->g;
    int n = g->n, nw = g->nw, p = f->depth;
    if (popc(cover) != p || f->open <= p) return 0;
    cellset base, cov, removed, pattern;
    uint32_t lines = 0;
    for (int j = 0; j < p; j++) lines |= (uint32_t)1 << f->chosen[j];
    lines_cells(&base, g, f->o * n, lines);
    lines_cells(&cov, g, (1 - f->o) * n, cover);
    cs_and(&removed, &f->pv, &cov, nw);
    cs_andnot(&removed, &removed, &base, nw);
    if (cs_empty(&removed, nw)) return 0;
    cs_and(&pattern, &f->pv, &base, nw);
    return list_add(f->out, Py_BuildValue("(iii(iiNkNNi))", p, f->o, f->found++, f->v, f->o,
                                          int_list(f->chosen, p), (unsigned long)cover,
                                          cells_to_py(&pattern, nw), cells_to_py(&removed, nw), p));
}

/* ``_base_sets``' depth-first search: pre-order, a branch dropped once its cover exceeds max_p */
static int fish_walk(fish_t *f, int start, uint32_t u0) {
    for (int k = start; k < f->npool; k++) {
        int line = f->pool[k];
        uint32_t u = u0 | f->masks[line];
        int count = popc(u);
        if (count > f->max_p) continue;
        f->chosen[f->depth++] = line;
        int bad = (f->depth >= 2 && count <= f->depth && fish_found(f, u) < 0) ||
                  (f->depth < f->max_p && fish_walk(f, k + 1, u) < 0);
        f->depth--;
        if (bad) return -1;
    }
    return 0;
}

/* read (n, v, pv) into f: 0, or -1 with the error set */
static int value_of(PyObject *args, fish_t *f, uint32_t masks[2][MAXN]) {
    int n;
    PyObject *pvo;
    if (!PyArg_ParseTuple(args, "iiO", &n, &f->v, &pvo)) return -1;
    f->g = geo_of(n);
    if (!f->g || cells_from_py(pvo, &f->pv, f->g->nw) < 0) return -1;
    f->max_p = max_size(n);
    f->found = 0;
    f->depth = 0;
    value_masks(f->g, &f->pv, masks);
    return 0;
}

/* x wings, swordfish and jellyfish of value v: (size, o, discovery, fish_step's arguments) */
static PyObject *fish_of(PyObject *self, PyObject *args) {
    fish_t f;
    uint32_t masks[2][MAXN];
    if (value_of(args, &f, masks) < 0) return NULL;
    int n = f.g->n;
    f.out = PyList_New(0);
    for (int o = 0; f.out && o < 2; o++) {
        f.o = o;
        memcpy(f.masks, masks[o], sizeof f.masks);
        f.open = f.npool = 0;
        for (int i = 0; i < n; i++)
            if (f.masks[i]) {
                f.open++;
                if (popc(f.masks[i]) <= f.max_p) f.pool[f.npool++] = i;
            }
        if (f.npool >= 2 && fish_walk(&f, 0, 0) < 0) Py_CLEAR(f.out);
    }
    return f.out;
}

/* ---- one value's finned fish --------------------------------------------------------------- */

typedef struct {
    int box, first_line;
    uint32_t band, cover;
    const cellset *cells;
} box_t;

/* a base set of one box's pool (pool indexes ``idx``, cover ``cover``): added when it is a
 * finned fish removing something (``_finned_fish``) */
static int finned_found(fish_t *f, const box_t *b, const int *idx, int p, uint32_t cover) {
    const geo_t *g = f->g;
    int n = g->n, nw = g->nw, o = f->o, q = popc(cover), kase;
    const cellset *line0 = &g->house[o * n];
    cellset base, removed, cc, on_cover, fins, body, x;
    uint32_t lines = 0;
    for (int j = 0; j < p; j++) lines |= (uint32_t)1 << f->pool[idx[j]];
    lines_cells(&base, g, o * n, lines);
    cs_and(&removed, &f->pv, b->cells, nw);
    cs_andnot(&removed, &removed, &base, nw);
    if (q == p && (cover & b->cover)) {
        kase = 1;
        lines_cells(&cc, g, (1 - o) * n, cover & b->cover);
        cs_and(&removed, &removed, &cc, nw);
    } else if (q == p - 1 && !(cover & b->cover)) {
        kase = 2;
    } else {
        return 0;
    }
    if (cs_empty(&removed, nw)) return 0;
    lines_cells(&on_cover, g, (1 - o) * n, cover);
    cs_and(&fins, &f->pv, &base, nw);
    cs_andnot(&fins, &fins, &on_cover, nw);
    if (cs_empty(&fins, nw)) return 0;  /* a plain fish (found before) */
    int sashimi = 0, base_lines[MAXP];
    for (int j = 0; j < p; j++) {
        const cellset *line = &line0[f->pool[idx[j]]];
        cs_and(&x, &f->pv, line, nw);
        if (!cs_intersects(&x, &fins, nw)) continue;
        cs_and(&x, &x, b->cells, nw);
        if (!cs_intersects(&x, &on_cover, nw)) sashimi = 1;
    }
    int k = 0;
    for (int i = 0; i < n; i++)
        if (lines >> i & 1) base_lines[k++] = i;
    cs_and(&body, &f->pv, &base, nw);
    cs_andnot(&body, &body, &fins, nw);
    return list_add(f->out, Py_BuildValue("(iii(iiNkiNNNiiN))", p, o, f->found++, f->v, o, int_list(base_lines, p),
                                          (unsigned long)cover, b->box, cells_to_py(&body, nw),
                                          cells_to_py(&fins, nw), cells_to_py(&removed, nw), p, kase,
                                          PyBool_FromLong(sashimi)));
}

/* one box's pool and base sets (``_finned_pool``, ``_finned_bases``): 0, or -1 on an error */
static int finned_box(fish_t *f, const box_t *b, const int *small, int nsmall) {
    int m = f->g->m, max_p = f->max_p;
    int in_box[MAXN], nin = 0, leads = 0, size = 0;
    uint32_t outs[MAXN];
    int inband[MAXN], inbox[MAXN];
    for (int i = b->first_line; i < b->first_line + m; i++)
        if (f->masks[i] & b->cover) in_box[nin++] = i;
    if (nin < 2) return 0;
    /* lines with a fin lead the pool: every finned set holds one of them */
    for (int j = 0; j < nin; j++) {
        int i = in_box[j];
        if (popc(f->masks[i] & ~b->cover) <= max_p) {
            f->pool[size] = i; outs[size] = f->masks[i] & ~b->cover; inband[size] = inbox[size] = 1; size++;
        }
    }
    if (!size) return 0;
    leads = size;
    for (int j = 0; j < nsmall; j++) {
        int i = small[j], inside = 0;
        for (int t = 0; t < nin; t++) inside |= in_box[t] == i;
        if (inside) continue;
        f->pool[size] = i; outs[size] = f->masks[i]; inband[size] = (int)(b->band >> i & 1); inbox[size] = 0; size++;
    }
    if (size < 2) return 0;
    int top = m - 1, last = nin - 1, idx[MAXP];
    for (int a = 0; a < leads; a++) {
        uint32_t ua = outs[a];
        idx[0] = a;
        for (int bb = a + 1; bb < size; bb++) {
            int nb = 1 + inband[bb], ni = 1 + inbox[bb];
            if (nb > top || ni > last) continue;
            uint32_t ub = ua | outs[bb];
            int cb = popc(ub);
            if (cb > max_p) continue;
            idx[1] = bb;
            if (cb <= 2 && finned_found(f, b, idx, 2, ub) < 0) return -1;
            if (max_p < 3) continue;
            for (int c = bb + 1; c < size; c++) {
                int nc = nb + inband[c], nic = ni + inbox[c];
                if (nc > top || nic > last) continue;
                uint32_t uc = ub | outs[c];
                int cc3 = popc(uc);
                if (cc3 > max_p) continue;
                idx[2] = c;
                if (cc3 <= 3 && finned_found(f, b, idx, 3, uc) < 0) return -1;
                if (max_p < 4) continue;
                for (int d = c + 1; d < size; d++) {
                    if (nc + inband[d] > top || nic + inbox[d] > last) continue;
                    uint32_t ud = uc | outs[d];
                    idx[3] = d;
                    if (popc(ud) <= 4 && finned_found(f, b, idx, 4, ud) < 0) return -1;
                }
            }
        }
    }
    return 0;
}

/* finned (and sashimi) x wings, swordfish and jellyfish of value v: (size, o, discovery,
 * _finned_step's arguments) */
static PyObject *finned_of(PyObject *self, PyObject *args) {
    fish_t f;
    uint32_t masks[2][MAXN];
    if (value_of(args, &f, masks) < 0) return NULL;
    const geo_t *g = f.g;
    int n = g->n, m = g->m;
    f.out = PyList_New(0);
    if (!f.out || cs_empty(&f.pv, g->nw)) return f.out;
    for (int o = 0; o < 2; o++) {
        f.o = o;
        memcpy(f.masks, masks[o], sizeof f.masks);
        int small[MAXN], nsmall = 0, open = 0;
        for (int i = 0; i < n; i++)
            if (f.masks[i]) {
                open++;
                if (popc(f.masks[i]) <= f.max_p) small[nsmall++] = i;
            }
        if (open < 2) continue;
        for (int k = 0; k < n; k++) {
            box_t b;
            int first_cover = o == 0 ? m * (k % m) : m * (k / m);
            b.box = 2 * n + k;
            b.cells = &g->house[b.box];
            b.first_line = o == 0 ? m * (k / m) : m * (k % m);
            b.band = (((uint32_t)1 << m) - 1) << b.first_line;
            b.cover = (((uint32_t)1 << m) - 1) << first_cover;
            if (!cs_intersects(&f.pv, b.cells, g->nw)) continue;
            if (finned_box(&f, &b, small, nsmall) < 0) {
                Py_CLEAR(f.out);
                return NULL;
            }
        }
    }
    return f.out;
}

/* ---- tuples -------------------------------------------------------------------------------- */

typedef struct {
    const geo_t *g;
    const uint32_t *cand;
    int h, p, hidden;
    uint32_t masks[MAXN];  /* naked: the pool cells' candidates; hidden: the pool values' places */
    int pool[MAXN], npool; /* naked: house positions; hidden: values */
    uint32_t all;          /* naked: the empty cells (house positions) */
    int chosen[MAXP];
    PyObject *out;
} tuples_t;

/* a p-subset of the pool whose union has p bits: added when it removes something */
static int tuple_found(tuples_t *t, uint32_t u) {
    const geo_t *g = t->g;
    const int *cells = g->hcell[t->h];
    int p = t->p, count = 0, xs[MAXP];
    if (!t->hidden) {
        uint32_t rest = t->all;
        for (int j = 0; j < p; j++) rest &= ~((uint32_t)1 << t->chosen[j]);
        for (; rest; rest &= rest - 1) count += popc(t->cand[cells[__builtin_ctz(rest)]] & u);
        if (!count) return 0;
        for (int j = 0; j < p; j++) xs[j] = cells[t->chosen[j]];
        return list_add(t->out, Py_BuildValue("(iiNki)", t->h, p, int_list(xs, p), (unsigned long)u, count));
    }
    uint32_t keep = 0;
    for (int j = 0; j < p; j++) keep |= (uint32_t)1 << (t->chosen[j] - 1);
    cellset where;
    cs_clear(&where);
    for (uint32_t w = u; w; w &= w - 1) {
        int c = cells[__builtin_ctz(w)];
        count += popc(t->cand[c] & ~keep);
        cs_add(&where, c);
    }
    if (!count) return 0;
    return list_add(t->out, Py_BuildValue("(iiNNi)", t->h, p, int_list(t->chosen, p), cells_to_py(&where, g->nw),
                                          count));
}

/* the p-subsets of the pool in lexicographic order, a branch dropped once its union exceeds p */
static int tuple_walk(tuples_t *t, int start, int depth, uint32_t u0) {
    for (int i = start; i <= t->npool - (t->p - depth); i++) {
        uint32_t u = u0 | t->masks[i];
        if (popc(u) > t->p) continue;
        t->chosen[depth] = t->pool[i];
        if (depth + 1 == t->p) {
            if (popc(u) == t->p && tuple_found(t, u) < 0) return -1;
        } else if (tuple_walk(t, i + 1, depth + 1, u) < 0) {
            return -1;
        }
    }
    return 0;
}

/* every house's naked (hidden) tuples of sizes 2..top: size, house, then discovery order */
static PyObject *tuple_hits(PyObject *args, int hidden) {
    uint32_t cand[CS_MAXCELLS];
    int top;
    tuples_t t;
    t.g = cand_of(args, cand, &top);
    if (!t.g) return NULL;
    int n = t.g->n, nh = 3 * n;
    t.cand = cand;
    t.hidden = hidden;
    /* per house: its content (a mask per empty cell, or per value's places) and how many */
    uint32_t content[3 * MAXN][MAXN];
    int items[3 * MAXN];
    for (int h = 0; h < nh; h++) {
        const int *cells = t.g->hcell[h];
        items[h] = 0;
        if (!hidden) {
            for (int j = 0; j < n; j++) content[h][j] = cand[cells[j]];
        } else {
            memset(content[h], 0, sizeof content[h]);
            for (int j = 0; j < n; j++)
                for (uint32_t w = cand[cells[j]]; w; w &= w - 1) content[h][__builtin_ctz(w)] |= (uint32_t)1 << j;
        }
        for (int j = 0; j < n; j++) items[h] += content[h][j] != 0;
    }
    t.out = PyList_New(0);
    for (int p = 2; t.out && p <= top; p++) {
        t.p = p;
        for (int h = 0; h < nh; h++) {
            if (items[h] <= p) continue;
            t.h = h;
            t.npool = 0;
            t.all = 0;
            for (int j = 0; j < n; j++) {
                uint32_t x = content[h][j];
                if (!x) continue;
                t.all |= (uint32_t)1 << j;
                if (popc(x) <= p) {
                    t.masks[t.npool] = x;
                    t.pool[t.npool++] = hidden ? j + 1 : j;
                }
            }
            if (t.npool >= p && tuple_walk(&t, 0, 0, 0) < 0) {
                Py_CLEAR(t.out);
                break;
            }
        }
    }
    return t.out;
}

static PyObject *naked_hits(PyObject *self, PyObject *args) { return tuple_hits(args, 0); }
static PyObject *hidden_hits(PyObject *self, PyObject *args) { return tuple_hits(args, 1); }

/* ---- module ------------------------------------------------------------------------------ */

static PyMethodDef methods[] = {
    {"fish_of", fish_of, METH_VARARGS, "fish of (n, v, places): (size, o, discovery, step arguments)"},
    {"finned_of", finned_of, METH_VARARGS, "finned fish of (n, v, places): (size, o, discovery, step arguments)"},
    {"naked_hits", naked_hits, METH_VARARGS, "naked tuples of (n, cand, top): (house, size, cells, values, removed)"},
    {"hidden_hits", hidden_hits, METH_VARARGS,
     "hidden tuples of (n, cand, top): (house, size, values, cell mask, removed)"},
    {NULL, NULL, 0, NULL},
};

CORE_MODULE("_fish", "The compiled fish and tuple searches (pure twin: explainer.core.fish).");

PyMODINIT_FUNC PyInit__fish(void) { return PyModule_Create(&module); }
