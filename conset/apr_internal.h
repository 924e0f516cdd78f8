/* APR's state, shared by its set-up and driver (apr.c), the phases (apr_phase.c), the search (apr_search.c)
 * and rip-up and reroute (apr_negotiate.c). */
#ifndef CONSET_APR_INTERNAL_H
#define CONSET_APR_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "apr.h"

/* Costs are fixed point (1.0 = APR_SCALE) so the same input gives the same routes on every compiler and
 * machine: no floating point, no contraction, no excess precision. */
enum {
    APR_SCALE = 256,
    APR_BALANCE = 256, /* a node's cost grows by BALANCE * (use / capacity)^2: spread before it fills */
    APR_LINK = 16,     /* per connection already on a link: among equal paths, share links less */
    APR_PRES0 = 128,   /* price of each channel over capacity in the first round (0.5) ... */
    APR_PRES_MULT = 3, /* ... multiplied by 3/2 each round */
    APR_PRES_MAX = 1u << 20,
    APR_HIST_INC = 64,        /* history added per channel over capacity per round (0.25) */
    APR_TIME_BAL = 64,        /* a timeline's cost grows to TIME_BAL as its load reaches the budget */
    APR_STALL = 12,           /* a negotiation gives up after this many rounds with no less over */
    APR_TIGHTEN_FAILURES = 2, /* phases that could not be made shorter before the tightening stops */
    APR_BALANCE_TABLE = 64,   /* uses with their balance term tabulated (above: computed) */
    APR_PAPER_SAMPLE = 8,     /* a paper round rips up one in this many of the routes that fit (apr_paper.c) */
};
#define APR_INF UINT64_MAX

typedef struct apr_conn {
    unsigned src, dst, dist;
    uint32_t words;
    uint64_t dur;   /* how long it streams (AS's duration), in units of the task's words' common divisor */
    unsigned phase; /* APR_NONE while unrouted */
    unsigned len;   /* cells on the path */
    unsigned cap;   /* room in path/dirs */
    uint16_t *path;
    uint8_t *dirs;
} apr_conn_t;

/* A candidate path, found by the search. */
typedef struct apr_cand {
    uint16_t *path;
    uint8_t *dirs;
    unsigned len;
} apr_cand_t;

struct apr {
    torus_t t;
    unsigned cap, iterations;
    bool paper;         /* the ConSet paper's router only (apr_input_t) */
    unsigned link_cost; /* per connection already on a link: APR_LINK, or 0 for the paper, which prices nodes */
    uint64_t rng;       /* splitmix64.h */
    unsigned n;
    apr_conn_t *c;
    unsigned *order; /* routing order: ordering constraints first, then longest, most words, file order */
    unsigned *pred_start, *pred, *succ_start, *succ;
    /* per phase and cell: channels used and the negotiated-congestion history; per phase, cell, direction:
     * link_cost for each connection on the link, the price a search pays for it (below 2^32: CSET_MAX_CONNS
     * connections of APR_LINK) */
    unsigned nphases, phases_cap;
    uint16_t *use;
    uint32_t *hist;
    uint32_t *lcost;
    uint64_t pres; /* price of going over capacity, 0 = not allowed (the sequential pass): apr_set_prices */
    /* apr_cell_cost of every phase and cell (apr_tabulate_cost), updated whenever a use, a history or the price
     * changes */
    uint64_t *cost;
    uint64_t *cheapest; /* per phase: the least of its cells' costs, 0 until asked for since they changed */
    bool *crowded;      /* per phase: a cell over capacity at the start of the round (apr_negotiate.c) */
    /* BALANCE * (u / cap)^2 for the common uses u: the search asks for it at every step, and a division is
     * most of a node's cost */
    uint64_t balance[APR_BALANCE_TABLE];
    /* The schedule, negotiated like the channels: per phase and cell, the time (in units) of the connections
     * start (send) and end (receive) there, against a budget per timeline of each phase (0 = none). */
    uint64_t *sload, *rload;
    uint32_t *shist, *rhist;
    uint64_t *budget, budget_new; /* budget_new: of phases opened from now on */
    /* apr_route_one's workspace, per phase: the phases to try, in the order tried, and by phase the lower bound
     * on the connection's cost there (its time cost included) and its time cost */
    unsigned *try;
    uint64_t *try_lb, *try_tc;
    uint64_t dref, *send_total, *recv_total;
    uint64_t tpres;
    /* the torus, tabulated: neighbours (APR_NONE where a side of 1 has no link), coordinates */
    unsigned *nb;
    uint16_t *cx, *cy;
    /* the search's heuristic: per destination, the hops to it from each cell (at most CSET_MAX_SIDE), built
     * the first time it is a destination (hops_built) */
    uint8_t *hops;
    bool *hops_built;
    uint8_t *hx; /* hops_to's workspace: the ring distance of each column to the destination's */
    uint64_t *hcost; /* per search for the cost alone: its heuristic by hops to go (apr_search.c) */
    uint64_t *hpath; /* the search for the path's heuristic by hops to go: APR_SCALE a hop */
    /* search workspace */
    uint64_t *g;
    uint32_t *from; /* per cell: the link the search reached it by, cell * TORUS_DIRS + direction */
    uint64_t *heap; /* the search's heap (apr_search.c) */
    unsigned dir_lo, dir_hi; /* the directions with links: a side of 1 has none in its dimension */
    apr_cand_t cand, best;
    /* bounds workspace */
    unsigned *stack, *mark, mark_gen;
    apr_stats_t stats;
};

