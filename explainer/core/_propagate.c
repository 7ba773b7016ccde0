/* Singles propagation, compiled: the twin of explainer/core/propagate.py.
 *
 * A row is one candidate state: ncells value masks (uint32, bit v-1 = value v),
 * a decided cell holding a single bit. ``fixpoints`` runs many rows to their
 * fixpoints in rounds that are exactly the Python twin's (numpy) rounds, so the
 * fixpoint, the contradiction flag AND the number of rounds agree bit for bit
 * (the forcing search orders its options by rounds). One round, from state c:
 *
 *   A  every fixed cell (a single; static: a true cell) removes its value from
 *      its peers; a value fixed twice in a house is a contradiction;
 *   B  hidden singles on the result: per house the values with exactly one place
 *      (static: only values with two places at most at the start); a value
 *      without a place, or a cell asked to hold two values, is a contradiction;
 *   C  (dynamic) locked candidates: pointing and claiming on the result;
 *   D  an emptied cell (static: one that had two candidates at most) is a
 *      contradiction; the row stops at a contradiction or when nothing changed.
 *
 * The twin computes every round over the whole grid; here a round only looks
 * at what can have changed (newly fixed cells, houses and intersections whose
 * cells changed since they were last read). The rest would repeat work already
 * applied, so the result is the same.
 *
 * ``contradicting`` answers, for assumptions on one row, whether each ends in a
 * contradiction at nesting level k: singles, and from level 1 on the removal of
 * every candidate whose own assumption contradicts at level k-1, to the fixpoint.
 * Removing a candidate only makes contradictions likelier (the verdict is
 * monotone), so the order of removals does not change the verdict: here each
 * removal is propagated at once, which shrinks the later tests. At level 0 a branch
 * that decides a candidate an earlier branch found contradicting stops there: its
 * state then lies inside that branch's start.
 *
 * ``resume`` makes a forcing batch from an earlier batch whose state held this one's:
 * each row from its old fixpoint cut down to its new start (the same fixpoint, fewer
 * rounds).
 */
#include "glue.h"

#define MAXN 25
#define MAXC 625
#define MAXH 75
#define MAXPEER 64 /* 24 + 24 + 16 on 25x25 */
#define MAXI 250   /* line-box intersections: 2 n m */
#define MAXLEVEL 8

typedef struct {
    int n, m, N, H, NI, npeer;
    uint32_t full;
    int16_t hcell[MAXH][MAXN];
    int16_t chouse[MAXC][3];
    int16_t peer[MAXC][MAXPEER];
    int16_t iline[MAXI], ibox[MAXI];
    int16_t icell[MAXI][5], ilrest[MAXI][MAXN], ibrest[MAXI][MAXN];
} geo_t;

static geo_t *geos[MAXN + 1];

static const geo_t *geo_of(int n) {
    int m = 0;
    while ((m + 1) * (m + 1) <= n) m++;
    if (n < 4 || n > MAXN || m * m != n) return NULL;
    if (geos[n]) return geos[n];
    geo_t *g = calloc(1, sizeof *g);
    if (!g) return NULL;
    g->n = n, g->m = m, g->N = n * n, g->H = 3 * n;
    g->full = (1u << n) - 1;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            g->hcell[i][j] = (int16_t)(i * n + j);                                      /* row i */
            g->hcell[n + i][j] = (int16_t)(j * n + i);                                  /* column i */
            g->hcell[2 * n + i][j] = (int16_t)((m * (i / m) + j / m) * n + m * (i % m) + j % m); /* box i */
        }
    for (int c = 0; c < g->N; c++) {
        int r = c / n, k = c % n, b = m * (r / m) + k / m;
        g->chouse[c][0] = (int16_t)r, g->chouse[c][1] = (int16_t)(n + k), g->chouse[c][2] = (int16_t)(2 * n + b);
    }
    /* peers: the cells sharing a house, each once */
    for (int c = 0; c < g->N; c++) {
        cellset s;
        cs_clear(&s);
        for (int k = 0; k < 3; k++)
            for (int j = 0; j < n; j++) cs_add(&s, g->hcell[g->chouse[c][k]][j]);
        cs_del(&s, c);
        int np = 0;
        CS_FOREACH(p, &s, CS_MAXWORDS) g->peer[c][np++] = (int16_t)p;
        g->npeer = np;
    }
    /* intersections, in explainer.grid's order (line, then box) */
    int ni = 0;
    for (int line = 0; line < 2 * n; line++)
        for (int box = 2 * n; box < 3 * n; box++) {
            cellset in_line, in_box;
            cs_clear(&in_line), cs_clear(&in_box);
            for (int j = 0; j < n; j++) cs_add(&in_line, g->hcell[line][j]), cs_add(&in_box, g->hcell[box][j]);
            int a = 0, lr = 0, br = 0;
            for (int j = 0; j < n; j++) {
                int x = g->hcell[line][j];
                if (cs_has(&in_box, x)) a++;
            }
            if (!a) continue;
            a = 0;
            for (int j = 0; j < n; j++) {
                int x = g->hcell[line][j];
                if (cs_has(&in_box, x)) g->icell[ni][a++] = (int16_t)x;
                else g->ilrest[ni][lr++] = (int16_t)x;
                int y = g->hcell[box][j];
                if (!cs_has(&in_line, y)) g->ibrest[ni][br++] = (int16_t)y;
            }
            g->iline[ni] = (int16_t)line, g->ibox[ni] = (int16_t)box;
            ni++;
        }
    g->NI = ni;
    geos[n] = g;
    return g;
}

/* the geometry of a size argument, or NULL with the error set */
static const geo_t *geo_arg(int n) {
    const geo_t *g = geo_of(n);
    if (!g) PyErr_Format(PyExc_ValueError, "unsupported size %d", n);
    return g;
}

/* A row known to be a fixpoint without contradiction (as a fresh run of the same mode finds
 * it: one round, nothing changed), with its fixed cells and each house's fixed values. A row
 * inside it that differs in a few undecided cells starts its first round from here: the
 * rest of that round would repeat the base's round, which changed nothing. */
typedef struct {
    int valid;
    uint32_t row[MAXC];
    uint8_t fixed[MAXC];
    uint32_t fo[MAXH];
} base_t;

/* Scratch of one row's run (reused from row to row). */
typedef struct {
    uint8_t fixed[MAXC];
    int chgmark[MAXC];
    int hdB[MAXH], hdC[MAXH];
    uint32_t fo[MAXH], hcacc[MAXC], eacc[MAXC];
    int16_t nf[MAXC], nfn[MAXC], chg[MAXC], hcl[MAXC], el[MAXC], diff[MAXC];
    uint32_t rows[MAXLEVEL + 1][MAXC]; /* closure: one working row per level */
    base_t bases[MAXLEVEL + 1];        /* closure: each level's row at its fixpoint */
    base_t batch;                      /* fixpoints: the rows' common base */
    const uint32_t *dead;              /* contradicting: candidates known to contradict (or NULL) */
} work_t;

/* static chains: the cells that may turn true (two candidates at most at the start)
 * and per house the values with two places at most there */
typedef struct {
    uint8_t two[MAXC];
    uint32_t hvok[MAXH];
} static_t;

static void static_masks(const geo_t *g, const uint32_t *start, static_t *st) {
    for (int x = 0; x < g->N; x++) st->two[x] = __builtin_popcount(start[x]) <= 2;
    for (int h = 0; h < g->H; h++) {
        uint32_t a1 = 0, a2 = 0, a3 = 0;
        for (int j = 0; j < g->n; j++) {
            uint32_t v = start[g->hcell[h][j]];
            a3 |= a2 & v, a2 |= a1 & v, a1 |= v;
        }
        st->hvok[h] = g->full & ~a3;
    }
}

/* Collect, for the cells ``xs`` (k of them), the bits of ``bits`` they hold into acc[x], listing each
 * cell once in ``list`` (of ``len`` entries so far); the new length. */
static inline int gather(const uint32_t *c, const int16_t *xs, int k, uint32_t bits, uint32_t *acc, int16_t *list,
                         int len) {
    for (int j = 0; j < k; j++) {
        int x = xs[j];
        uint32_t b = c[x] & bits;
        if (b) {
            if (!acc[x]) list[len++] = (int16_t)x;
            acc[x] |= b;
        }
    }
    return len;
}

/* The cells where row c differs from the base (into w->diff); -1 if c is not inside the
 * base or differs in a cell the base has fixed (the run then starts afresh). */
static int diff_from(const geo_t *g, work_t *w, const uint32_t *c, const base_t *b) {
    int nd = 0;
    for (int x = 0; x < g->N; x++)
        if (c[x] != b->row[x]) {
            if ((c[x] & ~b->row[x]) || b->fixed[x]) return -1;
            w->diff[nd++] = (int16_t)x;
        }
    return nd;
}

/* One row to its fixpoint (in place): 1 if it ends in a contradiction. With a valid base
 * and the nd cells (w->diff) where the row differs from it, the first round starts there. */
