/* Cell sets for every grid size: a fixed array of 64-bit words.
 *
 * 4x4 has 16 cells (1 word), 9x9 81 (2), 16x16 256 (4), 25x25 625 (10). One
 * type for all sizes keeps the code size-independent; loops run over
 * ``nwords`` (a run-time value per geometry) so a 9x9 set costs two words, not
 * ten. Value masks (a cell's candidates) fit one uint32 (n <= 25).
 */
#ifndef SUDOKU_EXPLAINER_CELLSET_H
#define SUDOKU_EXPLAINER_CELLSET_H

#include <stdint.h>
#include <string.h>

#define CS_MAXWORDS 10      /* 625 cells */
#define CS_MAXCELLS 640

typedef struct { uint64_t w[CS_MAXWORDS]; } cellset;

/* population counts without the compiler's library call (no -mpopcnt: the build stays portable) */
static inline int popc32(uint32_t x) {
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    return (int)((((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
}
static inline int popc64(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    return (int)((((x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full) * 0x0101010101010101ull) >> 56);
}

static inline void cs_clear(cellset *s) { memset(s, 0, sizeof *s); }
static inline void cs_add(cellset *s, int c) { s->w[c >> 6] |= (uint64_t)1 << (c & 63); }
static inline void cs_del(cellset *s, int c) { s->w[c >> 6] &= ~((uint64_t)1 << (c & 63)); }
static inline int cs_has(const cellset *s, int c) { return (int)((s->w[c >> 6] >> (c & 63)) & 1); }

static inline int cs_empty(const cellset *s, int nw) {
    for (int i = 0; i < nw; i++) if (s->w[i]) return 0;
    return 1;
}
static inline int cs_count(const cellset *s, int nw) {
    int k = 0;
    for (int i = 0; i < nw; i++) k += popc64(s->w[i]);
    return k;
}
static inline void cs_and(cellset *o, const cellset *a, const cellset *b, int nw) {
    for (int i = 0; i < nw; i++) o->w[i] = a->w[i] & b->w[i];
}
static inline void cs_or(cellset *o, const cellset *a, const cellset *b, int nw) {
    for (int i = 0; i < nw; i++) o->w[i] = a->w[i] | b->w[i];
}
static inline void cs_andnot(cellset *o, const cellset *a, const cellset *b, int nw) {
    for (int i = 0; i < nw; i++) o->w[i] = a->w[i] & ~b->w[i];
}
static inline int cs_intersects(const cellset *a, const cellset *b, int nw) {
    for (int i = 0; i < nw; i++) if (a->w[i] & b->w[i]) return 1;
    return 0;
}
static inline int cs_subset(const cellset *a, const cellset *b, int nw) {  /* a within b */
    for (int i = 0; i < nw; i++) if (a->w[i] & ~b->w[i]) return 0;
    return 1;
}
/* the lowest cell of s at or after c, or -1 */
static inline int cs_next(const cellset *s, int c, int nw) {
    int i = c >> 6;
    if (i >= nw) return -1;
    uint64_t w = s->w[i] & (~(uint64_t)0 << (c & 63));
    for (;;) {
        if (w) return (i << 6) + __builtin_ctzll(w);
        if (++i >= nw) return -1;
        w = s->w[i];
    }
}
#define CS_FOREACH(c, s, nw) for (int c = cs_next((s), 0, (nw)); c >= 0; c = cs_next((s), c + 1, (nw)))

#endif