/* A copy of every connection's phase and path, to go back to. */
typedef struct apr_saved {
    unsigned *phase;
    unsigned *start; /* where each connection's cells and directions are in cells/dirs */
    uint16_t *cells;
    uint8_t *dirs;
    unsigned nphases;
} apr_saved_t;

/* apr_phase.c: the phases' copies of the graph, connections in and out of them, ordering bounds. */
int apr_add_phase(apr_t *a);
void apr_remove_phase(apr_t *a, unsigned q); /* q must be empty; later phases move down one */
void apr_clear_history(apr_t *a);
/* Tabulates apr_cell_cost again for every phase and cell: after the histories or the price change. */
void apr_update_costs(apr_t *a);
void apr_rip_up(apr_t *a, unsigned c);
/* Routes connection c on the cheapest path over the phases its ordering allows; without room anywhere (only
 * when going over capacity is not allowed) it opens a phase. Returns 0; 1 when there is no room and a later
 * connection's phase forbids a new one (only when going over capacity is not allowed and c's successors are
 * routed: the paper's rounds); -1 when out of memory. */
int apr_route_one(apr_t *a, unsigned c);
int apr_save(const apr_t *a, apr_saved_t *s);
void apr_restore(apr_t *a, const apr_saved_t *s);
void apr_saved_free(apr_saved_t *s);
/* The schedule budget per timeline when the task has `phases` phases (0 phases: none). */
void apr_set_budget(apr_t *a, unsigned phases);

/* apr_paper.c: the ConSet paper's rounds of rip-up and reroute (section 4.4.1), a->iterations of them. Returns 0,
 * or -1 when out of memory. */
int apr_paper_rounds(apr_t *a, unsigned *list);

/* apr_negotiate.c: rip-up and reroute. */
/* Sets the price of going over capacity and over the schedule budget. */
void apr_set_prices(apr_t *a, uint64_t pres, uint64_t tpres);
/* Tries to do with one phase fewer: 1 when phase q is gone and no cell is over capacity, 0 when that could not
 * be done (everything is as before), -1 when out of memory. list has room for every connection. */
int apr_remove_phase_negotiated(apr_t *a, unsigned q, unsigned *list);
/* Moves connections between phases until no timeline is over the budget either, keeping the best schedule
 * bound seen with no cell over capacity. Returns 0, or -1 when out of memory. */
int apr_balance(apr_t *a, unsigned *list);
/* Then lowers one phase's budget after another by one longest connection below its busiest timeline (each
 * phase once), as long as the others can take what no longer fits. Returns 0, or -1 when out of memory. */
int apr_tighten(apr_t *a, unsigned *list);
/* Sum over the phases of the busiest timeline's clocks: what AS can at best do. */
uint64_t apr_schedule_bound(const apr_t *a);
/* The busiest timeline's clocks in phase p. */
uint64_t apr_phase_bound(const apr_t *a, unsigned p);

#define APR_NODE_COST_MAX 0xffffffffu /* keeps any path's cost below 2^48, the heap's key field */

