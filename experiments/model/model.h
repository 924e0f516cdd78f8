/*
 * The analytic models of seed 004 (sections 2, 3.1, 4.2.1 and 4.3.1) and the seed's published numbers they
 * are compared with. The predicted columns of its Tables 1-3 follow from these formulas; the tests check
 * every cell of them to 1%.
 */
#ifndef EXPERIMENTS_MODEL_H
#define EXPERIMENTS_MODEL_H

#include <stdint.h>

#include "paper_conset.h"


/* Seed 004, 4.3.1: message passing. */
enum {
    MODEL_C = 400, /* constant overhead per message, each end, clocks */
    MODEL_A = 2,   /* clocks per word */
    MODEL_HEADER_TRAILER_WORDS = 4,
};

typedef enum model_pattern { MODEL_TORUS, MODEL_BUTTERFLY, MODEL_ALLTOALL, MODEL_PATTERNS } model_pattern_t;

typedef struct model_pattern_info {
    const char *name;
    unsigned conset_phases;    /* the phases the seed's compiler found (12 channels) */
    unsigned connections;      /* connections each cell sends on, on 64 cells */
    unsigned messages;         /* messages each cell sends in the message-passing version */
} model_pattern_info_t;

const model_pattern_info_t *model_pattern(model_pattern_t p);

/* ConSet: phases switches, then each cell streams its words at b clocks a word; receives overlap sends. */
double model_conset(unsigned phases, uint64_t words_sent_per_cell);
/* Message passing: every message costs c at each end, and a k-word message k*a. */
double model_msgpass(unsigned messages, uint64_t words_per_message, double c, double a);

/* The seed's sizes (words per connection) and its published numbers for the 64-cell iWarp. The measured
 * columns of Tables 2 and 3 are withheld: only Table 1's are here. */
enum { MODEL_SIZES = 4 };
extern const uint32_t model_sizes[MODEL_SIZES];
double model_seed_predicted_conset(model_pattern_t p, unsigned size_index);
double model_seed_predicted_msgpass(model_pattern_t p, unsigned size_index);
/* 0 when the seed withholds it. */
double model_seed_measured_conset(model_pattern_t p, unsigned size_index);
double model_seed_measured_msgpass(model_pattern_t p, unsigned size_index);

#endif
