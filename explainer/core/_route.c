/* The routing of lines around digits (render/routing.py), compiled: its hot paths.
 *
 * render/routing.py is the pure twin and says what each function answers; this file answers the
 * same, float for float, so that every route of every frame is the same point for point:
 *
 *   samples   a piece of length L gets k = max(6, int(L·10·m)) samples at t = i/k, computed by
 *             the same expressions in the same order; built with -ffp-contract=off (setup.py)
 *             so that no product and sum is fused into one rounding;
 *   lengths   Python's own: math.hypot is called (CPython computes it with its own algorithm,
 *             not the C library's; math.dist(p, q) is hypot(p[0] - q[0], p[1] - q[1]) bit for
 *             bit, tests/render/test_routing_compiled.py checks it);
 *   round     Python's round() of a float is the nearest integer, ties to even: rint() in the
 *             default rounding mode;
 *   A*        the same moves, weights and grid-line penalty; the heap's entries (f, g, flat
 *             index) all differ (a point is pushed again only with a smaller g), so any heap
 *             pops them in the one order of their comparison, Python's heapq included.
 *
 * The obstacles are read where Python keeps them: ``boxes`` (Obstacles._index()), the n·n lists
 * of a cell's boxes (x, y, hw, hh, weight, key) by index r·n + c. A box's key is looked up in
 * ``ignore`` (and in a cost's set of keys hit) only when a sample falls in the box: nothing is
 * converted per frame (a 16x16 frame adds a thousand candidate boxes, and a line passes few).
 *
 * Exported: clear, cost, hides_grid_line (Obstacles.clear, Obstacles.cost, hides_grid_line),
 * lattice_route, and route: the clear route ``route`` looks for before the least bad one (None
 * when there is none: render/routing.py then ranks every candidate route by cost).
 */
#include "glue.h"

#include <math.h>

static PyObject *hypot_fn; /* math.hypot */

/* ---- numbers as Python computes them ------------------------------------------------------- */

/* math.hypot(dx, dy): 0, or -1 with the error set */
static int py_hypot(double dx, double dy, double *out) {
    PyObject *args[2] = {PyFloat_FromDouble(dx), PyFloat_FromDouble(dy)};
    PyObject *r = args[0] && args[1] ? PyObject_Vectorcall(hypot_fn, args, 2, NULL) : NULL;
    Py_XDECREF(args[0]);
    Py_XDECREF(args[1]);
    if (!r) return -1;
    *out = PyFloat_AsDouble(r);
    Py_DECREF(r);
    return *out == -1.0 && PyErr_Occurred() ? -1 : 0;
}

/* math.dist(p, q) of two points */
static inline int py_dist(double px, double py, double qx, double qy, double *out) {
    return py_hypot(px - qx, py - qy, out);
}

/* int(v) of a float that must be finite (as int(): OverflowError, ValueError): 0, or -1 */
static int py_int(double v, long long *out) {
    if (isnan(v)) {
        PyErr_SetString(PyExc_ValueError, "cannot convert float NaN to integer");
        return -1;
    }
    if (!(fabs(v) < 9.0e18)) {
        PyErr_SetString(PyExc_OverflowError, "cannot convert float infinity to integer");
        return -1;
    }
    *out = (long long)v;
    return 0;
}

/* round(v) (ties to even), a finite float: 0, or -1 */
static int py_round(double v, double *out) {
    if (!isfinite(v)) {
        PyErr_SetString(isnan(v) ? PyExc_ValueError : PyExc_OverflowError, "cannot round a float that is not finite");
        return -1;
    }
    *out = rint(v);
    return 0;
}

/* a number (a float, or anything float() takes): 0, or -1 */
static inline int num(PyObject *o, double *v) {
    if (PyFloat_CheckExact(o)) {
        *v = PyFloat_AS_DOUBLE(o);
        return 0;
    }
    *v = PyFloat_AsDouble(o);
    return *v == -1.0 && PyErr_Occurred() ? -1 : 0;
}

/* ---- points --------------------------------------------------------------------------------- */

/* a point: its coordinates and, for a route's two ends, the object it was given as (a route
 * returns its ends as they came, as the pure twin does) */
typedef struct {
    double x, y;
    PyObject *obj; /* borrowed, or NULL: a point of its own */
} pt_t;

static inline pt_t at(double x, double y) {
    pt_t p = {x, y, NULL};
    return p;
}

/* a point (a sequence of two numbers): 0, or -1 */
static int point_from(PyObject *o, pt_t *p) {
    PyObject *s = PySequence_Fast(o, "a point is a pair of numbers");
    if (!s) return -1;
    int r = -1;
    if (PySequence_Fast_GET_SIZE(s) != 2)
        PyErr_SetString(PyExc_ValueError, "a point is a pair of numbers");
    else if (num(PySequence_Fast_GET_ITEM(s, 0), &p->x) == 0 && num(PySequence_Fast_GET_ITEM(s, 1), &p->y) == 0)
        r = 0;
    Py_DECREF(s);
    p->obj = o;
    return r;
}

/* a growable array of points */
typedef struct {
    pt_t *p;
    int k, cap;
} pts_t;

static int pts_add(pts_t *a, pt_t p) {
    if (a->k == a->cap) {
        pt_t *g = grown(a->p, &a->cap, 16, sizeof *a->p);
        if (!g) return -1;
        a->p = g;
    }
    a->p[a->k++] = p;
    return 0;
}

