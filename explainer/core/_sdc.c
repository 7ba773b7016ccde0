/* Sue de Coq's searches over one line-box intersection (explainer/core/sdc.py is the pure twin
 * and says what each returns, and in which order).
 *
 * A part's cells come in a local order (the intersection's, the line's others, the box's
 * others): at most 5 + 20 + 20 on a 25x25 grid, so a set of them is one uint64 and a cell's
 * candidates one uint32. Everything is listed in the pure path's order, so both return the
 * same list item for item.
 */
#include "glue.h"

#define MAXPART 64  /* cells of a part (45 on 25x25) */
#define MAXD 40     /* d = size - values outside F: at most a side's cells */
#define MAXCORE 16  /* cells of the intersection (5 on 25x25): its subsets are counted in a uint32 */

typedef struct {
    uint64_t m;  /* cells */
    uint32_t u;  /* their candidates */
    int k;       /* how many */
} set_t;

typedef struct {
    int nx;
    uint32_t x[MAXPART];             /* candidates by position */
    int core[MAXPART], ncore;        /* the intersection's empty cells */
    int line[MAXPART], nline;        /* the line's other empty cells */
    int box[MAXPART], nbox;          /* the box's other empty cells */
} part_t;

/* read the part: cand[cells[i]] for each position; 0, or -1 with the error set */
static int part_in(part_t *p, PyObject *cand, PyObject *cells, int mi, int ml) {
    if (!PyList_Check(cand) || !PyTuple_Check(cells)) {
        PyErr_SetString(PyExc_TypeError, "cand: a list of value masks; cells: a tuple of cells");
        return -1;
    }
    Py_ssize_t nx = PyTuple_GET_SIZE(cells), N = PyList_GET_SIZE(cand);
    if (nx > MAXPART || mi < 0 || mi > MAXCORE || ml < 0 || mi + ml > nx) {
        PyErr_SetString(PyExc_ValueError, "a part of at most 64 cells, mi <= 16 of them in the intersection, "
                                          "mi + ml in the line");
        return -1;
    }
    p->nx = (int)nx;
    p->ncore = p->nline = p->nbox = 0;
    for (int i = 0; i < p->nx; i++) {
        Py_ssize_t c = PyLong_AsSsize_t(PyTuple_GET_ITEM(cells, i));
        if (c == -1 && PyErr_Occurred()) return -1;
        if (c < 0 || c >= N) {
            PyErr_SetString(PyExc_IndexError, "a cell outside the grid");
            return -1;
        }
        unsigned long v = PyLong_AsUnsignedLong(PyList_GET_ITEM(cand, c));
        if (v == (unsigned long)-1 && PyErr_Occurred()) return -1;
        if (v >> 32) {
            PyErr_SetString(PyExc_OverflowError, "a value mask of more than 32 bits");
            return -1;
        }
        p->x[i] = (uint32_t)v;
        if (!v) continue;
        if (i < mi) p->core[p->ncore++] = i;
        else if (i < mi + ml) p->line[p->nline++] = i;
        else p->box[p->nbox++] = i;
    }
    return 0;
}

/* how many candidates leave: a from the line's cells, b from the box's, both from I's, outside ``used`` */
static int removed(const part_t *p, uint64_t used, uint32_t a, uint32_t b) {
    int k = 0;
    for (int j = 0; j < p->ncore; j++)
        if (!(used >> p->core[j] & 1)) k += popc32(p->x[p->core[j]] & (a | b));
    for (int j = 0; j < p->nline; j++)
        if (!(used >> p->line[j] & 1)) k += popc32(p->x[p->line[j]] & a);
    for (int j = 0; j < p->nbox; j++)
        if (!(used >> p->box[j] & 1)) k += popc32(p->x[p->box[j]] & b);
    return k;
}

/* how many subsets of at most ``most`` of k cells there are (the empty one included) */
static int listing_cap(int k, int most) {
    size_t cap = 0, binom = 1;  /* the sum of C(k, j), j <= most */
    for (int j = 0; j <= most && j <= k; j++) {
        cap += binom;
        binom = binom * (size_t)(k - j) / (size_t)(j + 1);
    }
    return (int)cap;
}

