/* The compiled palette lookup of the frames' pixels, after drawing (render/workers.py).
 *
 * explainer/core/pixels.py is the pure twin and says what ``quantize`` returns;
 * tests/core/test_pixels.py checks both return the same bytes.
 *
 * An RGBA/RGBX frame's palette indices through a table of 2^18 entries indexed by the top
 * six bits of red, green and blue: Pillow's own palette lookup (its cache slots are those
 * six bits, each slot's entry the nearest palette colour to the slot's corner) made into a
 * table once per palette. A frame is long runs of one colour: sixteen pixels of one colour
 * take one index (looked up again only when the colour is not the last such run's), the
 * others are looked up one by one, without a branch (a test per pixel cost more in
 * mispredicted branches at the digits' anti-aliased edges than the lookups it saved: a 25x25
 * frame 6.3 -> 3.4 ms). The rows can start with a zero byte each:
 * the PNG filter byte ("None"), so that the PNG writer compresses them as they are.
 *
 * The source is read through the buffer protocol (the canvas's own memory, no copy).
 */
#include "glue.h"

#include <math.h>

#define LUT_SIZE (1 << 18)

/* The reductions' widened loops built twice, for AVX2 and for any x86-64, the one the CPU takes
 * chosen when the module loads (GCC's function clones, resolved by glibc's ifunc): a 25x25
 * frame's rows and tile 7.1 -> 6.7 ms. Elsewhere (another compiler, C library or CPU) built
 * once, as written. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__) && defined(__GLIBC__)
#define WIDE __attribute__((target_clones("avx2", "default")))
#else
#define WIDE
#endif

PyDoc_STRVAR(quantize_doc,
"quantize(src, width, height, stride, lut, filtered, layer=None, layer_rows=None, dirty=None, todo=None, out=None,\n"
"         kept=False, restore=False) -> bytes\n\n"
"The palette index of each pixel of ``src`` (4 bytes a pixel, rows ``stride`` bytes apart):\n"
"lut[(r >> 2) | (g >> 2) << 6 | (b >> 2) << 12], row by row, each row after a zero byte when\n"
"``filtered`` (PNG's filter byte): ``(width + filtered) * height`` bytes. With ``layer`` (pixels\n"
"laid out as ``src``'s) and ``layer_rows`` (its indices, as returned here): a chunk of 16 pixels\n"
"equal to the layer's takes ``layer_rows``' indices (the same ones), and ``dirty`` (a writable\n"
"buffer, ceil(width / 16) bytes a row) gets 0 for it, 1 for a chunk that differs. With ``todo``\n"
"(laid out as ``dirty``; the layer's three arguments given): a chunk it marks 0 is known to be the\n"
"layer's (nothing was drawn there): it takes the layer's indices and 0 in ``dirty``, its pixels\n"
"not read. ``out``: a writable buffer of the rows' size written and returned instead of new bytes;\n"
"``kept``: it holds ``layer_rows`` already but in the chunks ``dirty`` marks (the last call's, over\n"
"this layer into this buffer): only those and the chunks looked up are written. The same rows.\n"
"``restore`` (over a layer): ``src`` (then writable) made the layer again, row by row once its\n"
"row is looked up: the chunks ``dirty`` marks copied back from ``layer`` while both are in the\n"
"cache (``restore``'s work, done here; ``dirty`` is left as it is).");

/* The run state of a palette lookup, carried from row to row: the colour of the last chunk of
 * sixteen pixels (its four bytes, once one is seen) and its index. It only saves work: the
 * indices are the table's whatever the state. */
typedef struct {
    uint32_t last;
    int seen;
    uint8_t index;
} Runs;

static inline uint8_t lookup(const uint8_t *table, const uint8_t *p) {
    return table[(p[0] >> 2) | (uint32_t)(p[1] >> 2) << 6 | (uint32_t)(p[2] >> 2) << 12];
}

#define CHUNK 16  /* pixels: a frame row is read a chunk at a time */

/* whether any of ``n`` bytes (a row of a map of chunks) is set: eight at a time */
static inline int any_set(const uint8_t *p, Py_ssize_t n) {
    uint64_t acc = 0;
    Py_ssize_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t v;
        memcpy(&v, p + i, 8);
        acc |= v;
    }
    for (; i < n; i++) acc |= p[i];
    return acc != 0;
}

/* the runs of chunks ``map`` marks (``chunks`` of a row of ``w`` items, the last partial) copied
 * from ``src`` into ``dst``, ``unit`` bytes an item: a run at once */
static void copy_marked(uint8_t *dst, const uint8_t *src, const uint8_t *map, Py_ssize_t chunks, Py_ssize_t w,
                        int unit) {
    for (Py_ssize_t j = 0; j < chunks;) {
        if (!map[j]) {
            j++;
            continue;
        }
        Py_ssize_t end = j + 1;
        while (end < chunks && map[end]) end++;
        Py_ssize_t x0 = CHUNK * j, x1 = CHUNK * end < w ? CHUNK * end : w;
        memcpy(dst + unit * x0, src + unit * x0, (size_t)(unit * (x1 - x0)));
        j = end;
    }
}

/* sixteen pixels of one colour (all four bytes: eight 64-bit words against the first pixel
 * twice, no branch between them) take one index; else each is looked up, no branch */
static inline void quantize_chunk(Runs *s, const uint8_t *p, const uint8_t *table, uint8_t *out) {
    uint32_t one;
    memcpy(&one, p, 4);
    uint64_t two = (uint64_t)one | (uint64_t)one << 32, d = 0;
    for (int k = 0; k < 8; k++) {
        uint64_t v;
        memcpy(&v, p + 8 * k, 8);
        d |= v ^ two;
    }
    if (d == 0) {
        if (!s->seen || one != s->last) {
            s->last = one;
            s->seen = 1;
            s->index = lookup(table, p);
        }
        memset(out, s->index, CHUNK);
        return;
    }
    for (int k = 0; k < CHUNK; k++) out[k] = lookup(table, p + 4 * k);
}

static void quantize_row(Runs *s, const uint8_t *p, Py_ssize_t w, const uint8_t *table, uint8_t *row) {
    Py_ssize_t x = 0;
    for (; x + CHUNK <= w; x += CHUNK, p += 4 * CHUNK) quantize_chunk(s, p, table, row + x);
    for (; x < w; x++, p += 4) row[x] = lookup(table, p);
}

/* ``quantize_row`` of a frame drawn over a layer (the pixels the canvas held before the frame's
 * own shapes were drawn; ``lrow``: the layer row's indices): a chunk whose 64 bytes are the
 * layer's takes the layer's indices and is marked 0 in ``dirty`` (a byte a chunk, the last one
 * partial), another is looked up and marked 1. A frame differs from its layer in a few chunks
 * (5 % of a 25x25 frame's, 6.5 % of a 16x16 one's): the next frame puts back only those. */
static void quantize_row_over(Runs *s, const uint8_t *p, const uint8_t *lp, const uint8_t *lrow, Py_ssize_t w,
                              const uint8_t *table, uint8_t *row, uint8_t *dirty, const uint8_t *todo, int kept) {
    Py_ssize_t x = 0, j = 0;
    for (; x + CHUNK <= w; x += CHUNK, p += 4 * CHUNK, lp += 4 * CHUNK, j++) {
        if (todo != NULL && !todo[j]) {  /* nothing drawn there: the layer's, unread */
            if (!kept || dirty[j]) memcpy(row + x, lrow + x, CHUNK);
            dirty[j] = 0;
            continue;
        }
#if defined(__GNUC__)
        __builtin_prefetch(p + 4 * CHUNK * 4);  /* the chunks ahead: few are read, the prefetcher misses them */
        __builtin_prefetch(lp + 4 * CHUNK * 4);
#endif
        uint64_t d = 0;
        for (int k = 0; k < 8; k++) {
            uint64_t v, l;
            memcpy(&v, p + 8 * k, 8);
            memcpy(&l, lp + 8 * k, 8);
            d |= v ^ l;
        }
        dirty[j] = d != 0;
        if (d == 0)
            memcpy(row + x, lrow + x, CHUNK);
        else
            quantize_chunk(s, p, table, row + x);
    }
    if (x < w) {
        int was = dirty[j];
        dirty[j] = (todo == NULL || todo[j]) && memcmp(p, lp, (size_t)(4 * (w - x))) != 0;
        if (!dirty[j] && (!kept || was))
            memcpy(row + x, lrow + x, (size_t)(w - x));
        else
            for (; x < w; x++, p += 4) row[x] = lookup(table, p);
    }
}

/* The layer arguments of ``quantize`` and ``quantize_tile``: all three given or all None. */
typedef struct {
    Py_buffer layer, rows, dirty, todo, out;
    int given, has_todo, has_out, kept;
    Py_ssize_t chunks;  /* a row's chunks, the last one partial */
} Over;

