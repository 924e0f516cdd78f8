/*
 * The models of the buffered collectives paper (section 3.1): a pattern's
 * cost relative to one message of the same size, times that message's cost on this machine with the same
 * implementation, measured: a broadcast between two neighbouring cells (coll_model_message).
 */
#ifndef EXPERIMENTS_COLL_MODEL_H
#define EXPERIMENTS_COLL_MODEL_H

#include "coll.h"

/* Messages a pattern costs over a group of p cells: binomial tree broadcast or reduce lg2 p (rounded up);
 * p of them for the multi patterns by trees; a ring shift between 1 and 2 (whether a cell sends and receives
 * at full speed at once, or one after the other) times p - 1; p pipelined broadcasts 2 p (the paper: "the
 * cost of Q pipelined broadcasts, relative to Q normal message sends, is 2"); the ping-pong 2. */
typedef struct coll_factor {
    double lo, hi;
} coll_factor_t;

coll_factor_t coll_model_factor(coll_pattern_t p, unsigned cells);

/* The case's one message: its block from one cell to its neighbour (a broadcast over two cells), the same
 * implementation and chunk. */
coll_case_t coll_model_message(const coll_case_t *c);

/* iwarp model coll (cmd_model_coll.c): argv[0] = "coll". */
int model_coll_cmd(int argc, char **argv);

#endif
