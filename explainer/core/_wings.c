/* The compiled wing searches: the pattern loops of techniques/wings.py and techniques/xywings.py.
 *
 * Each function here has a pure-Python twin in explainer/core/wings.py that returns the same
 * list for the same state (tests/core/test_wings.py compares them on real and random states of
 * every size). They search the candidate bitmasks only and return compact leads (cells, values,
 * the cells losing a candidate as a cell mask), in the order the finders yield them; the steps
 * (texts, roles, proofs) are built in Python for the lead the engine takes.
 *
 * A state comes in as ``cand`` (a list of value masks, one per cell); the value views (``pos``)
 * are rebuilt from it here. Per-size tables (houses, peers, line-box intersections) are built
 * once per grid size and kept (a pure function of the size).
 */
#include "glue.h"

#define MAXN 25
#define MAXM 5

/* ---- geometry ---------------------------------------------------------------------------- */

typedef struct {
    int n, m, N, nw;
    cellset house[3 * MAXN];            /* rows, columns, boxes (explainer.model.grid's order) */
    cellset peer[CS_MAXCELLS];
    int icell[2 * MAXN][MAXN][MAXM];    /* [line][box - 2n]: the intersection's cells, in cell order */
    int icount[2 * MAXN][MAXN];         /* m when the line crosses the box, else 0 */
} geo_t;

static geo_t *GEOS[MAXN + 1];

static const geo_t *geo_of(int n) {
    if (n < 4 || n > MAXN) return NULL;
    if (GEOS[n]) return GEOS[n];
    int m = 0;
    while ((m + 1) * (m + 1) <= n) m++;
    if (m * m != n) return NULL;
    geo_t *g = calloc(1, sizeof *g);
    if (!g) return NULL;
    g->n = n; g->m = m; g->N = n * n; g->nw = (n * n + 63) / 64;
    for (int c = 0; c < n * n; c++) {
        int r = c / n, k = c % n, b = m * (r / m) + k / m;
        cs_add(&g->house[r], c);
        cs_add(&g->house[n + k], c);
        cs_add(&g->house[2 * n + b], c);
    }
    for (int c = 0; c < n * n; c++) {
        int r = c / n, k = c % n, b = m * (r / m) + k / m;
        cs_or(&g->peer[c], &g->house[r], &g->house[n + k], g->nw);
        cs_or(&g->peer[c], &g->peer[c], &g->house[2 * n + b], g->nw);
        cs_del(&g->peer[c], c);
    }
    for (int line = 0; line < 2 * n; line++)
        for (int b = 0; b < n; b++) {
            cellset x;
            cs_and(&x, &g->house[line], &g->house[2 * n + b], g->nw);
            CS_FOREACH(c, &x, g->nw) g->icell[line][b][g->icount[line][b]++] = c;
        }
    GEOS[n] = g;
    return g;
}

/* ---- a state ----------------------------------------------------------------------------- */

typedef struct {
    const geo_t *g;
    int n, N, nw;
    uint32_t cand[CS_MAXCELLS];
    cellset pos[MAXN];
} state_t;

/* read (n, cand) into a fresh state (free it), or NULL with the error set */
static state_t *state_of(PyObject *args) {
    int n;
    PyObject *cand;
    if (!PyArg_ParseTuple(args, "iO!", &n, &PyList_Type, &cand)) return NULL;
    const geo_t *g = geo_of(n);
    if (!g) return (state_t *)PyErr_Format(PyExc_ValueError, "unsupported grid size %d", n);
    if (PyList_GET_SIZE(cand) != (Py_ssize_t)n * n)
        return (state_t *)PyErr_Format(PyExc_ValueError, "cand: a list of %d value masks", n * n);
    state_t *st = calloc(1, sizeof *st);
    if (!st) return (state_t *)PyErr_NoMemory();
    st->g = g; st->n = n; st->N = n * n; st->nw = g->nw;
    for (int c = 0; c < st->N; c++) {
        long x = PyLong_AsLong(PyList_GET_ITEM(cand, c));
        if (x == -1 && PyErr_Occurred()) { free(st); return NULL; }
        st->cand[c] = (uint32_t)x;
        for (uint32_t w = (uint32_t)x; w; w &= w - 1) cs_add(&st->pos[__builtin_ctz(w)], c);
    }
    return st;
}

