/*
 * Street signs and trailers (docs/network.md, "Tagged words, street signs and trailers"): every sign takes
 * setup_clocks at the head of a channel; a header goes straight on one hop every setup_clocks + hop_latency
 * clocks and turns cost setup_clocks more; sinks at a gate, a spool or the arrival queue; the trailer
 * frees every channel of the pathway and the neighbours learn it (REMOTE_FREE).
 */
#include "net_harness.h"

#include <stdio.h>

enum { W = 8, H = 8, NWORDS = 4 };

typedef enum sink_kind { SINK_GATE, SINK_SPOOL, SINK_QUEUE } sink_kind_t;

static const coa_sign_action_t sink_action[] = {COA_SIGN_GATE, COA_SIGN_SPOOL, COA_SIGN_QUEUE};
enum { SINK_INDEX = 1 }; /* gi1, spool 1 */

/* Sends the header (r23 = clock of the first sign), NWORDS words 1..NWORDS, waits, then the trailer. */
static const emu_program_t *sender(net_t *n, const net_route_t *r)
{
    return net_route_sender(n, r, NWORDS,
                            "        delay 300\n"
                            "        trailer 0, 77\n"
                            "        mov  a0, r23\n"
                            "        halt\n");
}

/* Receives the NWORDS words through the sink (a0 = their sum), waits until the pathway is gone, then
 * lingers so that the last credits and frees land before the run ends. */
static const emu_program_t *receiver(net_t *n, sink_kind_t kind)
{
    static const char *const bodies[] = {
        [SINK_GATE] = "        expect 1\n"
                      "        li   r3, NWORDS\n"
                      "1:      { add r6, r6, gi1 ; loop r3, 1b }\n"
                      "        wait_unbound 1\n",
        [SINK_SPOOL] = "        spool_set 1, SPOOL_ADDR, buf\n"
                       "        spool_set 1, SPOOL_STRIDE, 4\n"
                       "        spool_set 1, SPOOL_COUNT, NWORDS + 1\n" /* one more: the trailer ends it (bit 1) */
                       "        spool_set 1, SPOOL_CTRL, SPOOL_RECEIVE\n"
                       "        spool_wait 1, a1\n"
                       "        la   r8, buf\n"
                       "        li   r3, NWORDS\n"
                       "2:      ldw  r9, [r8]\n"
                       "        { add r6, r6, r9 ; add r8, r8, 4 ; loop r3, 2b }\n",
        [SINK_QUEUE] = "1:      rdcr r5, [COA_ARRIVALS]\n"
                       "        beqz r5, 1b\n"
                       "        rdcr r5, [COA_ARRIVAL]\n"
                       "        rdcr a1, [COA_ARRIVALS]\n" /* 0 again once popped */
                       "        wrcr r5, [COA_GATE_IN1]\n"
                       "        li   r3, NWORDS\n"
                       "1:      { add r6, r6, gi1 ; loop r3, 1b }\n"
                       "        wait_unbound 1\n",
    };
    return net_asmf(n,
                    "        .include \"net.inc\"\n"
                    "        .equ NWORDS, %u\n"
                    "_start:\n%s"
                    "        delay 200\n"
                    "        mov  a0, r6\n"
                    "        halt\n"
                    "        .bss\n"
                    "buf:    .space 64\n",
                    (unsigned)NWORDS, bodies[kind]);
}

typedef struct bind_probe {
    sink_kind_t kind;
    unsigned x, y;
} bind_probe_t;

/* Whether the pathway's last sign has been acted on at the destination. */
static bool bound(const net_t *n, void *user)
{
    const bind_probe_t *b = user;
    const coa_t *c = net_coa(n, b->x, b->y);
    switch (b->kind) {
    case SINK_GATE: return c->gate_in_lc[SINK_INDEX] < n->machine.agent.channels;
    case SINK_SPOOL: return c->spool[SINK_INDEX].lc < n->machine.agent.channels;
    default: return c->narrivals > 0;
    }
}

/* After the pathway closed: every channel of every cell free and empty, and every cell again believes all
 * of its neighbours' reserved channels free. */
