/*
 * Statistics (docs/network.md, "Statistics"): per link, words carried and busy clocks; per channel, words in
 * and out, pathways set up, time-weighted mean and maximum occupancy, and clocks spent waiting by reason
 * (no_data, no_space, lost_turn, no_channel, setup, receiver, asleep).
 */
#include "net_harness.h"

enum { W = 5, H = 1, HOPS = 3, WORDS = 60, PAUSE = 400 };

/* (0,0) streams WORDS words to gi0 of (3,0) and closes; (3,0) reads nothing for PAUSE clocks, then all.
 * The sender reads its +X link's word and busy counts into a0, a1 at the end. */
static void run_stream(net_t *n)
{
    net_init(n, W, H);
    net_create(n);
    net_route_t r;
    net_leg_t legs[] = {{COA_DIR_PX, HOPS}};
    net_route_walk(&r, W, H, 0, 0, legs, 1, COA_SIGN_GATE, 0, false);
    net_load(n, 0, 0,
             net_route_sender(n, &r, WORDS,
                              "        trailer 0\n"
                              "        delay 800\n"
                              "        rdcr a0, [COA_LINK_WORDS + DIR_PX * 2]\n"
                              "        rdcr a1, [COA_LINK_WORDS + DIR_PX * 2 + 1]\n"
                              "        halt\n"),
             NULL, 0);
    net_load(n, HOPS, 0,
             net_asmf(n,
                      "        .include \"net.inc\"\n"
                      "_start: expect 0\n"
                      "        delay %u\n"
                      "        li   r30, %u\n"
                      "1:      { add r6, r6, gi0 ; loop r30, 1b }\n"
                      "        wait_unbound 0\n"
                      "        halt\n",
                      (unsigned)PAUSE, (unsigned)WORDS),
             NULL, 0);
    net_run(n, NET_LIMIT);
    net_expect_done(n);
}

/* The channel a pathway uses at (x, 0), found by its pathway count (one pathway in the whole run). */
static unsigned pathway_channel(const net_t *n, unsigned x)
{
    const coa_t *c = net_coa(n, x, 0);
    for (unsigned lc = 0; lc < n->machine.agent.channels; lc++)
        if (c->lc_stats[lc].pathways == 1)
            return lc;
    fail_msg("no channel of (%u,0) carried the pathway", x);
    return 0;
}

static void test_links_and_channels_count_every_word_of_a_pathway(void **state)
{
    (void)state;
    net_t n;
    run_stream(&n);
    /* Over each link: the destination's sign, the data and the trailer (the source's own sign stays). */
    uint64_t on_link = 1 + WORDS + 1;
    for (unsigned x = 0; x < HOPS; x++) {
        const coa_link_stats_t *l = &net_coa(&n, x, 0)->link_stats[COA_DIR_PX];
        assert_int_equal(l->words, on_link);
        assert_int_equal(l->busy_clocks, on_link * n.machine.agent.link_clocks);
    }
    assert_int_equal(net_coa(&n, HOPS, 0)->link_stats[COA_DIR_PX].words, 0);
    /* The program reads the same through COA_LINK_WORDS. */
    assert_int_equal(net_a0(&n, 0, 0), on_link);
    assert_int_equal(net_reg(&n, 0, 0, 4), on_link * n.machine.agent.link_clocks);
    /* Every channel of the pathway took in and gave out the same words: both signs at the source. */
    for (unsigned x = 0; x <= HOPS; x++) {
        const coa_lc_stats_t *s = &net_coa(&n, x, 0)->lc_stats[pathway_channel(&n, x)];
        uint64_t want = on_link + (x == 0 ? 1 : 0);
        assert_int_equal(s->words_in, want);
        assert_int_equal(s->words_out, want);
        assert_int_equal(s->pathways, 1);
        assert_int_equal(s->occupancy_max, n.machine.agent.queue_depth); /* the receiver paused */
    }
    net_free(&n);
}

static void test_waits_are_counted_by_reason(void **state)
{
    (void)state;
    net_t n;
    run_stream(&n);
    const coa_lc_stats_t *src = &net_coa(&n, 0, 0)->lc_stats[pathway_channel(&n, 0)];
    const coa_lc_stats_t *mid = &net_coa(&n, 1, 0)->lc_stats[pathway_channel(&n, 1)];
    const coa_lc_stats_t *dst = &net_coa(&n, HOPS, 0)->lc_stats[pathway_channel(&n, HOPS)];
    /* A cell on the way decodes the sign for setup_clocks clocks, exactly. */
    assert_int_equal(mid->wait_clocks[COA_WAIT_SETUP], n.machine.agent.setup_clocks);
    /* While the receiver pauses, the queues upstream have no credit and the last one waits for the CA. */
    assert_true(mid->wait_clocks[COA_WAIT_NO_SPACE] > PAUSE / 2);
    assert_true(src->wait_clocks[COA_WAIT_NO_SPACE] > PAUSE / 2);
    assert_true(dst->wait_clocks[COA_WAIT_RECEIVER] > PAUSE / 2);
    /* Nobody else wanted the links or channels, and nobody slept. */
    for (unsigned x = 0; x <= HOPS; x++) {
        const coa_lc_stats_t *s = &net_coa(&n, x, 0)->lc_stats[pathway_channel(&n, x)];
        assert_int_equal(s->wait_clocks[COA_WAIT_LOST_TURN], 0);
        assert_int_equal(s->wait_clocks[COA_WAIT_NO_CHANNEL], 0);
        assert_int_equal(s->wait_clocks[COA_WAIT_ASLEEP], 0);
    }
    net_free(&n);
}

