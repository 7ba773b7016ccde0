/* The PNG rows' deflate (render/pngwrite.py): a zlib stream of a palette image's rows, each row
 * its filter byte (0) then its indices, written for what these rows are.
 *
 * Why our own: a frame is mostly its row above again (the background, the grid's lines, a
 * candidate's stem) or runs of one index, and little else; ISA-L's general deflate spent most of
 * a frame's writing finding matches at any distance, then read the rows once more for their
 * Adler-32 (a 25x25 frame of 2585 x 3272 pixels: 4.2 ms deflate + 1.4 ms checksum). Here a match
 * is only ever the row above (distance: the row's length) or the byte before (distance 1): where
 * one can start is looked for 32 bytes at once, its length found 16 bytes at a time; the tokens
 * of each block of 65,536 get their own Huffman codes (dynamic blocks), each token's bits put
 * from one table without a branch; the checksum is taken a few kilobytes at a time, while those
 * rows are still in the cache (a 25x25 frame's rows in the cache: 2.0-2.2 ms, ISA-L 2.6-3.0 ms). The stream is plain deflate: any inflater reads it (tests/core/test_deflate.py
 * reads it back with zlib).
 *
 * Nothing here is a twin of a Python function: without it, render/pngwrite.py writes the same
 * rows with ISA-L's or zlib's deflate (other bytes, the same pixels).
 */
#include "glue.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#include <immintrin.h>
#define HAVE_AVX2 1
#endif

#define BLOCK_TOKENS (1 << 16)   /* tokens a block (its own Huffman codes) */
#define CHECK_BYTES (1 << 14)    /* rows summed into the checksum once this many are tokenized */
#define FAR_LIMIT 32768          /* deflate's longest distance: the row above only within it */
#define ADLER_MOD 65521u
#define ADLER_NMAX 5552          /* bytes summed before the sums can overflow 32 bits */