static int run_row(const geo_t *g, work_t *w, uint32_t *c, int dynamic, const static_t *st, int *rounds,
                   const base_t *base, int nd) {
    const int N = g->N, H = g->H, n = g->n, np = g->npeer;
    const uint32_t full = g->full;
    uint8_t *fixed = w->fixed;
    int16_t *nf = w->nf, *nfn = w->nfn, *chg = w->chg;
    int *cm = w->chgmark, *hdB = w->hdB, *hdC = w->hdC;
    uint32_t *fo = w->fo;
    int nnf = 0, r = 0, bad = 0;

    for (int x = 0; x < N; x++) cm[x] = 0;
    if (base && base->valid && nd >= 0) {
        memcpy(fixed, base->fixed, (size_t)N);
        memcpy(fo, base->fo, sizeof(uint32_t) * (size_t)H);
        for (int h = 0; h < H; h++) hdB[h] = hdC[h] = 0;
        for (int i = 0; i < nd; i++) {
            int x = w->diff[i];
            uint32_t v = c[x];
            for (int k = 0; k < 3; k++) hdB[g->chouse[x][k]] = hdC[g->chouse[x][k]] = 1;
            if (!v) {
                if (!st || st->two[x]) bad = 1; /* the first round's check of emptied cells */
                if (!st) fixed[x] = 1;
            } else if (!(v & (v - 1))) {
                fixed[x] = 1, nf[nnf++] = (int16_t)x;
            }
        }
    } else {
        base = NULL;
        memset(fixed, 0, sizeof w->fixed);
        memset(fo, 0, sizeof w->fo);
        for (int x = 0; x < N; x++) {
            uint32_t v = c[x];
            if (v & (v - 1)) continue;
            if (v) fixed[x] = 1, nf[nnf++] = (int16_t)x; /* decided (static: true) */
            else if (!st) fixed[x] = 1;                  /* an empty cell counts as decided (of no value) */
        }
        for (int h = 0; h < H; h++) hdB[h] = hdC[h] = 1;
    }

#define CHANGED(x, nextB, nextC)                                                 \
    do {                                                                         \
        if (cm[x] != r) cm[x] = r, chg[nch++] = (int16_t)(x);                    \
        any = 1;                                                                 \
        for (int k_ = 0; k_ < 3; k_++) {                                         \
            int h_ = g->chouse[x][k_];                                           \
            if (hdB[h_] < r + (nextB)) hdB[h_] = r + (nextB);                    \
            if (hdC[h_] < r + (nextC)) hdC[h_] = r + (nextC);                    \
        }                                                                        \
    } while (0)

    for (;;) {
        r++;
        int any = 0, nch = 0, nnfn = 0;
        /* round start: the newly fixed cells (static: a cell turning true is a change) */
        for (int i = 0; i < nnf; i++) {
            int x = nf[i];
            if (!fixed[x]) {
                fixed[x] = 1;
                if (st) any = 1;
            }
        }
        /* A: a value fixed twice in a house; naked singles clear their peers */
        for (int i = 0; i < nnf; i++) {
            int x = nf[i];
            uint32_t v = c[x];
            for (int k = 0; k < 3; k++) {
                int h = g->chouse[x][k];
                if (fo[h] & v) bad = 1;
                fo[h] |= v;
            }
        }
        if (nnf * np > 4 * N) {
            /* many new ones (the first round): one sweep, each cell loses its houses' fixed values
             * (those of cells fixed before are gone already) */
            for (int x = 0; x < N; x++) {
                if (fixed[x]) continue;
                uint32_t e = c[x] & (fo[g->chouse[x][0]] | fo[g->chouse[x][1]] | fo[g->chouse[x][2]]);
                if (e) {
                    c[x] &= ~e;
                    CHANGED(x, 0, 0);
                }
            }
        } else {
            for (int i = 0; i < nnf; i++) {
                int x = nf[i];
                uint32_t v = c[x];
                const int16_t *pp = g->peer[x];
                for (int j = 0; j < np; j++) {
                    int p = pp[j];
                    if (!fixed[p] && (c[p] & v)) {
                        c[p] &= ~v;
                        CHANGED(p, 0, 0);
                    }
                }
            }
        }
        /* B: hidden singles in the houses that changed since they were last read */
        int nhc = 0;
        for (int h = 0; h < H; h++) {
            if (hdB[h] != r) continue;
            uint32_t once = 0, twice = 0;
            const int16_t *hc = g->hcell[h];
            for (int j = 0; j < n; j++) {
                uint32_t v = c[hc[j]];
                twice |= once & v, once |= v;
            }
            if (st) {
                once &= st->hvok[h];
                if (st->hvok[h] & ~once) bad = 1;
            } else if (once != full) {
                bad = 1;
            }
            /* a fixed cell's value has its one place there already: leave it out (no change) */
            uint32_t hid = once & ~twice & ~fo[h];
            if (!hid) continue;
            nhc = gather(c, hc, n, hid, w->hcacc, w->hcl, nhc);
        }
        for (int i = 0; i < nhc; i++) {
            int x = w->hcl[i];
            uint32_t b = w->hcacc[x];
            w->hcacc[x] = 0;
            if (st && fixed[x]) continue; /* a true cell is not a hidden single again */
            if (b & (b - 1)) bad = 1;
            if (b != c[x]) {
                c[x] = b;
                CHANGED(x, 1, 0);
            }
            if (st) {
                fixed[x] = 1, any = 1;
                nfn[nnfn++] = (int16_t)x;
            }
        }
        /* C: locked candidates in the intersections whose line or box changed */
        if (dynamic) {
            int ne = 0;
            for (int k = 0; k < g->NI; k++) {
                if (hdC[g->iline[k]] != r && hdC[g->ibox[k]] != r) continue;
                uint32_t inside = 0, lr = 0, br = 0;
                for (int j = 0; j < g->m; j++) inside |= c[g->icell[k][j]];
                for (int j = 0; j < n - g->m; j++) lr |= c[g->ilrest[k][j]], br |= c[g->ibrest[k][j]];
                uint32_t point = inside & ~br, claim = inside & ~lr;
                if (point) ne = gather(c, g->ilrest[k], n - g->m, point, w->eacc, w->el, ne);
                if (claim) ne = gather(c, g->ibrest[k], n - g->m, claim, w->eacc, w->el, ne);
            }
            for (int i = 0; i < ne; i++) {
                int x = w->el[i];
                c[x] &= ~w->eacc[x];
                w->eacc[x] = 0;
                CHANGED(x, 1, 1);
            }
        }
        /* D: emptied cells; the cells fixed next round */
        if (r == 1 && !base) {
            for (int x = 0; x < N; x++)
                if (!c[x] && (!st || st->two[x])) bad = 1;
        }
        for (int i = 0; i < nch; i++) {
            int x = chg[i];
            uint32_t v = c[x];
            if (!v) {
                if (!st || st->two[x]) bad = 1;
            } else if (!(v & (v - 1)) && !fixed[x] && (!st || st->two[x])) {
                nfn[nnfn++] = (int16_t)x;
                if (w->dead && (w->dead[x] & v)) bad = 1; /* a candidate known to contradict, decided */
            }
        }
        *rounds = r;
        if (bad) return 1;
        if (!any) return 0;
        int16_t *t = nf;
        nf = nfn, nfn = t, nnf = nnfn;
    }
#undef CHANGED
}

/* After a run of the singles (not static) that ended without contradiction, the row is a
 * fixpoint whose fixed cells and house values the work arrays hold: keep it as a base. */
static void keep_base(const geo_t *g, const work_t *w, const uint32_t *c, base_t *b) {
    memcpy(b->row, c, sizeof(uint32_t) * (size_t)g->N);
    memcpy(b->fixed, w->fixed, (size_t)g->N);
    memcpy(b->fo, w->fo, sizeof(uint32_t) * (size_t)g->H);
    b->valid = 1;
}

/* The level-k verdict of a row (in place; the row ends at its singles fixpoint). ``nd``: the
 * cells (w->diff) where it differs from ``base`` (a fixpoint), or -1 if none is known. */
static int closure(const geo_t *g, work_t *w, uint32_t *row, int level, const base_t *base, int nd) {
    int rounds;
    if (run_row(g, w, row, 0, NULL, &rounds, base, nd)) return 1;
    if (level <= 0) return 0;
    uint32_t *sub = w->rows[level - 1];
    base_t *mine = &w->bases[level];
    const int N = g->N;
    keep_base(g, w, row, mine);
    for (;;) {
        int found = 0;
        for (int x = 0; x < N; x++) {
            uint32_t m = row[x];
            if (!(m & (m - 1))) continue;
            while (m) {
                uint32_t b = m & -m;
                m ^= b;
                if (!(row[x] & (row[x] - 1))) break; /* decided since */
                if (!(row[x] & b)) continue;
                memcpy(sub, row, sizeof(uint32_t) * (size_t)N);
                sub[x] = b;
                w->diff[0] = (int16_t)x;
                if (closure(g, w, sub, level - 1, mine, 1)) {
                    /* the candidate is false here: remove it and propagate at once */
                    row[x] &= ~b;
                    found = 1;
                    w->diff[0] = (int16_t)x;
                    if (run_row(g, w, row, 0, NULL, &rounds, mine, 1)) return 1;
                    keep_base(g, w, row, mine);
                }
            }
        }
        if (!found) return 0;
    }
}

/* scratch for a run of rows (its gather accumulators cleared), or NULL with MemoryError set */
static work_t *new_work(void) {
    work_t *w = malloc(sizeof *w);
    if (!w) {
        PyErr_NoMemory();
        return NULL;
    }
    memset(w->hcacc, 0, sizeof w->hcacc), memset(w->eacc, 0, sizeof w->eacc);
    w->dead = NULL;
    return w;
}

/* ---- the recording variant ----------------------------------------------------------------
 *
 * One branch from one assumption, every new fact recorded with its rule and the earlier facts
 * it rests on: the compiled twin of techniques.implication.Tracer.run at level 0 without locked
 * candidates, fact for fact (same facts, order, premises and end). A true fact clears its cell
 * and its value's peers (``peer``), first in a queue; a cell left with one start candidate is
 * true (``cell``), a value left with one start place in a house too (``house``); the run ends
 * at a cell or house emptied, a value true twice in a house, or when nothing is left to do.
 * Static: a cell or house counts only if it had two candidates (places) at most at the start.
 * One digit: only the assumed value's own implications (no cell rule, no other values). */

enum { R_ASSUME, R_PEER, R_CELL, R_HOUSE, R_STEP };
enum { E_NONE, E_CELL, E_HOUSE, E_TWICE, E_ERROR };

/* the step-start state a recorder runs branches from; ``step_maker(record, k)`` gives the
 * Explanation of a branch's k-th locked-candidates step (read when a kept fact needs it) */
typedef struct {
    PyObject_HEAD
    const geo_t *g;
    PyObject *step_maker;
    uint32_t start[MAXC];
    uint8_t vals[MAXC];
    uint32_t given[MAXH];
    cellset stpos[MAXN], hmask[MAXH], pmask[MAXC], inter[MAXI];
} Recorder;

typedef struct {
    PyObject_HEAD
    Recorder *owner;
    int n, N, nf, capf, np, capp, stat, one;
    int16_t *fc;
    int32_t *fx; /* a house fact's house, a step fact's step */
    int8_t *fv, *ft, *fr;
    int32_t *pstart, *plen, *prem;
    int32_t *ti, *fi; /* fact index per (cell, value), true and false; -1 */
    PyObject **cache; /* the facts as Python tuples, built when read */
    /* locked-candidates steps of a dynamic branch: value, confining house, other house, and
     * how many facts there were when they were found (the branch state they read) */
    int nsteps, capsteps;
    int32_t *steps;
    PyObject **stepobj;
    int end, end_cell, end_house, end_value, end_cells[2], solved;
    int32_t *eprem;
    int nep;
    /* run state */
    uint32_t cur[MAXC];
    cellset pos[MAXN];
    int true_of[MAXC];
    int htrue[MAXH * MAXN];
    int *queue, qh, qt;
} Record;

static PyTypeObject RecordType, RecorderType;

static int rec_grow(Record *R, int extra_prem) {
    if (R->nf == R->capf) {
        int cap = R->capf * 2;
        void *p;
#define GROW(field, type) \
    if (!(p = realloc(R->field, sizeof(type) * (size_t)cap))) return -1; \
    R->field = p;
        GROW(fc, int16_t) GROW(fx, int32_t) GROW(fv, int8_t) GROW(ft, int8_t) GROW(fr, int8_t)
        GROW(pstart, int32_t) GROW(plen, int32_t)
#undef GROW
        R->capf = cap;
    }
    while (R->np + extra_prem > R->capp) {
        void *p = realloc(R->prem, sizeof(int32_t) * (size_t)R->capp * 2);
        if (!p) return -1;
        R->prem = p, R->capp *= 2;
    }
    return 0;
}

