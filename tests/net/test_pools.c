/*
 * Pools (docs/network.md, "Pools and the dateline"): a header that finds no free channel of its pool in the
 * next cell waits at the head of its channel (reason no_channel) and goes on when a trailer frees one and
 * the neighbour's FREE comes back. The default reservation (pool 0 = channels 8+2d and 9+2d, pool 1 = 16+d)
 * and a reservation narrowed through LINK_POOL.
 */
#include "net_harness.h"

enum { HOLD = 400, MID = 200, A_WORDS = 10, B_WORDS = 3 };

/* Cell (0,0) opens pathway A (go0) to gi0 of (2,0) and sends A_WORDS; opens pathway B (go1) to gi1 of (2,0)
 * and writes B_WORDS behind its header; holds A open for HOLD clocks (reading B's channel WAIT register into
 * r26 meanwhile), then closes A (r27 = clock of A's trailer) and B. `pool_setup` narrows the reservation. */
static const emu_program_t *two_pathways_sender(net_t *n, const char *pool_setup)
{
    return net_asmf(n,
                    "        .include \"net.inc\"\n"
                    "_start:\n%s"
                    "        open 0\n"
                    "        sign 0, 0, 0, DIR_PX\n"
                    "        sign 0, 2, 0, SIGN_GATE, 0\n"
                    "        li   r3, %u\n"
                    "        li   r4, 100\n"
                    "1:      { mov go0, r4 ; add r4, r4, 1 ; loop r3, 1b }\n"
                    "        open 1\n"
                    "        mov  r24, r20\n"
                    "        sign 1, 0, 0, DIR_PX\n"
                    "        sign 1, 2, 0, SIGN_GATE, 1\n"
                    "        li   r3, %u\n"
                    "        li   r4, 200\n"
                    "2:      { mov go1, r4 ; add r4, r4, 1 ; loop r3, 2b }\n"
                    "        delay %u\n"
                    "        sll  r25, r24, 3\n"
                    "        rdcr r26, [r25 + COA_LC + LC_WAIT]\n"
                    "        delay %u\n"
                    "        tagged_at 0, TRAILER_KIND, r27\n"
                    "        trailer 1\n"
                    "        halt\n",
                    pool_setup, (unsigned)A_WORDS, (unsigned)B_WORDS, (unsigned)HOLD / 2, (unsigned)HOLD / 2);
}

/* (2,0) reads A's words on gi0, then B's on gi1; r25 = clock of the first B word, a0 = the sum of all. */
static const char two_pathways_receiver[] = "        .include \"net.inc\"\n"
                                            "_start: expect 0\n"
                                            "        expect 1\n"
                                            "        li   r3, A_WORDS\n"
                                            "1:      { add r6, r6, gi0 ; loop r3, 1b }\n"
                                            "        { add r6, r6, gi1 ; rdcr r25, [CR_CLOCK_LO] }\n"
                                            "        li   r3, B_WORDS - 1\n"
                                            "2:      { add r6, r6, gi1 ; loop r3, 2b }\n"
                                            "        mov  a0, r6\n"
                                            "        halt\n";

/* A receiver that only binds both gates to the pathways that will end there (they end with no data, or
 * nobody needs the data): their trailers free the channels without the CA. */
static const char bind_both_gates[] = "        .include \"net.inc\"\n"
                                      "_start: expect 0\n"
                                      "        expect 1\n"
                                      "        halt\n";

static unsigned sum_words(unsigned first, unsigned count)
{
    return count * first + count * (count - 1) / 2;
}

