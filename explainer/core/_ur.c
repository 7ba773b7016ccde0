/* The compiled unique rectangle search (techniques/uniqueness.py's types 1-6 and hidden).
 *
 * explainer/core/ur.py is the pure twin and says what ``rectangles`` returns, and in which
 * order; tests/core/test_ur.py checks both return the same list on real and random states of
 * every size. The search reads the candidate masks only and returns compact leads; the step
 * (texts, roles, proof) is built in Python for the lead the engine takes.
 *
 * Cells are read by row and column (a rectangle's corners) and houses by their cell lists: a
 * cell's candidates fit one uint32 (n <= 25), and nothing here needs a cell set.
 */
#include "glue.h"

#define MAXN 25

typedef struct {
    int n, m, N;
    const uint32_t *cand;
    int house[3 * MAXN][MAXN];  /* rows, columns, boxes, each in cell order (explainer.model.grid's) */
    PyObject *out;
} ur_t;

static inline int popc(uint32_t x) { return popc32(x); }
static inline int box_of(const ur_t *u, int c) { return u->m * (c / u->n / u->m) + c % u->n / u->m; }

static inline int sees(const ur_t *u, int x, int y) {
    int n = u->n;
    return x != y && (x / n == y / n || x % n == y % n || box_of(u, x) == box_of(u, y));
}

/* value bit v lives in house h, and only on the cells of ``on`` (k of them) */
static int only_on(const ur_t *u, int h, uint32_t v, const int *on, int k) {
    int any = 0;
    for (int i = 0; i < u->n; i++) {
        int c = u->house[h][i];
        if (!(u->cand[c] & v)) continue;
        any = 1;
        int in = 0;
        for (int j = 0; j < k; j++) in |= on[j] == c;
        if (!in) return 0;
    }
    return any;
}

/* some cell holding value bit v sees each of the k cells */
static int seen_by_all(const ur_t *u, uint32_t v, const int *cells, int k) {
    for (int x = 0; x < u->N; x++) {
        if (!(u->cand[x] & v)) continue;
        int all = 1;
        for (int j = 0; j < k && all; j++) all = sees(u, x, cells[j]);
        if (all) return 1;
    }
    return 0;
}

static int emit(ur_t *u, int kind, int size, int j, const int *rect, uint32_t ab) {
    PyObject *t = Py_BuildValue("(iiiiiiik)", kind, size, j, rect[0], rect[1], rect[2], rect[3], (unsigned long)ab);
    if (!t) return -1;
    return list_add(u->out, t);
}

/* ---- type 3: the roof's extras as one virtual cell completing a naked set in house h ------- */

typedef struct {
    ur_t *u;
    int h;
    const int *houses;
    int nh;
    const int *others;
    int no;
    int pool[MAXN], np;
    int group[MAXN];
    const int *rect;
    uint32_t ab;
    int *j;
} sets_t;

static int in_house(const ur_t *u, int h, int c) {
    int n = u->n;
    if (h < n) return c / n == h;
    if (h < 2 * n) return c % n == h - n;
    return box_of(u, c) == h - 2 * n;
}

/* the k-cell groups of pool[start:] whose candidates with v number exactly ``limit``, in the
 * order of itertools.combinations; a partial group past ``limit`` values dropped: -1 on error */
static int sets_of(sets_t *s, uint32_t v, int k, int depth, int limit, int start) {
    ur_t *u = s->u;
    if (k == 0) {
        if (popc(v) != limit) return 0;
        int removes = 0;
        for (int i = 0; i < s->no && !removes; i++) {
            int c = s->others[i], in = 0;
            for (int g = 0; g < depth; g++) in |= s->group[g] == c;
            removes = !in && (u->cand[c] & v);
        }
        if (!removes) return 0;
        for (int x = 0; x < s->nh; x++) {
            int hx = s->houses[x];
            if (hx == s->h || hx >= s->h) continue;
            int all = 1;
            for (int g = 0; g < depth && all; g++) all = in_house(u, hx, s->group[g]);
            if (all) return 0;  /* found from the earlier house */
        }
        return emit(u, 3, depth + 1, (*s->j)++, s->rect, s->ab);
    }
    for (int i = start; i <= s->np - k; i++) {
        int c = s->pool[i];
        uint32_t w = v | u->cand[c];
        if (popc(w) <= limit) {
            s->group[depth] = c;
            if (sets_of(s, w, k - 1, depth + 1, limit, i + 1) < 0) return -1;
        }
    }
    return 0;
}