/* record a fact; -1 when out of memory (the run then ends in error) */
static int rec_fact(Record *R, int c, int v, int t, int rule, const int32_t *prem, int np, int extra) {
    if (rec_grow(R, np) < 0) {
        R->end = E_ERROR;
        return -1;
    }
    int i = R->nf++;
    R->fc[i] = (int16_t)c, R->fv[i] = (int8_t)v, R->ft[i] = (int8_t)t, R->fr[i] = (int8_t)rule;
    R->fx[i] = extra;
    R->pstart[i] = R->np, R->plen[i] = np;
    memcpy(R->prem + R->np, prem, sizeof(int32_t) * (size_t)np);
    R->np += np;
    (t ? R->ti : R->fi)[c * R->n + v - 1] = i;
    return i;
}

static void rec_end(Record *R, int kind, const int32_t *prem, int np) {
    R->end = kind;
    memcpy(R->eprem, prem, sizeof(int32_t) * (size_t)np);
    R->nep = np;
}

static int add_true(Record *R, int c, int v, int rule, const int32_t *prem, int np, int extra);
static int add_false(Record *R, int c, int v, int rule, const int32_t *prem, int np, int check, int extra);

/* a true and a false fact on one candidate: the end they make (always ends the run) */
static void conflict(Record *R, int ti, int fi) {
    int32_t buf[2 * MAXC + 2];
    int c = R->fc[ti], v = R->fv[ti], rule = R->fr[ti];
    if (rule == R_CELL || rule == R_HOUSE) {
        int np = R->plen[ti];
        memcpy(buf, R->prem + R->pstart[ti], sizeof(int32_t) * (size_t)np);
        buf[np++] = fi;
        rec_end(R, rule == R_CELL ? E_CELL : E_HOUSE, buf, np);
        if (rule == R_CELL) R->end_cell = c;
        else R->end_house = R->fx[ti], R->end_value = v;
        return;
    }
    /* the true fact is the assumption: the false one is a peer of a true premise */
    if (R->fr[fi] != R_PEER) {
        R->end = E_ERROR;
        return;
    }
    int p = R->prem[R->pstart[fi]];
    int pc = R->fc[p], pv = R->fv[p];
    if (pc != c) {
        buf[0] = ti, buf[1] = p;
        rec_end(R, E_TWICE, buf, 2);
        R->end_cells[0] = c, R->end_cells[1] = pc, R->end_value = v;
        return;
    }
    /* two true values in one cell: the other one is a cell/house fact */
    int32_t one = ti;
    int gi = add_false(R, pc, pv, R_PEER, &one, 1, 0, -1);
    if (gi < 0) return;
    conflict(R, p, gi);
}

static int add_false(Record *R, int c, int v, int rule, const int32_t *prem, int np, int check, int extra) {
    const Recorder *S = R->owner;
    const geo_t *g = S->g;
    int n = R->n, k = c * n + v - 1;
    if (R->fi[k] >= 0) return R->fi[k];
    int i = rec_fact(R, c, v, 0, rule, prem, np, extra);
    if (i < 0) return -1;
    uint32_t bit = 1u << (v - 1);
    R->cur[c] &= ~bit;
    cs_del(&R->pos[v - 1], c);
    int ti = R->ti[k];
    if (ti >= 0) {
        if (check) {
            conflict(R, ti, i);
            return -1;
        }
        return i;
    }
    int32_t buf[MAXN + 1];
    uint32_t m = R->cur[c], st = S->start[c];
    int two = (!R->stat || __builtin_popcount(st) <= 2) && !R->one;
    if (!m && two) {
        int nb = 0;
        for (uint32_t b = st; b; b &= b - 1) buf[nb++] = R->fi[c * n + __builtin_ctz(b)];
        rec_end(R, E_CELL, buf, nb);
        R->end_cell = c;
        return -1;
    }
    if (m && two && R->true_of[c] < 0 && !(m & (m - 1))) {
        int u = __builtin_ctz(m) + 1, nb = 0;
        for (uint32_t b = st; b; b &= b - 1)
            if (__builtin_ctz(b) + 1 != u) buf[nb++] = R->fi[c * n + __builtin_ctz(b)];
        if (add_true(R, c, u, R_CELL, buf, nb, -1) < 0) return -1;
    }
    cellset pv = R->pos[v - 1];
    int nw = (g->N + 63) / 64;
    for (int kk = 0; kk < 3; kk++) {
        int h = g->chouse[c][kk];
        if (S->given[h] & bit) continue;
        cellset w, places;
        cs_and(&w, &pv, &S->hmask[h], nw);
        cs_and(&places, &S->stpos[v - 1], &S->hmask[h], nw);
        if (R->stat && cs_count(&places, nw) > 2) continue;
        if (cs_empty(&w, nw)) {
            int nb = 0;
            CS_FOREACH(y, &places, nw) buf[nb++] = R->fi[y * n + v - 1];
            rec_end(R, E_HOUSE, buf, nb);
            R->end_house = h, R->end_value = v;
            return -1;
        }
        if (cs_count(&w, nw) == 1 && R->htrue[h * n + v - 1] < 0) {
            int y = cs_next(&w, 0, nw), nb = 0;
            CS_FOREACH(z, &places, nw) if (z != y) buf[nb++] = R->fi[z * n + v - 1];
            if (add_true(R, y, v, R_HOUSE, buf, nb, h) < 0) return -1;
        }
    }
    return i;
}

static int add_true(Record *R, int c, int v, int rule, const int32_t *prem, int np, int extra) {
    const geo_t *g = R->owner->g;
    int n = R->n, k = c * n + v - 1;
    if (R->ti[k] >= 0) return R->ti[k];
    int i = rec_fact(R, c, v, 1, rule, prem, np, extra);
    if (i < 0) return -1;
    if (R->fi[k] >= 0) {
        conflict(R, i, R->fi[k]);
        return -1;
    }
    if (R->true_of[c] >= 0) {
        /* another value is already true here: it loses this one (peer), a conflict */
        int32_t one = i;
        int gi = add_false(R, c, R->fv[R->true_of[c]], R_PEER, &one, 1, 0, -1);
        if (gi < 0) return -1;
        conflict(R, R->true_of[c], gi);
        return -1;
    }
    R->true_of[c] = i;
    for (int kk = 0; kk < 3; kk++) {
        int h = g->chouse[c][kk], j = R->htrue[h * n + v - 1];
        if (j >= 0) {
            int32_t buf[2] = {j, i};
            rec_end(R, E_TWICE, buf, 2);
            R->end_cells[0] = R->fc[j], R->end_cells[1] = c, R->end_value = v;
            return -1;
        }
        R->htrue[h * n + v - 1] = i;
    }
    R->queue[R->qt++] = i;
    return i;
}

static int expand(Record *R, int i) {
    const Recorder *S = R->owner;
    int c = R->fc[i], v = R->fv[i], nw = (S->g->N + 63) / 64;
    int32_t one = i;
    if (!R->one)
        for (uint32_t b = S->start[c]; b; b &= b - 1) {
            int u = __builtin_ctz(b) + 1;
            if (u != v && add_false(R, c, u, R_PEER, &one, 1, 1, -1) < 0) return -1;
        }
    cellset ys;
    cs_and(&ys, &S->pmask[c], &S->stpos[v - 1], nw);
    CS_FOREACH(y, &ys, nw) if (add_false(R, y, v, R_PEER, &one, 1, 1, -1) < 0) return -1;
    return 0;
}

/* Dynamic branches: the locked candidates of the branch's state (the start minus its false
 * facts), in the order techniques.intersections.find yields them (by value; pointing, then
 * claiming; intersections in order), each removal a ``step`` fact resting on the false facts
 * that confine the value to the intersection. 1 if there was one, 0 if none, -1 at an end. */
static int locked_facts(Record *R) {
    const Recorder *S = R->owner;
    const geo_t *g = S->g;
    const int n = g->n, nw = (g->N + 63) / 64, upto = R->nf;
    cellset snap[MAXN];
    memcpy(snap, R->pos, sizeof(cellset) * (size_t)n);
    int done = 0;
    for (int v = 1; v <= n; v++) {
        const cellset *pv = &snap[v - 1];
        if (cs_empty(pv, nw)) continue;
        for (int confining = 0; confining < 2; confining++) /* the box confines, then the line */
            for (int k = 0; k < g->NI; k++) {
                cellset inside, outside, removed;
                cs_and(&inside, pv, &S->inter[k], nw);
                if (cs_empty(&inside, nw)) continue;
                int r1 = confining == 0 ? g->ibox[k] : g->iline[k], r2 = confining == 0 ? g->iline[k] : g->ibox[k];
                cs_and(&outside, pv, &S->hmask[r1], nw);
                cs_andnot(&outside, &outside, &S->inter[k], nw);
                if (!cs_empty(&outside, nw)) continue;
                cs_and(&removed, pv, &S->hmask[r2], nw);
                cs_andnot(&removed, &removed, &S->inter[k], nw);
                if (cs_empty(&removed, nw)) continue;
                if (R->nsteps == R->capsteps) {
                    int cap = R->capsteps ? 2 * R->capsteps : 16;
                    void *p = realloc(R->steps, sizeof(int32_t) * 4 * (size_t)cap);
                    if (!p) {
                        R->end = E_ERROR;
                        return -1;
                    }
                    R->steps = p, R->capsteps = cap;
                }
                int sid = R->nsteps++;
                R->steps[4 * sid] = v, R->steps[4 * sid + 1] = r1, R->steps[4 * sid + 2] = r2;
                R->steps[4 * sid + 3] = upto;
                int32_t prem[MAXN + 1];
                int np = 0;
                cellset gone;
                cs_and(&gone, &S->stpos[v - 1], &S->hmask[r1], nw);
                cs_andnot(&gone, &gone, &S->inter[k], nw);
                CS_FOREACH(z, &gone, nw) {
                    if (R->fi[z * n + v - 1] < 0) {
                        R->end = E_ERROR;
                        return -1;
                    }
                    prem[np++] = R->fi[z * n + v - 1];
                }
                if (!np) prem[np++] = 0;
                CS_FOREACH(c, &removed, nw) if (add_false(R, c, v, R_STEP, prem, np, 1, sid) < 0) return -1;
                done = 1;
            }
    }
    return done;
}

static void record_dealloc(Record *R) {
    if (R->cache) {
        for (int i = 0; i < R->nf; i++) Py_XDECREF(R->cache[i]);
        free(R->cache);
    }
    free(R->fc), free(R->fx), free(R->fv), free(R->ft), free(R->fr), free(R->pstart), free(R->plen);
    free(R->prem), free(R->ti), free(R->fi), free(R->eprem), free(R->queue);
    if (R->stepobj) {
        for (int i = 0; i < R->nsteps; i++) Py_XDECREF(R->stepobj[i]);
        free(R->stepobj);
    }
    free(R->steps);
    Py_XDECREF(R->owner);
    Py_TYPE(R)->tp_free((PyObject *)R);
}

