/*
 * Round-robin link scheduling (docs/network.md, "Links and the round-robin scheduler"): whenever a link is
 * free it serves the next channel, in channel-number order after the one it served last, that is routed to
 * it, holds a word and has a credit. So k channels that always have words take turns in channel order and
 * each gets 1/k of the link's words.
 *
 * Cell (0,0) routes k channels over its +X link to channels of (1,0), statically (ROUTE, SOURCE and
 * CREDITS written through the channel registers, no header), fed by k sending spools; (1,0) receives them
 * with k spools. A second test does the same with two pathways opened by headers and fed by the gates.
 */
#include "net_harness.h"

#include <stdio.h>
#include <string.h>

enum { WINDOW_ROUNDS = 40, WORDS_EACH = 200, FIRST_REMOTE = 8 };

typedef struct rr_probe {
    unsigned k;
    unsigned lc[8]; /* the sending channels at (0,0), in channel order */
} rr_probe_t;

/* The spools (or the CA) fill the queues faster than the link drains them: once they are (nearly) full,
 * every channel always has a word. */
static bool all_hold_words(const net_t *n, void *user)
{
    const rr_probe_t *p = user;
    const coa_t *c = net_coa(n, 0, 0);
    for (unsigned i = 0; i < p->k; i++)
        if (c->lc[p->lc[i]].count + 1u < n->machine.agent.queue_depth || c->lc[p->lc[i]].state != COA_LC_ROUTED)
            return false;
    return true;
}

/* From the clock at which every channel's queue is full, follows the +X link of (0,0) clock by clock for
 * WINDOW_ROUNDS * k words: each word must come from the channel after the previous one's, cyclically, and
 * over the window each channel gets the same share (within one word). */
static void check_round_robin(net_t *n, rr_probe_t *p)
{
    assert_true(net_run_until(n, 100000, all_hold_words, p));
    const coa_t *c = net_coa(n, 0, 0);
    uint64_t base[8], link_base = c->link_stats[COA_DIR_PX].words;
    for (unsigned i = 0; i < p->k; i++)
        base[i] = c->lc_stats[p->lc[i]].words_out;
    uint64_t before[8];
    memcpy(before, base, sizeof before);
    int last = -1;
    unsigned total = WINDOW_ROUNDS * p->k;
    while (c->link_stats[COA_DIR_PX].words - link_base < total) {
        for (unsigned i = 0; i < p->k; i++)
            if (c->lc[p->lc[i]].count == 0)
                fail_msg("channel %u ran dry at clock %llu: the test must keep every channel busy", p->lc[i],
                         (unsigned long long)net_clock(n));
        uint64_t link_before = c->link_stats[COA_DIR_PX].words;
        assert_int_equal(net_run(n, net_clock(n) + 1), EMU_RUN_LIMIT);
        uint64_t sent = c->link_stats[COA_DIR_PX].words - link_before;
        int served = -1;
        for (unsigned i = 0; i < p->k; i++) {
            uint64_t now = c->lc_stats[p->lc[i]].words_out;
            if (now != before[i]) {
                assert_int_equal(now - before[i], 1);
                assert_int_equal(served, -1);
                served = (int)i;
            }
            before[i] = now;
        }
        assert_int_equal(sent, served >= 0 ? 1 : 0);
        if (served < 0)
            continue;
        if (last >= 0 && served != (last + 1) % (int)p->k)
            fail_msg("%u channels on one link: channel %u was served after channel %u at clock %llu", p->k,
                     p->lc[served], p->lc[last], (unsigned long long)net_clock(n) - 1);
        last = served;
    }
    for (unsigned i = 0; i < p->k; i++) {
        uint64_t got = c->lc_stats[p->lc[i]].words_out - base[i];
        if (got * p->k + p->k < total || got * p->k > total + p->k)
            fail_msg("%u channels: channel %u sent %llu of %u words in the window", p->k, p->lc[i],
                     (unsigned long long)got, total);
    }
}

