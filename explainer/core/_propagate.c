/* Singles propagation, compiled: the twin of explainer/core/propagate.py.
 *
 * A row is one candidate state: ncells value masks (uint32, bit v-1 = value v),
 * a decided cell holding a single bit. ``fixpoints`` runs many rows to their
 * fixpoints in rounds that are exactly the Python twin's (numpy) rounds, so the
 * fixpoint, the contradiction flag AND the number of rounds agree bit for bit
 * (the forcing search orders its options by rounds). One round, from state c:
 *
 *   A  every fixed cell (a single; static: a true cell) removes its value from
 *      its peers; a value fixed twice in a house is a contradiction;
 *   B  hidden singles on the result: per house the values with exactly one place
 *      (static: only values with two places at most at the start); a value
 *      without a place, or a cell asked to hold two values, is a contradiction;
 *   C  (dynamic) locked candidates: pointing and claiming on the result;
 *   D  an emptied cell (static: one that had two candidates at most) is a
 *      contradiction; the row stops at a contradiction or when nothing changed.
 *
 * The twin computes every round over the whole grid; here a round only looks
 * at what can have changed (newly fixed cells, houses and intersections whose
 * cells changed since they were last read). The rest would repeat work already
 * applied, so the result is the same.
 *
 * ``contradicting`` answers, for assumptions on one row, whether each ends in a
 * contradiction at nesting level k: singles, and from level 1 on the removal of
 * every candidate whose own assumption contradicts at level k-1, to the fixpoint.
 * Removing a candidate only makes contradictions likelier (the verdict is
 * monotone), so the order of removals does not change the verdict: here each
 * removal is propagated at once, which shrinks the later tests.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cellset.h"

#define MAXN 25
#define MAXC 625
#define MAXH 75
#define MAXPEER 64 /* 24 + 24 + 16 on 25x25 */
#define MAXI 250   /* line-box intersections: 2 n m */
#define MAXLEVEL 8

typedef struct {
    int n, m, N, H, NI, npeer;
    uint32_t full;
    int16_t hcell[MAXH][MAXN];
    int16_t chouse[MAXC][3];
    int16_t peer[MAXC][MAXPEER];
    int16_t iline[MAXI], ibox[MAXI];
    int16_t icell[MAXI][5], ilrest[MAXI][MAXN], ibrest[MAXI][MAXN];
} geo_t;

static geo_t *geos[MAXN + 1];

static const geo_t *geo_of(int n) {
    int m = 0;
    while ((m + 1) * (m + 1) <= n) m++;
    if (n < 4 || n > MAXN || m * m != n) return NULL;
    if (geos[n]) return geos[n];
    geo_t *g = calloc(1, sizeof *g);
    if (!g) return NULL;
    g->n = n, g->m = m, g->N = n * n, g->H = 3 * n;
    g->full = (1u << n) - 1;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            g->hcell[i][j] = (int16_t)(i * n + j);                                      /* row i */
            g->hcell[n + i][j] = (int16_t)(j * n + i);                                  /* column i */
            g->hcell[2 * n + i][j] = (int16_t)((m * (i / m) + j / m) * n + m * (i % m) + j % m); /* box i */
        }
    for (int c = 0; c < g->N; c++) {
        int r = c / n, k = c % n, b = m * (r / m) + k / m;
        g->chouse[c][0] = (int16_t)r, g->chouse[c][1] = (int16_t)(n + k), g->chouse[c][2] = (int16_t)(2 * n + b);
    }
    /* peers: the cells sharing a house, each once */
    for (int c = 0; c < g->N; c++) {
        cellset s;
        cs_clear(&s);
        for (int k = 0; k < 3; k++)
            for (int j = 0; j < n; j++) cs_add(&s, g->hcell[g->chouse[c][k]][j]);
        cs_del(&s, c);
        int np = 0;
        CS_FOREACH(p, &s, CS_MAXWORDS) g->peer[c][np++] = (int16_t)p;
        g->npeer = np;
    }
    /* intersections, in explainer.grid's order (line, then box) */
    int ni = 0;
    for (int line = 0; line < 2 * n; line++)
        for (int box = 2 * n; box < 3 * n; box++) {
            cellset in_line, in_box;
            cs_clear(&in_line), cs_clear(&in_box);
            for (int j = 0; j < n; j++) cs_add(&in_line, g->hcell[line][j]), cs_add(&in_box, g->hcell[box][j]);
            int a = 0, lr = 0, br = 0;
            for (int j = 0; j < n; j++) {
                int x = g->hcell[line][j];
                if (cs_has(&in_box, x)) a++;
            }
            if (!a) continue;
            a = 0;
            for (int j = 0; j < n; j++) {
                int x = g->hcell[line][j];
                if (cs_has(&in_box, x)) g->icell[ni][a++] = (int16_t)x;
                else g->ilrest[ni][lr++] = (int16_t)x;
                int y = g->hcell[box][j];
                if (!cs_has(&in_line, y)) g->ibrest[ni][br++] = (int16_t)y;
            }
            g->iline[ni] = (int16_t)line, g->ibox[ni] = (int16_t)box;
            ni++;
        }
    g->NI = ni;
    geos[n] = g;
    return g;
}

