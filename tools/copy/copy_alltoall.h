/*
 * xQy in all-to-all personalized communication over a whole array under ConSet (programs/copy/alltoall.s):
 * the communication compiler's phases for the all-to-all pattern, the memory of every cell laid out and
 * every destination word of every cell (and the guards around them) checked from the host. docs/copy.md.
 */
#ifndef TOOLS_COPY_ALLTOALL_H
#define TOOLS_COPY_ALLTOALL_H

#include <stddef.h>
#include <stdint.h>

#include "copy_measure.h"

typedef struct copy_a2a_case {
    copy_style_t style; /* COPY_PACKING, COPY_CHAINED, or COPY_BASIC: the network alone (words from a register,
                         * into a sum; x and y unused) */
    long x, y;          /* strides in words, or COPY_INDEXED */
    unsigned words;     /* N to each other cell: even, 2 or more */
    unsigned width, height;
    unsigned threads;   /* host threads (results do not depend on them) */
} copy_a2a_case_t;

typedef struct copy_a2a_run {
    uint64_t clocks; /* the slowest cell, from the start barrier to the end barrier */
    uint64_t wrong;  /* words of any cell that do not hold what they should */
    unsigned phases;
} copy_a2a_run_t;

int copy_alltoall_run(const copy_a2a_case_t *c, copy_a2a_run_t *out, char *err, size_t cap);

typedef struct copy_a2a_throughput {
    copy_a2a_run_t at_n, at_2n;
    double mbps; /* per cell, each way: (P - 1) N words in the clocks 2N takes more than N */
} copy_a2a_throughput_t;

int copy_alltoall_measure(const copy_a2a_case_t *c, copy_a2a_throughput_t *out, char *err, size_t cap);

#endif
