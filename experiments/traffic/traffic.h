/*
 * Synthetic traffic on the communication agents (docs/traffic.md): the agents of a W x H torus, exactly as
 * comm_agent/ models them, driven through their port (control registers and gates) by host-side generators
 * and sinks that stand in for the computation agents and cost no emulated clock. Messages are the message
 * passing runtime's (runtime/msg.s): street signs of a dimension-order route with the dateline pools, the
 * info word, the data, the trailer; they end in the destination's arrival queue.
 *
 *     traffic_config_t cfg;
 *     traffic_config_defaults(&cfg);          // 8x8, uniform, Bernoulli, 16-word messages
 *     cfg.rate = 0.1;                         // data words per cell per clock
 *     traffic_point_t pt;
 *     if (traffic_measure(&cfg, &pt, err, sizeof err) != 0) ...
 *     printf("%.1f clocks\n", pt.latency_mean);
 */
#ifndef EXPERIMENTS_TRAFFIC_TRAFFIC_H
#define EXPERIMENTS_TRAFFIC_TRAFFIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "coa.h"
#include "machine.h"

/* The patterns: TRAFFIC_PATTERN(id, "name", "what it does"). */
#define TRAFFIC_PATTERNS(X)                                                                                            \
    X(UNIFORM, "uniform", "every other cell equally likely")                                                           \
    X(TRANSPOSE, "transpose", "(x,y) -> (y,x); square arrays")                                                         \
    X(BITCOMP, "bitcomp", "(x,y) -> (W-1-x, H-1-y): the bit complement of the id when the sides are powers of 2")      \
    X(BITREV, "bitrev", "the bits of the cell id reversed; W*H a power of 2")                                          \
    X(SHUFFLE, "shuffle", "the bits of the cell id rotated left by one; W*H a power of 2")                             \
    X(TORNADO, "tornado", "(x + ceil(W/2) - 1, y + ceil(H/2) - 1), wrapped")                                           \
    X(NEIGHBOUR, "neighbour", "(x + 1, y + 1), wrapped")                                                               \
    X(HOTSPOT, "hotspot", "the hotspot cell with probability --hotspot-fraction, else uniform")

typedef enum traffic_pattern {
#define X(id, name, doc) TRAFFIC_##id,
    TRAFFIC_PATTERNS(X)
#undef X
        TRAFFIC_NUM_PATTERNS
} traffic_pattern_t;

typedef enum traffic_routing {
    TRAFFIC_DOR,   /* runtime/msg.s's messages: street signs, dimension order, dateline pools, arrival queue */
    TRAFFIC_FIXED, /* pathways set up once from the pattern's connection set compiled by iwarp route */
} traffic_routing_t;

typedef enum traffic_injection {
    TRAFFIC_BERNOULLI, /* each clock a cell creates a message with probability rate / mean size */
    TRAFFIC_ONOFF,     /* bursts: on and off periods of geometric length, Bernoulli while on */
} traffic_injection_t;

enum {
    TRAFFIC_MAX_SIZES = 16,
    TRAFFIC_MAX_WORDS = 0xfffff, /* the info word keeps the length in 20 bits (runtime/msg.s) */
    TRAFFIC_MAX_SIGNS = 6,       /* start, X dateline, turn, Y dateline, last hop, sink */
    TRAFFIC_MAX_HOPS = 32,       /* at most W/2 + H/2 on the largest array */
};

typedef struct traffic_config {
    emu_machine_t machine; /* array size, queue depth, link timing (the CA keys are unused) */
    traffic_pattern_t pattern;
    traffic_routing_t routing;
    traffic_injection_t injection;
    double rate;                       /* offered data words per cell per clock */
    unsigned sizes[TRAFFIC_MAX_SIZES]; /* message lengths in data words: one of them, equally likely ... */
    unsigned nsizes;
    unsigned size_lo, size_hi; /* ... or, when nsizes is 0, uniform in size_lo..size_hi */
    double burst;              /* on/off: mean clocks of an on period */
    double duty;               /* on/off: fraction of the time a cell is on */
    unsigned hotspot;          /* hotspot cell id */
    double hotspot_fraction;
    uint64_t seed;
    uint64_t warmup; /* clocks before the first sample period */
    uint64_t sample; /* clocks of a sample period */
    unsigned min_samples, max_samples;
    double tolerance;     /* convergence: relative change of accepted rate and mean latency between periods */
    uint64_t drain_limit; /* clocks after the samples for the measured messages to arrive */
    double latency_limit; /* a mean latency above this many clocks is saturation */
    unsigned threads;     /* host threads (results do not depend on it) */
} traffic_config_t;

void traffic_config_defaults(traffic_config_t *cfg);
/* Checks the combination (pattern against array size, rates, periods); 0 or -1 with a message. */
int traffic_config_check(const traffic_config_t *cfg, char *err, size_t errlen);
double traffic_mean_size(const traffic_config_t *cfg);

const char *traffic_pattern_name(traffic_pattern_t p);
int traffic_pattern_parse(const char *name, traffic_pattern_t *p);
/* Message sizes: "16", "4-64" (uniform) or "8,8,64" (one of them, equally likely). 0 or -1 with a message. */
int traffic_parse_sizes(const char *text, traffic_config_t *cfg, char *err, size_t errlen);