/* a route (a sequence of two points or more): 0, or -1 (the array freed) */
static int route_from(PyObject *o, pts_t *out) {
    out->p = NULL;
    out->k = out->cap = 0;
    PyObject *s = PySequence_Fast(o, "a route is a sequence of points");
    if (!s) return -1;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(s);
    int r = 0;
    if (k < 2) {
        PyErr_SetString(PyExc_ValueError, "a route has two points or more");
        r = -1;
    }
    for (Py_ssize_t i = 0; r == 0 && i < k; i++) {
        pt_t p;
        r = point_from(PySequence_Fast_GET_ITEM(s, i), &p);
        p.obj = NULL; /* a hit test returns no point (and ``s`` may be a list of its own) */
        if (r == 0) r = pts_add(out, p);
    }
    Py_DECREF(s);
    if (r < 0) free(out->p);
    return r;
}

/* the points as a tuple of points (the given ends as they came), or NULL */
static PyObject *route_to_py(const pt_t *p, int k) {
    PyObject *out = PyTuple_New(k);
    for (int i = 0; out && i < k; i++) {
        PyObject *x = p[i].obj;
        if (x)
            Py_INCREF(x);
        else
            x = Py_BuildValue("(dd)", p[i].x, p[i].y);
        if (!x)
            Py_CLEAR(out);
        else
            PyTuple_SET_ITEM(out, i, x);
    }
    return out;
}

/* ---- samples (routing.iter_sample) ---------------------------------------------------------- */

/* the samples of a route, one at a time: a straight piece for two points, else quadratic
 * pieces (p[s], p[s + 1], p[s + 2]) for s = 0, 2, … < k - 2, each piece's end between pieces */
typedef struct {
    const pt_t *p;
    int k, m;
    int s;          /* the piece's first point */
    long long i, n; /* the next sample i of the piece's n */
    int joint;      /* the piece is done and its end is the next sample */
} sampler_t;

/* start the piece at s: 0, or -1 */
static int piece_start(sampler_t *sm, int s) {
    const pt_t *p = sm->p + s;
    int curved = sm->k > 2;
    double d0, d1 = 0.0;
    if (py_dist(p[0].x, p[0].y, p[1].x, p[1].y, &d0) < 0) return -1;
    if (curved && py_dist(p[1].x, p[1].y, p[2].x, p[2].y, &d1) < 0) return -1;
    double length = curved ? 0.0 + d0 + d1 : 0.0 + d0; /* sum() of the piece's lengths, from 0 */
    long long n;
    if (py_int(length * 10 * sm->m, &n) < 0) return -1;
    sm->s = s;
    sm->n = n > 6 ? n : 6;
    sm->i = 1;
    sm->joint = 0;
    return 0;
}

static int sampler_init(sampler_t *sm, const pt_t *p, int k, int m) {
    sm->p = p;
    sm->k = k;
    sm->m = m;
    return piece_start(sm, 0);
}

/* the next sample: 1, 0 (no more) or -1 */
static int sampler_next(sampler_t *sm, double *x, double *y) {
    for (;;) {
        const pt_t *p = sm->p + sm->s;
        if (sm->joint) {
            *x = p[2].x;
            *y = p[2].y;
            if (piece_start(sm, sm->s + 2) < 0) return -1;
            return 1;
        }
        if (sm->i < sm->n) {
            double t = (double)sm->i / (double)sm->n;
            sm->i++;
            if (sm->k == 2) {
                double ax = p[0].x, ay = p[0].y, dx = p[1].x - ax, dy = p[1].y - ay;
                *x = ax + dx * t;
                *y = ay + dy * t;
            } else {
                double ax = p[0].x, ay = p[0].y, cx = p[1].x, cy = p[1].y, bx = p[2].x, by = p[2].y;
                double u = 1 - t;
                *x = u * u * ax + 2 * u * t * cx + t * t * bx;
                *y = u * u * ay + 2 * u * t * cy + t * t * by;
            }
            return 1;
        }
        if (sm->k == 2 || sm->s + 2 >= sm->k - 2) return 0; /* the last piece */
        sm->joint = 1;
    }
}

/* ---- obstacles ------------------------------------------------------------------------------ */

typedef struct {
    PyObject *boxes;  /* the n·n lists of a cell's boxes (x, y, hw, hh, weight, key) */
    PyObject *ignore; /* the keys a route may cross */
    int none_ignored; /* ``ignore`` is an empty set */
    int n, m;
} obs_t;

/* the obstacles of the arguments: 0, or -1 */
static int obs_init(obs_t *o, PyObject *boxes, int n, int m, PyObject *ignore) {
    if (n < 1 || m < 1 || n > 10000) {
        PyErr_SetString(PyExc_ValueError, "the grid's size n and box size m must be positive");
        return -1;
    }
    if (!PyList_Check(boxes) || PyList_GET_SIZE(boxes) != (Py_ssize_t)n * n) {
        PyErr_SetString(PyExc_TypeError, "boxes: a list of n*n lists (Obstacles._index())");
        return -1;
    }
    o->boxes = boxes;
    o->ignore = ignore;
    o->none_ignored = PyAnySet_Check(ignore) && PySet_GET_SIZE(ignore) == 0;
    o->n = n;
    o->m = m;
    return 0;
}