static const uint16_t LEN_BASE[29] = {3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23, 27,
                                      31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
static const uint8_t LEN_EXTRA[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
static const uint16_t DIST_BASE[30] = {1,   2,   3,   4,   5,   7,    9,    13,   17,   25,   33,   49,   65,    97,    129,
                                       193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
static const uint8_t DIST_EXTRA[30] = {0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};
/* the order the code lengths' code lengths are sent in (RFC 1951, 3.2.7) */
static const uint8_t CL_ORDER[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};

static uint8_t LEN_CODE[259];  /* a match length's length code (0 to 28), filled when the module loads */

/* ---------------------------------------------------------------- Adler-32 */

static uint32_t adler_plain(uint32_t adler, const uint8_t *p, size_t n) {
    uint32_t a = adler & 0xffff, b = adler >> 16;
    while (n > 0) {
        size_t k = n < ADLER_NMAX ? n : ADLER_NMAX;
        n -= k;
        while (k--) {
            a += *p++;
            b += a;
        }
        a %= ADLER_MOD;
        b %= ADLER_MOD;
    }
    return b << 16 | a;
}

#ifdef HAVE_AVX2
/* 32 bytes a step: the sum of the bytes (``sad``) and of each byte times how many sums it is
 * still in within the step (32 for the first … 1 for the last: ``maddubs``); the running sums of
 * the steps before, times 32, are the rest of b. 173 steps (5,536 bytes) before the sums are
 * reduced: no 32-bit lane overflows. */
__attribute__((target("avx2"))) static uint32_t adler_avx2(uint32_t adler, const uint8_t *p, size_t n) {
    uint32_t a = adler & 0xffff, b = adler >> 16;
    const __m256i weights = _mm256_setr_epi8(32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15,
                                             14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1);
    const __m256i ones = _mm256_set1_epi16(1), zero = _mm256_setzero_si256();
    while (n >= 32) {
        size_t steps = n / 32 < ADLER_NMAX / 32 ? n / 32 : ADLER_NMAX / 32;
        n -= steps * 32;
        __m256i s1 = zero, s1_before = zero, s2 = zero;
        uint64_t b64 = b + (uint64_t)a * 32 * steps;
        for (size_t i = 0; i < steps; i++, p += 32) {
            __m256i v = _mm256_loadu_si256((const __m256i *)p);
            s1_before = _mm256_add_epi32(s1_before, s1);
            s1 = _mm256_add_epi32(s1, _mm256_sad_epu8(v, zero));
            s2 = _mm256_add_epi32(s2, _mm256_madd_epi16(_mm256_maddubs_epi16(v, weights), ones));
        }
        uint32_t l1[8], l0[8], l2[8];
        _mm256_storeu_si256((__m256i *)l1, s1);
        _mm256_storeu_si256((__m256i *)l0, s1_before);
        _mm256_storeu_si256((__m256i *)l2, s2);
        uint64_t t1 = 0, t0 = 0, t2 = 0;
        for (int k = 0; k < 8; k++) t1 += l1[k], t0 += l0[k], t2 += l2[k];
        b = (uint32_t)((b64 + 32 * t0 + t2) % ADLER_MOD);
        a = (uint32_t)((a + t1) % ADLER_MOD);
    }
    return adler_plain(b << 16 | a, p, n);
}
#endif

static uint32_t (*adler_update)(uint32_t, const uint8_t *, size_t) = adler_plain;

/* ---------------------------------------------------------------- bits out */

typedef struct {
    uint8_t *buf;
    size_t len, cap;
    uint64_t acc;
    int bits;
} Bits;

static int bits_room(Bits *b, size_t more) {
    if (b->len + more <= b->cap) return 1;
    size_t cap = b->cap * 2 > b->len + more ? b->cap * 2 : b->len + more;
    uint8_t *p = realloc(b->buf, cap);
    if (p == NULL) return 0;
    b->buf = p;
    b->cap = cap;
    return 1;
}

/* at most 49 bits at a time, without a branch: the whole accumulator stored, the bytes it
 * completed kept; room for 8 more bytes checked by the caller (``bits_room``) */
static inline void put(Bits *b, uint64_t value, int n) {
    b->acc |= value << b->bits;
    b->bits += n;
    memcpy(b->buf + b->len, &b->acc, 8);
    b->len += (size_t)(b->bits >> 3);
    b->acc >>= b->bits & ~7;  /* bits was at most 7 + 49: a shift of at most 56 */
    b->bits &= 7;
}

static void flush_bits(Bits *b) {
    while (b->bits > 0) {
        b->buf[b->len++] = (uint8_t)b->acc;
        b->acc >>= 8;
        b->bits -= 8;
    }
    b->bits = 0;
    b->acc = 0;
}

/* ---------------------------------------------------------------- Huffman codes */

/* Moffat and Katajainen's in-place minimum-redundancy code lengths: ``A`` the weights in
 * ascending order in, each one's code length out (n >= 2). */
static void min_redundancy(int *A, int n) {
    int root, leaf, next, avbl, used, dpth;
    A[0] += A[1];
    root = 0;
    leaf = 2;
    for (next = 1; next < n - 1; next++) {
        if (leaf >= n || A[root] < A[leaf]) {
            A[next] = A[root];
            A[root++] = next;
        } else
            A[next] = A[leaf++];
        if (leaf >= n || (root < next && A[root] < A[leaf])) {
            A[next] += A[root];
            A[root++] = next;
        } else
            A[next] += A[leaf++];
    }
    A[n - 2] = 0;
    for (next = n - 3; next >= 0; next--) A[next] = A[A[next]] + 1;
    avbl = 1;
    used = dpth = 0;
    root = n - 2;
    next = n - 1;
    while (avbl > 0) {
        while (root >= 0 && A[root] == dpth) {
            used++;
            root--;
        }
        while (avbl > used) {
            A[next--] = dpth;
            avbl--;
        }
        avbl = 2 * used;
        dpth++;
        used = 0;
    }
}

/* The code lengths (at most ``maxbits``) of the symbols ``freq`` counts; at least two are
 * used (the caller sees to it). Lengths over the limit are cut to it and the code made whole
 * again by lengthening the longest shorter codes (each step: one code of the longest length
 * fewer, one shorter code split in two one bit longer). */
static void huff_lengths(const uint32_t *freq, int nsym, int maxbits, uint8_t *lens) {
    int syms[288], A[288], n = 0;
    for (int i = 0; i < nsym; i++) {
        lens[i] = 0;
        if (freq[i]) syms[n++] = i;
    }
    for (int i = 1; i < n; i++) {  /* by count, ties by symbol */
        int s = syms[i], j = i;
        while (j > 0 && freq[syms[j - 1]] > freq[s]) {
            syms[j] = syms[j - 1];
            j--;
        }
        syms[j] = s;
    }
    for (int i = 0; i < n; i++) A[i] = (int)freq[syms[i]];
    min_redundancy(A, n);
    int count[17] = {0};
    for (int i = 0; i < n; i++) count[A[i] > maxbits ? maxbits : A[i]]++;
    uint32_t total = 0;
    for (int i = 1; i <= maxbits; i++) total += (uint32_t)count[i] << (maxbits - i);
    while (total != (1u << maxbits)) {
        count[maxbits]--;
        for (int i = maxbits - 1; i > 0; i--)
            if (count[i]) {
                count[i]--;
                count[i + 1] += 2;
                break;
            }
        total--;
    }
    int k = 0;  /* the rarest symbols take the longest codes */
    for (int len = maxbits; len >= 1; len--)
        for (int c = count[len]; c > 0; c--) lens[syms[k++]] = (uint8_t)len;
}

/* canonical codes of the lengths, bit-reversed (deflate sends a code's first bit first) */
static void huff_codes(const uint8_t *lens, int nsym, uint16_t *codes) {
    int bl_count[16] = {0}, next[16] = {0};
    for (int i = 0; i < nsym; i++) bl_count[lens[i]]++;
    bl_count[0] = 0;
    int code = 0;
    for (int bits = 1; bits < 16; bits++) {
        code = (code + bl_count[bits - 1]) << 1;
        next[bits] = code;
    }
    for (int i = 0; i < nsym; i++) {
        int len = lens[i];
        codes[i] = 0;
        if (!len) continue;
        int c = next[len]++, r = 0;
        for (int j = 0; j < len; j++) r |= ((c >> j) & 1) << (len - 1 - j);
        codes[i] = (uint16_t)r;
    }
}

/* at least two symbols used in ``freq[0..n)`` (a code of one symbol is not a whole code) */
static void two_used(uint32_t *freq, int n) {
    int used = 0;
    for (int i = 0; i < n && used < 2; i++) used += freq[i] != 0;
    for (int i = 0; i < n && used < 2; i++)
        if (!freq[i]) freq[i] = 1, used++;
}

/* ---------------------------------------------------------------- blocks */

/* A token: a literal byte (< 256), or 256 + (length - 3) + 256 * far: a match of that length
 * one byte back (far 0) or one row back (far 1). */
typedef struct {
    uint16_t *tok;
    size_t nt;
    uint32_t lfreq[286], dfreq[30];
} Block;

/* byte ``c`` as a literal token */
static inline void literal(Block *k, uint8_t c) {
    k->tok[k->nt++] = c;
    k->lfreq[c]++;
}

/* The block's tokens with their own codes (a dynamic block, RFC 1951 3.2.7), the end-of-block
 * code after them; ``far_code``: the row's distance code. 0 when out of memory. */
static int emit_block(Bits *b, Block *k, int last, int far_code, size_t pitch) {
    uint8_t llen[286], dlen[30], cllen[19];
    uint16_t lcode[286], dcode[30], clcode[19];
    k->lfreq[256] = 1;
    two_used(k->lfreq, 286);
    two_used(k->dfreq, 30);
    huff_lengths(k->lfreq, 286, 15, llen);
    huff_lengths(k->dfreq, 30, 15, dlen);
    huff_codes(llen, 286, lcode);
    huff_codes(dlen, 30, dcode);
    int hlit = 286, hdist = 30;
    while (hlit > 257 && !llen[hlit - 1]) hlit--;
    while (hdist > 1 && !dlen[hdist - 1]) hdist--;
    /* the code lengths in a row, runs of zeros as codes 17 (3-10) and 18 (11-138) */
    uint8_t seq[316], cl[316], clx[316];
    int ns = 0, nc = 0;
    for (int i = 0; i < hlit; i++) seq[ns++] = llen[i];
    for (int i = 0; i < hdist; i++) seq[ns++] = dlen[i];
    uint32_t clfreq[19] = {0};
    for (int i = 0; i < ns;) {
        if (seq[i] == 0) {
            int j = i;
            while (j < ns && seq[j] == 0 && j - i < 138) j++;
            int run = j - i;
            if (run >= 3) {
                cl[nc] = run >= 11 ? 18 : 17;
                clx[nc] = (uint8_t)(run - (run >= 11 ? 11 : 3));
                clfreq[cl[nc++]]++;
                i = j;
                continue;
            }
        }
        cl[nc] = seq[i], clx[nc++] = 0, clfreq[seq[i]]++;
        i++;
    }
    two_used(clfreq, 19);
    huff_lengths(clfreq, 19, 7, cllen);
    huff_codes(cllen, 19, clcode);
    int hclen = 19;
    while (hclen > 4 && !cllen[CL_ORDER[hclen - 1]]) hclen--;
    /* room: the header's at most 400 bytes, then each token at its longest (15 + 5 + 15 + 13 bits) */
    if (!bits_room(b, 400 + k->nt * 8 + 24)) return 0;
    put(b, last ? 1 : 0, 1);
    put(b, 2, 2);
    put(b, (uint32_t)(hlit - 257), 5);
    put(b, (uint32_t)(hdist - 1), 5);
    put(b, (uint32_t)(hclen - 4), 4);
    for (int i = 0; i < hclen; i++) put(b, cllen[CL_ORDER[i]], 3);
    for (int i = 0; i < nc; i++) {
        put(b, clcode[cl[i]], cllen[cl[i]]);
        if (cl[i] == 17) put(b, clx[i], 3);
        else if (cl[i] == 18) put(b, clx[i], 7);
    }
    /* every token's bits as one put, without a branch: a literal's code, or a match's length
     * code and extra bits followed by its distance's (the token is the table's index) */
    uint64_t bits[768];
    uint8_t nbits[768];
    for (int t = 0; t < 256; t++) bits[t] = lcode[t], nbits[t] = llen[t];
    uint32_t dbits[2];
    uint8_t dnb[2];
    dbits[0] = dcode[0];
    dnb[0] = dlen[0];
    dbits[1] = dcode[far_code] | (uint32_t)(pitch - DIST_BASE[far_code]) << dlen[far_code];
    dnb[1] = (uint8_t)(dlen[far_code] + DIST_EXTRA[far_code]);
    for (int l = 3; l <= 258; l++) {
        int c = LEN_CODE[l];
        uint64_t lb = lcode[257 + c] | (uint64_t)(l - LEN_BASE[c]) << llen[257 + c];
        int ln = llen[257 + c] + LEN_EXTRA[c];
        for (int far = 0; far < 2; far++) {
            bits[256 + 256 * far + l - 3] = lb | (uint64_t)dbits[far] << ln;
            nbits[256 + 256 * far + l - 3] = (uint8_t)(ln + dnb[far]);
        }
    }
    for (size_t i = 0; i < k->nt; i++) {
        unsigned t = k->tok[i];
        put(b, bits[t], nbits[t]);
    }
    put(b, lcode[256], llen[256]);
    return 1;
}

/* ---------------------------------------------------------------- matching */

/* how many of the first ``max`` bytes of ``a`` and ``b`` are equal (they may overlap) */
static inline size_t same(const uint8_t *a, const uint8_t *b, size_t max) {
    size_t k = 0;
#if defined(__SSE2__)
    while (k + 16 <= max) {
        __m128i x = _mm_loadu_si128((const __m128i *)(a + k)), y = _mm_loadu_si128((const __m128i *)(b + k));
        unsigned m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, y)) ^ 0xffffu;
        if (m) return k + (size_t)__builtin_ctz(m);
        k += 16;
    }
#endif
    while (k + 8 <= max) {
        uint64_t x, y;
        memcpy(&x, a + k, 8);
        memcpy(&y, b + k, 8);
        uint64_t d = x ^ y;
        if (d) return k + ((size_t)__builtin_ctzll(d) >> 3);
        k += 8;
    }
    while (k < max && a[k] == b[k]) k++;
    return k;
}

static int dist_code(size_t d) {
    int c = 0;
    while (c < 29 && DIST_BASE[c + 1] <= d) c++;
    return c;
}

/* The zlib stream (RFC 1950: header, deflate, Adler-32) of ``s[0..n)``, rows of ``pitch``
 * bytes. Greedy: at each byte the longer of the match with the row above and the run of the
 * byte before (the row above on a tie), if 3 bytes or more, else the byte itself. */
static int deflate_rows(const uint8_t *s, size_t n, size_t pitch, Bits *b, uint16_t *tok) {
    int far_ok = pitch <= FAR_LIMIT, far_code = dist_code(far_ok ? pitch : 1);
    uint32_t adler = 1;
    size_t pos = 0, summed = 0;
    Block k;
    k.tok = tok;
    if (!bits_room(b, 2)) return 0;
    b->buf[b->len++] = 0x78;  /* deflate, 32 kB window; no dictionary; (0x78 << 8 | 0x01) % 31 == 0 */
    b->buf[b->len++] = 0x01;
    do {
        memset(k.lfreq, 0, sizeof k.lfreq);
        memset(k.dfreq, 0, sizeof k.dfreq);
        k.nt = 0;
        while (pos < n && k.nt < BLOCK_TOKENS) {
#if defined(__SSE2__)
            /* 32 bytes at once: where a match of 3 can start (3 bytes in a row equal to the row
             * above's, or to the byte before each); the bytes before the first such place are
             * literals, taken without trying a match at each */
            if (pos + 34 <= n && pos >= 1 && k.nt + 32 <= BLOCK_TOKENS) {
                uint32_t up = 0, left;
                const uint8_t *p = s + pos;
                __m128i x0 = _mm_loadu_si128((const __m128i *)p), x1 = _mm_loadu_si128((const __m128i *)(p + 16));
                if (far_ok && pos >= pitch)
                    up = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(x0, _mm_loadu_si128((const __m128i *)(p - pitch)))) |
                         (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(x1, _mm_loadu_si128((const __m128i *)(p - pitch + 16)))) << 16;
                left = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(x0, _mm_loadu_si128((const __m128i *)(p - 1)))) |
                       (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(x1, _mm_loadu_si128((const __m128i *)(p + 15)))) << 16;
                uint32_t starts = ((up & up >> 1 & up >> 2) | (left & left >> 1 & left >> 2)) & 0x3fffffffu;
                size_t lits = starts ? (size_t)__builtin_ctz(starts) : 30;
                for (size_t i = 0; i < lits; i++) literal(&k, p[i]);
                pos += lits;
                if (!starts) goto next;
            }
#endif
            size_t max = n - pos < 258 ? n - pos : 258, best = 0, far = 0;
            if (far_ok && pos >= pitch) {
                best = same(s + pos, s + pos - pitch, max);
                far = 1;
            }
            if (best < max && pos >= 1 && s[pos] == s[pos - 1]) {
                size_t run = same(s + pos, s + pos - 1, max);
                if (run > best) best = run, far = 0;
            }
            if (best >= 3) {
                tok[k.nt++] = (uint16_t)(256 + (best - 3) + (far << 8));
                k.lfreq[257 + LEN_CODE[best]]++;
                k.dfreq[far ? far_code : 0]++;
                pos += best;
            } else {
                literal(&k, s[pos++]);
            }
        next:
            if (pos - summed >= CHECK_BYTES) {  /* the rows just read, summed while in the cache */
                adler = adler_update(adler, s + summed, pos - summed);
                summed = pos;
            }
        }
        if (!emit_block(b, &k, pos >= n, far_code, pitch)) return 0;
    } while (pos < n);
    adler = adler_update(adler, s + summed, n - summed);
    if (!bits_room(b, 5)) return 0;  /* the last bits' byte, the checksum */
    flush_bits(b);
    for (int i = 3; i >= 0; i--) b->buf[b->len++] = (uint8_t)(adler >> (8 * i));
    return 1;
}

