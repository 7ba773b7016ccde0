/* The compiled search core: the inner loops of the chain, grouped-chain and
 * almost-locked-set searches.
 *
 * Each function here has a pure-Python twin in explainer/core/search.py that
 * returns the same value for the same arguments (tests/core compare them on
 * random states of every size). The functions are generic primitives: a
 * breadth-first search over a link table, a subset enumeration, a pair join;
 * which chain is reported, its eliminations' wording and the step itself stay
 * in the techniques (Python).
 *
 * A state comes in as its two views (explainer.state): ``cand`` (a list of
 * value masks, one per cell) and ``pos`` (a list of cell masks, one per
 * value). Candidates are numbered value-major: (v, c) -> v * ncells + c (v from
 * 0), as in techniques/links.py. Per-size tables (houses, peers) are built
 * once per grid size and kept (a pure function of the size).
 */
#include "glue.h"

#define MAXN 25
#define MAXHOUSES (3 * MAXN)
#define MAXINTER (2 * MAXN * 5)

/* ---- geometry ------------------------------------------------------------------------ */

typedef struct {
    int n, m, N, nw, nh, ninter;
    int row[CS_MAXCELLS], col[CS_MAXCELLS], box[CS_MAXCELLS];
    int hcell[MAXHOUSES][MAXN];     /* cells of each house, in explainer.grid's order */
    cellset house[MAXHOUSES];
    cellset peer[CS_MAXCELLS];
    int iline[MAXINTER], ibox[MAXINTER];      /* intersections, in Geometry.intersections order */
    cellset imask[MAXINTER];
    int irank[MAXINTER][2];                   /* rank among its line's / its box's intersections */
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
    g->n = n; g->m = m; g->N = n * n; g->nw = (n * n + 63) / 64; g->nh = 3 * n;
    for (int c = 0; c < n * n; c++) {
        g->row[c] = c / n; g->col[c] = c % n; g->box[c] = m * (c / n / m) + (c % n) / m;
    }
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) g->hcell[r][c] = r * n + c;
    for (int c = 0; c < n; c++)
        for (int r = 0; r < n; r++) g->hcell[n + c][r] = r * n + c;
    for (int b = 0; b < n; b++) {
        int r0 = m * (b / m), c0 = m * (b % m), k = 0;
        for (int i = 0; i < m; i++)
            for (int j = 0; j < m; j++) g->hcell[2 * n + b][k++] = (r0 + i) * n + c0 + j;
    }
    for (int h = 0; h < 3 * n; h++) {
        cs_clear(&g->house[h]);
        for (int i = 0; i < n; i++) cs_add(&g->house[h], g->hcell[h][i]);
    }
    for (int c = 0; c < n * n; c++) {
        cs_clear(&g->peer[c]);
        cs_or(&g->peer[c], &g->peer[c], &g->house[g->row[c]], g->nw);
        cs_or(&g->peer[c], &g->peer[c], &g->house[n + g->col[c]], g->nw);
        cs_or(&g->peer[c], &g->peer[c], &g->house[2 * n + g->box[c]], g->nw);
        cs_del(&g->peer[c], c);
    }
    int k = 0, count[MAXHOUSES] = {0};
    for (int line = 0; line < 2 * n; line++)
        for (int box = 2 * n; box < 3 * n; box++) {
            cellset x;
            cs_and(&x, &g->house[line], &g->house[box], g->nw);
            if (cs_empty(&x, g->nw)) continue;
            g->iline[k] = line; g->ibox[k] = box; g->imask[k] = x;
            g->irank[k][0] = count[line]++;
            g->irank[k][1] = count[box]++;
            k++;
        }
    g->ninter = k;
    GEOS[n] = g;
    return g;
}

/* ---- Python ints <-> bit arrays ----------------------------------------------------------- */

/* little-endian 64-bit words of a non-negative int (nwords of them; higher bits must be 0) */
static int words_from_py(PyObject *o, uint64_t *w, int nwords) {
    unsigned char stack[CS_MAXWORDS * 8] = {0}, *buf = stack;  /* zeroed: gcc cannot see nwords > 0 */
    if (!PyLong_Check(o)) {
        PyErr_SetString(PyExc_TypeError, "a bit mask (int) was expected");
        return -1;
    }
    if (nwords > CS_MAXWORDS) {
        buf = malloc((size_t)nwords * 8);
        if (!buf) { PyErr_NoMemory(); return -1; }
    }
#if PY_VERSION_HEX >= 0x030D0000
    Py_ssize_t r = PyLong_AsNativeBytes(o, buf, (Py_ssize_t)nwords * 8,
                                        Py_ASNATIVEBYTES_LITTLE_ENDIAN | Py_ASNATIVEBYTES_UNSIGNED_BUFFER |
                                        Py_ASNATIVEBYTES_REJECT_NEGATIVE);
    int bad = r < 0 || r > (Py_ssize_t)nwords * 8;
    if (bad && r >= 0) PyErr_SetString(PyExc_OverflowError, "bit mask too wide");
#else
    int bad = _PyLong_AsByteArray((PyLongObject *)o, buf, (size_t)nwords * 8, 1, 0) < 0;
#endif
    if (!bad)
        for (int i = 0; i < nwords; i++) {
            uint64_t x = 0;
            for (int b = 7; b >= 0; b--) x = x << 8 | buf[i * 8 + b];
            w[i] = x;
        }
    if (buf != stack) free(buf);
    return bad ? -1 : 0;
}

static PyObject *words_to_py(const uint64_t *w, int nwords) {
    unsigned char stack[CS_MAXWORDS * 8] = {0}, *buf = stack;  /* zeroed: gcc cannot see nwords > 0 */
    if (nwords > CS_MAXWORDS) {
        buf = malloc((size_t)nwords * 8);
        if (!buf) return PyErr_NoMemory();
    }
    for (int i = 0; i < nwords; i++)
        for (int b = 0; b < 8; b++) buf[i * 8 + b] = (unsigned char)(w[i] >> (8 * b));
#if PY_VERSION_HEX >= 0x030D0000
    PyObject *out = PyLong_FromUnsignedNativeBytes(buf, (size_t)nwords * 8, Py_ASNATIVEBYTES_LITTLE_ENDIAN);
#else
    PyObject *out = _PyLong_FromByteArray(buf, (size_t)nwords * 8, 1, 0);
#endif
    if (buf != stack) free(buf);
    return out;
}

static PyObject *cs_to_py(const cellset *s, int nw) { return words_to_py(s->w, nw); }

/* ---- a candidate state ------------------------------------------------------------------- */

typedef struct {
    const geo_t *g;
    int n, N, NC, nw;
    uint32_t cand[CS_MAXCELLS];
    cellset pos[MAXN];
} state_t;

static int state_in(state_t *st, int n, PyObject *cand, PyObject *pos) {
    st->g = geo_of(n);
    if (!st->g) {
        PyErr_Format(PyExc_ValueError, "unsupported grid size %d", n);
        return -1;
    }
    st->n = n; st->N = n * n; st->NC = n * n * n; st->nw = st->g->nw;
    if (!PyList_Check(cand) || PyList_GET_SIZE(cand) != st->N || !PyList_Check(pos) || PyList_GET_SIZE(pos) != n) {
        PyErr_SetString(PyExc_ValueError, "cand: a list of n*n value masks; pos: a list of n cell masks");
        return -1;
    }
    for (int c = 0; c < st->N; c++) {
        long x = PyLong_AsLong(PyList_GET_ITEM(cand, c));
        if (x == -1 && PyErr_Occurred()) return -1;
        st->cand[c] = (uint32_t)x;
    }
    for (int v = 0; v < n; v++) {
        cs_clear(&st->pos[v]);
        if (words_from_py(PyList_GET_ITEM(pos, v), st->pos[v].w, st->nw) < 0) return -1;
    }
    return 0;
}

/* a state read from Python's views (free it), or NULL with the error set */
static state_t *new_state(int n, PyObject *cand, PyObject *pos) {
    state_t *st = malloc(sizeof *st);
    if (!st) { PyErr_NoMemory(); return NULL; }
    if (state_in(st, n, cand, pos) < 0) { free(st); return NULL; }
    return st;
}

/* The options a search takes after the state, under their names in search.py: each search reads
 * those its row of SEARCHES (at the end) names. */
typedef struct {
    int max_length, one_digit, shortest, every, min_common, max_size, max_chain, max_nodes;
    Py_ssize_t limit;
    PyObject *wanted, *allow, *which, *table;
} opts_t;

/* ---- bit arrays over candidate numbers (up to 15,625 for 25x25) --------------------------------- */

typedef struct { uint64_t *w; int nw; } bitarr;

static inline void ba_set(bitarr *b, int i) { b->w[i >> 6] |= (uint64_t)1 << (i & 63); }
static inline void ba_del(bitarr *b, int i) { b->w[i >> 6] &= ~((uint64_t)1 << (i & 63)); }
static inline int ba_has(const bitarr *b, int i) { return (int)((b->w[i >> 6] >> (i & 63)) & 1); }
static inline int ba_any(const bitarr *b) {
    for (int i = 0; i < b->nw; i++) if (b->w[i]) return 1;
    return 0;
}

/* ---- the link graph (techniques/links.py) --------------------------------------------------- */

/* strong links as lists per candidate (CSR), in links.Links's order: bivalue cells in cell
 * order, then per value the houses (rows, columns, boxes) where it has two places */
typedef struct {
    int *off;   /* NC + 1 */
    int *adj;
    int *pairs; /* 2 * npairs: (a, b) in the order found */
    int npairs;
} strong_t;

static int strong_build(const state_t *st, strong_t *sl) {
    const geo_t *g = st->g;
    int N = st->N, n = st->n, NC = st->NC, nw = st->nw;
    int cap = N + n * g->nh + 1;
    int *pa = malloc(sizeof(int) * 2 * (size_t)cap);
    sl->off = calloc((size_t)NC + 1, sizeof(int));
    if (!pa || !sl->off) { free(pa); free(sl->off); PyErr_NoMemory(); return -1; }
    int np = 0;
    for (int c = 0; c < N; c++) {
        uint32_t m = st->cand[c];
        if (m && popc32(m) == 2) {
            int lo = __builtin_ctz(m), hi = 31 - __builtin_clz(m);
            pa[2 * np] = lo * N + c; pa[2 * np + 1] = hi * N + c; np++;
        }
    }
    for (int v = 0; v < n; v++) {
        const cellset *pv = &st->pos[v];
        if (cs_empty(pv, nw)) continue;
        for (int h = 0; h < g->nh; h++) {
            cellset w;
            cs_and(&w, pv, &g->house[h], nw);
            if (cs_count(&w, nw) != 2) continue;
            int a = cs_next(&w, 0, nw), b = cs_next(&w, a + 1, nw);
            if (h >= 2 * n) {  /* a box pair already found in its row or column */
                cellset x;
                if (g->row[a] == g->row[b]) {
                    cs_and(&x, pv, &g->house[g->row[a]], nw);
                    if (cs_count(&x, nw) == 2) continue;
                }
                if (g->col[a] == g->col[b]) {
                    cs_and(&x, pv, &g->house[n + g->col[a]], nw);
                    if (cs_count(&x, nw) == 2) continue;
                }
            }
            pa[2 * np] = v * N + a; pa[2 * np + 1] = v * N + b; np++;
        }
    }
    for (int p = 0; p < np; p++) { sl->off[pa[2 * p] + 1]++; sl->off[pa[2 * p + 1] + 1]++; }
    for (int i = 0; i < NC; i++) sl->off[i + 1] += sl->off[i];
    sl->adj = malloc(sizeof(int) * (2 * (size_t)np + 1));
    int *fill = malloc(sizeof(int) * (size_t)NC);
    if (!sl->adj || !fill) { free(pa); free(fill); free(sl->adj); free(sl->off); PyErr_NoMemory(); return -1; }
    memcpy(fill, sl->off, sizeof(int) * (size_t)NC);
    for (int p = 0; p < np; p++) {
        int a = pa[2 * p], b = pa[2 * p + 1];
        sl->adj[fill[a]++] = b;
        sl->adj[fill[b]++] = a;
    }
    sl->npairs = np;
    sl->pairs = pa;
    free(fill);
    return 0;
}

static void strong_free(strong_t *sl) { free(sl->off); free(sl->adj); free(sl->pairs); }

/* Is b weakly linked to a (same cell, or same value in cells that see each other)? */
static inline int weak_has(const state_t *st, int a, int b) {
    int N = st->N, va = a / N, ca = a % N, vb = b / N, cb = b % N;
    if (a == b) return 0;
    if (ca == cb) return 1;
    return va == vb && cs_has(&st->g->peer[ca], cb);
}

/* out |= weak(a) & weak(b) (candidate numbers) */
static void weak_both(const state_t *st, int a, int b, bitarr *out) {
    int N = st->N, nw = st->nw, va = a / N, ca = a % N, vb = b / N, cb = b % N;
    if (va == vb) {
        if (ca == cb) return;
        cellset x;
        cs_and(&x, &st->g->peer[ca], &st->g->peer[cb], nw);
        cs_and(&x, &x, &st->pos[va], nw);
        CS_FOREACH(c, &x, nw) ba_set(out, va * N + c);
        return;
    }
    if (ca == cb) {
        uint32_t m = st->cand[ca] & ~(1u << va) & ~(1u << vb);
        while (m) { int u = __builtin_ctz(m); m &= m - 1; ba_set(out, u * N + ca); }
        return;
    }
    if (!cs_has(&st->g->peer[ca], cb)) return;
    if (st->cand[cb] >> va & 1) ba_set(out, va * N + cb);
    if (st->cand[ca] >> vb & 1) ba_set(out, vb * N + ca);
}

/* the strong links, in links.Links's order (the pairs of strong_build) */
static PyObject *strong_pairs(const state_t *st, const opts_t *opt) {
    (void)opt;
    strong_t sl;
    if (strong_build(st, &sl) < 0) return NULL;
    PyObject *out = PyList_New(0);
    for (int p = 0; out && p < sl.npairs; p++)
        if (list_add(out, Py_BuildValue("(ii)", sl.pairs[2 * p], sl.pairs[2 * p + 1])) < 0) Py_CLEAR(out);
    strong_free(&sl);
    return out;
}

/* per candidate, the candidates weakly linked to it (a bit mask over candidate numbers) */
static PyObject *weak_table(const state_t *st, const opts_t *opt) {
    (void)opt;
    int N = st->N, nw = st->nw, ncw = (st->NC + 63) / 64;
    uint64_t *w = calloc((size_t)ncw, sizeof(uint64_t));
    PyObject *out = PyDict_New();
    if (!w || !out) { free(w); Py_XDECREF(out); return PyErr_NoMemory(); }
    bitarr b = {w, ncw};
    for (int v = 0; v < st->n && out; v++) {
        CS_FOREACH(c, &st->pos[v], nw) {
            int i = v * N + c, lo = i, hi = i;
            cellset x;
            cs_and(&x, &st->g->peer[c], &st->pos[v], nw);
            CS_FOREACH(q, &x, nw) { ba_set(&b, v * N + q); if (v * N + q < lo) lo = v * N + q; if (v * N + q > hi) hi = v * N + q; }
            for (int u = 0; u < st->n; u++)
                if (u != v && (st->cand[c] >> u & 1)) {
                    ba_set(&b, u * N + c);
                    if (u * N + c < lo) lo = u * N + c;
                    if (u * N + c > hi) hi = u * N + c;
                }
            int w0 = lo >> 6, w1 = hi >> 6;
            if (dict_add(out, PyLong_FromLong(i), words_to_py(w, w1 + 1)) < 0) Py_CLEAR(out);
            for (int k = w0; k <= w1; k++) w[k] = 0;
            if (!out) break;
        }
    }
    free(w);
    return out;
}