/* is ``key`` in ``ignore``: 1, 0, or -1 */
static inline int ignored(const obs_t *o, PyObject *key) {
    if (o->none_ignored) return 0;
    return PyAnySet_Check(o->ignore) ? PySet_Contains(o->ignore, key) : PySequence_Contains(o->ignore, key);
}

/* the boxes of the cell holding (x, y), a point of the grid, or NULL */
static inline PyObject *cell_boxes(const obs_t *o, double x, double y) {
    PyObject *cell = PyList_GET_ITEM(o->boxes, (Py_ssize_t)(int)y * o->n + (int)x);
    if (!PyList_Check(cell)) {
        PyErr_SetString(PyExc_TypeError, "boxes: a cell's boxes are a list");
        return NULL;
    }
    return cell;
}

/* box t of a cell: is (x, y) inside it grown by pad (|x - bx| < hw + pad, the same for y):
 * 1, 0, or -1 */
static inline int inside(PyObject *t, double x, double y, double pad) {
    if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != 6) {
        PyErr_SetString(PyExc_TypeError, "a box is a tuple (x, y, hw, hh, weight, key)");
        return -1;
    }
    double bx, hw, by, hh;
    if (num(PyTuple_GET_ITEM(t, 0), &bx) < 0 || num(PyTuple_GET_ITEM(t, 2), &hw) < 0) return -1;
    if (!(fabs(x - bx) < hw + pad)) return 0;
    if (num(PyTuple_GET_ITEM(t, 1), &by) < 0 || num(PyTuple_GET_ITEM(t, 3), &hh) < 0) return -1;
    return fabs(y - by) < hh + pad;
}

/* is (x, y), a point of the grid, in a box (grown by pad) whose key is not ignored:
 * 1, 0, or -1 (routing._blocked; pad 0: the test of Obstacles.clear, -hw < x - bx < hw being
 * |x - bx| < hw) */
static int blocked(const obs_t *o, double x, double y, double pad) {
    PyObject *cell = cell_boxes(o, x, y);
    if (!cell) return -1;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(cell); i++) {
        PyObject *t = PyList_GET_ITEM(cell, i);
        int r = inside(t, x, y, pad);
        if (r == 0) continue;
        if (r < 0) return -1;
        Py_INCREF(t); /* the key's own comparisons run Python code */
        r = ignored(o, PyTuple_GET_ITEM(t, 5));
        Py_DECREF(t);
        if (r == 0) return 1;
        if (r < 0) return -1;
    }
    return 0;
}

static inline int on_grid(const obs_t *o, double x, double y) {
    return 0 <= x && x < o->n && 0 <= y && y < o->n;
}

/* Obstacles.cost: the total weight of the boxes the route crosses (each key once, none
 * ignored) and, when ``hit`` is not NULL, the set of their keys (a new reference); stops as
 * soon as the total passes ``stop`` (has_stop). 0, or -1 */
static int cost(const obs_t *o, const pt_t *p, int k, int has_stop, long long stop, long long *total,
                PyObject **hit_out) {
    PyObject *hit = PySet_New(NULL);
    if (!hit) return -1;
    sampler_t sm;
    double x, y;
    int r;
    *total = 0;
    if (sampler_init(&sm, p, k, o->m) < 0) goto fail;
    while ((r = sampler_next(&sm, &x, &y)) != 0) {
        if (r < 0) goto fail;
        if (!on_grid(o, x, y)) continue;
        PyObject *cell = cell_boxes(o, x, y);
        if (!cell) goto fail;
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(cell); i++) {
            PyObject *t = PyList_GET_ITEM(cell, i);
            int in = inside(t, x, y, 0.0);
            if (in == 0) continue;
            if (in < 0) goto fail;
            Py_INCREF(t);
            PyObject *key = PyTuple_GET_ITEM(t, 5);
            int skip = ignored(o, key);
            if (skip == 0) skip = PySet_Contains(hit, key);
            long long w = 0;
            if (skip == 0) {
                w = PyLong_AsLongLong(PyTuple_GET_ITEM(t, 4));
                if (w == -1 && PyErr_Occurred()) skip = -1;
                else if (PySet_Add(hit, key) < 0) skip = -1;
            }
            Py_DECREF(t);
            if (skip < 0) goto fail;
            if (skip) continue;
            *total += w;
            if (has_stop && *total > stop) goto done;
        }
    }
done:
    if (hit_out)
        *hit_out = hit;
    else
        Py_DECREF(hit);
    return 0;
fail:
    Py_DECREF(hit);
    return -1;
}

/* Obstacles.clear: no box crossed but ignored ones (a route of more than three points: its
 * cost up to 0 is 0). 1, 0, or -1 */
static int clear(const obs_t *o, const pt_t *p, int k) {
    if (k > 3) {
        long long total;
        if (cost(o, p, k, 1, 0, &total, NULL) < 0) return -1;
        return total == 0;
    }
    sampler_t sm;
    double x, y;
    int r;
    if (sampler_init(&sm, p, k, o->m) < 0) return -1;
    while ((r = sampler_next(&sm, &x, &y)) != 0) {
        if (r < 0) return -1;
        if (!on_grid(o, x, y)) continue;
        int b = blocked(o, x, y, 0.0);
        if (b) return b < 0 ? -1 : 0;
    }
    return 1;
}