static int over_args(Over *o, PyObject *layer, PyObject *rows, PyObject *dirty, PyObject *todo, PyObject *out,
                     int kept, Py_ssize_t w, Py_ssize_t h, Py_ssize_t stride, Py_ssize_t pitch) {
    o->given = o->has_todo = o->has_out = 0;
    o->kept = kept;
    o->chunks = (w + CHUNK - 1) / CHUNK;
    if (out != Py_None) {
        if (PyObject_GetBuffer(out, &o->out, PyBUF_WRITABLE) < 0) return 0;
        o->has_out = 1;
        if (o->out.len != pitch * h) {
            PyErr_SetString(PyExc_ValueError, "quantize: the rows' buffer (out) does not fit the frame");
            return 0;
        }
    }
    if (layer == Py_None && rows == Py_None && dirty == Py_None) {
        if (todo != Py_None || kept) {
            PyErr_SetString(PyExc_TypeError, "quantize: the chunks to look up (todo) or kept rows without a layer");
            return 0;
        }
        return 1;
    }
    if (kept && out == Py_None) {
        PyErr_SetString(PyExc_TypeError, "quantize: kept rows without their buffer (out)");
        return 0;
    }
    if (layer == Py_None || rows == Py_None || dirty == Py_None) {
        PyErr_SetString(PyExc_TypeError, "quantize: a layer, its rows and a dirty map, all three or none");
        return 0;
    }
    if (PyObject_GetBuffer(layer, &o->layer, PyBUF_SIMPLE) < 0) return 0;
    if (PyObject_GetBuffer(rows, &o->rows, PyBUF_SIMPLE) < 0) {
        PyBuffer_Release(&o->layer);
        return 0;
    }
    if (PyObject_GetBuffer(dirty, &o->dirty, PyBUF_WRITABLE) < 0) {
        PyBuffer_Release(&o->layer);
        PyBuffer_Release(&o->rows);
        return 0;
    }
    o->given = 1;
    if ((h > 0 && o->layer.len < stride * (h - 1) + 4 * w) || o->rows.len != pitch * h || o->dirty.len != o->chunks * h) {
        PyErr_SetString(PyExc_ValueError, "quantize: the layer, its rows or the dirty map do not fit the frame");
        return 0;
    }
    if (todo != Py_None) {
        if (PyObject_GetBuffer(todo, &o->todo, PyBUF_SIMPLE) < 0) return 0;
        o->has_todo = 1;
        if (o->todo.len != o->chunks * h) {
            PyErr_SetString(PyExc_ValueError, "quantize: the chunks to look up (todo) do not fit the frame");
            return 0;
        }
    }
    return 1;
}

static void over_release(Over *o) {
    if (o->has_todo) PyBuffer_Release(&o->todo);
    if (o->has_out) PyBuffer_Release(&o->out);
    o->has_todo = o->has_out = 0;
    if (!o->given) return;
    PyBuffer_Release(&o->layer);
    PyBuffer_Release(&o->rows);
    PyBuffer_Release(&o->dirty);
    o->given = 0;
}

/* The writable view of ``src`` for ``restore``: the same memory as ``src`` (the canvas); 0 with an
 * error set when the layer is missing or ``src`` cannot be written. */
static int restore_args(Py_buffer *canvas, const Py_buffer *src, const Over *o) {
    if (!o->given) {
        PyErr_SetString(PyExc_TypeError, "quantize: restore without a layer");
        return 0;
    }
    if (src->obj == NULL || PyObject_GetBuffer(src->obj, canvas, PyBUF_WRITABLE) < 0) {
        PyErr_Clear();
        PyErr_SetString(PyExc_TypeError, "quantize: restore needs a writable source");
        return 0;
    }
    if (canvas->buf != src->buf || canvas->len != src->len) {
        PyBuffer_Release(canvas);
        PyErr_SetString(PyExc_ValueError, "quantize: restore: the source's writable view is not its memory");
        return 0;
    }
    return 1;
}

/* rows [y0, y1) of the canvas made the layer's again in the chunks ``dirty`` marks */
static void restore_rows(uint8_t *canvas, const Over *o, Py_ssize_t y0, Py_ssize_t y1, Py_ssize_t w,
                         Py_ssize_t stride) {
    const uint8_t *layer = (const uint8_t *)o->layer.buf, *map = (const uint8_t *)o->dirty.buf;
    for (Py_ssize_t y = y0; y < y1; y++) {
        const uint8_t *row = map + y * o->chunks;
        if (any_set(row, o->chunks)) copy_marked(canvas + y * stride, layer + y * stride, row, o->chunks, w, 4);
    }
}

/* frame row y into ``row`` (after its filter byte), over the layer when one is given */
static void quantize_line(Runs *s, const uint8_t *src, Py_ssize_t y, Py_ssize_t w, Py_ssize_t stride,
                          Py_ssize_t pitch, const uint8_t *table, uint8_t *row, const Over *o) {
    if (!o->given) {
        quantize_row(s, src + y * stride, w, table, row);
        return;
    }
    const uint8_t *lrow = (const uint8_t *)o->rows.buf + y * pitch + (pitch - w);
    uint8_t *dirty = (uint8_t *)o->dirty.buf + y * o->chunks;
    const uint8_t *todo = o->has_todo ? (const uint8_t *)o->todo.buf + y * o->chunks : NULL;
    if (todo != NULL && !any_set(todo, o->chunks)) {  /* a row drawn nowhere */
        if (!o->kept)
            memcpy(row, lrow, (size_t)w);
        else if (any_set(dirty, o->chunks))  /* the last frame's chunks put back */
            copy_marked(row, lrow, dirty, o->chunks, w, 1);
        memset(dirty, 0, (size_t)o->chunks);
        return;
    }
    quantize_row_over(s, src + y * stride, (const uint8_t *)o->layer.buf + y * stride, lrow, w, table, row, dirty,
                      todo, o->kept);
}

static int quantize_fits(const Py_buffer *src, Py_ssize_t w, Py_ssize_t h, Py_ssize_t stride, const Py_buffer *lut) {
    if (w < 0 || h < 0 || stride < 4 * w || (h > 0 && src->len < stride * (h - 1) + 4 * w) || lut->len != LUT_SIZE) {
        PyErr_SetString(PyExc_ValueError, "quantize: the source is smaller than its size, or the table is not 2^18 bytes");
        return 0;
    }
    return 1;
}

static PyObject *py_quantize(PyObject *self, PyObject *args) {
    Py_buffer src, lut;
    Py_ssize_t w, h, stride;
    int filtered;
    PyObject *layer = Py_None, *layer_rows = Py_None, *dirty = Py_None, *todo = Py_None, *out_arg = Py_None;
    int kept = 0, restore = 0;
    Over over = {0};
    Py_buffer canvas = {0};
    (void)self;
    if (!PyArg_ParseTuple(args, "y*nnny*p|OOOOOpp", &src, &w, &h, &stride, &lut, &filtered, &layer, &layer_rows, &dirty,
                          &todo, &out_arg, &kept, &restore))
        return NULL;
    PyObject *out = NULL;
    if (!quantize_fits(&src, w, h, stride, &lut)) goto done;
    Py_ssize_t pitch = w + (filtered ? 1 : 0);
    if (!over_args(&over, layer, layer_rows, dirty, todo, out_arg, kept, w, h, stride, pitch)) goto done;
    if (restore && !restore_args(&canvas, &src, &over)) goto done;
    if (over.has_out) {
        Py_INCREF(out_arg);
        out = out_arg;
    } else {
        out = PyBytes_FromStringAndSize(NULL, pitch * h);
        if (out == NULL) goto done;
    }
    {
        const uint8_t *table = (const uint8_t *)lut.buf;
        uint8_t *o = over.has_out ? (uint8_t *)over.out.buf : (uint8_t *)PyBytes_AS_STRING(out);
        Py_BEGIN_ALLOW_THREADS
        Runs runs = {0, 0, 0};
        for (Py_ssize_t y = 0; y < h; y++) {
            uint8_t *row = o + y * pitch;
            if (filtered) *row++ = 0;
            quantize_line(&runs, (const uint8_t *)src.buf, y, w, stride, pitch, table, row, &over);
            if (restore) restore_rows((uint8_t *)canvas.buf, &over, y, y + 1, w, stride);
        }
        Py_END_ALLOW_THREADS
    }
done:
    if (canvas.obj != NULL) PyBuffer_Release(&canvas);
    over_release(&over);
    PyBuffer_Release(&src);
    PyBuffer_Release(&lut);
    return out;
}

PyDoc_STRVAR(restore_doc,
"restore(dst, src, width, height, stride, dirty)\n\n"
"The chunks of 16 pixels (4 bytes a pixel, rows ``stride`` bytes apart, a row's last chunk\n"
"partial) that ``dirty`` marks (a byte a chunk, ``quantize``'s map over the layer ``src``)\n"
"copied from ``src`` into ``dst``: ``dst`` is then ``src`` again, if only those chunks differed.");

static PyObject *py_restore(PyObject *self, PyObject *args) {
    Py_buffer dst, src, dirty;
    Py_ssize_t w, h, stride;
    (void)self;
    if (!PyArg_ParseTuple(args, "w*y*nnny*", &dst, &src, &w, &h, &stride, &dirty)) return NULL;
    Py_ssize_t chunks = (w + CHUNK - 1) / CHUNK, need = h > 0 ? stride * (h - 1) + 4 * w : 0;
    PyObject *out = NULL;
    if (w < 0 || h < 0 || stride < 4 * w || dst.len < need || src.len < need || dirty.len != chunks * h) {
        PyErr_SetString(PyExc_ValueError, "restore: the buffers or the dirty map do not fit the size");
        goto done;
    }
    {
        uint8_t *d = (uint8_t *)dst.buf;
        const uint8_t *f = (const uint8_t *)src.buf, *map = (const uint8_t *)dirty.buf;
        Py_BEGIN_ALLOW_THREADS
        for (Py_ssize_t y = 0; y < h; y++) {
            const uint8_t *row = map + y * chunks;
            if (any_set(row, chunks))  /* most rows are not drawn on */
                copy_marked(d + y * stride, f + y * stride, row, chunks, w, 4);
        }
        Py_END_ALLOW_THREADS
    }
    Py_INCREF(Py_None);
    out = Py_None;
done:
    PyBuffer_Release(&dst);
    PyBuffer_Release(&src);
    PyBuffer_Release(&dirty);
    return out;
}