/* --- routes (traffic_route.c) --- */

typedef struct traffic_route {
    unsigned nsigns;
    uint32_t signs[TRAFFIC_MAX_SIGNS];
    unsigned hops;
    unsigned consumed; /* signs consumed on the way, besides the first and the last (turns, pool switches) */
} traffic_route_t;

/* The route runtime/msg.s's msg_route builds from src to dst (cell ids; src != dst): X first then Y, each
 * the shorter way round (+ on a tie), pool 0, pool 1 past the ring's dateline, pool 2 for the last hop,
 * ending in the arrival queue. */
void traffic_route(unsigned w, unsigned h, unsigned src, unsigned dst, traffic_route_t *r);
/* Zero-load latency from creation to the tail's delivery of an m-data-word message along r (docs/traffic.md). */
uint64_t traffic_zero_load_latency(const emu_machine_t *m, const traffic_route_t *r, unsigned words);
/* The same on a fixed pathway of `hops` links: the info word and the data stream behind one another. */
uint64_t traffic_fixed_zero_load_latency(const emu_machine_t *m, unsigned hops, unsigned words);

/* --- one measured point (traffic_measure.c) --- */

enum { TRAFFIC_MAX_HOP_BINS = TRAFFIC_MAX_HOPS + 1 };

typedef struct traffic_point {
    double rate;         /* asked */
    double offered;      /* data words created per cell per clock in the sample periods */
    double accepted;     /* data words delivered per cell per clock in the sample periods */
    double latency_mean; /* creation to tail delivered, clocks, of the messages created in the samples */
    double latency_p50, latency_p90, latency_p99, latency_max;
    double latency_sd; /* their standard deviation: how many a period must deliver for the mean to settle */
    double network_latency_mean;                   /* first word into the agent to tail delivered */
    double hop_latency_mean[TRAFFIC_MAX_HOP_BINS]; /* by hop count; NaN where no message had that many */
    uint64_t hop_messages[TRAFFIC_MAX_HOP_BINS];
    double link_util_mean, link_util_max; /* busy clocks / clocks over the sample periods */
    unsigned busiest_link;                /* 4 * cell id + direction (coa_dir_t) of the link at link_util_max */
    double link_util[4 * EMU_MAX_DIM * EMU_MAX_DIM]; /* every link, at 4 * cell id + direction */
    uint64_t waits[COA_WAIT_COUNT];                  /* channel-clocks waiting, by coa_wait_t, over the whole run */
    uint64_t measured;                               /* messages created in the samples */
    uint64_t delivered;                              /* of those, delivered by the end */
    unsigned samples;
    bool converged;
    bool saturated;
    /* The last sample period, for saying why a point did not converge: the relative change of the accepted rate
     * and of the mean latency from the period before (NaN where there was none), and its deliveries. */
    double accepted_change, latency_change;
    uint64_t sample_delivered;
    uint64_t clocks; /* the whole run: warm-up, samples, drain */
    uint64_t errors; /* words lost, duplicated, reordered or corrupt: must be 0 */
    char first_error[256];
} traffic_point_t;

/* Warm-up, sample periods until converged, drain (docs/traffic.md). 0, or -1 with a message. */
int traffic_measure(const traffic_config_t *cfg, traffic_point_t *pt, char *err, size_t errlen);

/* Why a point is saturated or did not converge, and which option to change (both "" when it converged
 * unsaturated): traffic_why.c. Each under 110 characters, a line of the table's report. */
typedef struct traffic_why {
    char why[160], change[160];
} traffic_why_t;
void traffic_why(const traffic_config_t *cfg, const traffic_point_t *pt, traffic_why_t *out);

/* A measurement a person waits for: a progress line on a terminal naming `what` (none when quiet or not a
 * terminal), and Ctrl-C (interrupt.h, armed by the caller) obeyed between slices of clocks: the measurement
 * then ends early with `interrupted` set and the point is not to be reported. Slicing changes no result. */
typedef struct traffic_watch {
    const char *what;
    bool quiet;
    bool interrupted;
} traffic_watch_t;
int traffic_measure_watched(const traffic_config_t *cfg, traffic_point_t *pt, traffic_watch_t *watch, char *err,
                            size_t errlen);

/* Injection on for `clocks`, then off until every message created has been delivered (or drain_limit
 * passes). For the tests: counts what was created, delivered and wrong. */
typedef struct traffic_soak {
    uint64_t created, delivered, words_delivered, errors, clocks;
    bool drained;
    uint64_t state_hash; /* of every agent's channels and statistics at the end: equal runs, equal hashes */
    char first_error[256];
} traffic_soak_t;
int traffic_soak(const traffic_config_t *cfg, uint64_t clocks, traffic_soak_t *out, char *err, size_t errlen);

/* Upper bounds on accepted data words per cell per clock under uniform traffic: the bisection (the better
 * of the X and Y cuts, all wire words counted) and the busiest link of the dimension-order routes. */
double traffic_bisection_bound(const traffic_config_t *cfg);

#endif
