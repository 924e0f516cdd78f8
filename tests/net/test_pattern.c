/*
 * The communication context switch (docs/network.md, "Communication context switch"): COA_SLEEP stops the
 * agent, COA_LOAD reads a forwarding pattern (n, then n entries {channel, route, source, pool}) one word per
 * free memory clock while STATUS bit 2 is set, and waking lets words flow over pathways that no header set
 * up. A pattern that rewrites a channel still holding words faults.
 */
#include "net_harness.h"

#include <stdio.h>
#include <string.h>

#define ROUTE(kind, dir, index) ((unsigned)(kind) << 12 | (unsigned)(dir) << 8 | (unsigned)(index))

typedef struct entry {
    unsigned lc, route, source, pool;
} entry_t;

typedef struct cell_plan {
    unsigned x, y;
    entry_t entries[4];
    unsigned nentries;
    const char *before_wake; /* assembly run asleep, after the load */
    const char *after_wake;
} cell_plan_t;

/* A program that sleeps, loads its pattern (r24 = the clock before the LOAD write, r25..r27 = STATUS asleep,
 * while loading, after loading), runs before_wake, wakes, runs after_wake, and halts. */
static const emu_program_t *pattern_program(net_t *n, const cell_plan_t *c)
{
    net_text_t t;
    net_text_init(&t);
    net_textf(&t, "        .include \"net.inc\"\n"
                  "_start: li   r5, 1\n"
                  "        wrcr r5, [COA_SLEEP]\n"
                  "        rdcr r25, [COA_STATUS]\n"
                  "        li   r5, pattern\n"
                  "        rdcr r24, [CR_CLOCK_LO]\n"
                  "        wrcr r5, [COA_LOAD]\n"
                  "        rdcr r26, [COA_STATUS]\n"
                  "1:      rdcr r6, [COA_STATUS]\n"
                  "        and  r6, r6, COA_STATUS_LOADING\n"
                  "        bnez r6, 1b\n"
                  "        rdcr r27, [COA_STATUS]\n");
    net_textf(&t, "%s", c->before_wake ? c->before_wake : "");
    net_textf(&t, "        wrcr zero, [COA_SLEEP]\n%s        halt\n", c->after_wake ? c->after_wake : "");
    net_textf(&t, "        .data\npattern: .word %u\n", c->nentries);
    for (unsigned i = 0; i < c->nentries; i++)
        net_textf(&t, "        .word %u, 0x%x, 0x%x, %u\n", c->entries[i].lc, c->entries[i].route, c->entries[i].source,
                  c->entries[i].pool);
    net_textf(&t, "        .bss\nbuf:    .space 256\n");
    const emu_program_t *p = net_asm(n, t.buf);
    net_text_free(&t);
    return p;
}

enum { ASLEEP_WORDS = 5, P1_WORDS = 40, P2_WORDS = 12, P3_WORDS = 9, HOLD = 150 };

/* Three pathways over seven cells of a 4x2 torus, set up by patterns only:
 *   P1: go0 of (0,0) -> (1,0) -> (2,0) -> gi0 of (3,0)
 *   P2: go1 of (3,0) -> (3,1) -> turns -X -> gi1 of (2,1)
 *   P3: spool 0 of (2,1) -> spool 3 of (1,1) */
