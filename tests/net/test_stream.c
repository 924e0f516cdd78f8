/*
 * Stream timing on an open pathway (docs/network.md, "Stream timing"): when the source writes word 0 at t0
 * and keeps the link busy, and the destination reads as fast as words come, word k is read at
 * t0 + link_clocks * k + h * hop_latency. Checked to the clock for words 0 and N-1, for straight routes,
 * one and two turns, routes over the dateline, and non-default link_clocks / hop_latency.
 */
#include "net_harness.h"

#include <stdio.h>

/* The sender opens the pathway, waits until the header has surely arrived, then streams 1..N and closes.
 * a0 = t0, the clock of the first data write. */
static const emu_program_t *sender(net_t *n, const net_route_t *r, unsigned nwords, unsigned delay)
{
    char tail[512];
    snprintf(tail, sizeof tail,
             "        .equ N, %u\n"
             "        delay %u\n"
             "        li   r3, N - 1\n"
             "        { mov go0, r4 ; rdcr r25, [CR_CLOCK_LO] ; add r4, r4, 1 }\n"
             "        .if N > 1\n"
             "2:      { mov go0, r4 ; add r4, r4, 1 ; loop r3, 2b }\n"
             "        .endif\n"
             "        trailer 0\n"
             "        mov  a0, r25\n"
             "        halt\n",
             nwords, delay);
    return net_route_sender(n, r, 0, tail);
}

/* The receiver waits on gi0 for the pathway; a0 = clock of reading word 0, a1 = of word N-1, a2 = sum. */
static const char receiver_src[] = "        .include \"net.inc\"\n"
                                   "_start: expect 0\n"
                                   "        li   r30, N - 2\n"
                                   "        { mov r6, gi0 ; rdcr r25, [CR_CLOCK_LO] }\n"
                                   "        .if N == 1\n"
                                   "        mov  r26, r25\n"
                                   "        .endif\n"
                                   "        .if N > 2\n"
                                   "1:      { add r6, r6, gi0 ; loop r30, 1b }\n"
                                   "        .endif\n"
                                   "        .if N > 1\n"
                                   "        { add r6, r6, gi0 ; rdcr r26, [CR_CLOCK_LO] }\n"
                                   "        .endif\n"
                                   "        mov  a0, r25\n"
                                   "        mov  a1, r26\n"
                                   "        mov  a2, r6\n"
                                   "        halt\n";

typedef struct stream_case {
    unsigned link_clocks, hop_latency, queue_depth;
} stream_case_t;

typedef struct stream_clocks {
    uint64_t t0, first, last;       /* measured */
    uint64_t want_first, want_last; /* the formula */
} stream_clocks_t;

/* Streams nwords over the route; returns the measured clocks and those of the formula. */
static stream_clocks_t run_stream(const stream_case_t *sc, unsigned w, unsigned h, const net_route_t *r,
                                  unsigned nwords)
{
    net_t n;
    net_init(&n, w, h);
    net_set(&n, "link_clocks", "%u", sc->link_clocks);
    net_set(&n, "hop_latency", "%u", sc->hop_latency);
    net_set(&n, "queue_depth", "%u", sc->queue_depth);
    net_create(&n);

    unsigned header_clocks = (r->hops + r->turns + 2) * (n.machine.agent.setup_clocks + 2) + r->hops * sc->hop_latency;
    const emu_program_t *s = sender(&n, r, nwords, 2 * header_clocks + 20);
    const emu_program_t *receiver = net_asmf(&n, "        .equ N, %u\n%s", nwords, receiver_src);
    net_load(&n, r->sx, r->sy, s, NULL, 0);
    net_load(&n, r->dx, r->dy, receiver, NULL, 0);
    net_run(&n, NET_LIMIT);
    net_expect_done(&n);
    assert_int_equal(net_reg(&n, r->dx, r->dy, 5), nwords * (nwords + 1) / 2);

    stream_clocks_t c;
    c.t0 = net_a0(&n, r->sx, r->sy);
    c.first = net_a0(&n, r->dx, r->dy);
    c.last = net_reg(&n, r->dx, r->dy, 4);
    c.want_first = c.t0 + (uint64_t)r->hops * sc->hop_latency;
    c.want_last = c.t0 + (uint64_t)sc->link_clocks * (nwords - 1) + (uint64_t)r->hops * sc->hop_latency;
    net_free(&n);
    return c;
}