/* ---- the contact sheet's tile: Pillow's reduce, then its BOX resize ------------------------------
 *
 * ``tile`` gives the RGB bytes Pillow gives for (2 <= k <= 16)
 *     frame.reduce(k, box=(0, 0, width, rows)).resize((out_w, out_h), BOX, box=(0, 0, width / k, rows / k))
 * of an RGBX frame, the same bytes (tests/core/test_pixels.py compares them on real frames and
 * odd sizes), without the two intermediate RGBX images nor the fourth channel, the reduction
 * made only for the rows the resize reads. Pillow's rounding: a whole 2 x 2 block (s + 2) >> 2,
 * 4 x 4 (s + 8) >> 4, k x k else (s + k*k / 2) * m >> 24; the last column's and row's partial
 * blocks of n pixels (s + n / 2) * m >> 24 with
 * m = 2^32 / (256 n) worked out in single precision. The resize's bounds and 22-bit fixed-point
 * weights are worked out by the caller as Pillow works them out (``pixels.box_plan``) and
 * applied here as Pillow applies them: the horizontal pass, then the vertical one.
 */
static uint32_t reduce_multiplier(int n) {
    float max_int = 4294967296.0f;
    uint32_t max_dividend = (uint32_t)256 * (uint32_t)n;
    return (uint32_t)(max_int / (float)max_dividend);
}

static inline uint8_t clip22(int32_t ss) {
    int32_t v = ss >> 22;
    return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
}

/* A whole 2 x 2 block's sums (two pixels of two rows added, four 16-bit lanes each) added and
 * halved twice, lane by lane, as Pillow rounds a whole block: (s + 2) >> 2 */
static inline uint32_t halve2(const uint16_t *sum) {
    uint64_t s0, s1;
    memcpy(&s0, sum, 8);
    memcpy(&s1, sum + 4, 8);
    uint64_t s = ((s0 + s1 + 0x0002000200020002ull) >> 2) & 0x00ff00ff00ff00ffull;
    s = (s | s >> 8) & 0x0000ffff0000ffffull;
    return (uint32_t)(s | s >> 16);  /* either byte order: the lanes keep theirs */
}

static WIDE void reduce_row2(const uint8_t *restrict base, Py_ssize_t w, Py_ssize_t stride, Py_ssize_t rows,
                             Py_ssize_t ry, uint8_t *restrict q, Py_ssize_t rw, uint16_t *restrict sum) {
    /* 4 bytes a reduced pixel (the fourth unused); a whole 2 x 2 block: the two rows summed
     * byte by byte (one plain loop the compiler widens), then two pixels' four 16-bit sums
     * added at once in a 64-bit word and halved twice, lane by lane */
    uint32_t m2 = reduce_multiplier(2), m1 = reduce_multiplier(1);
    Py_ssize_t pairs = w / 2;
    Py_ssize_t y0 = ry * 2, rx = 0;
    const uint8_t *restrict a = base + y0 * stride;
    if (y0 + 1 < rows) {
        const uint8_t *restrict b = a + stride;
        for (Py_ssize_t i = 0; i < 8 * pairs; i++) sum[i] = (uint16_t)(a[i] + b[i]);
        for (; rx < pairs; rx++) {
            uint32_t v = halve2(sum + 8 * rx);
            memcpy(q + 4 * rx, &v, 4);
        }
        if (rx < rw) {  /* the last column, one pixel wide */
            const uint8_t *p = a + rx * 8, *r = b + rx * 8;
            for (int c = 0; c < 3; c++) q[4 * rx + c] = (uint8_t)(((p[c] + r[c] + 1u) * m2) >> 24);
        }
    } else {  /* the last row, one pixel high */
        for (; 2 * rx + 1 < w; rx++) {
            const uint8_t *p = a + rx * 8;
            for (int c = 0; c < 3; c++) q[4 * rx + c] = (uint8_t)(((p[c] + p[4 + c] + 1u) * m2) >> 24);
        }
        if (rx < rw) {
            const uint8_t *p = a + rx * 8;
            for (int c = 0; c < 3; c++) q[4 * rx + c] = (uint8_t)(((uint32_t)p[c] * m1) >> 24);
        }
    }
}

/* A block of n pixels' channel sum ``s`` rounded as Pillow's reduce by k rounds it: a whole 2 x 2
 * block (s + 2) >> 2, a whole 4 x 4 one (s + 8) >> 4, any other (s + n / 2) * m >> 24 with
 * m = reduce_multiplier(n) (given: worked out once a row for whole blocks) */
static inline uint8_t block_mean(uint32_t s, uint32_t n, int k, uint32_t m) {
    if (k == 2 && n == 4) return (uint8_t)((s + 2) >> 2);
    if (k == 4 && n == 16) return (uint8_t)((s + 8) >> 4);
    return (uint8_t)(((s + n / 2) * m) >> 24);
}

/* the same for a reduction by 2 < k <= 16: the reduced row's k input rows summed column by
 * column (``acc``, 16 bits a byte: k * k * 255 < 2^16; the first row copied, the others added: a
 * plain loop the compiler widens), then k columns at a time, a column's four sums added at once
 * as one 64-bit word; Pillow's rounding for whole blocks ((s + 8) >> 4 for k = 4, else
 * (s + k*k/2) * m(k*k) >> 24) and for partial ones */
static WIDE void reduce_row_k(const uint8_t *restrict base, Py_ssize_t w, Py_ssize_t stride, Py_ssize_t rows, int k,
                              Py_ssize_t ry, uint8_t *restrict q, Py_ssize_t rw, uint16_t *restrict acc) {
    uint32_t whole_m = reduce_multiplier(k * k);
    Py_ssize_t y0 = ry * k, y1 = y0 + k < rows ? y0 + k : rows;
    const uint8_t *restrict p0 = base + y0 * stride;
    for (Py_ssize_t i = 0; i < 4 * w; i++) acc[i] = p0[i];
    for (Py_ssize_t y = y0 + 1; y < y1; y++) {
        const uint8_t *restrict p = base + y * stride;
        for (Py_ssize_t i = 0; i < 4 * w; i++) acc[i] = (uint16_t)(acc[i] + p[i]);
    }
    int bh = (int)(y1 - y0);
    for (Py_ssize_t rx = 0; rx < rw; rx++) {
        Py_ssize_t x0 = rx * k, x1 = x0 + k < w ? x0 + k : w;
        uint64_t s = 0, v;
        for (Py_ssize_t x = x0; x < x1; x++) {
            memcpy(&v, acc + 4 * x, 8);
            s += v;  /* four 16-bit lanes: no carry from one to the next */
        }
        uint16_t lanes[4];
        memcpy(lanes, &s, 8);
        uint32_t s0 = lanes[0], s1 = lanes[1], s2 = lanes[2];
        int n = (int)(x1 - x0) * bh;
        uint32_t m = n == k * k ? whole_m : reduce_multiplier(n);
        q[4 * rx] = block_mean(s0, (uint32_t)n, k, m);
        q[4 * rx + 1] = block_mean(s1, (uint32_t)n, k, m);
        q[4 * rx + 2] = block_mean(s2, (uint32_t)n, k, m);
    }
}

/* Reduced row ``ry`` by 2 <= k <= 16 into ``q`` (4 bytes a pixel); ``room``: 4 w sums of room. */
static void reduce_row(const uint8_t *restrict base, Py_ssize_t w, Py_ssize_t stride, Py_ssize_t rows, int k,
                       Py_ssize_t ry, uint8_t *restrict q, Py_ssize_t rw, uint16_t *restrict room) {
    if (k == 2)
        reduce_row2(base, w, stride, rows, ry, q, rw, room);
    else
        reduce_row_k(base, w, stride, rows, k, ry, q, rw, room);
}

/* One reduced pixel alone, rows [y0, y1) and columns [x0, x1) of a reduction by k summed and
 * rounded as the two functions above round them (``block_mean``: the same bytes). */
static void reduce_block(const uint8_t *restrict base, Py_ssize_t stride, Py_ssize_t x0, Py_ssize_t x1,
                         Py_ssize_t y0, Py_ssize_t y1, int k, uint8_t *restrict q) {
    uint32_t s[3] = {0, 0, 0};
    for (Py_ssize_t y = y0; y < y1; y++) {
        const uint8_t *p = base + y * stride + 4 * x0;
        for (Py_ssize_t x = 0; x < x1 - x0; x++, p += 4) s[0] += p[0], s[1] += p[1], s[2] += p[2];
    }
    uint32_t n = (uint32_t)((x1 - x0) * (y1 - y0)), m = reduce_multiplier((int)n);
    for (int c = 0; c < 3; c++) q[c] = block_mean(s[c], n, k, m);
}

