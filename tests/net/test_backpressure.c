/*
 * Backpressure (docs/network.md, "Logical channels"): a word leaves a queue only with a credit, so when the
 * receiver stops reading, every queue of the pathway fills and the sender stalls on gate_out_full after
 * exactly as many words as the pathway buffers: queue_depth words in each of its hops + 1 channels (the
 * source's, one per cell on the way, the destination's). When the receiver resumes, every word arrives.
 */
#include "net_harness.h"

enum { W = 8, H = 8, EXTRA = 25, PAUSE = 3000 };

/* Binds gi0 to the pathway, does not read for PAUSE clocks, then reads and checks every word. */
static const emu_program_t *receiver(net_t *n, unsigned nwords)
{
    return net_asmf(n,
                    "        .include \"net.inc\"\n"
                    "_start: expect 0\n"
                    "        delay %u\n"
                    "        li   r3, %u\n"
                    "        li   r4, 1\n"
                    "2:      mov  r6, gi0\n"
                    "        bne  r6, r4, bad\n"
                    "        { add r4, r4, 1 ; loop r3, 2b }\n"
                    "        sub  a0, r4, 1\n"
                    "        halt\n"
                    "bad:    mov  a0, r6\n"
                    "        mov  a1, r4\n"
                    "        trap 1\n",
                    (unsigned)PAUSE, nwords);
}

static void check_backpressure(unsigned depth, const net_route_t *r)
{
    net_t n;
    net_init(&n, W, H);
    net_set(&n, "queue_depth", "%u", depth);
    net_create(&n);
    unsigned channels_on_path = r->hops + 1, capacity = depth * channels_on_path;
    unsigned nwords = capacity + EXTRA;
    /* The sender writes 1, 2, 3, ... (r4 = the next word) for capacity + EXTRA words. */
    net_load(&n, r->sx, r->sy, net_route_sender(&n, r, nwords, "        trailer 0\n        halt\n"), NULL, 0);
    net_load(&n, r->dx, r->dy, receiver(&n, nwords), NULL, 0);

    /* Well before the receiver resumes, the sender is stuck on go0 with exactly `capacity` words written. */
    assert_int_equal(net_run(&n, PAUSE - 100), EMU_RUN_LIMIT);
    const ca_t *s = net_ca(&n, r->sx, r->sy);
    if (s->s.state != CA_WAITING || s->s.wait_cause != CA_STALL_GATE_OUT_FULL)
        fail_msg("queue_depth %u, %u hops: the sender is %s, not waiting for room on go0", depth, r->hops,
                 ca_state_name(s->s.state));
    unsigned written = ca_reg(s, 4) - 1;
    if (written != capacity)
        fail_msg("queue_depth %u, %u hops (%u channels): the sender wrote %u words before it stalled, the pathway "
                 "buffers %u",
                 depth, r->hops, channels_on_path, written, capacity);

    /* Every queue of the pathway is full: walk it from the source's channel along the routes. */
    unsigned x = r->sx, y = r->sy, lc = net_reg(&n, r->sx, r->sy, 20);
    for (unsigned i = 0; i < channels_on_path; i++) {
        const coa_t *c = net_coa(&n, x, y);
        const coa_lc_t *l = &c->lc[lc];
        if (l->count != depth)
            fail_msg("queue_depth %u, %u hops: (%u,%u) channel %u holds %u words", depth, r->hops, x, y, lc, l->count);
        if (i + 1 < channels_on_path) {
            assert_int_equal(l->route.kind, COA_END_LINK);
            assert_int_equal(l->credits, 0);
            assert_int_equal(coa_lc_wait(c, lc, net_clock(&n)), COA_WAIT_NO_SPACE);
            net_step(W, H, &x, &y, (coa_dir_t)l->route.dir);
            lc = l->route.index;
        } else {
            assert_int_equal(x, r->dx);
            assert_int_equal(y, r->dy);
            assert_int_equal(l->route.kind, COA_END_GATE);
            assert_int_equal(coa_lc_wait(c, lc, net_clock(&n)), COA_WAIT_RECEIVER);
        }
    }

    /* Resuming delivers everything, in order. */
    net_run(&n, NET_LIMIT);
    net_expect_done(&n);
    assert_int_equal(net_a0(&n, r->dx, r->dy), nwords);
    assert_true(s->s.stats.stall_clocks[CA_STALL_GATE_OUT_FULL] > PAUSE / 2);
    net_free(&n);
}

static void test_sender_stalls_after_exactly_the_words_the_pathway_buffers(void **state)
{
    (void)state;
    static const unsigned depths[] = {1, 2, 5, 8};
    net_route_t r;
    for (unsigned d = 0; d < sizeof depths / sizeof depths[0]; d++)
        for (unsigned hops = 1; hops <= 6; hops++) {
            net_leg_t straight[] = {{COA_DIR_PY, hops}};
            net_route_walk(&r, W, H, 2, 1, straight, 1, COA_SIGN_GATE, 0, false);
            check_backpressure(depths[d], &r);
        }
}

static void test_backpressure_crosses_turns_and_dateline_pool_switches(void **state)
{
    (void)state;
    static const unsigned depths[] = {1, 3, 8, 16};
    net_route_t r;
    for (unsigned d = 0; d < sizeof depths / sizeof depths[0]; d++) {
        net_leg_t one_turn[] = {{COA_DIR_MX, 3}, {COA_DIR_MY, 2}};
        net_route_walk(&r, W, H, 1, 1, one_turn, 2, COA_SIGN_GATE, 0, true);
        check_backpressure(depths[d], &r);
        net_leg_t two_turns[] = {{COA_DIR_PX, 2}, {COA_DIR_PY, 2}, {COA_DIR_MX, 1}};
        net_route_walk(&r, W, H, 5, 6, two_turns, 3, COA_SIGN_GATE, 0, true);
        check_backpressure(depths[d], &r);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sender_stalls_after_exactly_the_words_the_pathway_buffers),
        cmocka_unit_test(test_backpressure_crosses_turns_and_dateline_pool_switches),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
