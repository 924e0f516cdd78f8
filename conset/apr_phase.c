/* APR's phases: each a copy of the graph with its channel, link and timeline loads; connections put into and
 * taken out of them; the phases ordering constraints allow; snapshots (apr_internal.h). */
#include <stdlib.h>
#include <string.h>

#include "apr_internal.h"

static bool routed(const apr_t *a, unsigned c)
{
    return a->c[c].phase != APR_NONE;
}

/* Grows one per-phase array to cap phases of `per` entries; the old pointer stays valid on failure. */
static bool grow(void **arr, size_t size, size_t per, unsigned cap)
{
    void *p = realloc(*arr, size * per * cap);
    if (p == NULL)
        return false;
    *arr = p;
    return true;
}

int apr_add_phase(apr_t *a)
{
    size_t cells = a->t.n;
    if (a->nphases == a->phases_cap) {
        unsigned cap = a->phases_cap ? 2 * a->phases_cap : 8;
        bool ok = grow((void **)&a->use, sizeof *a->use, cells, cap);
        ok = grow((void **)&a->hist, sizeof *a->hist, cells, cap) && ok;
        ok = grow((void **)&a->cost, sizeof *a->cost, cells, cap) && ok;
        ok = grow((void **)&a->cheapest, sizeof *a->cheapest, 1, cap) && ok;
        ok = grow((void **)&a->crowded, sizeof *a->crowded, 1, cap) && ok;
        ok = grow((void **)&a->lcost, sizeof *a->lcost, cells * TORUS_DIRS, cap) && ok;
        ok = grow((void **)&a->sload, sizeof *a->sload, cells, cap) && ok;
        ok = grow((void **)&a->rload, sizeof *a->rload, cells, cap) && ok;
        ok = grow((void **)&a->shist, sizeof *a->shist, cells, cap) && ok;
        ok = grow((void **)&a->rhist, sizeof *a->rhist, cells, cap) && ok;
        ok = grow((void **)&a->budget, sizeof *a->budget, 1, cap) && ok;
        ok = grow((void **)&a->try, sizeof *a->try, 1, cap) && ok;
        ok = grow((void **)&a->try_lb, sizeof *a->try_lb, 1, cap) && ok;
        ok = grow((void **)&a->try_tc, sizeof *a->try_tc, 1, cap) && ok;
        if (!ok)
            return -1;
        a->phases_cap = cap;
    }
    size_t p = a->nphases++;
    memset(a->use + p * cells, 0, sizeof *a->use * cells);
    memset(a->hist + p * cells, 0, sizeof *a->hist * cells);
    memset(a->lcost + p * cells * TORUS_DIRS, 0, sizeof *a->lcost * cells * TORUS_DIRS);
    memset(a->sload + p * cells, 0, sizeof *a->sload * cells);
    memset(a->rload + p * cells, 0, sizeof *a->rload * cells);
    memset(a->shist + p * cells, 0, sizeof *a->shist * cells);
    memset(a->rhist + p * cells, 0, sizeof *a->rhist * cells);
    a->budget[p] = a->budget_new;
    for (size_t k = p * cells; k < (p + 1) * cells; k++)
        apr_tabulate_cost(a, k);
    a->cheapest[p] = 0;
    return 0;
}

void apr_clear_history(apr_t *a)
{
    size_t k = (size_t)a->nphases * a->t.n;
    memset(a->hist, 0, sizeof *a->hist * k);
    memset(a->shist, 0, sizeof *a->shist * k);
    memset(a->rhist, 0, sizeof *a->rhist * k);
    apr_update_costs(a);
}

void apr_update_costs(apr_t *a)
{
    size_t total = (size_t)a->nphases * a->t.n;
    for (size_t k = 0; k < total; k++)
        apr_tabulate_cost(a, k);
    memset(a->cheapest, 0, sizeof *a->cheapest * a->nphases);
}

/* Moves phases q+1.. of one per-phase array down one. */
static void shift(void *arr, size_t size, size_t per, unsigned q, unsigned phases)
{
    char *base = arr;
    memmove(base + size * per * q, base + size * per * (q + 1), size * per * (phases - q - 1));
}