/* ---- bits -------------------------------------------------------------------------------- */

static inline int bitlen(uint32_t x) { return x ? 32 - __builtin_clz(x) : 0; }
static inline int popc(uint32_t x) { return __builtin_popcount(x); }

/* the cells holding two values */
static void bivalue_cells(const state_t *st, cellset *out) {
    cs_clear(out);
    for (int c = 0; c < st->N; c++)
        if (popc(st->cand[c]) == 2) cs_add(out, c);
}

/* ---- xy wing ----------------------------------------------------------------------------- */

/* (pivot, pincer, pincer, z, the cells losing z) of every xy wing: pivots in cell order, then
 * pincer pairs in cell order (``wings.xy_hits``) */
static PyObject *xy_hits(PyObject *self, PyObject *args) {
    state_t *st = state_of(args);
    if (!st) return NULL;
    const geo_t *g = st->g;
    int nw = st->nw;
    PyObject *out = PyList_New(0);
    cellset bivalue;
    bivalue_cells(st, &bivalue);
    int near[3 * MAXN];
    CS_FOREACH(pivot, &bivalue, nw) {
        if (!out) break;
        uint32_t pm = st->cand[pivot];
        cellset x;
        cs_and(&x, &g->peer[pivot], &bivalue, nw);
        int k = 0;
        CS_FOREACH(c, &x, nw) near[k++] = c;
        for (int i = 0; out && i < k; i++) {
            int a = near[i];
            uint32_t ma = st->cand[a], share = ma & pm;
            if (ma == pm || !share) continue;
            uint32_t zbit = ma & ~pm, want = (pm & ~share) | zbit;
            for (int j = i + 1; j < k; j++) {
                int b = near[j];
                if (st->cand[b] != want) continue;
                int z = bitlen(zbit);
                cellset e;
                cs_and(&e, &st->pos[z - 1], &g->peer[a], nw);
                cs_and(&e, &e, &g->peer[b], nw);
                cs_del(&e, pivot);
                if (cs_empty(&e, nw)) continue;
                if (list_add(out, Py_BuildValue("(iiiiN)", pivot, a, b, z, cells_to_py(&e, nw))) < 0) {
                    Py_CLEAR(out);
                    break;
                }
            }
        }
    }
    free(st);
    return out;
}

/* ---- xyz wing ---------------------------------------------------------------------------- */

/* (pivot, pincer, pincer, z, the cells losing z) of every xyz wing: trivalue pivots in cell
 * order, then bivalue pincer pairs inside it (``wings.xyz_hits``) */
static PyObject *xyz_hits(PyObject *self, PyObject *args) {
    state_t *st = state_of(args);
    if (!st) return NULL;
    const geo_t *g = st->g;
    int nw = st->nw;
    PyObject *out = PyList_New(0);
    cellset bivalue;
    bivalue_cells(st, &bivalue);
    for (int pivot = 0; out && pivot < st->N; pivot++) {
        uint32_t pm = st->cand[pivot];
        if (popc(pm) != 3) continue;
        uint32_t sub[3];
        cellset cells[3], near;
        cs_and(&near, &g->peer[pivot], &bivalue, nw);
        int k = 0;
        for (uint32_t w = pm; w; w &= w - 1) {
            sub[k] = pm & ~(w & -w);
            cs_clear(&cells[k]);
            k++;
        }
        CS_FOREACH(c, &near, nw)
            for (int i = 0; i < 3; i++)
                if (st->cand[c] == sub[i]) cs_add(&cells[i], c);
        for (int i = 0; out && i < 3; i++) {
            if (cs_empty(&cells[i], nw)) continue;
            for (int j = i + 1; out && j < 3; j++) {
                if (cs_empty(&cells[j], nw)) continue;
                int z = bitlen(sub[i] & sub[j]);
                cellset zone;
                cs_and(&zone, &st->pos[z - 1], &g->peer[pivot], nw);
                if (cs_empty(&zone, nw)) continue;
                CS_FOREACH(a, &cells[i], nw) {
                    cellset za;
                    cs_and(&za, &zone, &g->peer[a], nw);
                    if (cs_empty(&za, nw)) continue;
                    CS_FOREACH(b, &cells[j], nw) {
                        cellset e;
                        cs_and(&e, &za, &g->peer[b], nw);
                        if (cs_empty(&e, nw)) continue;
                        if (list_add(out, Py_BuildValue("(iiiiN)", pivot, a, b, z, cells_to_py(&e, nw))) < 0) {
                            Py_CLEAR(out);
                            break;
                        }
                    }
                    if (!out) break;
                }
            }
        }
    }
    free(st);
    return out;
}