static PyObject *recorder_run(Recorder *S, PyObject *args) {
    int cell, value, truth, stat, one, dynamic = 0;
    if (!PyArg_ParseTuple(args, "iippp|p", &cell, &value, &truth, &stat, &one, &dynamic)) return NULL;
    const geo_t *g = S->g;
    int n = g->n, N = g->N;
    if (cell < 0 || cell >= N || value < 1 || value > n) return PyErr_Format(PyExc_ValueError, "no such candidate");
    Record *R = PyObject_New(Record, &RecordType);
    if (!R) return NULL;
    Py_INCREF(S);
    R->owner = S;
    R->n = n, R->N = N, R->nf = 0, R->np = 0, R->stat = stat, R->one = one;
    R->capf = 2 * N, R->capp = 4 * N;
    R->cache = NULL, R->end = E_NONE, R->nep = 0, R->solved = 0, R->qh = R->qt = 0;
    R->nsteps = R->capsteps = 0, R->steps = NULL, R->stepobj = NULL;
    R->fc = malloc(sizeof(int16_t) * (size_t)R->capf), R->fx = malloc(sizeof(int32_t) * (size_t)R->capf);
    R->fv = malloc((size_t)R->capf), R->ft = malloc((size_t)R->capf), R->fr = malloc((size_t)R->capf);
    R->pstart = malloc(sizeof(int32_t) * (size_t)R->capf), R->plen = malloc(sizeof(int32_t) * (size_t)R->capf);
    R->prem = malloc(sizeof(int32_t) * (size_t)R->capp);
    R->ti = malloc(sizeof(int32_t) * (size_t)(N * n)), R->fi = malloc(sizeof(int32_t) * (size_t)(N * n));
    R->eprem = malloc(sizeof(int32_t) * (size_t)(2 * MAXC + 2));
    R->queue = malloc(sizeof(int) * (size_t)(N + 1));
    if (!R->fc || !R->fx || !R->fv || !R->ft || !R->fr || !R->pstart || !R->plen || !R->prem || !R->ti || !R->fi ||
        !R->eprem || !R->queue) {
        Py_DECREF(R);
        return PyErr_NoMemory();
    }
    memset(R->ti, 0xff, sizeof(int32_t) * (size_t)(N * n));
    memset(R->fi, 0xff, sizeof(int32_t) * (size_t)(N * n));
    memcpy(R->cur, S->start, sizeof(uint32_t) * (size_t)N);
    memcpy(R->pos, S->stpos, sizeof(cellset) * (size_t)n);
    for (int x = 0; x < N; x++) R->true_of[x] = -1;
    memset(R->htrue, 0xff, sizeof(int) * (size_t)(3 * n * n));
    int ok = truth ? add_true(R, cell, value, R_ASSUME, NULL, 0, -1)
                   : add_false(R, cell, value, R_ASSUME, NULL, 0, 1, -1);
    for (;;) {
        while (ok >= 0 && R->qh < R->qt) ok = expand(R, R->queue[R->qh++]);
        if (ok < 0 || !dynamic) break;
        ok = locked_facts(R);
        if (ok <= 0) break;
    }
    if (R->end == E_ERROR) {
        Py_DECREF(R);
        return PyErr_Format(PyExc_AssertionError, "unexpected conflict (or out of memory) in a recorded branch");
    }
    if (R->end == E_NONE) {
        R->solved = 1;
        for (int x = 0; x < N && R->solved; x++)
            if (R->true_of[x] < 0 && !S->vals[x]) R->solved = 0;
    }
    R->cache = calloc((size_t)R->nf + 1, sizeof(PyObject *));
    R->stepobj = calloc((size_t)R->nsteps + 1, sizeof(PyObject *));
    if (!R->cache || !R->stepobj) {
        Py_DECREF(R);
        return PyErr_NoMemory();
    }
    return (PyObject *)R;
}

static PyObject *RULES[5];

static Py_ssize_t record_len(Record *R) { return R->nf; }

/* fact i as techniques.implication records it: (cell, value, truth, rule, premises, extra) */
static PyObject *record_item(Record *R, Py_ssize_t i) {
    if (i < 0 || i >= R->nf) {
        PyErr_SetString(PyExc_IndexError, "fact index out of range");
        return NULL;
    }
    if (!R->cache[i]) {
        PyObject *prem = ints_to_py(R->prem + R->pstart[i], R->plen[i], 1);
        if (!prem) return NULL;
        PyObject *extra;
        if (R->fr[i] == R_HOUSE) {
            extra = PyLong_FromLong(R->fx[i]);
        } else if (R->fr[i] == R_STEP) {
            int k = R->fx[i];
            if (!R->stepobj[k]) {
                R->stepobj[k] = PyObject_CallFunction(R->owner->step_maker, "Oi", (PyObject *)R, k);
                if (!R->stepobj[k]) {
                    Py_DECREF(prem);
                    return NULL;
                }
            }
            extra = R->stepobj[k];
            Py_INCREF(extra);
        } else {
            Py_INCREF(Py_None);
            extra = Py_None;
        }
        if (!extra) {
            Py_DECREF(prem);
            return NULL;
        }
        R->cache[i] = Py_BuildValue("(iiOONN)", R->fc[i], R->fv[i], R->ft[i] ? Py_True : Py_False, RULES[(int)R->fr[i]],
                                    prem, extra);
        if (!R->cache[i]) return NULL;
    }
    Py_INCREF(R->cache[i]);
    return R->cache[i];
}

static PyObject *record_find(Record *R, PyObject *args) {
    int c, v, t;
    if (!PyArg_ParseTuple(args, "iip", &c, &v, &t)) return NULL;
    if (c < 0 || c >= R->N || v < 1 || v > R->n) Py_RETURN_NONE;
    int i = (t ? R->ti : R->fi)[c * R->n + v - 1];
    if (i < 0) Py_RETURN_NONE;
    return PyLong_FromLong(i);
}

/* None, or (kind, premises, keywords) of techniques.implication._End */
static PyObject *record_end(Record *R, void *closure_) {
    (void)closure_;
    if (R->end == E_NONE) Py_RETURN_NONE;
    PyObject *prem = ints_to_py(R->eprem, R->nep, 0);
    if (!prem) return NULL;
    if (R->end == E_CELL) return Py_BuildValue("(sN{s:i})", "cell", prem, "cell", R->end_cell);
    if (R->end == E_HOUSE)
        return Py_BuildValue("(sN{s:i,s:i})", "house", prem, "house", R->end_house, "value", R->end_value);
    return Py_BuildValue("(sN{s:(ii),s:i})", "twice", prem, "cells", R->end_cells[0], R->end_cells[1], "value",
                         R->end_value);
}

/* step k of a dynamic branch: (value, confining house, other house, facts before it) */
static PyObject *record_step_info(Record *R, PyObject *arg) {
    long k = PyLong_AsLong(arg);
    if (k < 0 || k >= R->nsteps) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_IndexError, "step index out of range");
        return NULL;
    }
    const int32_t *s = R->steps + 4 * k;
    return Py_BuildValue("(iiii)", s[0], s[1], s[2], s[3]);
}

/* the (cell, value) of the false facts among the first ``upto`` */
static PyObject *record_falses(Record *R, PyObject *arg) {
    long upto = PyLong_AsLong(arg);
    if (upto == -1 && PyErr_Occurred()) return NULL;
    if (upto > R->nf) upto = R->nf;
    PyObject *out = PyList_New(0);
    for (int i = 0; out && i < upto; i++)
        if (!R->ft[i] && list_add(out, Py_BuildValue("(ii)", R->fc[i], R->fv[i])) < 0) Py_CLEAR(out);
    return out;
}

static PyObject *record_solved(Record *R, void *closure_) {
    (void)closure_;
    return PyBool_FromLong(R->solved);
}

/* the facts the roots rest on (roots and the assumption included), in order */
static PyObject *record_needed(Record *R, PyObject *roots) {
    PyObject *seq = PySequence_Fast(roots, "roots must be a sequence");
    if (!seq) return NULL;
    uint8_t *keep = calloc((size_t)R->nf + 1, 1);
    int32_t *stack = malloc(sizeof(int32_t) * ((size_t)R->np + (size_t)PySequence_Fast_GET_SIZE(seq) + 1));
    if (!keep || !stack) {
        free(keep), free(stack);
        Py_DECREF(seq);
        return PyErr_NoMemory();
    }
    int top = 0;
    for (Py_ssize_t j = 0; j < PySequence_Fast_GET_SIZE(seq); j++) {
        long i = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, j));
        if (i < 0 || i >= R->nf) {
            free(keep), free(stack);
            Py_DECREF(seq);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_IndexError, "fact index out of range");
            return NULL;
        }
        stack[top++] = (int32_t)i;
    }
    Py_DECREF(seq);
    while (top) {
        int i = stack[--top];
        if (keep[i]) continue;
        keep[i] = 1;
        for (int j = 0; j < R->plen[i]; j++) stack[top++] = R->prem[R->pstart[i] + j];
    }
    if (R->nf) keep[0] = 1;
    PyObject *out = PyList_New(0);
    for (int i = 0; out && i < R->nf; i++)
        if (keep[i] && list_add(out, PyLong_FromLong(i)) < 0) Py_CLEAR(out);
    free(keep), free(stack);
    return out;
}

/* ---- proof minimisation: the twin of techniques.implication.shortest and _closure --------
 *
 * Each fact's alternatives (every way it follows from earlier facts under the run's rules:
 * ``_alternatives``), the cheapest of each counted as a tree (one pass in run order, the
 * first cheapest kept), then single changes of one fact's choice that shrink the set the
 * roots rest on, while some does (at most ``rounds`` passes over the kept facts, in order).
 * Exactly the Python twin's steps, in its order, so the same proof comes out. A tree cost
 * past 2^62 (not met in practice) gives None: the caller then runs the twin. */

typedef struct {
    int nf, na, capa, nprem, capprem;
    int32_t *astart, *acount;       /* per fact: its first alternative, how many */
    int8_t *arule;                  /* per alternative: its rule */
    int32_t *apstart, *aplen, *apre; /* per alternative: its premises */
    int32_t *choice;                /* per fact: the alternative chosen */
    int32_t *stamp, *stack;         /* closure work */
    int now;
} mini_t;

static void mini_free(mini_t *M) {
    free(M->astart), free(M->acount), free(M->arule), free(M->apstart), free(M->aplen), free(M->apre);
    free(M->choice), free(M->stamp), free(M->stack);
}