static int type_3(ur_t *u, const int *rect, uint32_t ab, const int *roof, uint32_t extra, int h,
                  const int *houses, int nh, int *j) {
    int others[MAXN], no = 0;
    for (int i = 0; i < u->n; i++) {
        int c = u->house[h][i];
        if (u->cand[c] && c != roof[0] && c != roof[1]) others[no++] = c;
    }
    sets_t s = {u, h, houses, nh, others, no, {0}, 0, {0}, rect, ab, j};
    int top = u->n - 1 < no - 1 ? u->n - 1 : no - 1;
    for (int k = 1; k <= top; k++) {
        s.np = 0;
        for (int i = 0; i < no; i++)
            if (popc(u->cand[others[i]] | extra) <= k + 1) s.pool[s.np++] = others[i];
        if (sets_of(&s, extra, k, 0, k + 1, 0) < 0) return -1;
    }
    return 0;
}

/* ---- one rectangle ------------------------------------------------------------------------- */

/* the rectangle's possible steps that remove something, in techniques.uniqueness's
 * _rectangle_steps order; j counts every step it lists (those removing nothing too) */
static int rectangle(ur_t *u, const int *rect, uint32_t ab) {
    const uint32_t *cand = u->cand;
    int n = u->n;
    for (int i = 0; i < 4; i++)
        if (cand[rect[i]] != ab && !(cand[rect[i]] & ~ab)) return 0;
    int floor[4], roof[4], nf = 0, nr = 0;
    uint32_t extra = 0;
    for (int i = 0; i < 4; i++) {
        int c = rect[i];
        if (cand[c] == ab) floor[nf++] = c;
        else { roof[nr++] = c; extra |= cand[c] & ~ab; }
    }
    uint32_t a = ab & -ab, b = ab ^ a;
    int j = 0;
    if (nf == 3) {
        if (emit(u, 1, 0, j, rect, ab) < 0) return -1;  /* the roof holds a or b */
        j++;
    }
    if (nr == 2 && popc(extra) == 1 && (cand[roof[0]] & ~ab) == extra && (cand[roof[1]] & ~ab) == extra) {
        if (seen_by_all(u, extra, roof, 2) && emit(u, sees(u, roof[0], roof[1]) ? 2 : 5, 0, j, rect, ab) < 0)
            return -1;
        j++;
    }
    if (nr == 3 && popc(extra) == 1 && (cand[roof[0]] & extra) && (cand[roof[1]] & extra) && (cand[roof[2]] & extra)) {
        if (seen_by_all(u, extra, roof, 3) && emit(u, 5, 0, j, rect, ab) < 0) return -1;
        j++;
    }
    if (nr == 2 && sees(u, roof[0], roof[1])) {
        int houses[3], nh = 0, r0 = roof[0], r1 = roof[1];
        if (r0 / n == r1 / n) houses[nh++] = r0 / n;
        if (r0 % n == r1 % n) houses[nh++] = n + r0 % n;
        if (box_of(u, r0) == box_of(u, r1)) houses[nh++] = 2 * n + box_of(u, r0);
        for (int i = 0; i < nh; i++) {  /* type 4 */
            uint32_t xs[2] = {a, b}, ys[2] = {b, a};
            for (int t = 0; t < 2; t++) {
                if (!only_on(u, houses[i], xs[t], roof, 2)) continue;
                if (((cand[r0] | cand[r1]) & ys[t]) && emit(u, 4, 0, j, rect, ab) < 0) return -1;
                j++;
            }
        }
        for (int i = 0; i < nh; i++)
            if (type_3(u, rect, ab, roof, extra, houses[i], houses, nh, &j) < 0) return -1;
    }
    int diagonal = nf == 2 && !sees(u, floor[0], floor[1]);
    if (diagonal) {  /* type 6 */
        int r1 = rect[0] / n, r2 = rect[3] / n, c1 = rect[0] % n, c2 = rect[3] % n;
        int lines[2][2] = {{r1, r2}, {n + c1, n + c2}};
        for (int l = 0; l < 2; l++) {
            uint32_t xs[2] = {a, b};
            for (int t = 0; t < 2; t++) {
                if (!only_on(u, lines[l][0], xs[t], rect, 4) || !only_on(u, lines[l][1], xs[t], rect, 4)) continue;
                if (((cand[roof[0]] | cand[roof[1]]) & xs[t]) && emit(u, 6, 0, j, rect, ab) < 0) return -1;
                j++;
            }
        }
    }
    if (nf == 1 || diagonal) {  /* hidden */
        for (int i = 0; i < nf; i++) {
            int corner = floor[i], opposite = -1;
            for (int k = 0; k < 4; k++)
                if (rect[k] / n != corner / n && rect[k] % n != corner % n) opposite = rect[k];
            uint32_t xs[2] = {a, b}, ys[2] = {b, a};
            for (int t = 0; t < 2; t++) {
                if (!only_on(u, opposite / n, xs[t], rect, 4) || !only_on(u, n + opposite % n, xs[t], rect, 4))
                    continue;
                if ((cand[opposite] & ys[t]) && emit(u, 7, 0, j, rect, ab) < 0) return -1;
                j++;
            }
        }
    }
    return 0;
}

