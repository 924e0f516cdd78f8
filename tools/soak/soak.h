/* The soak (docs/soak.md): random workloads on random machines, each run twice (one host thread and several),
 * checked for every word delivered and for identical results. */
#ifndef TOOLS_SOAK_H
#define TOOLS_SOAK_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef struct soak_case {
    const char *program; /* from the source root */
    unsigned width, height, queue_depth, threads;
    uint32_t args[2];
} soak_case_t;

typedef struct soak_result {
    bool ok;
    uint64_t clocks; /* emulated, of the one-thread run */
    uint64_t words;  /* data words the receiving programs checked */
    char why[512];   /* when not ok: what differed or failed */
} soak_result_t;

/* Draws the case number `n` of a soak seeded with `seed` (the same pair gives the same case). */
void soak_draw(uint64_t seed, uint64_t n, soak_case_t *c);
/* Runs the case on one thread and on c->threads, and checks both. */
void soak_run(const soak_case_t *c, soak_result_t *r);
/* The `iwarp run` command line that repeats a case. */
void soak_command(const soak_case_t *c, char *buf, size_t cap);

#endif