/* add an alternative to fact i (its rule and premises); -1 out of memory */
static int mini_alt(mini_t *M, int rule, const int32_t *prem, int np) {
    if (M->na == M->capa) {
        int cap = M->capa * 2;
        void *a = realloc(M->arule, (size_t)cap), *b = realloc(M->apstart, sizeof(int32_t) * (size_t)cap),
             *c = realloc(M->aplen, sizeof(int32_t) * (size_t)cap);
        if (a) M->arule = a;
        if (b) M->apstart = b;
        if (c) M->aplen = c;
        if (!a || !b || !c) return -1;
        M->capa = cap;
    }
    while (M->nprem + np > M->capprem) {
        void *p = realloc(M->apre, sizeof(int32_t) * (size_t)M->capprem * 2);
        if (!p) return -1;
        M->apre = p, M->capprem *= 2;
    }
    M->arule[M->na] = (int8_t)rule, M->apstart[M->na] = M->nprem, M->aplen[M->na] = np;
    memcpy(M->apre + M->nprem, prem, sizeof(int32_t) * (size_t)np);
    M->nprem += np;
    M->na++;
    return 0;
}

/* fact j if it is recorded before fact i, else -1 */
static inline int earlier(const Record *R, int c, int v, int t, int i) {
    int j = (t ? R->ti : R->fi)[c * R->n + v - 1];
    return j >= 0 && j < i ? j : -1;
}

/* the alternatives of fact i (``_alternatives``); -1 out of memory */
static int mini_alternatives(mini_t *M, const Record *R, int i) {
    const Recorder *S = R->owner;
    const geo_t *g = S->g;
    int n = R->n, nw = (g->N + 63) / 64, c = R->fc[i], v = R->fv[i], rule = R->fr[i];
    int first = M->na;
    M->astart[i] = first;
    if (rule != R_ASSUME && rule != R_STEP) {
        int32_t buf[MAXN + 1];
        if (!R->ft[i]) {
            cellset ys;
            cs_and(&ys, &S->pmask[c], &S->stpos[v - 1], nw);
            CS_FOREACH(y, &ys, nw) {
                int j = earlier(R, y, v, 1, i);
                if (j >= 0 && mini_alt(M, R_PEER, (int32_t[]){j}, 1) < 0) return -1;
            }
            if (!R->one)
                for (uint32_t b = S->start[c]; b; b &= b - 1) {
                    int u = __builtin_ctz(b) + 1, j = u != v ? earlier(R, c, u, 1, i) : -1;
                    if (j >= 0 && mini_alt(M, R_PEER, (int32_t[]){j}, 1) < 0) return -1;
                }
        } else {
            uint32_t others = S->start[c] & ~(1u << (v - 1));
            if (!R->one && (!R->stat || __builtin_popcount(others) <= 1)) {
                int nb = 0, ok = 1;
                for (uint32_t b = others; b && ok; b &= b - 1) {
                    int j = earlier(R, c, __builtin_ctz(b) + 1, 0, i);
                    if (j < 0) ok = 0;
                    else buf[nb++] = j;
                }
                if (ok && mini_alt(M, R_CELL, buf, nb) < 0) return -1;
            }
            for (int kk = 0; kk < 3; kk++) {
                int h = g->chouse[c][kk];
                cellset places;
                cs_and(&places, &S->stpos[v - 1], &S->hmask[h], nw);
                cs_del(&places, c);
                int k = cs_count(&places, nw);
                if (!k || (R->stat && k > 1)) continue;
                int nb = 0, ok = 1;
                CS_FOREACH(y, &places, nw) {
                    int j = earlier(R, y, v, 0, i);
                    if (j < 0) {
                        ok = 0;
                        break;
                    }
                    buf[nb++] = j;
                }
                if (ok && mini_alt(M, R_HOUSE, buf, nb) < 0) return -1;
            }
        }
    }
    if (M->na == first && mini_alt(M, rule, R->prem + R->pstart[i], R->plen[i]) < 0) return -1;
    M->acount[i] = M->na - first;
    return 0;
}

static inline int alt_equal(const mini_t *M, int a, int b) {
    return a == b || (M->arule[a] == M->arule[b] && M->aplen[a] == M->aplen[b] &&
                      !memcmp(M->apre + M->apstart[a], M->apre + M->apstart[b], sizeof(int32_t) * (size_t)M->aplen[a]));
}

/* the facts the roots rest on under the choices (``_closure``): marked with a new stamp; their count */
static int mini_closure(mini_t *M, const int32_t *roots, int nroots) {
    int st = ++M->now, top = 0, count = 1;
    M->stamp[0] = st;
    for (int k = 0; k < nroots; k++) M->stack[top++] = roots[k];
    while (top) {
        int i = M->stack[--top];
        if (M->stamp[i] == st && i != 0) continue;
        if (M->stamp[i] != st) M->stamp[i] = st, count++;
        int a = M->choice[i];
        for (int k = 0; k < M->aplen[a]; k++) {
            int p = M->apre[M->apstart[a] + k];
            if (M->stamp[p] != st) M->stack[top++] = p;
        }
    }
    return count;
}

static PyObject *record_shortest(Record *R, PyObject *args) {
    PyObject *roots_o;
    int rounds = 4;
    if (!PyArg_ParseTuple(args, "O|i", &roots_o, &rounds)) return NULL;
    PyObject *seq = PySequence_Fast(roots_o, "roots must be a sequence");
    if (!seq) return NULL;
    int nroots = (int)PySequence_Fast_GET_SIZE(seq), nf = R->nf;
    mini_t M = {.nf = nf, .capa = 8 * nf + 8, .capprem = 8 * nf + 8};
    int32_t *roots = malloc(sizeof(int32_t) * (size_t)(nroots + 1));
    uint64_t *cost = malloc(sizeof(uint64_t) * (size_t)(nf + 1));
    M.astart = malloc(sizeof(int32_t) * (size_t)(nf + 1)), M.acount = malloc(sizeof(int32_t) * (size_t)(nf + 1));
    M.arule = malloc((size_t)M.capa), M.apstart = malloc(sizeof(int32_t) * (size_t)M.capa);
    M.aplen = malloc(sizeof(int32_t) * (size_t)M.capa), M.apre = malloc(sizeof(int32_t) * (size_t)M.capprem);
    M.choice = malloc(sizeof(int32_t) * (size_t)(nf + 1)), M.stamp = calloc((size_t)nf + 1, sizeof(int32_t));
    M.stack = malloc(sizeof(int32_t) * ((size_t)R->np + (size_t)nf * (MAXPEER + MAXN) + (size_t)nroots + 1));
    PyObject *out = NULL;
    if (!roots || !cost || !M.astart || !M.acount || !M.arule || !M.apstart || !M.aplen || !M.apre || !M.choice ||
        !M.stamp || !M.stack) {
        PyErr_NoMemory();
        goto done;
    }
    for (int k = 0; k < nroots; k++) {
        long i = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, k));
        if (i < 0 || i >= nf) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_IndexError, "fact index out of range");
            goto done;
        }
        roots[k] = (int32_t)i;
    }
    for (int i = 0; i < nf; i++) {
        if (mini_alternatives(&M, R, i) < 0) {
            PyErr_NoMemory();
            goto done;
        }
        int best = -1;
        uint64_t best_cost = 0;
        for (int a = M.astart[i]; a < M.astart[i] + M.acount[i]; a++) {
            uint64_t sum = 0;
            for (int k = 0; k < M.aplen[a]; k++) sum += cost[M.apre[M.apstart[a] + k]];
            if (sum >> 62) { /* past what the twin's integers and ours agree on: let the twin do it */
                out = Py_None;
                Py_INCREF(out);
                goto done;
            }
            if (best < 0 || sum < best_cost) best = a, best_cost = sum;
        }
        M.choice[i] = best;
        cost[i] = 1 + best_cost;
    }
    int size = mini_closure(&M, roots, nroots), st = M.now;
    int32_t *order = malloc(sizeof(int32_t) * (size_t)(nf + 1));
    uint8_t *kept = malloc((size_t)nf + 1);
    if (!order || !kept) {
        free(order), free(kept);
        PyErr_NoMemory();
        goto done;
    }
    for (int i = 0; i < nf; i++) kept[i] = M.stamp[i] == st;
    for (int r = 0; r < rounds; r++) {
        int better = 0, no = 0;
        for (int i = 0; i < nf; i++)
            if (kept[i]) order[no++] = i;
        for (int k = 0; k < no; k++) {
            int i = order[k];
            if (M.acount[i] < 2 || !kept[i]) continue;
            for (int a = M.astart[i]; a < M.astart[i] + M.acount[i]; a++) {
                if (alt_equal(&M, a, M.choice[i])) continue;
                int old = M.choice[i];
                M.choice[i] = a;
                int trial = mini_closure(&M, roots, nroots);
                if (trial < size) {
                    size = trial, better = 1;
                    for (int x = 0; x < nf; x++) kept[x] = M.stamp[x] == M.now;
                } else {
                    M.choice[i] = old;
                }
            }
        }
        if (!better) break;
    }
    free(order);
    /* the kept facts, in order, each with the way it is justified: (fact, rule, premises) */
    mini_closure(&M, roots, nroots);
    for (int i = 0; i < nf; i++) kept[i] = M.stamp[i] == M.now;
    out = PyList_New(0);
    for (int i = 0; out && i < nf; i++) {
        if (!kept[i]) continue;
        int a = M.choice[i];
        PyObject *prem = ints_to_py(M.apre + M.apstart[a], M.aplen[a], 1);
        if (!prem || list_add(out, Py_BuildValue("(iON)", i, RULES[(int)M.arule[a]], prem)) < 0) Py_CLEAR(out);
    }
    free(kept);
done:
    Py_DECREF(seq);
    free(roots), free(cost);
    mini_free(&M);
    return out;
}