/* Reduced row ``ry`` of a frame drawn over a layer whose whole reduction is known (``lred``: rw
 * pixels a row, 4 bytes a pixel, the reduced rows from 0): a reduced pixel whose block lies in
 * chunks the frame did not draw on (``dirty``, ``chunks`` a frame row: ``quantize_row_over``'s
 * map of the block's rows) is the layer's; the others are reduced alone. ``any``: ``chunks``
 * bytes of room. */
static int block_rows_dirty(const uint8_t *restrict dirty, Py_ssize_t chunks, Py_ssize_t rows, int k, Py_ssize_t ry,
                            uint8_t *restrict any) {
    Py_ssize_t y0 = ry * k, y1 = y0 + k < rows ? y0 + k : rows;
    memset(any, 0, (size_t)chunks);
    for (Py_ssize_t y = y0; y < y1; y++) {
        const uint8_t *restrict d = dirty + y * chunks;
        for (Py_ssize_t j = 0; j < chunks; j++) any[j] |= d[j];
    }
    return any_set(any, chunks);
}

/* ``any``: ``block_rows_dirty``'s map of the reduced row's chunks */
static void reduce_row_over(const uint8_t *restrict base, Py_ssize_t w, Py_ssize_t stride, Py_ssize_t rows, int k,
                            Py_ssize_t ry, uint8_t *restrict q, Py_ssize_t rw, const uint8_t *restrict lred,
                            const uint8_t *restrict any) {
    Py_ssize_t y0 = ry * k, y1 = y0 + k < rows ? y0 + k : rows;
    const uint8_t *restrict from = lred + ry * rw * 4;
    Py_ssize_t rx = 0;
    if (k == 2 && y1 - y0 == 2) {  /* a chunk's eight whole blocks at a time */
        const uint8_t *restrict a = base + y0 * stride, *restrict b = a + stride;
        for (Py_ssize_t j = 0; j < w / CHUNK; j++, rx += CHUNK / 2) {
            if (!any[j]) {
                memcpy(q + 4 * rx, from + 4 * rx, 4 * CHUNK / 2);
                continue;
            }
            uint16_t sum[4 * CHUNK];
            const uint8_t *restrict pa = a + 4 * CHUNK * j, *restrict pb = b + 4 * CHUNK * j;
            for (int i = 0; i < 4 * CHUNK; i++) sum[i] = (uint16_t)(pa[i] + pb[i]);
            for (int i = 0; i < CHUNK / 2; i++) {
                uint32_t v = halve2(sum + 8 * i);
                memcpy(q + 4 * (rx + i), &v, 4);
            }
        }
    }
    for (; rx < rw; rx++) {
        Py_ssize_t x0 = rx * k, x1 = x0 + k < w ? x0 + k : w;
        if (!(any[x0 / CHUNK] | any[(x1 - 1) / CHUNK]))  /* k <= 16: at most two chunks */
            memcpy(q + 4 * rx, from + 4 * rx, 4);
        else
            reduce_block(base, stride, x0, x1, y0, y1, k, q + 4 * rx);
    }
}

/* A resize axis whose every output pixel weighs a run of consecutive input pixels equally (its
 * other weights zero): the BOX filter's always. Then Pillow's sum of products is the run's sum
 * times the one weight, the same integer: ``start``, ``count`` and ``weight`` per output pixel.
 * 0 when some pixel's weights differ (the general pass is used). */
static int uniform_axis(const int32_t *bo, const int32_t *kk, Py_ssize_t n, Py_ssize_t ks,
                        int32_t *start, int32_t *count, int32_t *weight) {
    for (Py_ssize_t i = 0; i < n; i++) {
        const int32_t *k = kk + i * ks;
        int32_t c = bo[2 * i + 1], a = -1, b = -1;
        for (int32_t j = 0; j < c; j++) {
            if (k[j] == 0) continue;
            if (a < 0) a = j;
            else if (b != j - 1 || k[j] != k[a]) return 0;  /* a gap, or another weight */
            b = j;
        }
        if (a >= 0 && b - a + 1 > 257) return 0;  /* a run's sum must fit 16 bits (257 x 255) */
        start[i] = bo[2 * i] + (a < 0 ? 0 : a);
        count[i] = a < 0 ? 0 : b - a + 1;
        weight[i] = a < 0 ? 0 : k[a];
    }
    return 1;
}

/* d when ``weight`` is 2^(22 - d), 0 <= d <= 22, else -1: (2^21 + s * weight) >> 22 is then
 * (s + 2^(d - 1)) >> d (s for d = 0), the same number without a multiplication */
static int down_shift(int32_t weight) {
    for (int d = 0; d <= 22; d++)
        if (weight == (int32_t)1 << (22 - d)) return d;
    return -1;
}

PyDoc_STRVAR(tile_doc,
"tile(src, width, stride, k, rows, xbounds, xweights, xksize, ybounds, yweights, yksize, out_w, out_h, lut=None,\n"
"     passed=None) -> bytes\n\n"
"The RGB bytes (out_w x out_h) of an RGBX frame (``src``, rows ``stride`` bytes apart) reduced by 2 <= k <= 16\n"
"over its top ``rows`` rows, then resampled with the given bounds (int32 pairs: first pixel,\n"
"count) and int32 weights (``xksize`` / ``yksize`` per output pixel): Pillow's reduce and BOX\n"
"resize (``explainer.core.pixels.box_plan`` works the bounds and weights out). With ``lut``\n"
"(``quantize``'s table of 2^18 palette indices): the tile's palette indices instead, a byte a pixel.\n"
"``passed``: a writable buffer given the horizontal pass (3 bytes a pixel, ``out_w`` a row, the\n"
"reduced rows the vertical pass reads): a layer's, for ``quantize_tile`` over that layer.");

/* A tile being made: its arguments, the memory it works in, its plan. ``tile_fits`` checks the
 * arguments, ``tile_alloc`` takes the memory, ``tile_plan`` finds the shortcuts of a BOX plan,
 * ``tile_row`` reduces one row of the frame and resamples it across (any order of rows, each
 * once: ``quantize_tile`` makes each as soon as its frame rows are read), ``tile_finish``
 * resamples down into ``o``, ``tile_free`` gives the memory back. */
typedef struct {
    const uint8_t *base;
    Py_ssize_t w, stride, rows, xks, yks, ow, oh, rw, first, last, span;
    int k, xuni, yuni;
    const int32_t *xbo, *xkk, *ybo, *ykk;
    const uint8_t *table;  /* given: the tile's palette indices (``quantize``'s table), not its RGB */
    uint8_t *red, *tmp, *rgbrow;
    int32_t *vs, *plan;
    uint16_t *acc, *sum, *col;
    /* over a layer (``quantize_tile``'s): the dirty map being filled, a row's chunks, the
     * layer's whole reduction, room for a reduced row's chunks; else NULL */
    const uint8_t *dirty, *lred;
    Py_ssize_t chunks;
    uint8_t *any;
    /* over a layer whose horizontal pass and tile are given too (``quantize_tile``'s
     * ``layer_passed``, ``layer_tile``): a resampled pixel whose inputs lie in chunks the frame
     * did not draw on is the layer's; ``chg`` marks the others (a byte a pixel of the pass),
     * ``rowchg`` its rows holding any; else NULL. */
    const uint8_t *ltmp, *ltile;
    uint8_t *chg, *rowchg;
    /* the resampled pixels each chunk of a frame row feeds: [xlo[j], xhi[j]) (windows are in
     * order, so a chunk's pixels are a run); ``colany``: a row of the vertical pass's changes */
    int32_t *xlo, *xhi;
    uint8_t *colany;
} Tile;

static int tile_fits(Tile *t, const Py_buffer *src, const Py_buffer *xb, const Py_buffer *xk, const Py_buffer *yb,
                     const Py_buffer *yk) {
    Py_ssize_t k = t->k, w = t->w, rows = t->rows, ow = t->ow, oh = t->oh, xks = t->xks, yks = t->yks;
    t->xbo = (const int32_t *)xb->buf, t->xkk = (const int32_t *)xk->buf;
    t->ybo = (const int32_t *)yb->buf, t->ykk = (const int32_t *)yk->buf;
    t->rw = k >= 2 ? (w + k - 1) / k : 0;
    Py_ssize_t rh = k >= 2 ? (rows + k - 1) / k : 0;
    t->span = ow * 3;
    int ok = k >= 2 && k <= 16 && w > 0 && rows > 0 && ow > 0 && oh > 0 && xks > 0 && yks > 0 && t->stride >= 4 * w
             && src->len >= t->stride * (rows - 1) + 4 * w
             && xb->len == 8 * ow && xk->len == 4 * ow * xks && yb->len == 8 * oh && yk->len == 4 * oh * yks;
    if (ok) {  /* the reduced rows the vertical pass reads: [first, last) */
        const int32_t *xbo = t->xbo, *ybo = t->ybo;
        t->first = ybo[0];
        t->last = (Py_ssize_t)ybo[2 * (oh - 1)] + ybo[2 * (oh - 1) + 1];
        ok = t->first >= 0 && t->last <= rh && t->last > t->first;
        for (Py_ssize_t i = 0; i < ow && ok; i++)
            ok = xbo[2 * i] >= 0 && xbo[2 * i + 1] >= 0 && xbo[2 * i + 1] <= xks && xbo[2 * i] + xbo[2 * i + 1] <= t->rw;
        for (Py_ssize_t i = 0; i < oh && ok; i++)
            ok = ybo[2 * i] >= t->first && ybo[2 * i + 1] >= 0 && ybo[2 * i + 1] <= yks
                 && (Py_ssize_t)ybo[2 * i] + ybo[2 * i + 1] <= t->last;
    }
    if (!ok) PyErr_SetString(PyExc_ValueError, "tile: sizes, bounds or weights do not fit the frame");
    return ok;
}