/* ---- plain chains (techniques/chains.py) -------------------------------------------------- */

enum { EV_CHAIN = 0, EV_LOOP = 1, EV_RECT = 2 };

typedef struct {
    const state_t *st;
    const strong_t *sl;
    int *par;        /* 2 * NC: parent key of a (candidate, truth) key */
    int *on, *off;   /* NC: start stamp when reached true / false */
    int *mark;       /* NC: path stamp */
    int stamp;
    int *path;       /* MAX path nodes */
} chainctx;

/* mark the path ending at key (candidates numbers of its nodes) with a fresh stamp; its
 * nodes from the start, into ctx->path, and their count */
static int path_of(chainctx *x, int key, int mark) {
    int len = 0;
    if (mark) x->stamp++;
    for (int k = key; k >= 0; k = x->par[k]) {
        x->path[len++] = k >> 1;
        if (mark) x->mark[k >> 1] = x->stamp;
    }
    for (int i = 0, j = len - 1; i < j; i++, j--) { int t = x->path[i]; x->path[i] = x->path[j]; x->path[j] = t; }
    return len;
}

/* the rectangle test of chains._rectangle_boxes / _rectangle: a box whose v candidates all
 * lie in C1's row and Cn's column, or the other way round */
static int rectangle_box(const state_t *st, int v, int cn, int c1) {
    const geo_t *g = st->g;
    int n = st->n, nw = st->nw;
    int r1 = g->row[c1], k1 = g->col[c1], rn = g->row[cn], kn = g->col[cn];
    if (r1 == rn || k1 == kn) return 0;
    int rows[2] = {r1, rn}, cols[2] = {kn, k1};
    for (int t = 0; t < 2; t++) {
        int b = 2 * n + g->box[rows[t] * n + cols[t]];
        const cellset *bm = &g->house[b];
        if (cs_has(bm, c1) || cs_has(bm, cn)) continue;
        cellset inside, lines, rest;
        cs_and(&inside, &st->pos[v], bm, nw);
        if (cs_empty(&inside, nw)) continue;
        cs_or(&lines, &g->house[rows[t]], &g->house[n + cols[t]], nw);
        cs_andnot(&rest, &inside, &lines, nw);
        if (cs_empty(&rest, nw)) return 1;
    }
    return 0;
}

static int append_event(PyObject *events, int length, int k, int kind, const int *nodes, int len, PyObject *elim) {
    PyObject *event = Py_BuildValue("(iiiNO)", length, k, kind, ints_to_py(nodes, len, 1), elim ? elim : Py_None);
    return list_add(events, event);
}

/* A hit at ``length`` when only the shortest chains are wanted: the longer events found before
 * are dropped and ``length`` becomes the limit. 0, or -1 with the error set. */
static int keep_shortest(PyObject **events, int length, int *limit) {
    if (length >= *limit) return 0;
    PyObject *kept = PyList_New(0);
    if (!kept) return -1;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(*events); i++) {
        PyObject *ev = PyList_GET_ITEM(*events, i);
        if (PyLong_AsLong(PyTuple_GET_ITEM(ev, 0)) == length && PyList_Append(kept, ev) < 0) {
            Py_DECREF(kept);
            return -1;
        }
    }
    Py_SETREF(*events, kept);
    *limit = length;
    return 0;
}

/* Append an event (a new reference; NULL: an error is set) to a search's list *out: 1 when the
 * search stops there (the list holds ``limit`` events, 0: no limit; or an error: *out is then
 * NULL), else 0. */
static int add_event(PyObject **out, PyObject *event, Py_ssize_t limit) {
    if (list_add(*out, event) < 0) {
        Py_CLEAR(*out);
        return 1;
    }
    return limit && PyList_GET_SIZE(*out) >= limit;
}

/* a stable sort of events by their first item (length) */
static int sort_by_length(PyObject *events) {
    Py_ssize_t size = PyList_GET_SIZE(events);
    if (size < 2) return 0;
    PyObject **tmp = malloc(sizeof(PyObject *) * (size_t)size);
    if (!tmp) { PyErr_NoMemory(); return -1; }
    int maxlen = 0;
    for (Py_ssize_t i = 0; i < size; i++) {
        int l = (int)PyLong_AsLong(PyTuple_GET_ITEM(PyList_GET_ITEM(events, i), 0));
        if (l > maxlen) maxlen = l;
    }
    Py_ssize_t w = 0;
    for (int l = 0; l <= maxlen; l++)
        for (Py_ssize_t i = 0; i < size; i++) {
            PyObject *ev = PyList_GET_ITEM(events, i);
            if (PyLong_AsLong(PyTuple_GET_ITEM(ev, 0)) == l) tmp[w++] = ev;
        }
    for (Py_ssize_t i = 0; i < size; i++) PyList_SET_ITEM(events, i, tmp[i]);  /* same references, reordered */
    free(tmp);
    return 0;
}

/* the chains, loops and empty rectangles of chains.py's search, as events (length, start rank, kind,
 * nodes, removed) */
static PyObject *chain_events(const state_t *st, const opts_t *opt) {
    const int n = st->n, max_length = opt->max_length, one_digit = opt->one_digit, shortest = opt->shortest;
    strong_t sl;
    if (strong_build(st, &sl) < 0) return NULL;
    int N = st->N, NC = st->NC, ncw = (NC + 63) / 64;
    chainctx x = {st, &sl, NULL, NULL, NULL, NULL, 0, NULL};
    x.par = malloc(sizeof(int) * 2 * (size_t)NC);
    x.on = calloc((size_t)NC, sizeof(int));
    x.off = calloc((size_t)NC, sizeof(int));
    x.mark = calloc((size_t)NC, sizeof(int));
    x.path = malloc(sizeof(int) * (size_t)(max_length + 2));
    int *front = malloc(sizeof(int) * (size_t)NC), *next = malloc(sizeof(int) * (size_t)NC);
    char *dead = malloc((size_t)NC);
    uint64_t *elimw = malloc(sizeof(uint64_t) * (size_t)ncw);
    PyObject *events = PyList_New(0);
    if (!x.par || !x.on || !x.off || !x.mark || !x.path || !front || !next || !dead || !elimw || !events) {
        PyErr_NoMemory();
        goto fail;
    }
    bitarr elim = {elimw, ncw};
    int limit = max_length, k = -1;
    for (int s = 0; s < NC; s++) {
        if (sl.off[s + 1] == sl.off[s]) continue;  /* the starts: candidates with a strong link */
        k++;
        int stamp = k + 1, sv = s / N, sc = s % N;
        x.par[2 * s] = -1;
        x.off[s] = stamp;
        int nf = 1;
        front[0] = s;
        for (int length = 1; length <= limit; length++) {
            int nn = 0, hit = 0;
            if (length & 1) {  /* false -> true along strong links */
                for (int f = 0; f < nf; f++) {
                    int i = front[f];
                    path_of(&x, 2 * i, 1);
                    for (int q = sl.off[i]; q < sl.off[i + 1]; q++) {
                        int j = sl.adj[q];
                        if (x.mark[j] == x.stamp || x.on[j] == stamp || (one_digit && j / N != sv)) continue;
                        x.on[j] = stamp;
                        x.par[2 * j + 1] = 2 * i;
                        dead[nn] = 0;
                        next[nn++] = j;
                    }
                }
            } else {  /* true -> false along weak links */
                for (int f = 0; f < nf; f++) {
                    int i = front[f], v = i / N, c = i % N;
                    path_of(&x, 2 * i + 1, 1);
                    uint32_t cm = st->cand[c];
                    /* weak neighbours in increasing number: the cell's lower values, v's peers, higher values */
                    for (int part = 0; part < 3; part++) {
                        int lo = part == 0 ? 0 : v + 1, hi = part == 0 ? v : n;
                        cellset peers;
                        if (part == 1) cs_and(&peers, &st->g->peer[c], &st->pos[v], st->nw);
                        int cur = part == 1 ? cs_next(&peers, 0, st->nw) : lo;
                        for (;;) {
                            int j;
                            if (part == 1) {
                                if (cur < 0) break;
                                j = v * N + cur;
                                cur = cs_next(&peers, cur + 1, st->nw);
                            } else {
                                while (cur < hi && !(cm >> cur & 1)) cur++;
                                if (cur >= hi) break;
                                j = cur * N + c;
                                cur++;
                            }
                            if (x.mark[j] == x.stamp || x.off[j] == stamp || (one_digit && j / N != sv)) continue;
                            x.off[j] = stamp;
                            int strong = sl.off[j + 1] > sl.off[j];
                            if (!strong && j / N != sv) continue;  /* a false candidate goes on by a strong link */
                            x.par[2 * j] = 2 * i + 1;
                            dead[nn] = (char)!strong;
                            next[nn++] = j;
                        }
                    }
                }
            }
            /* the next front (dead ends kept only for the rectangle test below) */
            int nf2 = 0;
            if (length & 1) {
                for (int q = 0; q < nn; q++) front[nf2++] = next[q];
            }
            if ((length & 1) && length >= 3) {
                for (int q = 0; q < nn; q++) {
                    int e = next[q];
                    int len = path_of(&x, 2 * e + 1, 1);
                    memset(elimw, 0, sizeof(uint64_t) * (size_t)ncw);
                    int kind;
                    if (weak_has(st, s, e)) {
                        kind = EV_LOOP;
                        for (int p = 1; p < len; p += 2) weak_both(st, x.path[p], x.path[(p + 1) % len], &elim);
                    } else {
                        kind = EV_CHAIN;
                        weak_both(st, s, e, &elim);
                    }
                    for (int p = 0; p < len; p++) ba_del(&elim, x.path[p]);
                    if (!ba_any(&elim)) continue;
                    PyObject *em = words_to_py(elimw, ncw);
                    if (!em) goto fail;
                    int r = append_event(events, length, k, kind, x.path, len, em);
                    Py_DECREF(em);
                    if (r < 0) goto fail;
                    hit = 1;
                }
            } else if (!(length & 1)) {
                for (int q = 0; q < nn; q++) {
                    int y = next[q];
                    if (y / N != sv || !rectangle_box(st, sv, sc, y % N)) continue;
                    int len = path_of(&x, 2 * y, 0);
                    if (append_event(events, length, k, EV_RECT, x.path, len, NULL) < 0) goto fail;
                    hit = 1;
                }
                for (int q = 0; q < nn; q++)
                    if (!dead[q]) front[nf2++] = next[q];
            }
            nf = nf2;
            if (hit && shortest) {
                if (keep_shortest(&events, length, &limit) < 0) goto fail;
                break;
            }
            if (!nf) break;
        }
    }
    if (!shortest && sort_by_length(events) < 0) goto fail;
    goto done;
fail:
    Py_CLEAR(events);
done:
    free(x.par); free(x.on); free(x.off); free(x.mark); free(x.path);
    free(front); free(next); free(dead); free(elimw);
    strong_free(&sl);
    return events;
}

/* ---- grouped chains (techniques/grouped.py) ------------------------------------------------ */

/* Nodes: every candidate v * N + c (a single), then the groups, numbered from NC: per value
 * (ascending), the value's places in each box-line intersection holding two or more of them, in
 * Geometry.intersections order. */
typedef struct {
    const state_t *st;
    int NC, ngroups, nnodes;
    int *gv, *ginter;          /* per group: value, intersection */
    cellset *gmask, *gsee;     /* per group: cells, cells seeing all of them */
    int vfirst[MAXN + 1];      /* first group (index from 0) of each value; vfirst[n] = ngroups */
    int *off, *adj;            /* strong lists per node (CSR), in grouped.py's order */
} gg_t;

static void gg_free(gg_t *g) { free(g->gv); free(g->ginter); free(g->gmask); free(g->gsee); free(g->off); free(g->adj); }

static inline int gg_is_group(const gg_t *g, int i) { return i >= g->NC; }
static inline int gg_value(const gg_t *g, int i) { return i < g->NC ? i / g->st->N : g->gv[i - g->NC]; }

/* does node j share a candidate with node i? */
static int gg_overlap(const gg_t *g, int i, int j) {
    int N = g->st->N, nw = g->st->nw;
    if (gg_value(g, i) != gg_value(g, j)) return 0;
    if (!gg_is_group(g, i) && !gg_is_group(g, j)) return i == j;
    if (!gg_is_group(g, i)) return cs_has(&g->gmask[j - g->NC], i % N);
    if (!gg_is_group(g, j)) return cs_has(&g->gmask[i - g->NC], j % N);
    return cs_intersects(&g->gmask[i - g->NC], &g->gmask[j - g->NC], nw);
}

typedef struct { int h, rank, a, b; } gpair_t;

static int gpair_cmp(const void *p, const void *q) {
    const gpair_t *x = p, *y = q;
    if (x->h != y->h) return x->h < y->h ? -1 : 1;
    if (x->rank != y->rank) return x->rank < y->rank ? -1 : 1;
    if (x->a != y->a) return x->a < y->a ? -1 : 1;
    return x->b < y->b ? -1 : x->b > y->b;
}