/* ---- wxyz wing --------------------------------------------------------------------------- */

/* a set of cell quadruples (10 bits a cell), open addressing */
typedef struct { uint64_t *slot; int cap, used; } quads_t;

/* 1 if the key was new (now added), 0 if there, -1 out of memory */
static int quads_add(quads_t *q, uint64_t key) {
    if (2 * (q->used + 1) > q->cap) {
        int cap = q->cap ? 2 * q->cap : 64;
        uint64_t *s = calloc((size_t)cap, sizeof *s);
        if (!s) return -1;
        for (int i = 0; i < q->cap; i++)
            if (q->slot[i]) {
                uint64_t h = (q->slot[i] * 0x9E3779B97F4A7C15ull) >> 20;
                int j = (int)(h & (uint64_t)(cap - 1));
                while (s[j]) j = (j + 1) & (cap - 1);
                s[j] = q->slot[i];
            }
        free(q->slot);
        q->slot = s;
        q->cap = cap;
    }
    uint64_t h = (key * 0x9E3779B97F4A7C15ull) >> 20;
    int j = (int)(h & (uint64_t)(q->cap - 1));
    while (q->slot[j]) {
        if (q->slot[j] == key) return 0;
        j = (j + 1) & (q->cap - 1);
    }
    q->slot[j] = key;
    q->used++;
    return 1;
}

/* the union of sp[v] over the values v of ``values`` */
static void value_union(cellset *o, const cellset *sp, uint32_t values, int nw) {
    cs_clear(o);
    for (; values; values &= values - 1) cs_or(o, o, &sp[__builtin_ctz(values)], nw);
}

/* (a, b, c, e, z, the cells losing z) of every wxyz wing, a < b < c < e, in the order of
 * ``wings.wxyz_hits`` */
