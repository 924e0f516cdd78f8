/*
 * The finite element kernel on the emulated array (programs/fem/fem.s): one sparse matrix-vector product y = A x
 * of a partitioned mesh, each cell's part assembled from its elements, then the exchange of the shared nodes'
 * partial sums under ConSet or by message passing. The host builds every cell's matrix, x and exchange lists, runs it and checks y on
 * every cell against its own product, bit for bit (the values are small integers: every sum is exact).
 * docs/fem.md.
 */
#ifndef EXPERIMENTS_FEM_KERNEL_H
#define EXPERIMENTS_FEM_KERNEL_H

#include <stddef.h>
#include <stdint.h>

#include "fem_analysis.h"

typedef enum fem_style {
    FEM_CONSET,  /* the pattern's phases; words gathered into the gate, added at the receiver */
    FEM_MSGPASS, /* gathered into a buffer and sent as a message (runtime/msg.s); added at the receiver alike */
} fem_style_t;

/* How the exchange's inner loops are coded (FEM_LIW in programs/fem/fem.s and fem_msg.s). */
typedef enum fem_coding {
    /* As the ConSet paper's (section 5): "written without LIW instructions in the inner loops", one operation an
     * instruction; such a cell sends or receives, not both, so the phases are scheduled on one timeline a cell
     * (route_options_t.one_timeline). The reproduction's default. */
    FEM_ONE_OP,
    FEM_LIW, /* ours: LIW bundles, a word out and a word in together; a send and a receive timeline a cell */
} fem_coding_t;

typedef struct fem_run {
    uint64_t compute_max, compute_min; /* clocks of the local product, over the cells */
    uint64_t exchange;                 /* clocks of the exchange, barrier to barrier */
    uint64_t total;                    /* from the first barrier to the last */
    uint64_t nnz;                      /* stored entries over all cells */
    uint64_t wrong;                    /* y entries of any cell that are not the product's */
} fem_run_t;

/* The ConSet paper's models of the exchange (its sections 2, 4.3.1 and 4.4.2: experiments/model/model.h) with the
 * clocks a word costs in the loops the programs run in that coding, counted from the assembled programs (not typed
 * in), as the paper "recalculated the usable access bandwidth" from "the present code in the send and receive loops"
 * (section 5.2). ConSet: a phase's switch, then AS's schedule of the phase (the same as the run's) with b clocks
 * a scheduled word; message passing: c at each end of each message and a clocks a word. */
typedef struct fem_model {
    fem_coding_t coding;
    /* Clocks a scheduled word. LIW: exchange.inc's sum loop, a word out and a word in. One operation an
     * instruction: the slower of the send and the receive loop, which a connection's two ends run together. */
    double conset_b;
    double send, receive;       /* one operation an instruction: exchange.inc's two loops (LIW: 0) */
    double gather_a, receive_a; /* clocks a word of message passing: the gather into the buffer, the receive */
} fem_model_t;

int fem_model_loops(fem_coding_t coding, fem_model_t *m, char *err, size_t cap);
/* phases x the switch + the sum over the phases of AS's clocks, scheduled as the coding's run is, at b a word */
int fem_predict_conset(const fem_analysis_t *a, const fem_model_t *m, double *clocks, char *err, size_t cap);
double fem_predict_msgpass(const fem_analysis_t *a, const fem_model_t *m);

int fem_kernel_run(const fem_analysis_t *a, unsigned width, unsigned height, fem_style_t style, fem_coding_t coding,
                   unsigned threads, fem_run_t *out, char *err, size_t cap);

#endif