/* Scratch of one row's run (reused from row to row). */
typedef struct {
    uint8_t fixed[MAXC];
    int chgmark[MAXC];
    int hdB[MAXH], hdC[MAXH];
    uint32_t fo[MAXH], hcacc[MAXC], eacc[MAXC];
    int16_t nf[MAXC], nfn[MAXC], chg[MAXC], hcl[MAXC], el[MAXC];
    uint32_t rows[MAXLEVEL + 1][MAXC]; /* closure: one working row per level */
} work_t;

/* static chains: the cells that may turn true (two candidates at most at the start)
 * and per house the values with two places at most there */
typedef struct {
    uint8_t two[MAXC];
    uint32_t hvok[MAXH];
} static_t;

static void static_masks(const geo_t *g, const uint32_t *start, static_t *st) {
    for (int x = 0; x < g->N; x++) st->two[x] = __builtin_popcount(start[x]) <= 2;
    for (int h = 0; h < g->H; h++) {
        uint32_t a1 = 0, a2 = 0, a3 = 0;
        for (int j = 0; j < g->n; j++) {
            uint32_t v = start[g->hcell[h][j]];
            a3 |= a2 & v, a2 |= a1 & v, a1 |= v;
        }
        st->hvok[h] = g->full & ~a3;
    }
}

/* Collect, for the cells ``xs`` (k of them), the bits of ``bits`` they hold into acc[x], listing each
 * cell once in ``list`` (of ``len`` entries so far); the new length. */
static inline int gather(const uint32_t *c, const int16_t *xs, int k, uint32_t bits, uint32_t *acc, int16_t *list,
                         int len) {
    for (int j = 0; j < k; j++) {
        int x = xs[j];
        uint32_t b = c[x] & bits;
        if (b) {
            if (!acc[x]) list[len++] = (int16_t)x;
            acc[x] |= b;
        }
    }
    return len;
}

