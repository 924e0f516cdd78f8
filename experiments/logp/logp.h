/* The LogGP measurements, shared by `iwarp bench logp` and `iwarp model msgpass`. */
#ifndef EXPERIMENTS_LOGP_H
#define EXPERIMENTS_LOGP_H

#include <stdbool.h>
#include <stdint.h>

enum { LOGP_MAX_DEPTHS = 16, LOGP_MAX_SIZES = 16 };

/* Calls job(arg, i) for i = 0 .. n-1, in any order, several at once or not (the runs are independent). */
typedef void logp_run_jobs_fn(void *ctx, unsigned n, void (*job)(void *arg, unsigned i), void *arg);

typedef struct logp_setup {
    unsigned width, height; /* the array the two cells are in */
    bool quick;             /* fewer sizes, depths and messages */
    unsigned runs;          /* runs per case (the minimum is kept) */
    bool quiet;             /* no progress line (there is one on a terminal otherwise) */
    /* When not NULL: runs the measurement's independent runs (the cases, then the two searches for the hidden
     * computation, each of whose runs depends on the last), which then show no progress line of their own. */
    logp_run_jobs_fn *run_jobs;
    void *jobs_ctx;
} logp_setup_t;

typedef struct logp_result {
    double eel_near, eel_far; /* clocks, one way, 8 bytes */
    unsigned far_hops;
    double g_by_depth[LOGP_MAX_DEPTHS];
    unsigned ndepth_g;
    double g;              /* best gap for 8-byte messages, clocks */
    double G;              /* clocks per byte */
    double large_bytes;    /* g / G */
    double g_q1;           /* gap at queue depth one */
    double o_s, o_r;       /* overheads, clocks */
    uint32_t hidden_send, hidden_receive; /* computation hidden per message, clocks */
    unsigned depths[LOGP_MAX_DEPTHS];
    unsigned ndepths;
    uint32_t sizes_words[LOGP_MAX_SIZES];
    unsigned nsizes;
    double per_message[LOGP_MAX_DEPTHS][LOGP_MAX_SIZES]; /* clocks per message by depth and size */
} logp_result_t;

int logp_measure(const logp_setup_t *setup, logp_result_t *result);

#endif
