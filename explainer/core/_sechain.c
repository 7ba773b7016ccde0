/* Sudoku Explainer's chaining engine, compiled: the twin of explainer/core/sechain.py.
 *
 * The rules, orders and quirks are the Python twin's (its docstring says them); this file
 * gives the same hints, built for speed:
 *
 *   potentials  a key per candidate and state, ((cell * n + value - 1) << 1) | on; a node is a
 *               key, a cause and its parents (indexes into one parent pool), in an arena that
 *               lives for one producer call (no object per potential);
 *   searches    a static engine's implications are one packed table per call (candidate index
 *               and cause per entry), read in place by the searches; SE's isParent in doCycles is
 *               a bit test on the set of "off"s each queued "on" rests on (an arena of sets per
 *               engine, grown geometrically, reused between calls); doForcingChains stops at its
 *               one target; a static engine first finds its graph's strongly connected components
 *               and reach sets (reach_build) and skips each search they prove empty (a forcing
 *               chain whose start cannot reach its negation, a cycle from a key alone in its
 *               component), most of them in a nested rule's engine;
 *   chains      each propagation is a record (its nodes in insertion order, a bit set of its
 *               keys, its contradiction); a chain from a start is run once per producer call and
 *               shared by the binary, region and cell hints that read it;
 *   grids       candidate masks per cell and a cell set per value; a dynamic chain removes its
 *               "off"s in place and restores the grid from a copy at its end;
 *   hints       the top producer keeps only the best hint so far (SE takes the first of its
 *               sorted list: least difficulty, then complexity, then kind, then discovery) and
 *               counts a candidate hint's ancestors only as far as it could still win;
 *               a nested rule keeps all, sorts them and drops the removal-equal ones, as SE;
 *   nesting     a nested chaining hint that a chain uses is copied into a store that lives
 *               for the top call (its complexity, its identity for SE's FullChain equality,
 *               and its graph when the caller asks for graphs); a nested engine's arena is
 *               reset at each call.
 *
 * first_hint(n, values, cand, producer, graph) returns the hint as nested tuples (see
 * sechain._from_c) or None.
 */
#include "glue.h"

#include <limits.h>

#define MAXN 25
#define MAXC 625
#define MAXH 75
#define MAXPEER 64

enum { C_INITIAL, C_NAKED, C_BLOCK, C_ROW, C_COLUMN, C_ADVANCED };
enum { K_CYCLE, K_FORCING, K_CONTRADICTION, K_DOUBLE, K_CELL, K_REGION };
static const char *KIND_NAMES[] = {"cycle", "forcing", "contradiction", "double", "cell", "region"};
enum { R_LOCKING, R_HIDDEN, R_NAKED, R_XWING };
static const char *RULE_NAMES[] = {"locking", "hidden pair", "naked pair", "x-wing"};

/* the producers (sechain.PRODUCERS): multiple, dynamic, nishio, level, classic, inner producers (-1: none) */
#define NPROD 16
static const int PROD[NPROD][7] = {
    {0, 0, 0, 0, 0, -1, -1}, {0, 1, 1, 0, 0, -1, -1}, {1, 0, 0, 0, 0, -1, -1}, {1, 1, 0, 0, 0, -1, -1},
    {1, 1, 0, 1, 0, -1, -1}, {1, 1, 0, 2, 0, 0, -1},  {1, 1, 0, 3, 0, 0, 2},   {1, 1, 0, 4, 0, 3, -1},
    {1, 1, 0, 4, 0, 4, -1},  {1, 1, 0, 4, 0, 5, -1},  {1, 1, 0, 4, 0, 6, -1},  {1, 1, 0, 1, 1, -1, -1},
    {1, 1, 0, 2, 1, 0, -1},  {1, 1, 0, 3, 1, 0, 2},   {1, 1, 0, 4, 1, 3, -1},  {1, 1, 0, 5, 1, 3, 12},
};

/* ---- growable int arrays ------------------------------------------------------------------- */

typedef struct { int32_t *a; int n, cap; } ivec;

/* the slow path of iv_push: the array doubled (out of line, so the push itself inlines) */
static __attribute__((noinline)) int iv_grow(ivec *v) {
    int32_t *p = grown(v->a, &v->cap, 256, sizeof *p);
    if (!p) return -1;
    v->a = p;
    return 0;
}
static inline int iv_push(ivec *v, int32_t x) {
    if (__builtin_expect(v->n == v->cap, 0) && iv_grow(v) < 0) return -1;
    v->a[v->n++] = x;
    return 0;
}
static int iv_reserve(ivec *v, int more) {
    while (v->n + more > v->cap) {
        int32_t *p = grown(v->a, &v->cap, 256, sizeof *p);
        if (!p) return -1;
        v->a = p;
    }
    return 0;
}

/* ---- geometry ---------------------------------------------------------------------------------- */

typedef struct {
    int n, m, N, P, nw, npeer, npairs;
    int16_t hcell[MAXH][MAXN];
    cellset hmask[MAXH];
    int16_t reg[MAXC][3]; /* SE's region types: box, row, column (our house indexes) */
    int8_t at[MAXC][3];   /* the cell's index in each of those houses */
    int16_t cell_of[MAXC * MAXN], value_of[MAXC * MAXN]; /* a candidate index's cell and value */
    int16_t peer[MAXC][MAXPEER];
    int16_t row_of[MAXC], col_of[MAXC];
    int8_t pairs[MAXN * MAXN][2]; /* SE's Permutations(2, n): index pairs by increasing mask */
} geo_t;

static geo_t *geos[MAXN + 1];

static const geo_t *geo_of(int n) {
    int m = 0;
    while ((m + 1) * (m + 1) <= n) m++;
    if (n < 4 || n > MAXN || m * m != n) {
        PyErr_Format(PyExc_ValueError, "size %d is not supported", n);
        return NULL;
    }
    if (geos[n]) return geos[n];
    geo_t *g = calloc(1, sizeof *g);
    if (!g) {
        PyErr_NoMemory();
        return NULL;
    }
    g->n = n, g->m = m, g->N = n * n, g->P = n * n * n, g->nw = (n * n + 63) / 64;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            g->hcell[i][j] = (int16_t)(i * n + j);
            g->hcell[n + i][j] = (int16_t)(j * n + i);
            g->hcell[2 * n + i][j] = (int16_t)((m * (i / m) + j / m) * n + m * (i % m) + j % m);
        }
    for (int h = 0; h < 3 * n; h++) {
        cs_clear(&g->hmask[h]);
        for (int j = 0; j < n; j++) cs_add(&g->hmask[h], g->hcell[h][j]);
    }
    for (int c = 0; c < g->N; c++) {
        int r = c / n, k = c % n, b = m * (r / m) + k / m;
        g->row_of[c] = (int16_t)r, g->col_of[c] = (int16_t)k;
        g->reg[c][0] = (int16_t)(2 * n + b), g->reg[c][1] = (int16_t)r, g->reg[c][2] = (int16_t)(n + k);
        g->at[c][0] = (int8_t)(m * (r % m) + k % m), g->at[c][1] = (int8_t)k, g->at[c][2] = (int8_t)r;
        cellset s;
        cs_or(&s, &g->hmask[r], &g->hmask[n + k], CS_MAXWORDS);
        cs_or(&s, &s, &g->hmask[2 * n + b], CS_MAXWORDS);
        cs_del(&s, c);
        int np = 0;
        CS_FOREACH(p, &s, CS_MAXWORDS) g->peer[c][np++] = (int16_t)p;
        g->npeer = np;
    }
    for (int i = 0; i < g->P; i++) g->cell_of[i] = (int16_t)(i / n), g->value_of[i] = (int16_t)(i % n + 1);
    int k = 0;
    for (uint32_t mask = 3; mask < (1u << n); mask++)
        if (popc32(mask) == 2) {
            g->pairs[k][0] = (int8_t)__builtin_ctz(mask);
            g->pairs[k][1] = (int8_t)(31 - __builtin_clz(mask));
            k++;
        }
    g->npairs = k;
    geos[n] = g;
    return g;
}

/* ---- grids --------------------------------------------------------------------------------------- */

/* a candidate grid: per cell its values, per value its cells, per house and value its places
 * (hpos[h * n + v - 1], bits by index in the house) */
typedef struct {
    uint32_t cand[MAXC];
    cellset pos[MAXN];
    uint32_t hpos[MAXH * MAXN];
    uint8_t val[MAXC];
} grid_t;

static void grid_copy(const geo_t *G, grid_t *dst, const grid_t *src) {
    memcpy(dst->cand, src->cand, sizeof(uint32_t) * (size_t)G->N);
    for (int v = 0; v < G->n; v++) memcpy(dst->pos[v].w, src->pos[v].w, sizeof(uint64_t) * (size_t)G->nw);
    memcpy(dst->hpos, src->hpos, sizeof(uint32_t) * (size_t)(3 * G->n * G->n));
    memcpy(dst->val, src->val, (size_t)G->N);
}

static inline int g_has(const grid_t *g, int c, int v) { return (int)(g->cand[c] >> (v - 1) & 1); }
static inline void g_remove(const geo_t *G, grid_t *g, int c, int v) {
    g->cand[c] &= ~(1u << (v - 1));
    cs_del(&g->pos[v - 1], c);
    for (int t = 0; t < 3; t++) g->hpos[G->reg[c][t] * G->n + v - 1] &= ~(1u << G->at[c][t]);
}

/* the cells of a & b (and not c when given), ascending, into out: their number */
static int cells_of(const geo_t *G, const cellset *a, const cellset *b, const cellset *not, int skip, int16_t *out) {
    int k = 0;
    for (int i = 0; i < G->nw; i++) {
        uint64_t w = a->w[i] & b->w[i];
        if (not) w &= ~not->w[i];
        while (w) {
            int c = (i << 6) + __builtin_ctzll(w);
            w &= w - 1;
            if (c != skip) out[k++] = (int16_t)c;
        }
    }
    return k;
}

static inline int and_count(const geo_t *G, const cellset *a, const cellset *b) {
    int k = 0;
    for (int i = 0; i < G->nw; i++) k += popc64(a->w[i] & b->w[i]);
    return k;
}

/* ---- the store: what outlives an engine call (nested hints, Dynamic Plus rules) ---------------- */

typedef struct { int32_t key, par, npar, rule; uint8_t cause; } snode_t;

typedef struct {
    int mode, kind, x, y;
    double diff;
    int cplx, sk;
    int32_t rem, nrem;   /* candidate indexes (c * n + v - 1), SE's insertion order */
    int32_t order, nord; /* the same in SE's HashMap order */
    int place;           /* candidate index or -1 */
    int src_key, cell, region, value;
    int32_t sig, nsig;   /* SE's FullChain: the targets' keys breadth first, -1 between targets */
    uint64_t hash;
    int32_t nodes, nnodes, tg, ntg; /* the graph (when asked for) */
} shint_t;

typedef struct {
    int name, value, values[2], houses[4], nh;
    int32_t cells, ncells, rem, nrem, par, npar; /* rem: candidate indexes in SE's HashMap order; par: keys */
} srule_t;

typedef struct {
    const geo_t *G;
    int graph; /* keep graphs (and Dynamic Plus rules) for the caller */
    ivec pool;
    snode_t *sn;
    int nsn, sncap;
    shint_t *sh;
    int nsh, shcap;
    srule_t *sr;
    int nsr, srcap;
    int err; /* set when an invariant breaks (SE would throw) */
} store_t;

/* rule references on nodes: -1 none; (i << 2) | 1 a stored hint; (i << 2) | 2 a stored rule;
 * 3 a rule not stored (rating only) */
#define REF_HINT(i) (((i) << 2) | 1)
#define REF_RULE(i) (((i) << 2) | 2)
#define REF_ANON 3

/* ---- engines ---------------------------------------------------------------------------------- */

typedef struct { int32_t key, par, npar, rule, cnt, tmp; uint8_t cause; } node_t;

typedef struct { int32_t start, lst, nl, bits, ab_on, ab_off; } chain_t;

typedef struct {
    int kind, x, y;
    double diff;
    int cplx, sk, order;
    int32_t rem, nrem, tg, ntg;
    int place, src_key, cell, region, value;
} hcand_t;

