/* The smallest compiled module: tells the Python side the extension built and
 * which cell-set layout it uses (explainer.core.compiled_info). The search and
 * propagation modules live beside it, each its own extension; the three share
 * their CPython glue (glue.h). */
#include "glue.h"

static PyObject *info(PyObject *self, PyObject *args) {
    (void)self; (void)args;
    return Py_BuildValue("{s:i,s:i}", "max_words", CS_MAXWORDS, "max_cells", CS_MAXCELLS);
}

static PyMethodDef methods[] = {
    {"info", info, METH_NOARGS, "The compiled core's cell-set layout."},
    {NULL, NULL, 0, NULL},
};

CORE_MODULE("_probe", "Compiled core probe.");

PyMODINIT_FUNC PyInit__probe(void) { return PyModule_Create(&module); }