void apr_remove_phase(apr_t *a, unsigned q)
{
    size_t cells = a->t.n;
    shift(a->use, sizeof *a->use, cells, q, a->nphases);
    shift(a->hist, sizeof *a->hist, cells, q, a->nphases);
    shift(a->cost, sizeof *a->cost, cells, q, a->nphases);
    shift(a->cheapest, sizeof *a->cheapest, 1, q, a->nphases);
    shift(a->lcost, sizeof *a->lcost, cells * TORUS_DIRS, q, a->nphases);
    shift(a->sload, sizeof *a->sload, cells, q, a->nphases);
    shift(a->rload, sizeof *a->rload, cells, q, a->nphases);
    shift(a->shist, sizeof *a->shist, cells, q, a->nphases);
    shift(a->rhist, sizeof *a->rhist, cells, q, a->nphases);
    shift(a->budget, sizeof *a->budget, 1, q, a->nphases);
    a->nphases--;
    for (unsigned i = 0; i < a->n; i++)
        if (a->c[i].phase != APR_NONE && a->c[i].phase > q)
            a->c[i].phase--;
}

/* The phase's least cell cost (cheapest_cell, 0 when not known) after one cell's cost went from old to now: a
 * cell below the least is the new least, and the least stays unless the cell that went up was at it (others may
 * not be: it is looked for again when asked). Taking a connection away never needs the look. */
static uint64_t cheapest_after(uint64_t least, uint64_t old, uint64_t now)
{
    if (least == 0)
        return 0;
    if (now < least)
        return now;
    return old == least && now > old ? 0 : least;
}

static void count(apr_t *a, unsigned ci, bool add)
{
    const apr_conn_t *c = &a->c[ci];
    size_t base = (size_t)c->phase * a->t.n;
    int delta = add ? 1 : -1;
    uint64_t least = a->cheapest[c->phase];
    if (add) {
        a->sload[base + c->src] += c->dur;
        a->rload[base + c->dst] += c->dur;
    } else {
        a->sload[base + c->src] -= c->dur;
        a->rload[base + c->dst] -= c->dur;
    }
    for (unsigned k = 0; k < c->len; k++) {
        uint64_t old = a->cost[base + c->path[k]];
        a->use[base + c->path[k]] = (uint16_t)(a->use[base + c->path[k]] + delta);
        apr_tabulate_cost(a, base + c->path[k]);
        least = cheapest_after(least, old, a->cost[base + c->path[k]]);
        if (k + 1 < c->len) {
            size_t l = (base + c->path[k]) * TORUS_DIRS + c->dirs[k];
            a->lcost[l] = add ? a->lcost[l] + a->link_cost : a->lcost[l] - a->link_cost;
        }
    }
    a->cheapest[c->phase] = least;
}

static int commit(apr_t *a, unsigned ci, unsigned p, const apr_cand_t *path)
{
    apr_conn_t *c = &a->c[ci];
    if (path->len > c->cap) {
        uint16_t *cells = realloc(c->path, sizeof *cells * path->len);
        if (cells != NULL)
            c->path = cells;
        uint8_t *dirs = realloc(c->dirs, path->len);
        if (dirs != NULL)
            c->dirs = dirs;
        if (cells == NULL || dirs == NULL)
            return -1;
        c->cap = path->len;
    }
    memcpy(c->path, path->path, sizeof *c->path * path->len);
    memcpy(c->dirs, path->dirs, path->len > 1 ? path->len - 1 : 0);
    c->len = path->len;
    c->phase = p;
    count(a, ci, true);
    return 0;
}

void apr_rip_up(apr_t *a, unsigned ci)
{
    if (!routed(a, ci))
        return;
    count(a, ci, false);
    a->c[ci].phase = APR_NONE;
}

/* The phases connection c may take: at least every earlier connection's and at most every later one's.
 * Unrouted neighbours pass on their own bounds, so routing in any order keeps the set consistent. */