typedef struct engine {
    const geo_t *G;
    store_t *S;
    int prod, multiple, dynamic, nishio, level, classic, keep_all;
    node_t *nd;
    int nn, ncap;
    ivec pp;   /* parents */
    ivec lp;   /* chains' node lists */
    ivec hp;   /* hints' removables and targets */
    uint64_t *bp;
    int nbp, bpcap;
    chain_t *ch;
    int nch, chcap;
    int32_t *memo, *at; /* [2P]: chain per start key; node per key in the running chain */
    /* a static engine's implications, read once per call (its grid never changes): per key, an
     * offset into ``imp`` (2P + 1 offsets); an "on" key's "off"s (cell rule ones first, ``ncell``
     * of them), an "off" key's "on"s (the cell rule one first, if any) */
    int32_t *imp_at, *imp_ncell;
    ivec imp;
    /* a static engine's reachability (reach_build): its live keys by compact index (kidx: key ->
     * index or -1, r_key: index -> key), the table again as compact indexes (impv, an index's
     * entries from r_at), the graph's strongly connected components (r_comp) and the set of
     * indexes each one reaches (r_rows, r_w words a set); scratch for Tarjan's search; r_ok: the
     * sets are there (a graph too large has none: nothing skipped) */
    ivec impv;
    int32_t *kidx, *r_key, *r_num, *r_low, *r_stk, *r_cs, *r_ca, *r_comp, *r_stamp, *r_at;
    uint8_t *r_sink, *r_single; /* per component: a single key with no implication; per key: alone in its component */
    uint64_t *r_rows;
    size_t r_rowcap;
    int nv, r_w, r_ok;
    int kw;             /* words of a key set */
    uint64_t *vis;      /* [kw] scratch */
    uint64_t *anc;      /* do_cycles: per queued "on", the keys of the "off"s it rests on ([kw] each) */
    int anccap;         /* in sets */
    ivec q1, q2, tmp1, tmp2, tmp3;
    hcand_t *hl;
    int nh, hcap;
    hcand_t best;
    int has_best, order;
    grid_t *g;          /* the grid the call works on (reduced by dynamic chains) */
    grid_t *saved;      /* a dynamic chain's copy of it (run_chain) */
    struct engine *inner[2];
    int ninner;
} engine_t;

static engine_t *engine_new(const geo_t *G, store_t *S, int prod, int keep_all);
static void engine_free(engine_t *E);
static int engine_hints(engine_t *E, grid_t *g);

/* the slow path of new_node: the node arena doubled (nodes are indexes, so moving them is safe) */
static __attribute__((noinline)) int nodes_grow(engine_t *E) {
    node_t *p = grown(E->nd, &E->ncap, 1024, sizeof *p);
    if (!p) return -1;
    E->nd = p;
    return 0;
}

static inline int new_node(engine_t *E, int key, int cause, int parent) {
    if (__builtin_expect(E->nn == E->ncap, 0) && nodes_grow(E) < 0) return -1;
    node_t *x = &E->nd[E->nn];
    x->key = key, x->cause = (uint8_t)cause, x->rule = -1, x->cnt = 0, x->tmp = -1;
    x->par = E->pp.n, x->npar = 0;
    if (parent >= 0) {
        if (iv_push(&E->pp, parent) < 0) return -1;
        x->npar = 1;
    }
    return E->nn++;
}

/* add a parent to the LAST node created (parents stay contiguous) */
static inline int add_parent(engine_t *E, int node, int parent) {
    if (iv_push(&E->pp, parent) < 0) return -1;
    E->nd[node].npar++;
    return 0;
}

#define KEY(n, c, v, on) ((((c) * (n) + (v) - 1) << 1) | (on))
/* a key's cell and value, read from the geometry's tables (a division in the inner loops costs) */
#define KCELL(G, k) ((G)->cell_of[(k) >> 1])
#define KVAL(G, k) ((G)->value_of[(k) >> 1])

/* ---- implications ----------------------------------------------------------------------------- */

typedef struct { int16_t cell, value, cause, nh; int32_t hidden[MAXN]; } cons_t;

static int on_to_off_grid(const engine_t *E, const grid_t *g, int key, int cell_rule, cons_t *out);
static int off_to_on_grid(const engine_t *E, const grid_t *g, const grid_t *src, int key, int cell_rule,
                          int house_rule, cons_t *out);

/* a table entry: the consequence's candidate index and cause; (x >> 3) << 1 is its "off" key */
#define PACK(c, v, cause) ((((c) * G->n + (v) - 1) << 3) | (cause))

/* a static engine's implications of every candidate, on and off (its grid never changes) */
static int static_tables(engine_t *E) {
    const geo_t *G = E->G;
    int P2 = 2 * G->P;
    if (!E->imp_at) {
        E->imp_at = malloc(sizeof(int32_t) * (size_t)(P2 + 1));
        E->imp_ncell = malloc(sizeof(int32_t) * (size_t)P2);
        if (!E->imp_at || !E->imp_ncell) return -1;
    }
    if (!E->kidx) {
        int32_t **arrays[] = {&E->kidx, &E->r_key, &E->r_num, &E->r_low, &E->r_stk,
                              &E->r_cs, &E->r_ca, &E->r_comp, &E->r_stamp, &E->r_at};
        for (int i = 0; i < COUNT(arrays); i++)
            if (!(*arrays[i] = malloc(sizeof(int32_t) * (size_t)(P2 + 1)))) return -1;
        if (!(E->r_sink = malloc((size_t)P2)) || !(E->r_single = malloc((size_t)P2))) return -1;
    }
    E->imp.n = 0, E->impv.n = 0, E->nv = 0, E->r_ok = 0;
    for (int key = 0; key < P2; key++) { /* the live keys' compact indexes, by key */
        int c = KCELL(G, key);
        E->kidx[key] = -1;
        if (!E->g->val[c] && g_has(E->g, c, KVAL(G, key))) E->kidx[key] = E->nv, E->r_key[E->nv++] = key;
    }
    const grid_t *g = E->g;
    int n = G->n;
    for (int key = 0; key < P2; key++) {
        E->imp_at[key] = E->imp.n;
        E->imp_ncell[key] = 0;
        if (E->kidx[key] < 0) continue;
        E->r_at[E->kidx[key]] = E->imp.n;
        if (iv_reserve(&E->imp, 4 * MAXN) < 0 || iv_reserve(&E->impv, 4 * MAXN) < 0) return -1;
        /* on_to_off_grid's and off_to_on_grid's consequences (cell rule first), written in place */
        int32_t *out = E->imp.a + E->imp.n, *outv = E->impv.a + E->imp.n;
        int c = KCELL(G, key), v = KVAL(G, key), k = 0, on = key & 1;
        uint32_t m = g->cand[c] & ~(1u << (v - 1));
        if (on || popc32(m) == 1)
            for (; m; m &= m - 1, k++) out[k] = PACK(c, __builtin_ctz(m) + 1, C_NAKED);
        E->imp_ncell[key] = k;
        for (int t = 0, box = G->reg[c][0]; t < 3; t++) {
            int h = G->reg[c][t];
            uint32_t others = g->hpos[h * n + v - 1] & ~(1u << G->at[c][t]);
            if (!on && (!others || (others & (others - 1)))) continue;
            for (; others; others &= others - 1) {
                int x = G->hcell[h][__builtin_ctz(others)], dup = 0;
                if (on) dup = t && G->reg[x][0] == box; /* a row or column cell of the box: already met */
                else
                    for (int j = E->imp_ncell[key]; j < k && !dup; j++) dup = out[j] >> 3 == x * n + v - 1;
                if (!dup) out[k++] = PACK(x, v, C_BLOCK + t);
            }
        }
        for (int i = 0; i < k; i++) outv[i] = E->kidx[((out[i] >> 3) << 1) | (on ^ 1)];
        E->imp.n += k, E->impv.n += k;
    }
    E->imp_at[P2] = E->imp.n, E->r_at[E->nv] = E->imp.n;
    return 0;
}

/* the table entries of a key under the rules asked for: entries [*a, *b) (cell rule ones come
 * first, so the range is contiguous) */
static inline void tab_range(const engine_t *E, int key, int cell_rule, int house_rule, int *a, int *b) {
    int s = E->imp_at[key], nc = E->imp_ncell[key];
    *a = cell_rule ? s : s + nc;
    *b = house_rule ? E->imp_at[key + 1] : s + nc;
}

/* ---- reachability (static engines) -------------------------------------------------------------- */

/* above this many live keys the reach sets are not built (their memory grows as its square) */
#define REACH_MAXV 4096

/* The reach sets of a static engine's call: which searches can find something. do_cycles and
 * do_forcing follow the implications of graph (y, x) (an "on" key's "off"s, with the cell rule's
 * when y; an "off" key's "on"s, the cell rule's when y, the house rules' when x; do_forcing's graph
 * is (y, 1)); each is part of the whole table's graph (1, 1), so what that one cannot reach none
 * can. A search is skipped only where these sets prove it finds nothing: every hint, its nodes'
 * order and the hints' order stay the same.
 *
 * reach_build: the strongly connected components of the live keys in graph (1, 1) (Tarjan's
 * search, made iterative) and each component's reach set, its members and its successors' sets
 * (complete when it closes: a successor outside it closed before). Built once a call, 0 or -1 */
static int reach_build(engine_t *E) {
    int V = E->nv, W = (V + 63) / 64, cnt = 0, sp = 0, ncomp = 0;
    E->r_ok = 0;
    if (V > REACH_MAXV) return 0;
    if ((size_t)V * (size_t)W > E->r_rowcap) {
        size_t cap = (size_t)V * (size_t)W;
        uint64_t *p = realloc(E->r_rows, sizeof(uint64_t) * cap);
        if (!p) return -1;
        E->r_rows = p, E->r_rowcap = cap;
    }
    E->r_w = W;
    const int32_t *adj = E->impv.a, *at = E->r_at;
    int32_t *num = E->r_num, *low = E->r_low, *stk = E->r_stk, *cs = E->r_cs, *ca = E->r_ca;
    int32_t *comp = E->r_comp, *stamp = E->r_stamp;
    uint8_t *sink = E->r_sink, *single = E->r_single;
    for (int u = 0; u < V; u++) num[u] = -1, comp[u] = -1, stamp[u] = -1;
    for (int r = 0; r < V; r++) {
        if (num[r] >= 0) continue;
        int csp = 0;
        num[r] = low[r] = cnt++, stk[sp++] = r, cs[csp] = r, ca[csp++] = at[r];
        while (csp) {
            int u = cs[csp - 1];
            if (ca[csp - 1] < at[u + 1]) {
                int v = adj[ca[csp - 1]++];
                if (num[v] < 0)
                    num[v] = low[v] = cnt++, stk[sp++] = v, cs[csp] = v, ca[csp++] = at[v];
                else if (comp[v] < 0 && num[v] < low[u])
                    low[u] = num[v];
                continue;
            }
            csp--;
            if (csp && low[u] < low[cs[csp - 1]]) low[cs[csp - 1]] = low[u];
            if (low[u] != num[u]) continue;
            /* u closes a component: its members are on the stack down to u */
            int c = ncomp++, first = sp;
            do comp[stk[--first]] = c;
            while (stk[first] != u);
            uint64_t *row = E->r_rows + (size_t)c * (size_t)W;
            memset(row, 0, sizeof(uint64_t) * (size_t)W);
            int out = 0, alone = sp - first == 1;
            for (int i = first; i < sp; i++) {
                int m = stk[i];
                row[m >> 6] |= (uint64_t)1 << (m & 63);
                single[m] = (uint8_t)alone;
                for (int j = at[m]; j < at[m + 1]; j++) {
                    int v = adj[j], cv = comp[v];
                    if (cv == c || stamp[cv] == c) continue; /* inside, or already joined */
                    stamp[cv] = c, out = 1;
                    if (sink[cv]) /* a key that leads nowhere: its set is itself */
                        row[v >> 6] |= (uint64_t)1 << (v & 63);
                    else {
                        const uint64_t *from = E->r_rows + (size_t)cv * (size_t)W;
                        for (int w = 0; w < W; w++) row[w] |= from[w];
                    }
                }
            }
            sink[c] = (uint8_t)(!out && alone);
            sp = first;
        }
    }
    E->r_ok = 1;
    return 0;
}