static PyObject *wxyz_hits(PyObject *self, PyObject *args) {
    state_t *st = state_of(args);
    if (!st) return NULL;
    const geo_t *g = st->g;
    int nw = st->nw, n = st->n;
    const uint32_t *cand = st->cand;
    PyObject *out = PyList_New(0);
    cellset small, two, three, sp[MAXN];
    cs_clear(&small); cs_clear(&two); cs_clear(&three);
    for (int c = 0; c < st->N; c++) {
        int k = popc(cand[c]);
        if (k < 2 || k > 4) continue;
        cs_add(&small, c);
        if (k == 2) cs_add(&two, c);
        else if (k == 3) cs_add(&three, c);
    }
    if (!out || cs_count(&small, nw) < 4) { free(st); return out; }
    for (int v = 0; v < n; v++) cs_and(&sp[v], &st->pos[v], &small, nw);
    uint32_t full = n == 32 ? 0xffffffffu : ((uint32_t)1 << n) - 1;
    cellset fits2, *fits3 = &two;
    cs_or(&fits2, &two, &three, nw);
    quads_t seen = {0};
    int more[CS_MAXCELLS];
    CS_FOREACH(a, &small, nw) {
        if (!out) break;
        uint32_t ma = cand[a];
        int ka = popc(ma);
        const cellset *fits = ka == 2 ? &fits2 : ka == 3 ? fits3 : NULL;
        if (!fits) continue;
        const cellset *pa = &g->peer[a];
        for (uint32_t wz = ma; out && wz; wz &= wz - 1) {
            uint32_t zb = wz & -wz;
            int zi = __builtin_ctz(zb);
            cellset hold_a, wb;
            value_union(&hold_a, sp, ma ^ zb, nw);
            /* b: after a, not seeing a, sharing only z with it */
            cs_andnot(&wb, &sp[zi], pa, nw);
            cs_andnot(&wb, &wb, &hold_a, nw);
            cs_and(&wb, &wb, fits, nw);
            for (int i = 0; i <= (a >> 6); i++) wb.w[i] &= i < (a >> 6) ? 0 : ~(((uint64_t)2 << (a & 63)) - 1);
            CS_FOREACH(b, &wb, nw) {
                cellset targets;
                cs_and(&targets, &st->pos[zi], pa, nw);
                cs_and(&targets, &targets, &g->peer[b], nw);
                if (cs_empty(&targets, nw)) continue;
                cellset hold_b, allowed, x;
                value_union(&hold_b, sp, cand[b] & ~zb, nw);
                uint32_t u2 = ma | cand[b];
                /* the small cells within u2 (four values), or within u2 and one more value */
                uint32_t outside = full & ~u2;
                if (popc(u2) == 4) {
                    value_union(&x, sp, outside, nw);
                    cs_andnot(&allowed, &small, &x, nw);
                } else {
                    cellset once, twice;
                    cs_clear(&once); cs_clear(&twice);
                    for (; outside; outside &= outside - 1) {
                        const cellset *s = &sp[__builtin_ctz(outside)];
                        for (int i = 0; i < nw; i++) {
                            twice.w[i] |= once.w[i] & s->w[i];
                            once.w[i] |= s->w[i];
                        }
                    }
                    cs_andnot(&allowed, &small, &twice, nw);
                }
                cs_del(&allowed, a);
                cs_del(&allowed, b);
                /* a cell not seeing a (b) shares at most z with it */
                for (int i = 0; i < nw; i++)
                    allowed.w[i] &= (pa->w[i] | ~hold_a.w[i]) & (g->peer[b].w[i] | ~hold_b.w[i]);
                if (cs_count(&allowed, nw) < 2) continue;
                /* a z cell must see a target */
                cellset zside;
                cs_and(&zside, &allowed, &sp[zi], nw);
                if (!cs_empty(&zside, nw)) {
                    cellset seeing;
                    cs_clear(&seeing);
                    CS_FOREACH(t, &targets, nw) cs_or(&seeing, &seeing, &g->peer[t], nw);
                    for (int i = 0; i < nw; i++) allowed.w[i] &= ~zside.w[i] | seeing.w[i];
                    if (cs_count(&allowed, nw) < 2) continue;
                }
                int k = 0;
                CS_FOREACH(c, &allowed, nw) more[k++] = c;
                for (int j = 0; out && j < k; j++) {
                    int c = more[j];
                    uint32_t mc = cand[c];
                    const cellset *pc = &g->peer[c];
                    cellset tc;
                    if (mc & zb) cs_and(&tc, &targets, pc, nw);
                    else tc = targets;
                    if (cs_empty(&tc, nw)) continue;
                    uint32_t u3 = u2 | mc;
                    for (int l = j + 1; l < k; l++) {
                        int e = more[l];
                        uint32_t me = cand[e];
                        if (popc(u3 | me) != 4 || !(cs_has(pc, e) || !(mc & me & ~zb))) continue;
                        if ((me & zb) && !cs_intersects(&tc, &g->peer[e], nw)) continue;
                        int q[4] = {a, b, c, e};
                        for (int s = 1; s < 4; s++)
                            for (int r = s; r > 0 && q[r - 1] > q[r]; r--) { int t = q[r]; q[r] = q[r - 1]; q[r - 1] = t; }
                        uint64_t key = 1 + ((uint64_t)q[0] | (uint64_t)q[1] << 10 | (uint64_t)q[2] << 20 |
                                            (uint64_t)q[3] << 30);
                        int added = quads_add(&seen, key);
                        if (added < 0) { PyErr_NoMemory(); Py_CLEAR(out); break; }
                        if (!added) continue;
                        /* the cells losing z: seeing every z cell of the four */
                        cellset removed = st->pos[zi];
                        for (int s = 0; s < 4; s++)
                            if (cand[q[s]] & zb) cs_and(&removed, &removed, &g->peer[q[s]], nw);
                        if (cs_empty(&removed, nw)) continue;
                        if (list_add(out, Py_BuildValue("(iiiiiN)", q[0], q[1], q[2], q[3], zi + 1,
                                                        cells_to_py(&removed, nw))) < 0) {
                            Py_CLEAR(out);
                            break;
                        }
                    }
                }
                if (!out) break;
            }
        }
    }
    free(seen.slot);
    free(st);
    return out;
}