static int tile_alloc(Tile *t) {
    Py_ssize_t w = t->w, ow = t->ow, oh = t->oh;
    t->red = (uint8_t *)PyMem_Calloc((size_t)t->rw, 4);  /* one reduced row, 4 bytes a pixel */
    t->tmp = (uint8_t *)PyMem_Malloc((size_t)(t->last - t->first) * (size_t)ow * 3);
    t->vs = (int32_t *)PyMem_Malloc((size_t)ow * 3 * sizeof(int32_t));
    t->acc = t->k > 2 ? (uint16_t *)PyMem_Malloc((size_t)w * 4 * sizeof(uint16_t)) : NULL;
    t->sum = t->k == 2 ? (uint16_t *)PyMem_Malloc((size_t)w * 4 * sizeof(uint16_t)) : NULL;
    t->col = (uint16_t *)PyMem_Malloc((size_t)ow * 3 * sizeof(uint16_t));
    t->plan = (int32_t *)PyMem_Malloc((size_t)(4 * ow + 4 * oh) * sizeof(int32_t));
    t->rgbrow = t->table != NULL ? (uint8_t *)PyMem_Malloc((size_t)ow * 3) : NULL;
    if (t->red == NULL || t->tmp == NULL || t->vs == NULL || t->col == NULL || t->plan == NULL
        || (t->k > 2 && t->acc == NULL) || (t->k == 2 && t->sum == NULL) || (t->table != NULL && t->rgbrow == NULL)) {
        PyErr_NoMemory();
        return 0;
    }
    return 1;
}

static void tile_free(Tile *t) {
    PyMem_Free(t->red);
    PyMem_Free(t->tmp);
    PyMem_Free(t->vs);
    PyMem_Free(t->acc);
    PyMem_Free(t->sum);
    PyMem_Free(t->col);
    PyMem_Free(t->plan);
    PyMem_Free(t->rgbrow);
    PyMem_Free(t->any);
    PyMem_Free(t->chg);
    PyMem_Free(t->rowchg);
    PyMem_Free(t->xlo);
    PyMem_Free(t->xhi);
    PyMem_Free(t->colany);
}

static void tile_plan(Tile *t) {
    Py_ssize_t ow = t->ow, oh = t->oh;
    int32_t *xs = t->plan, *xc = xs + ow, *xw = xs + 2 * ow, *xd = xs + 3 * ow;
    int32_t *ys = xs + 4 * ow, *yc = ys + oh, *yw = ys + 2 * oh, *yd = ys + 3 * oh;
    t->xuni = uniform_axis(t->xbo, t->xkk, ow, t->xks, xs, xc, xw);
    t->yuni = uniform_axis(t->ybo, t->ykk, oh, t->yks, ys, yc, yw);
    for (Py_ssize_t xx = 0; xx < ow && t->xuni; xx++)  /* the weight 2^(22 - d): a shift by d */
        xd[xx] = down_shift(xw[xx]);
    for (Py_ssize_t yy = 0; yy < oh && t->yuni; yy++) yd[yy] = down_shift(yw[yy]);
    if (t->xlo != NULL) {  /* each chunk's run of resampled pixels */
        for (Py_ssize_t j = 0; j < t->chunks; j++) t->xlo[j] = (int32_t)ow, t->xhi[j] = 0;
        for (Py_ssize_t xx = 0; xx < ow; xx++) {
            Py_ssize_t a = t->xuni ? xs[xx] : t->xbo[2 * xx], n = t->xuni ? xc[xx] : t->xbo[2 * xx + 1];
            if (n <= 0) continue;
            Py_ssize_t c0 = a * t->k, c1 = (a + n) * t->k < t->w ? (a + n) * t->k : t->w;
            for (Py_ssize_t j = c0 / CHUNK; j <= (c1 - 1) / CHUNK; j++) {
                if (xx < t->xlo[j]) t->xlo[j] = (int32_t)xx;
                if (xx + 1 > t->xhi[j]) t->xhi[j] = (int32_t)(xx + 1);
            }
        }
    }
}

/* reduced row ``ry`` (first <= ry < last) made, then resampled across into ``tmp`` */
static void tile_row(Tile *t, Py_ssize_t ry) {
    Py_ssize_t ow = t->ow;
    const int32_t *xs = t->plan, *xc = xs + ow, *xw = xs + 2 * ow, *xd = xs + 3 * ow;
    uint8_t *restrict o = t->tmp + (ry - t->first) * t->span;
    uint8_t *chg = NULL;
    if (t->lred != NULL) {
        int any = block_rows_dirty(t->dirty, t->chunks, t->rows, t->k, ry, t->any);
        if (t->ltmp != NULL) {  /* the layer's pass, but the pixels the drawn chunks feed */
            chg = t->chg + (ry - t->first) * ow;
            t->rowchg[ry - t->first] = (uint8_t)any;
            memcpy(o, t->ltmp + (ry - t->first) * t->span, (size_t)t->span);
            memset(chg, 0, (size_t)ow);
            if (!any) return;  /* drawn nowhere in these rows */
            for (Py_ssize_t j = 0; j < t->chunks; j++)
                if (t->any[j] && t->xlo[j] < t->xhi[j]) memset(chg + t->xlo[j], 1, (size_t)(t->xhi[j] - t->xlo[j]));
        }
        reduce_row_over(t->base, t->w, t->stride, t->rows, t->k, ry, t->red, t->rw, t->lred, t->any);
    } else {
        reduce_row(t->base, t->w, t->stride, t->rows, t->k, ry, t->red, t->rw, t->k == 2 ? t->sum : t->acc);
    }
    const uint8_t *restrict in = t->red;
    if (t->xuni) {  /* a run of pixels summed, times its weight */
        for (Py_ssize_t xx = 0; xx < ow; xx++) {
            if (chg != NULL && !chg[xx]) continue;
            const uint8_t *restrict p = in + (Py_ssize_t)xs[xx] * 4;
            int32_t m = xc[xx], kw = xw[xx];
            int32_t s0 = 0, s1 = 0, s2 = 0;
            for (int32_t x = 0; x < m; x++) s0 += p[4 * x], s1 += p[4 * x + 1], s2 += p[4 * x + 2];
            int32_t d = xd[xx];
            if (d >= 0) {  /* a power-of-two weight: (s + half) >> d, the same number */
                int32_t half = d > 0 ? 1 << (d - 1) : 0;
                s0 = (s0 + half) >> d, s1 = (s1 + half) >> d, s2 = (s2 + half) >> d;
                o[3 * xx] = (uint8_t)(s0 > 255 ? 255 : s0);
                o[3 * xx + 1] = (uint8_t)(s1 > 255 ? 255 : s1);
                o[3 * xx + 2] = (uint8_t)(s2 > 255 ? 255 : s2);
                continue;
            }
            o[3 * xx] = clip22((1 << 21) + s0 * kw);
            o[3 * xx + 1] = clip22((1 << 21) + s1 * kw);
            o[3 * xx + 2] = clip22((1 << 21) + s2 * kw);
        }
        return;
    }
    for (Py_ssize_t xx = 0; xx < ow; xx++) {
        if (chg != NULL && !chg[xx]) continue;
        const int32_t *restrict kk = t->xkk + xx * t->xks;
        const uint8_t *restrict p = in + (Py_ssize_t)t->xbo[2 * xx] * 4;
        int32_t n = t->xbo[2 * xx + 1];
        int32_t s0 = 1 << 21, s1 = 1 << 21, s2 = 1 << 21;
        for (int32_t x = 0; x < n; x++) {
            int32_t kx = kk[x];
            s0 += p[4 * x] * kx;
            s1 += p[4 * x + 1] * kx;
            s2 += p[4 * x + 2] * kx;
        }
        o[3 * xx] = clip22(s0), o[3 * xx + 1] = clip22(s1), o[3 * xx + 2] = clip22(s2);
    }
}