/* the live key ``to`` is reachable from the live key ``from`` (1 when the sets are not built) */
static inline int reaches(const engine_t *E, int from, int to) {
    if (!E->r_ok) return 1;
    int v = E->kidx[to];
    const uint64_t *row = E->r_rows + (size_t)E->r_comp[E->kidx[from]] * (size_t)E->r_w;
    return (int)(row[v >> 6] >> (v & 63) & 1);
}

/* do_cycles from the "on" key s in graph (y, x) can close a cycle: a cycle leaves s to an "off",
 * then to a fresh "on" c (not s, which is marked), which must reach s again: c and s (which
 * reaches c) are in one component */
static int may_cycle(const engine_t *E, int s, int y, int x) {
    if (!E->r_ok) return 1;
    if (E->r_single[E->kidx[s]]) return 0;
    const int32_t *imp = E->imp.a;
    int a, b;
    tab_range(E, s, y, 1, &a, &b);
    for (int i = a; i < b; i++) {
        int off = (imp[i] >> 3) << 1, a2, b2;
        tab_range(E, off, y, x, &a2, &b2);
        for (int j = a2; j < b2; j++) {
            int c = ((imp[j] >> 3) << 1) | 1;
            if (c != s && E->r_comp[E->kidx[c]] == E->r_comp[E->kidx[s]]) return 1;
        }
    }
    return 0;
}

static int from_table(const engine_t *E, int key, int cell_rule, int house_rule, cons_t *out) {
    const geo_t *G = E->G;
    int a, b, k = 0;
    tab_range(E, key, cell_rule, house_rule, &a, &b);
    for (int i = a; i < b; i++, k++) {
        int32_t x = E->imp.a[i];
        out[k].cell = G->cell_of[x >> 3], out[k].value = G->value_of[x >> 3], out[k].cause = (int16_t)(x & 7);
        out[k].nh = 0;
    }
    return k;
}

static inline int on_to_off(const engine_t *E, const grid_t *g, int key, int cell_rule, cons_t *out) {
    if (!E->dynamic) return from_table(E, key, cell_rule, 1, out);
    return on_to_off_grid(E, g, key, cell_rule, out);
}

static inline int off_to_on(const engine_t *E, const grid_t *g, const grid_t *src, int key, int cell_rule,
                            int house_rule, cons_t *out) {
    if (!E->dynamic) return from_table(E, key, cell_rule, house_rule, out);
    return off_to_on_grid(E, g, src, key, cell_rule, house_rule, out);
}

/* from "on" (c, v): the "off"s, in SE's order (cell, then box, row, column) */
static int on_to_off_grid(const engine_t *E, const grid_t *g, int key, int cell_rule, cons_t *out) {
    const geo_t *G = E->G;
    int n = G->n, c = KCELL(G, key), v = KVAL(G, key), k = 0;
    if (cell_rule) {
        uint32_t m = g->cand[c] & ~(1u << (v - 1));
        while (m) {
            int b = __builtin_ctz(m);
            m &= m - 1;
            out[k].cell = (int16_t)c, out[k].value = (int16_t)(b + 1), out[k].cause = C_NAKED, out[k].nh = 0;
            k++;
        }
    }
    int box = G->reg[c][0];
    for (int t = 0; t < 3; t++) {
        int h = G->reg[c][t];
        for (uint32_t m = g->hpos[h * n + v - 1] & ~(1u << G->at[c][t]); m; m &= m - 1) {
            int x = G->hcell[h][__builtin_ctz(m)];
            if (t && G->reg[x][0] == box) continue; /* a row or column cell of the box: already met */
            out[k].cell = (int16_t)x, out[k].value = (int16_t)v, out[k].cause = (int16_t)(C_BLOCK + t), out[k].nh = 0;
            k++;
        }
    }
    return k;
}

/* from "off" (c, v): the "on"s (a bivalue cell's other value, a value's other place in box, row,
 * column), each with its hidden parents (keys of the "off"s that reduced the cell or house since
 * ``src``; none when src is NULL) */
static int off_to_on_grid(const engine_t *E, const grid_t *g, const grid_t *src, int key, int cell_rule,
                          int house_rule, cons_t *out) {
    const geo_t *G = E->G;
    int n = G->n, c = KCELL(G, key), v = KVAL(G, key), k = 0;
    if (cell_rule) {
        uint32_t m = g->cand[c];
        if (popc32(m) == 2) {
            int low = __builtin_ctz(m) + 1;
            int other = low != v ? low : 32 - __builtin_clz(m);
            cons_t *o = &out[k++];
            o->cell = (int16_t)c, o->value = (int16_t)other, o->cause = C_NAKED, o->nh = 0;
            if (src) {
                uint32_t gone = src->cand[c] & ~m;
                while (gone) {
                    int b = __builtin_ctz(gone);
                    gone &= gone - 1;
                    o->hidden[o->nh++] = KEY(n, c, b + 1, 0);
                }
            }
        }
    }
    if (house_rule) {
        for (int t = 0; t < 3; t++) {
            int h = G->reg[c][t];
            uint32_t others = g->hpos[h * n + v - 1] & ~(1u << G->at[c][t]);
            if (!others || (others & (others - 1))) continue;
            int x = G->hcell[h][__builtin_ctz(others)];
            int dup = 0;
            for (int j = 0; j < k; j++)
                if (out[j].cell == x && out[j].value == v) dup = 1;
            if (dup) continue;
            cons_t *o = &out[k++];
            o->cell = (int16_t)x, o->value = (int16_t)v, o->cause = (int16_t)(C_BLOCK + t), o->nh = 0;
            if (src)
                for (uint32_t m = src->hpos[h * n + v - 1] & ~g->hpos[h * n + v - 1]; m; m &= m - 1)
                    o->hidden[o->nh++] = KEY(n, G->hcell[h][__builtin_ctz(m)], v, 0);
        }
    }
    return k;
}

/* ---- ancestors ----------------------------------------------------------------------------------- */

/* the breadth-first ancestry of a node by key (SE's getChain), node indexes into out, each key
   once; stops once out holds more than ``limit`` nodes (returns 1: over), else returns 0 */
static int walk_up(engine_t *E, int node, int limit, ivec *out) {
    ivec *cur = &E->tmp1, *nxt = &E->tmp2;
    cur->n = 0, out->n = 0;
    if (iv_push(cur, node) < 0) return -1;
    int over = 0;
    while (cur->n && !over) {
        nxt->n = 0;
        for (int i = 0; i < cur->n; i++) {
            node_t *p = &E->nd[cur->a[i]];
            uint64_t bit = (uint64_t)1 << (p->key & 63);
            if (E->vis[p->key >> 6] & bit) continue;
            E->vis[p->key >> 6] |= bit;
            if (iv_push(out, cur->a[i]) < 0) return -1;
            if (out->n > limit) {
                over = 1;
                break;
            }
            if (iv_reserve(nxt, p->npar) < 0) return -1;
            for (int j = 0; j < p->npar; j++) nxt->a[nxt->n++] = E->pp.a[p->par + j];
        }
        ivec *t = cur;
        cur = nxt, nxt = t;
    }
    for (int i = 0; i < out->n; i++) {
        int k = E->nd[out->a[i]].key;
        E->vis[k >> 6] &= ~((uint64_t)1 << (k & 63));
    }
    return over;
}

/* SE's getAncestorCount, stopping past ``limit`` (then limit + 1); a full count is kept on the node */
static int ancestors(engine_t *E, int node, int limit) {
    if (E->nd[node].cnt > 0) return E->nd[node].cnt;
    int over = walk_up(E, node, limit, &E->tmp3);
    if (over < 0) return -1;
    if (over) return limit + 1;
    E->nd[node].cnt = E->tmp3.n;
    return E->tmp3.n;
}

/* the breadth-first ancestry of a node by key (SE's getChain): node indexes into out */
static int ancestry(engine_t *E, int node, ivec *out) {
    return walk_up(E, node, INT_MAX, out) < 0 ? -1 : 0;
}

/* ---- length and comparison ----------------------------------------------------------------------- */

static double length_addition(int complexity) {
    double added = 0.0;
    int ceil = 4, odd = 0, length = complexity - 2;
    while (length > ceil) {
        added += 0.1;
        ceil = odd ? ceil * 4 / 3 : ceil * 3 / 2;
        odd = !odd;
    }
    return added;
}

static int hint_less(const hcand_t *a, const hcand_t *b) {
    if (a->diff != b->diff) return a->diff < b->diff;
    if (a->cplx != b->cplx) return a->cplx < b->cplx;
    if (a->sk != b->sk) return a->sk < b->sk;
    return a->order < b->order;
}

/* the largest complexity a hint of this base and sort key may have and still come before ``b``
 * (found later, so an equal one does not) */
static int complexity_limit(double base, int sk, const hcand_t *b) {
    int lo = 0, ceil = 4, odd = 0; /* bucket: complexities lo+1 .. ceil+2 */
    double added = 0.0;
    for (;;) {
        double d = base + added;
        int hi = ceil + 2;
        if (d > b->diff) return lo;
        if (d == b->diff) {
            int lim = sk < b->sk ? b->cplx : b->cplx - 1;
            lim = lim < hi ? lim : hi;
            return lim > lo ? lim : lo;
        }
        lo = hi;
        added += 0.1;
        ceil = odd ? ceil * 4 / 3 : ceil * 3 / 2;
        odd = !odd;
        if (ceil > (INT_MAX >> 2)) return INT_MAX;
    }
}

/* ---- nested complexity (SE's getNestedComplexity with FullChain equality) ------------------------ */

static int same_chain(const store_t *S, const shint_t *a, const shint_t *b) {
    if (a->hash != b->hash || a->nsig != b->nsig) return 0;
    return memcmp(S->pool.a + a->sig, S->pool.a + b->sig, sizeof(int32_t) * (size_t)a->nsig) == 0;
}

static int nested_complexity(engine_t *E, const int32_t *targets, int ntg) {
    if (E->level < 2) return 0;
    int total = 0;
    ivec anc = {0}, got = {0};
    for (int t = 0; t < ntg && !E->S->err; t++) {
        if (ancestry(E, targets[t], &anc) < 0) {
            E->S->err = 1;
            break;
        }
        for (int i = 0; i < anc.n; i++) {
            int r = E->nd[anc.a[i]].rule;
            if (r < 0 || (r & 3) != 1) continue;
            const shint_t *h = &E->S->sh[r >> 2];
            int dup = 0;
            for (int j = 0; j < got.n && !dup; j++) dup = same_chain(E->S, h, &E->S->sh[got.a[j]]);
            if (!dup) {
                iv_push(&got, r >> 2);
                total += h->cplx;
            }
        }
    }
    free(anc.a), free(got.a);
    return total;
}

/* ---- hint candidates --------------------------------------------------------------------------- */

static double kind_base(const engine_t *E, int kind, int x, int y) {
    if (kind == K_CYCLE) return x && y ? 7.0 : 6.5;
    if (kind == K_FORCING) return x && y ? 7.0 : 6.6;
    if (E->level > 0) return 8.5 + 0.5 * E->level;
    if (E->nishio) return 7.5;
    if (E->dynamic) return 8.5;
    return 8.0;
}

static int kind_sort_key(int kind, int x, int y) {
    switch (kind) {
    case K_CYCLE:
    case K_FORCING: return x && y ? 4 : (y ? 3 : 2);
    case K_CONTRADICTION: return 7;
    case K_DOUBLE: return 1;
    case K_CELL: return 5;
    default: return 6;
    }
}

/* a hint found: its removables (candidate indexes) and targets; kept when it can still come
 * first (top producer) or always (a nested rule's engine); 0, or -1 on error */