/* ---- w wing ------------------------------------------------------------------------------ */

/* a bivalue cell and its two values, sorted by the values then the cell */
typedef struct { uint32_t mask; int cell; } pair_t;

static int cmp_pair(const void *x, const void *y) {
    const pair_t *a = x, *b = y;
    if (a->mask != b->mask) return a->mask < b->mask ? -1 : 1;
    return a->cell - b->cell;
}

/* (a, b, v, w, house, the house's w cells, the cells losing v) of every w wing, in the order of
 * ``wings.w_hits`` */
static PyObject *w_hits(PyObject *self, PyObject *args) {
    state_t *st = state_of(args);
    if (!st) return NULL;
    const geo_t *g = st->g;
    int nw = st->nw, n = st->n;
    PyObject *out = PyList_New(0);
    pair_t *cells = malloc(sizeof *cells * (size_t)st->N);
    int k = 0;
    if (!cells) { free(st); Py_XDECREF(out); return PyErr_NoMemory(); }
    for (int c = 0; c < st->N; c++)
        if (popc(st->cand[c]) == 2) cells[k++] = (pair_t){st->cand[c], c};
    qsort(cells, (size_t)k, sizeof *cells, cmp_pair);
    for (int i = 0; out && i < k; i++) {
        int a = cells[i].cell;
        uint32_t mask = cells[i].mask;
        for (int j = i + 1; out && j < k && cells[j].mask == mask; j++) {
            int b = cells[j].cell;
            if (cs_has(&g->peer[a], b)) continue;
            cellset common, seen;
            cs_and(&common, &g->peer[a], &g->peer[b], nw);
            cs_or(&seen, &g->peer[a], &g->peer[b], nw);
            int lo = __builtin_ctz(mask), hi = bitlen(mask) - 1;
            for (int turn = 0; out && turn < 2; turn++) {
                int v = turn ? hi : lo, w = turn ? lo : hi;
                cellset removed;
                cs_and(&removed, &st->pos[v], &common, nw);
                if (cs_empty(&removed, nw)) continue;
                for (int h = 0; h < 3 * n; h++) {
                    if (cs_has(&g->house[h], a) || cs_has(&g->house[h], b)) continue;
                    cellset ws, rest;
                    cs_and(&ws, &st->pos[w], &g->house[h], nw);
                    if (cs_empty(&ws, nw)) continue;
                    cs_andnot(&rest, &ws, &seen, nw);
                    if (!cs_empty(&rest, nw)) continue;
                    if (list_add(out, Py_BuildValue("(iiiiiNN)", a, b, v + 1, w + 1, h, cells_to_py(&ws, nw),
                                                    cells_to_py(&removed, nw))) < 0)
                        Py_CLEAR(out);
                    break;
                }
            }
        }
    }
    free(cells);
    free(st);
    return out;
}

/* ---- y wing and ny wing -------------------------------------------------------------------- */

/* one nonempty set of an intersection's empty cells */
typedef struct {
    int excess;      /* its candidates minus its cells */
    int index;       /* its rank in subset order (its local mask - 1) */
    uint32_t local;  /* bit j: the intersection's j-th empty cell */
    uint32_t u;      /* its candidates */
    int size;
} row_t;

/* an intersection's sets, by excess then index */
typedef struct {
    int nrows, room;     /* room: its empty cells */
    uint32_t all;        /* the candidates of its empty cells */
    int ecell[MAXM];
    row_t rows[(1 << MAXM) - 1];
} inter_t;

typedef struct {
    int size, ci, pi, li, ri, b;                      /* the sort key */
    int l1, b2, b1, l2;
    const inter_t *tp, *tl, *tr;
    uint32_t m12, m11, m22, u;
    int removed[2 * MAXM], nremoved;
} ypat_t;