/* into s (room for listing_cap(k, most)): the subsets of at most ``most`` of the cells ``at`` (k
 * of them) holding at most ``extras`` values outside f, the empty one first, as a doubling (the
 * pure path's ``_pruned``: a set past ``extras`` is dropped with every set it would grow into);
 * how many */
static int listing(const part_t *p, const int *at, int k, int most, uint32_t f, int extras, set_t *s) {
    uint32_t nf = ~f;
    int n = 1;
    s[0].m = 0; s[0].u = 0; s[0].k = 0;
    for (int j = 0; j < k; j++) {
        uint32_t xi = p->x[at[j]];
        if (popc32(xi & nf) > extras) continue;
        uint64_t bit = (uint64_t)1 << at[j];
        int before = n;
        for (int t = 0; t < before; t++) {
            uint32_t u = s[t].u | xi;
            if (s[t].k < most && popc32(u & nf) <= extras) {
                s[n].m = s[t].m | bit; s[n].u = u; s[n].k = s[t].k + 1; n++;
            }
        }
    }
    return n;
}

/* One side's sets grouped by d (the pure path's ``sides_py``): ``rows`` the sets kept in their
 * order, bucketed by d (start[d], cnt[d]) into ``sorted``; ``ds``: the d in order of first
 * appearance (``nds`` of them). */
typedef struct {
    set_t *rows, *sorted;
    int nrows;
    int *d_of_row;
    int cnt[MAXD], start[MAXD], ds[MAXD], nds;
} sides_t;

/* room for ``cap`` rows: 0, or -1 (what was taken is freed by sides_free) */
static int sides_alloc(sides_t *sd, int cap) {
    sd->rows = malloc(sizeof *sd->rows * (size_t)cap);
    sd->sorted = malloc(sizeof *sd->sorted * (size_t)cap);
    sd->d_of_row = malloc(sizeof(int) * (size_t)cap);
    return sd->rows && sd->sorted && sd->d_of_row ? 0 : -1;
}

static void sides_free(sides_t *sd) { free(sd->rows); free(sd->sorted); free(sd->d_of_row); }

static inline void side_row(sides_t *sd, uint64_t m, uint32_t u, int k, uint32_t f, int most, int extras) {
    if (!(u & f)) return;
    int out = popc32(u & ~f), d = k - out;
    if (out > extras || d < 1 || d > most) return;
    if (!sd->cnt[d]++) sd->ds[sd->nds++] = d;
    sd->rows[sd->nrows].m = m; sd->rows[sd->nrows].u = u; sd->rows[sd->nrows].k = k;
    sd->d_of_row[sd->nrows++] = d;
}

static void sides(sides_t *sd, const part_t *p, const set_t *subs, int nsubs, const int *spare, int nspare,
                  uint32_t f, int most, int extras, int max_side) {
    sd->nrows = 0;
    sd->nds = 0;
    memset(sd->cnt, 0, sizeof sd->cnt);
    for (int t = 0; t < nsubs; t++) side_row(sd, subs[t].m, subs[t].u, subs[t].k, f, most, extras);
    for (int j = 0; j < nspare; j++) {
        uint64_t bit = (uint64_t)1 << spare[j];
        uint32_t xi = p->x[spare[j]];
        for (int t = 0; t < nsubs; t++)
            if (subs[t].k < max_side) side_row(sd, subs[t].m | bit, subs[t].u | xi, subs[t].k + 1, f, most, extras);
    }
    int at = 0;
    for (int d = 0; d < MAXD; d++) { sd->start[d] = at; at += sd->cnt[d]; }
    int fill[MAXD];
    memcpy(fill, sd->start, sizeof fill);
    for (int r = 0; r < sd->nrows; r++) sd->sorted[fill[sd->d_of_row[r]]++] = sd->rows[r];
}

/* append (rank, a, m1, m2, f, u1, u2, k) to out: 0, or -1 with the error set */
static int add_found(PyObject *out, int rank, uint64_t a, uint64_t m1, uint64_t m2, uint32_t f, uint32_t u1,
                     uint32_t u2, int k) {
    return list_add(out, Py_BuildValue("(iKKKIIIi)", rank, (unsigned long long)a, (unsigned long long)m1,
                                       (unsigned long long)m2, (unsigned int)f, (unsigned int)u1, (unsigned int)u2, k));
}