static void phase_bounds(apr_t *a, unsigned c, unsigned *lo, unsigned *hi)
{
    *lo = 0;
    *hi = APR_NONE;
    for (int dir = 0; dir < 2; dir++) {
        const unsigned *start = dir == 0 ? a->pred_start : a->succ_start, *list = dir == 0 ? a->pred : a->succ;
        if (start == NULL || start[c] == start[c + 1])
            continue;
        if (++a->mark_gen == 0) {
            memset(a->mark, 0, sizeof *a->mark * a->n);
            a->mark_gen = 1;
        }
        unsigned top = 0;
        for (unsigned k = start[c]; k < start[c + 1]; k++)
            a->stack[top++] = list[k];
        while (top > 0) {
            unsigned e = a->stack[--top];
            if (a->mark[e] == a->mark_gen)
                continue;
            a->mark[e] = a->mark_gen;
            if (routed(a, e)) {
                if (dir == 0 && a->c[e].phase > *lo)
                    *lo = a->c[e].phase;
                if (dir == 1 && a->c[e].phase < *hi)
                    *hi = a->c[e].phase;
                continue;
            }
            for (unsigned k = start[e]; k < start[e + 1]; k++)
                if (a->mark[list[k]] != a->mark_gen)
                    a->stack[top++] = list[k];
        }
    }
}

static void take_best(apr_t *a)
{
    apr_cand_t t = a->best;
    a->best = a->cand;
    a->cand = t;
}

/* The least of a cell's neighbours' costs, each with its link's, over directions lo..hi-1. */
static inline uint64_t least_of(const uint64_t *cost, const unsigned *nb, const uint32_t *links, unsigned lo,
                                unsigned hi)
{
    uint64_t least = APR_FULL;
    for (unsigned d = lo; d < hi; d++) {
        uint64_t c = cost[nb[d]] + links[d];
        least = c < least ? c : least;
    }
    return least;
}

/* The least a path's first cell after src costs in phase p, with the link to it (out), or its last cell before
 * dst, without (on a side of 2 both links of a pair lead to dst); APR_FULL or more when every neighbour is
 * full. Inline, as is try_phase: the bounds ask for it some 2.5M times in the 8x8 all-to-all. */
static inline uint64_t least_neighbour(const apr_t *a, unsigned p, unsigned v, bool out)
{
    static const uint32_t no_links[TORUS_DIRS];
    const unsigned *nb = a->nb + (size_t)v * TORUS_DIRS;
    const uint64_t *cost = a->cost + (size_t)p * a->t.n;
    const uint32_t *links = out ? a->lcost + ((size_t)p * a->t.n + v) * TORUS_DIRS : no_links;
    /* A torus with both sides above 1 has every direction: with them fixed, the loop is unrolled. */
    if (a->dir_lo == 0 && a->dir_hi == TORUS_DIRS)
        return least_of(cost, nb, links, 0, TORUS_DIRS);
    return least_of(cost, nb, links, a->dir_lo, a->dir_hi);
}

/* The least cost of a cell of phase p: every cell a path goes through costs that much at least. */
static uint64_t cheapest_cell(apr_t *a, unsigned p)
{
    if (a->cheapest[p] == 0) {
        const uint64_t *cost = a->cost + (size_t)p * a->t.n;
        uint64_t least = APR_FULL;
        for (unsigned v = 0; v < a->t.n; v++)
            least = cost[v] < least ? cost[v] : least;
        a->cheapest[p] = least;
    }
    return a->cheapest[p];
}

/* What any path of c costs in phase p at least, its time cost tc included: both ends are on every path, and
 * every other cell costs at least the phase's cheapest. APR_INF when an end is full. */
static uint64_t lower_bound(apr_t *a, unsigned p, const apr_conn_t *c, uint64_t tc)
{
    uint64_t cs = apr_node_cost(a, p, c->src), cd = c->src == c->dst ? 0 : apr_node_cost(a, p, c->dst);
    if (cs == APR_INF || cd == APR_INF)
        return APR_INF;
    return tc + cs + cd + (c->dist > 1 ? (uint64_t)(c->dist - 1) * cheapest_cell(a, p) : 0);
}

/* lower_bound lb made closer by the cells next to the ends (APR_INF when there is no path), or only as far as
 * `enough` when that rules the phase out: beyond one hop a path has a first cell after src, a neighbour of src,
 * and beyond two a distinct last cell before dst, a neighbour of dst, each costing at least the cheapest such
 * neighbour rather than the phase's cheapest cell. Worth its look-ups only for a phase that lower_bound could
 * not rule out. */
