/* APR's timeline costs and its shortest-path search (A* on node costs, apr_internal.h, on one phase's copy of the
 * torus). */
#include <stdlib.h>
#include <string.h>

#include "apr_internal.h"

/* One timeline: below the budget a small pull towards the less loaded phases; above it, like a channel over
 * capacity, a price per longest-connection's worth of clocks over, rising with the rounds and the history. */
static uint64_t timeline_cost(const apr_t *a, uint64_t budget, uint64_t load, uint64_t d, uint32_t hist)
{
    uint64_t after = load + d;
    if (after <= budget)
        return APR_TIME_BAL * after / budget;
    uint64_t over = ((after - budget) * APR_SCALE + a->dref - 1) / a->dref;
    uint64_t cost = (APR_SCALE + APR_TIME_BAL + (uint64_t)hist) * (APR_SCALE + a->tpres * over / APR_SCALE) / APR_SCALE;
    return cost < APR_NODE_COST_MAX ? cost : APR_NODE_COST_MAX;
}

uint64_t apr_time_cost(const apr_t *a, unsigned p, const apr_conn_t *c)
{
    uint64_t budget = a->budget[p];
    if (budget == 0)
        return 0;
    size_t base = (size_t)p * a->t.n;
    return timeline_cost(a, budget, a->sload[base + c->src], c->dur, a->shist[base + c->src]) +
           timeline_cost(a, budget, a->rload[base + c->dst], c->dur, a->rhist[base + c->dst]);
}

static void heap_push(apr_t *a, uint64_t key, unsigned cell)
{
    uint64_t e = key << 16 | cell;
    unsigned i = a->heap_n++;
    while (i > 0 && a->heap[(i - 1) / 2] > e) {
        a->heap[i] = a->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    a->heap[i] = e;
}

static uint64_t heap_pop(apr_t *a)
{
    uint64_t top = a->heap[0], last = a->heap[--a->heap_n];
    a->heap[a->heap_n] = UINT64_MAX; /* a last child of its own: no test for the right child being there */
    unsigned i = 0;
    for (;;) {
        unsigned l = 2 * i + 1;
        if (l >= a->heap_n)
            break;
        unsigned m = a->heap[l + 1] < a->heap[l] ? l + 1 : l;
        if (a->heap[m] >= last)
            break;
        a->heap[i] = a->heap[m];
        i = m;
    }
    a->heap[i] = last;
    return top;
}

static void take_path(apr_t *a, unsigned src, unsigned dst)
{
    unsigned len = 1;
    for (unsigned v = dst; v != src; v = a->prev[v])
        len++;
    a->cand.len = len;
    unsigned k = len - 1;
    for (unsigned v = dst;; v = a->prev[v], k--) {
        a->cand.path[k] = (uint16_t)v;
        if (v == src)
            break;
        a->cand.dirs[k - 1] = a->pdir[v];
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

/* The heuristic by hops still to go, into a->hcost. For the path (unit 0): APR_SCALE a hop, the least any cell
 * costs. For the cost alone: unit a hop, every cell of phase p costing at least unit, and what is known of the
 * end too: the destination costs cd, and the cell before it, one of its neighbours, at least the cheapest of
 * them. Either never overestimates, and is consistent: a hop to a cell v costs at least v's cost, and the
 * heuristic falls by at most unit a hop until the destination's neighbours (v costs the cheapest of them at
 * least) and the destination (cd). */
static void set_heuristic(apr_t *a, unsigned p, unsigned dst, uint64_t unit)
{
    unsigned most = a->t.w / 2 + a->t.h / 2;
    uint64_t *hcost = a->hcost;
    bool path = unit == 0;
    unit = path ? APR_SCALE : unit;
    for (unsigned k = 0; k <= most; k++)
        hcost[k] = k * unit;
    if (path)
        return;
    const uint64_t *cost = a->cost + (size_t)p * a->t.n;
    const unsigned *nb = a->nb + (size_t)dst * TORUS_DIRS;
    uint64_t cd = cost[dst], last = APR_FULL;
    for (unsigned d = a->dir_lo; d < a->dir_hi; d++)
        last = cost[nb[d]] < last ? cost[nb[d]] : last;
    for (unsigned k = 1; k <= most; k++)
        hcost[k] += cd - unit + (k > 1 ? last - unit : 0);
}

/* A* from c's source (its cost cs, below bound) to its destination on phase p, with the heuristic a->hcost by
 * hops still to go (set_heuristic). Returns the cheapest path's cost when below bound, with the path in a->cand,
 * or APR_INF. Which of the cheapest paths it finds depends on the heuristic, its cost does not. */
static uint64_t astar(apr_t *a, unsigned p, const apr_conn_t *c, uint64_t bound, uint64_t cs)
{
    const uint8_t *hops = hops_to(a, c->dst);
    const uint64_t *hcost = a->hcost;
    if (cs + hcost[hops[c->src]] >= bound)
        return APR_INF; /* also keeps every key pushed below APR_FULL, 2^48 */
    /* The search stamps rather than clears its arrays; restart the stamps before they wrap. */
    if (++a->gen == 0) {
        for (unsigned v = 0; v < a->t.n; v++)
            a->closed[v] = 0;
        a->gen = 1;
    }
    const uint32_t gen = a->gen;
    const size_t base = (size_t)p * a->t.n;
    const uint64_t *cost = a->cost + base;
    a->heap[0] = (cs + hcost[hops[c->src]]) << 16 | c->src; /* not heap_push: called once, it is inlined */
    a->heap_n = 1;
    memset(a->g, 0xff, sizeof *a->g * a->t.n); /* APR_INF: not reached yet */
    a->g[c->src] = cs;
    while (a->heap_n > 0) {
        uint64_t e = heap_pop(a);
        unsigned u = (unsigned)(e & 0xffff);
        if (a->closed[u] == gen)
            continue;
        a->closed[u] = gen;
        if (u == c->dst) {
            take_path(a, c->src, c->dst);
            return a->g[u];
        }
        const unsigned *nb = a->nb + (size_t)u * TORUS_DIRS;
        const uint16_t *links = a->luse + (base + u) * TORUS_DIRS;
        const uint64_t gu = a->g[u];
        for (unsigned d = a->dir_lo; d < a->dir_hi; d++) {
            unsigned v = nb[d];
            if (a->closed[v] == gen)
                continue;
            /* A cell reached at f >= bound is not recorded. Keys pop in order (the heuristic is consistent), so
             * the search would stop on popping it with nothing cheaper left: without it, the heap runs out at the
             * same point instead. A cheaper way to it later is recorded all the same, as it beats anything not
             * recorded. The same cells pop in the same order, for the same path and cost. A full cell costs
             * APR_FULL, at least the bound. */
            uint64_t gv = gu + cost[v] + (uint64_t)a->link_cost * links[d], f = gv + hcost[hops[v]];
            if (f < bound && gv < a->g[v]) {
                a->g[v] = gv;
                a->prev[v] = (uint16_t)u;
                a->pdir[v] = (uint8_t)d;
                heap_push(a, f, v);
            }
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
    set_heuristic(a, p, c->dst, unit);
    return astar(a, p, c, bound < APR_FULL ? bound : APR_FULL, cs);
}