/* ---- the search ---------------------------------------------------------------------------- */

static int ORDER_N;  /* the grid size rect_order reads (qsort takes no context) */

/* rectangles by rows, then columns (techniques.uniqueness's listing) */
static int rect_order(const void *p, const void *q) {
    const int *x = p, *y = q, n = ORDER_N;
    int kx[4] = {x[0] / n, x[2] / n, x[0] % n, x[1] % n}, ky[4] = {y[0] / n, y[2] / n, y[0] % n, y[1] % n};
    for (int i = 0; i < 4; i++)
        if (kx[i] != ky[i]) return kx[i] < ky[i] ? -1 : 1;
    return 0;
}

PyDoc_STRVAR(rectangles_doc,
"rectangles(n, cand) -> [(kind, size, j, c0, c1, c2, c3, ab)]: explainer.core.ur.rectangles.");

static PyObject *py_rectangles(PyObject *self, PyObject *args) {
    int n;
    PyObject *cand_obj;
    if (!PyArg_ParseTuple(args, "iO!", &n, &PyList_Type, &cand_obj)) return NULL;
    int m = 0;
    while ((m + 1) * (m + 1) <= n) m++;
    if (n < 4 || n > MAXN || m * m != n) return PyErr_Format(PyExc_ValueError, "unsupported grid size %d", n);
    if (PyList_GET_SIZE(cand_obj) != (Py_ssize_t)n * n)
        return PyErr_Format(PyExc_ValueError, "cand: a list of %d value masks", n * n);
    ur_t u;
    uint32_t cand[MAXN * MAXN];
    u.n = n; u.m = m; u.N = n * n; u.cand = cand;
    for (int c = 0; c < u.N; c++) {
        long x = PyLong_AsLong(PyList_GET_ITEM(cand_obj, c));
        if (x == -1 && PyErr_Occurred()) return NULL;
        cand[c] = (uint32_t)x;
    }
    for (int i = 0; i < n; i++)
        for (int k = 0; k < n; k++) {
            u.house[i][k] = i * n + k;
            u.house[n + i][k] = k * n + i;
            u.house[2 * n + i][k] = (m * (i / m) + k / m) * n + m * (i % m) + k % m;
        }
    u.out = PyList_New(0);
    if (!u.out) return NULL;
    int (*rects)[4] = malloc(sizeof(int[4]) * MAXN * MAXN);
    if (!rects) { Py_DECREF(u.out); return PyErr_NoMemory(); }
    for (int f = 0; f < u.N; f++) {
        uint32_t ab = cand[f];
        if (popc(ab) != 2) continue;
        int rf = f / n, cf = f % n, k = 0;
        for (int cx = 0; cx < n; cx++) {
            if (cx == cf || !(cand[rf * n + cx] & ab)) continue;
            for (int ry = 0; ry < n; ry++) {
                if (ry == rf || !(cand[ry * n + cf] & ab) || !(cand[ry * n + cx] & ab)) continue;
                int r1 = rf < ry ? rf : ry, r2 = rf ^ ry ^ r1, c1 = cf < cx ? cf : cx, c2 = cf ^ cx ^ c1;
                int *r = rects[k];
                r[0] = r1 * n + c1; r[1] = r1 * n + c2; r[2] = r2 * n + c1; r[3] = r2 * n + c2;
                /* exactly two boxes: the rows in one band or the columns in one stack, not both */
                if ((r1 / m == r2 / m) == (c1 / m == c2 / m)) continue;
                /* found from its first corner holding only a and b */
                int earlier = 0;
                for (int i = 0; i < 4; i++) earlier |= r[i] < f && cand[r[i]] == ab;
                if (!earlier) k++;
            }
        }
        ORDER_N = n;
        qsort(rects, (size_t)k, sizeof rects[0], rect_order);
        for (int i = 0; i < k; i++)
            if (rectangle(&u, rects[i], ab) < 0) { free(rects); Py_DECREF(u.out); return NULL; }
    }
    free(rects);
    return u.out;
}