static int offer(engine_t *E, hcand_t *h, const int32_t *rem, int nrem, const int32_t *tg, int ntg) {
    h->sk = kind_sort_key(h->kind, h->x, h->y);
    h->order = E->order++;
    double base = kind_base(E, h->kind, h->x, h->y);
    int limit = INT_MAX - 1, counted = h->kind == K_CYCLE ? 1 : ntg;
    if (!E->keep_all && E->has_best) {
        limit = complexity_limit(base, h->sk, &E->best);
        if (limit < counted) return 0;
    }
    long flat = 0;
    for (int t = 0; t < counted; t++) {
        int a = ancestors(E, tg[t], (int)(limit - flat));
        if (a < 0) return -1;
        flat += a;
        if (flat > limit) return 0;
    }
    h->cplx = (int)flat + nested_complexity(E, tg, ntg);
    if (E->S->err) return -1;
    h->diff = base + length_addition(h->cplx);
    if (!E->keep_all && E->has_best && !hint_less(h, &E->best)) return 0;
    h->rem = E->hp.n, h->nrem = nrem;
    if (iv_reserve(&E->hp, nrem + ntg) < 0) return -1;
    memcpy(E->hp.a + E->hp.n, rem, sizeof(int32_t) * (size_t)nrem);
    E->hp.n += nrem;
    h->tg = E->hp.n, h->ntg = ntg;
    memcpy(E->hp.a + E->hp.n, tg, sizeof(int32_t) * (size_t)ntg);
    E->hp.n += ntg;
    if (!E->keep_all) {
        E->best = *h;
        E->has_best = 1;
        return 0;
    }
    if (E->nh == E->hcap) {
        hcand_t *p = grown(E->hl, &E->hcap, 64, sizeof *p);
        if (!p) return -1;
        E->hl = p;
    }
    E->hl[E->nh++] = *h;
    return 0;
}

static void hc_init(hcand_t *h, int kind) {
    memset(h, 0, sizeof *h);
    h->kind = kind, h->x = 1, h->y = 1, h->place = -1, h->src_key = -1, h->cell = -1, h->region = -1;
}

/* removables of a conclusion: a target "on" removes its cell's other values, an "off" itself */
static int conclusion(const engine_t *E, int key, int32_t *rem, int *place) {
    const geo_t *G = E->G;
    int n = G->n, c = KCELL(G, key), v = KVAL(G, key), k = 0;
    *place = -1;
    if (key & 1) {
        uint32_t m = E->g->cand[c] & ~(1u << (v - 1));
        while (m) {
            int b = __builtin_ctz(m);
            m &= m - 1;
            rem[k++] = c * n + b;
        }
        if (k) *place = c * n + v - 1;
    } else
        rem[k++] = c * n + v - 1;
    return k;
}

/* ---- chains (doChaining) -------------------------------------------------------------------------- */

static int chain_insert(engine_t *E, int node) {
    E->at[E->nd[node].key] = node;
    return iv_push(&E->lp, node);
}

static int run_rules(engine_t *E, grid_t *g, const grid_t *src, ivec *outq);

/* propagate from one start (a fresh node), SE's doChaining; the chain's index, or -1 */
static int run_chain(engine_t *E, int start) {
    const geo_t *G = E->G;
    grid_t *g = E->g;
    int n = G->n;
    if (E->nch == E->chcap) {
        chain_t *p = grown(E->ch, &E->chcap, 64, sizeof *p);
        if (!p) return -1;
        E->ch = p;
    }
    int ci = E->nch++;
    chain_t *C = &E->ch[ci];
    C->start = start, C->lst = E->lp.n, C->ab_on = C->ab_off = -1;
    /* a dynamic chain reduces the grid: restored at its end from the engine's copy (an engine's
     * chains do not nest: a nested rule runs another engine); a static one leaves it as it is */
    grid_t *saved = NULL;
    if (E->dynamic) {
        if (!E->saved && !(E->saved = malloc(sizeof(grid_t)))) return -1;
        saved = E->saved;
        grid_copy(G, saved, g);
    }
    const grid_t *src = saved;
    int cell_rule = !E->nishio, rc = 0;
    ivec *qon = &E->q1, *qoff = &E->q2;
    qon->n = qoff->n = 0;
    int hon = 0, hoff = 0;
    if (chain_insert(E, start) < 0) goto fail;
    if (iv_push((E->nd[start].key & 1) ? qon : qoff, start) < 0) goto fail;
    cons_t cons[4 * MAXN];
    for (;;) {
        if (hon < qon->n) {
            int p = qon->a[hon++];
            int k = on_to_off(E, g, E->nd[p].key, cell_rule, cons);
            for (int i = 0; i < k; i++) {
                int koff = KEY(n, cons[i].cell, cons[i].value, 0);
                if (E->at[koff | 1] >= 0) {
                    int q = new_node(E, koff, cons[i].cause, p);
                    if (q < 0) goto fail;
                    C = &E->ch[ci];
                    C->ab_on = E->at[koff | 1], C->ab_off = q;
                    goto done;
                }
                if (E->at[koff] < 0) {
                    int q = new_node(E, koff, cons[i].cause, p);
                    if (q < 0 || chain_insert(E, q) < 0 || iv_push(qoff, q) < 0) goto fail;
                }
            }
            continue;
        }
        if (hoff < qoff->n) {
            int p = qoff->a[hoff++];
            int pk = E->nd[p].key;
            int k = off_to_on(E, g, src, pk, cell_rule, 1, cons);
            if (E->dynamic) g_remove(G, g, KCELL(G, pk), KVAL(G, pk));
            for (int i = 0; i < k; i++) {
                int kon = KEY(n, cons[i].cell, cons[i].value, 1);
                int clash = E->at[kon & ~1] >= 0;
                if (!clash && E->at[kon] >= 0) continue;
                int q = new_node(E, kon, cons[i].cause, p);
                if (q < 0) goto fail;
                for (int j = 0; j < cons[i].nh; j++) {
                    int hp = E->at[cons[i].hidden[j]];
                    if (hp < 0) {
                        E->S->err = 1;
                        goto fail;
                    }
                    if (add_parent(E, q, hp) < 0) goto fail;
                }
                if (clash) {
                    C = &E->ch[ci];
                    C->ab_on = q, C->ab_off = E->at[kon & ~1];
                    goto done;
                }
                if (chain_insert(E, q) < 0 || iv_push(qon, q) < 0) goto fail;
            }
            continue;
        }
        if (E->level > 0) {
            int before = qoff->n;
            if (run_rules(E, g, saved, qoff) < 0) goto fail;
            if (qoff->n > before) continue;
        }
        break;
    }
done:
    C = &E->ch[ci];
    C->nl = E->lp.n - C->lst;
    C->bits = E->nbp;
    if (E->nbp + E->kw > E->bpcap) {
        while (E->nbp + E->kw > E->bpcap) {
            uint64_t *p = grown(E->bp, &E->bpcap, 1024, sizeof *p);
            if (!p) goto fail;
            E->bp = p;
        }
    }
    memset(E->bp + C->bits, 0, sizeof(uint64_t) * (size_t)E->kw);
    E->nbp += E->kw;
    for (int i = 0; i < C->nl; i++) {
        int key = E->nd[E->lp.a[C->lst + i]].key;
        E->bp[C->bits + (key >> 6)] |= (uint64_t)1 << (key & 63);
        E->at[key] = -1;
    }
    if (saved) grid_copy(G, g, saved);
    return rc < 0 ? -1 : ci;
fail:
    C = &E->ch[ci];
    for (int i = C->lst; i < E->lp.n; i++) E->at[E->nd[E->lp.a[i]].key] = -1;
    if (saved) grid_copy(G, g, saved);
    return -1;
}

/* the chain from a start key, run once per call */
static int chain_of(engine_t *E, int key) {
    if (E->memo[key] >= 0) return E->memo[key];
    int s = new_node(E, key, C_INITIAL, -1);
    if (s < 0) return -1;
    int ci = run_chain(E, s);
    if (ci < 0) return -1;
    E->memo[key] = ci;
    return ci;
}

static inline int chain_has(const engine_t *E, int ci, int key) {
    return (int)(E->bp[E->ch[ci].bits + (key >> 6)] >> (key & 63) & 1);
}

/* the node of ``key`` in chain ci (it must be there) */
static int chain_node(const engine_t *E, int ci, int key) {
    const chain_t *C = &E->ch[ci];
    for (int i = 0; i < C->nl; i++)
        if (E->nd[E->lp.a[C->lst + i]].key == key) return E->lp.a[C->lst + i];
    return -1;
}

/* ---- multiple, dynamic, Nishio ------------------------------------------------------------------- */

static int binary_hint(engine_t *E, int kind, int on_node, int off_node, int src_key, int concl_key) {
    hcand_t h;
    hc_init(&h, kind);
    h.src_key = src_key;
    int32_t rem[MAXN], tg[2] = {on_node, off_node};
    int nrem = conclusion(E, concl_key, rem, &h.place);
    if (!nrem) return 0;
    return offer(E, &h, rem, nrem, tg, 2);
}

/* the region or cell forcing hints of branches br[0..nb) (chains): potentials common to every
 * branch, in the first branch's order */
static int reduction_hints(engine_t *E, int kind, const int32_t *br, int nb, int cell, int region, int value) {
    const chain_t *C0 = &E->ch[br[0]];
    int32_t *tg = malloc(sizeof(int32_t) * (size_t)nb);
    if (!tg) return -1;
    for (int pass = 1; pass >= 0; pass--) { /* the "on"s, then the "off"s */
        for (int i = 0; i < C0->nl; i++) {
            int node = E->lp.a[C0->lst + i];
            int key = E->nd[node].key;
            if ((key & 1) != pass) continue;
            int all = 1;
            for (int b = 1; b < nb && all; b++) all = chain_has(E, br[b], key);
            if (!all) continue;
            hcand_t h;
            hc_init(&h, kind);
            h.cell = cell, h.region = region, h.value = value;
            int32_t rem[MAXN];
            int nrem = conclusion(E, key, rem, &h.place);
            if (!nrem) continue;
            tg[0] = node;
            for (int b = 1; b < nb; b++) tg[b] = chain_node(E, br[b], key);
            if (offer(E, &h, rem, nrem, tg, nb) < 0) {
                free(tg);
                return -1;
            }
            C0 = &E->ch[br[0]];
        }
    }
    free(tg);
    return 0;
}

static int multiple_hints(engine_t *E) {
    const geo_t *G = E->G;
    grid_t *g = E->g;
    int n = G->n;
    for (int c = 0; c < G->N; c++) {
        uint32_t m = g->cand[c];
        int card = popc32(m);
        if (g->val[c] || !(card > 2 || (card > 1 && E->dynamic))) continue;
        int32_t on_chains[MAXN];
        int nv = 0;
        for (uint32_t mm = m; mm; mm &= mm - 1) {
            int v = __builtin_ctz(mm) + 1;
            int kon = KEY(n, c, v, 1), koff = KEY(n, c, v, 0);
            int con = chain_of(E, kon);
            if (con < 0) return -1;
            if ((E->dynamic || E->nishio) && E->ch[con].ab_on >= 0)
                if (binary_hint(E, K_CONTRADICTION, E->ch[con].ab_on, E->ch[con].ab_off, kon, koff) < 0) return -1;
            int coff = chain_of(E, koff);
            if (coff < 0) return -1;
            if ((E->dynamic || E->nishio) && E->ch[coff].ab_on >= 0)
                if (binary_hint(E, K_CONTRADICTION, E->ch[coff].ab_on, E->ch[coff].ab_off, koff, kon) < 0) return -1;
            if (card >= 3 && !E->nishio && E->dynamic) {
                for (int pass = 1; pass >= 0; pass--)
                    for (int i = 0; i < E->ch[con].nl; i++) {
                        int q = E->lp.a[E->ch[con].lst + i];
                        int key = E->nd[q].key;
                        if ((key & 1) != pass || !chain_has(E, coff, key)) continue;
                        int r = chain_node(E, coff, key);
                        if (binary_hint(E, K_DOUBLE, q, r, pass ? kon : koff, key) < 0) return -1;
                    }
            }
            if (!E->nishio) {
                for (int t = 0; t < 3; t++) {
                    int h = G->reg[c][t];
                    int16_t cells[MAXN];
                    int np = cells_of(G, &g->pos[v - 1], &G->hmask[h], NULL, -1, cells);
                    if (!(np == 2 || (E->multiple && np > 2)) || cells[0] != c) continue;
                    int32_t br[MAXN];
                    for (int i = 0; i < np; i++) {
                        br[i] = cells[i] == c ? con : chain_of(E, KEY(n, cells[i], v, 1));
                        if (br[i] < 0) return -1;
                    }
                    if (reduction_hints(E, K_REGION, br, np, -1, h, v) < 0) return -1;
                }
            }
            on_chains[nv++] = con;
        }
        if (!E->nishio && (card == 2 || (E->multiple && card > 2)))
            if (reduction_hints(E, K_CELL, on_chains, nv, c, -1, 0) < 0) return -1;
        if (E->S->err) return -1;
    }
    return 0;
}