/* Runs the two-pathway scenario; checks B waits for a channel while A holds it, then completes. */
static void check_second_header_waits(net_t *n, const char *pool_setup)
{
    const emu_program_t *s = two_pathways_sender(n, pool_setup);
    const emu_program_t *r = net_asmf(n, "        .equ A_WORDS, %u\n        .equ B_WORDS, %u\n%s", (unsigned)A_WORDS,
                                      (unsigned)B_WORDS, two_pathways_receiver);
    net_load(n, 0, 0, s, NULL, 0);
    net_load(n, 2, 0, r, NULL, 0);

    /* In the middle of the hold: B's header sits at (0,0), its data has not reached (2,0). */
    assert_int_equal(net_run(n, MID), EMU_RUN_LIMIT);
    const coa_t *src = net_coa(n, 0, 0), *dst = net_coa(n, 2, 0);
    unsigned b = net_reg(n, 0, 0, 24);
    assert_true(b < n->machine.agent.channels);
    assert_int_equal(src->lc[b].state, COA_LC_HEADER);
    assert_int_equal(coa_lc_wait(src, b, net_clock(n)), COA_WAIT_NO_CHANNEL);
    assert_int_equal(src->lc[b].count, 1 + B_WORDS); /* its sign towards (2,0) and the data */
    assert_int_equal(dst->gate_in_lc[1], COA_EXPECT);
    assert_int_equal(net_ca(n, 2, 0)->s.state, CA_WAITING);
    assert_int_equal(net_ca(n, 2, 0)->s.wait_gate, 1);

    net_run(n, NET_LIMIT);
    net_expect_done(n);
    /* The program saw the reason in the channel's WAIT register, and the statistics counted it. */
    assert_int_equal(net_reg(n, 0, 0, 26), COA_WAIT_NO_CHANNEL);
    assert_true(src->lc_stats[b].wait_clocks[COA_WAIT_NO_CHANNEL] >= HOLD / 2);
    /* B's first word arrived only after A's trailer left. */
    uint32_t trailer_at = net_reg(n, 0, 0, 27), first_b = net_reg(n, 2, 0, 25);
    assert_true(first_b > trailer_at);
    assert_int_equal(net_a0(n, 2, 0), sum_words(100, A_WORDS) + sum_words(200, B_WORDS));
}

static void test_header_waits_for_the_only_channel_of_its_pool_until_a_trailer_frees_it(void **state)
{
    (void)state;
    net_t n;
    net_init(&n, 4, 1);
    net_create(&n);
    /* Towards +X only channel 8 of (1,0), in pool 0; no pool 1. */
    check_second_header_waits(&n, "        li   r5, 1 << 8\n"
                                  "        wrcr r5, [COA_LINK_POOL + DIR_PX * 8 + 0 * 2]\n"
                                  "        wrcr zero, [COA_LINK_POOL + DIR_PX * 8 + 1 * 2]\n");
    /* Both pathways used channel 8 of (1,0), one after the other. */
    assert_int_equal(net_coa(&n, 1, 0)->lc_stats[8].pathways, 2);
    assert_int_equal(net_coa(&n, 1, 0)->lc_stats[9].pathways, 0);
    net_free(&n);
}

static void test_header_waits_when_the_neighbour_channel_is_reserved_in_the_high_word(void **state)
{
    (void)state;
    net_t n;
    net_init(&n, 4, 1);
    net_set(&n, "channels", "%u", 40);
    net_create(&n);
    /* Pool 0 towards +X: only channel 35 of (1,0), set through the high word of LINK_POOL. */
    check_second_header_waits(&n, "        wrcr zero, [COA_LINK_POOL + DIR_PX * 8 + 0 * 2]\n"
                                  "        li   r5, 1 << (35 - 32)\n"
                                  "        wrcr r5, [COA_LINK_POOL + DIR_PX * 8 + 0 * 2 + 1]\n"
                                  "        wrcr zero, [COA_LINK_POOL + DIR_PX * 8 + 1 * 2]\n"
                                  "        li   r5, 1 << (35 - 32)\n"
                                  "        wrcr r5, [COA_REMOTE_FREE + DIR_PX * 2 + 1]\n");
    assert_int_equal(net_coa(&n, 1, 0)->lc_stats[35].pathways, 2);
    net_free(&n);
}

/* With the default reservation, two pathways in pool 0 take channels 8 and 9 of the +X neighbour; a third
 * header in pool 0 waits although pool 1's channel 16 is free, and proceeds when the first trailer frees
 * a channel. The third message is sent by a spool (signs, data and trailer from memory). */
