/* APR's shortest-path search (A* on node costs, apr_internal.h, on one phase's copy of the torus). */
#include <stdlib.h>
#include <string.h>

#include "apr_internal.h"

/* The search's heap, in a local of the search (search_t). */
typedef struct heap {
    uint64_t *e; /* key << 16 | cell (keys stay below 2^48) */
    unsigned n;
} heap_t;

static inline void heap_push(heap_t *h, uint64_t key, unsigned cell)
{
    uint64_t e = key << 16 | cell, *v = h->e;
    unsigned i = h->n++;
    while (i > 0 && v[(i - 1) / 2] > e) {
        v[i] = v[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    v[i] = e;
}

/* Bottom-up: the hole at the top goes down to a leaf by the lesser child, one test a level, then the last entry
 * goes up from there (most often not at all: it came from the bottom). Keys are distinct (a cell is pushed again
 * only with a lower key), so any heap pops the same sequence. */
static inline uint64_t heap_pop(heap_t *h)
{
    uint64_t *v = h->e;
    unsigned n = --h->n;
    uint64_t top = v[0], last = v[n];
    v[n] = UINT64_MAX; /* a last child of its own: no test for the right child being there */
    unsigned i = 0;
    for (unsigned l = 1; l < n; l = 2 * i + 1) {
        unsigned m = v[l + 1] < v[l] ? l + 1 : l;
        v[i] = v[m];
        i = m;
    }
    while (i > 0 && v[(i - 1) / 2] > last) {
        v[i] = v[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    v[i] = last;
    return top;
}

static void take_path(apr_t *a, unsigned src, unsigned dst)
{
    unsigned len = 1;
    for (unsigned v = dst; v != src; v = a->from[v] / TORUS_DIRS)
        len++;
    a->cand.len = len;
    unsigned k = len - 1;
    for (unsigned v = dst;; v = a->from[v] / TORUS_DIRS, k--) {
        a->cand.path[k] = (uint16_t)v;
        if (v == src)
            break;
        a->cand.dirs[k - 1] = (uint8_t)(a->from[v] % TORUS_DIRS);
    }
}

/* The hops from every cell to dst, for the heuristic. */
static const uint8_t *hops_to(apr_t *a, unsigned dst)
{
    uint8_t *hops = a->hops + (size_t)dst * a->t.n;
    if (!a->hops_built[dst]) {
        const torus_t *t = &a->t;
        unsigned xd = a->cx[dst], yd = a->cy[dst];
        for (unsigned x = 0; x < t->w; x++)
            a->hx[x] = (uint8_t)torus_ring(x, xd, t->w);
        uint8_t *row = hops;
        for (unsigned y = 0; y < t->h; y++, row += t->w) {
            unsigned hy = torus_ring(y, yd, t->h);
            for (unsigned x = 0; x < t->w; x++)
                row[x] = (uint8_t)(a->hx[x] + hy);
        }
        a->hops_built[dst] = true;
    }
    return hops;
}

/* The heuristic of the search for the cost alone by hops still to go, into a->hcost: unit a hop, every cell of
 * phase p costing at least unit, and what is known of the end too: the destination costs cd, and the cell before
 * it, one of its neighbours, at least the cheapest of them. It never overestimates, and is consistent: a hop to a
 * cell v costs at least v's cost, and the heuristic falls by at most unit a hop until the destination's
 * neighbours (v costs the cheapest of them at least) and the destination (cd). The search for the path has
 * a->hpath, APR_SCALE a hop (the least any cell costs), built once. */
static void set_heuristic(apr_t *a, unsigned p, unsigned dst, uint64_t unit)
{
    unsigned most = a->t.w / 2 + a->t.h / 2; /* at least 1: a search has src != dst */
    uint64_t *hcost = a->hcost;
    const uint64_t *cost = a->cost + (size_t)p * a->t.n;
    const unsigned *nb = a->nb + (size_t)dst * TORUS_DIRS;
    uint64_t last = APR_FULL;
    for (unsigned d = a->dir_lo; d < a->dir_hi; d++)
        last = cost[nb[d]] < last ? cost[nb[d]] : last;
    hcost[0] = 0;
    hcost[1] = cost[dst];
    if (most >= 2)
        hcost[2] = hcost[1] + last;
    for (unsigned k = 3; k <= most; k++)
        hcost[k] = hcost[k - 1] + unit;
}

/* One search's state, in locals: fields read through a would be read again after every store the search makes.
 * g[v] is the least cost found to v, APR_INF before v is reached and 0 once it is closed (popped for good): any
 * path costs at least its source's cost, above 0, so 0 also fails every test of a cheaper way to v. */
typedef struct search {
    const uint64_t *cost, *hcost;
    const uint32_t *lcost;
    const uint8_t *hops;
    const unsigned *nb;
    uint64_t bound, *g;
    uint32_t *from;
    heap_t h;
} search_t;

/* The step from u (reached at gu) along its link l, in direction l % TORUS_DIRS. A cell reached at f >= bound is
 * not recorded. Keys pop in order (the heuristic is consistent), so the search would stop on popping it with
 * nothing cheaper left: without it, the heap runs out at the same point instead. A cheaper way to it later is
 * recorded all the same, as it beats anything not recorded. The same cells pop in the same order, for the same
 * path and cost. A full cell costs APR_FULL, at least the bound. */
static inline void relax(search_t *s, uint64_t gu, size_t l)
{
    unsigned v = s->nb[l];
    uint64_t gold = s->g[v];
    if (gold == 0)
        return; /* closed: the test below fails too, this only skips the sums */
    uint64_t gv = gu + s->cost[v] + s->lcost[l], f = gv + s->hcost[s->hops[v]];
    if (f < s->bound && gv < gold) {
        s->g[v] = gv;
        s->from[v] = (uint32_t)l;
        heap_push(&s->h, f, v);
    }
}

/* A* from c's source (its cost cs, below bound) to its destination on phase p, with the heuristic hcost by hops
 * still to go. Returns the cheapest path's cost when below bound, with the path in a->cand, or APR_INF. Which of
 * the cheapest paths it finds depends on the heuristic, its cost does not. */
static uint64_t astar(apr_t *a, unsigned p, const apr_conn_t *c, uint64_t bound, uint64_t cs, const uint64_t *hcost)
{
    const uint8_t *hops = hops_to(a, c->dst);
    if (cs + hcost[hops[c->src]] >= bound)
        return APR_INF; /* also keeps every key pushed below APR_FULL, 2^48 */
    const size_t base = (size_t)p * a->t.n;
    search_t s = {a->cost + base, hcost, a->lcost + base * TORUS_DIRS, hops, a->nb, bound, a->g,
                  a->from, {a->heap, 1}};
    /* A torus with both sides above 1 has every direction: with them fixed, no loop over them. */
    const bool every = a->dir_lo == 0 && a->dir_hi == TORUS_DIRS;
    const unsigned lo = a->dir_lo, hi = a->dir_hi, dst = c->dst;
    s.h.e[0] = (cs + hcost[hops[c->src]]) << 16 | c->src; /* not heap_push: called once, it is inlined */
    memset(s.g, 0xff, sizeof *s.g * a->t.n); /* APR_INF: not reached yet */
    s.g[c->src] = cs;
    while (s.h.n > 0) {
        unsigned u = (unsigned)(heap_pop(&s.h) & 0xffff);
        const uint64_t gu = s.g[u];
        if (gu == 0)
            continue; /* a cheaper entry of u came first */
        if (u == dst) {
            take_path(a, c->src, dst);
            return gu;
        }
        s.g[u] = 0;
        size_t l = (size_t)u * TORUS_DIRS;
        if (every) {
            relax(&s, gu, l);
            relax(&s, gu, l + 1);
            relax(&s, gu, l + 2);
            relax(&s, gu, l + 3);
        } else {
            for (unsigned d = lo; d < hi; d++)
                relax(&s, gu, l + d);
        }
    }
    return APR_INF;
}

uint64_t apr_search(apr_t *a, unsigned p, const apr_conn_t *c, uint64_t bound, uint64_t unit)
{
    a->stats.searches++;
    uint64_t cs = apr_node_cost(a, p, c->src);
    if (cs >= bound)
        return APR_INF;
    if (c->src == c->dst) {
        a->cand.path[0] = (uint16_t)c->src;
        a->cand.len = 1;
        return cs;
    }
    if (unit != 0)
        set_heuristic(a, p, c->dst, unit);
    return astar(a, p, c, bound < APR_FULL ? bound : APR_FULL, cs, unit != 0 ? a->hcost : a->hpath);
}