/* One row to its fixpoint (in place): 1 if it ends in a contradiction. */
static int run_row(const geo_t *g, work_t *w, uint32_t *c, int dynamic, const static_t *st, int *rounds) {
    const int N = g->N, H = g->H, n = g->n, np = g->npeer;
    const uint32_t full = g->full;
    uint8_t *fixed = w->fixed;
    int16_t *nf = w->nf, *nfn = w->nfn, *chg = w->chg;
    int *cm = w->chgmark, *hdB = w->hdB, *hdC = w->hdC;
    uint32_t *fo = w->fo;
    int nnf = 0, r = 0, bad = 0;

    memset(fixed, 0, (size_t)N);
    memset(fo, 0, sizeof(uint32_t) * (size_t)H);
    for (int x = 0; x < N; x++) {
        uint32_t v = c[x];
        cm[x] = 0;
        if (v & (v - 1)) continue;
        if (v) fixed[x] = 1, nf[nnf++] = (int16_t)x; /* decided (static: true) */
        else if (!st) fixed[x] = 1;                  /* an empty cell counts as decided (of no value) */
    }
    for (int h = 0; h < H; h++) hdB[h] = hdC[h] = 1;

#define CHANGED(x, nextB, nextC)                                                 \
    do {                                                                         \
        if (cm[x] != r) cm[x] = r, chg[nch++] = (int16_t)(x);                    \
        any = 1;                                                                 \
        for (int k_ = 0; k_ < 3; k_++) {                                         \
            int h_ = g->chouse[x][k_];                                           \
            if (hdB[h_] < r + (nextB)) hdB[h_] = r + (nextB);                    \
            if (hdC[h_] < r + (nextC)) hdC[h_] = r + (nextC);                    \
        }                                                                        \
    } while (0)

    for (;;) {
        r++;
        int any = 0, nch = 0, nnfn = 0;
        /* round start: the newly fixed cells (static: a cell turning true is a change) */
        for (int i = 0; i < nnf; i++) {
            int x = nf[i];
            if (!fixed[x]) {
                fixed[x] = 1;
                if (st) any = 1;
            }
        }
        /* A: a value fixed twice in a house; naked singles clear their peers */
        for (int i = 0; i < nnf; i++) {
            int x = nf[i];
            uint32_t v = c[x];
            for (int k = 0; k < 3; k++) {
                int h = g->chouse[x][k];
                if (fo[h] & v) bad = 1;
                fo[h] |= v;
            }
        }
        if (nnf * np > 4 * N) {
            /* many new ones (the first round): one sweep, each cell loses its houses' fixed values
             * (those of cells fixed before are gone already) */
            for (int x = 0; x < N; x++) {
                if (fixed[x]) continue;
                uint32_t e = c[x] & (fo[g->chouse[x][0]] | fo[g->chouse[x][1]] | fo[g->chouse[x][2]]);
                if (e) {
                    c[x] &= ~e;
                    CHANGED(x, 0, 0);
                }
            }
        } else {
            for (int i = 0; i < nnf; i++) {
                int x = nf[i];
                uint32_t v = c[x];
                const int16_t *pp = g->peer[x];
                for (int j = 0; j < np; j++) {
                    int p = pp[j];
                    if (!fixed[p] && (c[p] & v)) {
                        c[p] &= ~v;
                        CHANGED(p, 0, 0);
                    }
                }
            }
        }
        /* B: hidden singles in the houses that changed since they were last read */
        int nhc = 0;
        for (int h = 0; h < H; h++) {
            if (hdB[h] != r) continue;
            uint32_t once = 0, twice = 0;
            const int16_t *hc = g->hcell[h];
            for (int j = 0; j < n; j++) {
                uint32_t v = c[hc[j]];
                twice |= once & v, once |= v;
            }
            if (st) {
                once &= st->hvok[h];
                if (st->hvok[h] & ~once) bad = 1;
            } else if (once != full) {
                bad = 1;
            }
            uint32_t hid = once & ~twice;
            if (!hid) continue;
            nhc = gather(c, hc, n, hid, w->hcacc, w->hcl, nhc);
        }
        for (int i = 0; i < nhc; i++) {
            int x = w->hcl[i];
            uint32_t b = w->hcacc[x];
            w->hcacc[x] = 0;
            if (st && fixed[x]) continue; /* a true cell is not a hidden single again */
            if (b & (b - 1)) bad = 1;
            if (b != c[x]) {
                c[x] = b;
                CHANGED(x, 1, 0);
            }
            if (st) {
                fixed[x] = 1, any = 1;
                nfn[nnfn++] = (int16_t)x;
            }
        }
        /* C: locked candidates in the intersections whose line or box changed */
        if (dynamic) {
            int ne = 0;
            for (int k = 0; k < g->NI; k++) {
                if (hdC[g->iline[k]] != r && hdC[g->ibox[k]] != r) continue;
                uint32_t inside = 0, lr = 0, br = 0;
                for (int j = 0; j < g->m; j++) inside |= c[g->icell[k][j]];
                for (int j = 0; j < n - g->m; j++) lr |= c[g->ilrest[k][j]], br |= c[g->ibrest[k][j]];
                uint32_t point = inside & ~br, claim = inside & ~lr;
                if (point) ne = gather(c, g->ilrest[k], n - g->m, point, w->eacc, w->el, ne);
                if (claim) ne = gather(c, g->ibrest[k], n - g->m, claim, w->eacc, w->el, ne);
            }
            for (int i = 0; i < ne; i++) {
                int x = w->el[i];
                c[x] &= ~w->eacc[x];
                w->eacc[x] = 0;
                CHANGED(x, 1, 1);
            }
        }
        /* D: emptied cells; the cells fixed next round */
        if (r == 1) {
            for (int x = 0; x < N; x++)
                if (!c[x] && (!st || st->two[x])) bad = 1;
        }
        for (int i = 0; i < nch; i++) {
            int x = chg[i];
            uint32_t v = c[x];
            if (!v) {
                if (!st || st->two[x]) bad = 1;
            } else if (!(v & (v - 1)) && !fixed[x] && (!st || st->two[x])) {
                nfn[nnfn++] = (int16_t)x;
            }
        }
        *rounds = r;
        if (bad) return 1;
        if (!any) return 0;
        int16_t *t = nf;
        nf = nfn, nfn = t, nnf = nnfn;
    }
#undef CHANGED
}