static int gg_build(const state_t *st, const strong_t *sl, gg_t *g) {
    const geo_t *geo = st->g;
    int n = st->n, N = st->N, nw = st->nw, NC = st->NC, m = geo->m;
    memset(g, 0, sizeof *g);
    g->st = st;
    g->NC = NC;
    int cap = n * geo->ninter + 1;
    g->gv = malloc(sizeof(int) * (size_t)cap);
    g->ginter = malloc(sizeof(int) * (size_t)cap);
    g->gmask = malloc(sizeof(cellset) * (size_t)cap);
    g->gsee = malloc(sizeof(cellset) * (size_t)cap);
    if (!g->gv || !g->ginter || !g->gmask || !g->gsee) { PyErr_NoMemory(); return -1; }
    int ng = 0;
    for (int v = 0; v < n; v++) {
        g->vfirst[v] = ng;
        for (int k = 0; k < geo->ninter; k++) {
            cellset x;
            cs_and(&x, &st->pos[v], &geo->imask[k], nw);
            if (cs_count(&x, nw) < 2) continue;
            g->gv[ng] = v; g->ginter[ng] = k; g->gmask[ng] = x;
            cellset see;
            for (int q = 0; q < CS_MAXWORDS; q++) see.w[q] = ~(uint64_t)0;
            CS_FOREACH(c, &x, nw) cs_and(&see, &see, &geo->peer[c], nw);
            g->gsee[ng] = see;
            ng++;
        }
    }
    g->vfirst[n] = ng;
    g->ngroups = ng;
    g->nnodes = NC + ng;
    /* strong links with a group, per value: in a house (the group's line, then its box) holding
     * 3 to 2m places of the value, the places besides the group are one cell or one group */
    int pcap = 2 * ng + 1, np = 0;
    gpair_t *gp = malloc(sizeof(gpair_t) * (size_t)pcap);
    int *pairs = malloc(sizeof(int) * 2 * (size_t)pcap);
    if (!gp || !pairs) { free(gp); free(pairs); PyErr_NoMemory(); return -1; }
    int npairs = 0;
    for (int v = 0; v < n; v++) {
        np = 0;
        for (int r = g->vfirst[v]; r < g->vfirst[v + 1]; r++) {
            int k = g->ginter[r];
            int hs[2] = {geo->iline[k], geo->ibox[k]};
            for (int t = 0; t < 2; t++) {
                cellset p, rest;
                cs_and(&p, &st->pos[v], &geo->house[hs[t]], nw);
                int cnt = cs_count(&p, nw);
                if (cnt < 3 || cnt > 2 * m) continue;
                cs_andnot(&rest, &p, &g->gmask[r], nw);
                int rc = cs_count(&rest, nw);
                if (!rc) continue;
                int y = -1;  /* local ids: a cell, or N + the value's group rank */
                if (rc == 1) {
                    y = cs_next(&rest, 0, nw);
                } else {
                    for (int r2 = g->vfirst[v]; r2 < g->vfirst[v + 1]; r2++)
                        if (r2 != r && memcmp(g->gmask[r2].w, rest.w, sizeof(uint64_t) * (size_t)nw) == 0) {
                            y = N + (r2 - g->vfirst[v]);
                            break;
                        }
                }
                if (y < 0) continue;
                int me = N + (r - g->vfirst[v]);
                gp[np].h = hs[t]; gp[np].rank = geo->irank[k][t];
                gp[np].a = me < y ? me : y; gp[np].b = me < y ? y : me;
                np++;
            }
        }
        qsort(gp, (size_t)np, sizeof(gpair_t), gpair_cmp);
        for (int q = 0; q < np; q++) {
            int a = gp[q].a < N ? v * N + gp[q].a : NC + g->vfirst[v] + gp[q].a - N;
            int b = gp[q].b < N ? v * N + gp[q].b : NC + g->vfirst[v] + gp[q].b - N;
            int dup = 0;  /* two groups of one line find each other: each pair once, the first */
            for (int e = 0; e < npairs && !dup; e++) dup = pairs[2 * e] == a && pairs[2 * e + 1] == b;
            if (dup) continue;
            pairs[2 * npairs] = a; pairs[2 * npairs + 1] = b; npairs++;
        }
    }
    free(gp);
    /* strong lists: the plain ones (links.Links's), then the group links appended in order */
    int nn = g->nnodes;
    g->off = calloc((size_t)nn + 1, sizeof(int));
    if (!g->off) { free(pairs); PyErr_NoMemory(); return -1; }
    for (int i = 0; i < NC; i++) g->off[i + 1] = sl->off[i + 1] - sl->off[i];
    for (int e = 0; e < npairs; e++) { g->off[pairs[2 * e] + 1]++; g->off[pairs[2 * e + 1] + 1]++; }
    for (int i = 0; i < nn; i++) g->off[i + 1] += g->off[i];
    g->adj = malloc(sizeof(int) * ((size_t)g->off[nn] + 1));
    int *fill = malloc(sizeof(int) * ((size_t)nn + 1));
    if (!g->adj || !fill) { free(pairs); free(fill); PyErr_NoMemory(); return -1; }
    for (int i = 0; i < nn; i++) fill[i] = g->off[i];
    for (int i = 0; i < NC; i++)
        for (int q = sl->off[i]; q < sl->off[i + 1]; q++) g->adj[fill[i]++] = sl->adj[q];
    for (int e = 0; e < npairs; e++) {
        int a = pairs[2 * e], b = pairs[2 * e + 1];
        g->adj[fill[a]++] = b;
        g->adj[fill[b]++] = a;
    }
    free(fill);
    free(pairs);
    return 0;
}

/* is candidate y (present in the state) weakly linked to node i (grouped._Graph.weak_cands)? */
static inline int gg_weak_to(const gg_t *g, int i, int y) {
    const state_t *st = g->st;
    int N = st->N, u = y / N, q = y % N;
    if (i < g->NC) {
        int v = i / N, c = i % N;
        return q == c ? u != v : u == v && cs_has(&st->g->peer[c], q);
    }
    int r = i - g->NC;
    return u == g->gv[r] && cs_has(&g->gsee[r], q);
}

/* candidates weakly linked to node i (grouped._Graph.weak_cands) into a bit array */
static void gg_weak_cands(const gg_t *g, int i, bitarr *out) {
    const state_t *st = g->st;
    int N = st->N, nw = st->nw, n = st->n;
    memset(out->w, 0, sizeof(uint64_t) * (size_t)out->nw);
    if (i < g->NC) {
        int v = i / N, c = i % N;
        for (int u = 0; u < n; u++) if (u != v && (st->cand[c] >> u & 1)) ba_set(out, u * N + c);
        cellset x;
        cs_and(&x, &st->g->peer[c], &st->pos[v], nw);
        CS_FOREACH(q, &x, nw) ba_set(out, v * N + q);
        return;
    }
    int r = i - g->NC, v = g->gv[r];
    cellset x;
    cs_and(&x, &g->gsee[r], &st->pos[v], nw);
    CS_FOREACH(q, &x, nw) ba_set(out, v * N + q);
}

typedef struct {
    int node, parent;   /* parent: the entry it extends, -1 at the start */
    int grouped;        /* a group on the path */
} gent_t;

typedef struct {
    const gg_t *g;
    gent_t *ent;
    int nent, cap;
    int *mark, stamp;   /* per candidate: path stamp */
} gsearch_t;

static int gent_push(gsearch_t *x, int node, int parent, int grouped) {
    if (x->nent == x->cap) {
        gent_t *e = grown(x->ent, &x->cap, 1024, sizeof *e);
        if (!e) return -1;
        x->ent = e;
    }
    x->ent[x->nent].node = node; x->ent[x->nent].parent = parent; x->ent[x->nent].grouped = grouped;
    return x->nent++;
}

/* mark the candidates of the path ending at entry e with a fresh stamp */
static void gmark_path(gsearch_t *x, int e) {
    const gg_t *g = x->g;
    int N = g->st->N, nw = g->st->nw;
    x->stamp++;
    for (; e >= 0; e = x->ent[e].parent) {
        int i = x->ent[e].node;
        if (i < g->NC) {
            x->mark[i] = x->stamp;
        } else {
            int r = i - g->NC, base = g->gv[r] * N;
            CS_FOREACH(c, &g->gmask[r], nw) x->mark[base + c] = x->stamp;
        }
    }
}

/* does node j share a candidate with the marked path? */
static int gmarked(const gsearch_t *x, int j) {
    const gg_t *g = x->g;
    if (j < g->NC) return x->mark[j] == x->stamp;
    int r = j - g->NC, base = g->gv[r] * g->st->N, nw = g->st->nw;
    CS_FOREACH(c, &g->gmask[r], nw) if (x->mark[base + c] == x->stamp) return 1;
    return 0;
}

static PyObject *gnodes(const gsearch_t *x, int e) {
    const gg_t *g = x->g;
    int len = 0, N = g->st->N, nw = g->st->nw;
    for (int q = e; q >= 0; q = x->ent[q].parent) len++;
    PyObject *t = PyTuple_New(len);
    if (!t) return NULL;
    for (int q = e, k = len - 1; q >= 0; q = x->ent[q].parent, k--) {
        int i = x->ent[q].node;
        PyObject *item;
        if (i < g->NC) {
            cellset one;
            memset(one.w, 0, sizeof one.w);
            cs_add(&one, i % N);
            item = Py_BuildValue("(iN)", i / N, cs_to_py(&one, nw));
        } else {
            item = Py_BuildValue("(iN)", g->gv[i - g->NC], cs_to_py(&g->gmask[i - g->NC], nw));
        }
        if (!item) { Py_DECREF(t); return NULL; }
        PyTuple_SET_ITEM(t, k, item);
    }
    return t;
}

/* the grouped chains of grouped.py's search, as events (length, start rank, nodes, removed) */
static PyObject *grouped_events(const state_t *st, const opts_t *opt) {
    const int n = st->n, max_length = opt->max_length, every = opt->every;
    strong_t sl;
    if (strong_build(st, &sl) < 0) return NULL;
    gg_t g;
    gsearch_t x;
    memset(&x, 0, sizeof x);
    PyObject *events = NULL;
    int *von = NULL, *voff = NULL, *front = NULL, *next = NULL, *onmark = NULL, *wsl = NULL;
    uint64_t *wsw = NULL, *wew = NULL;
    char *conflicting = NULL;
    if (gg_build(st, &sl, &g) < 0) goto fail;
    int NC = st->NC, N = st->N, nn = g.nnodes, ncw = (NC + 63) / 64;
    events = PyList_New(0);
    von = calloc((size_t)nn, sizeof(int));
    voff = calloc((size_t)nn, sizeof(int));
    onmark = calloc((size_t)nn, sizeof(int));
    x.g = &g;
    x.mark = calloc((size_t)NC, sizeof(int));
    front = malloc(sizeof(int) * (size_t)nn * 2 + 8);
    next = malloc(sizeof(int) * (size_t)nn * 2 + 8);
    wsw = malloc(sizeof(uint64_t) * (size_t)ncw);
    wew = malloc(sizeof(uint64_t) * (size_t)ncw);
    conflicting = calloc((size_t)(g.off[nn] + 1), 1);
    wsl = malloc(sizeof(int) * (size_t)(NC + 1));
    if (!events || !von || !voff || !onmark || !x.mark || !front || !next || !wsw || !wew || !conflicting || !wsl) {
        PyErr_NoMemory();
        goto fail;
    }
    if (!g.ngroups) goto done;  /* no group: the plain chain search has seen everything */
    /* a strong neighbour sharing a candidate with its node never continues a chain from it */
    for (int i = 0; i < nn; i++)
        for (int q = g.off[i]; q < g.off[i + 1]; q++) conflicting[q] = (char)gg_overlap(&g, i, g.adj[q]);
    bitarr ws = {wsw, ncw}, we = {wew, ncw};
    int limit = max_length, k = -1;
    for (int s = 0; s < nn; s++) {
        if (g.off[s + 1] == g.off[s]) continue;  /* the starts: nodes with a strong link */
        k++;
        int stamp = k + 1, have_ws = 0, nws = 0;
        x.nent = 0;
        voff[s] = stamp;
        int nf = 1, hit = 0;
        front[0] = gent_push(&x, s, -1, s >= NC);
        if (front[0] < 0) goto fail;
        for (int length = 1; length <= limit; length++) {
            int nx = 0;
            if (length & 1) {  /* false -> true through strong links */
                for (int f = 0; f < nf; f++) {
                    int e = front[f], i = x.ent[e].node;
                    gmark_path(&x, e);
                    for (int q = g.off[i]; q < g.off[i + 1]; q++) {
                        int j = g.adj[q];
                        if (von[j] == stamp || gmarked(&x, j)) continue;
                        von[j] = stamp;
                        int ne = gent_push(&x, j, e, x.ent[e].grouped || j >= NC);
                        if (ne < 0) goto fail;
                        next[nx++] = ne;
                    }
                }
                if (!nx) break;
                if (length >= 3) {
                    hit = 0;
                    for (int q = 0; q < nx; q++) {
                        int e = next[q];
                        if (!x.ent[e].grouped) continue;
                        if (!have_ws) {  /* the start's weak candidates, as a list: the ends test these only */
                            gg_weak_cands(&g, s, &ws);
                            for (int w = 0; w < ncw; w++)
                                for (uint64_t b = wsw[w]; b; b &= b - 1) wsl[nws++] = (w << 6) + __builtin_ctzll(b);
                            have_ws = 1;
                        }
                        /* removed: weakly linked to both ends, not on the path */
                        int j = x.ent[e].node, any = 0;
                        gmark_path(&x, e);
                        for (int t = 0; t < nws; t++) {
                            int y = wsl[t];
                            if (!gg_weak_to(&g, j, y) || x.mark[y] == x.stamp) continue;
                            if (!any) memset(wew, 0, sizeof(uint64_t) * (size_t)ncw), any = 1;
                            ba_set(&we, y);
                        }
                        if (!any) continue;
                        PyObject *nodes = gnodes(&x, e), *elim = nodes ? words_to_py(wew, ncw) : NULL;
                        if (list_add(events, Py_BuildValue("(iiNN)", length, k, nodes, elim)) < 0) goto fail;
                        hit = 1;
                    }
                    if (hit && !every) {
                        if (keep_shortest(&events, length, &limit) < 0) goto fail;
                        break;
                    }
                }
            } else {  /* true -> false through weak links, to nodes that go on by a strong link */
                for (int f = 0; f < nf; f++) {
                    int e = front[f], i = x.ent[e].node;
                    int v = gg_value(&g, i);
                    gmark_path(&x, e);
                    /* weak neighbours in increasing id: singles, then the value's groups */
                    int sing[MAXN * 3 + CS_MAXCELLS], ns = 0;
                    cellset peers;
                    if (i < NC) {
                        int c = i % N;
                        uint32_t cm = st->cand[c];
                        for (int u = 0; u < v; u++) if (cm >> u & 1) sing[ns++] = u * N + c;
                        cs_and(&peers, &st->g->peer[c], &st->pos[v], st->nw);
                        CS_FOREACH(q, &peers, st->nw) sing[ns++] = v * N + q;
                        for (int u = v + 1; u < n; u++) if (cm >> u & 1) sing[ns++] = u * N + c;
                    } else {
                        cs_and(&peers, &g.gsee[i - NC], &st->pos[v], st->nw);
                        CS_FOREACH(q, &peers, st->nw) sing[ns++] = v * N + q;
                    }
                    int cnt = 0;
                    for (int t = 0; t < ns + (g.vfirst[v + 1] - g.vfirst[v]); t++) {
                        int j;
                        if (t < ns) {
                            j = sing[t];
                        } else {
                            int r2 = g.vfirst[v] + (t - ns);
                            j = NC + r2;
                            /* a group in one of the node's houses sharing no cell with it */
                            int gl = st->g->iline[g.ginter[r2]], gb = st->g->ibox[g.ginter[r2]];
                            if (i < NC) {
                                int c = i % N;
                                if (gl != st->g->row[c] && gl != n + st->g->col[c] && gb != 2 * n + st->g->box[c])
                                    continue;
                            } else {
                                int l = st->g->iline[g.ginter[i - NC]], b = st->g->ibox[g.ginter[i - NC]];
                                if (gl != l && gb != b) continue;
                            }
                            if (gg_overlap(&g, i, j)) continue;
                        }
                        if (g.off[j + 1] == g.off[j] || voff[j] == stamp || gmarked(&x, j)) continue;
                        next[nx + cnt++] = j;  /* the claimed nodes, extended below */
                    }
                    int claimed = nx;  /* next[claimed ..] holds them; entries are written over them */
                    for (int t = 0; t < cnt; t++) voff[next[claimed + t]] = stamp;
                    for (int t = 0; t < cnt; t++) {
                        int j = next[claimed + t], go = 0;
                        /* a false node whose strong neighbours are all taken ends here */
                        for (int q = g.off[j]; q < g.off[j + 1] && !go; q++) {
                            int y = g.adj[q];
                            go = !conflicting[q] && von[y] != stamp && !gmarked(&x, y);
                        }
                        if (!go) continue;
                        int ne = gent_push(&x, j, e, x.ent[e].grouped || j >= NC);
                        if (ne < 0) goto fail;
                        next[nx++] = ne;
                    }
                }
                if (!nx) break;
            }
            memcpy(front, next, sizeof(int) * (size_t)nx);
            nf = nx;
        }
    }
    if (every && sort_by_length(events) < 0) goto fail;
    goto done;
fail:
    Py_CLEAR(events);
done:
    free(von); free(voff); free(onmark); free(x.mark); free(x.ent); free(front); free(next); free(wsw); free(wew);
    free(conflicting); free(wsl);
    gg_free(&g);
    strong_free(&sl);
    return events;
}