static int clear2(const obs_t *o, pt_t a, pt_t b) {
    pt_t p[2] = {a, b};
    return clear(o, p, 2);
}

/* ---- routing.hides_grid_line ------------------------------------------------------------------ */

typedef struct {
    int on;              /* a run along a line has started */
    double start, line;  /* its start's other coordinate, the line */
} run_t;

/* one point of the route on one axis (v its coordinate, w the other): 1 (the run is longer
 * than ``run``), 0, or -1 */
static inline int run_step(run_t *s, double v, double w, double near, double run) {
    double k;
    if (py_round(v, &k) < 0) return -1;
    if (fabs(v - k) < near && (!s->on || k == s->line)) {
        if (!s->on) {
            s->on = 1;
            s->start = w;
            s->line = k;
        } else if (fabs(w - s->start) > run) {
            return 1;
        }
    } else {
        s->on = 0;
    }
    return 0;
}

/* does the route run along a grid line (within ``near``) for more than ``run`` cells: 1, 0, or
 * -1 (both axes in one pass: the answer is whether either does) */
static int hides(const pt_t *p, int k, int m, double near, double run) {
    run_t ax[2] = {{0, 0.0, 0.0}, {0, 0.0, 0.0}};
    sampler_t sm;
    double x = p[0].x, y = p[0].y;
    int r = 1, last = 0;
    if (sampler_init(&sm, p, k, m) < 0) return -1;
    for (;;) {
        int h = run_step(&ax[0], x, y, near, run);
        if (h == 0) h = run_step(&ax[1], y, x, near, run);
        if (h) return h;
        if (last) return 0;
        if (r) r = sampler_next(&sm, &x, &y);
        if (r < 0) return -1;
        if (r == 0) { /* the samples are done: the route's end */
            x = p[k - 1].x;
            y = p[k - 1].y;
            last = 1;
        }
    }
}

static int hides2(pt_t a, pt_t b, int m) {
    pt_t p[2] = {a, b};
    return hides(p, 2, m, 0.06, 0.6);
}

/* routing._on_grid: every sample of the quadratic piece p[0..2] at least 0.08 inside the grid */
static int on_grid_piece(const pt_t *p, int n) {
    double margin = 0.08, lo = margin + 1e-9, hi = n - margin - 1e-9;
    int all = 1;
    for (int i = 0; i < 3; i++) all = all && lo <= p[i].x && p[i].x <= hi && lo <= p[i].y && p[i].y <= hi;
    if (all) return 1;
    sampler_t sm;
    double x, y;
    int r;
    if (sampler_init(&sm, p, 3, 1) < 0) return -1;
    while ((r = sampler_next(&sm, &x, &y)) != 0) {
        if (r < 0) return -1;
        if (!(margin <= x && x <= n - margin && margin <= y && y <= n - margin)) return 0;
    }
    return 1;
}

/* ---- the lattice (routing._Lattice) ------------------------------------------------------------- */

typedef struct {
    double f, g;
    long idx;
} entry_t;

/* a lattice point's bits in ``known`` (all 0 at first: the arrays of the search are not
 * filled beforehand, only the points it reaches are written; a whole 25x25 grid is 250 000
 * points) */
enum {
    OK = 3,       /* 0: not looked at yet, FREE or BLOCKED (``ok``, kept) */
    FREE = 1,
    BLOCKED = 2,
    REACHED = 4,  /* its best g and parent are set (else: g 1e18, no parent) */
    GUESSED = 8,  /* its distance to b (the A* heuristic) is known */
    TARGET = 16,  /* a point near b */
};

typedef struct {
    const obs_t *o;
    int q, x0, y0;
    long W, H;
    double step;
    unsigned char *known; /* per point: its OK bits, and which of the search's arrays it has set */
} lattice_t;

static inline pt_t lxy(const lattice_t *L, long i, long j) {
    return at(L->x0 + i * L->step, L->y0 + j * L->step);
}

/* _Lattice.ok, kept: FREE, BLOCKED or -1 */
static int look(lattice_t *L, long i, long j) {
    unsigned char *v = &L->known[i * L->H + j];
    if (*v & OK) return *v & OK;
    pt_t p = lxy(L, i, j);
    int n = L->o->n, free = 0.05 <= p.x && p.x <= n - 0.05 && 0.05 <= p.y && p.y <= n - 0.05;
    if (free) {
        int b = blocked(L->o, p.x, p.y, 0.01);
        if (b < 0) return -1;
        free = !b;
    }
    *v |= free ? FREE : BLOCKED;
    return free ? FREE : BLOCKED;
}

/* _Lattice.near: the lattice points a clear straight step from p, in order; their flat indices
 * in out (up to 25): how many, or -1. Every one: the pure twin sorts them into those facing
 * ``toward`` and the others with ``(… >= 0 and ahead or behind).append``, which appends to
 * ``behind`` while ``ahead`` is empty, that is always (``toward`` changes nothing) */
