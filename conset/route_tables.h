/*
 * The compiler's output for the cells: one blob of 32-bit words per cell in a cell data file
 * (emu/celldata.h), read by the ConSet runtime. Offsets are in bytes from the start of the blob.
 *
 *   word 0      ROUTE_TABLE_MAGIC ('CSET')
 *   word 1      P, the number of phases
 *   word 2      flags: ROUTE_TABLE_TIMED when the cells keep to the schedule's clock (route --links)
 *   word 3      reserved, 0
 *   4 .. 4+P-1  byte offset of each phase's record
 *
 *   phase record:
 *     n_fwd, then n_fwd entries {channel, route, source, 0}: exactly a forwarding pattern for COA_LOAD
 *       (docs/network.md), one entry per connection through this cell, in connection order. route is
 *       kind 1 (link) << 12 | direction << 8 | the next cell's channel, or 0 at the destination; source is
 *       kind 1 << 12 | the direction of the previous cell seen from here << 8 | its channel, or 0 at the
 *       source. A connection to itself has one entry with both 0.
 *     n_send, n_recv, predicted phase clocks (AS), n_seg
 *     n_send entries {connection number, channel here, words, destination cell id}, in schedule order
 *     n_recv entries {connection number, channel here, words, source cell id}, in schedule order
 *     n_seg segments {out | in << 8, words, mode, start}: the cell's walk through the schedule, in order.
 *       mode is ROUTE_SEGMENT_SEND | ROUTE_SEGMENT_RECEIVE as a send and a receive are going for these
 *       words; out (in) is the channel of a send (receive) starting with this segment, 0 when one going
 *       continues; start is the segment's clock in the schedule, from the start of the phase.
 */
#ifndef CONSET_ROUTE_TABLES_H
#define CONSET_ROUTE_TABLES_H

#include <stddef.h>

#include "celldata.h"
#include "route.h"

enum {
    ROUTE_TABLE_MAGIC = 0x54455343, /* "CSET" read as a little-endian word */
    ROUTE_TABLE_HEADER_WORDS = 4,
    ROUTE_FWD_WORDS = 4,
    ROUTE_XFER_WORDS = 4,
    ROUTE_SEGMENT_WORDS = 4,
    ROUTE_SEGMENT_SEND = 1,
    ROUTE_SEGMENT_RECEIVE = 2,
    ROUTE_TABLE_TIMED = 1,
    /* The longest phase timed tables may hold: a cell waits for a segment's clock by the sign of the 32-bit
     * difference between the clock and the segment's start (runtime/conset.s, conset_transfer). */
    ROUTE_TIMED_MAX_CLOCKS = 0x7fffffff,
};

/* Returns 0 when the plan's tables can be built, or -1 with a message when the input asks for what they cannot
 * hold: a timed plan (route --links) with a phase longer than ROUTE_TIMED_MAX_CLOCKS. */
int route_tables_check(const route_plan_t *plan, char *err, size_t errlen);

/* Builds every cell's blob into *out (initialized here). Returns 0, or -1 with a message (route_tables_check's,
 * or out of memory). */
int route_tables(const route_plan_t *plan, celldata_t *out, char *err, size_t errlen);

/* What a compiled set's phases take with every link's words counted (route_phase_link_weighted_clocks), a length
 * per phase: the ConSet account's prediction beside the tables' own (runner/phase_predict.c). */
typedef struct route_phase_lengths {
    uint64_t *clocks;
    unsigned n;
} route_phase_lengths_t;

/* Parses a .cset file, compiles it with the default options and builds its tables into *out (what a run
 * description's `route FILE at ADDR` line loads), and, when lengths is not NULL, the phases' link-weighted lengths
 * into it (the caller frees clocks; nothing on failure): a run's account needs them and the compile is most of the cost of either.
 * Returns 0, or -1 with a message that starts with the path ("PATH:LINE:COL: what" for the first parse error). */
int route_file_tables(const char *path, celldata_t *out, route_phase_lengths_t *lengths, char *err, size_t errlen);

#endif