static uint64_t closer_bound(apr_t *a, unsigned p, const apr_conn_t *c, uint64_t lb, uint64_t enough)
{
    if (c->dist < 2)
        return lb;
    uint64_t first = least_neighbour(a, p, c->src, true);
    if (first >= APR_FULL)
        return APR_INF;
    uint64_t cheapest = cheapest_cell(a, p); /* no more than first, nor last */
    lb += first - cheapest;
    if (lb >= enough)
        return lb;
    uint64_t last = least_neighbour(a, p, c->dst, false);
    if (last >= APR_FULL)
        return APR_INF;
    if (c->dist == 2)
        return last > first ? lb + last - first : lb;
    return lb + last - cheapest;
}

/* Each phase's lower bound on what c would cost there with its time cost, and the time cost, from lo up to end;
 * the phases with room at both of c's ends into a->try, in order. Returns how many, with *least the one of least
 * bound (the first of equals). */
static unsigned bound_phases(apr_t *a, const apr_conn_t *c, unsigned lo, unsigned end, unsigned *least)
{
    unsigned n = 0, first = APR_NONE;
    uint64_t first_lb = APR_INF; /* every bound kept is below it */
    for (unsigned p = lo; p < end; p++) {
        uint64_t tc = apr_time_cost(a, p, c), lb = lower_bound(a, p, c, tc);
        if (lb == APR_INF)
            continue;
        a->try_lb[p] = lb;
        a->try_tc[p] = tc;
        if (lb < first_lb) {
            first_lb = lb;
            first = p;
        }
        a->try[n++] = p;
    }
    *least = first;
    return n;
}

/* Of the n phases in a->try, those other than `first` whose bound does not rule them out against best, by
 * bound (then by phase), in its place; returns how many. */
static unsigned sort_contenders(apr_t *a, unsigned n, unsigned first, uint64_t best)
{
    unsigned m = 0;
    for (unsigned k = 0; k < n; k++) {
        unsigned p = a->try[k], i = m; /* m <= k: only places already read are written */
        uint64_t lb = a->try_lb[p];
        if (p == first || lb > best)
            continue;
        for (; i > 0 && a->try_lb[a->try[i - 1]] > lb; i--)
            a->try[i] = a->try[i - 1];
        a->try[i] = p;
        m++;
    }
    return m;
}

/* The best phase for a connection so far: its cost with the time cost, the time cost, and whether its path is
 * in a->best. */
typedef struct best {
    uint64_t cost, tc;
    unsigned p;
    bool have_path;
} best_t;

/* Searches phase p for c unless its bounds rule it out, and takes it when it beats *b: with a lower cost, or an
 * equal one from a lower phase. With `path`, its path too; otherwise the cost alone, which a closer heuristic
 * finds looking at fewer cells (most searches find nothing below their bound). */
static inline void try_phase(apr_t *a, const apr_conn_t *c, unsigned p, best_t *b, bool path)
{
    uint64_t lb = a->try_lb[p], tc = a->try_tc[p];
    bool below = p < b->p; /* wins a tie */
    uint64_t enough = b->cost == APR_INF ? APR_INF : b->cost + below; /* a bound that rules p out */
    if (lb >= enough || closer_bound(a, p, c, lb, enough) >= enough)
        return;
    uint64_t bound = b->cost == APR_INF ? APR_INF : b->cost - tc + below;
    uint64_t cost = apr_search(a, p, c, bound, path ? 0 : cheapest_cell(a, p));
    if (cost != APR_INF && (cost + tc < b->cost || (cost + tc == b->cost && below))) {
        *b = (best_t){cost + tc, tc, p, path};
        if (path)
            take_best(a);
    }
}

/* Routes c in the phase where its search cost plus time cost is least, the lowest such phase among equals. The
 * phases are searched cheapest lower bound first rather than in order, so that the first search finds a low
 * best and the bound prunes most others (or cuts their searches short); the winner is the same: a phase below
 * the best so far also wins with an equal cost, one above only with a lower one, and a phase's path does not
 * depend on the bound it is searched with (the bound only stops the same A* earlier). Only the phases the
 * first search's best leaves in the running are sorted: the best only falls, and those it rules out stay out.
 * The phase of least bound is searched for its path, the others for their cost alone; when one of them wins,
 * its path is searched last. */