/* ---- cycles and forcing chains (static) ---------------------------------------------------------- */

/* a consequence of node p (its key and cause) in a search from a start: a hit (a cycle's or a
   chain's end) goes on ends; a key not reached yet is marked and queued on next */
static inline int reach(engine_t *E, int p, int key, int cause, int hit, ivec *ends, ivec *marked, ivec *next) {
    int fresh = E->at[key] < 0;
    if (!hit && !fresh) return 0;
    int q = new_node(E, key, cause, p);
    if (q < 0) return -1;
    if (hit && iv_push(ends, q) < 0) return -1;
    if (fresh) {
        E->at[key] = q;
        if (iv_push(marked, key) < 0 || iv_push(next, q) < 0) return -1;
    }
    return 0;
}

/* the searches below run in static engines only: they read the implication table in place */

/* the ancestor set of the ``slot``-th queued "on" of do_cycles (the arena grown as needed) */
static uint64_t *anc_slot(engine_t *E, int slot) {
    if (slot >= E->anccap) {
        int cap = E->anccap;
        while (slot >= cap) cap = cap ? 2 * cap : 256;
        uint64_t *p = realloc(E->anc, sizeof(uint64_t) * (size_t)cap * (size_t)E->kw);
        if (!p) return NULL;
        E->anc = p, E->anccap = cap;
    }
    return E->anc + (size_t)slot * (size_t)E->kw;
}

/* SE's doCycles from source (an "on" node): the cycle ends into cycles. SE's isParent (is an
 * "off" an ancestor of the "on" it would follow) is a bit test: each queued "on" carries the set
 * of the "off"s on its line (its parent's set and its parent), indexed by its place in the queue. */
static int do_cycles(engine_t *E, int source, int y, int x, ivec *cycles, ivec *marked) {
    int skey = E->nd[source].key, kw = E->kw;
    const int32_t *imp = E->imp.a;
    ivec *qon = &E->q1, *qoff = &E->q2, *qpos = &E->tmp3; /* qpos: an "off"'s parent's place in qon */
    qon->n = qoff->n = qpos->n = 0;
    int hon = 0, hoff = 0, length = 0;
    E->at[skey] = source;
    if (iv_push(marked, skey) < 0 || iv_push(qon, source) < 0) return -1;
    uint64_t *a0 = anc_slot(E, 0);
    if (!a0) return -1;
    memset(a0, 0, sizeof(uint64_t) * (size_t)kw);
    while (hon < qon->n || hoff < qoff->n) {
        length++;
        while (hon < qon->n) {
            int slot = hon, p = qon->a[hon++], a, b;
            const uint64_t *anc = E->anc + (size_t)slot * (size_t)kw;
            tab_range(E, E->nd[p].key, y, 1, &a, &b);
            for (int i = a; i < b; i++) {
                int koff = (imp[i] >> 3) << 1;
                if (anc[koff >> 6] >> (koff & 63) & 1) continue;
                int q = new_node(E, koff, imp[i] & 7, p);
                if (q < 0 || iv_push(qoff, q) < 0 || iv_push(qpos, slot) < 0) return -1;
            }
        }
        length++;
        while (hoff < qoff->n) {
            int from = qpos->a[hoff], p = qoff->a[hoff++], a, b, pkey = E->nd[p].key;
            tab_range(E, pkey, y, x, &a, &b);
            for (int i = a; i < b; i++) {
                int kon = ((imp[i] >> 3) << 1) | 1, before = qon->n;
                if (reach(E, p, kon, imp[i] & 7, length >= 4 && kon == skey, cycles, marked, qon) < 0) return -1;
                if (qon->n > before) {
                    uint64_t *dst = anc_slot(E, before);
                    if (!dst) return -1;
                    memcpy(dst, E->anc + (size_t)from * (size_t)kw, sizeof(uint64_t) * (size_t)kw);
                    dst[pkey >> 6] |= (uint64_t)1 << (pkey & 63);
                }
            }
        }
    }
    return 0;
}

/* one step of do_forcing from node p: each consequence (table entries [a, b); on: turned on) that
   reaches the start's negation, unless a chain already ends there, becomes a chain; a fresh one is
   queued on next. 1 when a chain was found (nothing further can be: SE's later hits of the same
   key are dropped as duplicates), 0, or -1 on error */
static inline int forcing_step(engine_t *E, int p, int a, int b, int on, int skey, ivec *chains, ivec *marked,
                               ivec *next) {
    const int32_t *imp = E->imp.a;
    for (int i = a; i < b; i++) {
        int key = ((imp[i] >> 3) << 1) | on;
        int target = (on ? (key & ~1) : (key | 1)) == skey;
        if (target)
            for (int j = 0; j < chains->n && target; j++) target = E->nd[chains->a[j]].key != key;
        if (reach(E, p, key, imp[i] & 7, target, chains, marked, next) < 0) return -1;
        if (target) return 1; /* the start's negation is the only target: the search is over */
    }
    return 0;
}

/* SE's doForcingChains from one start: targets (the start's negation) into chains */
static int do_forcing(engine_t *E, int source, int y, ivec *chains, ivec *marked) {
    int skey = E->nd[source].key;
    ivec *qon = &E->q1, *qoff = &E->q2;
    qon->n = qoff->n = 0;
    int hon = 0, hoff = 0;
    E->at[skey] = source;
    if (iv_push(marked, skey) < 0 || iv_push((skey & 1) ? qon : qoff, source) < 0) return -1;
    while (hon < qon->n || hoff < qoff->n) {
        while (hon < qon->n) {
            int p = qon->a[hon++], a, b;
            tab_range(E, E->nd[p].key, y, 1, &a, &b);
            int rc = forcing_step(E, p, a, b, 0, skey, chains, marked, qoff);
            if (rc) return rc < 0 ? -1 : 0;
        }
        while (hoff < qoff->n) {
            int p = qoff->a[hoff++], a, b;
            tab_range(E, E->nd[p].key, y, 1, &a, &b);
            int rc = forcing_step(E, p, a, b, 1, skey, chains, marked, qon);
            if (rc) return rc < 0 ? -1 : 0;
        }
    }
    return 0;
}

static void unmark(engine_t *E, ivec *marked) {
    for (int i = 0; i < marked->n; i++) E->at[marked->a[i]] = -1;
    marked->n = 0;
}

/* the cycle read backwards (SE's getReversedCycle): its end (the source negated) */
static int reversed_cycle(engine_t *E, int dst_on) {
    ivec line = {0};
    int p = dst_on, first = -1;
    for (;;) { /* the forward line, end to source */
        if (iv_push(&line, p) < 0) goto fail;
        if (!E->nd[p].npar) break;
        p = E->pp.a[E->nd[p].par];
    }
    /* negated, from the source's negation (which rests on the next one) to the end's */
    int prev = -1;
    for (int i = line.n - 1; i >= 0; i--) {
        node_t *o = &E->nd[line.a[i]];
        int q = new_node(E, o->key ^ 1, o->cause, -1);
        if (q < 0) goto fail;
        if (prev >= 0) {
            /* parents must be contiguous: prev's single parent is q, appended now */
            E->nd[prev].par = E->pp.n;
            if (add_parent(E, prev, q) < 0) goto fail;
        } else
            first = q;
        prev = q;
    }
    free(line.a);
    return first;
fail:
    free(line.a);
    return -1;
}

static int cycle_hint(engine_t *E, int dst_on, int y, int x) {
    const geo_t *G = E->G;
    const grid_t *g = E->g;
    int n = G->n;
    cellset cells;
    cs_clear(&cells);
    int p = dst_on;
    while (E->nd[p].npar) {
        cs_add(&cells, KCELL(G, E->nd[p].key));
        p = E->pp.a[E->nd[p].par];
    }
    ivec fwd = {0};
    uint64_t back[(MAXC * MAXN + 63) / 64];
    memset(back, 0, sizeof(uint64_t) * (size_t)((G->P + 63) / 64));
    p = dst_on;
    while (E->nd[p].npar) {
        int key = E->nd[p].key, c = KCELL(G, key), v = KVAL(G, key);
        for (int i = 0; i < G->npeer; i++) {
            int o = G->peer[c][i];
            if (cs_has(&cells, o) || !g_has(g, o, v)) continue;
            int ci = o * n + v - 1;
            if (key & 1) {
                int dup = 0;
                for (int j = 0; j < fwd.n && !dup; j++) dup = fwd.a[j] == ci;
                if (!dup && iv_push(&fwd, ci) < 0) return -1;
            } else
                back[ci >> 6] |= (uint64_t)1 << (ci & 63);
        }
        p = E->pp.a[E->nd[p].par];
    }
    int32_t rem[MAXC];
    int nrem = 0;
    for (int j = 0; j < fwd.n; j++)
        if (back[fwd.a[j] >> 6] >> (fwd.a[j] & 63) & 1) rem[nrem++] = fwd.a[j];
    free(fwd.a);
    if (!nrem) return 0;
    int dst_off = reversed_cycle(E, dst_on);
    if (dst_off < 0) return -1;
    hcand_t h;
    hc_init(&h, K_CYCLE);
    h.x = x, h.y = y;
    int32_t tg[2] = {dst_on, dst_off};
    return offer(E, &h, rem, nrem, tg, 2);
}

static int unary_hints(engine_t *E, int y, int x) {
    const geo_t *G = E->G;
    const grid_t *g = E->g;
    int n = G->n;
    ivec cycles = {0}, chains = {0}, marked = {0};
    int rc = 0;
    for (int c = 0; c < G->N && rc == 0; c++) {
        uint32_t m = g->cand[c];
        int card = popc32(m);
        if (g->val[c] || card < 2 || (!x && card > 2)) continue;
        for (uint32_t mm = m; mm && rc == 0; mm &= mm - 1) {
            int v = __builtin_ctz(mm) + 1;
            cycles.n = chains.n = 0;
            int kon = KEY(n, c, v, 1), koff = kon ^ 1;
            /* the searches the reach sets prove empty are skipped (they would find nothing) */
            int cyc = may_cycle(E, kon, y, x), f_on = x && reaches(E, kon, koff), f_off = x && reaches(E, koff, kon);
            if (!cyc && !f_on && !f_off) continue;
            int s = new_node(E, kon, C_INITIAL, -1);
            if (s < 0 || (cyc && do_cycles(E, s, y, x, &cycles, &marked) < 0)) {
                rc = -1;
                break;
            }
            unmark(E, &marked);
            if (f_on) {
                if (do_forcing(E, s, y, &chains, &marked) < 0) {
                    rc = -1;
                    break;
                }
                unmark(E, &marked);
            }
            if (f_off) {
                int s2 = new_node(E, koff, C_INITIAL, -1);
                if (s2 < 0 || do_forcing(E, s2, y, &chains, &marked) < 0) {
                    rc = -1;
                    break;
                }
                unmark(E, &marked);
            }
            for (int i = 0; i < cycles.n && rc == 0; i++) rc = cycle_hint(E, cycles.a[i], y, x);
            for (int i = 0; i < chains.n && rc == 0; i++) {
                hcand_t h;
                hc_init(&h, K_FORCING);
                h.x = x, h.y = y;
                int32_t rem[MAXN], tg[1] = {chains.a[i]};
                int nrem = conclusion(E, E->nd[chains.a[i]].key, rem, &h.place);
                if (nrem) rc = offer(E, &h, rem, nrem, tg, 1);
            }
        }
    }
    unmark(E, &marked);
    free(cycles.a), free(chains.a), free(marked.a);
    return rc;
}

/* ---- Dynamic Plus rules on a reduced grid ------------------------------------------------------- */

/* SE's HashMap order of cells (index mod capacity, then insertion; classic SE: insertion) */
static void java_order(int32_t *cells, int k, int classic) {
    if (classic) return;
    int cap = 16;
    while (k > cap * 3 / 4) cap *= 2;
    for (int i = 1; i < k; i++) { /* stable insertion sort by bucket */
        int32_t x = cells[i];
        int j = i;
        while (j > 0 && (cells[j - 1] & (cap - 1)) > (x & (cap - 1))) {
            cells[j] = cells[j - 1];
            j--;
        }
        cells[j] = x;
    }
}

