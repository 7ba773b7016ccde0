/* The compiled palette lookup of the frames' pixels, after drawing (render/workers.py).
 *
 * explainer/core/pixels.py is the pure twin and says what ``quantize`` returns;
 * tests/core/test_pixels.py checks both return the same bytes.
 *
 * An RGBA/RGBX frame's palette indices through a table of 2^18 entries indexed by the top
 * six bits of red, green and blue: Pillow's own palette lookup (its cache slots are those
 * six bits, each slot's entry the nearest palette colour to the slot's corner) made into a
 * table once per palette. A frame is long runs of one colour: four pixels equal to the
 * last one looked up (all four bytes) take its index at once, a pixel of the same RGB
 * without a lookup. The rows can start with a zero byte each:
 * the PNG filter byte ("None"), so that the PNG writer compresses them as they are.
 *
 * The source is read through the buffer protocol (the canvas's own memory, no copy).
 */
#include "glue.h"

#define LUT_SIZE (1 << 18)

PyDoc_STRVAR(quantize_doc,
"quantize(src, width, height, stride, lut, filtered) -> bytes\n\n"
"The palette index of each pixel of ``src`` (4 bytes a pixel, rows ``stride`` bytes apart):\n"
"lut[(r >> 2) | (g >> 2) << 6 | (b >> 2) << 12], row by row, each row after a zero byte when\n"
"``filtered`` (PNG's filter byte): ``(width + filtered) * height`` bytes.");

static PyObject *py_quantize(PyObject *self, PyObject *args) {
    Py_buffer src, lut;
    Py_ssize_t w, h, stride;
    int filtered;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*nnny*p", &src, &w, &h, &stride, &lut, &filtered)) return NULL;
    PyObject *out = NULL;
    if (w < 0 || h < 0 || stride < 4 * w || (h > 0 && src.len < stride * (h - 1) + 4 * w) || lut.len != LUT_SIZE) {
        PyErr_SetString(PyExc_ValueError, "quantize: the source is smaller than its size, or the table is not 2^18 bytes");
        goto done;
    }
    Py_ssize_t pitch = w + (filtered ? 1 : 0);
    out = PyBytes_FromStringAndSize(NULL, pitch * h);
    if (out == NULL) goto done;
    {
        const uint8_t *table = (const uint8_t *)lut.buf;
        uint8_t *o = (uint8_t *)PyBytes_AS_STRING(out);
        Py_BEGIN_ALLOW_THREADS
        uint32_t last = 0xffffffffu;  /* the last pixel looked up (its RGB bytes), and its index */
        uint8_t last4[16] = {0};  /* four copies of the last pixel's four bytes, once one is seen */
        int have4 = 0;
        uint8_t index = 0;
        for (Py_ssize_t y = 0; y < h; y++) {
            const uint8_t *p = (const uint8_t *)src.buf + y * stride;
            uint8_t *row = o + y * pitch;
            if (filtered) *row++ = 0;
            Py_ssize_t x = 0;
            while (x < w) {
                /* a frame is long runs of one colour: four pixels at once equal to the last one */
                if (have4 && x + 4 <= w && memcmp(p, last4, 16) == 0) {
                    memset(row + x, index, 4);
                    x += 4;
                    p += 16;
                    continue;
                }
                uint32_t v = p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16;  /* the fourth byte dropped */
                if (v != last) {
                    last = v;
                    index = table[(p[0] >> 2) | (uint32_t)(p[1] >> 2) << 6 | (uint32_t)(p[2] >> 2) << 12];
                    for (int k = 0; k < 16; k += 4) memcpy(last4 + k, p, 4);
                    have4 = 1;
                }
                row[x++] = index;
                p += 4;
            }
        }
        Py_END_ALLOW_THREADS
    }
done:
    PyBuffer_Release(&src);
    PyBuffer_Release(&lut);
    return out;
}

static PyMethodDef methods[] = {
    {"quantize", py_quantize, METH_VARARGS, quantize_doc},
    {NULL, NULL, 0, NULL}};

CORE_MODULE("_pixels", "Compiled inner loops of the frames' pixels: palette lookup, area average.");

PyMODINIT_FUNC PyInit__pixels(void) { return PyModule_Create(&module); }