/* Streams nwords over the route and checks the two clocks against the formula. */
static void check_stream(const stream_case_t *sc, unsigned w, unsigned h, const net_route_t *r, unsigned nwords)
{
    /* The formula holds while credits come back in time (docs/network.md). */
    assert_true(sc->queue_depth * sc->link_clocks >= 2 * sc->hop_latency + sc->link_clocks);
    stream_clocks_t c = run_stream(sc, w, h, r, nwords);
    if (c.first != c.want_first || c.last != c.want_last)
        fail_msg("%u words over %u hops (%u turns) from (%u,%u) to (%u,%u), link_clocks %u, hop_latency %u, "
                 "queue_depth %u: t0 %llu, word 0 read at %llu (formula %llu), word %u at %llu (formula %llu)",
                 nwords, r->hops, r->turns, r->sx, r->sy, r->dx, r->dy, sc->link_clocks, sc->hop_latency,
                 sc->queue_depth, (unsigned long long)c.t0, (unsigned long long)c.first,
                 (unsigned long long)c.want_first, nwords - 1, (unsigned long long)c.last,
                 (unsigned long long)c.want_last);
}

static const unsigned word_counts[] = {1, 2, 7, 40};

static void check_routes(const stream_case_t *sc)
{
    enum { W = 8, H = 8 };
    net_route_t r;
    for (unsigned k = 0; k < sizeof word_counts / sizeof word_counts[0]; k++) {
        for (unsigned hops = 1; hops <= 6; hops++) {
            /* straight on along +X */
            net_leg_t straight[] = {{COA_DIR_PX, hops}};
            net_route_walk(&r, W, H, 0, 0, straight, 1, COA_SIGN_GATE, 0, false);
            check_stream(sc, W, H, &r, word_counts[k]);
            /* one turn: +Y then -X (the other dimension order), across the -X dateline */
            net_leg_t one_turn[] = {{COA_DIR_PY, (hops + 1) / 2}, {COA_DIR_MX, hops / 2}};
            net_route_walk(&r, W, H, 1, 2, one_turn, 2, COA_SIGN_GATE, 0, true);
            check_stream(sc, W, H, &r, word_counts[k]);
        }
        /* two turns */
        net_leg_t two_turns[] = {{COA_DIR_PX, 2}, {COA_DIR_MY, 2}, {COA_DIR_MX, 1}};
        net_route_walk(&r, W, H, 6, 1, two_turns, 3, COA_SIGN_GATE, 0, true);
        check_stream(sc, W, H, &r, word_counts[k]);
    }
}

static void test_stream_reads_word_k_at_t0_plus_link_clocks_k_plus_hops_latency(void **state)
{
    (void)state;
    stream_case_t sc = {2, 2, 8};
    check_routes(&sc);
}

static void test_stream_formula_holds_with_one_clock_links_and_latency(void **state)
{
    (void)state;
    stream_case_t sc = {1, 1, 8};
    check_routes(&sc);
}

static void test_stream_formula_holds_with_long_hop_latency(void **state)
{
    (void)state;
    stream_case_t sc = {3, 5, 8};
    check_routes(&sc);
    stream_case_t fast_links = {1, 3, 8};
    check_routes(&fast_links);
}

/* The longest latency there is: a line's 64 slots, each a bit of its books, all in use. */
static void test_stream_formula_holds_with_the_longest_hop_latency(void **state)
{
    (void)state;
    stream_case_t sc = {2, COA_MAX_HOP_LATENCY, 64};
    check_routes(&sc);
}

static void test_stream_formula_holds_with_slow_links(void **state)
{
    (void)state;
    stream_case_t sc = {4, 1, 4};
    check_routes(&sc);
}

static void test_stream_formula_holds_with_deep_queues_and_long_latency(void **state)
{
    (void)state;
    stream_case_t sc = {2, 9, 12};
    check_routes(&sc);
}

/* With queues too shallow for the credits' round trip, the first word is still on time but the stream is
 * slower than one word per link_clocks: the condition of the formula matters. */
static void test_stream_is_slower_when_credits_come_back_late(void **state)
{
    (void)state;
    stream_case_t sc = {1, 4, 2};
    assert_false(sc.queue_depth * sc.link_clocks >= 2 * sc.hop_latency + sc.link_clocks);
    net_route_t r;
    net_leg_t legs[] = {{COA_DIR_PX, 3}};
    net_route_walk(&r, 8, 1, 0, 0, legs, 1, COA_SIGN_GATE, 0, false);
    stream_clocks_t c = run_stream(&sc, 8, 1, &r, 40);
    assert_int_equal(c.first, c.want_first);
    assert_true(c.last > c.want_last);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stream_reads_word_k_at_t0_plus_link_clocks_k_plus_hops_latency),
        cmocka_unit_test(test_stream_formula_holds_with_one_clock_links_and_latency),
        cmocka_unit_test(test_stream_formula_holds_with_long_hop_latency),
        cmocka_unit_test(test_stream_formula_holds_with_the_longest_hop_latency),
        cmocka_unit_test(test_stream_formula_holds_with_slow_links),
        cmocka_unit_test(test_stream_formula_holds_with_deep_queues_and_long_latency),
        cmocka_unit_test(test_stream_is_slower_when_credits_come_back_late),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