static int cmp_ypat(const void *x, const void *y) {
    const ypat_t *a = x, *b = y;
    const int ka[6] = {a->size, a->ci, a->pi, a->li, a->ri, a->b}, kb[6] = {b->size, b->ci, b->pi, b->li, b->ri, b->b};
    for (int i = 0; i < 6; i++)
        if (ka[i] != kb[i]) return ka[i] < kb[i] ? -1 : 1;
    return 0;
}

static void inter_build(inter_t *t, const state_t *st, const int *cells, int k) {
    int e = 0;
    for (int i = 0; i < k; i++)
        if (st->cand[cells[i]]) t->ecell[e++] = cells[i];
    t->room = e;
    t->nrows = e ? (1 << e) - 1 : 0;
    t->all = 0;
    for (uint32_t lm = 1; lm <= (uint32_t)t->nrows; lm++) {
        row_t *r = &t->rows[lm - 1];
        r->u = 0; r->size = 0; r->local = lm; r->index = (int)lm - 1;
        for (int j = 0; j < e; j++)
            if (lm >> j & 1) { r->u |= st->cand[t->ecell[j]]; r->size++; }
        r->excess = popc(r->u) - r->size;
        t->all |= r->u;
    }
    /* by excess then index: an insertion sort (at most 31 rows, built in index order) */
    for (int i = 1; i < t->nrows; i++) {
        row_t r = t->rows[i];
        int j = i;
        for (; j > 0 && t->rows[j - 1].excess > r.excess; j--) t->rows[j] = t->rows[j - 1];
        t->rows[j] = r;
    }
}

static PyObject *local_to_py(const inter_t *t, uint32_t local, int nw) {
    cellset s;
    cs_clear(&s);
    for (int j = 0; j < t->room; j++)
        if (local >> j & 1) cs_add(&s, t->ecell[j]);
    return cells_to_py(&s, nw);
}

/* (l1, b2, b1, l2, pivot cells, E11, E22, the values, v, the cells losing v) of every y and ny
 * wing, in the finder's order (``wings.y_patterns``) */
