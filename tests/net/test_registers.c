/*
 * The communication agent's control registers (docs/network.md, "Control registers"): what each reads and
 * what writing it does, for the registers the other tests use only in passing: ALLOC / RELEASE / LOCAL_POOL,
 * the arrival queue, TAG_NEXT, the gate bindings, the channel fields and the spool fields; and that a value
 * a register cannot take, or a register that does not exist, faults as a bad control register.
 */
#include "net_harness.h"

#include <stdio.h>

/* Runs one program on (0,0) of a w x 1 array; it must halt. */
static void run_one(net_t *n, unsigned w, const char *src)
{
    net_init(n, w, 1);
    net_create(n);
    net_load(n, 0, 0, net_asm(n, src), NULL, 0);
    net_run(n, NET_LIMIT);
    net_expect_done(n);
}

static void test_alloc_takes_the_local_pool_in_order_and_release_gives_channels_back(void **state)
{
    (void)state;
    net_t n;
    run_one(&n, 1,
            "        .include \"net.inc\"\n"
            "_start: rdcr r40, [COA_ALLOC]\n" /* channels 0..7 */
            "        rdcr r41, [COA_ALLOC]\n"
            "        rdcr r42, [COA_ALLOC]\n"
            "        rdcr r43, [COA_ALLOC]\n"
            "        rdcr r44, [COA_ALLOC]\n"
            "        rdcr r45, [COA_ALLOC]\n"
            "        rdcr r46, [COA_ALLOC]\n"
            "        rdcr r47, [COA_ALLOC]\n"
            "        rdcr r50, [COA_ALLOC]\n"                 /* ~0: the pool is empty */
            "        rdcr r51, [COA_LC + 5 * 8 + LC_STATE]\n" /* header */
            "        li   r5, 5\n"
            "        wrcr r5, [COA_RELEASE]\n"
            "        rdcr r52, [COA_LC + 5 * 8 + LC_STATE]\n" /* free */
            "        rdcr r53, [COA_ALLOC]\n"                 /* 5 again */
            "        li   r5, 0x30000\n"                      /* channels 16, 17 only */
            "        wrcr r5, [COA_LOCAL_POOL]\n"
            "        rdcr r54, [COA_LOCAL_POOL]\n"
            "        rdcr r55, [COA_ALLOC]\n"
            "        rdcr r56, [COA_ALLOC]\n"
            "        rdcr r57, [COA_ALLOC]\n"
            "        halt\n");
    assert_int_equal(net_reg(&n, 0, 0, 50), COA_CR_NONE);
    assert_int_equal(net_reg(&n, 0, 0, 51), COA_LC_HEADER);
    assert_int_equal(net_reg(&n, 0, 0, 52), COA_LC_FREE);
    assert_int_equal(net_reg(&n, 0, 0, 53), 5);
    assert_int_equal(net_reg(&n, 0, 0, 54), 0x30000);
    assert_int_equal(net_reg(&n, 0, 0, 55), 16);
    assert_int_equal(net_reg(&n, 0, 0, 56), 17);
    assert_int_equal(net_reg(&n, 0, 0, 57), COA_CR_NONE);
    for (unsigned lc = 0; lc < 8; lc++) {
        assert_int_equal(net_reg(&n, 0, 0, 40 + lc), lc == 5 ? 5 : lc);
        assert_int_equal(net_coa(&n, 0, 0)->lc[lc].state, COA_LC_HEADER);
    }
    net_free(&n);

    /* the high word: channels 32 and up */
    net_init(&n, 1, 1);
    net_set(&n, "channels", "%u", 40);
    net_create(&n);
    net_load(&n, 0, 0,
             net_asm(&n, "        .include \"net.inc\"\n"
                         "_start: wrcr zero, [COA_LOCAL_POOL]\n"
                         "        li   r5, 1 << (37 - 32)\n"
                         "        wrcr r5, [COA_LOCAL_POOL_HI]\n"
                         "        rdcr r50, [COA_LOCAL_POOL_HI]\n"
                         "        rdcr r51, [COA_ALLOC]\n"
                         "        rdcr r52, [COA_ALLOC]\n"
                         "        halt\n"),
             NULL, 0);
    net_run(&n, NET_LIMIT);
    net_expect_done(&n);
    assert_int_equal(net_reg(&n, 0, 0, 50), 1u << 5);
    assert_int_equal(net_reg(&n, 0, 0, 51), 37);
    assert_int_equal(net_reg(&n, 0, 0, 52), COA_CR_NONE);
    net_free(&n);
}