/* The level-k verdict of a row (in place; the row ends at its singles fixpoint). */
static int closure(const geo_t *g, work_t *w, uint32_t *row, int level) {
    int rounds;
    if (run_row(g, w, row, 0, NULL, &rounds)) return 1;
    if (level <= 0) return 0;
    uint32_t *sub = w->rows[level - 1];
    const int N = g->N;
    for (;;) {
        int found = 0;
        for (int x = 0; x < N; x++) {
            uint32_t m = row[x];
            if (!(m & (m - 1))) continue;
            while (m) {
                uint32_t b = m & -m;
                m ^= b;
                if (!(row[x] & b)) continue;
                memcpy(sub, row, sizeof(uint32_t) * (size_t)N);
                sub[x] = b;
                if (closure(g, w, sub, level - 1)) {
                    row[x] &= ~b;
                    found = 1;
                    if (run_row(g, w, row, 0, NULL, &rounds)) return 1;
                    if (!(row[x] & (row[x] - 1))) break; /* the cell is decided now */
                }
            }
        }
        if (!found) return 0;
    }
}

/* ---- Python interface -------------------------------------------------------------------- */

static int get_buf(PyObject *o, Py_buffer *b, Py_ssize_t itemsize, Py_ssize_t items, int writable, const char *what) {
    if (PyObject_GetBuffer(o, b, PyBUF_C_CONTIGUOUS | (writable ? PyBUF_WRITABLE : 0)) < 0) return -1;
    if (b->len != itemsize * items) {
        PyErr_Format(PyExc_ValueError, "%s: %zd bytes, expected %zd", what, b->len, itemsize * items);
        PyBuffer_Release(b);
        return -1;
    }
    return 0;
}

static PyObject *py_fixpoints(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *rows_o, *start_o, *contra_o, *rounds_o;
    int n, dynamic;
    Py_ssize_t B;
    if (!PyArg_ParseTuple(args, "OnipOOO", &rows_o, &B, &n, &dynamic, &start_o, &contra_o, &rounds_o)) return NULL;
    const geo_t *g = geo_of(n);
    if (!g) return PyErr_Format(PyExc_ValueError, "unsupported size %d", n);
    if (dynamic && start_o != Py_None) return PyErr_Format(PyExc_ValueError, "static chains are not dynamic");
    Py_buffer rb, sb = {0}, cb, ob;
    if (get_buf(rows_o, &rb, 4, B * g->N, 1, "rows") < 0) return NULL;
    if (get_buf(contra_o, &cb, 1, B, 1, "contra") < 0) goto fail_r;
    if (get_buf(rounds_o, &ob, 4, B, 1, "rounds") < 0) goto fail_c;
    if (start_o != Py_None && get_buf(start_o, &sb, 4, g->N, 0, "start") < 0) goto fail_o;
    work_t *w = malloc(sizeof *w);
    static_t *st = NULL;
    if (!w) {
        PyErr_NoMemory();
        goto fail_s;
    }
    memset(w->hcacc, 0, sizeof w->hcacc), memset(w->eacc, 0, sizeof w->eacc);
    if (start_o != Py_None) {
        st = malloc(sizeof *st);
        if (!st) {
            free(w);
            PyErr_NoMemory();
            goto fail_s;
        }
        static_masks(g, (const uint32_t *)sb.buf, st);
    }
    uint32_t *rows = rb.buf;
    uint8_t *contra = cb.buf;
    int32_t *rounds = ob.buf;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < B; i++) {
        int rd = 0;
        contra[i] = (uint8_t)run_row(g, w, rows + i * g->N, dynamic, st, &rd);
        rounds[i] = rd;
    }
    Py_END_ALLOW_THREADS
    free(st);
    free(w);
    if (start_o != Py_None) PyBuffer_Release(&sb);
    PyBuffer_Release(&ob), PyBuffer_Release(&cb), PyBuffer_Release(&rb);
    Py_RETURN_NONE;
