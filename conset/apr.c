/* APR's set-up and driver: the routing order, the sequential pass, phase removal, balancing, tightening; or the
 * ConSet paper's steps alone (apr.h). */
#include <stdlib.h>
#include <string.h>

#include "apr_internal.h"

/* Sorted by the routing order's key: longest first (fewest choices, and they make room for the short), then
 * most words, then file order. */
static int order_cmp(const void *x, const void *y, void *ctx)
{
    const apr_t *a = ctx;
    const apr_conn_t *c = &a->c[*(const unsigned *)x], *d = &a->c[*(const unsigned *)y];
    if (c->dist != d->dist)
        return c->dist > d->dist ? -1 : 1;
    if (c->words != d->words)
        return c->words > d->words ? -1 : 1;
    return *(const unsigned *)x < *(const unsigned *)y ? -1 : 1;
}

static int cmp_ctx_sort(unsigned *v, unsigned n, const apr_t *a)
{
    /* A merge sort with a context (qsort_r is not in C17). */
    if (n < 2)
        return 0;
    unsigned *tmp = malloc(sizeof *tmp * n);
    if (tmp == NULL)
        return -1;
    for (unsigned width = 1; width < n; width *= 2) {
        for (unsigned lo = 0; lo < n; lo += 2 * width) {
            unsigned mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
            unsigned i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                tmp[k++] = order_cmp(&v[j], &v[i], (void *)a) < 0 ? v[j++] : v[i++];
            while (i < mid)
                tmp[k++] = v[i++];
            while (j < hi)
                tmp[k++] = v[j++];
        }
        memcpy(v, tmp, sizeof *v * n);
    }
    free(tmp);
    return 0;
}