/* k static channels fed by spools; (1,0) receives each into its own buffer. */
static void check_static_channels(unsigned k, unsigned link_clocks)
{
    net_t n;
    net_init(&n, 4, 1);
    net_set(&n, "link_clocks", "%u", link_clocks);
    net_create(&n);
    net_text_t s, r;
    net_text_init(&s);
    net_text_init(&r);
    net_textf(&s, "        .include \"net.inc\"\n_start:\n");
    net_textf(&r, "        .include \"net.inc\"\n_start:\n");
    rr_probe_t p = {.k = k};
    for (unsigned i = 0; i < k; i++) {
        unsigned lc = 2 * i + 1; /* not adjacent, so "next in channel order" is not just "lc + 1" */
        p.lc[i] = lc;
        net_textf(&s,
                  "        li   r5, (END_LINK << 12) | (DIR_PX << 8) | %u\n"
                  "        wrcr r5, [COA_LC + %u * 8 + LC_ROUTE]\n"
                  "        li   r5, %u\n"
                  "        wrcr r5, [COA_LC + %u * 8 + LC_CREDITS]\n"
                  "        spool_set %u, SPOOL_LC, %u\n"
                  "        spool_set %u, SPOOL_ADDR, word%u\n"
                  "        spool_set %u, SPOOL_STRIDE, 0\n" /* the same word again and again */
                  "        spool_set %u, SPOOL_COUNT, %u\n",
                  FIRST_REMOTE + i, lc, n.machine.agent.queue_depth, lc, i, lc, i, i, i, i, (unsigned)WORDS_EACH);
        net_textf(&r,
                  "        li   r5, (END_LINK << 12) | (DIR_MX << 8) | %u\n"
                  "        wrcr r5, [COA_LC + %u * 8 + LC_SOURCE]\n"
                  "        li   r5, (END_SPOOL << 12) | %u\n"
                  "        wrcr r5, [COA_LC + %u * 8 + LC_ROUTE]\n"
                  "        spool_set %u, SPOOL_LC, %u\n"
                  "        spool_set %u, SPOOL_ADDR, buf%u\n"
                  "        spool_set %u, SPOOL_STRIDE, 4\n"
                  "        spool_set %u, SPOOL_COUNT, %u\n"
                  "        spool_set %u, SPOOL_CTRL, SPOOL_RECEIVE\n",
                  lc, FIRST_REMOTE + i, i, FIRST_REMOTE + i, i, FIRST_REMOTE + i, i, i, i, i, (unsigned)WORDS_EACH, i);
    }
    for (unsigned i = 0; i < k; i++)
        net_textf(&s, "        spool_set %u, SPOOL_CTRL, SPOOL_SEND\n", i);
    for (unsigned i = 0; i < k; i++) {
        net_textf(&s, "        spool_wait %u, r6\n", i);
        net_textf(&r, "        spool_wait %u, r6\n", i);
    }
    net_textf(&s, "        halt\n        .data\n");
    net_textf(&r, "        halt\n        .bss\n");
    for (unsigned i = 0; i < k; i++) {
        net_textf(&s, "word%u:  .word 0x%x\n", i, 0xabc00 + i);
        net_textf(&r, "buf%u:   .space %u\n", i, 4 * WORDS_EACH);
    }
    net_load(&n, 0, 0, net_asm(&n, s.buf), NULL, 0);
    const emu_program_t *rp = net_asm(&n, r.buf);
    net_load(&n, 1, 0, rp, NULL, 0);
    net_text_free(&s);
    net_text_free(&r);

    check_round_robin(&n, &p);
    net_run(&n, NET_LIMIT);
    net_expect_done(&n);
    /* Every word reached its own channel's buffer. */
    for (unsigned i = 0; i < k; i++) {
        char label[16];
        snprintf(label, sizeof label, "buf%u", i);
        uint32_t base = net_symbol(rp, label);
        for (unsigned j = 0; j < WORDS_EACH; j++)
            assert_int_equal(net_mem32(&n, 1, 0, base + 4 * j), 0xabc00 + i);
    }
    net_free(&n);
}

static void test_k_static_channels_on_one_link_take_turns_in_channel_order(void **state)
{
    (void)state;
    for (unsigned k = 2; k <= 5; k++)
        check_static_channels(k, 2);
}

static void test_round_robin_is_fair_with_three_clock_links(void **state)
{
    (void)state;
    /* (Not one-clock links: the spools' one memory word per clock would only just keep up, so channels
     * would run dry and the premise "always having words" would not hold.) */
    for (unsigned k = 2; k <= 5; k++)
        check_static_channels(k, 3);
}

/* Two pathways opened by headers through the same link, fed by go0 and go1 from one bundle. */
static void test_two_gate_pathways_share_a_link_evenly(void **state)
{
    (void)state;
    net_t n;
    net_init(&n, 4, 1);
    net_create(&n);
    const emu_program_t *s = net_asmf(&n,
                                      "        .include \"net.inc\"\n"
                                      "_start: open 0\n"
                                      "        mov  r24, r20\n"
                                      "        sign 0, 0, 0, DIR_PX\n"
                                      "        sign 0, 2, 0, SIGN_GATE, 0\n"
                                      "        open 1\n"
                                      "        mov  r25, r20\n"
                                      "        sign 1, 0, 0, DIR_PX\n"
                                      "        sign 1, 2, 0, SIGN_GATE, 1\n"
                                      "        li   r3, %u\n"
                                      "1:      { mov go0, r3 ; mov go1, r3 ; loop r3, 1b }\n"
                                      "        trailer 0\n"
                                      "        trailer 1\n"
                                      "        halt\n",
                                      (unsigned)WORDS_EACH);
    const emu_program_t *r = net_asmf(&n,
                                      "        .include \"net.inc\"\n"
                                      "_start: expect 0\n"
                                      "        expect 1\n"
                                      "        li   r3, %u\n"
                                      "1:      { add r6, r6, gi0 ; add r7, r7, gi1 ; loop r3, 1b }\n"
                                      "        mov  a0, r6\n"
                                      "        mov  a1, r7\n"
                                      "        halt\n",
                                      (unsigned)WORDS_EACH);
    net_load(&n, 0, 0, s, NULL, 0);
    net_load(&n, 2, 0, r, NULL, 0);
    /* The channels are known once the program took them. */
    assert_int_equal(net_run(&n, 20), EMU_RUN_LIMIT);
    rr_probe_t p = {.k = 2, .lc = {net_reg(&n, 0, 0, 24), net_reg(&n, 0, 0, 25)}};
    assert_true(p.lc[0] < p.lc[1]);
    check_round_robin(&n, &p);
    net_run(&n, NET_LIMIT);
    net_expect_done(&n);
    assert_int_equal(net_a0(&n, 2, 0), WORDS_EACH * (WORDS_EACH + 1) / 2);
    assert_int_equal(net_reg(&n, 2, 0, 4), WORDS_EACH * (WORDS_EACH + 1) / 2);
    net_free(&n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_k_static_channels_on_one_link_take_turns_in_channel_order),
        cmocka_unit_test(test_round_robin_is_fair_with_three_clock_links),
        cmocka_unit_test(test_two_gate_pathways_share_a_link_evenly),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