fail_s:
    if (start_o != Py_None) PyBuffer_Release(&sb);
fail_o:
    PyBuffer_Release(&ob);
fail_c:
    PyBuffer_Release(&cb);
fail_r:
    PyBuffer_Release(&rb);
    return NULL;
}

static PyObject *py_contradicting(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *base_o, *cells_o, *bits_o, *out_o;
    int n, level;
    Py_ssize_t K;
    if (!PyArg_ParseTuple(args, "OinOOOi", &base_o, &n, &K, &cells_o, &bits_o, &out_o, &level)) return NULL;
    const geo_t *g = geo_of(n);
    if (!g) return PyErr_Format(PyExc_ValueError, "unsupported size %d", n);
    if (level < 0 || level > MAXLEVEL) return PyErr_Format(PyExc_ValueError, "level %d out of range", level);
    Py_buffer bb, cb, vb, ob;
    if (get_buf(base_o, &bb, 4, g->N, 0, "base") < 0) return NULL;
    if (get_buf(cells_o, &cb, 4, K, 0, "cells") < 0) goto fail_b;
    if (get_buf(bits_o, &vb, 4, K, 0, "bits") < 0) goto fail_c;
    if (get_buf(out_o, &ob, 1, K, 1, "out") < 0) goto fail_v;
    work_t *w = malloc(sizeof *w);
    if (!w) {
        PyErr_NoMemory();
        goto fail_o;
    }
    memset(w->hcacc, 0, sizeof w->hcacc), memset(w->eacc, 0, sizeof w->eacc);
    const uint32_t *base = bb.buf, *bits = vb.buf;
    const int32_t *cells = cb.buf;
    uint8_t *out = ob.buf;
    int ok = 1;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < K; i++) {
        if (cells[i] < 0 || cells[i] >= g->N) {
            ok = 0;
            break;
        }
        uint32_t *row = w->rows[level];
        memcpy(row, base, sizeof(uint32_t) * (size_t)g->N);
        row[cells[i]] = bits[i];
        out[i] = (uint8_t)closure(g, w, row, level);
    }
    Py_END_ALLOW_THREADS
    free(w);
    PyBuffer_Release(&ob), PyBuffer_Release(&vb), PyBuffer_Release(&cb), PyBuffer_Release(&bb);
    if (!ok) return PyErr_Format(PyExc_ValueError, "cell out of range");
    Py_RETURN_NONE;
fail_o:
    PyBuffer_Release(&ob);
fail_v:
    PyBuffer_Release(&vb);
fail_c:
    PyBuffer_Release(&cb);
fail_b:
    PyBuffer_Release(&bb);
    return NULL;
}

static PyMethodDef methods[] = {
    {"fixpoints", py_fixpoints, METH_VARARGS,
     "fixpoints(rows, B, n, dynamic, start, contra, rounds): B rows (uint32) to their fixpoints in place."},
    {"contradicting", py_contradicting, METH_VARARGS,
     "contradicting(base, n, K, cells, bits, out, level): the level-k verdict of K assumptions on base."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_propagate", "Singles propagation (compiled).", -1,
                                    methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__propagate(void) { return PyModule_Create(&module); }