/* one pixel of the vertical pass (column ``xx``), through the table: what ``tile_finish`` finds */
static uint8_t tile_pixel(const Tile *t, Py_ssize_t yy, Py_ssize_t xx) {
    Py_ssize_t ow = t->ow, oh = t->oh, span = t->span;
    const int32_t *ys = t->plan + 4 * ow, *yc = ys + oh, *yw = ys + 2 * oh, *yd = ys + 3 * oh;
    uint8_t rgb[3];
    if (t->yuni) {
        const uint8_t *p = t->tmp + (ys[yy] - t->first) * span + 3 * xx;
        int32_t m = yc[yy], kw = yw[yy], down = yd[yy];
        uint16_t c[3] = {0, 0, 0};
        for (int32_t y = 0; y < m; y++, p += span)
            for (int i = 0; i < 3; i++) c[i] = (uint16_t)(c[i] + p[i]);
        for (int i = 0; i < 3; i++) {
            if (down >= 0) {
                uint32_t half = down > 0 ? 1u << (down - 1) : 0, v = (c[i] + half) >> down;
                rgb[i] = (uint8_t)(v > 255 ? 255 : v);
            } else {
                rgb[i] = clip22((1 << 21) + (int32_t)c[i] * kw);
            }
        }
    } else {
        const int32_t *kk = t->ykk + yy * t->yks;
        int32_t ymin = t->ybo[2 * yy], n = t->ybo[2 * yy + 1];
        int32_t v[3] = {1 << 21, 1 << 21, 1 << 21};
        for (int32_t y = 0; y < n; y++) {
            const uint8_t *p = t->tmp + (ymin - t->first + y) * span + 3 * xx;
            for (int i = 0; i < 3; i++) v[i] += p[i] * kk[y];
        }
        for (int i = 0; i < 3; i++) rgb[i] = clip22(v[i]);
    }
    return t->table[(rgb[0] >> 2) | (uint32_t)(rgb[1] >> 2) << 6 | (uint32_t)(rgb[2] >> 2) << 12];
}

/* the vertical pass over a layer's tile (``ltile``): an output row whose input rows hold no
 * changed pixel is the layer's, another has only its changed columns worked out */
static void tile_finish_over(Tile *t, uint8_t *o) {
    Py_ssize_t ow = t->ow, oh = t->oh;
    const int32_t *ys = t->plan + 4 * ow, *yc = ys + oh;
    for (Py_ssize_t yy = 0; yy < oh; yy++) {
        Py_ssize_t a = t->yuni ? ys[yy] : t->ybo[2 * yy], n = t->yuni ? yc[yy] : t->ybo[2 * yy + 1];
        uint8_t *restrict ix = o + yy * ow;
        memcpy(ix, t->ltile + yy * ow, (size_t)ow);
        int any = 0;
        for (Py_ssize_t y = a; y < a + n; y++) any |= t->rowchg[y - t->first];
        if (!any) continue;
        uint8_t *restrict col = t->colany;  /* the columns changed in any of the window's rows */
        memset(col, 0, (size_t)ow);
        for (Py_ssize_t y = a; y < a + n; y++) {
            if (!t->rowchg[y - t->first]) continue;
            const uint8_t *restrict c = t->chg + (y - t->first) * ow;
            for (Py_ssize_t xx = 0; xx < ow; xx++) col[xx] |= c[xx];
        }
        for (Py_ssize_t xx = 0; xx < ow; xx++)
            if (col[xx]) ix[xx] = tile_pixel(t, yy, xx);
    }
}

/* the vertical pass, a weighted row at a time, into ``o``: RGB, or palette indices with a table */
static void tile_finish(Tile *t, uint8_t *o) {
    Py_ssize_t ow = t->ow, oh = t->oh, span = t->span;
    const int32_t *ys = t->plan + 4 * ow, *yc = ys + oh, *yw = ys + 2 * oh, *yd = ys + 3 * oh;
    const uint8_t *table = t->table;
    uint16_t *col = t->col;
    int32_t *vs = t->vs;
    if (t->ltile != NULL && table != NULL) {
        tile_finish_over(t, o);
        return;
    }
    for (Py_ssize_t yy = 0; yy < oh; yy++) {
        uint8_t *restrict line = table != NULL ? t->rgbrow : o + yy * span;
        if (t->yuni) {  /* a run of rows summed (16 bits a byte), times its weight */
            const uint8_t *restrict p = t->tmp + (ys[yy] - t->first) * span;
            int32_t m = yc[yy], kw = yw[yy];
            for (Py_ssize_t i = 0; i < span; i++) col[i] = 0;
            for (int32_t y = 0; y < m; y++, p += span)
                for (Py_ssize_t i = 0; i < span; i++) col[i] = (uint16_t)(col[i] + p[i]);
            int32_t down = yd[yy];
            if (down >= 0) {  /* a power-of-two weight (a run of 1, 2 or 4): a shift, no multiply */
                uint32_t half = down > 0 ? 1u << (down - 1) : 0;
                for (Py_ssize_t i = 0; i < span; i++) {
                    uint32_t v = (col[i] + half) >> down;
                    line[i] = (uint8_t)(v > 255 ? 255 : v);
                }
            } else {
                for (Py_ssize_t i = 0; i < span; i++) line[i] = clip22((1 << 21) + (int32_t)col[i] * kw);
            }
        } else {
            const int32_t *kk = t->ykk + yy * t->yks;
            int32_t ymin = t->ybo[2 * yy], n = t->ybo[2 * yy + 1];
            for (Py_ssize_t i = 0; i < span; i++) vs[i] = 1 << 21;
            for (int32_t y = 0; y < n; y++) {
                const uint8_t *restrict p = t->tmp + (ymin - t->first + y) * span;
                int32_t kw = kk[y];
                for (Py_ssize_t i = 0; i < span; i++) vs[i] += p[i] * kw;
            }
            for (Py_ssize_t i = 0; i < span; i++) line[i] = clip22(vs[i]);
        }
        if (table != NULL) {  /* the row's palette indices, as ``quantize`` finds them */
            uint8_t *restrict ix = o + yy * ow;
            for (Py_ssize_t x = 0; x < ow; x++)
                ix[x] = table[(line[3 * x] >> 2) | (uint32_t)(line[3 * x + 1] >> 2) << 6
                              | (uint32_t)(line[3 * x + 2] >> 2) << 12];
        }
    }
}

static int table_arg(PyObject *arg, Py_buffer *lut, const uint8_t **table) {
    if (arg == Py_None) return 1;
    if (PyObject_GetBuffer(arg, lut, PyBUF_SIMPLE) < 0) return 0;
    if (lut->len != LUT_SIZE) {
        PyErr_SetString(PyExc_ValueError, "tile: the palette table is not 2^18 bytes");
        return 0;
    }
    *table = (const uint8_t *)lut->buf;
    return 1;
}

static PyObject *py_tile(PyObject *self, PyObject *args) {
    Py_buffer src, xb, xk, yb, yk, lut = {0}, passed = {0};
    Tile t = {0};
    PyObject *lut_arg = Py_None, *out = NULL, *passed_arg = Py_None;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*nniny*y*ny*y*nnn|OO", &src, &t.w, &t.stride, &t.k, &t.rows, &xb, &xk, &t.xks,
                          &yb, &yk, &t.yks, &t.ow, &t.oh, &lut_arg, &passed_arg))
        return NULL;
    t.base = (const uint8_t *)src.buf;
    if (!tile_fits(&t, &src, &xb, &xk, &yb, &yk) || !table_arg(lut_arg, &lut, &t.table) || !tile_alloc(&t)) goto done;
    if (passed_arg != Py_None) {
        if (PyObject_GetBuffer(passed_arg, &passed, PyBUF_WRITABLE) < 0) goto done;
        if (passed.len != (t.last - t.first) * t.span) {
            PyErr_SetString(PyExc_ValueError, "tile: the buffer of the horizontal pass (passed) does not fit");
            goto done;
        }
    }
    out = PyBytes_FromStringAndSize(NULL, t.ow * t.oh * (t.table != NULL ? 1 : 3));
    if (out == NULL) goto done;
    {
        uint8_t *o = (uint8_t *)PyBytes_AS_STRING(out);
        Py_BEGIN_ALLOW_THREADS
        tile_plan(&t);
        for (Py_ssize_t ry = t.first; ry < t.last; ry++) tile_row(&t, ry);  /* each read back while in the cache */
        tile_finish(&t, o);
        if (passed.obj != NULL) memcpy(passed.buf, t.tmp, (size_t)passed.len);
        Py_END_ALLOW_THREADS
    }
done:
    tile_free(&t);
    if (passed.obj != NULL) PyBuffer_Release(&passed);
    if (lut.obj != NULL) PyBuffer_Release(&lut);
    PyBuffer_Release(&src);
    PyBuffer_Release(&xb);
    PyBuffer_Release(&xk);
    PyBuffer_Release(&yb);
    PyBuffer_Release(&yk);
    return out;
}

PyDoc_STRVAR(reduce_doc,
"reduce(src, width, stride, k, rows) -> bytes\n\n"
"The top ``rows`` rows of an RGBX frame reduced by 2 <= k <= 16 as ``tile`` reduces them (Pillow's\n"
"reduce): ceil(width / k) x ceil(rows / k) pixels, 4 bytes each (the fourth not meaningful):\n"
"a layer's reduction, for ``quantize_tile`` over that layer.");

static PyObject *py_reduce(PyObject *self, PyObject *args) {
    Py_buffer src;
    Py_ssize_t w, stride, rows;
    int k;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*nnin", &src, &w, &stride, &k, &rows)) return NULL;
    PyObject *out = NULL;
    uint16_t *room = NULL;
    if (k < 2 || k > 16 || w <= 0 || rows <= 0 || stride < 4 * w || src.len < stride * (rows - 1) + 4 * w) {
        PyErr_SetString(PyExc_ValueError, "reduce: the factor or the size does not fit the frame");
        goto done;
    }
    Py_ssize_t rw = (w + k - 1) / k, rh = (rows + k - 1) / k;
    room = (uint16_t *)PyMem_Malloc((size_t)w * 4 * sizeof(uint16_t));
    out = room != NULL ? PyBytes_FromStringAndSize(NULL, rw * rh * 4) : PyErr_NoMemory();
    if (out == NULL) goto done;
    {
        uint8_t *o = (uint8_t *)PyBytes_AS_STRING(out);
        memset(o, 0, (size_t)(rw * rh * 4));
        const uint8_t *base = (const uint8_t *)src.buf;
        Py_BEGIN_ALLOW_THREADS
        for (Py_ssize_t ry = 0; ry < rh; ry++) reduce_row(base, w, stride, rows, k, ry, o + ry * rw * 4, rw, room);
        Py_END_ALLOW_THREADS
    }
done:
    PyMem_Free(room);
    PyBuffer_Release(&src);
    return out;
}