static PyMethodDef record_methods[] = {
    {"find", (PyCFunction)record_find, METH_VARARGS, "find(cell, value, truth): the fact's index or None."},
    {"needed", (PyCFunction)record_needed, METH_O, "needed(roots): the facts the roots rest on, in order."},
    {"shortest", (PyCFunction)record_shortest, METH_VARARGS,
     "shortest(roots, rounds=4): the kept facts of the smallest proof, as (fact, rule, premises), "
     "or None (let the pure twin do it)."},
    {"step_info", (PyCFunction)record_step_info, METH_O, "step_info(k): (value, house, other house, facts before)."},
    {"falses", (PyCFunction)record_falses, METH_O, "falses(upto): (cell, value) of the false facts before upto."},
    {NULL, NULL, 0, NULL},
};
static PyGetSetDef record_getset[] = {
    {"end", (getter)record_end, NULL, "None, or the end as (kind, premises, keywords).", NULL},
    {"solved", (getter)record_solved, NULL, "True if the branch ended with every cell true.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};
static PySequenceMethods record_seq = {.sq_length = (lenfunc)record_len, .sq_item = (ssizeargfunc)record_item};
static PyTypeObject RecordType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "explainer.core._propagate.Record",
    .tp_basicsize = sizeof(Record),
    .tp_dealloc = (destructor)record_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One recorded branch: a sequence of facts (cell, value, truth, rule, premises, extra).",
    .tp_as_sequence = &record_seq,
    .tp_methods = record_methods,
    .tp_getset = record_getset,
};

/* Recorder(n, cand, values): cand as uint32 (ncells), values as uint8 (ncells) */
static PyObject *recorder_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
    (void)kw;
    PyObject *cand_o, *vals_o, *maker = Py_None;
    int n;
    if (!PyArg_ParseTuple(args, "iOO|O", &n, &cand_o, &vals_o, &maker)) return NULL;
    const geo_t *g = geo_arg(n);
    if (!g) return NULL;
    const uint32_t *cand;
    const uint8_t *vals;
    view_t views[] = {VIEW(cand_o, 4, g->N, VIEW_IN, "cand", &cand),
                      VIEW(vals_o, 1, g->N, VIEW_IN, "values", &vals)};
    if (views_get(views, COUNT(views)) < 0) return NULL;
    Recorder *S = (Recorder *)type->tp_alloc(type, 0);
    if (S) {
        S->g = g;
        Py_INCREF(maker);
        S->step_maker = maker;
        for (int k = 0; k < g->NI; k++) {
            cs_clear(&S->inter[k]);
            for (int j = 0; j < g->m; j++) cs_add(&S->inter[k], g->icell[k][j]);
        }
        memcpy(S->start, cand, sizeof(uint32_t) * (size_t)g->N);
        memcpy(S->vals, vals, (size_t)g->N);
        for (int v = 0; v < n; v++) cs_clear(&S->stpos[v]);
        for (int x = 0; x < g->N; x++) {
            for (uint32_t b = S->start[x]; b; b &= b - 1) cs_add(&S->stpos[__builtin_ctz(b)], x);
            cs_clear(&S->pmask[x]);
            for (int j = 0; j < g->npeer; j++) cs_add(&S->pmask[x], g->peer[x][j]);
        }
        for (int h = 0; h < g->H; h++) {
            cs_clear(&S->hmask[h]);
            S->given[h] = 0;
            for (int j = 0; j < n; j++) {
                int x = g->hcell[h][j];
                cs_add(&S->hmask[h], x);
                if (S->vals[x]) S->given[h] |= 1u << (S->vals[x] - 1);
            }
        }
    }
    views_release(views, COUNT(views));
    return (PyObject *)S;
}

static void recorder_dealloc(Recorder *S) {
    Py_XDECREF(S->step_maker);
    Py_TYPE(S)->tp_free((PyObject *)S);
}

static PyMethodDef recorder_methods[] = {
    {"run", (PyCFunction)recorder_run, METH_VARARGS,
     "run(cell, value, truth, static, one_digit, dynamic=False): the recorded branch (a Record)."},
    {NULL, NULL, 0, NULL},
};
static PyTypeObject RecorderType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "explainer.core._propagate.Recorder",
    .tp_basicsize = sizeof(Recorder),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Recorder(n, cand, values, step_maker): records branches from one step-start state.",
    .tp_dealloc = (destructor)recorder_dealloc,
    .tp_new = recorder_new,
    .tp_methods = recorder_methods,
};

/* ---- Python interface -------------------------------------------------------------------- */


static PyObject *py_fixpoints(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *rows_o, *start_o, *contra_o, *rounds_o, *base_o = Py_None;
    int n, dynamic;
    Py_ssize_t B;
    if (!PyArg_ParseTuple(args, "OnipOOO|O", &rows_o, &B, &n, &dynamic, &start_o, &contra_o, &rounds_o, &base_o))
        return NULL;
    const geo_t *g = geo_arg(n);
    if (!g) return NULL;
    if (dynamic && start_o != Py_None) return PyErr_Format(PyExc_ValueError, "static chains are not dynamic");
    uint32_t *rows;
    uint8_t *contra;
    int32_t *rounds;
    const uint32_t *start, *base; /* NULL when None */
    view_t views[] = {VIEW(rows_o, 4, B * g->N, VIEW_OUT, "rows", &rows),
                      VIEW(contra_o, 1, B, VIEW_OUT, "contra", &contra),
                      VIEW(rounds_o, 4, B, VIEW_OUT, "rounds", &rounds),
                      VIEW(start_o, 4, g->N, VIEW_OPTIONAL, "start", &start),
                      VIEW(base_o, 4, g->N, VIEW_OPTIONAL, "base", &base)};
    if (views_get(views, COUNT(views)) < 0) return NULL;
    work_t *w = new_work();
    static_t *st = NULL;
    if (w && start && !(st = malloc(sizeof *st))) PyErr_NoMemory();
    if (!w || (start && !st)) {
        free(w);
        views_release(views, COUNT(views));
        return NULL;
    }
    if (st) static_masks(g, start, st);
    w->batch.valid = 0;
    if (base) {
        uint32_t *first = w->rows[0];
        int rd = 0;
        memcpy(first, base, sizeof(uint32_t) * (size_t)g->N);
        if (!run_row(g, w, first, dynamic, st, &rd, NULL, -1) && rd == 1) keep_base(g, w, first, &w->batch);
    }
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < B; i++) {
        int rd = 0;
        uint32_t *row = rows + i * g->N;
        int nd = w->batch.valid ? diff_from(g, w, row, &w->batch) : -1;
        contra[i] = (uint8_t)run_row(g, w, row, dynamic, st, &rd, &w->batch, nd);
        rounds[i] = rd;
    }
    Py_END_ALLOW_THREADS
    free(st);
    free(w);
    views_release(views, COUNT(views));
    Py_RETURN_NONE;
}

/* A forcing batch (every candidate of ``cells``/``bits`` assumed true, rows 0..k-1, then false,
 * k..2k-1, on ``base``) from an earlier batch's fixpoints: new row i starts at its old row's
 * (``old[i]``) fixpoint cut down to its own start row. An old contradiction stays one (its row
 * cut down, not run); a row that loses nothing is a fixpoint already (the old rounds); any other
 * runs afresh from there, its rounds the old ones plus its own less one (the first, which
 * starts it). Singles remove candidates only, so each fixpoint is the one a run from the new
 * row alone finds: the twin of propagate.py's ``_resumed_rows``, row for row. */
static PyObject *py_resume(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *oo, *oc, *orr, *old_o, *base_o, *cells_o, *bits_o, *out_o, *contra_o, *rounds_o;
    int n, dynamic;
    Py_ssize_t nold, K;
    if (!PyArg_ParseTuple(args, "OnOOOOinOOpOOO", &oo, &nold, &oc, &orr, &old_o, &base_o, &n, &K, &cells_o,
                          &bits_o, &dynamic, &out_o, &contra_o, &rounds_o))
        return NULL;
    const geo_t *g = geo_arg(n);
    if (!g) return NULL;
    const uint32_t *old_out, *base, *bits;
    const uint8_t *old_contra;
    const int32_t *old_rounds, *old, *cells;
    uint32_t *out;
    uint8_t *contra;
    int32_t *rounds;
    view_t views[] = {VIEW(oo, 4, nold * g->N, VIEW_IN, "old_out", &old_out),
                      VIEW(oc, 1, nold, VIEW_IN, "old_contra", &old_contra),
                      VIEW(orr, 4, nold, VIEW_IN, "old_rounds", &old_rounds),
                      VIEW(old_o, 4, 2 * K, VIEW_IN, "old", &old),
                      VIEW(base_o, 4, g->N, VIEW_IN, "base", &base),
                      VIEW(cells_o, 4, K, VIEW_IN, "cells", &cells),
                      VIEW(bits_o, 4, K, VIEW_IN, "bits", &bits),
                      VIEW(out_o, 4, 2 * K * g->N, VIEW_OUT, "out", &out),
                      VIEW(contra_o, 1, 2 * K, VIEW_OUT, "contra", &contra),
                      VIEW(rounds_o, 4, 2 * K, VIEW_OUT, "rounds", &rounds)};
    if (views_get(views, COUNT(views)) < 0) return NULL;
    for (Py_ssize_t i = 0; i < 2 * K; i++)
        if (old[i] < 0 || old[i] >= nold || cells[i % K] < 0 || cells[i % K] >= g->N) {
            views_release(views, COUNT(views));
            return PyErr_Format(PyExc_ValueError, "row %zd: old row or cell out of range", i);
        }
    work_t *w = new_work();
    if (!w) {
        views_release(views, COUNT(views));
        return NULL;
    }
    const int N = g->N;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < 2 * K; i++) {
        const Py_ssize_t j = old[i];
        const uint32_t *src = old_out + j * N;
        uint32_t *row = out + i * N;
        const int x = cells[i % K];
        for (int y = 0; y < N; y++) row[y] = src[y] & base[y];
        row[x] = i < K ? src[x] & bits[i] : src[x] & base[x] & ~bits[i - K];
        contra[i] = old_contra[j];
        rounds[i] = old_rounds[j];
        if (contra[i] || !memcmp(row, src, sizeof(uint32_t) * (size_t)N)) continue;
        /* the old fixpoint as the run's base: its first round starts at the cells that lost
         * something (the same rounds as a run from scratch, see base_t) */
        base_t *b = &w->batch;
        memcpy(b->row, src, sizeof(uint32_t) * (size_t)N);
        memset(b->fo, 0, sizeof(uint32_t) * (size_t)g->H);
        for (int y = 0; y < N; y++) {
            uint32_t v = src[y];
            b->fixed[y] = !(v & (v - 1));
            if (v && b->fixed[y])
                for (int k = 0; k < 3; k++) b->fo[g->chouse[y][k]] |= v;
        }
        b->valid = 1;
        int rd = 0, nd = diff_from(g, w, row, b);
        contra[i] = (uint8_t)run_row(g, w, row, dynamic, NULL, &rd, b, nd);
        rounds[i] += rd - 1;
    }
    Py_END_ALLOW_THREADS
    free(w);
    views_release(views, COUNT(views));
    Py_RETURN_NONE;
}