/* Three pathways end in the arrival queue of (1,1) from three sides, one after the other: ARRIVALS counts
 * them and ARRIVAL hands out their channels oldest first, then ~0. */
static void test_the_arrival_queue_gives_the_oldest_pathway_first(void **state)
{
    (void)state;
    static const struct {
        unsigned x, y, dir, delay;
    } senders[] = {{0, 1, COA_DIR_PX, 1}, {1, 2, COA_DIR_MY, 60}, {2, 1, COA_DIR_MX, 120}};
    net_t n;
    net_init(&n, 3, 3);
    net_create(&n);
    for (unsigned i = 0; i < 3; i++)
        net_load(&n, senders[i].x, senders[i].y,
                 net_asmf(&n,
                          "        .include \"net.inc\"\n"
                          "_start: delay %u\n"
                          "        open 0\n"
                          "        sign 0, %u, %u, %u\n"
                          "        sign 0, 1, 1, SIGN_QUEUE\n"
                          "        li   r5, %u\n"
                          "        mov  go0, r5\n"
                          "        trailer 0\n"
                          "        halt\n",
                          senders[i].delay, senders[i].x, senders[i].y, senders[i].dir, 100 + i),
                 NULL, 0);
    net_load(&n, 1, 1,
             net_asm(&n, "        .include \"net.inc\"\n"
                         "_start: rdcr r40, [COA_ARRIVAL]\n" /* ~0: nothing yet */
                         "1:      rdcr r41, [COA_ARRIVALS]\n"
                         "        li   r5, 3\n"
                         "        bne  r41, r5, 1b\n"
                         "        rdcr r42, [COA_ARRIVAL]\n"
                         "        rdcr r43, [COA_ARRIVALS]\n"
                         "        rdcr r44, [COA_ARRIVAL]\n"
                         "        rdcr r45, [COA_ARRIVAL]\n"
                         "        rdcr r46, [COA_ARRIVAL]\n" /* ~0 again */
                         "        wrcr r42, [COA_GATE_IN0]\n"
                         "        mov  r50, gi0\n"
                         "        wait_unbound 0\n"
                         "        wrcr r44, [COA_GATE_IN0]\n"
                         "        mov  r51, gi0\n"
                         "        wait_unbound 0\n"
                         "        wrcr r45, [COA_GATE_IN0]\n"
                         "        mov  r52, gi0\n"
                         "        wait_unbound 0\n"
                         "        halt\n"),
             NULL, 0);
    net_run(&n, NET_LIMIT);
    net_expect_done(&n);
    assert_int_equal(net_reg(&n, 1, 1, 40), COA_CR_NONE);
    assert_int_equal(net_reg(&n, 1, 1, 43), 2);
    assert_int_equal(net_reg(&n, 1, 1, 46), COA_CR_NONE);
    /* the channels came from -X, +Y and +X neighbours' pools: 8 + 2d for travel direction d */
    assert_int_equal(net_reg(&n, 1, 1, 42), 8 + 2 * COA_DIR_PX);
    assert_int_equal(net_reg(&n, 1, 1, 44), 8 + 2 * COA_DIR_MY);
    assert_int_equal(net_reg(&n, 1, 1, 45), 8 + 2 * COA_DIR_MX);
    for (unsigned i = 0; i < 3; i++)
        assert_int_equal(net_reg(&n, 1, 1, 50 + i), 100 + i);
    net_free(&n);
}