/* BALANCE * (u / cap)^2: spread before a cell fills (apr.c tabulates it for the common uses). */
static inline uint64_t apr_balance_term(uint64_t u, unsigned cap)
{
    return APR_BALANCE * u * u / ((uint64_t)cap * cap);
}
/* Cost of one more channel at k = phase * cells + cell, from its use, history and the price; APR_INF when full and
 * going over is not allowed. */
static inline uint64_t apr_cell_cost(const apr_t *a, size_t k)
{
    uint64_t u = a->use[k];
    if (u >= a->cap && a->pres == 0)
        return APR_INF;
    /* The ConSet paper, section 4.4.1: "initialize node costs to 1", then "update node costs" as routes go
     * through (and decrement them when routes are ripped up). It gives no amount: 1/capacity a route (a full
     * node costs 2) is the one that finds its phase counts, 30 for all-to-all with 12 channels, 2 for the
     * butterfly with 12 and 1 with 16; a whole 1 a route finds 31, 2 and 2 (docs/conset.md). */
    if (a->paper)
        return APR_SCALE + APR_SCALE * u / a->cap;
    uint64_t balance = u < APR_BALANCE_TABLE ? a->balance[u] : apr_balance_term(u, a->cap);
    uint64_t cost = APR_SCALE + balance + a->hist[k];
    if (u >= a->cap) {
        /* Negotiated congestion (PathFinder): each channel beyond capacity costs more every round. */
        cost = cost * (APR_SCALE + a->pres * (u + 1 - a->cap)) / APR_SCALE;
    }
    return cost < APR_NODE_COST_MAX ? cost : APR_NODE_COST_MAX;
}
/* a->cost holds APR_FULL for APR_INF: more than any path costs (a path has at most CSET_MAX_SIDE^2 cells of
 * at most APR_NODE_COST_MAX and links of at most APR_LINK * 2^16, below 2^43), so that the search, its bound
 * kept at APR_FULL at most, needs no test of its own for a full cell and the sums cannot wrap. */
#define APR_FULL ((uint64_t)1 << 48)
static inline void apr_tabulate_cost(apr_t *a, size_t k)
{
    uint64_t cost = apr_cell_cost(a, k);
    a->cost[k] = cost == APR_INF ? APR_FULL : cost;
}
/* apr_cell_cost at (phase p, cell v), as last tabulated. */
static inline uint64_t apr_node_cost(const apr_t *a, unsigned p, unsigned v)
{
    uint64_t cost = a->cost[(size_t)p * a->t.n + v];
    return cost == APR_FULL ? APR_INF : cost;
}
/* One timeline: below the budget a small pull towards the less loaded phases; above it, like a channel over
 * capacity, a price per longest-connection's worth of clocks over, rising with the rounds and the history. */
static inline uint64_t apr_timeline_cost(const apr_t *a, uint64_t budget, uint64_t load, uint64_t d, uint32_t hist)
{
    uint64_t after = load + d;
    if (after <= budget)
        return APR_TIME_BAL * after / budget;
    uint64_t over = ((after - budget) * APR_SCALE + a->dref - 1) / a->dref;
    uint64_t cost = (APR_SCALE + APR_TIME_BAL + (uint64_t)hist) * (APR_SCALE + a->tpres * over / APR_SCALE) / APR_SCALE;
    return cost < APR_NODE_COST_MAX ? cost : APR_NODE_COST_MAX;
}
/* Cost of putting connection c's clocks on its ends' timelines in phase p (0 without a budget). Inline: every
 * connection routed asks it of every phase. */
static inline uint64_t apr_time_cost(const apr_t *a, unsigned p, const apr_conn_t *c)
{
    uint64_t budget = a->budget[p];
    if (budget == 0)
        return 0;
    size_t base = (size_t)p * a->t.n;
    return apr_timeline_cost(a, budget, a->sload[base + c->src], c->dur, a->shist[base + c->src]) +
           apr_timeline_cost(a, budget, a->rload[base + c->dst], c->dur, a->rhist[base + c->dst]);
}
/* The least cost of a path for connection c in phase p when below bound, or APR_INF. With unit 0, the path into
 * a->cand: the one A* finds with APR_SCALE a hop to go as its heuristic. Otherwise for the cost alone, with a
 * closer heuristic from unit, which every cell of phase p must cost at least: whether there is a path below the
 * bound, and its least cost, do not depend on the heuristic (only which of the cheapest paths is found does). */
uint64_t apr_search(apr_t *a, unsigned p, const apr_conn_t *c, uint64_t bound, uint64_t unit);

#endif
