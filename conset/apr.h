/*
 * APR, the automatic partitioner and router of seed 004, section 4.4.1, for the connections of one task.
 *
 * The torus is a graph whose nodes are cells with a capacity (the logical channels connections may use);
 * a connection routed along cells p0..pn takes one channel at every one of them, ends included. Each phase
 * is a copy of the graph. Connections are routed one after another by shortest-path search on node costs
 * that rise with use, choosing the cheapest path over all phases that the ordering constraints allow, and a
 * new phase opens when no phase has room (capacity is never exceeded). Then phases are removed one at a
 * time by rip-up and reroute: the emptiest phase's connections are put into the others, letting nodes go
 * over capacity at a growing price, and the connections through overfull nodes are ripped up and rerouted
 * until nothing is over (negotiated congestion), or the rounds run out and the removal is undone. Last, the
 * same negotiation balances the schedule: each phase's send and receive clocks per cell against a budget,
 * then lower budgets for one phase after another (AS, sched.h, can do no better than the busiest timeline).
 * docs/conset.md gives the costs and the order. With apr_input_t.paper, only the steps the paper describes:
 * its node costs, the sequential pass and its rounds of rip-up and reroute (apr_paper.c).
 */
#ifndef CONSET_APR_H
#define CONSET_APR_H

#include <stdbool.h>
#include <stdint.h>

#include "torus.h"

#define APR_NONE 0xffffffffu

typedef struct apr_input {
    torus_t torus;
    unsigned capacity;   /* channels per cell, 1..16 */
    unsigned iterations; /* rip-up-and-reroute rounds allowed for each phase removal */
    uint64_t seed;       /* order of the rerouting within a round; with paper, which routes a round rips up */
    /* Only what the ConSet paper's section 4.4.1 describes (apr_paper.c): node costs 1 + routes through the node,
     * its rounds of rip-up and reroute; no phase removal by negotiation, no balancing, no tightening. */
    bool paper;
    unsigned nconns;
    const unsigned *src, *dst; /* cell ids */
    const uint32_t *words;
    /* Ordering: connection i is used after after[after_start[i] .. after_start[i + 1]) (indices < nconns,
     * acyclic). NULL when there is none. */
    const unsigned *after_start, *after;
} apr_input_t;

typedef struct apr_stats {
    unsigned lower_bound;    /* phases at least needed: channel uses over cells x capacity, or one cell's ends */
    unsigned greedy_phases;  /* after the sequential pass */
    unsigned removed_phases; /* by rip-up and reroute */
    unsigned rounds;         /* rip-up-and-reroute rounds run */
    uint64_t searches;       /* shortest-path searches */
} apr_stats_t;

typedef struct apr apr_t;

/* Routes; returns NULL when out of memory. The input's arrays are not kept. */
apr_t *apr_route(const apr_input_t *in);
void apr_free(apr_t *a);

unsigned apr_phases(const apr_t *a);
unsigned apr_phase_of(const apr_t *a, unsigned conn);
/* The cells of the connection's path, source first; *len cells (1 for a connection to itself). */
const uint16_t *apr_path(const apr_t *a, unsigned conn, unsigned *len);
/* dirs[k]: the direction from path[k] to path[k + 1] (len - 1 of them). */
const uint8_t *apr_dirs(const apr_t *a, unsigned conn);
const apr_stats_t *apr_stats(const apr_t *a);

#endif