/* ---- almost locked sets (techniques/als.py) ------------------------------------------------ */

#define ALS_SUBSET_BITS 12   /* houses with more empty cells get sets of at most ALS_SMALL cells */
#define ALS_SMALL 4
#define ALS_BIG_GRID 16      /* from 16x16 on, sets of at most ALS_BIG_CELLS cells */
#define ALS_BIG_CELLS 8

/* An ALS: its values, its size, its cells (nw words at cells_at in the cell pool) and, per
 * value (ascending), the cells holding it and the cells outside seeing all of those (nw words
 * each from ``first`` * nw in the where / sees pools). */
typedef struct {
    uint32_t values;
    int size;
    int first;
    int cells_at;
} als_t;

typedef struct {
    als_t *a;
    int count, cap, nw;
    uint64_t *cells;          /* count * nw */
    uint64_t *where, *sees;   /* npool * nw */
    int npool;
    int borrowed;             /* a copy of an ALS table's (als_table): its arrays are the table's */
    struct alstab *owner;     /* that table (its live values and pairs are kept there), or NULL */
} alsset_t;

static void alsset_free(alsset_t *t) {
    if (t->borrowed) return;
    free(t->a); free(t->cells); free(t->where); free(t->sees);
}

static inline const uint64_t *als_cells(const alsset_t *t, const als_t *a) { return t->cells + (size_t)a->cells_at; }

static int als_push(alsset_t *t, const cellset *cells, uint32_t values, int size) {
    if (t->count == t->cap) {
        int cap = t->cap ? 2 * t->cap : 256;
        als_t *a = realloc(t->a, sizeof(als_t) * (size_t)cap);
        uint64_t *c = a ? realloc(t->cells, sizeof(uint64_t) * (size_t)cap * (size_t)t->nw) : NULL;
        if (a) t->a = a;
        if (!c) { PyErr_NoMemory(); return -1; }
        t->cells = c; t->cap = cap;
    }
    als_t *x = &t->a[t->count];
    x->values = values; x->size = size; x->first = 0; x->cells_at = t->count * t->nw;
    memcpy(t->cells + (size_t)x->cells_at, cells->w, sizeof(uint64_t) * (size_t)t->nw);
    t->count++;
    return 0;
}

/* one stable counting pass of the ALSs from src to dst by the byte ``digit(a)`` */
#define ALS_PASS(digit)                                                              \
    do {                                                                             \
        int cnt[257] = {0};                                                          \
        for (int i = 0; i < count; i++) cnt[(digit(&src[i])) + 1]++;                 \
        for (int d = 0; d < 256; d++) cnt[d + 1] += cnt[d];                          \
        for (int i = 0; i < count; i++) dst[cnt[digit(&src[i])]++] = src[i];          \
        als_t *sw = src; src = dst; dst = sw;                                        \
    } while (0)

/* the ALSs by size, then by cells read as one integer: stable counting passes over the bytes
 * of the cells that differ between sets, least significant first, then one by size */
static int als_sort(alsset_t *t) {
    int count = t->count, nw = t->nw;
    if (count < 2) return 0;
    als_t *tmp = malloc(sizeof(als_t) * (size_t)count), *src = t->a, *dst = tmp;
    if (!tmp) { PyErr_NoMemory(); return -1; }
    const uint64_t *cells = t->cells;
    for (int q = 0; q < nw; q++) {
        uint64_t ors = 0, ands = ~(uint64_t)0;
        for (int i = 0; i < count; i++) {
            uint64_t w = cells[(size_t)src[i].cells_at + (size_t)q];
            ors |= w;
            ands &= w;
        }
        for (int shift = 0; shift < 64; shift += 8) {
            if (!(((ors ^ ands) >> shift) & 0xff)) continue;
#define CELL_BYTE(a) ((int)((cells[(size_t)(a)->cells_at + (size_t)q] >> shift) & 0xff))
            ALS_PASS(CELL_BYTE);
#undef CELL_BYTE
        }
    }
#define SIZE_OF(a) ((a)->size)
    ALS_PASS(SIZE_OF);  /* sizes are below 256 (a set lies in one house) */
#undef SIZE_OF
    if (src != t->a) memcpy(t->a, src, sizeof(als_t) * (size_t)count);
    free(tmp);
    return 0;
}
#undef ALS_PASS

static inline int als_same(const alsset_t *t, const als_t *a, const als_t *b) {
    return a->size == b->size && !memcmp(als_cells(t, a), als_cells(t, b), sizeof(uint64_t) * (size_t)t->nw);
}

static inline int w_subset(const uint64_t *a, const uint64_t *b, int nw) {  /* a within b */
    for (int i = 0; i < nw; i++) if (a[i] & ~b[i]) return 0;
    return 1;
}
static inline int w_intersects(const uint64_t *a, const uint64_t *b, int nw) {
    for (int i = 0; i < nw; i++) if (a[i] & b[i]) return 1;
    return 0;
}

/* every ALS of the state, smallest first (by size, then cells), each with its where / sees */
static int als_enumerate(const state_t *st, alsset_t *t) {
    const geo_t *g = st->g;
    int n = st->n, nw = st->nw;
    memset(t, 0, sizeof *t);
    t->nw = nw;
    uint32_t *uni = malloc(sizeof(uint32_t) << ALS_SUBSET_BITS);
    if (!uni) { PyErr_NoMemory(); return -1; }
    for (int h = 0; h < g->nh; h++) {
        int empty[MAXN], k = 0;
        for (int i = 0; i < n; i++) {
            int c = g->hcell[h][i];
            if (st->cand[c]) empty[k++] = c;
        }
        if (k < 2) continue;
        if (k <= ALS_SUBSET_BITS) {
            int largest = n >= ALS_BIG_GRID ? ALS_BIG_CELLS : k;
            uni[0] = 0;
            for (int i = 0; i < k; i++) {
                int half = 1 << i;
                for (int m = 0; m < half; m++) uni[half + m] = uni[m] | st->cand[empty[i]];
            }
            int full = (1 << k) - 1;
            for (int m = 1; m < full; m++) {
                int p = popc32((uint32_t)m) + 1;
                if (popc32(uni[m]) != p || p > largest + 1) continue;
                cellset cells;
                memset(cells.w, 0, sizeof(uint64_t) * (size_t)nw);
                for (int i = 0; i < k; i++) if (m >> i & 1) cs_add(&cells, empty[i]);
                if (als_push(t, &cells, uni[m], p - 1) < 0) { free(uni); return -1; }
            }
        } else {  /* sets of 1 to ALS_SMALL cells */
            int idx[ALS_SMALL];
            for (int p = 1; p <= ALS_SMALL; p++) {
                for (int i = 0; i < p; i++) idx[i] = i;
                for (;;) {
                    uint32_t u = 0;
                    for (int i = 0; i < p; i++) u |= st->cand[empty[idx[i]]];
                    if (popc32(u) == p + 1) {
                        cellset cells;
                        memset(cells.w, 0, sizeof(uint64_t) * (size_t)nw);
                        for (int i = 0; i < p; i++) cs_add(&cells, empty[idx[i]]);
                        if (als_push(t, &cells, u, p) < 0) { free(uni); return -1; }
                    }
                    int i = p - 1;
                    while (i >= 0 && idx[i] == k - p + i) i--;
                    if (i < 0) break;
                    idx[i]++;
                    for (int j = i + 1; j < p; j++) idx[j] = idx[j - 1] + 1;
                }
            }
        }
    }
    free(uni);
    if (als_sort(t) < 0) return -1;
    int w = 0;  /* a set in a line and a box was found twice */
    for (int i = 0; i < t->count; i++)
        if (!w || !als_same(t, &t->a[w - 1], &t->a[i])) t->a[w++] = t->a[i];
    t->count = w;
    int pool = 0;
    for (int i = 0; i < t->count; i++) { t->a[i].first = pool; pool += popc32(t->a[i].values); }
    t->npool = pool;
    t->where = malloc(sizeof(uint64_t) * (size_t)(pool + 1) * (size_t)nw);
    t->sees = malloc(sizeof(uint64_t) * (size_t)(pool + 1) * (size_t)nw);
    if (!t->where || !t->sees) { PyErr_NoMemory(); return -1; }
    for (int i = 0; i < t->count; i++) {
        als_t *a = &t->a[i];
        const uint64_t *cells = als_cells(t, a);
        uint32_t vs = a->values;
        uint64_t *wv = t->where + (size_t)a->first * (size_t)nw, *sv = t->sees + (size_t)a->first * (size_t)nw;
        while (vs) {
            int v = __builtin_ctz(vs);
            vs &= vs - 1;
            for (int j = 0; j < nw; j++) { wv[j] = cells[j] & st->pos[v].w[j]; sv[j] = ~cells[j]; }
            for (int j = 0; j < nw; j++)
                for (uint64_t x = wv[j]; x; x &= x - 1) {
                    const uint64_t *pw = g->peer[(j << 6) + __builtin_ctzll(x)].w;
                    for (int q = 0; q < nw; q++) sv[q] &= pw[q];
                }
            wv += nw;
            sv += nw;
        }
    }
    return 0;
}

/* the where / sees words of value v of ALS a (v must be one of its values) */
static inline int als_slot(const als_t *a, int v) { return a->first + popc32(a->values & ((1u << v) - 1)); }
static inline const uint64_t *als_where(const alsset_t *t, const als_t *a, int v) {
    return t->where + (size_t)als_slot(a, v) * (size_t)t->nw;
}
static inline const uint64_t *als_sees(const alsset_t *t, const als_t *a, int v) {
    return t->sees + (size_t)als_slot(a, v) * (size_t)t->nw;
}

/* the values of each ALS that a candidate outside could lose (sees[z] & pos[z] not empty) */
static const uint32_t *table_live(const alsset_t *t);

static uint32_t *als_live(const state_t *st, const alsset_t *t) {
    uint32_t *w = malloc(sizeof(uint32_t) * (size_t)(t->count + 1));
    if (!w) { PyErr_NoMemory(); return NULL; }
    const uint32_t *kept = table_live(t);
    if (kept) return memcpy(w, kept, sizeof(uint32_t) * (size_t)t->count);
    for (int i = 0; i < t->count; i++) {
        const als_t *a = &t->a[i];
        uint32_t vs = a->values, m = 0;
        while (vs) {
            int z = __builtin_ctz(vs);
            vs &= vs - 1;
            if (w_intersects(als_sees(t, a, z), st->pos[z].w, st->nw)) m |= 1u << z;
        }
        w[i] = m;
    }
    return w;
}

/* An ALS table: the ALSs of one state, enumerated once and read by every ALS search of that
 * state (the ``table`` option; the solving session keeps it per state version). It holds the
 * candidates it was built from: a search given the table of another state fails. */
typedef struct { int i, j, x; } rc_t;
typedef struct { rc_t *r; int count, cap; } rcvec;   /* cap < 0: a table's (not to free) */

typedef struct alstab {
    alsset_t t;
    int n;
    uint32_t cand[CS_MAXCELLS];
    uint32_t *live;           /* als_live of the state, made with the table */
    rcvec pairs;              /* the restricted commons of one common value and up to pairs_max */
    int pairs_max, has_pairs; /* cells (small_pairs), once a search asked for them */
} alstab_t;

static const uint32_t *table_live(const alsset_t *t) { return t->owner ? t->owner->live : NULL; }

static const char ALSTAB[] = "explainer.core._search.als_table";

static void alstab_free(PyObject *cap) {
    alstab_t *x = PyCapsule_GetPointer(cap, ALSTAB);
    if (!x) return;
    alsset_free(&x->t);
    free(x->live);
    free(x->pairs.r);
    free(x);
}

/* the state's ALS table (a capsule for the ``table`` option of the ALS searches) */
static PyObject *als_table(const state_t *st, const opts_t *opt) {
    (void)opt;
    alstab_t *x = calloc(1, sizeof *x);
    if (!x) return PyErr_NoMemory();
    if (als_enumerate(st, &x->t) < 0 || !(x->live = als_live(st, &x->t))) {
        alsset_free(&x->t);
        free(x);
        return NULL;
    }
    x->n = st->n;
    memcpy(x->cand, st->cand, sizeof(uint32_t) * (size_t)st->N);
    PyObject *cap = PyCapsule_New(x, ALSTAB, alstab_free);
    if (!cap) { alsset_free(&x->t); free(x->live); free(x); }
    return cap;
}

/* the ALSs of the state into t: a borrowed copy of the ``table`` option's (built for this very
 * state), else enumerated now; 0, or -1 with the error set (t freeable either way) */
static int als_load(const state_t *st, const opts_t *opt, alsset_t *t) {
    if (!opt->table || opt->table == Py_None) return als_enumerate(st, t);
    memset(t, 0, sizeof *t);
    alstab_t *x = PyCapsule_GetPointer(opt->table, ALSTAB);
    if (!x) return -1;
    if (x->n != st->n || memcmp(x->cand, st->cand, sizeof(uint32_t) * (size_t)st->N) != 0) {
        PyErr_SetString(PyExc_ValueError, "table: the ALS table of another state");
        return -1;
    }
    *t = x->t;
    t->borrowed = 1;
    t->owner = x;
    return 0;
}

/* ALS i of the set as (cells, values, wheres, sees), or NULL with the error set */
static PyObject *als_item(const alsset_t *t, int i) {
    const als_t *a = &t->a[i];
    int nw = t->nw, k = popc32(a->values);
    PyObject *wh = PyTuple_New(k), *se = PyTuple_New(k);
    PyObject *item = (wh && se) ? Py_BuildValue("(NkNN)", words_to_py(als_cells(t, a), nw), (unsigned long)a->values,
                                                wh, se)
                                : NULL;
    if (!item) { Py_XDECREF(wh); Py_XDECREF(se); return NULL; }
    for (int q = 0; q < k; q++) {
        PyObject *x = words_to_py(t->where + (size_t)(a->first + q) * (size_t)nw, nw);
        PyObject *y = words_to_py(t->sees + (size_t)(a->first + q) * (size_t)nw, nw);
        if (!x || !y) { Py_XDECREF(x); Py_XDECREF(y); Py_DECREF(item); return NULL; }
        PyTuple_SET_ITEM(wh, q, x);
        PyTuple_SET_ITEM(se, q, y);
    }
    return item;
}

