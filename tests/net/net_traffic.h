/*
 * Randomized traffic for the property tests: random pairs of cells open pathways along random dimension-order
 * routes (X then Y, either way round each ring, pools switched at the datelines), stream random numbers of
 * words and close them; receivers check every word and trap on the first one out of place.
 *
 * Word j of message m is (m << 20) | j, so a lost, duplicated, reordered or misrouted word is a mismatch.
 *
 * Gates: cells are senders (go0) or receivers (gi0 bound with COA_EXPECT), one message each, so every
 * receiver always reads and the only waits between pathways are for channels, which the datelines keep
 * acyclic. Spools: every cell sends up to two messages from memory with one spool each (signs, data and
 * trailer: TAG_HEAD / TAG_TAIL) and receives up to four with receiving spools (LC = ~0), all at once.
 */
#ifndef TESTS_NET_TRAFFIC_H
#define TESTS_NET_TRAFFIC_H

#include "net_harness.h"

enum {
    NET_TRAFFIC_MAX_SENDS = 2,    /* per cell, spool mode: spools 7 and 6 */
    NET_TRAFFIC_MAX_RECEIVES = 4, /* per cell, spool mode: spools 0..3 */
};

typedef struct net_msg {
    unsigned id;
    unsigned src, dst; /* cell index y * w + x */
    unsigned words;
    unsigned src_spool; /* spool mode */
    unsigned dst_slot;  /* spool mode: receiving spool at dst */
    net_route_t route;
} net_msg_t;

typedef struct net_traffic {
    uint64_t seed;
    unsigned w, h, queue_depth;
    bool spools;
    unsigned nmsgs;
    net_msg_t *msgs;
    const emu_program_t **progs; /* per cell, after net_traffic_load; NULL where the cell has nothing to do */
} net_traffic_t;

/* A random pattern on a w x h array with words per message in 0..max_words and a random queue depth. */
void net_traffic_make(net_traffic_t *t, uint64_t seed, unsigned w, unsigned h, bool spools, unsigned max_words);
void net_traffic_free(net_traffic_t *t);
/* net_init with the pattern's size and queue depth (the caller may change more keys, then net_create). */
void net_traffic_machine(const net_traffic_t *t, net_t *n);
/* Assembles and loads the programs of every cell taking part. */
void net_traffic_load(net_traffic_t *t, net_t *n);
/* After the run: every cell halted and every message arrived whole (a failure names the seed). */
void net_traffic_check(const net_traffic_t *t, const net_t *n);
/* Words in all messages. */
unsigned net_traffic_words(const net_traffic_t *t);

#endif