PyDoc_STRVAR(suedecoq_at_doc,
"suedecoq_at(cand, cells, mi, ml, extras, max_side) -> list of (rank, m12, m1, m2, f, u1, u2, removed)\n\n"
"The Sue de Coqs of one line-box intersection: see explainer.core.sdc.suedecoq_at.");

static PyObject *py_suedecoq_at(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *cand, *cells;
    int mi, ml, extras, max_side;
    if (!PyArg_ParseTuple(args, "OOiiii", &cand, &cells, &mi, &ml, &extras, &max_side)) return NULL;
    part_t p;
    if (part_in(&p, cand, cells, mi, ml) < 0) return NULL;
    if (max_side < 0 || max_side >= MAXD - 1) return PyErr_Format(PyExc_ValueError, "max_side %d", max_side);
    PyObject *out = PyList_New(0);
    if (!out || p.ncore < 2 || !p.nline || !p.nbox) return out;
    int cl = listing_cap(p.nline, max_side), cb = listing_cap(p.nbox, max_side), nls, nbs;
    set_t *ls = malloc(sizeof *ls * (size_t)cl), *bs = malloc(sizeof *bs * (size_t)cb);
    sides_t L, B;
    memset(&L, 0, sizeof L);
    memset(&B, 0, sizeof B);
    if (!ls || !bs || sides_alloc(&L, cl * (1 + p.ncore)) < 0 || sides_alloc(&B, cb * (1 + p.ncore)) < 0) {
        PyErr_NoMemory();
        Py_CLEAR(out);
    }
    int nc = p.ncore;
    for (uint32_t sel = 1; out && sel < (1u << nc); sel++) {
        uint64_t m12 = 0;
        uint32_t f = 0;
        int s12 = 0, spare[MAXPART], nspare = 0;
        for (int j = 0; j < nc; j++)
            if (sel >> j & 1) { m12 |= (uint64_t)1 << p.core[j]; f |= p.x[p.core[j]]; s12++; }
            else spare[nspare++] = p.core[j];
        int n_plus = popc32(f) - s12;
        if (s12 < 2 || n_plus < 2) continue;
        nls = listing(&p, p.line, p.nline, max_side, f, extras, ls);
        sides(&L, &p, ls, nls, spare, nspare, f, n_plus - 1, extras, max_side);
        if (!L.nrows) continue;
        nbs = listing(&p, p.box, p.nbox, max_side, f, extras, bs);
        sides(&B, &p, bs, nbs, spare, nspare, f, n_plus - 1, extras, max_side);
        for (int q = 0; out && q < L.nds; q++) {
            int d1 = L.ds[q], d2 = n_plus - d1;
            if (d2 < 1 || d2 >= MAXD || !B.cnt[d2]) continue;
            const set_t *left = L.sorted + L.start[d1], *right = B.sorted + B.start[d2];
            for (int t2 = 0; out && t2 < B.cnt[d2]; t2++) {
                uint64_t m2 = right[t2].m;
                uint32_t u2 = right[t2].u;
                for (int t1 = 0; t1 < L.cnt[d1]; t1++) {
                    uint64_t m1 = left[t1].m;
                    uint32_t u1 = left[t1].u;
                    if (u1 & u2 || m1 & m2) continue;
                    int k = removed(&p, m12 | m1 | m2, (f | u1) & ~u2, (f | u2) & ~u1);
                    if (!k) continue;
                    int rank = s12 + left[t1].k + right[t2].k + ((u1 | u2) & ~f ? 100 : 0);
                    if (add_found(out, rank, m12, m1, m2, f, u1, u2, k) < 0) { Py_CLEAR(out); break; }
                }
            }
        }
    }
    sides_free(&L); sides_free(&B);
    free(ls); free(bs);
    return out;
}

/* the ALSs of at most ``limit`` of the cells ``at`` (k of them), size by size in the order of
 * itertools.combinations: a new array (*count set; NULL and 0 when there is none), or NULL with
 * MemoryError (*count -1) */