/* every ALS, smallest first, as (cells, values, wheres, sees) */
static PyObject *als_sets(const state_t *st, const opts_t *opt) {
    alsset_t t;
    if (als_load(st, opt, &t) < 0) { alsset_free(&t); return NULL; }
    PyObject *out = PyList_New(t.count);
    for (int i = 0; out && i < t.count; i++) {
        PyObject *item = als_item(&t, i);
        if (!item) { Py_CLEAR(out); break; }
        PyList_SET_ITEM(out, i, item);
    }
    alsset_free(&t);
    return out;
}

/* the ALSs of als_sets at the indexes of the list ``which``, in its order */
static PyObject *als_some(const state_t *st, const opts_t *opt) {
    if (!PyList_Check(opt->which)) {
        PyErr_SetString(PyExc_TypeError, "which: a list of indexes into als_sets");
        return NULL;
    }
    alsset_t t;
    if (als_load(st, opt, &t) < 0) { alsset_free(&t); return NULL; }
    Py_ssize_t k = PyList_GET_SIZE(opt->which);
    PyObject *out = PyList_New(k);
    for (Py_ssize_t q = 0; out && q < k; q++) {
        long i = PyLong_AsLong(PyList_GET_ITEM(opt->which, q));
        if (i == -1 && PyErr_Occurred()) { Py_CLEAR(out); break; }
        if (i < 0 || i >= t.count) {
            PyErr_Format(PyExc_IndexError, "ALS index %ld out of range (%d sets)", i, t.count);
            Py_CLEAR(out);
            break;
        }
        PyObject *item = als_item(&t, (int)i);
        if (!item) { Py_CLEAR(out); break; }
        PyList_SET_ITEM(out, q, item);
    }
    alsset_free(&t);
    return out;
}

/* restricted commons: (i, j, x) for i < j (sets of at most max_size cells when max_size), cells
 * disjoint, every x of j seeing every x of i, enough common values (see search.als_pairs), in
 * the order of size_i + size_j, then (i, j, x); ``allow`` (or NULL): allow[size_i * 32 + size_j]
 * says whether a pair of those sizes is wanted. Each pair goes to ``visit``, which returns 1 to
 * stop there, -1 on error.
 *
 * The sets holding x in the same cells (a *group*) see the same x candidates outside: those of
 * the cells seeing all of them, S. Two sets have x as restricted common exactly when the x cells
 * of one lie in the other's S (the relation is symmetric, and S leaves out the group's own
 * cells), so only groups are joined: per value, each group's S is read cell by cell, and the
 * groups anchored there (at their first x cell) whose cells lie in S are its partners. Member
 * pairs of partner groups are then checked (disjoint, enough common values) and sorted into the
 * order above: the pairs with a restricted common are few, the pairs of sets many. */
typedef int (*pair_visit)(void *data, int i, int j, int x);

/* sort keys ascending (tmp: room for as many): least significant byte first, skipping the
 * bytes every key shares */
static void sort_keys(uint64_t *a, uint64_t *tmp, int n) {
    if (n < 2) return;
    if (n <= 32) {
        for (int i = 1; i < n; i++) {
            uint64_t k = a[i];
            int j = i;
            while (j > 0 && a[j - 1] > k) { a[j] = a[j - 1]; j--; }
            a[j] = k;
        }
        return;
    }
    uint64_t ors = 0, ands = ~(uint64_t)0;
    for (int i = 0; i < n; i++) { ors |= a[i]; ands &= a[i]; }
    uint64_t *src = a, *dst = tmp;
    for (int shift = 0; shift < 64; shift += 8) {
        if (!(((ors ^ ands) >> shift) & 0xff)) continue;
        int cnt[257] = {0};
        for (int i = 0; i < n; i++) cnt[((src[i] >> shift) & 0xff) + 1]++;
        for (int d = 0; d < 256; d++) cnt[d + 1] += cnt[d];
        for (int i = 0; i < n; i++) dst[cnt[(src[i] >> shift) & 0xff]++] = src[i];
        uint64_t *s2 = src; src = dst; dst = s2;
    }
    if (src != a) memcpy(a, src, sizeof(uint64_t) * (size_t)n);
}

static inline uint64_t mix64(uint64_t h) {
    h ^= h >> 33; h *= 0xff51afd7ed558ccdULL; h ^= h >> 33; h *= 0xc4ceb9fe1a85ec53ULL; h ^= h >> 33;
    return h;
}

static int als_join(const state_t *st, const alsset_t *t, int min_common, int max_size, const uint32_t *wanted,
                    const char *allow, pair_visit visit, void *data) {
    int nw = st->nw, N = st->N, count = t->count;
    if (max_size)
        while (count > 0 && t->a[count - 1].size > max_size) count--;
    if (count < 2) return 0;
    int r = -1, nfound = 0, cap = 0, hsize = 64;
    while (hsize < 2 * count) hsize *= 2;
    uint64_t *found = NULL;
    int *with = malloc(sizeof(int) * ((size_t)count + 1));       /* the sets holding x, ascending */
    int *gid = malloc(sizeof(int) * ((size_t)count + 1));        /* their groups */
    int *mem = malloc(sizeof(int) * ((size_t)count + 1));        /* the sets by group, ascending in each */
    int *gstart = malloc(sizeof(int) * ((size_t)count + 2));     /* group g: mem[gstart[g] .. gstart[g + 1]) */
    int *gfirst = malloc(sizeof(int) * ((size_t)count + 1));     /* a group's first set */
    int *ganchor = malloc(sizeof(int) * ((size_t)count + 1));
    int *boff = malloc(sizeof(int) * ((size_t)N + 2));           /* groups by anchor cell (CSR) */
    int *bgroup = malloc(sizeof(int) * ((size_t)count + 1));
    int *hash = malloc(sizeof(int) * (size_t)hsize);
    if (!with || !gid || !mem || !gstart || !gfirst || !ganchor || !boff || !bgroup || !hash) {
        PyErr_NoMemory();
        goto done;
    }
    for (int x = 0; x < st->n; x++) {
        int m = 0, ng = 0;
        for (int k = 0; k < count; k++)
            if (t->a[k].values >> x & 1 && (!wanted || wanted[k])) with[m++] = k;
        if (m < 2) continue;
        /* groups: the sets of the same x cells, numbered in order of first appearance */
        memset(hash, -1, sizeof(int) * (size_t)hsize);
        for (int q = 0; q < m; q++) {
            const uint64_t *w = als_where(t, &t->a[with[q]], x);
            uint64_t h = 0;
            for (int p = 0; p < nw; p++) h = mix64(h ^ w[p]);
            int slot = (int)(h & (uint64_t)(hsize - 1)), g;
            while ((g = hash[slot]) >= 0 &&
                   memcmp(als_where(t, &t->a[gfirst[g]], x), w, sizeof(uint64_t) * (size_t)nw) != 0)
                slot = (slot + 1) & (hsize - 1);
            if (g < 0) {
                g = hash[slot] = ng++;
                gfirst[g] = with[q];
                gstart[g + 1] = 0;
            }
            gid[q] = g;
            gstart[g + 1]++;
        }
        gstart[0] = 0;
        for (int g = 0; g < ng; g++) gstart[g + 1] += gstart[g];
        for (int q = 0; q < m; q++) mem[gstart[gid[q]]++] = with[q];   /* gstart[g] moves to g's end */
        for (int g = ng; g > 0; g--) gstart[g] = gstart[g - 1];
        gstart[0] = 0;
        memset(boff, 0, sizeof(int) * ((size_t)N + 2));
        for (int g = 0; g < ng; g++) {
            const uint64_t *w = als_where(t, &t->a[gfirst[g]], x);
            int c = 0;
            for (int q = 0; q < nw; q++)
                if (w[q]) { c = (q << 6) + __builtin_ctzll(w[q]); break; }
            ganchor[g] = c;
            boff[c + 1]++;
        }
        for (int c = 0; c < N; c++) boff[c + 1] += boff[c];
        for (int g = 0; g < ng; g++) bgroup[boff[ganchor[g]]++] = g;   /* boff[c] moves to c's end */
        for (int c = N; c > 0; c--) boff[c] = boff[c - 1];
        boff[0] = 0;
        for (int g = 0; g < ng; g++) {
            /* S: the x candidates seeing every x of the group (its first set's sees minus its
             * cells: the other cells of a set hold no x) */
            cellset s;
            const uint64_t *se = als_sees(t, &t->a[gfirst[g]], x);
            uint64_t any = 0;
            for (int q = 0; q < nw; q++) any |= s.w[q] = se[q] & st->pos[x].w[q];
            if (!any) continue;
            CS_FOREACH(c, &s, nw) {
                for (int b = boff[c]; b < boff[c + 1]; b++) {
                    int g2 = bgroup[b];
                    if (g2 <= g || !w_subset(als_where(t, &t->a[gfirst[g2]], x), s.w, nw)) continue;
                    for (int p1 = gstart[g]; p1 < gstart[g + 1]; p1++)
                        for (int p2 = gstart[g2]; p2 < gstart[g2 + 1]; p2++) {
                            int i = mem[p1], j = mem[p2];
                            if (i > j) { int tmp = i; i = j; j = tmp; }
                            const als_t *a = &t->a[i], *bb = &t->a[j];
                            if (allow && !allow[a->size * 32 + bb->size]) continue;
                            uint32_t common = a->values & bb->values;
                            if (wanted) {
                                common &= wanted[i] | 1u << x;
                                if (!(common & wanted[j] & ~(1u << x))) continue;
                            }
                            if (popc32(common) < min_common) continue;
                            if (w_intersects(als_cells(t, a), als_cells(t, bb), nw)) continue;
                            if (nfound == cap) {
                                uint64_t *f2 = grown(found, &cap, 256, 2 * sizeof *found);  /* room to sort */
                                if (!f2) goto done;
                                found = f2;
                            }
                            found[nfound++] = (((uint64_t)(a->size + bb->size) * (uint64_t)count + (uint64_t)i)
                                               * (uint64_t)count + (uint64_t)j) * 32 + (uint64_t)x;
                        }
                }
            }
        }
    }
    sort_keys(found, found + cap, nfound);
    r = 0;
    for (int q = 0; q < nfound && !r; q++) {
        uint64_t k = found[q] >> 5;
        r = visit(data, (int)(k / (uint64_t)count % (uint64_t)count), (int)(k % (uint64_t)count), (int)(found[q] & 31));
    }
done:
    free(with); free(gid); free(mem); free(gstart); free(gfirst); free(ganchor); free(boff); free(bgroup);
    free(hash); free(found);
    return r;
}

static int visit_pair(void *data, int i, int j, int x) { return list_add(data, Py_BuildValue("(iii)", i, j, x)); }

static int read_wanted(PyObject *wanted, int count, uint32_t **out) {
    *out = NULL;
    if (wanted == Py_None) return 0;
    if (!PyList_Check(wanted) || PyList_GET_SIZE(wanted) != count) {
        PyErr_SetString(PyExc_ValueError, "wanted: one value mask per ALS");
        return -1;
    }
    uint32_t *w = malloc(sizeof(uint32_t) * (size_t)(count + 1));
    if (!w) { PyErr_NoMemory(); return -1; }
    for (int i = 0; i < count; i++) {
        long x = PyLong_AsLong(PyList_GET_ITEM(wanted, i));
        if (x == -1 && PyErr_Occurred()) { free(w); return -1; }
        w[i] = (uint32_t)x;
    }
    *out = w;
    return 0;
}

/* the restricted commons (i, j, x) of als_join */
static PyObject *als_pairs(const state_t *st, const opts_t *opt) {
    alsset_t t;
    uint32_t *w = NULL;
    PyObject *out = NULL;
    if (als_load(st, opt, &t) >= 0 && read_wanted(opt->wanted, t.count, &w) >= 0) out = PyList_New(0);
    if (out && als_join(st, &t, opt->min_common, opt->max_size, w, NULL, visit_pair, out) < 0) Py_CLEAR(out);
    free(w);
    alsset_free(&t);
    return out;
}

typedef struct {
    const state_t *st;
    const alsset_t *t;
    PyObject *out;
    Py_ssize_t limit;
} xz_data;

static int visit_xz(void *data, int i, int j, int x) {
    xz_data *d = data;
    const alsset_t *t = d->t;
    int nw = d->st->nw;
    const als_t *a = &t->a[i], *b = &t->a[j];
    uint32_t zs = a->values & b->values & ~(1u << x);
    while (zs) {
        int z = __builtin_ctz(zs);
        zs &= zs - 1;
        cellset e;
        const uint64_t *sa = als_sees(t, a, z), *sb = als_sees(t, b, z);
        uint64_t any = 0;
        for (int q = 0; q < nw; q++) any |= e.w[q] = d->st->pos[z].w[q] & sa[q] & sb[q];
        if (!any) continue;
        if (list_add(d->out, Py_BuildValue("(iiiiNii)", i, j, x, z, cs_to_py(&e, nw), a->size, b->size)) < 0)
            return -1;
    }
    return d->limit && PyList_GET_SIZE(d->out) >= d->limit;
}

/* ALS-XZ eliminations (i, j, x, z, removed, size of i, size of j) in als.py's order */
static PyObject *als_xz(const state_t *st, const opts_t *opt) {
    const Py_ssize_t limit = opt->limit;
    const char *allowed = NULL;
    if (opt->allow != Py_None) {
        if (!PyBytes_Check(opt->allow) || PyBytes_GET_SIZE(opt->allow) != 32 * 32) {
            PyErr_SetString(PyExc_ValueError, "allow: None or 1024 bytes (sizes i * 32 + j)");
            return NULL;
        }
        allowed = PyBytes_AS_STRING(opt->allow);
    }
    alsset_t t;
    uint32_t *w = NULL;  /* the values some candidate outside could lose */
    PyObject *out = NULL;
    if (als_load(st, opt, &t) >= 0 && (w = als_live(st, &t))) out = PyList_New(0);
    xz_data d = {st, &t, out, limit};
    if (out && als_join(st, &t, 2, 0, w, allowed, visit_xz, &d) < 0) Py_CLEAR(out);
    if (out && limit && PyList_GET_SIZE(out) > limit && PyList_SetSlice(out, limit, PyList_GET_SIZE(out), NULL) < 0)
        Py_CLEAR(out);  /* the last pair's values past the limit */
    free(w);
    alsset_free(&t);
    return out;
}

/* ---- ALS XY wing and death blossom (techniques/alschains.py) -------------------------------- */

static int visit_collect(void *data, int i, int j, int x) {
    rcvec *v = data;
    if (v->count == v->cap) {
        rc_t *r = grown(v->r, &v->cap, 256, sizeof *r);
        if (!r) return -1;
        v->r = r;
    }
    v->r[v->count].i = i; v->r[v->count].j = j; v->r[v->count].x = x;
    v->count++;
    return 0;
}

/* the restricted commons of one common value or more between ALSs of at most max_size cells
 * (als_join's order) into *pairs: a table's (joined once for the XY wing and the chain of its
 * state, cap -1: not to free) when t reads one, else joined now */
static int small_pairs(const state_t *st, const alsset_t *t, int max_size, rcvec *pairs) {
    alstab_t *x = t->owner;
    if (!x) return als_join(st, t, 1, max_size, NULL, NULL, visit_collect, pairs);
    if (!x->has_pairs || x->pairs_max != max_size) {
        rcvec v = {NULL, 0, 0};
        if (als_join(st, t, 1, max_size, NULL, NULL, visit_collect, &v) < 0) { free(v.r); return -1; }
        free(x->pairs.r);
        x->pairs = v;
        x->pairs_max = max_size;
        x->has_pairs = 1;
    }
    *pairs = x->pairs;
    pairs->cap = -1;
    return 0;
}