PyDoc_STRVAR(deflate_doc,
"deflate(rows, pitch) -> bytes\n\n"
"A zlib stream of ``rows`` (any contiguous buffer), read as rows of ``pitch`` bytes: each\n"
"match is the row above or the byte before. Any inflater reads it back.");

static PyObject *py_deflate(PyObject *self, PyObject *args) {
    Py_buffer src;
    Py_ssize_t pitch;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*n", &src, &pitch)) return NULL;
    PyObject *out = NULL;
    Bits b = {0};
    uint16_t *tok = NULL;
    if (pitch < 1) {
        PyErr_SetString(PyExc_ValueError, "deflate: a row is at least 1 byte");
        goto done;
    }
    b.cap = (size_t)src.len / 16 + 1024;
    b.buf = malloc(b.cap);
    tok = malloc(sizeof(uint16_t) * BLOCK_TOKENS);
    if (b.buf == NULL || tok == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    int ok;
    Py_BEGIN_ALLOW_THREADS
    ok = deflate_rows((const uint8_t *)src.buf, (size_t)src.len, (size_t)pitch, &b, tok);
    Py_END_ALLOW_THREADS
    if (!ok) {
        PyErr_NoMemory();
        goto done;
    }
    out = PyBytes_FromStringAndSize((const char *)b.buf, (Py_ssize_t)b.len);
done:
    free(b.buf);
    free(tok);
    PyBuffer_Release(&src);
    return out;
}

PyDoc_STRVAR(adler32_doc,
"adler32(data, value=1) -> int\n\n"
"The Adler-32 checksum of ``data`` continued from ``value`` (zlib.adler32's): the one the\n"
"streams of ``deflate`` end with.");

static PyObject *py_adler32(PyObject *self, PyObject *args) {
    Py_buffer src;
    unsigned long value = 1;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*|k", &src, &value)) return NULL;
    uint32_t a = adler_update((uint32_t)value, (const uint8_t *)src.buf, (size_t)src.len);
    PyBuffer_Release(&src);
    return PyLong_FromUnsignedLong(a);
}

static PyMethodDef methods[] = {
    {"deflate", py_deflate, METH_VARARGS, deflate_doc},
    {"adler32", py_adler32, METH_VARARGS, adler32_doc},
    {NULL, NULL, 0, NULL}};

CORE_MODULE("_deflate", "The PNG rows' deflate: matches with the row above or the byte before.");

PyMODINIT_FUNC PyInit__deflate(void) {
    for (int c = 0; c < 29; c++)
        for (int l = LEN_BASE[c]; l < (c < 28 ? LEN_BASE[c + 1] : 259); l++) LEN_CODE[l] = (uint8_t)c;
#ifdef HAVE_AVX2
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2")) adler_update = adler_avx2;
#endif
    return PyModule_Create(&module);
}
