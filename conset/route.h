/*
 * The communication compiler (docs/conset.md): a connection set in, a plan out. Each task's connections
 * are partitioned into phases and routed (APR, apr.h); phases are numbered task by task in task order. At
 * every cell of a phase each connection through it gets its own user channel, 4 upwards in connection
 * order; then each phase is scheduled (AS, sched.h). The plan is written as cell tables (route_tables.h)
 * and a report (route_report.h). route_options_t.paper does only what the ConSet paper's section 4.4 describes.
 */
#ifndef CONSET_ROUTE_H
#define CONSET_ROUTE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cset.h"
#include "torus.h"

enum {
    ROUTE_FIRST_CHANNEL = 4, /* channels 0-3 are the barrier's, 4-19 the user's (docs/runtime.md) */
    ROUTE_DEFAULT_ITERATIONS = 40,
    ROUTE_DEFAULT_SEED = 1,
};

typedef struct route_options {
    unsigned capacity;   /* 0: the set's */
    unsigned iterations; /* rip-up-and-reroute rounds per phase removal */
    uint64_t seed;
    bool link_aware; /* schedule the links too (sched.h); false: the seed's AS, the two ends only */
    /* The ConSet paper's compiler alone (section 4.4): its node costs and rounds of rip-up and reroute (APR,
     * apr_paper.c) and its greedy AS once; none of our additions (phase removal by negotiation, balancing,
     * tightening, the other schedules). Not with link_aware, which the paper left for later. */
    bool paper;
    /* AS with one timeline per cell, its sends and receives together (sched_input_t.one_timeline): for programs
     * whose loops are written without LIW instructions, as the ConSet paper's finite element exchange was
     * (section 5); false: a send and a receive timeline per cell. */
    bool one_timeline;
} route_options_t;

void route_options_init(route_options_t *o);

typedef struct route_conn {
    unsigned phase;
    unsigned first, ncells; /* its cells in plan.cells[first .. first + ncells), source first */
    uint64_t start, end;    /* AS: clocks from the start of its phase */
} route_conn_t;

typedef struct route_phase {
    unsigned task;
    unsigned *conns; /* connection numbers, ascending */
    unsigned nconns;
    uint64_t clocks; /* predicted by AS: the latest end */
} route_phase_t;

typedef struct route_plan {
    const cset_t *set; /* not owned; must outlive the plan */
    torus_t torus;
    unsigned capacity;
    bool link_aware;     /* scheduled with the links (route_options_t) */
    bool paper;          /* compiled as the ConSet paper's compiler (route_options_t) */
    bool one_timeline;   /* scheduled on one timeline per cell (route_options_t) */
    route_conn_t *conns; /* one per connection of the set */
    uint16_t *cells;     /* path cells */
    uint8_t *dirs;       /* dirs[k]: from cells[k] to cells[k + 1] of the same path */
    uint8_t *chans;      /* the channel each path cell gives the connection */
    route_phase_t *phases;
    unsigned nphases;
    unsigned lower_bound;   /* sum over the tasks */
    unsigned greedy_phases; /* after the sequential pass, summed over the tasks */
    unsigned rounds;        /* rip-up-and-reroute rounds run (paper: kept or undone) */
    uint64_t searches;
} route_plan_t;

/* Compiles; returns 0, or -1 with a message (out of memory, an ordering constraint across tasks, or paper with
 * link_aware). */
int route_compile(const cset_t *set, const route_options_t *o, route_plan_t *plan, char *err, size_t errlen);
void route_plan_free(route_plan_t *plan);

#endif
