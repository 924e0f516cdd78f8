/*
 * The basic communication patterns of seed 004, section 5.1, as connection sets of one task named after the
 * pattern, every connection carrying the same number of words, ids "c<src>_<dst>" (cell ids):
 *
 *   torus      every cell to its neighbours +X, -X, +Y, -Y (a neighbour that is the cell itself, on a side
 *              of 1, or that is already one of its destinations, on a side of 2, is left out)
 *   butterfly  the hypercube of log2(W*H) dimensions with a Gray-code mapping: the cell (x, y) has label
 *              gray(x) | gray(y) << log2(W) and sends to the cells whose labels differ in one bit (lowest
 *              bit first); both sides must be powers of two. 8x8 gives the 6-dimensional cube of seed 004.
 *   alltoall   every cell to every other cell, destinations in id order
 *
 * Connections are listed source by source in cell-id order.
 */
#ifndef CONSET_PATTERN_H
#define CONSET_PATTERN_H

#include <stddef.h>
#include <stdint.h>

#include "cset.h"

typedef enum pattern_kind {
    PATTERN_TORUS,
    PATTERN_BUTTERFLY,
    PATTERN_ALLTOALL,
} pattern_kind_t;

/* Returns 0 and sets *k for "torus", "butterfly", "alltoall"; -1 otherwise. */
int pattern_parse(const char *name, pattern_kind_t *k);
const char *pattern_name(pattern_kind_t k);

/* Builds the pattern into *s (initialized here); returns 0, or -1 with a message (bad size, memory). */
int pattern_generate(cset_t *s, pattern_kind_t k, unsigned width, unsigned height, uint32_t words, unsigned capacity,
                     char *err, size_t errlen);

#endif