static void expect_all_free(const net_t *n)
{
    for (unsigned y = 0; y < n->machine.height; y++)
        for (unsigned x = 0; x < n->machine.width; x++) {
            const coa_t *c = net_coa(n, x, y);
            for (unsigned lc = 0; lc < n->machine.agent.channels; lc++) {
                if (c->lc[lc].state != COA_LC_FREE || c->lc[lc].count != 0)
                    fail_msg("(%u,%u) channel %u is %s with %u words after the trailer", x, y, lc,
                             coa_lc_state_name((coa_lc_state_t)c->lc[lc].state), c->lc[lc].count);
            }
            for (unsigned d = 0; d < COA_NUM_DIRS; d++) {
                uint64_t reserved = 0;
                for (unsigned p = 0; p < COA_NUM_POOLS; p++)
                    reserved |= c->link_pool[d][p];
                if (c->remote_free[d] != reserved)
                    fail_msg("(%u,%u) towards %s: REMOTE_FREE 0x%llx, reserved 0x%llx", x, y,
                             coa_dir_name((coa_dir_t)d), (unsigned long long)c->remote_free[d],
                             (unsigned long long)reserved);
            }
            assert_int_equal(c->gate_in_lc[SINK_INDEX], COA_NONE);
            assert_int_equal(c->gate_out_lc[0], COA_NONE);
        }
}

/* Opens the route, finds the clock at which the destination binds the sink, and checks it against
 * docs/network.md: each sign takes setup_clocks where it is decoded; a hop adds hop_latency. Decoded are:
 * the source's own sign, one sign at every cell that sends the header on (h of them, the source included),
 * one more at every turn (and pool switch), and the last sign at the destination. */
static void check_header(unsigned setup, unsigned latency, const net_route_t *r, sink_kind_t kind, bool timing)
{
    net_t n;
    net_init(&n, W, H);
    net_set(&n, "setup_clocks", "%u", setup);
    net_set(&n, "hop_latency", "%u", latency);
    net_create(&n);
    net_load(&n, r->sx, r->sy, sender(&n, r), NULL, 0);
    net_load(&n, r->dx, r->dy, receiver(&n, kind), NULL, 0);
    bind_probe_t probe = {kind, r->dx, r->dy};
    assert_true(net_run_until(&n, 100000, bound, &probe));
    uint64_t bound_at = net_clock(&n) - 1;
    net_run(&n, NET_LIMIT);
    net_expect_done(&n);

    uint64_t a = net_a0(&n, r->sx, r->sy);
    uint64_t want = a + (uint64_t)setup * (1 + r->hops + r->turns + 1) + (uint64_t)latency * r->hops;
    if (timing && bound_at != want)
        fail_msg("header of %u signs over %u hops with %u turns, setup_clocks %u, hop_latency %u: first sign "
                 "written at %llu, sink bound at %llu; docs/network.md gives %llu",
                 r->nsigns, r->hops, r->turns, setup, latency, (unsigned long long)a, (unsigned long long)bound_at,
                 (unsigned long long)want);
    assert_int_equal(net_a0(&n, r->dx, r->dy), NWORDS * (NWORDS + 1) / 2);
    if (kind == SINK_SPOOL)
        assert_int_equal(net_reg(&n, r->dx, r->dy, 4), COA_SPOOL_DONE | COA_SPOOL_TRAILER);
    if (kind == SINK_QUEUE)
        assert_int_equal(net_reg(&n, r->dx, r->dy, 4), 0);
    expect_all_free(&n);
    net_free(&n);
}

static void check_routes(unsigned setup, unsigned latency, sink_kind_t kind, bool timing)
{
    net_route_t r;
    for (unsigned hops = 1; hops <= 5; hops++) {
        net_leg_t straight[] = {{COA_DIR_MY, hops}};
        net_route_walk(&r, W, H, 3, 6, straight, 1, sink_action[kind], SINK_INDEX, false);
        check_header(setup, latency, &r, kind, timing);
    }
    net_leg_t one_turn[] = {{COA_DIR_PX, 2}, {COA_DIR_PY, 3}};
    net_route_walk(&r, W, H, 1, 1, one_turn, 2, sink_action[kind], SINK_INDEX, false);
    check_header(setup, latency, &r, kind, timing);
    net_leg_t two_turns[] = {{COA_DIR_MX, 1}, {COA_DIR_MY, 1}, {COA_DIR_PX, 3}};
    net_route_walk(&r, W, H, 1, 1, two_turns, 3, sink_action[kind], SINK_INDEX, false);
    check_header(setup, latency, &r, kind, timing);
    /* over the dateline: the pool switch is one more sign consumed on the way */
    net_leg_t wrap[] = {{COA_DIR_PX, 3}};
    net_route_walk(&r, W, H, 6, 4, wrap, 1, sink_action[kind], SINK_INDEX, true);
    assert_int_equal(r.turns, 1);
    check_header(setup, latency, &r, kind, timing);
}