/* the z candidates in s1 and s2 but ``exclude`` (a cell, or -1) into e: 1 if there are any */
static int elim_cells(const state_t *st, int z, const uint64_t *s1, const uint64_t *s2, int exclude, cellset *e) {
    uint64_t any = 0;
    for (int q = 0; q < st->nw; q++) e->w[q] = st->pos[z].w[q] & s1[q] & s2[q];
    if (exclude >= 0) cs_del(e, exclude);
    for (int q = 0; q < st->nw; q++) any |= e->w[q];
    return any != 0;
}

typedef struct { int o, x; uint32_t live; } partner_t;

/* ALS XY wings (a, b, c, x, y, z, removed) in alschains.py's order */
static PyObject *als_xy_events(const state_t *st, const opts_t *opt) {
    const Py_ssize_t limit = opt->limit;
    alsset_t t;
    rcvec pairs = {NULL, 0, 0};
    uint32_t *live = NULL;
    int *count = NULL, *start = NULL;
    partner_t *part = NULL;
    PyObject *out = NULL;
    if (als_load(st, opt, &t) < 0) goto done;
    if (small_pairs(st, &t, opt->max_size, &pairs) < 0) goto done;
    live = als_live(st, &t);
    count = calloc((size_t)t.count + 1, sizeof(int));
    start = calloc((size_t)t.count + 2, sizeof(int));
    part = malloc(sizeof(partner_t) * (size_t)(2 * pairs.count + 1));
    if (!live || !count || !start || !part) { PyErr_NoMemory(); goto done; }
    /* partners of each middle ALS, in the pairs' order */
    for (int q = 0; q < pairs.count; q++) {
        rc_t r = pairs.r[q];
        if (live[r.j] & ~(1u << r.x)) count[r.i]++;
        if (live[r.i] & ~(1u << r.x)) count[r.j]++;
    }
    for (int i = 0; i < t.count; i++) start[i + 1] = start[i] + count[i];
    memset(count, 0, sizeof(int) * (size_t)t.count);
    for (int q = 0; q < pairs.count; q++) {
        rc_t r = pairs.r[q];
        int ends[2][2] = {{r.i, r.j}, {r.j, r.i}};
        for (int e = 0; e < 2; e++) {
            int mid = ends[e][0], o = ends[e][1];
            uint32_t l = live[o] & ~(1u << r.x);
            if (!l) continue;
            partner_t *p = &part[start[mid] + count[mid]++];
            p->o = o; p->x = r.x; p->live = l;
        }
    }
    out = PyList_New(0);
    int nw = st->nw;
    for (int ic = 0; out && ic < t.count; ic++) {
        partner_t *pl = &part[start[ic]];
        int np = count[ic];
        for (int k = 0; out && k < np; k++) {
            const als_t *a = &t.a[pl[k].o];
            for (int k2 = k + 1; out && k2 < np; k2++) {
                int x = pl[k].x, y = pl[k2].x;
                uint32_t zs = pl[k].live & pl[k2].live & ~(1u << y | 1u << x);
                if (x == y || !zs) continue;
                const als_t *b = &t.a[pl[k2].o];
                if (w_intersects(als_cells(&t, a), als_cells(&t, b), nw)) continue;
                while (zs) {
                    int z = __builtin_ctz(zs);
                    zs &= zs - 1;
                    cellset e;
                    if (!elim_cells(st, z, als_sees(&t, a, z), als_sees(&t, b, z), -1, &e)) continue;
                    PyObject *ev = Py_BuildValue("(iiiiiiN)", pl[k].o, pl[k2].o, ic, x, y, z, cs_to_py(&e, nw));
                    if (add_event(&out, ev, limit)) goto done;
                }
            }
        }
    }
done:
    if (pairs.cap >= 0) free(pairs.r);
    free(live); free(count); free(start); free(part);
    alsset_free(&t);
    return out;
}

/* death blossoms (stem, (a, b, c), z, removed) in alschains.py's order */
static PyObject *blossom_events(const state_t *st, const opts_t *opt) {
    const Py_ssize_t limit = opt->limit;
    alsset_t t;
    uint32_t *live = NULL;
    int *lists[3] = {NULL, NULL, NULL};
    memset(&t, 0, sizeof t);
    PyObject *out = PyList_New(0);
    int N = st->N, nw = st->nw;
    int any_stem = 0;
    for (int c = 0; c < N; c++) any_stem |= popc32(st->cand[c]) == 3;
    if (!out || !any_stem) goto done;
    if (als_load(st, opt, &t) < 0 || !(live = als_live(st, &t))) { Py_CLEAR(out); goto done; }
    int small = 0;  /* petals: ALSs of at most max_size cells (the list is sorted by size) */
    while (small < t.count && t.a[small].size <= opt->max_size) small++;
    for (int k = 0; k < 3; k++) lists[k] = malloc(sizeof(int) * ((size_t)small + 1));
    if (!lists[0] || !lists[1] || !lists[2]) { PyErr_NoMemory(); Py_CLEAR(out); goto done; }
    for (int s = 0; out && s < N; s++) {
        uint32_t sm = st->cand[s];
        if (popc32(sm) != 3) continue;
        int vs[3], len[3] = {0, 0, 0};
        for (int k = 0, m = (int)sm; k < 3; k++) { vs[k] = __builtin_ctz((unsigned)m); m &= m - 1; }
        /* petals of value v: the ALSs whose v candidates (some of them outside-seen) all see the stem */
        uint32_t common = ~sm, u[3] = {0, 0, 0};
        for (int i = 0; i < small; i++) {
            const als_t *a = &t.a[i];
            for (int k = 0; k < 3; k++) {
                int v = vs[k];
                if (!(a->values >> v & 1)) continue;
                const uint64_t *se = als_sees(&t, a, v);
                if (!cs_has(&st->pos[v], s) || !((se[s >> 6] >> (s & 63)) & 1)) continue;
                lists[k][len[k]++] = i;
                u[k] |= live[i];
            }
        }
        if (!len[0] || !len[1] || !len[2]) continue;
        common &= u[0] & u[1] & u[2];
        while (common && out) {
            int z = __builtin_ctz(common);
            common &= common - 1;
            uint32_t zb = 1u << z;
            for (int p0 = 0; out && p0 < len[0]; p0++) {
                const als_t *a = &t.a[lists[0][p0]];
                if (!(live[lists[0][p0]] & zb)) continue;
                for (int p1 = 0; out && p1 < len[1]; p1++) {
                    const als_t *b = &t.a[lists[1][p1]];
                    if (!(live[lists[1][p1]] & zb) || w_intersects(als_cells(&t, a), als_cells(&t, b), nw)) continue;
                    cellset m2;
                    uint64_t any = 0;
                    const uint64_t *sa = als_sees(&t, a, z), *sb = als_sees(&t, b, z);
                    for (int q = 0; q < nw; q++) any |= m2.w[q] = st->pos[z].w[q] & sa[q] & sb[q];
                    if (!any) continue;
                    for (int p2 = 0; out && p2 < len[2]; p2++) {
                        const als_t *c = &t.a[lists[2][p2]];
                        if (!(live[lists[2][p2]] & zb) || w_intersects(als_cells(&t, c), als_cells(&t, a), nw) ||
                            w_intersects(als_cells(&t, c), als_cells(&t, b), nw))
                            continue;
                        cellset e;
                        if (!elim_cells(st, z, m2.w, als_sees(&t, c, z), s, &e)) continue;
                        PyObject *ev = Py_BuildValue("(i(iii)iN)", s, lists[0][p0], lists[1][p1], lists[2][p2], z,
                                                     cs_to_py(&e, nw));
                        if (add_event(&out, ev, limit)) goto done;
                    }
                }
            }
        }
    }
done:
    free(live); free(lists[0]); free(lists[1]); free(lists[2]);
    alsset_free(&t);
    return out;
}

/* ---- ALS chains (techniques/alschains.py) ------------------------------------------------- */

/* The restricted-common graph: an *arrival* (j, x) is "at ALS j, come by x", one per ALS and
 * linking value, numbered in the order the pairs give them; sets of arrivals are bit arrays of
 * aw words. See alschains.find_als_chain and search.als_chain_events for the search. */
typedef struct {
    int i, x, cells_at, sid;   /* an edge: to ALS i by x (cells of i in the ALS pool), arrival (i, x) */
} aedge_t;

typedef struct {
    const state_t *st;
    const alsset_t *t;
    int count, narr, aw;
    int *arr_of;               /* count * n: arrival of (ALS, value), or -1 */
    int *arr_als;              /* per arrival: its ALS */
    int *soff, *sadj;          /* same: CSR over arrivals */
    int *eoff;                 /* adj: CSR over ALSs (count + 1) */
    aedge_t *edges;
    int *first_seen;           /* ALSs in adj, in the order of first appearance; nin of them */
    int nin;
    uint64_t *every;           /* count * aw: the arrivals at each ALS */
    uint64_t *overlap;         /* count * aw: arrivals at ALSs sharing a cell with it */
    uint64_t *near;            /* levels * narr * aw */
    int levels;
    uint64_t **seen_by;        /* per value: N * aw (or NULL) */
} agraph_t;

static inline uint64_t *arow(uint64_t *base, int k, int aw) { return base + (size_t)k * (size_t)aw; }

static void agraph_free(agraph_t *g) {
    free(g->arr_of); free(g->arr_als); free(g->soff); free(g->sadj); free(g->eoff); free(g->edges);
    free(g->first_seen); free(g->every); free(g->overlap); free(g->near);
    if (g->seen_by) {
        for (int v = 0; v < g->st->n; v++) free(g->seen_by[v]);
        free(g->seen_by);
    }
}

static int agraph_build(const state_t *st, const alsset_t *t, const rcvec *pairs, int levels, agraph_t *g) {
    int n = st->n, N = st->N, nw = st->nw, count = t->count;
    memset(g, 0, sizeof *g);
    g->st = st; g->t = t; g->count = count; g->levels = levels;
    g->arr_of = malloc(sizeof(int) * ((size_t)count * (size_t)n + 1));
    g->arr_als = malloc(sizeof(int) * (2 * (size_t)pairs->count + 1));
    g->eoff = calloc((size_t)count + 2, sizeof(int));
    g->first_seen = malloc(sizeof(int) * ((size_t)count + 1));
    if (!g->arr_of || !g->arr_als || !g->eoff || !g->first_seen) { PyErr_NoMemory(); return -1; }
    for (size_t q = 0; q < (size_t)count * (size_t)n; q++) g->arr_of[q] = -1;
    int narr = 0, nin = 0;
    for (int q = 0; q < pairs->count; q++) {
        rc_t r = pairs->r[q];
        int ends[2] = {r.i, r.j};
        for (int e = 0; e < 2; e++) {
            int *a = &g->arr_of[ends[e] * n + r.x];
            if (*a < 0) { *a = narr; g->arr_als[narr++] = ends[e]; }
        }
        for (int e = 0; e < 2; e++) {
            if (g->eoff[ends[e] + 1] == 0) g->first_seen[nin++] = ends[e];
            g->eoff[ends[e] + 1]++;
        }
    }
    g->narr = narr; g->nin = nin;
    int aw = g->aw = (narr + 63) / 64 + 1;
    for (int i = 0; i < count; i++) g->eoff[i + 1] += g->eoff[i];
    g->edges = malloc(sizeof(aedge_t) * (2 * (size_t)pairs->count + 1));
    g->soff = calloc((size_t)narr + 2, sizeof(int));
    g->sadj = malloc(sizeof(int) * (2 * (size_t)pairs->count + 1));
    int *fill = malloc(sizeof(int) * ((size_t)count + (size_t)narr + 2));
    g->every = calloc((size_t)count * (size_t)aw + 1, sizeof(uint64_t));
    g->overlap = calloc((size_t)count * (size_t)aw + 1, sizeof(uint64_t));
    g->near = calloc((size_t)levels * (size_t)narr * (size_t)aw + 1, sizeof(uint64_t));
    g->seen_by = calloc((size_t)n, sizeof(uint64_t *));
    if (!g->edges || !g->soff || !g->sadj || !fill || !g->every || !g->overlap || !g->near || !g->seen_by) {
        free(fill);
        PyErr_NoMemory();
        return -1;
    }
    /* adj lists and same lists, in the pairs' order */
    for (int i = 0; i < count; i++) fill[i] = g->eoff[i];
    for (int q = 0; q < pairs->count; q++) {
        rc_t r = pairs->r[q];
        int si = g->arr_of[r.i * n + r.x], sj = g->arr_of[r.j * n + r.x];
        aedge_t *e = &g->edges[fill[r.i]++];
        e->i = r.j; e->x = r.x; e->cells_at = t->a[r.j].cells_at; e->sid = sj;
        e = &g->edges[fill[r.j]++];
        e->i = r.i; e->x = r.x; e->cells_at = t->a[r.i].cells_at; e->sid = si;
        g->soff[si + 1]++;
        g->soff[sj + 1]++;
    }
    for (int a = 0; a < narr; a++) g->soff[a + 1] += g->soff[a];
    for (int a = 0; a < narr; a++) fill[a] = g->soff[a];
    for (int q = 0; q < pairs->count; q++) {
        rc_t r = pairs->r[q];
        int si = g->arr_of[r.i * n + r.x], sj = g->arr_of[r.j * n + r.x];
        g->sadj[fill[si]++] = sj;
        g->sadj[fill[sj]++] = si;
    }
    for (int a = 0; a < narr; a++) ba_set(&(bitarr){arow(g->every, g->arr_als[a], aw), aw}, a);
    /* overlap: per cell the arrivals whose ALS holds it, then per ALS over its cells */
    uint64_t *cellarr = calloc((size_t)N * (size_t)aw + 1, sizeof(uint64_t));
    if (!cellarr) { free(fill); PyErr_NoMemory(); return -1; }
    for (int k = 0; k < nin; k++) {
        int j = g->first_seen[k];
        const uint64_t *cw = als_cells(t, &t->a[j]);
        for (int w = 0; w < nw; w++)
            for (uint64_t b = cw[w]; b; b &= b - 1) {
                uint64_t *row = arow(cellarr, (w << 6) + __builtin_ctzll(b), aw);
                const uint64_t *ev = arow(g->every, j, aw);
                for (int q = 0; q < aw; q++) row[q] |= ev[q];
            }
    }
    for (int k = 0; k < nin; k++) {
        int j = g->first_seen[k];
        const uint64_t *cw = als_cells(t, &t->a[j]);
        uint64_t *ov = arow(g->overlap, j, aw);
        for (int w = 0; w < nw; w++)
            for (uint64_t b = cw[w]; b; b &= b - 1) {
                const uint64_t *row = arow(cellarr, (w << 6) + __builtin_ctzll(b), aw);
                for (int q = 0; q < aw; q++) ov[q] |= row[q];
            }
    }
    free(cellarr);
    /* seen_by[z][cell]: the arrivals (m, x), x not z, at ALSs m whose every z the cell sees, a
     * candidate outside holding z. The arrival (m, z) itself is never an end for z: it is taken
     * out of the rows m's arrivals were just added to (an arrival belongs to one ALS: no other
     * ALS adds it). */
    for (int k = 0; k < nin; k++) {
        int i = g->first_seen[k];
        const als_t *a = &t->a[i];
        uint32_t vs = a->values;
        while (vs) {
            int z = __builtin_ctz(vs);
            vs &= vs - 1;
            const uint64_t *se = als_sees(t, a, z);
            cellset tz;
            uint64_t any = 0;
            for (int w = 0; w < nw; w++) any |= tz.w[w] = st->pos[z].w[w] & se[w];
            if (!any) continue;
            if (!g->seen_by[z]) {
                g->seen_by[z] = calloc((size_t)N * (size_t)aw + 1, sizeof(uint64_t));
                if (!g->seen_by[z]) { free(fill); PyErr_NoMemory(); return -1; }
            }
            const uint64_t *ev = arow(g->every, i, aw);
            int zs = g->arr_of[i * n + z];
            CS_FOREACH(c, &tz, nw) {
                uint64_t *row = arow(g->seen_by[z], c, aw);
                for (int q = 0; q < aw; q++) row[q] |= ev[q];
                if (zs >= 0) row[zs >> 6] &= ~((uint64_t)1 << (zs & 63));
            }
        }
    }
    /* walks: near[0][a] = {a}; near[r][(j, x)] = the arrivals r edges on, leaving j by y != x */
    for (int a = 0; a < narr; a++) ba_set(&(bitarr){arow(g->near, a, aw), aw}, a);
    uint64_t *parts = calloc((size_t)narr * (size_t)aw + 1, sizeof(uint64_t));
    if (!parts) { free(fill); PyErr_NoMemory(); return -1; }
    for (int r = 1; r < levels; r++) {
        uint64_t *prev = g->near + (size_t)(r - 1) * (size_t)narr * (size_t)aw;
        uint64_t *cur = g->near + (size_t)r * (size_t)narr * (size_t)aw;
        memset(parts, 0, sizeof(uint64_t) * (size_t)narr * (size_t)aw);
        for (int a = 0; a < narr; a++) {
            uint64_t *pa = arow(parts, a, aw);
            for (int q = g->soff[a]; q < g->soff[a + 1]; q++) {
                const uint64_t *pn = arow(prev, g->sadj[q], aw);
                for (int w = 0; w < aw; w++) pa[w] |= pn[w];
            }
        }
        for (int a = 0; a < narr; a++) {
            int j = g->arr_als[a];
            uint64_t *out = arow(cur, a, aw);
            for (int x = 0; x < n; x++) {
                int s2 = g->arr_of[j * n + x];
                if (s2 < 0 || s2 == a) continue;
                const uint64_t *ps = arow(parts, s2, aw);
                for (int w = 0; w < aw; w++) out[w] |= ps[w];
            }
        }
    }
    free(parts);
    free(fill);
    return 0;
}