static PyObject *py_contradicting(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *base_o, *cells_o, *bits_o, *out_o;
    int n, level;
    Py_ssize_t K;
    if (!PyArg_ParseTuple(args, "OinOOOi", &base_o, &n, &K, &cells_o, &bits_o, &out_o, &level)) return NULL;
    const geo_t *g = geo_arg(n);
    if (!g) return NULL;
    if (level < 0 || level > MAXLEVEL) return PyErr_Format(PyExc_ValueError, "level %d out of range", level);
    const uint32_t *base, *bits;
    const int32_t *cells;
    uint8_t *out;
    view_t views[] = {VIEW(base_o, 4, g->N, VIEW_IN, "base", &base),
                      VIEW(cells_o, 4, K, VIEW_IN, "cells", &cells),
                      VIEW(bits_o, 4, K, VIEW_IN, "bits", &bits),
                      VIEW(out_o, 1, K, VIEW_OUT, "out", &out)};
    if (views_get(views, COUNT(views)) < 0) return NULL;
    work_t *w = new_work();
    if (!w) {
        views_release(views, COUNT(views));
        return NULL;
    }
    int ok = 1, rd = 0;
    Py_BEGIN_ALLOW_THREADS
    uint32_t *row = w->rows[level];
    memcpy(row, base, sizeof(uint32_t) * (size_t)g->N);
    w->batch.valid = 0;
    if (!run_row(g, w, row, 0, NULL, &rd, NULL, -1) && rd == 1) keep_base(g, w, row, &w->batch);
    /* Level 0: a branch that decides a candidate whose own branch contradicts (on the same row)
     * contradicts too: from there its state lies inside that branch's start, and the verdict is
     * monotone. Its run stops there (a verdict only is asked for: its row and rounds are not
     * read). */
    uint32_t *dead = level == 0 ? calloc((size_t)g->N, sizeof(uint32_t)) : NULL;
    w->dead = dead;
    for (Py_ssize_t i = 0; i < K; i++) {
        if (cells[i] < 0 || cells[i] >= g->N) {
            ok = 0;
            break;
        }
        memcpy(row, base, sizeof(uint32_t) * (size_t)g->N);
        row[cells[i]] = bits[i];
        int nd = w->batch.valid ? diff_from(g, w, row, &w->batch) : -1;
        out[i] = (uint8_t)closure(g, w, row, level, &w->batch, nd);
        if (dead && out[i]) dead[cells[i]] |= bits[i];
    }
    free(dead);
    Py_END_ALLOW_THREADS
    free(w);
    views_release(views, COUNT(views));
    if (!ok) return PyErr_Format(PyExc_ValueError, "cell out of range");
    Py_RETURN_NONE;
}

/* ---- conclusions of groups of branches ---------------------------------------------------
 *
 * The rows of a forcing batch are every candidate assumed true (rows 0..k-1, candidates in
 * cell order) then false (k..2k-1). A group is a set of branches one of which holds: a cell's
 * candidates (true), a value's places in a house (true), a candidate true and false (double).
 * Groups are taken fewest branches first (cells, then houses by house*n+value, then doubles on
 * ties); a contradicting branch is left out. What every live branch of a group concludes: a
 * cell decided alike in all (not in static chains), a start candidate none of them keeps. Each
 * conclusion once, the first group's; not one about the group's own assumptions. */

typedef struct {
    int kind, key, start, len;
} group_t;

static PyObject *py_group_options(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *result = NULL;
    PyObject *out_o, *contra_o, *cells_o, *vals_o, *base_o;
    int n, k, stat, limit;
    if (!PyArg_ParseTuple(args, "OOiOOOipi", &out_o, &contra_o, &k, &cells_o, &vals_o, &base_o, &n, &stat, &limit))
        return NULL;
    const geo_t *g = geo_arg(n);
    if (!g) return NULL;
    const int N = g->N, HV = g->H * n;
    const uint32_t *out, *base;
    const uint8_t *dead;
    const int32_t *cells, *vals;
    view_t views[] = {VIEW(out_o, 4, (Py_ssize_t)2 * k * N, VIEW_IN, "out", &out),
                      VIEW(contra_o, 1, 2 * (Py_ssize_t)k, VIEW_IN, "contra", &dead),
                      VIEW(cells_o, 4, k, VIEW_IN, "cells", &cells),
                      VIEW(vals_o, 4, k, VIEW_IN, "values", &vals),
                      VIEW(base_o, 4, N, VIEW_IN, "base", &base)};
    if (views_get(views, COUNT(views)) < 0) return NULL;
    result = PyList_New(0);
    /* groups and their rows */
    int ngroups = 0, nrows = 0;
    group_t *groups = malloc(sizeof(group_t) * (size_t)(2 * k + HV + 1));
    int32_t *rows = malloc(sizeof(int32_t) * (size_t)(6 * k + 1));
    int32_t *hcount = calloc((size_t)HV, sizeof(int32_t)), *hfirst = malloc(sizeof(int32_t) * (size_t)(HV + 1));
    int32_t *order = malloc(sizeof(int32_t) * (size_t)(2 * k + HV + 1));
    uint32_t *inter = malloc(sizeof(uint32_t) * (size_t)N), *uni = malloc(sizeof(uint32_t) * (size_t)N);
    uint8_t *seen = calloc((size_t)(2 * N * n), 1), *assumed = calloc((size_t)(N * n), 1);
    int32_t *dstart = malloc(sizeof(int32_t) * (size_t)(2 * k + 1));
    int16_t *dcell = malloc(sizeof(int16_t) * ((size_t)2 * k * N + 1)), *xs = malloc(sizeof(int16_t) * (size_t)N);
    int nd = 0;
    if (!result || !groups || !rows || !hcount || !hfirst || !order || !inter || !uni || !seen || !assumed ||
        !dstart || !dcell || !xs) {
        Py_XDECREF(result);
        result = PyErr_NoMemory();
        goto done;
    }
    for (int i = 0; i < k;) {
        int j = i;
        while (j < k && cells[j] == cells[i]) rows[nrows + j - i] = j, j++;
        groups[ngroups++] = (group_t){0, cells[i], nrows, j - i};
        nrows += j - i, i = j;
    }
    for (int i = 0; i < k; i++)
        for (int q = 0; q < 3; q++) hcount[g->chouse[cells[i]][q] * n + vals[i] - 1]++;
    for (int key = 0, at = nrows; key < HV; key++) hfirst[key] = at, at += hcount[key] >= 2 ? hcount[key] : 0;
    for (int i = 0; i < k; i++)
        for (int q = 0; q < 3; q++) {
            int key = g->chouse[cells[i]][q] * n + vals[i] - 1;
            if (hcount[key] >= 2) rows[hfirst[key]++] = i;
        }
    for (int key = 0; key < HV; key++)
        if (hcount[key] >= 2) {
            groups[ngroups++] = (group_t){1, key, nrows, hcount[key]};
            nrows += hcount[key];
        }
    for (int i = 0; i < k; i++) groups[ngroups++] = (group_t){2, i, -1, 2};
    /* fewest branches first, stable */
    int maxlen = 2, no = 0;
    for (int i = 0; i < ngroups; i++) maxlen = groups[i].len > maxlen ? groups[i].len : maxlen;
    for (int len = 0; len <= maxlen; len++)
        for (int i = 0; i < ngroups; i++)
            if (groups[i].len == len) order[no++] = i;
    /* each live row's cells that differ from the base: a group's conclusions lie among those of
     * its first live row (a candidate gone in every branch is gone in that one, a cell decided
     * alike was undecided at the start) */
    for (int r = 0; r < 2 * k; r++) {
        dstart[r] = nd;
        if (dead[r]) continue;
        const uint32_t *row = out + (size_t)r * N;
        for (int x = 0; x < N; x++)
            if (row[x] != base[x] && (base[x] & (base[x] - 1))) dcell[nd++] = (int16_t)x;
    }
    dstart[2 * k] = nd;
    int found = 0;
    for (int o = 0; o < no && found < limit; o++) {
        const group_t *gr = &groups[order[o]];
        int32_t pair[2];
        const int32_t *rs = gr->kind == 2 ? (pair[0] = gr->key, pair[1] = gr->key + k, pair) : rows + gr->start;
        int first = -1;
        for (int j = 0; j < gr->len && first < 0; j++)
            if (!dead[rs[j]]) first = rs[j];
        if (first < 0) continue;
        int nx = 0;
        for (int d = dstart[first]; d < dstart[first + 1]; d++) {
            int x = dcell[d];
            uint32_t a = g->full, u = 0;
            for (int j = 0; j < gr->len; j++) {
                if (dead[rs[j]]) continue;
                uint32_t v = out[(size_t)rs[j] * N + x];
                a &= v, u |= v;
            }
            int same = !stat && a == u && !(a & (a - 1));
            uint32_t gone = same ? 0 : base[x] & ~u;
            if (same || gone) xs[nx] = (int16_t)x, inter[nx] = same ? a : 0, uni[nx] = gone, nx++;
        }
        if (!nx) continue;
        for (int j = 0; j < gr->len; j++) assumed[cells[rs[j] % k] * n + vals[rs[j] % k] - 1] = 1;
        /* cells decided alike, then start candidates gone */
        for (int pass = 0; pass < 2 && found < limit; pass++)
            for (int i = 0; i < nx && found < limit; i++) {
                int x = xs[i];
                for (uint32_t facts = pass == 0 ? inter[i] : uni[i]; facts && found < limit; facts &= facts - 1) {
                    int v = __builtin_ctz(facts) + 1, t = pass == 0;
                    int id = (x * n + v - 1) * 2 + t;
                    if (seen[id] || assumed[x * n + v - 1]) continue;
                    seen[id] = 1, found++;
                    PyObject *item = Py_BuildValue("(iiiiO)", gr->kind, gr->key, x, v, t ? Py_True : Py_False);
                    if (list_add(result, item) < 0) {
                        Py_CLEAR(result);
                        goto done;
                    }
                }
            }
        for (int j = 0; j < gr->len; j++) assumed[cells[rs[j] % k] * n + vals[rs[j] % k] - 1] = 0;
    }
done:
    free(groups), free(rows), free(hcount), free(hfirst), free(order), free(inter), free(uni), free(seen), free(assumed);
    free(dstart), free(dcell), free(xs);
    views_release(views, COUNT(views));
    return result;
}

/* ---- one digit ------------------------------------------------------------------------------
 *
 * SE's Nishio chains: a value placed in a cell and only its own implications (its peers lose
 * it, a house left with one place for it takes it there). Which placements leave a house that
 * still misses the value without a place? The verdict does not depend on the order: every
 * placement is forced. */
