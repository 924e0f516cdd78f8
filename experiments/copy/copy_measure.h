/*
 * The basic transfers of the copy-transfer model measured on the emulated iWarp: programs/copy/basic.s on a
 * 2x1 array, with the memory laid out and every destination word (and the guard words around them) checked
 * from the host. docs/copy.md.
 */
#ifndef EXPERIMENTS_COPY_MEASURE_H
#define EXPERIMENTS_COPY_MEASURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "copy_table.h"

/* The emulated clock: 20 MHz. */
#define COPY_CLOCK_HZ 20e6

/* A basic transfer alone, or xQy (cell 0's memory to cell 1's, read pattern t.read, write pattern t.write)
 * in one of the paper's two styles. */
typedef enum copy_style {
    COPY_BASIC,
    COPY_PACKING, /* xC1, then 1F0 || Nd || 0D1, then 1Cy */
    COPY_CHAINED, /* xS0 || Nd || 0Ry; to an indexed destination xS0 || Nadp || 0D! */
} copy_style_t;

typedef struct copy_bench_case {
    copy_transfer_t t; /* strides in words; a network transfer's congestion 1..4 */
    copy_style_t style;
    bool plain;        /* xS0 in plain code (one operation an instruction) rather than LIW */
    unsigned words;    /* N: even, 2 or more */
} copy_bench_case_t;

/* "1Q64", "!Q1": xQy's patterns into a case of the given style. */
bool copy_xqy_parse(const char *s, copy_style_t style, unsigned words, copy_bench_case_t *out);

typedef struct copy_run {
    uint64_t clocks;   /* from the transfer's first bundle to its end */
    uint64_t wrong;    /* destination or guard words that do not hold what they should */
} copy_run_t;

/* One run of N words. */
int copy_measure_run(const copy_bench_case_t *c, copy_run_t *out, char *err, size_t cap);

typedef struct copy_throughput {
    copy_run_t at_n, at_2n;
    double clocks_per_word; /* (clocks at 2N - clocks at N) / N: the steady rate, fixed costs left out */
    double mbps;            /* useful bytes (4 a word) per second at that rate */
} copy_throughput_t;

/* Runs N and 2N words and takes the difference, so that set-up and the pathway's latency drop out. */
int copy_measure(const copy_bench_case_t *c, copy_throughput_t *out, char *err, size_t cap);

#endif