static void test_a_loaded_pattern_carries_words_over_several_cells_with_no_header(void **state)
{
    (void)state;
    static const char sender[] = "        li   r4, 1\n"
                                 "        li   r3, ASLEEP_WORDS\n"
                                 "1:      { mov go0, r4 ; add r4, r4, 1 ; loop r3, 1b }\n"
                                 "        delay HOLD\n";
    static const char sender_rest[] = "        li   r3, P1_WORDS - ASLEEP_WORDS\n"
                                      "2:      { mov go0, r4 ; add r4, r4, 1 ; loop r3, 2b }\n"
                                      "        trailer 0\n";
    static const char middle[] = "        li   r30, P1_WORDS\n"
                                 "3:      { add r7, r7, gi0 ; loop r30, 3b }\n"
                                 "        wait_unbound 0\n"
                                 "        mov  a0, r7\n"
                                 "        li   r30, P2_WORDS\n"
                                 "4:      { mov go1, r30 ; loop r30, 4b }\n";
    static const char turn_end[] = "        li   r30, P2_WORDS\n"
                                   "5:      { add r7, r7, gi1 ; loop r30, 5b }\n"
                                   "        mov  a0, r7\n"
                                   "        li   r30, P3_WORDS\n"
                                   "        la   r8, buf\n"
                                   "6:      { stw r30, [r8] ; add r8, r8, 4 ; loop r30, 6b }\n"
                                   "        spool_set 0, SPOOL_LC, 2\n"
                                   "        spool_set 0, SPOOL_ADDR, buf\n"
                                   "        spool_set 0, SPOOL_STRIDE, 4\n"
                                   "        spool_set 0, SPOOL_COUNT, P3_WORDS\n"
                                   "        spool_set 0, SPOOL_CTRL, SPOOL_SEND\n"
                                   "        spool_wait 0, r5\n";
    static const char spool_end[] = "        spool_set 3, SPOOL_ADDR, buf\n"
                                    "        spool_set 3, SPOOL_STRIDE, 4\n"
                                    "        spool_set 3, SPOOL_COUNT, P3_WORDS\n"
                                    "        spool_set 3, SPOOL_CTRL, SPOOL_RECEIVE\n"
                                    "        spool_wait 3, a0\n";
    const cell_plan_t plan[] = {
        {0, 0, {{0, ROUTE(COA_END_LINK, COA_DIR_PX, 8), ROUTE(COA_END_GATE, 0, 0), 0}}, 1, sender, sender_rest},
        {1, 0, {{8, ROUTE(COA_END_LINK, COA_DIR_PX, 8), ROUTE(COA_END_LINK, COA_DIR_MX, 0), 0}}, 1, NULL, NULL},
        {2, 0, {{8, ROUTE(COA_END_LINK, COA_DIR_PX, 8), ROUTE(COA_END_LINK, COA_DIR_MX, 8), 0}}, 1, NULL, NULL},
        {3,
         0,
         {{8, ROUTE(COA_END_GATE, 0, 0), ROUTE(COA_END_LINK, COA_DIR_MX, 8), 0},
          {1, ROUTE(COA_END_LINK, COA_DIR_PY, 9), ROUTE(COA_END_GATE, 0, 1), 1}},
         2,
         NULL,
         middle},
        {3, 1, {{9, ROUTE(COA_END_LINK, COA_DIR_MX, 9), ROUTE(COA_END_LINK, COA_DIR_MY, 1), 0}}, 1, NULL, NULL},
        {2,
         1,
         {{9, ROUTE(COA_END_GATE, 0, 1), ROUTE(COA_END_LINK, COA_DIR_PX, 9), 0},
          {2, ROUTE(COA_END_LINK, COA_DIR_MX, 10), ROUTE(COA_END_SPOOL, 0, 0), 2}},
         2,
         NULL,
         turn_end},
        {1, 1, {{10, ROUTE(COA_END_SPOOL, 0, 3), ROUTE(COA_END_LINK, COA_DIR_PX, 2), 0}}, 1, NULL, spool_end},
    };
    net_t n;
    net_init(&n, 4, 2);
    net_create(&n);
    const emu_program_t *progs[sizeof plan / sizeof plan[0]];
    for (unsigned i = 0; i < sizeof plan / sizeof plan[0]; i++) {
        char defs[256];
        snprintf(defs, sizeof defs,
                 "        .equ ASLEEP_WORDS, %u\n        .equ P1_WORDS, %u\n        .equ P2_WORDS, %u\n"
                 "        .equ P3_WORDS, %u\n        .equ HOLD, %u\n",
                 (unsigned)ASLEEP_WORDS, (unsigned)P1_WORDS, (unsigned)P2_WORDS, (unsigned)P3_WORDS, (unsigned)HOLD);
        cell_plan_t c = plan[i];
        char before[1024], after[1024];
        snprintf(before, sizeof before, "%s%s", defs, c.before_wake ? c.before_wake : "");
        snprintf(after, sizeof after, "%s", c.after_wake ? c.after_wake : "");
        c.before_wake = before;
        c.after_wake = after;
        progs[i] = pattern_program(&n, &c);
        net_load(&n, c.x, c.y, progs[i], NULL, 0);
    }

    /* Asleep, the words written to go0 stay in (0,0)'s channel 0: nothing crosses a link. */
    assert_int_equal(net_run(&n, HOLD / 2), EMU_RUN_LIMIT);
    const coa_t *src = net_coa(&n, 0, 0);
    assert_true(src->asleep);
    assert_int_equal(src->lc[0].count, ASLEEP_WORDS);
    assert_int_equal(src->lc[0].state, COA_LC_ROUTED);
    assert_int_equal(src->link_stats[COA_DIR_PX].words, 0);
    assert_int_equal(net_coa(&n, 1, 0)->lc[8].state, COA_LC_ROUTED);
    assert_int_equal(net_coa(&n, 1, 0)->lc[8].count, 0);

    net_run(&n, NET_LIMIT);
    net_expect_done(&n);
    assert_int_equal(net_a0(&n, 3, 0), P1_WORDS * (P1_WORDS + 1) / 2);
    assert_int_equal(net_a0(&n, 2, 1), P2_WORDS * (P2_WORDS + 1) / 2);
    assert_int_equal(net_a0(&n, 1, 1), COA_SPOOL_DONE);
    uint32_t buf = net_symbol(progs[6], "buf");
    for (unsigned i = 0; i < P3_WORDS; i++)
        assert_int_equal(net_mem32(&n, 1, 1, buf + 4 * i), P3_WORDS - i);
    /* No header set anything up: no channel of any cell counted a pathway, and every STATUS read as
     * documented (asleep; asleep and loading; asleep, loaded and quiescent unless words wait already). */
    for (unsigned y = 0; y < 2; y++)
        for (unsigned x = 0; x < 4; x++)
            for (unsigned lc = 0; lc < n.machine.agent.channels; lc++)
                assert_int_equal(net_coa(&n, x, y)->lc_stats[lc].pathways, 0);
    for (unsigned i = 0; i < sizeof plan / sizeof plan[0]; i++) {
        unsigned x = plan[i].x, y = plan[i].y;
        assert_int_equal(net_reg(&n, x, y, 25) & 5u, COA_STATUS_ASLEEP);
        assert_int_equal(net_reg(&n, x, y, 26), COA_STATUS_ASLEEP | COA_STATUS_LOADING);
        assert_int_equal(net_reg(&n, x, y, 27), COA_STATUS_ASLEEP | COA_STATUS_QUIESCENT);
    }
    net_free(&n);
}