static void test_third_pool0_header_waits_for_a_trailer_with_the_default_reservation(void **state)
{
    (void)state;
    enum { C_WORDS = 5 };
    net_t n;
    net_init(&n, 4, 1);
    net_create(&n);
    const emu_program_t *s =
        net_asmf(&n,
                 "        .include \"net.inc\"\n"
                 "_start: open 0\n"
                 "        sign 0, 0, 0, DIR_PX\n"
                 "        sign 0, 1, 0, SIGN_GATE, 0\n"
                 "        open 1\n"
                 "        sign 1, 0, 0, DIR_PX\n"
                 "        sign 1, 1, 0, SIGN_GATE, 1\n"
                 "        rdcr r29, [COA_ALLOC]\n" /* the third pathway, from spool 0 */
                 "        wrcr r29, [COA_SPOOL + SPOOL_LC]\n"
                 "        spool_set 0, SPOOL_ADDR, msg\n"
                 "        spool_set 0, SPOOL_STRIDE, 4\n"
                 "        spool_set 0, SPOOL_COUNT, (end - msg) / 4\n"
                 "        spool_set 0, SPOOL_TAG_HEAD, 2\n"
                 "        spool_set 0, SPOOL_TAG_TAIL, 1\n"
                 "        spool_set 0, SPOOL_CTRL, SPOOL_SEND\n"
                 "        delay %u\n"
                 "        tagged_at 0, TRAILER_KIND, r27\n"
                 "        delay %u\n"
                 "        trailer 1\n"
                 "        spool_wait 0, r5\n"
                 "        halt\n"
                 "        .data\n"
                 "msg:    .word 0x%08x, 0x%08x, 11, 12, 13, 14, 15, TRAILER_KIND\n"
                 "end:\n",
                 (unsigned)HOLD, (unsigned)HOLD, net_sign(0, 0, COA_SIGN_PX, 0), net_sign(2, 0, COA_SIGN_SPOOL, 3));
    /* (1,0) binds both gates; it only needs to see the trailers go (it never reads). (2,0) receives C. */
    const emu_program_t *gates = net_asm(&n, bind_both_gates);
    const emu_program_t *spool = net_asmf(&n,
                                          "        .include \"net.inc\"\n"
                                          "_start: spool_set 3, SPOOL_ADDR, buf\n"
                                          "        spool_set 3, SPOOL_STRIDE, 4\n"
                                          "        spool_set 3, SPOOL_COUNT, %u\n"
                                          "        spool_set 3, SPOOL_CTRL, SPOOL_RECEIVE\n"
                                          "        spool_wait 3, a0\n"
                                          "        rdcr a1, [CR_CLOCK_LO]\n"
                                          "        halt\n"
                                          "        .bss\n"
                                          "buf:    .space 64\n",
                                          (unsigned)C_WORDS);
    net_load(&n, 0, 0, s, NULL, 0);
    net_load(&n, 1, 0, gates, NULL, 0);
    net_load(&n, 2, 0, spool, NULL, 0);

    assert_int_equal(net_run(&n, HOLD / 2), EMU_RUN_LIMIT);
    const coa_t *src = net_coa(&n, 0, 0);
    unsigned c = net_reg(&n, 0, 0, 29);
    assert_int_equal(src->lc[c].state, COA_LC_HEADER);
    assert_int_equal(coa_lc_wait(src, c, net_clock(&n)), COA_WAIT_NO_CHANNEL);
    assert_int_equal(src->remote_free[COA_DIR_PX] & (1ull << 8 | 1ull << 9), 0);
    assert_true((src->remote_free[COA_DIR_PX] & 1ull << 16) != 0); /* pool 1 is not for pool-0 headers */

    net_run(&n, NET_LIMIT);
    net_expect_done(&n);
    /* The third pathway went through channel 8 of (1,0) after A's trailer, and delivered its words. */
    assert_int_equal(net_coa(&n, 1, 0)->lc_stats[8].pathways, 2);
    assert_int_equal(net_coa(&n, 1, 0)->lc_stats[16].pathways, 0);
    assert_true(net_reg(&n, 2, 0, 4) > net_reg(&n, 0, 0, 27));
    assert_int_equal(net_a0(&n, 2, 0), COA_SPOOL_DONE);
    const emu_program_t *rp = net_ca(&n, 2, 0)->prog;
    for (unsigned i = 0; i < C_WORDS; i++)
        assert_int_equal(net_mem32(&n, 2, 0, net_symbol(rp, "buf") + 4 * i), 11 + i);
    net_free(&n);
}

typedef struct extend_probe {
    unsigned lcs[2];
} extend_probe_t;

/* Holds once one of the two waiting headers at (0,0) has taken a channel of the next cell. */
static bool one_extended(const net_t *n, void *user)
{
    const extend_probe_t *p = user;
    const coa_t *c = net_coa(n, 0, 0);
    return c->lc[p->lcs[0]].state != COA_LC_HEADER || c->lc[p->lcs[1]].state != COA_LC_HEADER;
}