PyDoc_STRVAR(mark_doc,
"mark(todo, width, height, vertices, codes, fill, pad) -> bool\n\n"
"The chunks of 16 pixels (``todo``: a byte a chunk, ceil(width / 16) a row, ``height`` rows)\n"
"that drawing a path may ink, set to 1: ``vertices`` (float64, x and y in display pixels, y up\n"
"from the bottom row) and ``codes`` (uint8, matplotlib's: MOVETO 1, LINETO 2, CURVE3 3, CURVE4 4,\n"
"CLOSEPOLY 79, STOP 0; None: a polyline). A stroke (``fill`` false) inks within ``pad`` pixels of\n"
"each segment's box (a curve's: its control points', which hold it; the closing segment's: back to\n"
"the subpath's start); a fill within ``pad`` of each subpath's box (a point outside every subpath's\n"
"box winds around none of them). False, with the map partly marked, when a vertex is not finite\n"
"or a code unknown: the caller takes the whole canvas as drawn.");

typedef struct {
    uint8_t *todo;
    Py_ssize_t chunks, w, h;
    double pad;
} Marks;

static void mark_box(const Marks *m, double x0, double x1, double y0, double y1) {
    double r0 = floor((double)m->h - y1 - m->pad), r1 = ceil((double)m->h - y0 + m->pad);
    double c0 = floor(x0 - m->pad), c1 = ceil(x1 + m->pad);
    if (r0 < 0) r0 = 0;
    if (c0 < 0) c0 = 0;
    if (r1 > (double)m->h) r1 = (double)m->h;
    if (c1 > (double)m->w) c1 = (double)m->w;
    if (r1 <= r0 || c1 <= c0) return;
    Py_ssize_t j0 = (Py_ssize_t)c0 / CHUNK, j1 = ((Py_ssize_t)c1 + CHUNK - 1) / CHUNK;
    for (Py_ssize_t r = (Py_ssize_t)r0; r < (Py_ssize_t)r1; r++) memset(m->todo + r * m->chunks + j0, 1, (size_t)(j1 - j0));
}

typedef struct {
    double x0, x1, y0, y1;
    int any;
} Box;

static inline void box_add(Box *b, const double *v) {
    if (!b->any) {
        b->x0 = b->x1 = v[0];
        b->y0 = b->y1 = v[1];
        b->any = 1;
        return;
    }
    if (v[0] < b->x0) b->x0 = v[0];
    if (v[0] > b->x1) b->x1 = v[0];
    if (v[1] < b->y0) b->y0 = v[1];
    if (v[1] > b->y1) b->y1 = v[1];
}

static PyObject *py_mark(PyObject *self, PyObject *args) {
    Py_buffer todo, verts, codes = {0};
    Py_ssize_t w, h;
    PyObject *codes_arg;
    int fill;
    double pad;
    (void)self;
    if (!PyArg_ParseTuple(args, "w*nny*Opd", &todo, &w, &h, &verts, &codes_arg, &fill, &pad)) return NULL;
    PyObject *out = NULL;
    Py_ssize_t n = verts.len / (Py_ssize_t)(2 * sizeof(double));
    Marks m = {(uint8_t *)todo.buf, (w + CHUNK - 1) / CHUNK, w, h, pad};
    if (codes_arg != Py_None && PyObject_GetBuffer(codes_arg, &codes, PyBUF_SIMPLE) < 0) goto done;
    if (w < 0 || h < 0 || todo.len != m.chunks * h || verts.len % (Py_ssize_t)(2 * sizeof(double))
        || (codes.obj != NULL && codes.len != n) || !(pad >= 0)) {
        PyErr_SetString(PyExc_ValueError, "mark: the map, vertices or codes do not fit");
        goto done;
    }
    {
        const double *v = (const double *)verts.buf;
        const uint8_t *c = codes.obj != NULL ? (const uint8_t *)codes.buf : NULL;
        int ok = 1;
        Py_ssize_t start = -1, cur = -1;
        Box sub = {0, 0, 0, 0, 0};
        for (Py_ssize_t i = 0; i < n && ok; i++) {
            int code = c ? c[i] : (i == 0 ? 1 : 2);
            int take = code == 3 ? 2 : code == 4 ? 3 : 1;  /* the vertices this segment ends with */
            if (code == 0) break;
            if (code != 1 && code != 2 && code != 3 && code != 4 && code != 79) { ok = 0; break; }
            if (i + take > n) { ok = 0; break; }
            if (code != 79)
                for (int k = 0; k < take; k++)
                    if (!isfinite(v[2 * (i + k)]) || !isfinite(v[2 * (i + k) + 1])) ok = 0;
            if (!ok) break;
            if (code == 79 && cur < 0) continue;  /* closing nothing */
            if (code == 1 || cur < 0) {  /* a new subpath (a line or curve without one: starts there) */
                if (fill && sub.any) mark_box(&m, sub.x0, sub.x1, sub.y0, sub.y1);
                sub.any = 0;
                start = cur = i + take - 1;
                for (int k = 0; k < take; k++) box_add(&sub, v + 2 * (i + k));
                i += take - 1;
                continue;
            }
            Box seg = {0, 0, 0, 0, 0};
            box_add(&seg, v + 2 * cur);
            if (code == 79) {
                box_add(&seg, v + 2 * start);
                cur = start;
            } else {
                for (int k = 0; k < take; k++) {
                    box_add(&seg, v + 2 * (i + k));
                    box_add(&sub, v + 2 * (i + k));
                }
                cur = i + take - 1;
                i += take - 1;
            }
            if (!fill) mark_box(&m, seg.x0, seg.x1, seg.y0, seg.y1);
        }
        if (ok && fill && sub.any) mark_box(&m, sub.x0, sub.x1, sub.y0, sub.y1);
        out = PyBool_FromLong(ok);
    }
done:
    if (codes.obj != NULL) PyBuffer_Release(&codes);
    PyBuffer_Release(&todo);
    PyBuffer_Release(&verts);
    return out;
}

PyDoc_STRVAR(paste_doc,
"paste(dst, width, height, stride, x, y, block, block_width, ground) -> bool\n\n"
"``block`` (4 bytes a pixel, ``block_width`` a row, packed) put into ``dst`` (4 bytes a pixel, rows\n"
"``stride`` bytes apart) with its top-left pixel at column x, row y, if every pixel of ``dst`` it\n"
"covers is ``ground`` (4 bytes): True; else nothing is written: False. The block must lie inside\n"
"``dst``. A word drawn once over a plain ground, put back where the ground is as plain: the\n"
"pixels drawing it there gives.");

static PyObject *py_paste(PyObject *self, PyObject *args) {
    Py_buffer dst, block, ground;
    Py_ssize_t w, h, stride, x, y, bw;
    (void)self;
    if (!PyArg_ParseTuple(args, "w*nnnnny*ny*", &dst, &w, &h, &stride, &x, &y, &block, &bw, &ground)) return NULL;
    PyObject *out = NULL;
    Py_ssize_t bh = bw > 0 ? block.len / (4 * bw) : 0;
    if (w < 0 || h < 0 || stride < 4 * w || (h > 0 && dst.len < stride * (h - 1) + 4 * w) || bw <= 0
        || block.len != 4 * bw * bh || ground.len != 4 || x < 0 || y < 0 || x + bw > w || y + bh > h) {
        PyErr_SetString(PyExc_ValueError, "paste: the block does not fit inside the buffer, or the ground is not a pixel");
        goto done;
    }
    {
        uint8_t *d = (uint8_t *)dst.buf;
        const uint8_t *b = (const uint8_t *)block.buf;
        uint32_t g;
        memcpy(&g, ground.buf, 4);
        int plain = 1;
        for (Py_ssize_t r = 0; r < bh && plain; r++) {
            const uint8_t *row = d + (y + r) * stride + 4 * x;
            for (Py_ssize_t c = 0; c < bw; c++) {
                uint32_t v;
                memcpy(&v, row + 4 * c, 4);
                plain &= v == g;
            }
        }
        if (plain)
            for (Py_ssize_t r = 0; r < bh; r++) memcpy(d + (y + r) * stride + 4 * x, b + 4 * r * bw, (size_t)(4 * bw));
        out = PyBool_FromLong(plain);
    }
done:
    PyBuffer_Release(&dst);
    PyBuffer_Release(&block);
    PyBuffer_Release(&ground);
    return out;
}