/* A binary min-heap of ranks. */
static void rank_push(unsigned *h, unsigned *n, unsigned r)
{
    unsigned i = (*n)++;
    while (i > 0 && h[(i - 1) / 2] > r) {
        h[i] = h[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h[i] = r;
}

static unsigned rank_pop(unsigned *h, unsigned *n)
{
    unsigned top = h[0], last = h[--*n], i = 0;
    for (;;) {
        unsigned l = 2 * i + 1, m = l;
        if (l >= *n)
            break;
        if (l + 1 < *n && h[l + 1] < h[l])
            m = l + 1;
        if (h[m] >= last)
            break;
        h[i] = h[m];
        i = m;
    }
    h[i] = last;
    return top;
}

/* The routing order: a topological order of the ordering constraints, taking the first by the key among
 * the connections whose predecessors are all placed. */
static int make_order(apr_t *a)
{
    for (unsigned i = 0; i < a->n; i++)
        a->order[i] = i;
    if (cmp_ctx_sort(a->order, a->n, a) != 0)
        return -1;
    if (a->pred_start == NULL)
        return 0;
    /* byrank[r] is the connection of rank r; the heap holds the ranks of those ready to go. */
    unsigned *indeg = calloc(a->n + 1u, sizeof *indeg), *heap = malloc(sizeof *heap * (a->n + 1u)),
             *byrank = malloc(sizeof *byrank * (a->n + 1u)), *rank = malloc(sizeof *rank * (a->n + 1u));
    int rc = -1;
    if (indeg == NULL || heap == NULL || byrank == NULL || rank == NULL)
        goto out;
    memcpy(byrank, a->order, sizeof *byrank * a->n);
    for (unsigned r = 0; r < a->n; r++)
        rank[byrank[r]] = r;
    unsigned nready = 0, done = 0;
    for (unsigned i = 0; i < a->n; i++) {
        indeg[i] = a->pred_start[i + 1] - a->pred_start[i];
        if (indeg[i] == 0)
            rank_push(heap, &nready, rank[i]);
    }
    while (nready > 0) {
        unsigned u = byrank[rank_pop(heap, &nready)];
        a->order[done++] = u;
        for (unsigned k = a->succ_start[u]; k < a->succ_start[u + 1]; k++)
            if (--indeg[a->succ[k]] == 0)
                rank_push(heap, &nready, rank[a->succ[k]]);
    }
    rc = done == a->n ? 0 : -1; /* a cycle: the parser rejects them */
out:
    free(indeg);
    free(heap);
    free(byrank);
    free(rank);
    return rc;
}

static int copy_constraints(apr_t *a, const apr_input_t *in)
{
    if (in->after_start == NULL || in->after_start[a->n] == 0)
        return 0;
    unsigned m = in->after_start[a->n];
    a->pred_start = malloc(sizeof *a->pred_start * (a->n + 1u));
    a->pred = malloc(sizeof *a->pred * m);
    a->succ_start = calloc(a->n + 1u, sizeof *a->succ_start);
    a->succ = malloc(sizeof *a->succ * m);
    unsigned *fill = calloc(a->n + 1u, sizeof *fill);
    if (a->pred_start == NULL || a->pred == NULL || a->succ_start == NULL || a->succ == NULL || fill == NULL) {
        free(fill);
        return -1;
    }
    memcpy(a->pred_start, in->after_start, sizeof *a->pred_start * (a->n + 1u));
    memcpy(a->pred, in->after, sizeof *a->pred * m);
    for (unsigned k = 0; k < m; k++)
        a->succ_start[in->after[k] + 1]++;
    for (unsigned i = 0; i < a->n; i++)
        a->succ_start[i + 1] += a->succ_start[i];
    for (unsigned i = 0; i < a->n; i++)
        for (unsigned k = in->after_start[i]; k < in->after_start[i + 1]; k++) {
            unsigned e = in->after[k];
            a->succ[a->succ_start[e] + fill[e]++] = i;
        }
    free(fill);
    return 0;
}

/* Phases at least needed: every connection takes one channel per cell of a shortest path at best, and a
 * cell holds at most `capacity` connection ends (a connection to itself is one). */
static unsigned lower_bound(const apr_t *a)
{
    uint64_t uses = 0;
    unsigned *ends = calloc(a->t.n, sizeof *ends), worst = 0;
    for (unsigned i = 0; i < a->n; i++) {
        uses += a->c[i].dist + 1u;
        if (ends != NULL) {
            ends[a->c[i].src]++;
            if (a->c[i].dst != a->c[i].src)
                ends[a->c[i].dst]++;
        }
    }
    for (unsigned v = 0; ends != NULL && v < a->t.n; v++)
        if (ends[v] > worst)
            worst = ends[v];
    free(ends);
    uint64_t room = (uint64_t)a->t.n * a->cap;
    unsigned lb = (unsigned)((uses + room - 1) / room), by_ends = (worst + a->cap - 1) / a->cap;
    return lb > by_ends ? lb : by_ends;
}

void apr_free(apr_t *a)
{
    if (a == NULL)
        return;
    for (unsigned i = 0; i < a->n; i++) {
        free(a->c[i].path);
        free(a->c[i].dirs);
    }
    free(a->c);
    free(a->order);
    free(a->pred_start);
    free(a->pred);
    free(a->succ_start);
    free(a->succ);
    free(a->use);
    free(a->hist);
    free(a->cost);
    free(a->cheapest);
    free(a->crowded);
    free(a->lcost);
    free(a->sload);
    free(a->rload);
    free(a->shist);
    free(a->rhist);
    free(a->budget);
    free(a->try);
    free(a->try_lb);
    free(a->try_tc);
    free(a->send_total);
    free(a->recv_total);
    free(a->nb);
    free(a->cx);
    free(a->cy);
    free(a->hops);
    free(a->hops_built);
    free(a->hx);
    free(a->hcost);
    free(a->hpath);
    free(a->g);
    free(a->from);
    free(a->heap);
    free(a->cand.path);
    free(a->cand.dirs);
    free(a->best.path);
    free(a->best.dirs);
    free(a->stack);
    free(a->mark);
    free(a);
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
    while (b != 0) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static apr_t *create(const apr_input_t *in)
{
    apr_t *a = calloc(1, sizeof *a);
    if (a == NULL)
        return NULL;
    a->t = in->torus;
    a->cap = in->capacity;
    for (uint64_t u = 0; u < APR_BALANCE_TABLE; u++)
        a->balance[u] = apr_balance_term(u, a->cap);
    a->iterations = in->iterations;
    a->paper = in->paper;
    a->link_cost = in->paper ? 0 : APR_LINK;
    a->rng = in->seed;
    a->n = in->nconns;
    size_t cells = a->t.n, edges = in->after_start ? in->after_start[a->n] : 0;
    a->c = calloc(a->n + 1u, sizeof *a->c);
    a->order = malloc(sizeof *a->order * (a->n + 1u));
    a->g = malloc(sizeof *a->g * cells);
    a->from = malloc(sizeof *a->from * cells);
    /* a search pushes its source, then at most one entry per direction of each cell it closes (once) */
    a->heap = malloc(sizeof *a->heap * (TORUS_DIRS * cells + 2));
    a->cand.path = malloc(sizeof *a->cand.path * cells);
    a->cand.dirs = malloc(cells);
    a->best.path = malloc(sizeof *a->best.path * cells);
    a->best.dirs = malloc(cells);
    a->stack = malloc(sizeof *a->stack * (edges + 1));
    a->mark = calloc(a->n + 1u, sizeof *a->mark);
    a->send_total = calloc(cells, sizeof *a->send_total);
    a->recv_total = calloc(cells, sizeof *a->recv_total);
    a->nb = malloc(sizeof *a->nb * cells * TORUS_DIRS);
    a->cx = malloc(sizeof *a->cx * cells);
    a->cy = malloc(sizeof *a->cy * cells);
    a->hops = malloc(cells * cells);
    a->hops_built = calloc(cells, sizeof *a->hops_built);
    a->hx = malloc(a->t.w);
    unsigned most = a->t.w / 2 + a->t.h / 2; /* hops */
    a->hcost = malloc(sizeof *a->hcost * (most + 1));
    a->hpath = malloc(sizeof *a->hpath * (most + 1));
    if (a->c == NULL || a->order == NULL || a->g == NULL || a->from == NULL || a->heap == NULL || a->cand.path == NULL || a->cand.dirs == NULL || a->best.path == NULL ||
        a->best.dirs == NULL || a->stack == NULL || a->mark == NULL || a->send_total == NULL || a->recv_total == NULL ||
        a->nb == NULL || a->cx == NULL || a->cy == NULL || a->hops == NULL || a->hops_built == NULL || a->hx == NULL ||
        a->hcost == NULL || a->hpath == NULL ||
        copy_constraints(a, in) != 0) {
        apr_free(a);
        return NULL;
    }
    for (unsigned k = 0; k <= most; k++)
        a->hpath[k] = k * APR_SCALE;
    a->dir_lo = torus_has_link(&a->t, 0) ? 0 : 2;
    a->dir_hi = torus_has_link(&a->t, 2) ? TORUS_DIRS : 2;
    for (unsigned v = 0; v < cells; v++) {
        a->cx[v] = (uint16_t)(v % a->t.w);
        a->cy[v] = (uint16_t)(v / a->t.w);
        for (unsigned d = 0; d < TORUS_DIRS; d++)
            a->nb[v * TORUS_DIRS + d] = torus_has_link(&a->t, d) ? torus_neighbour(&a->t, v, d) : APR_NONE;
    }
    /* Schedule clocks are counted in units of the greatest common divisor of the connections' words, so that
     * scaling every connection's words by the same factor changes no decision: the same routes and phases. */
    uint64_t unit = 0;
    for (unsigned i = 0; i < a->n; i++)
        unit = gcd(unit, in->words[i]);
    for (unsigned i = 0; i < a->n; i++) {
        apr_conn_t *c = &a->c[i];
        c->src = in->src[i];
        c->dst = in->dst[i];
        c->words = in->words[i];
        c->dur = c->words / unit;
        c->dist = torus_distance(&a->t, c->src, c->dst);
        c->phase = APR_NONE;
        a->send_total[c->src] += c->dur;
        a->recv_total[c->dst] += c->dur;
        if (c->dur > a->dref)
            a->dref = c->dur;
    }
    if (make_order(a) != 0) {
        apr_free(a);
        return NULL;
    }
    return a;
}

/* The phase with the fewest channel uses (the last of equals): the cheapest to spread over the others. */
static unsigned emptiest_phase(const apr_t *a)
{
    unsigned q = 0;
    uint64_t least = UINT64_MAX;
    for (unsigned p = 0; p < a->nphases; p++) {
        uint64_t sum = 0;
        for (unsigned v = 0; v < a->t.n; v++)
            sum += a->use[(size_t)p * a->t.n + v];
        if (sum <= least) {
            least = sum;
            q = p;
        }
    }
    return q;
}

/* The ConSet paper's APR, section 4.4.1: "1 order connections, 2 initialize node costs to 1, 3 for route (i,a)
 * find shortest path, update node costs, 4 repeat k times: ripup and reroute", generalized to phases as it says
 * ("each phase with a copy of the graph, searching for a shortest path in all copies of the graph, and then
 * selecting the shortest one which obeys the partial ordering constraints"): apr_route_one with the paper's
 * node costs and no schedule budget, so a new copy opens only when no copy has room. */
static int run_paper(apr_t *a, unsigned *list)
{
    for (unsigned k = 0; k < a->n; k++)
        if (apr_route_one(a, a->order[k]) != 0)
            return -1;
    a->stats.greedy_phases = a->nphases;
    return apr_paper_rounds(a, list);
}

static int run(apr_t *a, unsigned *list)
{
    a->stats.lower_bound = a->n ? lower_bound(a) : 0;
    if (a->paper)
        return run_paper(a, list);
    /* The sequential pass (seed 004: order, route each on the cheapest path, costs rise with use); going over
     * capacity is not allowed, and the schedule is priced against the budget of the fewest phases possible. */
    apr_set_budget(a, a->stats.lower_bound);
    a->tpres = APR_PRES0;
    for (unsigned k = 0; k < a->n; k++)
        if (apr_route_one(a, a->order[k]) != 0)
            return -1;
    a->tpres = 0;
    a->stats.greedy_phases = a->nphases;
    while (a->nphases > a->stats.lower_bound && a->nphases > 1) {
        int rc = apr_remove_phase_negotiated(a, emptiest_phase(a), list);
        if (rc < 0)
            return -1;
        if (rc == 0)
            break;
        a->stats.removed_phases++;
    }
    if (apr_balance(a, list) != 0)
        return -1;
    return apr_tighten(a, list);
}

apr_t *apr_route(const apr_input_t *in)
{
    apr_t *a = create(in);
    if (a == NULL)
        return NULL;
    unsigned *list = malloc(sizeof *list * (a->n + 1u));
    int rc = list != NULL ? run(a, list) : -1;
    free(list);
    if (rc != 0) {
        apr_free(a);
        return NULL;
    }
    return a;
}

unsigned apr_phases(const apr_t *a)
{
    return a->nphases;
}
unsigned apr_phase_of(const apr_t *a, unsigned conn)
{
    return a->c[conn].phase;
}

const uint16_t *apr_path(const apr_t *a, unsigned conn, unsigned *len)
{
    *len = a->c[conn].len;
    return a->c[conn].path;
}

const uint8_t *apr_dirs(const apr_t *a, unsigned conn)
{
    return a->c[conn].dirs;
}
const apr_stats_t *apr_stats(const apr_t *a)
{
    return &a->stats;
}