/* Two channels on one link each lose turns to the other; a sleeping agent's channels wait asleep. */
static void test_lost_turns_and_sleep_are_counted(void **state)
{
    (void)state;
    enum { NAP = 50 };
    net_t n;
    net_init(&n, 4, 1);
    net_create(&n);
    net_load(&n, 0, 0,
             net_asmf(&n,
                      "        .include \"net.inc\"\n"
                      "_start: li   r5, 1\n"
                      "        wrcr r5, [COA_SLEEP]\n"
                      "        open 0\n"
                      "        sign 0, 0, 0, DIR_PX\n"
                      "        sign 0, 1, 0, SIGN_GATE, 0\n"
                      "        open 1\n"
                      "        sign 1, 0, 0, DIR_PX\n"
                      "        sign 1, 1, 0, SIGN_GATE, 1\n"
                      "        delay %u\n"
                      "        wrcr zero, [COA_SLEEP]\n"
                      "        li   r3, 40\n"
                      "1:      { mov go0, r3 ; mov go1, r3 ; loop r3, 1b }\n"
                      "        halt\n",
                      (unsigned)NAP),
             NULL, 0);
    net_load(&n, 1, 0,
             net_asm(&n, "        .include \"net.inc\"\n"
                         "_start: expect 0\n"
                         "        expect 1\n"
                         "        li   r3, 40\n"
                         "1:      { add r6, r6, gi0 ; add r7, r7, gi1 ; loop r3, 1b }\n"
                         "        halt\n"),
             NULL, 0);
    net_run(&n, NET_LIMIT);
    net_expect_done(&n);
    const coa_t *c = net_coa(&n, 0, 0);
    for (unsigned lc = 0; lc < 2; lc++) {
        /* asleep from the first sign until the wake-up, about NAP clocks */
        assert_true(c->lc_stats[lc].wait_clocks[COA_WAIT_ASLEEP] >= NAP);
        assert_true(c->lc_stats[lc].wait_clocks[COA_WAIT_ASLEEP] <= NAP + 20);
        assert_true(c->lc_stats[lc].wait_clocks[COA_WAIT_LOST_TURN] > 20);
    }
    net_free(&n);
}

/* The time-weighted occupancy covers the whole run: a channel that holds 3 words from the clock they were
 * written to the end of the run adds 3 for every one of those clocks. */
static void test_time_weighted_occupancy_counts_until_the_end_of_the_run(void **state)
{
    (void)state;
    enum { HOLD = 200 };
    net_t n;
    net_init(&n, 2, 1);
    net_create(&n);
    net_load(&n, 0, 0,
             net_asmf(&n,
                      "        .include \"net.inc\"\n"
                      "_start: li   r5, 1\n"
                      "        wrcr r5, [COA_SLEEP]\n" /* the words stay where they are */
                      "        li   r5, (END_LINK << 12) | (DIR_PX << 8) | 8\n"
                      "        wrcr r5, [COA_LC + 3 * 8 + LC_ROUTE]\n"
                      "        li   r5, 3\n"
                      "        wrcr r5, [COA_GATE_OUT0]\n"
                      "        { mov go0, r5 ; rdcr r25, [CR_CLOCK_LO] }\n"
                      "        mov  go0, r5\n"
                      "        mov  go0, r5\n"
                      "        delay %u\n"
                      "        halt\n",
                      (unsigned)HOLD),
             NULL, 0);
    net_run(&n, NET_LIMIT);
    net_expect_done(&n);
    const coa_lc_stats_t *s = &net_coa(&n, 0, 0)->lc_stats[3];
    uint64_t t1 = net_reg(&n, 0, 0, 25), end = emu_array_cycles(n.array);
    /* one word from t1, two from t1 + 1, three from t1 + 2 until the end */
    uint64_t want = 1 + 2 + 3 * (end - (t1 + 2));
    assert_int_equal(s->occupancy_max, 3);
    if (s->occupancy_sum + 3 < want || s->occupancy_sum > want + 3)
        fail_msg("3 words held from clock %llu to the end of the run at %llu: occupancy sum %llu, want about %llu",
                 (unsigned long long)t1, (unsigned long long)end, (unsigned long long)s->occupancy_sum,
                 (unsigned long long)want);
    net_free(&n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_links_and_channels_count_every_word_of_a_pathway),
        cmocka_unit_test(test_waits_are_counted_by_reason),
        cmocka_unit_test(test_lost_turns_and_sleep_are_counted),
        cmocka_unit_test(test_time_weighted_occupancy_counts_until_the_end_of_the_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