/* Three headers for one reservable channel: A holds it; B (channel 5) starts waiting, then C (channel 2, a
 * lower number) does. When A's trailer frees the channel, B, which has waited longer, gets it first; C gets it
 * after B's trailer. */
static void test_headers_waiting_for_a_channel_get_it_in_the_order_they_began_to_wait(void **state)
{
    (void)state;
    net_t n;
    net_init(&n, 4, 1);
    net_create(&n);
    const emu_program_t *s =
        net_asmf(&n,
                 "        .include \"net.inc\"\n"
                 "_start: li   r5, 1 << 8\n"
                 "        wrcr r5, [COA_LINK_POOL + DIR_PX * 8 + 0 * 2]\n"
                 "        wrcr zero, [COA_LINK_POOL + DIR_PX * 8 + 1 * 2]\n"
                 "        open 0\n" /* A */
                 "        sign 0, 0, 0, DIR_PX\n"
                 "        sign 0, 2, 0, SIGN_GATE, 0\n"
                 "        li   r5, 5\n" /* B on channel 5 */
                 "        wrcr r5, [COA_GATE_OUT1]\n"
                 "        sign 1, 0, 0, DIR_PX\n"
                 "        sign 1, 2, 0, SIGN_GATE, 1\n"
                 "        delay 30\n"
                 "        spool_set 0, SPOOL_LC, 2\n" /* C on channel 2, from a spool */
                 "        spool_set 0, SPOOL_ADDR, msg\n"
                 "        spool_set 0, SPOOL_STRIDE, 4\n"
                 "        spool_set 0, SPOOL_COUNT, 3\n"
                 "        spool_set 0, SPOOL_TAG_HEAD, 3\n"
                 "        spool_set 0, SPOOL_CTRL, SPOOL_SEND\n"
                 "        delay %u\n"
                 "        trailer 0\n"
                 "        delay %u\n"
                 "        trailer 1\n"
                 "        spool_wait 0, r5\n"
                 "        delay 100\n" /* C's header goes on once B's trailer has freed the channel */
                 "        halt\n"
                 "        .data\n"
                 "msg:    .word 0x%08x, 0x%08x, TRAILER_KIND\n",
                 (unsigned)HOLD, (unsigned)HOLD, net_sign(0, 0, COA_SIGN_PX, 0), net_sign(1, 0, COA_SIGN_QUEUE, 0));
    const emu_program_t *r = net_asm(&n, bind_both_gates);
    net_load(&n, 0, 0, s, NULL, 0);
    net_load(&n, 2, 0, r, NULL, 0);
    extend_probe_t probe = {{5, 2}};
    assert_int_equal(net_run(&n, HOLD / 2), EMU_RUN_LIMIT);
    const coa_t *c = net_coa(&n, 0, 0);
    assert_int_equal(coa_lc_wait(c, 5, net_clock(&n)), COA_WAIT_NO_CHANNEL);
    assert_int_equal(coa_lc_wait(c, 2, net_clock(&n)), COA_WAIT_NO_CHANNEL);
    assert_true(c->lc_stats[5].wait_clocks[COA_WAIT_NO_CHANNEL] > c->lc_stats[2].wait_clocks[COA_WAIT_NO_CHANNEL]);
    assert_true(net_run_until(&n, 100000, one_extended, &probe));
    if (c->lc[5].state == COA_LC_HEADER)
        fail_msg("channel 2 took the freed channel at clock %llu although channel 5 had waited longer",
                 (unsigned long long)net_clock(&n) - 1);
    assert_int_equal(c->lc[2].state, COA_LC_HEADER);
    net_run(&n, NET_LIMIT);
    net_expect_done(&n);
    assert_int_equal(net_coa(&n, 1, 0)->lc_stats[8].pathways, 3);
    net_free(&n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_header_waits_for_the_only_channel_of_its_pool_until_a_trailer_frees_it),
        cmocka_unit_test(test_header_waits_when_the_neighbour_channel_is_reserved_in_the_high_word),
        cmocka_unit_test(test_third_pool0_header_waits_for_a_trailer_with_the_default_reservation),
        cmocka_unit_test(test_headers_waiting_for_a_channel_get_it_in_the_order_they_began_to_wait),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