int apr_route_one(apr_t *a, unsigned ci)
{
    apr_conn_t *c = &a->c[ci];
    unsigned lo, hi;
    phase_bounds(a, ci, &lo, &hi);
    best_t b = {APR_INF, 0, APR_NONE, false};
    unsigned first = APR_NONE, n = bound_phases(a, c, lo, hi < a->nphases ? hi + 1 : a->nphases, &first);
    if (n > 0) {
        try_phase(a, c, first, &b, true); /* most often the winner */
        unsigned m = sort_contenders(a, n, first, b.cost);
        for (unsigned i = 0; i < m && a->try_lb[a->try[i]] <= b.cost; i++) /* beyond: all ruled out */
            try_phase(a, c, a->try[i], &b, false);
    }
    if (b.p != APR_NONE && !b.have_path) {
        apr_search(a, b.p, c, b.cost - b.tc + 1, 0); /* the winner's path, at its known cost */
        take_best(a);
    }
    unsigned best_p = b.p;
    if (best_p == APR_NONE) {
        /* A later connection bounds it only once the sequential pass is over: rip-up and reroute that lets
         * cells go over capacity always finds a path; the paper's rounds, which do not, undo the round. */
        if (hi != APR_NONE && hi < a->nphases)
            return 1;
        if (apr_add_phase(a) != 0)
            return -1;
        best_p = a->nphases - 1;
        if (apr_search(a, best_p, c, APR_INF, 0) == APR_INF)
            return -1; /* not reached: an empty phase has room for one channel per cell of a simple path */
        take_best(a);
    }
    return commit(a, ci, best_p, &a->best);
}

void apr_saved_free(apr_saved_t *s)
{
    free(s->phase);
    free(s->start);
    free(s->cells);
    free(s->dirs);
    memset(s, 0, sizeof *s);
}

int apr_save(const apr_t *a, apr_saved_t *s)
{
    memset(s, 0, sizeof *s);
    size_t total = 0;
    for (unsigned i = 0; i < a->n; i++)
        total += a->c[i].len;
    s->phase = malloc(sizeof *s->phase * (a->n + 1u));
    s->start = malloc(sizeof *s->start * (a->n + 1u));
    s->cells = malloc(sizeof *s->cells * (total + 1));
    s->dirs = malloc(total + 1);
    if (s->phase == NULL || s->start == NULL || s->cells == NULL || s->dirs == NULL) {
        apr_saved_free(s);
        return -1;
    }
    size_t at = 0;
    for (unsigned i = 0; i < a->n; i++) {
        const apr_conn_t *c = &a->c[i];
        s->phase[i] = c->phase;
        s->start[i] = (unsigned)at;
        memcpy(s->cells + at, c->path, sizeof *c->path * c->len);
        memcpy(s->dirs + at, c->dirs, c->len > 1 ? c->len - 1 : 0);
        at += c->len;
    }
    s->start[a->n] = (unsigned)at;
    s->nphases = a->nphases;
    return 0;
}

/* Puts back a snapshot. It never needs memory: the phases' arrays only grow, and so does each connection's
 * path buffer, which held the saved path when it was saved. */
void apr_restore(apr_t *a, const apr_saved_t *s)
{
    a->nphases = s->nphases;
    size_t k = (size_t)a->nphases * a->t.n;
    memset(a->use, 0, sizeof *a->use * k);
    memset(a->lcost, 0, sizeof *a->lcost * k * TORUS_DIRS);
    memset(a->sload, 0, sizeof *a->sload * k);
    memset(a->rload, 0, sizeof *a->rload * k);
    apr_clear_history(a);
    for (unsigned i = 0; i < a->n; i++) {
        apr_conn_t *c = &a->c[i];
        c->len = s->start[i + 1] - s->start[i];
        memcpy(c->path, s->cells + s->start[i], sizeof *c->path * c->len);
        memcpy(c->dirs, s->dirs + s->start[i], c->len > 1 ? c->len - 1 : 0);
        c->phase = s->phase[i];
        count(a, i, true);
    }
}

void apr_set_budget(apr_t *a, unsigned phases)
{
    uint64_t most = 0;
    for (unsigned v = 0; v < a->t.n; v++) {
        if (a->send_total[v] > most)
            most = a->send_total[v];
        if (a->recv_total[v] > most)
            most = a->recv_total[v];
    }
    /* An even share of the busiest timeline, plus room for the longest connection not to split evenly. */
    a->budget_new = phases && most ? (most + phases - 1) / phases + a->dref - 1 : 0;
    for (unsigned p = 0; p < a->nphases; p++)
        a->budget[p] = a->budget_new;
}