typedef struct {
    int name, value, values[2], houses[4], nh, ncells, nrem, npar;
    int16_t cells[MAXN];
    int32_t rem[MAXC];  /* candidate indexes, SE's HashMap order */
    int32_t par[MAXC];  /* keys */
} rule_t;

/* the removables (candidate indexes, insertion order) to SE's HashMap order */
static void rule_order(const geo_t *G, rule_t *r, int classic) {
    int n = G->n;
    int32_t cells[MAXC];
    int nc = 0;
    for (int i = 0; i < r->nrem; i++) {
        int c = r->rem[i] / n, dup = 0;
        for (int j = 0; j < nc && !dup; j++) dup = cells[j] == c;
        if (!dup) cells[nc++] = c;
    }
    java_order(cells, nc, classic);
    int32_t out[MAXC];
    int k = 0;
    for (int j = 0; j < nc; j++)
        for (int v = 0; v < n; v++)
            for (int i = 0; i < r->nrem; i++)
                if (r->rem[i] == cells[j] * n + v) out[k++] = r->rem[i];
    memcpy(r->rem, out, sizeof(int32_t) * (size_t)k);
}

/* store a rule (graph mode) and queue its "off"s: each removable a new ADVANCED node */
static int rule_apply(engine_t *E, rule_t *r, ivec *qoff) {
    store_t *S = E->S;
    const geo_t *G = E->G;
    int n = G->n, ref = REF_ANON;
    rule_order(G, r, E->classic);
    if (S->graph) {
        if (S->nsr == S->srcap) {
            srule_t *p = grown(S->sr, &S->srcap, 64, sizeof *p);
            if (!p) return -1;
            S->sr = p;
        }
        srule_t *s = &S->sr[S->nsr];
        s->name = r->name, s->value = r->value, s->values[0] = r->values[0], s->values[1] = r->values[1];
        s->nh = r->nh;
        for (int i = 0; i < 4; i++) s->houses[i] = r->houses[i];
        if (iv_reserve(&S->pool, r->ncells + r->nrem + r->npar) < 0) return -1;
        s->cells = S->pool.n, s->ncells = r->ncells;
        for (int i = 0; i < r->ncells; i++) S->pool.a[S->pool.n++] = r->cells[i];
        s->rem = S->pool.n, s->nrem = r->nrem;
        for (int i = 0; i < r->nrem; i++) S->pool.a[S->pool.n++] = r->rem[i];
        s->par = S->pool.n, s->npar = r->npar;
        for (int i = 0; i < r->npar; i++) S->pool.a[S->pool.n++] = r->par[i];
        ref = REF_RULE(S->nsr++);
    }
    for (int i = 0; i < r->nrem; i++) {
        int key = (r->rem[i]) << 1;
        (void)n;
        if (iv_push(qoff, key) < 0) return -1;
        if (iv_push(qoff, ref) < 0) return -1;
        if (iv_push(qoff, r->npar) < 0) return -1;
        if (iv_reserve(qoff, r->npar) < 0) return -1;
        for (int j = 0; j < r->npar; j++) qoff->a[qoff->n++] = r->par[j];
    }
    return 0;
}

static int empty_cells(const geo_t *G, const grid_t *g, int h) {
    int k = 0;
    for (int j = 0; j < G->n; j++) k += !g->val[G->hcell[h][j]];
    return k;
}

/* pointing and claiming: box->column, box->row, column->box, row->box; then the digit, the first
 * region, the second (SukakuExplainer) or the first region, the second, the digit (classic SE) */
static int locking_rules(engine_t *E, const grid_t *g, const grid_t *src, const uint32_t *lost, ivec *out) {
    const uint32_t *hpos = g->hpos;
    const geo_t *G = E->G;
    int n = G->n, m = G->m;
    rule_t r;
    int32_t hits[MAXN * MAXN][2]; /* (sort key, h1 * 64 + v) */
    for (int t = 0; t < 4; t++) {
        int nh = 0;
        for (int v = 1; v <= n; v++)
            for (int i1 = 0; i1 < n; i1++) {
                int h1 = (t < 2 ? 2 * n : (t == 2 ? n : 0)) + i1;
                uint32_t p = hpos[h1 * n + v - 1];
                if (!(p & (p - 1)) || !lost[h1 * n + v - 1]) continue; /* fewer than two places, or no parent */
                /* the one crossing region holding every place, if any */
                int k = -1, same = 1;
                for (uint32_t q = p; q && same; q &= q - 1) {
                    int c = G->hcell[h1][__builtin_ctz(q)];
                    int x = t == 0 ? n + G->col_of[c]
                                   : (t == 1 ? G->row_of[c] : 2 * n + (m * (G->row_of[c] / m) + G->col_of[c] / m));
                    if (k < 0) k = x;
                    else if (k != x) same = 0;
                }
                if (!same) continue;
                int i2 = k % n;
                hits[nh][0] = E->classic ? (i1 * n + i2) * n + v - 1 : (v - 1) * n + i1;
                hits[nh][1] = (h1 << 16) | (k << 5) | v;
                nh++;
            }
        if (E->classic) /* insertion sort by key: the hits are few */
            for (int i = 1; i < nh; i++) {
                int32_t a = hits[i][0], b = hits[i][1];
                int j = i;
                while (j > 0 && hits[j - 1][0] > a) {
                    hits[j][0] = hits[j - 1][0], hits[j][1] = hits[j - 1][1];
                    j--;
                }
                hits[j][0] = a, hits[j][1] = b;
            }
        for (int i = 0; i < nh; i++) {
            int h1 = hits[i][1] >> 16, h2 = (hits[i][1] >> 5) & 2047, v = hits[i][1] & 31;
            const cellset *pv = &g->pos[v - 1], *m1 = &G->hmask[h1], *m2 = &G->hmask[h2];
            int16_t cells[MAXN];
            int nc = cells_of(G, pv, m2, m1, -1, cells);
            if (!nc) continue;
            cellset gone;
            cs_andnot(&gone, &src->pos[v - 1], pv, G->nw);
            int16_t gc[MAXN];
            int ng = cells_of(G, &gone, m1, m2, -1, gc);
            if (!ng) continue; /* SE ignores a rule the chain did not enable */
            r.npar = 0;
            for (int j = 0; j < ng; j++) r.par[r.npar++] = KEY(n, gc[j], v, 0);
            r.name = R_LOCKING, r.value = v, r.values[0] = v, r.values[1] = 0;
            r.houses[0] = h1, r.houses[1] = h2, r.houses[2] = r.houses[3] = -1, r.nh = 2;
            r.ncells = cells_of(G, pv, m1, NULL, -1, r.cells);
            r.nrem = 0;
            for (int j = 0; j < nc; j++) r.rem[r.nrem++] = cells[j] * n + v - 1;
            if (rule_apply(E, &r, out) < 0) return -1;
        }
    }
    return 0;
}

/* a hidden or naked pair rule of house h (values v0, v1 in cells c0, c1), its removals and parents
   already in r: named and applied */
static int pair_rule(engine_t *E, rule_t *r, int name, int h, int v0, int v1, int c0, int c1, ivec *out) {
    r->name = name, r->value = 0, r->values[0] = v0, r->values[1] = v1;
    r->houses[0] = h, r->houses[1] = r->houses[2] = r->houses[3] = -1, r->nh = 1;
    r->ncells = 2, r->cells[0] = (int16_t)c0, r->cells[1] = (int16_t)c1;
    return rule_apply(E, r, out);
}

/* SE's Permutations(2, n) visit pairs by increasing mask: the higher index, then the lower */
static int hidden_pairs(engine_t *E, const grid_t *g, const grid_t *src, const uint32_t *lost, ivec *out) {
    const uint32_t *hpos = g->hpos;
    const geo_t *G = E->G;
    int n = G->n;
    int kinds[3] = {2 * n, n, 0}; /* blocks, columns, rows */
    rule_t r;
    for (int t = 0; t < 3; t++)
        for (int i = 0; i < n; i++) {
            int h = kinds[t] + i;
            if (!lost[3 * n * n + h] || empty_cells(G, g, h) <= 4) continue; /* no parent, or too few cells */
            const uint32_t *hp = hpos + h * n;
            for (int b = 1; b < n; b++) {
                uint32_t pb = hp[b];
                if (popc32(pb) != 2) continue;
                for (int a = 0; a < b; a++) {
                    if (hp[a] != pb || !(lost[h * n + a] | lost[h * n + b])) continue;
                    int pair[2] = {G->hcell[h][__builtin_ctz(pb)], G->hcell[h][31 - __builtin_clz(pb)]};
                    uint32_t set = (1u << a) | (1u << b);
                    r.nrem = 0;
                    for (int j = 0; j < 2; j++)
                        for (uint32_t mm = g->cand[pair[j]] & ~set; mm; mm &= mm - 1)
                            r.rem[r.nrem++] = pair[j] * n + __builtin_ctz(mm);
                    if (!r.nrem) continue;
                    r.npar = 0;
                    for (int j = 0; j < n; j++) {
                        int c = G->hcell[h][j];
                        if (pb >> j & 1) continue;
                        if (g_has(src, c, a + 1)) r.par[r.npar++] = KEY(n, c, a + 1, 0);
                        if (g_has(src, c, b + 1)) r.par[r.npar++] = KEY(n, c, b + 1, 0);
                    }
                    if (!r.npar) continue;
                    if (pair_rule(E, &r, R_HIDDEN, h, a + 1, b + 1, pair[0], pair[1], out) < 0) return -1;
                }
            }
        }
    return 0;
}

static int naked_pairs(engine_t *E, const grid_t *g, const grid_t *src, const uint32_t *lost, ivec *out) {
    const geo_t *G = E->G;
    int n = G->n;
    int kinds[3] = {2 * n, n, 0};
    rule_t r;
    for (int t = 0; t < 3; t++)
        for (int i = 0; i < n; i++) {
            int h = kinds[t] + i;
            if (!lost[3 * n * n + h] || empty_cells(G, g, h) < 4) continue;
            for (int jb = 1; jb < n; jb++) {
                int cb = G->hcell[h][jb];
                uint32_t both = g->cand[cb];
                if (popc32(both) != 2) continue;
                for (int ja = 0; ja < jb; ja++) {
                    int ca = G->hcell[h][ja];
                    if (g->cand[ca] != both) continue;
                    r.nrem = 0;
                    for (int j = 0; j < n; j++) {
                        int c = G->hcell[h][j];
                        if (c == ca || c == cb) continue;
                        for (uint32_t mm = g->cand[c] & both; mm; mm &= mm - 1) r.rem[r.nrem++] = c * n + __builtin_ctz(mm);
                    }
                    if (!r.nrem) continue;
                    r.npar = 0;
                    int pc[2] = {ca, cb};
                    for (int j = 0; j < 2; j++)
                        for (uint32_t mm = src->cand[pc[j]] & ~both; mm; mm &= mm - 1)
                            r.par[r.npar++] = KEY(n, pc[j], __builtin_ctz(mm) + 1, 0);
                    if (!r.npar) continue;
                    if (pair_rule(E, &r, R_NAKED, h, __builtin_ctz(both) + 1, 32 - __builtin_clz(both), ca, cb, out) < 0)
                        return -1;
                }
            }
        }
    return 0;
}