typedef struct load_probe {
    unsigned phase; /* 0: not yet loading, 1: loading */
    uint64_t last;  /* the last clock with STATUS bit 2 set */
} load_probe_t;

static bool load_finished(const net_t *n, void *user)
{
    load_probe_t *p = user;
    bool loading = net_coa(n, 0, 0)->loading;
    if (p->phase == 0 && loading)
        p->phase = 1;
    if (p->phase == 1 && !loading) {
        p->last = net_clock(n) - 1;
        return true;
    }
    return false;
}

/* Measures the loader of an n-entry pattern, with the CA either polling STATUS (no memory use) or doing
 * single loads back to back (the memory free every other clock). */
static void check_load_clocks(unsigned nentries, bool ca_loads)
{
    net_t n;
    net_init(&n, 1, 1);
    net_create(&n);
    cell_plan_t c = {0, 0, {{0}}, nentries, NULL, NULL};
    for (unsigned i = 0; i < nentries; i++)
        c.entries[i] = (entry_t){4 + i, ROUTE(COA_END_QUEUE, 0, 0), ROUTE(COA_END_NONE, 0, 0), i % 2};
    char src[2048];
    if (ca_loads) {
        /* the loads begin on the clock after the LOAD write */
        snprintf(src, sizeof src,
                 "        .include \"net.inc\"\n"
                 "_start: li   r5, pattern\n"
                 "        la   r6, pattern\n"
                 "        li   r3, 100\n"
                 "        rdcr r24, [CR_CLOCK_LO]\n"
                 "        wrcr r5, [COA_LOAD]\n"
                 "1:      { ldw r7, [r6] ; loop r3, 1b }\n"
                 "        halt\n"
                 "        .data\n"
                 "pattern: .word %u\n"
                 "        .space %u\n",
                 nentries, 16 * nentries);
    }
    const emu_program_t *p = ca_loads ? net_asm(&n, src) : pattern_program(&n, &c);
    net_load(&n, 0, 0, p, NULL, 0);
    load_probe_t probe = {0, 0};
    assert_true(net_run_until(&n, 10000, load_finished, &probe));
    net_run(&n, NET_LIMIT);
    net_expect_done(&n);
    /* The LOAD write issues on the clock after r24 was read; the loader reads word 0 on that clock, then
     * one word per free memory clock: 1 + 4n words in all. */
    uint64_t t = net_reg(&n, 0, 0, 24) + 1, words = 1 + 4ull * nentries;
    uint64_t want = ca_loads ? t + 2 * (words - 1) : t + (words - 1);
    if (probe.last != want)
        fail_msg("%u entries, CA %s: the load started at clock %llu and ended at %llu, not %llu", nentries,
                 ca_loads ? "loading" : "idle", (unsigned long long)t, (unsigned long long)probe.last,
                 (unsigned long long)want);
    net_free(&n);
}

