/* The templates' reduction (techniques.templates, the pattern overlay method) in C.
 *
 * reduce(lists): ``lists`` holds, per value, its templates (cell masks as Python ints of at most
 * 128 bits: grids up to 9×9, the only ones the technique searches). A template of v that shares a
 * cell with every template of some other value w goes; repeated, value by value in order, until
 * nothing goes. Returns the lists kept (the same int objects, in their order). The pure-Python
 * twin is explainer/core/templates.py's ``reduce_py``; both give the same lists.
 *
 * Why C: on hard 9×9 positions a value keeps up to a few thousand templates and the reduction
 * pairs each with the others' (over a million pair tests a puzzle in Python); here a test is
 * two 64-bit ANDs.
 */
#include "glue.h"

typedef struct {
    uint64_t lo, hi;
} mask128;

typedef struct {
    mask128 *t;     /* the templates still kept */
    Py_ssize_t *at; /* each one's index in the value's list */
    Py_ssize_t k;   /* how many */
} kept_t;

/* a template (an int in 0 .. 2**128 - 1) as two words: 0, or -1 with the error set */
static int to_mask(PyObject *x, PyObject *sixty_four, mask128 *out) {
    if (!PyLong_Check(x)) {
        PyErr_SetString(PyExc_TypeError, "reduce: a template is an int");
        return -1;
    }
    out->lo = PyLong_AsUnsignedLongLongMask(x);
    PyObject *high = PyNumber_Rshift(x, sixty_four);
    if (!high) return -1;
    out->hi = PyLong_AsUnsignedLongLong(high); /* a negative or wider int overflows */
    Py_DECREF(high);
    if (out->hi == (unsigned long long)-1 && PyErr_Occurred()) {
        PyErr_SetString(PyExc_ValueError, "reduce: a template is a cell mask of at most 128 cells");
        return -1;
    }
    return 0;
}

/* true if some kept template of ``w`` shares no cell with ``t`` */
static int fits(mask128 t, const kept_t *w) {
    for (Py_ssize_t j = 0; j < w->k; j++)
        if (!((t.lo & w->t[j].lo) | (t.hi & w->t[j].hi))) return 1;
    return 0;
}

static PyObject *py_reduce(PyObject *self, PyObject *args) {
    PyObject *lists;
    if (!PyArg_ParseTuple(args, "O!:reduce", &PyList_Type, &lists)) return NULL;
    Py_ssize_t n = PyList_GET_SIZE(lists);
    kept_t *vals = calloc((size_t)(n ? n : 1), sizeof *vals);
    PyObject *sixty_four = PyLong_FromLong(64), *out = NULL;
    if (!vals || !sixty_four) goto done;
    for (Py_ssize_t v = 0; v < n; v++) {
        PyObject *mine = PyList_GET_ITEM(lists, v);
        if (!PyList_Check(mine)) {
            PyErr_SetString(PyExc_TypeError, "reduce: each value's templates are a list");
            goto done;
        }
        Py_ssize_t k = PyList_GET_SIZE(mine);
        vals[v].t = malloc(sizeof(mask128) * (size_t)(k ? k : 1));
        vals[v].at = malloc(sizeof(Py_ssize_t) * (size_t)(k ? k : 1));
        if (!vals[v].t || !vals[v].at) {
            PyErr_NoMemory();
            goto done;
        }
        for (Py_ssize_t i = 0; i < k; i++) {
            if (to_mask(PyList_GET_ITEM(mine, i), sixty_four, &vals[v].t[i]) < 0) goto done;
            vals[v].at[i] = i;
        }
        vals[v].k = k;
    }
    for (int changed = 1; changed;) {
        changed = 0;
        for (Py_ssize_t v = 0; v < n; v++) {
            kept_t *me = &vals[v];
            if (!me->k) continue;
            Py_ssize_t k = 0;
            for (Py_ssize_t i = 0; i < me->k; i++) {
                int ok = 1;
                for (Py_ssize_t w = 0; ok && w < n; w++)
                    if (w != v && !fits(me->t[i], &vals[w])) ok = 0;
                if (ok) {
                    me->t[k] = me->t[i];
                    me->at[k++] = me->at[i];
                }
            }
            if (k < me->k) {
                me->k = k;
                changed = 1;
            }
        }
    }
    out = PyList_New(n);
    for (Py_ssize_t v = 0; out && v < n; v++) {
        PyObject *mine = PyList_GET_ITEM(lists, v), *kept = PyList_New(vals[v].k);
        if (!kept) {
            Py_CLEAR(out);
            break;
        }
        for (Py_ssize_t i = 0; i < vals[v].k; i++) {
            PyObject *t = PyList_GET_ITEM(mine, vals[v].at[i]);
            Py_INCREF(t);
            PyList_SET_ITEM(kept, i, t);
        }
        PyList_SET_ITEM(out, v, kept);
    }
done:
    if (vals)
        for (Py_ssize_t v = 0; v < n; v++) {
            free(vals[v].t);
            free(vals[v].at);
        }
    free(vals);
    Py_XDECREF(sixty_four);
    return out;
}

PyDoc_STRVAR(reduce_doc, "reduce(lists) -> the templates kept per value (see the module's docstring)");

static PyMethodDef methods[] = {
    {"reduce", py_reduce, METH_VARARGS, reduce_doc},
    {NULL, NULL, 0, NULL},
};

CORE_MODULE("explainer.core._templates", "The templates' reduction (pattern overlay) in C.");

PyMODINIT_FUNC PyInit__templates(void) { return PyModule_Create(&module); }
