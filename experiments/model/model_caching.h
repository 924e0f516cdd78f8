/*
 * The address relation caching model of Dinda and O'Hallaron, "The Performance Impact of Address Relation
 * Caching" (docs/references.md): the time of uncached and cached deposit-model communication, the threshold
 * below which caching cannot pay, the repetition count at which it breaks even, and the speedup of cached over
 * uncached message assembly, for a machine's memory and instruction rates and a cache implementation's loop
 * costs.
 */
#ifndef EXPERIMENTS_MODEL_CACHING_H
#define EXPERIMENTS_MODEL_CACHING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Rates in words (or instructions) per second. */
typedef struct caching_machine {
    const char *name;
    double r_i;          /* instructions */
    double r_rc, r_rr;   /* unit-stride and random reads */
    double r_wc, r_wr;   /* unit-stride and random writes */
} caching_machine_t;

/* Instructions per tuple of the implementation's loops. */
typedef struct caching_loops {
    double n_au; /* uncached assembly */
    double n_o;  /* storing a tuple in the cache */
    double n_ac; /* assembly from the cache */
} caching_loops_t;

/* The paper's machines and its loop counts: iWarp (static and dynamic counts) and the Paragon (static). */
extern const caching_machine_t caching_iwarp, caching_paragon;
extern const caching_loops_t caching_iwarp_static, caching_iwarp_dynamic, caching_paragon_static;

/* Seconds per data word of message assembly: uncached (t_g + t_au), cached (t_ac). */
double caching_t_uncached_assembly(const caching_machine_t *m, const caching_loops_t *l, double n_g);
double caching_t_cached_assembly(const caching_machine_t *m, const caching_loops_t *l);

/* n_g must exceed this for caching to pay: 2 r_i / r_rc + n_ac - n_au (the paper's equation 3). */
double caching_threshold(const caching_machine_t *m, const caching_loops_t *l);

typedef enum caching_break_even {
    CACHING_BREAKS_EVEN, /* after *n_i repetitions */
    CACHING_AT_INFINITY, /* n_g is the threshold: cached assembly only ties */
    CACHING_NEVER,       /* below the threshold: cached assembly is slower */
} caching_break_even_t;

/* The repetitions after which cached communication is as fast on average (the paper's equation 4). */
caching_break_even_t caching_break_even(const caching_machine_t *m, const caching_loops_t *l, double n_g,
                                        uint64_t *n_i);

/* The break-even as the paper prints it: the count, INF or NONE. */
void caching_break_even_text(caching_break_even_t k, uint64_t n_i, char *buf, size_t cap);

/* Speedup of cached over uncached message assembly, (t_g + t_au) / t_ac, from the component times. The paper's
 * closed form (its equation 5) leaves out the two cache reads of t_ac; its tables follow the components. */
double caching_speedup(const caching_machine_t *m, const caching_loops_t *l, double n_g);

#endif