static int near(lattice_t *L, pt_t p, long *out) {
    double ri, rj;
    if (py_round((p.x - L->x0) / L->step, &ri) < 0 || py_round((p.y - L->y0) / L->step, &rj) < 0) return -1;
    if (!(fabs(ri) < 1e9 && fabs(rj) < 1e9)) return 0; /* far off the lattice */
    long ci = (long)ri, cj = (long)rj;
    int k = 0;
    for (long di = -2; di < 3; di++)
        for (long dj = -2; dj < 3; dj++) {
            long i = ci + di, j = cj + dj;
            if (!(0 <= i && i < L->W && 0 <= j && j < L->H)) continue;
            int v = look(L, i, j);
            if (v < 0) return -1;
            if (v == 2) continue;
            int c = clear2(L->o, p, lxy(L, i, j));
            if (c < 0) return -1;
            if (c) out[k++] = i * L->H + j;
        }
    return k;
}

static inline int entry_less(const entry_t *a, const entry_t *b) {
    if (a->f != b->f) return a->f < b->f;
    if (a->g != b->g) return a->g < b->g;
    return a->idx < b->idx;
}

typedef struct {
    entry_t *e;
    int k, cap;
} heap_t;

static int heap_push(heap_t *h, double f, double g, long idx) {
    if (h->k == h->cap) {
        entry_t *e = grown(h->e, &h->cap, 1024, sizeof *h->e);
        if (!e) return -1;
        h->e = e;
    }
    entry_t x = {f, g, idx};
    int i = h->k++;
    while (i > 0) {
        int up = (i - 1) / 2;
        if (!entry_less(&x, &h->e[up])) break;
        h->e[i] = h->e[up];
        i = up;
    }
    h->e[i] = x;
    return 0;
}

static entry_t heap_pop(heap_t *h) {
    entry_t top = h->e[0], x = h->e[--h->k];
    int i = 0;
    for (;;) {
        int c = 2 * i + 1;
        if (c >= h->k) break;
        if (c + 1 < h->k && entry_less(&h->e[c + 1], &h->e[c])) c++;
        if (!entry_less(&h->e[c], &x)) break;
        h->e[i] = h->e[c];
        i = c;
    }
    if (h->k) h->e[i] = x;
    return top;
}

static const struct {
    int di, dj;
    double w;
} MOVES[8] = {{1, 0, 1.0}, {-1, 0, 1.0}, {0, 1, 1.0}, {0, -1, 1.0},
              {1, 1, 1.414}, {1, -1, 1.414}, {-1, 1, 1.414}, {-1, -1, 1.414}};

/* _Lattice.search: A* from the points near a to those near b; the route's points, a and b
 * included, in path (1), or none (0); -1 on error */
/* the A* heuristic of point k, hypot(i - bi, j - bj), into guess[k] once: 0, or -1 */
static inline int guessed(lattice_t *L, long k, double bi, double bj, double *guess) {
    if (L->known[k] & GUESSED) return 0;
    if (py_hypot((double)(k / L->H) - bi, (double)(k % L->H) - bj, &guess[k]) < 0) return -1;
    L->known[k] |= GUESSED;
    return 0;
}

static int search(lattice_t *L, pt_t a, pt_t b, pts_t *path) {
    long starts[25], goals[25];
    int ns = near(L, a, starts);
    if (ns < 0) return -1;
    int ng = ns ? near(L, b, goals) : 0;
    if (ng < 0) return -1;
    if (!ns || !ng) return 0;
    long H = L->H, N = L->W * H;
    unsigned char *known = L->known;
    double step = L->step, bi = (b.x - L->x0) / step, bj = (b.y - L->y0) / step;
    /* read only where ``known`` says they are set (REACHED, GUESSED): not filled beforehand */
    double *best = malloc(sizeof *best * (size_t)N), *guess = malloc(sizeof *guess * (size_t)N);
    int64_t *par = malloc(sizeof *par * (size_t)N);
    heap_t heap = {NULL, 0, 0};
    int result = -1;
    long end = -1;
    if (!best || !guess || !par) {
        PyErr_NoMemory();
        goto out;
    }
    for (int s = 0; s < ns; s++) {
        long k = starts[s];
        pt_t p = lxy(L, k / H, k % H);
        double g;
        if (py_dist(a.x, a.y, p.x, p.y, &g) < 0 || guessed(L, k, bi, bj, guess) < 0) goto out;
        g = g / step;
        best[k] = g;
        par[k] = -1;
        known[k] |= REACHED;
        if (heap_push(&heap, g + guess[k], g, k) < 0) goto out;
    }
    for (int s = 0; s < ng; s++) known[goals[s]] |= TARGET;
    while (heap.k) {
        entry_t e = heap_pop(&heap);
        long cur = e.idx;
        double g = e.g;
        if (g > best[cur]) continue; /* popped: pushed, so REACHED */
        if (known[cur] & TARGET) {
            end = cur;
            break;
        }
        long ci = cur / H, cj = cur % H;
        int on_row = cj % L->q == 0, on_col = ci % L->q == 0;
        for (int mv = 0; mv < 8; mv++) {
            long di = MOVES[mv].di, dj = MOVES[mv].dj, ni = ci + di, nj = cj + dj;
            double w = MOVES[mv].w;
            if (!(0 <= ni && ni < L->W && 0 <= nj && nj < H)) continue;
            long nxt = ni * H + nj;
            int v = look(L, ni, nj);
            if (v < 0) goto out;
            if (v == BLOCKED) continue;
            if (di && dj) {
                int v1 = look(L, ni, cj), v2 = v1 == BLOCKED ? BLOCKED : look(L, ci, nj);
                if (v1 < 0 || v2 < 0) goto out;
                if (v1 == BLOCKED || v2 == BLOCKED) continue; /* no corner cutting */
            }
            int along = (!dj && on_row) || (!di && on_col); /* along a grid line: dearer */
            double g2 = g + (along ? w * 10 : w);
            if (!(known[nxt] & REACHED) || g2 < best[nxt]) { /* not reached: best is 1e18 */
                if (!(g2 < 1e18)) continue;
                best[nxt] = g2;
                par[nxt] = cur;
                known[nxt] |= REACHED;
                if (guessed(L, nxt, bi, bj, guess) < 0 || heap_push(&heap, g2 + guess[nxt], g2, nxt) < 0) goto out;
            }
        }
    }
    result = 0;
    if (end < 0) goto out;
    /* a, the lattice points from the start to the end, b */
    int len = 0;
    for (long k = end; k >= 0; k = par[k]) len++;
    path->k = 0;
    for (int i = 0; i < len + 2; i++)
        if (pts_add(path, a) < 0) {
            result = -1;
            goto out;
        }
    path->p[len + 1] = b;
    int i = len;
    for (long k = end; k >= 0; k = par[k]) path->p[i--] = lxy(L, k / H, k % H);
    result = 1;
out:
    free(best);
    free(guess);
    free(par);
    free(heap.e);
    return result;
}

