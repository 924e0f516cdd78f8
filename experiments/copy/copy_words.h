/*
 * What the copy-transfer runs put in memory so that a misplaced word shows: a distinct value for every
 * (cell, address), a guard word around and between the targets, and the permutations the indexed patterns
 * walk. Shared by the two-cell runs (copy_measure.c) and the exchanges (copy_exchange.c, copy_kernels.c).
 */
#ifndef EXPERIMENTS_COPY_WORDS_H
#define EXPERIMENTS_COPY_WORDS_H

#include <stdint.h>

#define COPY_GUARD_WORD 0x5eedf00du

static inline uint32_t copy_value_at(unsigned cell, uint32_t addr)
{
    return (addr ^ (cell * 0x9e3779b9u)) * 2654435761u + 0x1234567u;
}

/* The first of start, start + 2, ... prime to m: k -> k mult mod m is then a permutation of 0..m-1. */
static inline unsigned copy_coprime_multiplier(unsigned m, unsigned start)
{
    for (;; start += 2) {
        unsigned a = start % m, b = m;
        while (a) {
            unsigned t = b % a;
            b = a;
            a = t;
        }
        if (b == 1)
            return start;
    }
}

#endif