static int x_wings(engine_t *E, const grid_t *g, const grid_t *src, const uint32_t *lost, ivec *out) {
    const uint32_t *hpos = g->hpos;
    const geo_t *G = E->G;
    int n = G->n;
    int placed[MAXN + 1] = {0};
    for (int c = 0; c < G->N; c++) placed[g->val[c]]++;
    rule_t r;
    for (int t = 0; t < 2; t++) {
        int base = t == 0 ? n : 0, cover = t == 0 ? 0 : n; /* columns then rows as the base */
        for (int p = 0; p < G->npairs; p++) {
            int b1 = base + G->pairs[p][0], b2 = base + G->pairs[p][1];
            for (int v = 1; v <= n; v++) {
                if (placed[v] + 4 > n) continue;
                /* a line's places of v as cover-line bits are its house-index bits */
                uint32_t l1 = hpos[b1 * n + v - 1], l2 = hpos[b2 * n + v - 1];
                if (l1 != l2 || popc32(l1) != 2 || !(lost[b1 * n + v - 1] | lost[b2 * n + v - 1])) continue;
                const cellset *pv = &g->pos[v - 1];
                int c1 = cover + __builtin_ctz(l1), c2 = cover + 31 - __builtin_clz(l1);
                cellset bases, covers;
                cs_or(&bases, &G->hmask[b1], &G->hmask[b2], G->nw);
                cs_or(&covers, &G->hmask[c1], &G->hmask[c2], G->nw);
                int16_t cells[MAXN];
                int cv[2] = {c1, c2};
                r.nrem = 0;
                for (int j = 0; j < 2; j++) {
                    int nc = cells_of(G, pv, &G->hmask[cv[j]], &bases, -1, cells);
                    for (int i = 0; i < nc; i++) r.rem[r.nrem++] = cells[i] * n + v - 1;
                }
                if (!r.nrem) continue;
                cellset gone;
                cs_andnot(&gone, &src->pos[v - 1], pv, G->nw);
                r.npar = 0;
                int bs[2] = {b1, b2};
                for (int j = 0; j < 2; j++) {
                    int nc = cells_of(G, &gone, &G->hmask[bs[j]], &covers, -1, cells);
                    for (int i = 0; i < nc; i++) r.par[r.npar++] = KEY(n, cells[i], v, 0);
                }
                if (!r.npar) continue;
                r.name = R_XWING, r.value = v, r.values[0] = v, r.values[1] = 0;
                r.houses[0] = b1, r.houses[1] = b2, r.houses[2] = c1, r.houses[3] = c2, r.nh = 4;
                r.ncells = 0;
                for (int j = 0; j < 2; j++) {
                    int nb = cells_of(G, pv, &G->hmask[cv[j]], NULL, -1, cells);
                    for (int i = 0; i < nb; i++)
                        if (cs_has(&bases, cells[i])) r.cells[r.ncells++] = cells[i];
                }
                if (rule_apply(E, &r, out) < 0) return -1;
            }
        }
    }
    return 0;
}

/* ---- nested chaining rules --------------------------------------------------------------------- */

static uint64_t fnv(const int32_t *a, int k) {
    uint64_t h = 1469598103934665603ull;
    for (int i = 0; i < k; i++) {
        h ^= (uint32_t)a[i];
        h *= 1099511628211ull;
    }
    return h;
}

/* copy a hint of an inner engine into the store: its numbers, removables, FullChain identity and
 * (graph mode) its graph; the stored index */
static int store_hint(engine_t *E, const hcand_t *h, int outer_classic) {
    store_t *S = E->S;
    const geo_t *G = E->G;
    if (S->nsh == S->shcap) {
        shint_t *p = grown(S->sh, &S->shcap, 64, sizeof *p);
        if (!p) return -1;
        S->sh = p;
    }
    int idx = S->nsh++;
    shint_t s;
    memset(&s, 0, sizeof s);
    s.mode = E->prod, s.kind = h->kind, s.x = h->x, s.y = h->y, s.diff = h->diff, s.cplx = h->cplx, s.sk = h->sk;
    s.place = h->place, s.src_key = h->src_key, s.cell = h->cell, s.region = h->region, s.value = h->value;
    /* removables, as inserted and in SE's HashMap order */
    if (iv_reserve(&S->pool, 2 * h->nrem) < 0) return -1;
    s.rem = S->pool.n, s.nrem = h->nrem;
    memcpy(S->pool.a + S->pool.n, E->hp.a + h->rem, sizeof(int32_t) * (size_t)h->nrem);
    S->pool.n += h->nrem;
    {
        int32_t cells[MAXC];
        int nc = 0, n = G->n;
        for (int i = 0; i < h->nrem; i++) {
            int c = E->hp.a[h->rem + i] / n, dup = 0;
            for (int j = 0; j < nc && !dup; j++) dup = cells[j] == c;
            if (!dup) cells[nc++] = c;
        }
        java_order(cells, nc, outer_classic);
        s.order = S->pool.n, s.nord = 0;
        for (int j = 0; j < nc; j++)
            for (int v = 0; v < n; v++)
                for (int i = 0; i < h->nrem; i++)
                    if (E->hp.a[h->rem + i] == cells[j] * n + v) S->pool.a[S->pool.n + s.nord++] = cells[j] * n + v;
        S->pool.n += s.nord;
    }
    /* FullChain identity */
    ivec anc = {0};
    s.sig = S->pool.n;
    for (int t = 0; t < h->ntg; t++) {
        if (ancestry(E, E->hp.a[h->tg + t], &anc) < 0 || iv_reserve(&S->pool, anc.n + 1) < 0) {
            free(anc.a);
            return -1;
        }
        for (int i = 0; i < anc.n; i++) S->pool.a[S->pool.n++] = E->nd[anc.a[i]].key;
        S->pool.a[S->pool.n++] = -1;
    }
    free(anc.a);
    s.nsig = S->pool.n - s.sig;
    s.hash = fnv(S->pool.a + s.sig, s.nsig);
    /* the graph: objects breadth first from the targets */
    if (S->graph) {
        ivec order = {0};
        for (int t = 0; t < h->ntg; t++) {
            int x = E->hp.a[h->tg + t];
            if (E->nd[x].tmp < 0) {
                E->nd[x].tmp = order.n;
                iv_push(&order, x);
            }
        }
        for (int i = 0; i < order.n; i++) {
            node_t *p = &E->nd[order.a[i]];
            for (int j = 0; j < p->npar; j++) {
                int x = E->pp.a[p->par + j];
                if (E->nd[x].tmp < 0) {
                    E->nd[x].tmp = order.n;
                    if (iv_push(&order, x) < 0) break;
                    p = &E->nd[order.a[i]];
                }
            }
        }
        s.nodes = S->nsn, s.nnodes = order.n;
        for (int i = 0; i < order.n; i++) {
            node_t *p = &E->nd[order.a[i]];
            if (S->nsn == S->sncap) {
                snode_t *q = grown(S->sn, &S->sncap, 1024, sizeof *q);
                if (!q) return -1;
                S->sn = q;
            }
            snode_t *q = &S->sn[S->nsn++];
            q->key = p->key, q->cause = p->cause, q->rule = p->rule, q->npar = p->npar;
            q->par = S->pool.n;
            if (iv_reserve(&S->pool, p->npar) < 0) return -1;
            for (int j = 0; j < p->npar; j++) S->pool.a[S->pool.n++] = E->nd[E->pp.a[p->par + j]].tmp;
        }
        if (iv_reserve(&S->pool, h->ntg) < 0) return -1;
        s.tg = S->pool.n, s.ntg = h->ntg;
        for (int t = 0; t < h->ntg; t++) S->pool.a[S->pool.n++] = E->nd[E->hp.a[h->tg + t]].tmp;
        for (int i = 0; i < order.n; i++) E->nd[order.a[i]].tmp = -1;
        free(order.a);
    }
    S->sh[idx] = s;
    return idx;
}

/* SE's getRuleParents of an inner hint: the keys of "off"s of the enclosing chain (removed from
 * src in g) that its "on"s' cells and houses rely on */
static int inner_rule_parents(engine_t *I, const hcand_t *h, const grid_t *src, const grid_t *g, ivec *out) {
    const geo_t *G = I->G;
    int n = G->n;
    ivec anc = {0};
    out->n = 0;
    uint64_t *seen = calloc((size_t)I->kw, sizeof(uint64_t));
    if (!seen) return -1;
    for (int t = 0; t < h->ntg; t++) {
        if (ancestry(I, I->hp.a[h->tg + t], &anc) < 0) goto fail;
        for (int i = 0; i < anc.n; i++) {
            node_t *p = &I->nd[anc.a[i]];
            int cause = p->cause;
            if (cause == C_INITIAL)
                cause = h->kind == K_CELL ? C_NAKED
                                          : (h->kind == K_REGION ? (h->region >= 2 * n ? C_BLOCK : (h->region < n ? C_ROW : C_COLUMN))
                                                                 : C_INITIAL);
            if (!(p->key & 1) || cause == C_INITIAL) continue;
            int c = KCELL(G, p->key), v = KVAL(G, p->key);
            if (cause == C_NAKED) {
                uint32_t gone = src->cand[c] & ~g->cand[c];
                while (gone) {
                    int b = __builtin_ctz(gone);
                    gone &= gone - 1;
                    int k = KEY(n, c, b + 1, 0);
                    if (!(seen[k >> 6] >> (k & 63) & 1)) {
                        seen[k >> 6] |= (uint64_t)1 << (k & 63);
                        if (iv_push(out, k) < 0) goto fail;
                    }
                }
            } else {
                int hh = G->reg[c][cause - C_BLOCK];
                cellset gone;
                cs_andnot(&gone, &src->pos[v - 1], &g->pos[v - 1], G->nw);
                int16_t cells[MAXN];
                int nc = cells_of(G, &gone, &G->hmask[hh], NULL, -1, cells);
                for (int j = 0; j < nc; j++) {
                    int k = KEY(n, cells[j], v, 0);
                    if (!(seen[k >> 6] >> (k & 63) & 1)) {
                        seen[k >> 6] |= (uint64_t)1 << (k & 63);
                        if (iv_push(out, k) < 0) goto fail;
                    }
                }
            }
        }
    }
    free(anc.a), free(seen);
    return 0;
fail:
    free(anc.a), free(seen);
    return -1;
}

static int chaining_rule(engine_t *E, int which, grid_t *g, const grid_t *src, ivec *out) {
    engine_t *I = E->inner[which];
    if (engine_hints(I, g) < 0) return -1;
    ivec par = {0};
    int n = E->G->n;
    for (int i = 0; i < I->nh; i++) {
        const hcand_t *h = &I->hl[i];
        if (inner_rule_parents(I, h, src, g, &par) < 0) goto fail;
        if (!par.n) continue;
        int si = store_hint(I, h, E->classic);
        if (si < 0) goto fail;
        const shint_t *s = &E->S->sh[si];
        for (int j = 0; j < s->nord; j++) {
            int key = E->S->pool.a[s->order + j] << 1;
            if (iv_push(out, key) < 0 || iv_push(out, REF_HINT(si)) < 0 || iv_push(out, par.n) < 0) goto fail;
            if (iv_reserve(out, par.n) < 0) goto fail;
            for (int k = 0; k < par.n; k++) out->a[out->n++] = par.a[k];
            s = &E->S->sh[si];
        }
    }
    (void)n;
    free(par.a);
    return 0;
fail:
    free(par.a);
    return -1;
}

/* SE's getAdvancedPotentials on the stalled chain: the first rule with a result gives "off"s,
 * queued (new ones only) with their parents */
static int run_rules(engine_t *E, grid_t *g, const grid_t *src, ivec *qoff) {
    ivec found = {0}; /* records: key, rule ref, number of parents, parent keys */
    int rc = 0;
    /* what the chain removed, per house and value (and per house, at 3 n n + h): a rule finds
     * parents only there */
    uint32_t lost[3 * MAXN * MAXN + 3 * MAXN];
    {
        int n = E->G->n;
        for (int h = 0; h < 3 * n; h++) {
            uint32_t any = 0;
            for (int v = 0; v < n; v++) any |= lost[h * n + v] = src->hpos[h * n + v] & ~g->hpos[h * n + v];
            lost[3 * n * n + h] = any;
        }
    }
    for (int r = 0; r < 4 + E->ninner && rc == 0 && !found.n; r++) {
        switch (r) {
        case 0: rc = locking_rules(E, g, src, lost, &found); break;
        case 1: rc = hidden_pairs(E, g, src, lost, &found); break;
        case 2: rc = naked_pairs(E, g, src, lost, &found); break;
        case 3: rc = x_wings(E, g, src, lost, &found); break;
        default: rc = chaining_rule(E, r - 4, g, src, &found); break;
        }
    }
    for (int i = 0; rc == 0 && i < found.n;) {
        int key = found.a[i], ref = found.a[i + 1], np = found.a[i + 2];
        const int32_t *par = found.a + i + 3;
        i += 3 + np;
        if (E->at[key] >= 0) continue;
        int q = new_node(E, key, C_ADVANCED, -1);
        if (q < 0) {
            rc = -1;
            break;
        }
        E->nd[q].rule = ref;
        for (int j = 0; j < np && rc == 0; j++) {
            int pn = E->at[par[j]];
            if (pn < 0) {
                E->S->err = 1;
                rc = -1;
            } else
                rc = add_parent(E, q, pn);
        }
        if (rc == 0 && (chain_insert(E, q) < 0 || iv_push(qoff, q) < 0)) rc = -1;
    }
    free(found.a);
    return rc;
}