/* ---- unique loops: the pairs worth a search ------------------------------------------------- */

static int u32_order(const void *p, const void *q) {
    uint32_t x = *(const uint32_t *)p, y = *(const uint32_t *)q;
    return (x > y) - (x < y);
}

PyDoc_STRVAR(loop_pairs_doc,
"loop_pairs(n, cand, min_cells) -> [(ab, only, cells)]: explainer.core.ur.loop_pairs.");

static PyObject *py_loop_pairs(PyObject *self, PyObject *args) {
    int n, min_cells;
    PyObject *cand_obj;
    if (!PyArg_ParseTuple(args, "iO!i", &n, &PyList_Type, &cand_obj, &min_cells)) return NULL;
    int m = 0;
    while ((m + 1) * (m + 1) <= n) m++;
    if (n < 4 || n > MAXN || m * m != n) return PyErr_Format(PyExc_ValueError, "unsupported grid size %d", n);
    int N = n * n, nw = (N + 63) / 64;
    if (PyList_GET_SIZE(cand_obj) != (Py_ssize_t)N)
        return PyErr_Format(PyExc_ValueError, "cand: a list of %d value masks", N);
    uint32_t cand[MAXN * MAXN], pairs[MAXN * MAXN];
    int np = 0;
    for (int c = 0; c < N; c++) {
        long x = PyLong_AsLong(PyList_GET_ITEM(cand_obj, c));
        if (x == -1 && PyErr_Occurred()) return NULL;
        cand[c] = (uint32_t)x;
        if (popc(cand[c]) == 2) pairs[np++] = cand[c];
    }
    qsort(pairs, (size_t)np, sizeof pairs[0], u32_order);
    cellset house[3 * MAXN];
    memset(house, 0, sizeof house);
    for (int c = 0; c < N; c++) {
        int r = c / n, k = c % n;
        cs_add(&house[r], c);
        cs_add(&house[n + k], c);
        cs_add(&house[2 * n + m * (r / m) + k / m], c);
    }
    PyObject *out = PyList_New(0);
    for (int i = 0; out && i < np; i++) {
        uint32_t ab = pairs[i];
        if (i && pairs[i - 1] == ab) continue;
        cellset only, cells;
        cs_clear(&only); cs_clear(&cells);
        int k = 0;
        for (int c = 0; c < N; c++)
            if (cand[c] == ab) { cs_add(&only, c); k++; }
        for (int c = 0; c < N; c++)
            if ((cand[c] & ab) == ab && (k >= min_cells - 2 || cand[c] == ab || popc(cand[c]) == 3)) cs_add(&cells, c);
        /* drop every cell alone in one of its houses, until none is (a pair short of cells
         * already is left at once: thinning only drops cells) */
        if (cs_count(&cells, nw) < min_cells) continue;
        for (int changed = 1; changed;) {
            changed = 0;
            for (int h = 0; h < 3 * n; h++) {
                cellset in;
                cs_and(&in, &cells, &house[h], nw);
                if (cs_count(&in, nw) == 1) { cs_andnot(&cells, &cells, &in, nw); changed = 1; }
            }
        }
        if (cs_count(&cells, nw) < min_cells || !cs_intersects(&cells, &only, nw)) continue;
        PyObject *t = Py_BuildValue("(kNN)", (unsigned long)ab, cells_to_py(&only, nw), cells_to_py(&cells, nw));
        if (!t || list_add(out, t) < 0) Py_CLEAR(out);
    }
    return out;
}

static PyMethodDef methods[] = {
    {"rectangles", py_rectangles, METH_VARARGS, rectangles_doc},
    {"loop_pairs", py_loop_pairs, METH_VARARGS, loop_pairs_doc},
    {NULL, NULL, 0, NULL}};

CORE_MODULE("_ur", "Compiled unique rectangle search and unique loops' pairs.");

PyMODINIT_FUNC PyInit__ur(void) { return PyModule_Create(&module); }
