/*
 * The finite element kernel on the emulated array (programs/fem/fem.s): one sparse matrix-vector product y = A x
 * of a partitioned mesh, each cell's part assembled from its elements, then the exchange of the shared nodes'
 * partial sums under ConSet or by message passing. The host builds every cell's matrix, x and exchange lists, runs it and checks y on
 * every cell against its own product, bit for bit (the values are small integers: every sum is exact).
 * docs/fem.md.
 */
#ifndef TOOLS_FEM_KERNEL_H
#define TOOLS_FEM_KERNEL_H

#include <stddef.h>
#include <stdint.h>

#include "fem_analysis.h"

typedef enum fem_style {
    FEM_CONSET,  /* the pattern's phases; words gathered into the gate, added at the receiver */
    FEM_MSGPASS, /* gathered into a buffer and sent as a message (runtime/msg.s); added at the receiver alike */
} fem_style_t;

typedef struct fem_run {
    uint64_t compute_max, compute_min; /* clocks of the local product, over the cells */
    uint64_t exchange;                 /* clocks of the exchange, barrier to barrier */
    uint64_t total;                    /* from the first barrier to the last */
    uint64_t nnz;                      /* stored entries over all cells */
    uint64_t wrong;                    /* y entries of any cell that are not the product's */
} fem_run_t;

/* The ConSet paper's models of the exchange (its sections 2 and 4.3.1: tools/model/model.h) with the clocks a word
 * costs in the loops the programs actually run, counted from the assembled programs (not typed in): ConSet, a
 * phase's switch and then b clocks a word each cell sends and receives (the sum-exchange loop); message passing,
 * c at each end of each message and a clocks a word (the gather into the buffer and the receive-sum loop). */
typedef struct fem_model {
    double conset_b;              /* clocks of exchange.inc's sum loop: a word out and a word in */
    double gather_a, receive_a;   /* clocks a word: copy.inc's indexed gather, fem_msg.s's receive-sum */
} fem_model_t;

int fem_model_loops(fem_model_t *m, char *err, size_t cap);
double fem_predict_conset(const fem_analysis_t *a, const fem_model_t *m);
double fem_predict_msgpass(const fem_analysis_t *a, const fem_model_t *m);

int fem_kernel_run(const fem_analysis_t *a, unsigned width, unsigned height, fem_style_t style, unsigned threads,
                   fem_run_t *out, char *err, size_t cap);

#endif
