/*
 * HPF array assignment on the emulated array, from the host's side: distributions as HPF writes them, the
 * run of programs/hpf/assign.s that assigns D = S between two tasks (runtime/hpf.s computes the address
 * relation on the cells), and an independent check of every destination element and of the guard words
 * around it. docs/deposit.md.
 */
#ifndef EXPERIMENTS_HPF_H
#define EXPERIMENTS_HPF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "emu.h"

enum { HPF_MAX_ITERATIONS = 64, HPF_MAX_TASK = 32 };

/* One dimension of a block-cyclic distribution: blocks of k indices dealt round p processors. BLOCK is
 * k = ceil(n / p), CYCLIC k = 1, CYCLIC(k) k, ':' p = 1 and k = n. */
typedef struct hpf_dim {
    unsigned p, k;
} hpf_dim_t;

/* D = S for an n0 x n1 array (dimension 0 contiguous, column major), each over `task` cells. */
typedef struct hpf_case {
    unsigned n0, n1, task;
    hpf_dim_t src[2], dst[2];
} hpf_case_t;

typedef enum hpf_format { HPF_FORMAT_PAIRS = 0, HPF_FORMAT_BLOCKS = 1 } hpf_format_t;

/* Parses "S(:,CYCLIC(5))->D(:,CYCLIC(20))" (the array names are free, one letter or more; spaces allowed)
 * for an n0 x n1 array over tasks of `task` cells. With both dimensions distributed the task is a
 * P0 x P1 grid, P0 the largest divisor of `task` not above its square root. */
int hpf_parse_case(const char *text, unsigned n0, unsigned n1, unsigned task, hpf_case_t *out, char *err,
                   size_t cap);
/* The case back in HPF's words, such as "S(:,CYCLIC(5)) -> D(:,CYCLIC(20))". */
void hpf_case_text(const hpf_case_t *c, char *buf, size_t cap);

/* What one run measured: per iteration, the latency from the first source starting to the last destination
 * word deposited, and the sources' longest assembly (and, cached, relation store). */
typedef struct hpf_result {
    unsigned iterations;
    uint64_t cycles;                            /* the whole run */
    uint32_t latency[HPF_MAX_ITERATIONS];       /* clocks */
    uint32_t assembly[HPF_MAX_ITERATIONS];      /* the slowest source's assembly and sends */
    uint32_t store[HPF_MAX_ITERATIONS];         /* the slowest source's relation store (cached, first) */
    uint64_t words_sent, blocks_cached;         /* over every iteration and source */
    uint64_t wrong_on_cells;                    /* elements the destinations' own checks found wrong */
    uint64_t wrong_on_host;                     /* elements and guard words the host found wrong */
} hpf_result_t;

typedef struct hpf_options {
    bool cached;
    hpf_format_t format;
    unsigned iterations;  /* 1..HPF_MAX_ITERATIONS */
    bool check_each;      /* new values and a check every iteration (else once, after the last) */
    unsigned width, height; /* the array; 0 x 0: the smallest of width 8 (or less) that holds both tasks */
    bool *interrupted;    /* set when Ctrl-C stopped the run; may be NULL */
} hpf_options_t;

/* Runs the assignment; 0 when every cell halted and the result was read, else -1 with a message. */
int hpf_run(const hpf_case_t *c, const hpf_options_t *o, hpf_result_t *out, char *err, size_t cap);

/* The mean latency of the first n iterations. */
double hpf_mean_latency(const hpf_result_t *r, unsigned n);
/* The first n at which n cached assignments take on average no longer than n uncached ones, or 0. */
unsigned hpf_break_even(const hpf_result_t *uncached, const hpf_result_t *cached);

#endif
