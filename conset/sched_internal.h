/* The schedulers behind sched_phase (sched.h). */
#ifndef CONSET_SCHED_INTERNAL_H
#define CONSET_SCHED_INTERNAL_H

#include "sched.h"

/* Time-slot matching (sched_match.c): at each moment some timelines come free, start a largest set of
 * connections between free senders and free receivers, the busiest cells first. With connections of equal
 * length this needs no more slots than the busiest cell has connections (a bipartite graph's edges can be
 * coloured with as many colours as its largest degree, Konig), where first fit can need twice as many.
 * Fills start[0..n); returns the latest end, or -1 when out of memory. */
int64_t sched_match(const sched_input_t *in, uint64_t *start);

/* For phases whose connections all last the same and follow no other (sched_color.c): an edge colouring of
 * the bipartite graph senders x receivers with as many colours as the busiest timeline has connections
 * (alternating paths), colour k starting at k times the duration. That is the lower bound. Fills start;
 * returns the latest end, or -1 when out of memory. */
int64_t sched_color(const sched_input_t *in, uint64_t *start);

#endif