/* lattice_route's cut: the straight piece p→r is clear and not along a grid line: 1, 0, or -1 */
static int cut(const obs_t *o, pt_t p, pt_t r) {
    int c = clear2(o, p, r);
    if (c != 1) return c;
    int h = hides2(p, r, o->m);
    return h < 0 ? -1 : !h;
}

/* _pull_taut: a point of the path kept only if the cut past it is not clear (from each kept
 * point, the farthest one a cut reaches, found by doubling then halving the reach): into
 * taut, 0 or -1 */
static int pull_taut(const obs_t *o, const pts_t *path, pts_t *taut) {
    int i = 0, last = path->k - 1;
    const pt_t *p = path->p;
    if (pts_add(taut, p[0]) < 0) return -1;
    while (i < last) {
        int good = i + 1, step = 1, c;
        while (good + step <= last) {
            if ((c = cut(o, p[i], p[good + step])) < 0) return -1;
            if (!c) break;
            good += step;
            step *= 2;
        }
        int bad = last + 1 < good + step ? last + 1 : good + step;
        while (bad - good > 1) {
            int mid = (good + bad) / 2;
            if ((c = cut(o, p[i], p[mid])) < 0) return -1;
            if (c)
                good = mid;
            else
                bad = mid;
        }
        if (pts_add(taut, p[good]) < 0) return -1;
        i = good;
    }
    return 0;
}

static inline pt_t lerp(pt_t p, pt_t q, double t) {
    return at(p.x + (q.x - p.x) * t, p.y + (q.y - p.y) * t);
}

/* out[-1] to q as a straight quadratic piece (its midpoint as control), unless they meet */
static int line_to(pts_t *out, pt_t q) {
    pt_t p = out->p[out->k - 1];
    double d;
    if (py_dist(p.x, p.y, q.x, q.y, &d) < 0) return -1;
    if (d > 1e-9 && (pts_add(out, lerp(p, q, 0.5)) < 0 || pts_add(out, q) < 0)) return -1;
    return 0;
}

/* _rounded: the polyline as quadratic pieces, each corner rounded off by f: into out (emptied
 * first), 0 or -1 */
static int rounded(const pts_t *taut, double f, pts_t *out) {
    out->k = 0;
    if (pts_add(out, taut->p[0]) < 0) return -1;
    for (int k = 1; k < taut->k - 1; k++) {
        pt_t prev = taut->p[k - 1], corner = taut->p[k], nxt = taut->p[k + 1];
        if (f <= 0) {
            if (line_to(out, corner) < 0) return -1;
            continue;
        }
        if (line_to(out, lerp(corner, prev, f)) < 0 || pts_add(out, corner) < 0 ||
            pts_add(out, lerp(corner, nxt, f)) < 0)
            return -1;
    }
    return line_to(out, taut->p[taut->k - 1]);
}