static void test_gate_bindings_and_tag_next_read_back(void **state)
{
    (void)state;
    net_t n;
    run_one(&n, 2,
            "        .include \"net.inc\"\n"
            "_start: rdcr r40, [COA_GATE_IN0]\n" /* ~0 */
            "        expect 0\n"
            "        rdcr r41, [COA_GATE_IN0]\n" /* ~1 */
            "        li   r5, 6\n"
            "        wrcr r5, [COA_GATE_IN1]\n"
            "        rdcr r42, [COA_GATE_IN1]\n" /* 6 */
            "        rdcr r43, [COA_LC + 6 * 8 + LC_ROUTE]\n"
            "        li   r5, COA_NONE\n"
            "        wrcr r5, [COA_GATE_IN1]\n"
            "        rdcr r44, [COA_GATE_IN1]\n"  /* ~0 */
            "        rdcr r45, [COA_GATE_OUT1]\n" /* ~0 */
            "        open 1\n"
            "        rdcr r46, [COA_GATE_OUT1]\n" /* the channel */
            "        rdcr r47, [COA_LC + 0 * 8 + LC_SOURCE]\n"
            "        li   r5, 3\n"
            "        wrcr r5, [COA_TAG_NEXT]\n"
            "        rdcr r48, [COA_TAG_NEXT]\n" /* 3 */
            "        sign_li r22, 0, 0, DIR_PX\n"
            "        mov  go1, r22\n"
            "        rdcr r49, [COA_TAG_NEXT]\n" /* 1: the write to go1 used its bit */
            "        wrcr zero, [COA_TAG_NEXT]\n"
            "        halt\n");
    assert_int_equal(net_reg(&n, 0, 0, 40), COA_CR_NONE);
    assert_int_equal(net_reg(&n, 0, 0, 41), COA_CR_EXPECT);
    assert_int_equal(net_reg(&n, 0, 0, 42), 6);
    assert_int_equal(net_reg(&n, 0, 0, 43), COA_END_GATE << 12 | 1);
    assert_int_equal(net_reg(&n, 0, 0, 44), COA_CR_NONE);
    assert_int_equal(net_reg(&n, 0, 0, 45), COA_CR_NONE);
    assert_int_equal(net_reg(&n, 0, 0, 46), 0);
    assert_int_equal(net_reg(&n, 0, 0, 47), COA_END_GATE << 12 | 1);
    assert_int_equal(net_reg(&n, 0, 0, 48), 3);
    assert_int_equal(net_reg(&n, 0, 0, 49), 1);
    net_free(&n);
}

/* A channel set up by hand: ROUTE, SOURCE, CREDITS and POOL read back what was written; COUNT, HEAD and
 * WAIT say what it holds and why it waits (the agent sleeps). Spool fields read back too. */
static void test_channel_and_spool_fields_read_back(void **state)
{
    (void)state;
    net_t n;
    run_one(&n, 2,
            "        .include \"net.inc\"\n"
            "_start: li   r5, 1\n"
            "        wrcr r5, [COA_SLEEP]\n"
            "        li   r5, (END_LINK << 12) | (DIR_PX << 8) | 9\n"
            "        wrcr r5, [COA_LC + 4 * 8 + LC_ROUTE]\n"
            "        li   r5, 4\n"
            "        wrcr r5, [COA_GATE_OUT0]\n"
            "        li   r5, 3\n"
            "        wrcr r5, [COA_LC + 4 * 8 + LC_CREDITS]\n"
            "        li   r5, 2\n"
            "        wrcr r5, [COA_LC + 4 * 8 + LC_POOL]\n"
            "        li   r5, 0xabc\n"
            "        mov  go0, r5\n"
            "        mov  go0, r5\n"
            "        rdcr r40, [COA_LC + 4 * 8 + LC_STATE]\n"
            "        rdcr r41, [COA_LC + 4 * 8 + LC_ROUTE]\n"
            "        rdcr r42, [COA_LC + 4 * 8 + LC_SOURCE]\n"
            "        rdcr r43, [COA_LC + 4 * 8 + LC_COUNT]\n"
            "        rdcr r44, [COA_LC + 4 * 8 + LC_CREDITS]\n"
            "        rdcr r45, [COA_LC + 4 * 8 + LC_POOL]\n"
            "        rdcr r46, [COA_LC + 4 * 8 + LC_HEAD]\n"
            "        rdcr r47, [COA_LC + 4 * 8 + LC_WAIT]\n"
            "        rdcr r48, [COA_STATUS]\n"
            "        spool_set 6, SPOOL_LC, 4\n"
            "        spool_set 6, SPOOL_ADDR, 0x2000\n"
            "        spool_set 6, SPOOL_STRIDE, -12\n"
            "        spool_set 6, SPOOL_COUNT, 77\n"
            "        spool_set 6, SPOOL_TAG_HEAD, 2\n"
            "        spool_set 6, SPOOL_TAG_TAIL, 1\n"
            "        rdcr r50, [COA_SPOOL + 6 * 8 + SPOOL_LC]\n"
            "        rdcr r51, [COA_SPOOL + 6 * 8 + SPOOL_ADDR]\n"
            "        rdcr r52, [COA_SPOOL + 6 * 8 + SPOOL_STRIDE]\n"
            "        rdcr r53, [COA_SPOOL + 6 * 8 + SPOOL_COUNT]\n"
            "        rdcr r54, [COA_SPOOL + 6 * 8 + SPOOL_TAG_HEAD]\n"
            "        rdcr r55, [COA_SPOOL + 6 * 8 + SPOOL_TAG_TAIL]\n"
            "        rdcr r56, [COA_SPOOL + 6 * 8 + SPOOL_CTRL]\n"
            "        rdcr r57, [COA_SPOOL + 6 * 8 + SPOOL_STATUS]\n"
            "        halt\n");
    static const uint32_t want[] = {COA_LC_ROUTED,
                                    COA_END_LINK << 12 | COA_DIR_PX << 8 | 9,
                                    COA_END_GATE << 12 | 0,
                                    2,
                                    3,
                                    2,
                                    0xabc,
                                    COA_WAIT_ASLEEP,
                                    COA_STATUS_ASLEEP};
    for (unsigned i = 0; i < sizeof want / sizeof want[0]; i++)
        if (net_reg(&n, 0, 0, 40 + i) != want[i])
            fail_msg("register read %u: 0x%x, not 0x%x", i, net_reg(&n, 0, 0, 40 + i), want[i]);
    static const uint32_t spool_want[] = {4, 0x2000, (uint32_t)-12, 77, 2, 1, COA_SPOOL_IDLE, 0};
    for (unsigned i = 0; i < sizeof spool_want / sizeof spool_want[0]; i++)
        if (net_reg(&n, 0, 0, 50 + i) != spool_want[i])
            fail_msg("spool field %u: 0x%x, not 0x%x", i, net_reg(&n, 0, 0, 50 + i), spool_want[i]);
    net_free(&n);
}

