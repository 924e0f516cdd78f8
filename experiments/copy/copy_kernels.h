/*
 * The exchanges `iwarp bench copy` measures (copy_exchange.h specs): xQy all-to-all, and the copy-transfer
 * paper's kinds of application kernel: the transpose of a 2D FFT, a sparse gather through an index array,
 * a block-cyclic redistribution. Each builds the address lists a compiler would, for an array of
 * width x height cells. docs/copy.md.
 */
#ifndef EXPERIMENTS_COPY_KERNELS_H
#define EXPERIMENTS_COPY_KERNELS_H

#include <stdint.h>

#include "copy_exchange.h"

typedef enum copy_kernel_kind {
    COPY_KERNEL_XQY,       /* every cell N words to every other: read pattern x, write pattern y */
    COPY_KERNEL_TRANSPOSE, /* a (P n) x P matrix by rows (n a cell) into its P x (P n) transpose, a row a cell */
    COPY_KERNEL_GATHER,    /* A = B[X] for A, B of P n elements by blocks, X a random permutation (fixed seed) */
    COPY_KERNEL_CYCLIC,    /* P n elements from CYCLIC(k1) to CYCLIC(k2) */
} copy_kernel_kind_t;

typedef struct copy_kernel_params {
    copy_kernel_kind_t kind;
    unsigned width, height;
    unsigned n;     /* N words a pair (xQy), rows a cell (transpose), elements a cell (gather, cyclic) */
    long x, y;      /* xQy: strides in words or COPY_INDEXED (a stride of P or more interleaves the blocks) */
    unsigned k1, k2; /* cyclic */
} copy_kernel_params_t;

typedef struct copy_kernel copy_kernel_t;

/* Builds the kernel's exchange; NULL with a message when the parameters do not fit. */
copy_kernel_t *copy_kernel_new(const copy_kernel_params_t *p, char *err, size_t cap);
const copy_exchange_spec_t *copy_kernel_spec(const copy_kernel_t *k);
void copy_kernel_free(copy_kernel_t *k);

#endif