static void test_header_advances_one_hop_per_setup_plus_latency_and_turns_cost_setup(void **state)
{
    (void)state;
    check_routes(2, 2, SINK_GATE, true);
}

static void test_header_timing_follows_setup_clocks_and_hop_latency(void **state)
{
    (void)state;
    check_routes(3, 1, SINK_GATE, true);
    check_routes(5, 4, SINK_GATE, true);
}

static void test_header_timing_is_the_same_at_spool_and_queue_sinks(void **state)
{
    (void)state;
    check_routes(2, 2, SINK_SPOOL, true);
    check_routes(2, 2, SINK_QUEUE, true);
}

static void test_header_ending_at_a_gate_binds_it_and_the_trailer_unbinds_it(void **state)
{
    (void)state;
    check_routes(2, 2, SINK_GATE, false);
}

static void test_header_ending_at_a_spool_binds_it_and_the_trailer_ends_the_receive(void **state)
{
    (void)state;
    check_routes(2, 2, SINK_SPOOL, false);
}

static void test_header_ending_in_the_arrival_queue_waits_for_the_program(void **state)
{
    (void)state;
    check_routes(2, 2, SINK_QUEUE, false);
}

/* With a single reservable channel towards +X, pathways over the same link can only follow each other:
 * each trailer must free the channel, and its FREE reach the sender, for the next header to go on. */
static void test_trailers_free_the_channel_for_the_next_pathway_many_times(void **state)
{
    (void)state;
    enum { PATHWAYS = 25 };
    net_t n;
    net_init(&n, 4, 1);
    net_create(&n);
    const emu_program_t *s = net_asmf(&n,
                                      "        .include \"net.inc\"\n"
                                      "_start: li   r5, 1 << 9\n"
                                      "        wrcr r5, [COA_LINK_POOL + DIR_PX * 8 + 0 * 2]\n"
                                      "        wrcr zero, [COA_LINK_POOL + DIR_PX * 8 + 1 * 2]\n"
                                      "        li   r30, %u\n"
                                      "        li   r4, 0\n"
                                      "1:      open 0\n"
                                      "        sign 0, 0, 0, DIR_PX\n"
                                      "        sign 0, 2, 0, SIGN_GATE, 0\n"
                                      "        { mov go0, r4 ; add r4, r4, 1 }\n"
                                      "        { mov go0, r4 ; add r4, r4, 1 }\n"
                                      "        trailer 0\n"
                                      "        delay 100\n" /* the receiver binds gi0 again meanwhile */
                                      "        loop r30, 1b\n"
                                      "        halt\n",
                                      (unsigned)PATHWAYS);
    const emu_program_t *rcv = net_asmf(&n,
                                        "        .include \"net.inc\"\n"
                                        "_start: li   r30, %u\n"
                                        "        li   r4, 0\n"
                                        "1:      expect 0\n"
                                        "        mov  r6, gi0\n"
                                        "        bne  r6, r4, bad\n"
                                        "        add  r4, r4, 1\n"
                                        "        mov  r6, gi0\n"
                                        "        bne  r6, r4, bad\n"
                                        "        add  r4, r4, 1\n"
                                        "        wait_unbound 0\n"
                                        "        loop r30, 1b\n"
                                        "        mov  a0, r4\n"
                                        "        halt\n"
                                        "bad:    trap 1\n",
                                        (unsigned)PATHWAYS);
    net_load(&n, 0, 0, s, NULL, 0);
    net_load(&n, 2, 0, rcv, NULL, 0);
    net_run(&n, NET_LIMIT);
    net_expect_done(&n);
    assert_int_equal(net_a0(&n, 2, 0), 2 * PATHWAYS);
    /* Every pathway took the one channel 9 of (1,0): 25 set-ups of it. */
    assert_int_equal(net_coa(&n, 1, 0)->lc_stats[9].pathways, PATHWAYS);
    net_free(&n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_header_advances_one_hop_per_setup_plus_latency_and_turns_cost_setup),
        cmocka_unit_test(test_header_timing_follows_setup_clocks_and_hop_latency),
        cmocka_unit_test(test_header_timing_is_the_same_at_spool_and_queue_sinks),
        cmocka_unit_test(test_header_ending_at_a_gate_binds_it_and_the_trailer_unbinds_it),
        cmocka_unit_test(test_header_ending_at_a_spool_binds_it_and_the_trailer_ends_the_receive),
        cmocka_unit_test(test_header_ending_in_the_arrival_queue_waits_for_the_program),
        cmocka_unit_test(test_trailers_free_the_channel_for_the_next_pathway_many_times),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