static void test_the_loader_reads_one_word_per_free_memory_clock(void **state)
{
    (void)state;
    for (unsigned e = 1; e <= 4; e++) {
        check_load_clocks(e, false);
        check_load_clocks(e, true);
    }
}

/* A sleeping agent still takes the words that arrive (up to its queue's room) but sends none on; waking it
 * lets them go. (0,0) -> (1,0) -> gi0 of (2,0) over channels set up through the registers. */
static void test_a_sleeping_agent_takes_arrivals_but_forwards_nothing_until_it_wakes(void **state)
{
    (void)state;
    enum { WORDS = 5, NAP = 200 };
    net_t n;
    net_init(&n, 3, 1);
    net_create(&n);
    net_load(&n, 0, 0,
             net_asmf(&n,
                      "        .include \"net.inc\"\n"
                      "_start: li   r5, (END_LINK << 12) | (DIR_PX << 8) | 8\n"
                      "        wrcr r5, [COA_LC + 0 * 8 + LC_ROUTE]\n"
                      "        wrcr zero, [COA_GATE_OUT0]\n"
                      "        delay 20\n" /* the others have set their channels up */
                      "        li   r3, %u\n"
                      "1:      { mov go0, r3 ; loop r3, 1b }\n"
                      "        halt\n",
                      (unsigned)WORDS),
             NULL, 0);
    net_load(&n, 1, 0,
             net_asmf(&n,
                      "        .include \"net.inc\"\n"
                      "_start: li   r5, 1\n"
                      "        wrcr r5, [COA_SLEEP]\n"
                      "        li   r5, (END_LINK << 12) | (DIR_MX << 8) | 0\n"
                      "        wrcr r5, [COA_LC + 8 * 8 + LC_SOURCE]\n"
                      "        li   r5, (END_LINK << 12) | (DIR_PX << 8) | 8\n"
                      "        wrcr r5, [COA_LC + 8 * 8 + LC_ROUTE]\n"
                      "        delay %u\n"
                      "        wrcr zero, [COA_SLEEP]\n"
                      "        rdcr a0, [CR_CLOCK_LO]\n"
                      "        halt\n",
                      (unsigned)NAP),
             NULL, 0);
    net_load(&n, 2, 0,
             net_asmf(&n,
                      "        .include \"net.inc\"\n"
                      "_start: li   r5, (END_LINK << 12) | (DIR_MX << 8) | 8\n"
                      "        wrcr r5, [COA_LC + 8 * 8 + LC_SOURCE]\n"
                      "        li   r5, 8\n"
                      "        wrcr r5, [COA_GATE_IN0]\n"
                      "        { mov r6, gi0 ; rdcr a1, [CR_CLOCK_LO] }\n"
                      "        li   r3, %u\n"
                      "1:      { add r6, r6, gi0 ; loop r3, 1b }\n"
                      "        mov  a0, r6\n"
                      "        halt\n",
                      (unsigned)WORDS - 1),
             NULL, 0);
    assert_int_equal(net_run(&n, NAP / 2), EMU_RUN_LIMIT);
    const coa_t *mid = net_coa(&n, 1, 0);
    assert_true(mid->asleep);
    assert_int_equal(mid->lc[8].count, WORDS);
    assert_int_equal(mid->link_stats[COA_DIR_PX].words, 0);
    assert_int_equal(net_coa(&n, 2, 0)->lc[8].count, 0);
    assert_int_equal(coa_lc_wait(mid, 8, net_clock(&n)), COA_WAIT_ASLEEP);
    net_run(&n, NET_LIMIT);
    net_expect_done(&n);
    assert_int_equal(net_a0(&n, 2, 0), WORDS * (WORDS + 1) / 2);
    /* the first word reached (2,0) one hop after the wake-up, not before */
    uint32_t woke = net_a0(&n, 1, 0) - 1, first = net_reg(&n, 2, 0, 4);
    assert_int_equal(first, woke + n.machine.agent.hop_latency);
    net_free(&n);
}