PyDoc_STRVAR(quantize_tile_doc,
"quantize_tile(src, width, height, stride, lut, filtered, k, rows, xbounds, xweights, xksize, ybounds,\n"
"              yweights, yksize, out_w, out_h, layer=None, layer_rows=None, dirty=None,\n"
"              layer_reduced=None, todo=None, out=None, kept=False, layer_passed=None,\n"
"              layer_tile=None, restore=False) -> (bytes, bytes)\n\n"
"``quantize(src, width, height, stride, lut, filtered)`` and ``tile(src, width, stride, k, rows, ...,\n"
"out_w, out_h, lut)`` in one pass over the frame: each row of the tile is made as soon as the\n"
"frame's rows it reduces are looked up, while they are in the cache (the same bytes as each alone).\n"
"Over a layer (``quantize``'s three arguments) whose whole reduction is given (``reduce``'s): the\n"
"tile's reduced pixels whose blocks the frame did not draw on are the layer's (the same bytes).\n"
"``todo``, ``out``, ``kept``: as ``quantize``'s (the chunks known to be the layer's are not read).\n"
"With the layer's horizontal pass (``tile``'s ``passed``) and tile as well (all three): only the\n"
"tile's pixels whose inputs lie in chunks that differ from the layer are worked out, the others\n"
"are the layer tile's (the same bytes). ``restore``: as ``quantize``'s, each row once the tile's\n"
"rows that reduce it are made.");

static PyObject *py_quantize_tile(PyObject *self, PyObject *args) {
    Py_buffer src, lut, xb, xk, yb, yk;
    Py_ssize_t h;
    int filtered;
    Tile t = {0};
    PyObject *rows_out = NULL, *tile_out = NULL, *result = NULL;
    PyObject *layer = Py_None, *layer_rows = Py_None, *dirty = Py_None, *reduced = Py_None, *todo = Py_None;
    PyObject *out_arg = Py_None, *passed_arg = Py_None, *ltile_arg = Py_None;
    int kept = 0, restore = 0;
    Over over = {0};
    Py_buffer lred = {0}, ltmp = {0}, ltile = {0}, canvas = {0};
    (void)self;
    if (!PyArg_ParseTuple(args, "y*nnny*piny*y*ny*y*nnn|OOOOOOpOOp", &src, &t.w, &h, &t.stride, &lut, &filtered, &t.k,
                          &t.rows, &xb, &xk, &t.xks, &yb, &yk, &t.yks, &t.ow, &t.oh, &layer, &layer_rows, &dirty,
                          &reduced, &todo, &out_arg, &kept, &passed_arg, &ltile_arg, &restore))
        return NULL;
    t.base = (const uint8_t *)src.buf;
    t.table = (const uint8_t *)lut.buf;
    if (!quantize_fits(&src, t.w, h, t.stride, &lut)) goto done;
    if (t.rows > h) {
        PyErr_SetString(PyExc_ValueError, "tile: sizes, bounds or weights do not fit the frame");
        goto done;
    }
    if (!tile_fits(&t, &src, &xb, &xk, &yb, &yk) || !tile_alloc(&t)) goto done;
    Py_ssize_t pitch = t.w + (filtered ? 1 : 0);
    if (!over_args(&over, layer, layer_rows, dirty, todo, out_arg, kept, t.w, h, t.stride, pitch)) goto done;
    if (restore && !restore_args(&canvas, &src, &over)) goto done;
    if (reduced != Py_None) {  /* the layer's whole reduction: the tile's blocks it did not draw on are its */
        if (!over.given) {
            PyErr_SetString(PyExc_TypeError, "quantize_tile: a layer's reduction without the layer");
            goto done;
        }
        if (PyObject_GetBuffer(reduced, &lred, PyBUF_SIMPLE) < 0) goto done;
        if (lred.len != t.rw * ((t.rows + t.k - 1) / t.k) * 4) {
            PyErr_SetString(PyExc_ValueError, "quantize_tile: the layer's reduction does not fit the tile");
            goto done;
        }
        t.lred = (const uint8_t *)lred.buf;
        t.dirty = (const uint8_t *)over.dirty.buf;
        t.chunks = over.chunks;
        t.any = (uint8_t *)PyMem_Malloc((size_t)over.chunks);
        if (t.any == NULL) {
            PyErr_NoMemory();
            goto done;
        }
    }
    if (passed_arg != Py_None || ltile_arg != Py_None) {  /* the layer's pass and tile: only what changed */
        if (lred.obj == NULL || passed_arg == Py_None || ltile_arg == Py_None) {
            PyErr_SetString(PyExc_TypeError, "quantize_tile: the layer's pass and tile need each other and its reduction");
            goto done;
        }
        if (PyObject_GetBuffer(passed_arg, &ltmp, PyBUF_SIMPLE) < 0) goto done;
        if (PyObject_GetBuffer(ltile_arg, &ltile, PyBUF_SIMPLE) < 0) goto done;
        if (ltmp.len != (t.last - t.first) * t.span || ltile.len != t.ow * t.oh) {
            PyErr_SetString(PyExc_ValueError, "quantize_tile: the layer's pass or tile does not fit the tile");
            goto done;
        }
        t.ltmp = (const uint8_t *)ltmp.buf;
        t.ltile = (const uint8_t *)ltile.buf;
        t.chg = (uint8_t *)PyMem_Malloc((size_t)((t.last - t.first) * t.ow));
        t.rowchg = (uint8_t *)PyMem_Malloc((size_t)(t.last - t.first));
        t.xlo = (int32_t *)PyMem_Malloc((size_t)over.chunks * sizeof(int32_t));
        t.xhi = (int32_t *)PyMem_Malloc((size_t)over.chunks * sizeof(int32_t));
        t.colany = (uint8_t *)PyMem_Malloc((size_t)t.ow);
        if (t.chg == NULL || t.rowchg == NULL || t.xlo == NULL || t.xhi == NULL || t.colany == NULL) {
            PyErr_NoMemory();
            goto done;
        }
    }
    if (over.has_out) {
        Py_INCREF(out_arg);
        rows_out = out_arg;
    } else {
        rows_out = PyBytes_FromStringAndSize(NULL, pitch * h);
    }
    tile_out = PyBytes_FromStringAndSize(NULL, t.ow * t.oh);
    if (rows_out == NULL || tile_out == NULL) goto done;
    {
        uint8_t *o = over.has_out ? (uint8_t *)over.out.buf : (uint8_t *)PyBytes_AS_STRING(rows_out);
        uint8_t *to = (uint8_t *)PyBytes_AS_STRING(tile_out);
        Py_BEGIN_ALLOW_THREADS
        tile_plan(&t);
        Runs runs = {0, 0, 0};
        Py_ssize_t ry = t.first;  /* the next reduced row the tile needs */
        Py_ssize_t kept_from = 0;  /* the first row not yet made the layer's again (``restore``) */
        for (Py_ssize_t y = 0; y < h; y++) {
            uint8_t *row = o + y * pitch;
            if (filtered) *row++ = 0;
            quantize_line(&runs, t.base, y, t.w, t.stride, pitch, t.table, row, &over);
            /* reduced row ry reads frame rows [k ry, min(k ry + k, rows)): all read now? */
            Py_ssize_t end = t.k * ry + t.k < t.rows ? t.k * ry + t.k : t.rows;
            if (ry < t.last && y == end - 1) {
                tile_row(&t, ry);
                ry++;
            }
            if (restore) {  /* the rows no reduced row still to come reads: the layer's again */
                Py_ssize_t upto = ry < t.last && t.k * ry < y + 1 ? t.k * ry : y + 1;
                if (upto > kept_from) {
                    restore_rows((uint8_t *)canvas.buf, &over, kept_from, upto, t.w, t.stride);
                    kept_from = upto;
                }
            }
        }
        if (restore && kept_from < h) restore_rows((uint8_t *)canvas.buf, &over, kept_from, h, t.w, t.stride);
        tile_finish(&t, to);
        Py_END_ALLOW_THREADS
    }
    result = PyTuple_Pack(2, rows_out, tile_out);
done:
    Py_XDECREF(rows_out);
    Py_XDECREF(tile_out);
    tile_free(&t);
    if (lred.obj != NULL) PyBuffer_Release(&lred);
    if (ltmp.obj != NULL) PyBuffer_Release(&ltmp);
    if (ltile.obj != NULL) PyBuffer_Release(&ltile);
    if (canvas.obj != NULL) PyBuffer_Release(&canvas);
    over_release(&over);
    PyBuffer_Release(&src);
    PyBuffer_Release(&lut);
    PyBuffer_Release(&xb);
    PyBuffer_Release(&xk);
    PyBuffer_Release(&yb);
    PyBuffer_Release(&yk);
    return result;
}

static PyMethodDef methods[] = {
    {"quantize", py_quantize, METH_VARARGS, quantize_doc},
    {"tile", py_tile, METH_VARARGS, tile_doc},
    {"quantize_tile", py_quantize_tile, METH_VARARGS, quantize_tile_doc},
    {"restore", py_restore, METH_VARARGS, restore_doc},
    {"reduce", py_reduce, METH_VARARGS, reduce_doc},
    {"paste", py_paste, METH_VARARGS, paste_doc},
    {"mark", py_mark, METH_VARARGS, mark_doc},
    {NULL, NULL, 0, NULL}};

CORE_MODULE("_pixels", "Compiled inner loops of the frames' pixels: palette lookup, area average.");

PyMODINIT_FUNC PyInit__pixels(void) { return PyModule_Create(&module); }
