/* The CPython glue the compiled core's modules share (_probe, _propagate, _search).
 *
 * What every exported function needs besides its own work, written once:
 *
 *   views    flat array arguments (array.array, numpy, bytes) as a table of views, a row (VIEW)
 *            each: the argument, its item size and count, whether it is written or optional,
 *            its name and the pointer its data goes to. Taken all or none (views_get), the
 *            size checked with one error message, released in one call (views_release);
 *   masks    cell sets as Python ints and back (cells_to_py, cells_from_py);
 *   results  Python values built from C arrays and lists grown one new item at a time
 *            (list_add and dict_add steal what they are given: no reference to juggle at the call);
 *   growth   a heap array doubled when full (grown);
 *   module   the module definition of a method table (CORE_MODULE).
 *
 * How a module reads its own arguments stays in the module: _search.c describes each of its
 * functions in one table (SEARCHES) that generates the entry points and the method table;
 * _propagate.c gives each function a table of the views it takes.
 *
 * Everything here is static inline: a module that does not use a helper does not get it, and
 * the compiler does not warn about it.
 */
#ifndef SUDOKU_EXPLAINER_GLUE_H
#define SUDOKU_EXPLAINER_GLUE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cellset.h"

/* ---- views: flat array arguments ----------------------------------------------------------- */

enum { VIEW_IN = 0, VIEW_OUT = 1, VIEW_OPTIONAL = 2 }; /* VIEW_OUT: written; VIEW_OPTIONAL: None means absent */
#define VIEW_ANY_LENGTH (-1)                            /* as ``items``: any whole number of items */

typedef struct {
    PyObject *obj;        /* the argument */
    Py_ssize_t itemsize;  /* its items' size in bytes */
    Py_ssize_t items;     /* how many it must hold (or VIEW_ANY_LENGTH) */
    int flags;            /* VIEW_OUT, VIEW_OPTIONAL */
    const char *what;     /* its name in an error */
    void *to;             /* the address of the caller's (typed) data pointer: set to the data, NULL if absent */
    Py_buffer view;       /* while held (all zeros when not) */
} view_t;

/* a row of a views table: VIEW(argument, item size, item count, flags, name, &data pointer) */
#define VIEW(obj, itemsize, items, flags, what, to) {(obj), (itemsize), (items), (flags), (what), (to), {0}}

/* the number of items of an array */
#define COUNT(a) ((int)(sizeof(a) / sizeof *(a)))

/* release the views (held or not: a view not taken is all zeros) */
static inline void views_release(view_t *v, int k) {
    for (int i = 0; i < k; i++) PyBuffer_Release(&v[i].view);
}

/* take the k views, C-contiguous, each of the size it says, their data pointers set: 0, or -1
 * with the error set and none held */
static inline int views_get(view_t *v, int k) {
    for (int i = 0; i < k; i++) memset(&v[i].view, 0, sizeof v[i].view);
    for (int i = 0; i < k; i++) {
        void *data = NULL;
        memcpy(v[i].to, &data, sizeof data);
        if ((v[i].flags & VIEW_OPTIONAL) && v[i].obj == Py_None) continue;
        int how = PyBUF_C_CONTIGUOUS | (v[i].flags & VIEW_OUT ? PyBUF_WRITABLE : 0);
        if (PyObject_GetBuffer(v[i].obj, &v[i].view, how) < 0) {
            memset(&v[i].view, 0, sizeof v[i].view);
            views_release(v, i);
            return -1;
        }
        Py_ssize_t want = v[i].itemsize * v[i].items;
        if (v[i].items != VIEW_ANY_LENGTH && v[i].view.len != want) {
            PyErr_Format(PyExc_ValueError, "%s: %zd bytes, expected %zd", v[i].what, v[i].view.len, want);
            views_release(v, i + 1);
            return -1;
        }
        memcpy(v[i].to, &v[i].view.buf, sizeof data); /* any object pointer: the same representation */
    }
    return 0;
}

/* ---- cell sets <-> Python ints --------------------------------------------------------------- */