static PyObject *y_patterns(PyObject *self, PyObject *args) {
    state_t *st = state_of(args);
    if (!st) return NULL;
    const geo_t *g = st->g;
    int n = st->n, m = g->m, nw = st->nw;
    inter_t *tab = malloc(sizeof *tab * (size_t)(2 * n) * (size_t)n);
    ypat_t *found = NULL;
    int nfound = 0, cap = 0;
    PyObject *out = NULL;
    if (!tab) { PyErr_NoMemory(); goto done; }
    for (int line = 0; line < 2 * n; line++)
        for (int b = 0; b < n; b++)
            if (g->icount[line][b]) inter_build(&tab[line * n + b], st, g->icell[line][b], g->icount[line][b]);
    int ci = 0;
    for (int kind = 0; kind < 2; kind++)
        for (int i1 = 0; i1 < n; i1++) {
            int band = m * (i1 / m);
            for (int j2 = 0; j2 < m; j2++) {
                int b2 = kind == 0 ? m * (i1 / m) + j2 : j2 * m + i1 / m;
                for (int j1 = 0; j1 < m; j1++) {
                    if (j1 == j2) continue;
                    int b1 = kind == 0 ? m * (i1 / m) + j1 : j1 * m + i1 / m;
                    for (int i2 = band; i2 < band + m; i2++) {
                        if (i2 == i1) continue;
                        int l1 = kind * n + i1, l2 = kind * n + i2, cfg = ci++;
                        const inter_t *P = &tab[l1 * n + b2], *L = &tab[l1 * n + b1], *R = &tab[l2 * n + b2],
                                      *X = &tab[l2 * n + b1];
                        if (!(P->nrows && L->nrows && R->nrows)) continue;
                        uint32_t target_values = P->all | X->all;
                        int right_e0 = R->rows[0].excess, left_top = L->room + R->room - 1;
                        for (int p = 0; p < P->nrows; p++) {
                            const row_t *rp = &P->rows[p];
                            if (rp->excess > left_top) break;
                            uint32_t vs = target_values & ~rp->u;
                            if (!vs) continue;
                            int bound = rp->size + 1 - right_e0;
                            for (int q = 0; q < L->nrows; q++) {
                                const row_t *rl = &L->rows[q];
                                if (rl->excess > bound) break;
                                uint32_t u1 = rp->u | rl->u;
                                int s1 = rp->size + rl->size;
                                if (popc(u1) > s1 + R->room) continue;
                                int kr = rp->size + 1 - rl->excess;
                                for (int r = 0; r < R->nrows; r++) {
                                    const row_t *rr = &R->rows[r];
                                    if (rr->excess > kr) break;
                                    uint32_t u = u1 | rr->u;
                                    int size = s1 + rr->size;
                                    if (popc(u) != size) continue;
                                    uint32_t shared = rl->u & rr->u;
                                    if (shared & (shared - 1)) continue;
                                    uint32_t choices = vs & (rl->u | rr->u) & (shared ? shared : ~0u);
                                    for (; choices; choices &= choices - 1) {
                                        int bit = __builtin_ctz(choices);
                                        ypat_t y;
                                        y.nremoved = 0;
                                        /* v leaves L2 ∩ B1 and L1 ∩ B2 outside the pivot */
                                        const int *xc = g->icell[l2][b1], *pc = g->icell[l1][b2];
                                        for (int s = 0; s < m; s++)
                                            if (st->cand[xc[s]] >> bit & 1) y.removed[y.nremoved++] = xc[s];
                                        for (int s = 0; s < m; s++) {
                                            int c = pc[s], inside = 0;
                                            for (int j = 0; j < P->room; j++)
                                                if ((rp->local >> j & 1) && P->ecell[j] == c) inside = 1;
                                            if (!inside && (st->cand[c] >> bit & 1)) y.removed[y.nremoved++] = c;
                                        }
                                        if (!y.nremoved) continue;
                                        y.size = size; y.ci = cfg; y.pi = rp->index; y.li = rl->index;
                                        y.ri = rr->index; y.b = bit;
                                        y.l1 = l1; y.b2 = 2 * n + b2; y.b1 = 2 * n + b1; y.l2 = l2;
                                        y.tp = P; y.tl = L; y.tr = R;
                                        y.m12 = rp->local; y.m11 = rl->local; y.m22 = rr->local; y.u = u;
                                        if (nfound == cap) {
                                            ypat_t *more = grown(found, &cap, 64, sizeof *found);
                                            if (!more) goto done;
                                            found = more;
                                        }
                                        found[nfound++] = y;
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    qsort(found, (size_t)nfound, sizeof *found, cmp_ypat);
    out = PyList_New(0);
    for (int i = 0; out && i < nfound; i++) {
        const ypat_t *y = &found[i];
        cellset e;
        cs_clear(&e);
        for (int j = 0; j < y->nremoved; j++) cs_add(&e, y->removed[j]);
        if (list_add(out, Py_BuildValue("(iiiiNNNiiN)", y->l1, y->b2, y->b1, y->l2, local_to_py(y->tp, y->m12, nw),
                                        local_to_py(y->tl, y->m11, nw), local_to_py(y->tr, y->m22, nw),
                                        (int)y->u, y->b + 1, cells_to_py(&e, nw))) < 0)
            Py_CLEAR(out);
    }
done:
    free(found);
    free(tab);
    free(st);
    return out;
}

/* ---- module ------------------------------------------------------------------------------ */

static PyMethodDef methods[] = {
    {"xy_hits", xy_hits, METH_VARARGS, "xy wings of (n, cand): (pivot, a, b, z, removed cells)"},
    {"xyz_hits", xyz_hits, METH_VARARGS, "xyz wings of (n, cand): (pivot, a, b, z, removed cells)"},
    {"wxyz_hits", wxyz_hits, METH_VARARGS, "wxyz wings of (n, cand): (a, b, c, e, z, removed cells)"},
    {"w_hits", w_hits, METH_VARARGS, "w wings of (n, cand): (a, b, v, w, house, w cells, removed cells)"},
    {"y_patterns", y_patterns, METH_VARARGS,
     "y and ny wings of (n, cand): (l1, b2, b1, l2, m12, m11, m22, values, v, removed cells), sorted"},
    {NULL, NULL, 0, NULL},
};

CORE_MODULE("_wings", "The compiled wing searches (pure twin: explainer.core.wings).");

PyMODINIT_FUNC PyInit__wings(void) { return PyModule_Create(&module); }
