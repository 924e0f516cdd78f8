/*
 * AS, the automatic scheduler of seed 004, section 4.4.2, for the connections of one phase.
 *
 * A connection of d clocks (2 clocks per word: a cell streams one word out and one word in every 2 clocks
 * with LIW code, seed 004 section 5) occupies its source's send timeline and its destination's receive
 * timeline for the same d clocks. Greedy: take the cell with the largest MIN_TIME that still has a
 * connection to place, its longest such connection, and put it in the first gap long enough on both
 * timelines, after every connection it must follow. MIN_TIME is a lower bound on when a cell finishes:
 * per timeline, the later of its last placed end and its placed plus unplaced clocks.
 *
 * Ties (equal MIN_TIMEs, equal durations) decide a lot when connections are alike: the greedy pass runs
 * SCHED_ATTEMPTS times, first breaking ties by cell and connection number, then in orders shuffled by the
 * seed, and the shortest schedule is kept (the first of equals). It stops early at the lower bound, the
 * busiest timeline's clocks. greedy_only: the first greedy pass alone, as the paper's AS.
 *
 * With links (sched_input_t.nlinks), every directed physical link is a timeline too: the congestion-aware
 * scheduler that seed 004 left for later. A link shared by two connections at once gives each half its
 * bandwidth (round-robin), which slows both and every cell paired with them; kept apart, each runs at
 * full rate and the prediction holds.
 *
 * With one_timeline a cell's sends and receives share one timeline (code without LIW instructions).
 */
#ifndef CONSET_SCHED_H
#define CONSET_SCHED_H

#include <stdbool.h>
#include <stdint.h>

enum {
    SCHED_CLOCKS_PER_WORD = 2, /* seed 004, section 4.2.1: t_s = t_r = 2k clocks */
    SCHED_ATTEMPTS = 16,
};

typedef struct sched_input {
    unsigned cells;
    unsigned n;                /* connections of the phase */
    const unsigned *src, *dst; /* cell ids */
    const uint64_t *dur;       /* clocks, at least 1 */
    /* connection i starts after every after[after_start[i] .. after_start[i + 1]) ends (indices < n); NULL
     * when there is none */
    const unsigned *after_start, *after;
    uint64_t seed; /* of the shuffled attempts */
    /* Optional (nlinks 0: the seed's AS, which looks only at the two ends): connection i also occupies the
     * directed links links[link_start[i] .. link_start[i + 1]) (ids below nlinks) for its d clocks, so two
     * connections that share a link never overlap. Only the greedy passes run then. */
    unsigned nlinks;
    const unsigned *link_start, *links;
    /* The ConSet paper's AS alone (section 4.4.2): the greedy once, ties by cell and connection number; no
     * edge colouring, no time-slot matching, no shuffled attempts. */
    bool greedy_only;
    /* One timeline per cell, its sends and receives on it together (the ConSet paper, section 4.4.2: "schedule c
     * in the first sufficiently large unfilled time region on both processors"): for code without LIW
     * instructions, where "normal instructions can saturate one link either sending or receiving" (section 5),
     * so a cell does one at a time. false: a send and a receive timeline per cell, for LIW code. The edge
     * colouring and the time-slot matching pair senders with receivers and are left out. */
    bool one_timeline;
} sched_input_t;

/* Fills start[0..n); returns the phase's predicted clocks (the latest end), or -1 when out of memory. */
int64_t sched_phase(const sched_input_t *in, uint64_t *start);

#endif
