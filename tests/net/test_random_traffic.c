/*
 * No word is lost, duplicated or reordered (docs/network.md, "Logical channels"): a property test over many
 * seeds of random arrays (2x2 .. 6x6), queue depths (1..16), pairs of cells, dimension-order routes either
 * way round each ring, and message lengths. Receivers check every word and trap on the first mismatch;
 * the spool version also checks the received memory from the host.
 */
#include "net_traffic.h"

#include <stdio.h>

/* Clocks that headers spent waiting for a free channel, over the whole array. */
static uint64_t no_channel_clocks(const net_t *n)
{
    uint64_t sum = 0;
    for (unsigned y = 0; y < n->machine.height; y++)
        for (unsigned x = 0; x < n->machine.width; x++)
            for (unsigned lc = 0; lc < n->machine.agent.channels; lc++)
                sum += net_coa(n, x, y)->lc_stats[lc].wait_clocks[COA_WAIT_NO_CHANNEL];
    return sum;
}

static void run_seeds(bool spools, unsigned first_seed)
{
    unsigned nseeds = net_quick() ? 50 : 60, max_words = net_quick() ? 60 : 300;
    unsigned words = 0, msgs = 0;
    uint64_t waits = 0;
    for (unsigned k = 0; k < nseeds; k++) {
        uint64_t seed = first_seed + k;
        net_rng_t rng = {seed};
        unsigned w = net_rng_range(&rng, 2, 6), h = net_rng_range(&rng, 2, 6);
        net_traffic_t t;
        net_traffic_make(&t, seed, w, h, spools, max_words);
        net_t n;
        net_traffic_machine(&t, &n);
        net_create(&n);
        net_traffic_load(&t, &n);
        net_run(&n, NET_LIMIT);
        net_traffic_check(&t, &n);
        words += net_traffic_words(&t);
        msgs += t.nmsgs;
        waits += no_channel_clocks(&n);
        net_free(&n);
        net_traffic_free(&t);
    }
    print_message("%u seeds, %u messages, %u words, all delivered in order; headers waited %llu clocks for "
                  "channels\n",
                  nseeds, msgs, words, (unsigned long long)waits);
    /* The patterns are dense enough that pathways compete for channels, not only for links. */
    assert_true(waits > 0);
}

static void test_random_gate_traffic_delivers_every_word_once_in_order(void **state)
{
    (void)state;
    run_seeds(false, 1000);
}

static void test_random_spool_traffic_delivers_every_word_once_in_order(void **state)
{
    (void)state;
    run_seeds(true, 5000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_gate_traffic_delivers_every_word_once_in_order),
        cmocka_unit_test(test_random_spool_traffic_delivers_every_word_once_in_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