static inline uint64_t *anear(const agraph_t *g, int r, int a) {
    return g->near + ((size_t)r * (size_t)g->narr + (size_t)a) * (size_t)g->aw;
}

static inline int w_any_and(const uint64_t *a, const uint64_t *b, int aw) {
    for (int w = 0; w < aw; w++) if (a[w] & b[w]) return 1;
    return 0;
}

/* ends(z, t): the arrivals (m, x), x not z, at ALSs m whose every z some cell of t sees */
static void aends(const agraph_t *g, int z, const cellset *tz, uint64_t *out) {
    int aw = g->aw;
    memset(out, 0, sizeof(uint64_t) * (size_t)aw);
    if (!g->seen_by[z]) return;
    CS_FOREACH(c, tz, g->st->nw) {
        const uint64_t *row = arow(g->seen_by[z], c, aw);
        for (int w = 0; w < aw; w++) out[w] |= row[w];
    }
}

typedef struct {
    int k, ks, d, xin;
    cellset used;
    int goal_at;   /* its goal: aw words at goal_at in the goal pool */
} aframe_t;

/* ALS chains (path, links, z, removed) in alschains.py's order */
static PyObject *als_chain_events(const state_t *st, const opts_t *opt) {
    const int n = st->n, max_chain = opt->max_chain;
    const Py_ssize_t limit = opt->limit;
    alsset_t t;
    rcvec pairs = {NULL, 0, 0};
    agraph_t g;
    memset(&g, 0, sizeof g);
    memset(&t, 0, sizeof t);
    PyObject *out = NULL, *done_set = NULL;
    uint64_t *anyw = NULL, *from_first = NULL, *later = NULL, *reached = NULL, *pool = NULL, *tmp = NULL;
    aframe_t *stack = NULL;
    int *fi = NULL, *fj = NULL, *fx = NULL, *fsid = NULL;
    cellset *fused = NULL;
    uint64_t *fgoal = NULL;
    int nfirst = 0;
    if (als_load(st, opt, &t) < 0) goto done;
    if (small_pairs(st, &t, opt->max_size, &pairs) < 0) goto done;
    int levels = max_chain - 1 > 1 ? max_chain - 1 : 2;
    if (agraph_build(st, &t, &pairs, levels, &g) < 0) goto done;
    out = PyList_New(0);
    done_set = PySet_New(NULL);
    if (!out || !done_set) goto fail;
    int aw = g.aw, narr = g.narr, nw = st->nw;
    anyw = calloc((size_t)narr * (size_t)aw + 1, sizeof(uint64_t));
    from_first = calloc((size_t)narr * (size_t)aw + 1, sizeof(uint64_t));
    later = calloc((size_t)t.count * (size_t)aw + 1, sizeof(uint64_t));
    reached = calloc((size_t)t.count * (size_t)aw + 1, sizeof(uint64_t));
    tmp = calloc((size_t)aw * 4 + 1, sizeof(uint64_t));
    if (!anyw || !from_first || !later || !reached || !tmp) { PyErr_NoMemory(); goto fail; }
    for (int a = 0; a < narr; a++)
        for (int r = 2; r < max_chain - 1; r++) {
            const uint64_t *nr = anear(&g, r, a);
            uint64_t *row = arow(anyw, a, aw);
            for (int w = 0; w < aw; w++) row[w] |= nr[w];
        }
    for (int a = 0; a < narr; a++) {
        uint64_t *row = arow(from_first, a, aw);
        for (int q = g.soff[a]; q < g.soff[a + 1]; q++) {
            const uint64_t *an = arow(anyw, g.sadj[q], aw);
            for (int w = 0; w < aw; w++) row[w] |= an[w];
        }
    }
    {   /* later[i]: arrivals at ALSs after i (in adj); reached[i]: what walks from i reach */
        uint64_t *acc = tmp;
        memset(acc, 0, sizeof(uint64_t) * (size_t)aw);
        for (int i = t.count - 1; i >= 0; i--) {
            if (g.eoff[i + 1] == g.eoff[i]) continue;
            memcpy(arow(later, i, aw), acc, sizeof(uint64_t) * (size_t)aw);
            const uint64_t *ev = arow(g.every, i, aw);
            for (int w = 0; w < aw; w++) acc[w] |= ev[w];
        }
        for (int a = 0; a < narr; a++) {
            uint64_t *row = arow(reached, g.arr_als[a], aw);
            const uint64_t *ff = arow(from_first, a, aw);
            for (int w = 0; w < aw; w++) row[w] |= ff[w];
        }
    }
    /* the first edges worth a search */
    int ecount = g.eoff[t.count];
    fi = malloc(sizeof(int) * ((size_t)ecount + 1));
    fj = malloc(sizeof(int) * ((size_t)ecount + 1));
    fx = malloc(sizeof(int) * ((size_t)ecount + 1));
    fsid = malloc(sizeof(int) * ((size_t)ecount + 1));
    fused = malloc(sizeof(cellset) * ((size_t)ecount + 1));
    fgoal = malloc(sizeof(uint64_t) * ((size_t)ecount + 1) * (size_t)aw);
    uint64_t *zl = malloc(sizeof(uint64_t) * ((size_t)n + 1) * (size_t)aw);  /* per value: its ends (kept) */
    uint64_t *bylink = malloc(sizeof(uint64_t) * ((size_t)n + 1) * (size_t)aw);
    if (!fi || !fj || !fx || !fsid || !fused || !fgoal || !zl || !bylink) {
        free(zl); free(bylink);
        PyErr_NoMemory();
        goto fail;
    }
    for (int i = 0; i < t.count; i++) {
        if (g.eoff[i + 1] == g.eoff[i]) continue;
        uint64_t *keep = tmp, *every = tmp + aw, *goal = tmp + 2 * aw;
        const uint64_t *lt = arow(later, i, aw), *ov = arow(g.overlap, i, aw), *re = arow(reached, i, aw);
        uint64_t kany = 0;
        for (int w = 0; w < aw; w++) kany |= keep[w] = lt[w] & ~ov[w] & re[w];
        if (!kany) continue;
        const als_t *a = &t.a[i];
        uint32_t zmask = 0, vs = a->values;
        memset(every, 0, sizeof(uint64_t) * (size_t)aw);
        while (vs) {
            int z = __builtin_ctz(vs);
            vs &= vs - 1;
            const uint64_t *se = als_sees(&t, a, z);
            cellset tz;
            uint64_t any = 0;
            for (int w = 0; w < nw; w++) any |= tz.w[w] = st->pos[z].w[w] & se[w];
            if (!any) continue;
            uint64_t *e = arow(zl, z, aw);
            aends(&g, z, &tz, e);
            uint64_t eany = 0;
            for (int w = 0; w < aw; w++) eany |= e[w] &= keep[w];
            if (!eany) continue;
            zmask |= 1u << z;
            for (int w = 0; w < aw; w++) every[w] |= e[w];
        }
        if (!zmask) continue;
        uint32_t linkdone = 0;
        for (int q = g.eoff[i]; q < g.eoff[i + 1]; q++) {
            const aedge_t *ed = &g.edges[q];
            int x1 = ed->x;
            uint64_t *gl = arow(bylink, x1, aw);
            if (!(linkdone >> x1 & 1)) {
                linkdone |= 1u << x1;
                if (zmask >> x1 & 1) {
                    memset(gl, 0, sizeof(uint64_t) * (size_t)aw);
                    for (uint32_t zz = zmask & ~(1u << x1); zz; zz &= zz - 1) {
                        const uint64_t *e = arow(zl, __builtin_ctz(zz), aw);
                        for (int w = 0; w < aw; w++) gl[w] |= e[w];
                    }
                } else {
                    memcpy(gl, every, sizeof(uint64_t) * (size_t)aw);
                }
            }
            if (!w_any_and(gl, arow(anyw, ed->sid, aw), aw)) continue;
            const uint64_t *ovj = arow(g.overlap, ed->i, aw);
            uint64_t gany = 0;
            for (int w = 0; w < aw; w++) gany |= goal[w] = gl[w] & ~ovj[w];
            if (!gany) continue;
            fi[nfirst] = i; fj[nfirst] = ed->i; fx[nfirst] = x1; fsid[nfirst] = ed->sid;
            const uint64_t *ci = als_cells(&t, a), *cj = t.cells + ed->cells_at;
            memset(&fused[nfirst], 0, sizeof(cellset));
            for (int w = 0; w < nw; w++) fused[nfirst].w[w] = ci[w] | cj[w];
            memcpy(arow(fgoal, nfirst, aw), goal, sizeof(uint64_t) * (size_t)aw);
            nfirst++;
        }
    }
    free(zl);
    free(bylink);
    if (!nfirst) goto finish;
    long budget = opt->max_nodes;
    int scap = 256, pcap = 256 * aw;
    stack = malloc(sizeof(aframe_t) * (size_t)scap);
    pool = malloc(sizeof(uint64_t) * (size_t)pcap);
    if (!stack || !pool) { PyErr_NoMemory(); goto fail; }
    int path[16], rcs[16];
    for (int edges = 3; edges < max_chain && edges < 15; edges++) {
        for (int f = 0; f < nfirst; f++) {
            if (!w_any_and(anear(&g, edges - 1, fsid[f]), arow(fgoal, f, aw), aw)) continue;
            int i = fi[f], x1 = fx[f];
            path[0] = i; rcs[0] = x1;
            int sp = 0, pp = 0;
            stack[0].k = fj[f]; stack[0].ks = fsid[f]; stack[0].d = 1; stack[0].xin = x1;
            stack[0].used = fused[f]; stack[0].goal_at = 0;
            memcpy(pool, arow(fgoal, f, aw), sizeof(uint64_t) * (size_t)aw);
            sp = 1; pp = aw;
            budget -= 1;
            while (sp) {
                aframe_t fr = stack[--sp];
                /* the frame's goal stays in the pool until the frames above it are gone */
                const uint64_t *goal = pool + fr.goal_at;
                int k = fr.k, d = fr.d, xin = fr.xin;
                path[d] = k;
                rcs[d - 1] = xin;
                int left = edges - d - 1;
                if (left) {
                    memcpy(tmp, goal, sizeof(uint64_t) * (size_t)aw);   /* the pool may move */
                    int base_pp = fr.goal_at;  /* pop the frame's goal: pushes reuse its room */
                    pp = base_pp;
                    for (int q = g.eoff[k]; q < g.eoff[k + 1]; q++) {
                        const aedge_t *ed = &g.edges[q];
                        if (ed->x == xin) continue;
                        const uint64_t *cm = t.cells + ed->cells_at;
                        if (w_intersects(cm, fr.used.w, nw)) continue;
                        const uint64_t *ovm = arow(g.overlap, ed->i, aw), *reach = anear(&g, left, ed->sid);
                        uint64_t *gnew = tmp + aw;
                        uint64_t hit = 0;
                        for (int w = 0; w < aw; w++) { gnew[w] = tmp[w] & ~ovm[w]; hit |= reach[w] & gnew[w]; }
                        if (!hit) continue;
                        if (sp == scap) {
                            aframe_t *s2 = realloc(stack, sizeof(aframe_t) * (size_t)(scap *= 2));
                            if (!s2) { PyErr_NoMemory(); goto fail; }
                            stack = s2;
                        }
                        if (pp + aw > pcap) {
                            uint64_t *p2 = realloc(pool, sizeof(uint64_t) * (size_t)(pcap *= 2));
                            if (!p2) { PyErr_NoMemory(); goto fail; }
                            pool = p2;
                        }
                        aframe_t *nf = &stack[sp++];
                        nf->k = ed->i; nf->ks = ed->sid; nf->d = d + 1; nf->xin = ed->x;
                        memset(&nf->used, 0, sizeof(cellset));
                        for (int w = 0; w < nw; w++) nf->used.w[w] = fr.used.w[w] | cm[w];
                        nf->goal_at = pp;
                        memcpy(pool + pp, gnew, sizeof(uint64_t) * (size_t)aw);
                        pp += aw;
                        budget -= 1;
                    }
                    if (budget < 0) goto finish;
                    continue;
                }
                /* the last edge: m is the other end */
                for (int q = g.eoff[k]; q < g.eoff[k + 1]; q++) {
                    const aedge_t *ed = &g.edges[q];
                    if (ed->x == xin) continue;
                    if (!((goal[ed->sid >> 6] >> (ed->sid & 63)) & 1)) continue;
                    const als_t *am = &t.a[ed->i], *ai = &t.a[i];
                    uint32_t vs = ai->values;
                    while (vs) {
                        int z = __builtin_ctz(vs);
                        vs &= vs - 1;
                        if (z == ed->x || z == x1 || !(am->values >> z & 1)) continue;
                        const uint64_t *sei = als_sees(&t, ai, z), *sem = als_sees(&t, am, z);
                        cellset e;
                        uint64_t any = 0, tany = 0;
                        for (int w = 0; w < nw; w++) {
                            uint64_t tz = st->pos[z].w[w] & sei[w];
                            tany |= tz;
                            any |= e.w[w] = tz & sem[w];
                        }
                        if (!tany || !any) continue;
                        PyObject *em = cs_to_py(&e, nw);
                        PyObject *key = em ? Py_BuildValue("(iO)", z, em) : NULL;
                        int seen = key ? PySet_Contains(done_set, key) : -1;
                        if (seen != 0) {
                            Py_XDECREF(key); Py_XDECREF(em);
                            if (seen < 0) goto fail;
                            continue;
                        }
                        if (PySet_Add(done_set, key) < 0) { Py_DECREF(key); Py_DECREF(em); goto fail; }
                        Py_DECREF(key);
                        path[edges] = ed->i;
                        rcs[edges - 1] = ed->x;
                        PyObject *pt = ints_to_py(path, edges + 1, 1), *rt = pt ? ints_to_py(rcs, edges, 1) : NULL;
                        if (add_event(&out, Py_BuildValue("(NNiN)", pt, rt, z, em), limit)) goto finish;
                    }
                }
            }
        }
    }
    goto finish;
fail:
    Py_CLEAR(out);
finish:
done:
    Py_XDECREF(done_set);
    free(anyw); free(from_first); free(later); free(reached); free(pool); free(tmp); free(stack);
    free(fi); free(fj); free(fx); free(fsid); free(fused); free(fgoal);
    agraph_free(&g);
    if (pairs.cap >= 0) free(pairs.r);
    alsset_free(&t);
    return out;
}