/* ---- engine calls ------------------------------------------------------------------------------ */

static void engine_reset(engine_t *E) {
    E->nn = 0, E->pp.n = 0, E->lp.n = 0, E->hp.n = 0, E->nbp = 0, E->nch = 0, E->nh = 0;
    E->has_best = 0, E->order = 0;
    for (int i = 0; i < 2 * E->G->P; i++) E->memo[i] = -1;
}

static int cmp_hc(const void *a, const void *b) {
    const hcand_t *x = a, *y = b;
    return hint_less(x, y) ? -1 : (hint_less(y, x) ? 1 : 0);
}

/* the removables of two hints are the same set */
static int same_removal(const engine_t *E, const hcand_t *a, const hcand_t *b) {
    if (a->nrem != b->nrem) return 0;
    for (int i = 0; i < a->nrem; i++) {
        int found = 0;
        for (int j = 0; j < b->nrem && !found; j++) found = E->hp.a[a->rem + i] == E->hp.a[b->rem + j];
        if (!found) return 0;
    }
    return 1;
}

/* every hint (an inner engine: sorted, removal-equal ones dropped) or the best one */
static int engine_hints(engine_t *E, grid_t *g) {
    engine_reset(E);
    E->g = g;
    int rc;
    if (!E->dynamic && static_tables(E) < 0) return -1;
    if (E->multiple || E->dynamic)
        rc = multiple_hints(E);
    else {
        rc = reach_build(E);
        if (rc == 0) rc = unary_hints(E, 0, 1);
        if (rc == 0) rc = unary_hints(E, 1, 0);
        if (rc == 0) rc = unary_hints(E, 1, 1);
    }
    if (rc < 0) return -1;
    if (E->keep_all && E->nh > 1) {
        qsort(E->hl, (size_t)E->nh, sizeof *E->hl, cmp_hc);
        int k = 0;
        for (int i = 0; i < E->nh; i++) {
            int dup = 0;
            for (int j = 0; j < k && !dup; j++) dup = same_removal(E, &E->hl[i], &E->hl[j]);
            if (!dup) E->hl[k++] = E->hl[i];
        }
        E->nh = k;
    }
    return 0;
}

static engine_t *engine_new(const geo_t *G, store_t *S, int prod, int keep_all) {
    engine_t *E = calloc(1, sizeof *E);
    if (!E) return NULL;
    E->G = G, E->S = S, E->prod = prod, E->keep_all = keep_all;
    E->multiple = PROD[prod][0], E->dynamic = PROD[prod][1], E->nishio = PROD[prod][2];
    E->level = PROD[prod][3], E->classic = PROD[prod][4];
    E->kw = (2 * G->P + 63) / 64;
    E->memo = malloc(sizeof(int32_t) * (size_t)(2 * G->P));
    E->at = malloc(sizeof(int32_t) * (size_t)(2 * G->P));
    E->vis = calloc((size_t)E->kw, sizeof(uint64_t));
    if (!E->memo || !E->at || !E->vis) {
        engine_free(E);
        return NULL;
    }
    for (int i = 0; i < 2 * G->P; i++) E->at[i] = -1;
    for (int i = 0; i < 2 && PROD[prod][5 + i] >= 0; i++) {
        E->inner[i] = engine_new(G, S, PROD[prod][5 + i], 1);
        if (!E->inner[i]) {
            engine_free(E);
            return NULL;
        }
        E->ninner++;
    }
    return E;
}

static void engine_free(engine_t *E) {
    if (!E) return;
    for (int i = 0; i < E->ninner; i++) engine_free(E->inner[i]);
    free(E->nd), free(E->pp.a), free(E->lp.a), free(E->hp.a), free(E->bp), free(E->ch);
    free(E->memo), free(E->at), free(E->vis), free(E->imp_at), free(E->imp_ncell), free(E->imp.a);
    free(E->kidx), free(E->r_key), free(E->r_num), free(E->r_low), free(E->r_stk), free(E->r_cs), free(E->r_ca);
    free(E->r_comp), free(E->r_stamp), free(E->r_rows);
    free(E->r_at), free(E->impv.a), free(E->saved);
    free(E->r_sink), free(E->r_single);
    free(E->q1.a), free(E->q2.a), free(E->tmp1.a), free(E->tmp2.a), free(E->tmp3.a), free(E->hl), free(E->anc);
    free(E);
}

/* ---- export ---------------------------------------------------------------------------------------- */

static PyObject *pairs_py(int n, const int32_t *cands, int k) {
    PyObject *t = PyTuple_New(k);
    for (int i = 0; t && i < k; i++) {
        PyObject *p = Py_BuildValue("(ii)", cands[i] / n, cands[i] % n + 1);
        if (!p) Py_CLEAR(t);
        else PyTuple_SET_ITEM(t, i, p);
    }
    return t;
}

static PyObject *export_stored(const store_t *S, int idx);

static PyObject *export_rule(const store_t *S, int ref) {
    int n = S->G->n;
    if (ref < 0) Py_RETURN_NONE;
    if ((ref & 3) == 1) return export_stored(S, ref >> 2);
    if ((ref & 3) != 2) Py_RETURN_NONE;
    const srule_t *r = &S->sr[ref >> 2];
    PyObject *vals = r->values[1] ? Py_BuildValue("(ii)", r->values[0], r->values[1]) : Py_BuildValue("(i)", r->values[0]);
    PyObject *houses = ints_to_py(r->houses, r->nh, 1);
    PyObject *cells = ints_to_py(S->pool.a + r->cells, r->ncells, 1);
    PyObject *rem = pairs_py(n, S->pool.a + r->rem, r->nrem);
    PyObject *par = ints_to_py(S->pool.a + r->par, r->npar, 1);
    if (!vals || !houses || !cells || !rem || !par) {
        Py_XDECREF(vals), Py_XDECREF(houses), Py_XDECREF(cells), Py_XDECREF(rem), Py_XDECREF(par);
        return NULL;
    }
    return Py_BuildValue("(siNNNNN)", RULE_NAMES[r->name], r->value, vals, houses, cells, rem, par);
}

static PyObject *source_py(const geo_t *G, int key) {
    if (key < 0) Py_RETURN_NONE;
    return Py_BuildValue("(iii)", KCELL(G, key), KVAL(G, key), key & 1);
}

static PyObject *place_py(int n, int place) {
    if (place < 0) Py_RETURN_NONE;
    return Py_BuildValue("(ii)", place / n, place % n + 1);
}

static PyObject *hint_tuple(const geo_t *G, int mode, int kind, double diff, int cplx, int sk, PyObject *rem, int place,
                            int x, int y, int src_key, int cell, int region, int value, PyObject *nodes,
                            PyObject *targets) {
    if (!rem || !nodes || !targets) {
        Py_XDECREF(rem), Py_XDECREF(nodes), Py_XDECREF(targets);
        return NULL;
    }
    return Py_BuildValue("(isdiiNNiiNiiiNN)", mode, KIND_NAMES[kind], diff, cplx, sk, rem, place_py(G->n, place), x, y,
                         source_py(G, src_key), cell, region, value, nodes, targets);
}

static PyObject *export_stored(const store_t *S, int idx) {
    const shint_t *h = &S->sh[idx];
    const geo_t *G = S->G;
    int n = G->n;
    PyObject *nodes = PyTuple_New(h->nnodes);
    for (int i = 0; nodes && i < h->nnodes; i++) {
        const snode_t *p = &S->sn[h->nodes + i];
        PyObject *par = ints_to_py(S->pool.a + p->par, p->npar, 1);
        PyObject *rule = par ? export_rule(S, p->rule) : NULL;
        PyObject *t = rule ? Py_BuildValue("(iiiiNN)", KCELL(G, p->key), KVAL(G, p->key), p->key & 1, p->cause, par,
                                           rule)
                           : NULL;
        if (!t) {
            Py_XDECREF(par);
            Py_CLEAR(nodes);
        } else
            PyTuple_SET_ITEM(nodes, i, t);
    }
    return hint_tuple(G, h->mode, h->kind, h->diff, h->cplx, h->sk, pairs_py(n, S->pool.a + h->rem, h->nrem),
                      h->place, h->x, h->y, h->src_key, h->cell, h->region, h->value, nodes,
                      ints_to_py(S->pool.a + h->tg, h->ntg, 1));
}

static PyObject *export_best(engine_t *E) {
    /* the best hint of the top engine: stored like a nested one, then exported */
    int idx = store_hint(E, &E->best, E->classic);
    if (idx < 0) return PyErr_NoMemory();
    return export_stored(E->S, idx);
}

/* ---- Python entry point ---------------------------------------------------------------------------- */

static void store_free(store_t *S) { free(S->pool.a), free(S->sn), free(S->sh), free(S->sr); }

static PyObject *py_first_hint(PyObject *self, PyObject *args) {
    (void)self;
    int n, prod, graph;
    PyObject *vals_o, *cand_o;
    if (!PyArg_ParseTuple(args, "iOOip", &n, &vals_o, &cand_o, &prod, &graph)) return NULL;
    if (prod < 0 || prod >= NPROD) return PyErr_Format(PyExc_ValueError, "no producer %d", prod);
    const geo_t *G = geo_of(n);
    if (!G) return NULL;
    const uint8_t *vals;
    const uint32_t *cand;
    view_t views[] = {VIEW(vals_o, 1, G->N, VIEW_IN, "values", &vals), VIEW(cand_o, 4, G->N, VIEW_IN, "cand", &cand)};
    if (views_get(views, COUNT(views)) < 0) return NULL;
    grid_t *g = calloc(1, sizeof *g);
    store_t S;
    memset(&S, 0, sizeof S);
    S.G = G, S.graph = graph;
    engine_t *E = g ? engine_new(G, &S, prod, 0) : NULL;
    PyObject *out = NULL;
    if (!g || !E) {
        PyErr_NoMemory();
        goto done;
    }
    for (int c = 0; c < G->N; c++) {
        g->val[c] = vals[c];
        g->cand[c] = vals[c] ? 0 : cand[c];
        for (uint32_t m = g->cand[c]; m; m &= m - 1) {
            int b = __builtin_ctz(m);
            cs_add(&g->pos[b], c);
            for (int t = 0; t < 3; t++) g->hpos[G->reg[c][t] * n + b] |= 1u << G->at[c][t];
        }
    }
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = engine_hints(E, g);
    Py_END_ALLOW_THREADS
    if (rc < 0) {
        if (S.err) PyErr_SetString(PyExc_RuntimeError, "se chaining: a parent potential is missing");
        else PyErr_NoMemory();
        goto done;
    }
    if (!E->has_best) {
        out = Py_None;
        Py_INCREF(out);
        goto done;
    }
    if (graph)
        out = export_best(E);
    else {
        hcand_t *h = &E->best;
        out = hint_tuple(G, prod, h->kind, h->diff, h->cplx, h->sk, pairs_py(n, E->hp.a + h->rem, h->nrem), h->place,
                         h->x, h->y, h->src_key, h->cell, h->region, h->value, PyTuple_New(0), PyTuple_New(0));
    }
done:
    engine_free(E);
    store_free(&S);
    free(g);
    views_release(views, COUNT(views));
    return out;
}

static PyMethodDef methods[] = {
    {"first_hint", py_first_hint, METH_VARARGS,
     "first_hint(n, values, cand, producer, graph): SE's first hint of a chaining producer, or None."},
    {NULL, NULL, 0, NULL},
};

CORE_MODULE("_sechain", "Sudoku Explainer's chaining engine (compiled).");

PyMODINIT_FUNC PyInit__sechain(void) { return PyModule_Create(&module); }