/* Values a register cannot take, and numbers past the last channel or spool, fault the writing bundle. */
static void test_impossible_register_values_fault_as_bad_control_registers(void **state)
{
    (void)state;
    static const char *const bodies[] = {
        "        li   r5, 7 << 12\n" /* route kind 7 */
        "bad:    wrcr r5, [COA_LC + 2 * 8 + LC_ROUTE]\n",
        "        li   r5, (END_LINK << 12) | (DIR_PX << 8) | 20\n" /* channel 20 of 20 */
        "bad:    wrcr r5, [COA_LC + 2 * 8 + LC_ROUTE]\n",
        "        li   r5, 9\n" /* more credits than a queue holds */
        "bad:    wrcr r5, [COA_LC + 2 * 8 + LC_CREDITS]\n",
        "        li   r5, 4\n" /* pools are 0..3 */
        "bad:    wrcr r5, [COA_LC + 2 * 8 + LC_POOL]\n",
        "bad:    rdcr r5, [COA_LC + 20 * 8 + LC_STATE]\n",     /* channel 20 does not exist */
        "bad:    rdcr r5, [COA_SPOOL + 8 * 8 + SPOOL_CTRL]\n", /* spool 8 does not exist */
        "        li   r5, 3\n"
        "bad:    wrcr r5, [COA_SPOOL + SPOOL_CTRL]\n", /* mode 3 */
        "        li   r5, 20\n"
        "bad:    wrcr r5, [COA_GATE_IN0]\n", /* channel 20 */
        "        li   r5, 2\n"               /* a channel holding a word cannot be released */
        "        wrcr r5, [COA_GATE_OUT0]\n"
        "        li   r6, 1\n"
        "        wrcr r6, [COA_SLEEP]\n"
        "        mov  go0, r6\n"
        "bad:    wrcr r5, [COA_RELEASE]\n",
    };
    for (unsigned i = 0; i < sizeof bodies / sizeof bodies[0]; i++) {
        net_t n;
        net_init(&n, 1, 1);
        net_create(&n);
        const emu_program_t *p = net_asmf(&n, "        .include \"net.inc\"\n_start:\n%s        halt\n", bodies[i]);
        net_load(&n, 0, 0, p, NULL, 0);
        net_run(&n, NET_LIMIT);
        unsigned x, y;
        char text[512];
        net_expect_fault(&n, EMU_FAULT_BAD_CONTROL_REGISTER, &x, &y, text, sizeof text);
        assert_int_equal(net_ca(&n, 0, 0)->s.fault.pc, net_symbol(p, "bad"));
        net_free(&n);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_alloc_takes_the_local_pool_in_order_and_release_gives_channels_back),
        cmocka_unit_test(test_the_arrival_queue_gives_the_oldest_pathway_first),
        cmocka_unit_test(test_gate_bindings_and_tag_next_read_back),
        cmocka_unit_test(test_channel_and_spool_fields_read_back),
        cmocka_unit_test(test_impossible_register_values_fault_as_bad_control_registers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