static PyObject *py_one_digit_fails(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *cand_o;
    int n;
    unsigned int values = 0xFFFFFFFFu; /* the values to look at (bit v-1), every one by default */
    if (!PyArg_ParseTuple(args, "Oi|I", &cand_o, &n, &values)) return NULL;
    const geo_t *g = geo_arg(n);
    if (!g) return NULL;
    const uint32_t *cand;
    view_t views[] = {VIEW(cand_o, 4, g->N, VIEW_IN, "cand", &cand)};
    if (views_get(views, COUNT(views)) < 0) return NULL;
    const int nw = (g->N + 63) / 64, H = g->H;
    cellset *hm = malloc(sizeof(cellset) * (size_t)H), *pm = malloc(sizeof(cellset) * (size_t)g->N);
    int *houses = malloc(sizeof(int) * (size_t)H);
    PyObject *out = PyList_New(0);
    if (!hm || !pm || !houses || !out) {
        Py_XDECREF(out);
        out = PyErr_NoMemory();
        goto done;
    }
    for (int h = 0; h < H; h++) {
        cs_clear(&hm[h]);
        for (int j = 0; j < n; j++) cs_add(&hm[h], g->hcell[h][j]);
    }
    for (int x = 0; x < g->N; x++) {
        cs_clear(&pm[x]);
        for (int j = 0; j < g->npeer; j++) cs_add(&pm[x], g->peer[x][j]);
    }
    for (int v = 1; v <= n && out; v++) {
        if (!(values >> (v - 1) & 1)) continue;
        cellset pv;
        cs_clear(&pv);
        for (int x = 0; x < g->N; x++)
            if (cand[x] >> (v - 1) & 1) cs_add(&pv, x);
        int nh = 0;
        for (int h = 0; h < H; h++)
            if (cs_intersects(&pv, &hm[h], nw)) houses[nh++] = h;
        CS_FOREACH(c, &pv, nw) {
            cellset placed, left, w;
            cs_clear(&placed);
            cs_add(&placed, c);
            cs_andnot(&left, &pv, &pm[c], nw);
            int fails = 0, done = 1;
            while (done && !fails) {
                done = 0;
                for (int i = 0; i < nh && !fails; i++) {
                    if (cs_intersects(&placed, &hm[houses[i]], nw)) continue;
                    cs_and(&w, &left, &hm[houses[i]], nw);
                    int k = cs_count(&w, nw);
                    if (!k) fails = 1;
                    else if (k == 1) {
                        int y = cs_next(&w, 0, nw);
                        cs_add(&placed, y);
                        cs_andnot(&left, &left, &pm[y], nw);
                        done = 1;
                    }
                }
            }
            if (fails && list_add(out, Py_BuildValue("(ii)", c, v)) < 0) {
                Py_CLEAR(out);
                break;
            }
        }
    }
done:
    free(hm), free(pm), free(houses);
    views_release(views, COUNT(views));
    return out;
}

/* ---- exact cover search ---------------------------------------------------------------------
 *
 * The compiled twin of explainer.solver's bitmask search: at each node the singles and locked
 * candidates to their fixpoint (run_row, dynamic: the same closure the solver's propagation
 * reaches), then the same choice (a house-value column with fewer options than any cell column
 * when no cell is bivalue, else a bivalue or trivalue cell with the most open peers, else the
 * open cell with the fewest candidates) and the same order of branches, so the solutions, their
 * order and the node count are the solver's. */
typedef struct {
    const geo_t *g;
    work_t *w;
    int limit, nsol, over;
    long max_nodes, nodes;
    uint8_t *sols; /* limit solutions of N values */
    uint32_t *stack; /* a row per depth */
    base_t *bases;   /* each depth's row at its fixpoint: a child starts from it */
    int depth, maxdepth;
} xsearch_t;

/* One node: ``parent`` with one more cell decided (``cell``; -1 at the root), ``base`` the
 * parent's fixpoint. */
static void xsearch(xsearch_t *X, const uint32_t *parent, const base_t *base, int cell) {
    const geo_t *g = X->g;
    const int N = g->N, n = g->n;
    if (++X->nodes > X->max_nodes && X->max_nodes >= 0) {
        X->over = 1;
        return;
    }
    if (X->depth >= X->maxdepth) {
        X->over = 2;
        return;
    }
    uint32_t *row = X->stack + (size_t)X->depth * N;
    memcpy(row, parent, sizeof(uint32_t) * (size_t)N);
    int rounds;
    X->w->diff[0] = (int16_t)cell;
    if (run_row(g, X->w, row, 1, NULL, &rounds, cell < 0 ? NULL : base, cell < 0 ? -1 : 1)) return;
    base_t *mine = X->bases + X->depth;
    keep_base(g, X->w, row, mine);
    int open = 0, ntwo = 0, nthree = 0;
    for (int x = 0; x < N; x++) {
        int k = __builtin_popcount(row[x]);
        open += k > 1, ntwo += k == 2, nthree += k == 3;
    }
    if (!open) {
        uint8_t *sol = X->sols + (size_t)X->nsol * N;
        for (int x = 0; x < N; x++) sol[x] = (uint8_t)(__builtin_ctz(row[x]) + 1);
        X->nsol++;
        return;
    }
    X->depth++;
    cell = -1;
    if (!ntwo) {
        /* the house-value column with the fewest open places */
        int best = n + 1, bv = -1, bh = -1;
        for (int v = 0; v < n && best != 2; v++) {
            uint32_t bit = 1u << v;
            for (int h = 0; h < g->H; h++) {
                int k = 0;
                for (int j = 0; j < n; j++) {
                    uint32_t m = row[g->hcell[h][j]];
                    k += (m & bit) && (m & (m - 1));
                }
                if (k && k < best) {
                    best = k, bv = v, bh = h;
                    if (k == 2) break;
                }
            }
        }
        if (best < (nthree ? 3 : 4)) {
            /* its places, lowest cell first */
            int places[MAXN], np = 0;
            for (int j = 0; j < n; j++) {
                int x = g->hcell[bh][j];
                uint32_t m = row[x];
                if ((m >> bv & 1) && (m & (m - 1))) places[np++] = x;
            }
            for (int a = 1; a < np; a++)
                for (int b = a; b > 0 && places[b - 1] > places[b]; b--) {
                    int tmp = places[b];
                    places[b] = places[b - 1], places[b - 1] = tmp;
                }
            for (int i = 0; i < np && X->nsol < X->limit && !X->over; i++) {
                uint32_t saved = row[places[i]];
                row[places[i]] = 1u << bv;
                xsearch(X, row, mine, places[i]);
                row[places[i]] = saved;
            }
            X->depth--;
            return;
        }
    }
    if (ntwo || nthree) {
        /* a cell with the fewest options (two, else three), the most open peers first */
        int want = ntwo ? 2 : 3, best = -1;
        for (int x = 0; x < N; x++) {
            if (__builtin_popcount(row[x]) != want) continue;
            int score = 0;
            for (int j = 0; j < g->npeer; j++) {
                uint32_t m = row[g->peer[x][j]];
                score += (m & (m - 1)) != 0;
            }
            if (score > best) best = score, cell = x;
        }
    } else {
        int best = n + 1;
        for (int x = 0; x < N; x++) {
            int k = __builtin_popcount(row[x]);
            if (k > 1 && k < best) best = k, cell = x;
        }
    }
    uint32_t m = row[cell];
    for (uint32_t b = m; b && X->nsol < X->limit && !X->over; b &= b - 1) {
        row[cell] = b & -b;
        xsearch(X, row, mine, cell);
    }
    row[cell] = m;
    X->depth--;
}

/* solve(n, values bytes, forbid bytes (cell, value pairs as uint16), limit, max_nodes) ->
 * (list of solutions as bytes, nodes, over the node budget) */
static PyObject *py_solve(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *vals_o, *forbid_o;
    int n, limit;
    long max_nodes;
    if (!PyArg_ParseTuple(args, "iOOil", &n, &vals_o, &forbid_o, &limit, &max_nodes)) return NULL;
    const geo_t *g = geo_arg(n);
    if (!g) return NULL;
    const uint8_t *vals;
    const uint16_t *fv;
    view_t views[] = {VIEW(vals_o, 1, g->N, VIEW_IN, "values", &vals),
                      VIEW(forbid_o, 2, VIEW_ANY_LENGTH, VIEW_IN, "forbid", &fv)};
    if (views_get(views, COUNT(views)) < 0) return NULL;
    const int N = g->N;
    xsearch_t X = {.g = g, .limit = limit < 1 ? 1 : limit, .max_nodes = max_nodes, .maxdepth = N + 2};
    X.w = new_work();
    X.sols = malloc((size_t)X.limit * (size_t)N);
    X.stack = malloc(sizeof(uint32_t) * (size_t)N * (size_t)(X.maxdepth + 1));
    X.bases = malloc(sizeof(base_t) * (size_t)(X.maxdepth + 1));
    uint32_t *start = malloc(sizeof(uint32_t) * (size_t)N);
    PyObject *out = NULL;
    if (!X.w || !X.sols || !X.stack || !X.bases || !start) {
        PyErr_NoMemory();
        goto done;
    }
    for (int x = 0; x < N; x++) start[x] = vals[x] ? 1u << (vals[x] - 1) : g->full;
    for (Py_ssize_t i = 0; i + 1 < views[1].view.len / 2; i += 2)
        if (fv[i] < N && fv[i + 1] >= 1 && fv[i + 1] <= n) start[fv[i]] &= ~(1u << (fv[i + 1] - 1));
    Py_BEGIN_ALLOW_THREADS
    xsearch(&X, start, NULL, -1);
    Py_END_ALLOW_THREADS
    if (X.over == 2) {
        PyErr_SetString(PyExc_RuntimeError, "search deeper than the grid");
        goto done;
    }
    PyObject *sols = PyList_New(X.nsol);
    for (int i = 0; sols && i < X.nsol; i++) {
        PyObject *b = PyBytes_FromStringAndSize((const char *)X.sols + (size_t)i * N, N);
        if (!b) Py_CLEAR(sols);
        else PyList_SET_ITEM(sols, i, b);
    }
    if (sols) out = Py_BuildValue("(Nli)", sols, X.nodes, X.over);
done:
    free(X.w), free(X.sols), free(X.stack), free(X.bases), free(start);
    views_release(views, COUNT(views));
    return out;
}

static PyMethodDef methods[] = {
    {"fixpoints", py_fixpoints, METH_VARARGS,
     "fixpoints(rows, B, n, dynamic, start, contra, rounds): B rows (uint32) to their fixpoints in place."},
    {"group_options", py_group_options, METH_VARARGS,
     "group_options(out, contra, k, cells, values, base, n, static, limit): the first group conclusions."},
    {"one_digit_fails", py_one_digit_fails, METH_VARARGS,
     "one_digit_fails(cand, n[, values]): the (cell, value) whose one-digit implications empty a house "
     "(of the values in the mask ``values``, bit v-1; every value by default)."},
    {"solve", py_solve, METH_VARARGS,
     "solve(n, values, forbid, limit, max_nodes): the exact cover search (solutions, nodes, over budget)."},
    {"resume", py_resume, METH_VARARGS,
     "resume(old_out, nold, old_contra, old_rounds, old, base, n, K, cells, bits, dynamic, out, contra, rounds): "
     "a forcing batch from an earlier one's fixpoints."},
    {"contradicting", py_contradicting, METH_VARARGS,
     "contradicting(base, n, K, cells, bits, out, level): the level-k verdict of K assumptions on base."},
    {NULL, NULL, 0, NULL},
};

CORE_MODULE("_propagate", "Singles propagation (compiled).");

PyMODINIT_FUNC PyInit__propagate(void) {
    static const char *names[5] = {"assume", "peer", "cell", "house", "step"};
    for (int i = 0; i < 5; i++)
        if (!RULES[i] && !(RULES[i] = PyUnicode_InternFromString(names[i]))) return NULL;
    if (PyType_Ready(&RecordType) < 0 || PyType_Ready(&RecorderType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&RecorderType);
    if (PyModule_AddObject(m, "Recorder", (PyObject *)&RecorderType) < 0) {
        Py_DECREF(&RecorderType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