/* A pattern naming a channel that still holds words: the load faults, naming the channel. */
static void test_a_pattern_that_rewrites_a_channel_holding_words_faults(void **state)
{
    (void)state;
    net_t n;
    net_init(&n, 2, 1);
    net_create(&n);
    const emu_program_t *p = net_asmf(&n,
                                      "        .include \"net.inc\"\n"
                                      "_start: li   r5, 1\n"
                                      "        wrcr r5, [COA_SLEEP]\n"
                                      "        li   r5, 3\n"
                                      "        wrcr r5, [COA_GATE_OUT0]\n"
                                      "        mov  go0, r5\n"
                                      "        mov  go0, r5\n"
                                      "        li   r5, pattern\n"
                                      "        wrcr r5, [COA_LOAD]\n"
                                      "1:      rdcr r6, [COA_STATUS]\n"
                                      "        and  r6, r6, COA_STATUS_LOADING\n"
                                      "        bnez r6, 1b\n"
                                      "        halt\n"
                                      "        .data\n"
                                      "pattern: .word 2\n"
                                      "        .word 5, 0x%x, 0, 0\n"
                                      "        .word 3, 0x%x, 0, 0\n",
                                      ROUTE(COA_END_LINK, COA_DIR_PX, 8), ROUTE(COA_END_LINK, COA_DIR_PX, 9));
    net_load(&n, 0, 0, p, NULL, 0);
    net_run(&n, NET_LIMIT);
    unsigned x, y;
    char text[512];
    net_expect_fault(&n, EMU_FAULT_NETWORK, &x, &y, text, sizeof text);
    print_message("%s\n", text);
    assert_int_equal(x, 0);
    assert_int_equal(y, 0);
    net_expect_contains(text, "cell (0,0) pc 0x");
    net_expect_contains(text, "channel 3");
    /* The entry before it was loaded; the channel with words was left alone. */
    const coa_t *c = net_coa(&n, 0, 0);
    assert_int_equal(c->lc[5].state, COA_LC_ROUTED);
    assert_int_equal(c->lc[3].count, 2);
    net_free(&n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_loaded_pattern_carries_words_over_several_cells_with_no_header),
        cmocka_unit_test(test_the_loader_reads_one_word_per_free_memory_clock),
        cmocka_unit_test(test_a_sleeping_agent_takes_arrivals_but_forwards_nothing_until_it_wakes),
        cmocka_unit_test(test_a_pattern_that_rewrites_a_channel_holding_words_faults),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