/* the lattice of a route from a to b (_Lattice): 0 (L->known NULL: no point), or -1 */
static int lattice_init(lattice_t *L, const obs_t *o, pt_t a, pt_t b) {
    int n = o->n, q = 4 * o->m;
    L->o = o;
    L->q = q;
    L->step = 1.0 / q;
    L->known = NULL;
    long long lo_x, lo_y, hi_x, hi_y; /* int() of the ends' least and greatest coordinates */
    if (py_int(a.x < b.x ? a.x : b.x, &lo_x) < 0 || py_int(a.y < b.y ? a.y : b.y, &lo_y) < 0 ||
        py_int(a.x < b.x ? b.x : a.x, &hi_x) < 0 || py_int(a.y < b.y ? b.y : a.y, &hi_y) < 0)
        return -1;
    if (lo_x < -1000000 || lo_y < -1000000 || hi_x > 1000000 || hi_y > 1000000) return 0; /* far off */
    L->x0 = lo_x - 2 > 0 ? (int)lo_x - 2 : 0;
    L->y0 = lo_y - 2 > 0 ? (int)lo_y - 2 : 0;
    long x1 = hi_x + 3 < n ? (long)hi_x + 3 : n, y1 = hi_y + 3 < n ? (long)hi_y + 3 : n;
    L->W = (x1 - L->x0) * q + 1;
    L->H = (y1 - L->y0) * q + 1;
    if (L->W <= 0 || L->H <= 0) return 0; /* no point of the lattice near a */
    L->known = calloc((size_t)(L->W * L->H), 1);
    if (!L->known) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

/* lattice_route: a new reference to the route, Py_None (no route), or NULL */
static PyObject *lattice_route(const obs_t *o, pt_t a, pt_t b) {
    lattice_t L;
    if (lattice_init(&L, o, a, b) < 0) return NULL;
    if (!L.known) Py_RETURN_NONE; /* far off the grid: no route */
    pts_t path = {NULL, 0, 0}, taut = {NULL, 0, 0}, pts = {NULL, 0, 0};
    PyObject *out = NULL;
    int found = search(&L, a, b, &path);
    if (found < 0) goto done;
    if (!found) {
        out = Py_NewRef(Py_None);
        goto done;
    }
    if (pull_taut(o, &path, &taut) < 0) goto done;
    if (taut.k == 2) {
        pt_t ab[2] = {a, b};
        out = route_to_py(ab, 2);
        goto done;
    }
    static const double F[4] = {0.5, 0.35, 0.2, 0.0};
    for (int i = 0; i < 4; i++) {
        if (rounded(&taut, F[i], &pts) < 0) goto done;
        int c = clear(o, pts.p, pts.k);
        if (c < 0) goto done;
        if (c) break; /* else, after the last: the straight pieces (f = 0) */
    }
    out = route_to_py(pts.p, pts.k);
done:
    free(L.known);
    free(path.p);
    free(taut.p);
    free(pts.p);
    return out;
}

/* routing._through: the control point of the quadratic a→b through w at t */
static inline pt_t through(pt_t a, pt_t b, pt_t w, double t) {
    double u = 1 - t, k = 2 * t * u;
    return at((w.x - u * u * a.x - t * t * b.x) / k, (w.y - u * u * a.y - t * t * b.y) / k);
}

/* the candidate route p (k points) is taken: on the grid (a curve), clear and not along a
 * grid line: 1, 0, or -1 */
static int takes(const obs_t *o, const pt_t *p, int k) {
    int r = k > 2 ? on_grid_piece(p, o->n) : 1;
    if (r == 1) r = clear(o, p, k);
    if (r == 1) {
        r = hides(p, k, o->m, 0.06, 0.6);
        if (r >= 0) r = !r;
    }
    return r;
}

/* route's search for a clear route: routing.candidates(a, b, n, corners=False) in order, the
 * first clear one, else lattice_route. A new reference, Py_None, or NULL */
static PyObject *clear_route(const obs_t *o, pt_t a, pt_t b, double r) {
    pt_t p[3] = {a, b, b};
    int t = takes(o, p, 2);
    if (t) return t < 0 ? NULL : route_to_py(p, 2);
    double ax = a.x, ay = a.y, bx = b.x, by = b.y, dx = bx - ax, dy = by - ay, length;
    if (py_hypot(dx, dy, &length) < 0) return NULL;
    if (length == 0) length = 1.0;
    double nx = -dy / length, ny = dx / length;
    static const double KS[2] = {0.4, 0.7};
    static const int SS[8][2] = {{1, 1}, {-1, -1}, {1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, -1}, {-1, 1}};
    for (int ik = 0; ik < 2; ik++)
        for (int is = 0; is < 8; is++) {
            double d1 = SS[is][0] * KS[ik] * r, d2 = SS[is][1] * KS[ik] * r;
            p[0] = at(ax + nx * d1, ay + ny * d1);
            p[1] = at(bx + nx * d2, by + ny * d2);
            t = takes(o, p, 2);
            if (t) return t < 0 ? NULL : route_to_py(p, 2);
        }
    static const double OFFS[9] = {0.12, 0.2, 0.3, 0.42, 0.55, 0.7, 0.9, 1.15, 1.45};
    static const double TS[3] = {0.5, 0.3, 0.7};
    p[0] = a;
    p[2] = b;
    for (int io = 0; io < 9; io++)
        for (int sgn = 1; sgn >= -1; sgn -= 2)
            for (int it = 0; it < 3; it++) {
                double off = OFFS[io], tt = TS[it];
                pt_t w = at(ax + dx * tt + nx * off * sgn, ay + dy * tt + ny * off * sgn);
                p[1] = through(a, b, w, tt);
                t = takes(o, p, 3);
                if (t) return t < 0 ? NULL : route_to_py(p, 3);
            }
    return lattice_route(o, a, b);
}

/* ---- entry points ------------------------------------------------------------------------------ */

static PyObject *py_clear(PyObject *self, PyObject *args) {
    PyObject *boxes, *route, *ignore;
    int n, m;
    obs_t o;
    pts_t p;
    if (!PyArg_ParseTuple(args, "OiiOO:clear", &boxes, &n, &m, &route, &ignore)) return NULL;
    if (obs_init(&o, boxes, n, m, ignore) < 0 || route_from(route, &p) < 0) return NULL;
    int r = clear(&o, p.p, p.k);
    free(p.p);
    return r < 0 ? NULL : PyBool_FromLong(r);
}

static PyObject *py_cost(PyObject *self, PyObject *args) {
    PyObject *boxes, *route, *ignore, *stop, *hit = NULL;
    int n, m;
    obs_t o;
    pts_t p;
    long long limit = 0, total;
    if (!PyArg_ParseTuple(args, "OiiOOO:cost", &boxes, &n, &m, &route, &ignore, &stop)) return NULL;
    if (stop != Py_None) {
        limit = PyLong_AsLongLong(stop);
        if (limit == -1 && PyErr_Occurred()) return NULL;
    }
    if (obs_init(&o, boxes, n, m, ignore) < 0 || route_from(route, &p) < 0) return NULL;
    int r = cost(&o, p.p, p.k, stop != Py_None, limit, &total, &hit);
    free(p.p);
    return r < 0 ? NULL : Py_BuildValue("(LN)", total, hit);
}

static PyObject *py_hides_grid_line(PyObject *self, PyObject *args) {
    PyObject *route;
    int m;
    double near, run;
    pts_t p;
    if (!PyArg_ParseTuple(args, "Oidd:hides_grid_line", &route, &m, &near, &run)) return NULL;
    if (m < 1) {
        PyErr_SetString(PyExc_ValueError, "m must be positive");
        return NULL;
    }
    if (route_from(route, &p) < 0) return NULL;
    int r = hides(p.p, p.k, m, near, run);
    free(p.p);
    return r < 0 ? NULL : PyBool_FromLong(r);
}

static PyObject *py_lattice_route(PyObject *self, PyObject *args) {
    PyObject *a, *b, *boxes, *ignore;
    int n, m;
    obs_t o;
    pt_t pa, pb;
    if (!PyArg_ParseTuple(args, "OOOiiO:lattice_route", &a, &b, &boxes, &n, &m, &ignore)) return NULL;
    if (obs_init(&o, boxes, n, m, ignore) < 0 || point_from(a, &pa) < 0 || point_from(b, &pb) < 0) return NULL;
    return lattice_route(&o, pa, pb);
}

static PyObject *py_search(PyObject *self, PyObject *args) {
    PyObject *a, *b, *boxes, *ignore, *out = NULL;
    int n, m;
    obs_t o;
    pt_t pa, pb;
    if (!PyArg_ParseTuple(args, "OOOiiO:search", &a, &b, &boxes, &n, &m, &ignore)) return NULL;
    if (obs_init(&o, boxes, n, m, ignore) < 0 || point_from(a, &pa) < 0 || point_from(b, &pb) < 0) return NULL;
    lattice_t L;
    if (lattice_init(&L, &o, pa, pb) < 0) return NULL;
    pts_t path = {NULL, 0, 0};
    int found = L.known ? search(&L, pa, pb, &path) : 0;
    if (found >= 0) out = found ? route_to_py(path.p, path.k) : Py_NewRef(Py_None);
    free(L.known);
    free(path.p);
    return out;
}

static PyObject *py_route(PyObject *self, PyObject *args) {
    PyObject *a, *b, *boxes, *ignore;
    int n, m;
    double r;
    obs_t o;
    pt_t pa, pb;
    if (!PyArg_ParseTuple(args, "OOOiiOd:route", &a, &b, &boxes, &n, &m, &ignore, &r)) return NULL;
    if (obs_init(&o, boxes, n, m, ignore) < 0 || point_from(a, &pa) < 0 || point_from(b, &pb) < 0) return NULL;
    return clear_route(&o, pa, pb, r);
}

static PyMethodDef methods[] = {
    {"clear", py_clear, METH_VARARGS,
     "clear(boxes, n, m, route, ignore): Obstacles.clear (boxes: Obstacles._index())."},
    {"cost", py_cost, METH_VARARGS,
     "cost(boxes, n, m, route, ignore, stop): Obstacles.cost, (total weight, set of keys hit)."},
    {"hides_grid_line", py_hides_grid_line, METH_VARARGS,
     "hides_grid_line(route, m, near, run): routing.hides_grid_line."},
    {"lattice_route", py_lattice_route, METH_VARARGS,
     "lattice_route(a, b, boxes, n, m, ignore): routing.lattice_route (None: no route)."},
    {"search", py_search, METH_VARARGS,
     "search(a, b, boxes, n, m, ignore): _Lattice(a, b, …).search(a, b), the lattice path (None: none)."},
    {"route", py_route, METH_VARARGS,
     "route(a, b, boxes, n, m, ignore, disk_r): the clear route routing.route looks for first "
     "(the first clear candidate, else lattice_route), or None."},
    {NULL, NULL, 0, NULL}};

CORE_MODULE("explainer.core._route", "The routing of lines around digits (render/routing.py's hot paths), compiled.");

PyMODINIT_FUNC PyInit__route(void) {
    PyObject *math = PyImport_ImportModule("math");
    if (!math) return NULL;
    Py_XSETREF(hypot_fn, PyObject_GetAttrString(math, "hypot"));
    Py_DECREF(math);
    if (!hypot_fn) return NULL;
    return PyModule_Create(&module);
}
