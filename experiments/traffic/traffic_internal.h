/* The traffic network: an emulated array whose cells' cores are host-side generators and sinks that drive each
 * agent through its port (emu_driver_t), run on the array's scheduler and threads. */
#ifndef EXPERIMENTS_TRAFFIC_INTERNAL_H
#define EXPERIMENTS_TRAFFIC_INTERNAL_H

#include "coa.h"
#include "emu.h"
#include "splitmix64.h"
#include "traffic.h"

/* A message waiting in its source's queue (unbounded, as BookSim's source queues: its length is part of
 * the latency past saturation). */
typedef struct tr_msg {
    uint64_t created;
    uint32_t dst;
    uint32_t words;
} tr_msg_t;

/* The sender on one output gate: words go out signs first, then the info word, the data, the trailer. */
typedef struct tr_send {
    bool busy;
    tr_msg_t msg;
    traffic_route_t route;
    unsigned next, total;
} tr_send_t;

/* A delivery or an injection noted for the measurement (only for messages created after the warm-up). */
typedef struct tr_note {
    uint64_t created;
    uint32_t delay; /* delivery: creation to tail; injection: creation to the first word */
    uint16_t hops;
} tr_note_t;

typedef struct tr_notes {
    tr_note_t *v;
    size_t n, cap;
    bool failed; /* out of memory */
} tr_notes_t;

typedef struct tr_counts {
    uint64_t created, words_created, delivered, words_delivered, latency_sum, errors;
} tr_counts_t;

typedef struct tr_cell {
    coa_t *coa; /* the array's */
    unsigned id;
    uint64_t rng;
    bool on; /* on/off injection */
    /* source queue: a ring that grows */
    tr_msg_t *queue;
    size_t qhead, qlen, qcap;
    tr_send_t send[COA_NUM_GATES];
    /* sink on gi0: the message being read */
    bool receiving;
    uint32_t rx_src, rx_words, rx_got, rx_first;
    uint32_t *last_created; /* per source: creation clock (low 32 bits) of the last message from it, + 1 */
    unsigned fixed_hops;    /* fixed routing: links of the pathway that ends here */
    tr_counts_t counts;
    tr_notes_t deliveries, injections;
    char first_error[256];
} tr_cell_t;

typedef struct tr_net {
    traffic_config_t cfg;
    unsigned w, h, ncells;
    emu_array_t *array;
    tr_cell_t *cells;
    uint64_t clock; /* the array's, after the last run */
    uint64_t measure_from; /* messages created at or after this clock are noted */
    bool injecting;
    uint64_t p_create; /* probability of a message per clock (while on), scaled to 2^64 - 1 */
    uint64_t p_switch_off, p_switch_on;
} tr_net_t;

int tr_net_init(tr_net_t *n, const traffic_config_t *cfg, char *err, size_t errlen);
void tr_net_free(tr_net_t *n);
/* Runs clocks until n->clock reaches `until` (on cfg.threads host threads). */
void tr_net_run(tr_net_t *n, uint64_t until);
/* Queues a message at cell src created now (the generators' way in, for tests of single messages). */
int tr_net_inject(tr_net_t *n, unsigned src, unsigned dst, unsigned words);
/* Sums of every cell's counts. */
tr_counts_t tr_net_counts(const tr_net_t *n);
/* Messages not yet delivered: in source queues, being sent or inside the network. */
bool tr_net_empty(const tr_net_t *n);
/* The first error any cell met (empty when none). */
const char *tr_net_first_error(const tr_net_t *n);
uint64_t tr_net_hash(const tr_net_t *n);

/* The pattern's destination for a message from src (src itself: the cell sends nothing). */
unsigned tr_destination(const traffic_config_t *cfg, unsigned src, uint64_t *rng);
unsigned tr_size(const traffic_config_t *cfg, uint64_t *rng);
/* Hops of the dimension-order route (both legs the shorter way round). */
unsigned tr_hops(unsigned w, unsigned h, unsigned src, unsigned dst);

#endif
