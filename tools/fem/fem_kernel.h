/*
 * The finite element kernel on the emulated array (programs/fem/fem.s): one sparse matrix-vector product y = A x
 * of a partitioned mesh, each cell's part assembled from its elements, then the exchange of the shared nodes'
 * partial sums under ConSet. The host builds every cell's matrix, x and exchange lists, runs it and checks y on
 * every cell against its own product, bit for bit (the values are small integers: every sum is exact).
 * docs/fem.md.
 */
#ifndef TOOLS_FEM_KERNEL_H
#define TOOLS_FEM_KERNEL_H

#include <stddef.h>
#include <stdint.h>

#include "fem_analysis.h"

typedef enum fem_style {
    FEM_CONSET, /* the pattern's phases; words gathered into the gate, added at the receiver */
} fem_style_t;

typedef struct fem_run {
    uint64_t compute_max, compute_min; /* clocks of the local product, over the cells */
    uint64_t exchange;                 /* clocks of the exchange, barrier to barrier */
    uint64_t total;                    /* from the first barrier to the last */
    uint64_t nnz;                      /* stored entries over all cells */
    uint64_t wrong;                    /* y entries of any cell that are not the product's */
} fem_run_t;

int fem_kernel_run(const fem_analysis_t *a, unsigned width, unsigned height, fem_style_t style, unsigned threads,
                   fem_run_t *out, char *err, size_t cap);

#endif