/* a non-negative int of at most nw 64-bit words into s: 0, or -1 with the error set */
static inline int cells_from_py(PyObject *o, cellset *s, int nw) {
    unsigned char buf[CS_MAXWORDS * 8] = {0};
    if (!PyLong_Check(o)) {
        PyErr_SetString(PyExc_TypeError, "a cell mask (int) was expected");
        return -1;
    }
#if PY_VERSION_HEX >= 0x030D0000
    Py_ssize_t r = PyLong_AsNativeBytes(o, buf, (Py_ssize_t)nw * 8,
                                        Py_ASNATIVEBYTES_LITTLE_ENDIAN | Py_ASNATIVEBYTES_UNSIGNED_BUFFER |
                                        Py_ASNATIVEBYTES_REJECT_NEGATIVE);
    if (r < 0) return -1;
    if (r > (Py_ssize_t)nw * 8) {
        PyErr_SetString(PyExc_OverflowError, "cell mask too wide");
        return -1;
    }
#else
    if (_PyLong_AsByteArray((PyLongObject *)o, buf, (size_t)nw * 8, 1, 0) < 0) return -1;
#endif
    cs_clear(s);
    for (int i = 0; i < nw; i++)
        for (int b = 7; b >= 0; b--) s->w[i] = s->w[i] << 8 | buf[i * 8 + b];
    return 0;
}

/* a cell set as a non-negative int (bit c: cell c) */
static inline PyObject *cells_to_py(const cellset *s, int nw) {
    unsigned char buf[CS_MAXWORDS * 8];
    for (int i = 0; i < nw; i++)
        for (int b = 0; b < 8; b++) buf[i * 8 + b] = (unsigned char)(s->w[i] >> (8 * b));
#if PY_VERSION_HEX >= 0x030D0000
    return PyLong_FromUnsignedNativeBytes(buf, (size_t)nw * 8, Py_ASNATIVEBYTES_LITTLE_ENDIAN);
#else
    return _PyLong_FromByteArray(buf, (size_t)nw * 8, 1, 0);
#endif
}

/* ---- results --------------------------------------------------------------------------------- */

/* append a new reference to a list (the reference is stolen; NULL: an error already set): 0, or -1 */
static inline int list_add(PyObject *list, PyObject *item) {
    if (!item) return -1;
    int r = PyList_Append(list, item);
    Py_DECREF(item);
    return r;
}

/* set a dict item from new references (both stolen; NULL: an error already set): 0, or -1 */
static inline int dict_add(PyObject *dict, PyObject *key, PyObject *value) {
    int r = key && value ? PyDict_SetItem(dict, key, value) : -1;
    Py_XDECREF(key);
    Py_XDECREF(value);
    return r;
}

/* the k ints as a tuple (or a list), or NULL with the error set */
static inline PyObject *ints_to_py(const int *xs, int k, int as_tuple) {
    PyObject *out = as_tuple ? PyTuple_New(k) : PyList_New(k);
    for (int j = 0; out && j < k; j++) {
        PyObject *x = PyLong_FromLong(xs[j]);
        if (!x) Py_CLEAR(out);
        else if (as_tuple) PyTuple_SET_ITEM(out, j, x);
        else PyList_SET_ITEM(out, j, x);
    }
    return out;
}

/* ---- growth ------------------------------------------------------------------------------------ */

/* ``arr`` (of *cap items of ``size`` bytes) twice as large (``first`` items if it has none):
 * the new array (*cap updated), or NULL with MemoryError set and ``arr`` left as it was */
static inline void *grown(void *arr, int *cap, int first, size_t size) {
    int c = *cap ? 2 * *cap : first;
    void *p = realloc(arr, size * (size_t)c);
    if (!p) return PyErr_NoMemory();
    *cap = c;
    return p;
}

/* ---- module ------------------------------------------------------------------------------------ */

/* the definition (``module``) of a single-phase module whose functions are ``methods`` */
#define CORE_MODULE(name, doc) \
    static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, name, doc, -1, methods, NULL, NULL, NULL, NULL}

#endif