static set_t *alss(const part_t *p, const int *at, int k, int limit, int *count) {
    int n = 0, cap = 0;
    set_t *s = NULL;
    int idx[MAXPART];
    for (int size = 1; size <= limit && size <= k; size++) {
        for (int j = 0; j < size; j++) idx[j] = j;
        for (;;) {
            uint64_t m = 0;
            uint32_t u = 0;
            for (int j = 0; j < size; j++) { m |= (uint64_t)1 << at[idx[j]]; u |= p->x[at[idx[j]]]; }
            if (popc32(u) == size + 1) {
                if (n == cap) {
                    set_t *g = grown(s, &cap, 64, sizeof *s);
                    if (!g) { free(s); *count = -1; return NULL; }
                    s = g;
                }
                s[n].m = m; s[n].u = u; s[n].k = size; n++;
            }
            int j = size - 1;
            while (j >= 0 && idx[j] == j + k - size) j--;
            if (j < 0) break;
            idx[j]++;
            for (int t = j + 1; t < size; t++) idx[t] = idx[t - 1] + 1;
        }
    }
    *count = n;
    return s;
}

PyDoc_STRVAR(bis_at_doc,
"bis_at(cand, cells, mi, ml, limit) -> list of (size, me, m1, m2, f, v1, v2, removed)\n\n"
"The Sue de Coq bis of one line-box intersection: see explainer.core.sdc.bis_at.");

static PyObject *py_bis_at(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *cand, *cells;
    int mi, ml, limit;
    if (!PyArg_ParseTuple(args, "OOiii", &cand, &cells, &mi, &ml, &limit)) return NULL;
    part_t p;
    if (part_in(&p, cand, cells, mi, ml) < 0) return NULL;
    PyObject *out = PyList_New(0);
    if (!out || !p.ncore) return out;
    int nc = p.ncore, any = 0;
    for (uint32_t sel = 1; sel < (1u << nc) && !any; sel++) {
        uint32_t f = 0;
        for (int j = 0; j < nc; j++) if (sel >> j & 1) f |= p.x[p.core[j]];
        any = popc32(f) == popc32(sel) + 2;
    }
    if (!any) return out;
    int nl = 0, nb = 0;
    set_t *ls = alss(&p, p.line, p.nline, limit, &nl);
    if (nl <= 0) {
        if (nl < 0) Py_CLEAR(out);
        return out;
    }
    set_t *bs = alss(&p, p.box, p.nbox, limit, &nb);
    if (nb <= 0) {
        free(ls);
        if (nb < 0) Py_CLEAR(out);
        return out;
    }
    for (uint32_t sel = 1; out && sel < (1u << nc); sel++) {
        uint64_t me = 0;
        uint32_t f = 0;
        int se = 0;
        for (int j = 0; j < nc; j++)
            if (sel >> j & 1) { me |= (uint64_t)1 << p.core[j]; f |= p.x[p.core[j]]; se++; }
        if (popc32(f) != se + 2) continue;
        for (int a = 0; out && a < nl; a++) {
            uint32_t v1 = ls[a].u;
            if (popc32(v1 & f) < 2) continue;
            for (int b = 0; b < nb; b++) {
                uint32_t v2 = bs[b].u;
                if (popc32(v2 & f) < 2 || v1 & v2) continue;
                int k = removed(&p, me | ls[a].m | bs[b].m, v1, v2);
                if (!k) continue;
                if (add_found(out, se + ls[a].k + bs[b].k, me, ls[a].m, bs[b].m, f, v1, v2, k) < 0) {
                    Py_CLEAR(out);
                    break;
                }
            }
        }
    }
    free(ls); free(bs);
    return out;
}

static PyMethodDef methods[] = {
    {"suedecoq_at", py_suedecoq_at, METH_VARARGS, suedecoq_at_doc},
    {"bis_at", py_bis_at, METH_VARARGS, bis_at_doc},
    {NULL, NULL, 0, NULL}};

CORE_MODULE("_sdc", "Compiled Sue de Coq searches (one line-box intersection a call).");

PyMODINIT_FUNC PyInit__sdc(void) { return PyModule_Create(&module); }