/* ---- module: one row a search ------------------------------------------------------------
 *
 * Every search is called as name(n, cand, pos, options...) and is run as name(state, options):
 * its row gives the PyArg format of its options and where each goes in opts_t (up to four), and
 * its docstring. The rows generate the entry points (py_name: the state read, the search run,
 * the state freed) and the method table. */
PyDoc_STRVAR(link_tables_doc,
"strong_pairs(n, cand, pos) -> list of (a, b); weak_table(n, cand, pos) -> dict\n\n"
"The link tables of techniques/links.py: see explainer.core.search.strong_pairs / weak_table.");

PyDoc_STRVAR(chain_events_doc,
"chain_events(n, cand, pos, max_length, one_digit, shortest) -> list\n\n"
"The chains, loops and empty rectangles of techniques/chains.py's search, as events\n"
"(length, start rank, kind, nodes, removed): see explainer.core.search.chain_events.");

PyDoc_STRVAR(grouped_events_doc,
"grouped_events(n, cand, pos, max_length, every) -> list of (length, start rank, nodes, removed)\n\n"
"The grouped chains of techniques/grouped.py's search: see explainer.core.search.grouped_events.");

PyDoc_STRVAR(als_sets_doc,
"als_sets(n, cand, pos) -> list of (cells, values, wheres, sees)\n\n"
"Every almost locked set, smallest first: see explainer.core.search.als_sets.");

PyDoc_STRVAR(als_table_doc,
"als_table(n, cand, pos) -> an ALS table\n\n"
"The state's ALSs, enumerated once: the last option (``table``) of the ALS searches of that same state.");

PyDoc_STRVAR(als_some_doc,
"als_some(n, cand, pos, which) -> list of (cells, values, wheres, sees)\n\n"
"The ALSs of als_sets at the indexes ``which``: see explainer.core.search.als_some.");

PyDoc_STRVAR(als_pairs_doc,
"als_pairs(n, cand, pos, min_common, max_size, wanted) -> list of (i, j, x)\n\n"
"Restricted commons between the ALSs of als_sets: see explainer.core.search.als_pairs.");

PyDoc_STRVAR(als_xz_doc,
"als_xz(n, cand, pos, allow, limit) -> list of (i, j, x, z, removed, size_i, size_j)\n\n"
"ALS-XZ eliminations in techniques/als.py's order: see explainer.core.search.als_xz.");

PyDoc_STRVAR(als_xy_doc,
"als_xy_events(n, cand, pos, max_size, limit) -> list of (a, b, c, x, y, z, removed)\n\n"
"ALS XY wings in techniques/alschains.py's order: see explainer.core.search.als_xy_events.");

PyDoc_STRVAR(blossom_doc,
"blossom_events(n, cand, pos, max_size, limit) -> list of (stem, (a, b, c), z, removed)\n\n"
"Death blossoms in techniques/alschains.py's order: see explainer.core.search.blossom_events.");

PyDoc_STRVAR(als_chain_doc,
"als_chain_events(n, cand, pos, max_size, max_chain, max_nodes, limit) -> list of (path, links, z, removed)\n\n"
"ALS chains in techniques/alschains.py's order: see explainer.core.search.als_chain_events.");

/* ---- single positions (techniques/singles.py) ---------------------------------------------- */

/* The smallest cover of techniques.singles.covering_houses for the single position of v at
 * ``target`` in house h: how many distinct cells its step highlights (the placed v of each
 * covering house and the placed cells of h the cover leaves out), or 0 when placed values cannot
 * explain it (the step then shows the candidates). Same houses as the Python search: the
 * candidate houses sorted by (cells covered descending, house), combinations of 1 to 6 in order,
 * a greedy cover (the first house covering most, in the order the houses were met) past 6. */
static int cover_size(const geo_t *g, const int *values, const int *holding, int h, int target, int v) {
    int n = g->n;
    int opt_house[2 * MAXN], opt_mask[2 * MAXN], k = 0;  /* masks over the cells of h, by index in h */
    int need = 0, filled = 0;
    for (int i = 0; i < n; i++) {
        int c = g->hcell[h][i];
        if (values[c]) { filled |= 1 << i; continue; }
        if (c == target) continue;
        need |= 1 << i;
        int found = 0, hs[3] = {g->row[c], n + g->col[c], 2 * n + g->box[c]};
        for (int j = 0; j < 3; j++) {
            int hh = hs[j];
            if (hh == h || holding[hh] < 0 || cs_has(&g->house[hh], target)) continue;
            int o = 0;
            while (o < k && opt_house[o] != hh) o++;
            if (o == k) { opt_house[k] = hh; opt_mask[k] = 0; k++; }
            opt_mask[o] |= 1 << i;
            found = 1;
        }
        if (!found) return 0;
    }
    (void)v;
    int chosen[2 * MAXN], nchosen = 0;
    if (need) {
        int order[2 * MAXN];
        for (int i = 0; i < k; i++) order[i] = i;
        for (int i = 1; i < k; i++) {  /* insertion sort by (-count, house) */
            int x = order[i], j = i;
            while (j > 0) {
                int y = order[j - 1];
                int cx = popc32((uint32_t)opt_mask[x]), cy = popc32((uint32_t)opt_mask[y]);
                if (cy > cx || (cy == cx && opt_house[y] < opt_house[x])) break;
                order[j] = y;
                j--;
            }
            order[j] = x;
        }
        int found = 0;
        for (int size = 1; size <= k && !found; size++) {
            int idx[2 * MAXN];
            for (int i = 0; i < size; i++) idx[i] = i;
            for (;;) {
                int got = 0;
                for (int i = 0; i < size; i++) got |= opt_mask[order[idx[i]]];
                if (got == need) {
                    for (int i = 0; i < size; i++) chosen[i] = order[idx[i]];
                    nchosen = size;
                    found = 1;
                    break;
                }
                int i = size - 1;  /* the next combination in lexicographic order */
                while (i >= 0 && idx[i] == k - size + i) i--;
                if (i < 0) break;
                idx[i]++;
                for (int j = i + 1; j < size; j++) idx[j] = idx[j - 1] + 1;
            }
            if (!found && size >= 6) {  /* greedy, as _greedy */
                int left = need;
                while (left) {
                    int best = 0, most = -1;
                    for (int o = 0; o < k; o++) {
                        int m = popc32((uint32_t)(opt_mask[o] & left));
                        if (m > most) { most = m; best = o; }
                    }
                    chosen[nchosen++] = best;
                    left &= ~opt_mask[best];
                }
                found = 1;
            }
        }
        if (!found) return 0;
    }
    cellset cells;
    cs_clear(&cells);
    int covered = 0;
    for (int i = 0; i < nchosen; i++) {
        int hh = opt_house[chosen[i]];
        cs_add(&cells, holding[hh]);
        for (int j = 0; j < n; j++)
            if (cs_has(&g->house[hh], g->hcell[h][j])) covered |= 1 << j;
    }
    for (int i = 0; i < n; i++)
        if (filled >> i & 1 && !(covered >> i & 1)) cs_add(&cells, g->hcell[h][i]);
    return cs_count(&cells, g->nw);
}

PyDoc_STRVAR(single_positions_doc,
"single_positions(n, values, pos) -> list of (house, cell, value, kind, size)\n\n"
"Every single position, boxes then rows then columns, values in order: see\n"
"explainer.core.search.single_positions.");

static PyObject *py_single_positions(PyObject *self, PyObject *args) {
    (void)self;
    int n;
    PyObject *values_py, *pos_py;
    if (!PyArg_ParseTuple(args, "iO!O!", &n, &PyList_Type, &values_py, &PyList_Type, &pos_py)) return NULL;
    const geo_t *g = geo_of(n);
    if (!g) return PyErr_Format(PyExc_ValueError, "unsupported grid size %d", n);
    if (PyList_GET_SIZE(values_py) != g->N || PyList_GET_SIZE(pos_py) != n) {
        PyErr_SetString(PyExc_ValueError, "values: a list of n*n values; pos: a list of n cell masks");
        return NULL;
    }
    int values[CS_MAXCELLS], empty[MAXHOUSES] = {0};
    cellset pos[MAXN];
    for (int c = 0; c < g->N; c++) {
        long x = PyLong_AsLong(PyList_GET_ITEM(values_py, c));
        if (x == -1 && PyErr_Occurred()) return NULL;
        if (x < 0 || x > n) return PyErr_Format(PyExc_ValueError, "value %ld out of range", x);
        values[c] = (int)x;
        if (!x) {
            empty[g->row[c]]++; empty[n + g->col[c]]++; empty[2 * n + g->box[c]]++;
        }
    }
    for (int v = 0; v < n; v++) {
        cs_clear(&pos[v]);
        if (words_from_py(PyList_GET_ITEM(pos_py, v), pos[v].w, g->nw) < 0) return NULL;
    }
    PyObject *out = PyList_New(0);
    int holding[MAXN + 1][MAXHOUSES], held[MAXN + 1] = {0};  /* house -> the cell holding v, filled on demand */
    for (int k = 0; out && k < 3 * n; k++) {
        int h = k < n ? 2 * n + k : k - n;  /* boxes, rows, columns */
        for (int v = 1; v <= n; v++) {
            int where = -1, count = 0;
            for (int i = 0; i < n && count < 2; i++)
                if (cs_has(&pos[v - 1], g->hcell[h][i])) { where = g->hcell[h][i]; count++; }
            if (count != 1) continue;
            if (!held[v]) {
                for (int x = 0; x < 3 * n; x++) holding[v][x] = -1;
                for (int c = 0; c < g->N; c++)
                    if (values[c] == v) {
                        holding[v][g->row[c]] = c; holding[v][n + g->col[c]] = c; holding[v][2 * n + g->box[c]] = c;
                    }
                held[v] = 1;
            }
            int kind = empty[h] == 1 ? 0 : (h >= 2 * n ? 1 : 2);
            int size = cover_size(g, values, holding[v], h, where, v);
            if (list_add(out, Py_BuildValue("(iiiii)", h, where, v, kind, size)) < 0) Py_CLEAR(out);
        }
    }
    return out;
}

#define OPT(field) offsetof(opts_t, field)
/* X(name, format of the options, where options 1 to 4 go, docstring) */
#define SEARCHES(X)                                                                                     \
    X(strong_pairs, "", 0, 0, 0, 0, 0, link_tables_doc)                                                 \
    X(weak_table, "", 0, 0, 0, 0, 0, link_tables_doc)                                                   \
    X(chain_events, "ipp", OPT(max_length), OPT(one_digit), OPT(shortest), 0, 0, chain_events_doc)      \
    X(grouped_events, "ip", OPT(max_length), OPT(every), 0, 0, 0, grouped_events_doc)                   \
    X(als_table, "", 0, 0, 0, 0, 0, als_table_doc)                                                      \
    X(als_sets, "|O", OPT(table), 0, 0, 0, 0, als_sets_doc)                                             \
    X(als_some, "O|O", OPT(which), OPT(table), 0, 0, 0, als_some_doc)                                   \
    X(als_pairs, "iiO|O", OPT(min_common), OPT(max_size), OPT(wanted), OPT(table), 0, als_pairs_doc)    \
    X(als_xz, "On|O", OPT(allow), OPT(limit), OPT(table), 0, 0, als_xz_doc)                             \
    X(als_xy_events, "in|O", OPT(max_size), OPT(limit), OPT(table), 0, 0, als_xy_doc)                   \
    X(blossom_events, "in|O", OPT(max_size), OPT(limit), OPT(table), 0, 0, blossom_doc)                 \
    X(als_chain_events, "iiin|O", OPT(max_size), OPT(max_chain), OPT(max_nodes), OPT(limit), OPT(table), \
      als_chain_doc)

typedef PyObject *(*search_fn)(const state_t *st, const opts_t *opt);

/* One call: the state (n, cand, pos) and the options read (``format`` names them all, the state's
 * first; options go to the offsets a to e of opts_t, the unused ones are not read), the search run. */
static PyObject *enter(PyObject *args, search_fn search, const char *format, size_t a, size_t b, size_t c,
                       size_t d, size_t e) {
    int n;
    PyObject *cand, *pos;
    opts_t opt;
    char *at = (char *)&opt;
    memset(&opt, 0, sizeof opt);
    if (!PyArg_ParseTuple(args, format, &n, &PyList_Type, &cand, &PyList_Type, &pos, (void *)(at + a),
                          (void *)(at + b), (void *)(at + c), (void *)(at + d), (void *)(at + e)))
        return NULL;
    state_t *st = new_state(n, cand, pos);
    if (!st) return NULL;
    PyObject *out = search(st, &opt);
    free(st);
    return out;
}

#define ENTRY(name, format, a, b, c, d, e, doc)                  \
    static PyObject *py_##name(PyObject *self, PyObject *args) { \
        (void)self;                                              \
        return enter(args, name, "iO!O!" format, a, b, c, d, e); \
    }
SEARCHES(ENTRY)

#define METHOD(name, format, a, b, c, d, e, doc) {#name, py_##name, METH_VARARGS, doc},
static PyMethodDef methods[] = {
    SEARCHES(METHOD){"single_positions", py_single_positions, METH_VARARGS, single_positions_doc},
    {NULL, NULL, 0, NULL}};

CORE_MODULE("_search", "Compiled search core (chains, ALSs).");

PyMODINIT_FUNC PyInit__search(void) { return PyModule_Create(&module); }
