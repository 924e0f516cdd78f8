/*
 * Deadlock detection (docs/network.md, "Deadlock detection"): when no word has moved and no CA has issued
 * for deadlock_clocks clocks while some CA waits on a gate, the run stops with status deadlock and the
 * report prints the cycle of waiting cells and channels. A long run that keeps moving is never reported.
 */
#include "net_harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { RING_WORDS = 100, DEADLOCK_CLOCKS = 300 };

typedef struct ring_cell {
    unsigned x, y;
    coa_dir_t dir; /* towards the next cell of the ring */
} ring_cell_t;

/* Each cell of the ring opens a pathway to gi0 of the next one, writes RING_WORDS words and only then reads
 * RING_WORDS from its own gi0. With small queues every CA stalls on go0 and nobody reads. In one run, or in
 * runs of `slice` clocks as the console and `iwarp run` make them. */
static void run_ring_sliced(net_t *n, const ring_cell_t *ring, unsigned len, uint64_t slice)
{
    net_create(n);
    for (unsigned i = 0; i < len; i++) {
        const ring_cell_t *next = &ring[(i + 1) % len];
        const emu_program_t *p =
            net_asmf(n,
                     "        .include \"net.inc\"\n"
                     "_start: expect 0\n"
                     "        open 0\n"
                     "        sign 0, %u, %u, %u\n"
                     "        sign 0, %u, %u, SIGN_GATE, 0\n"
                     "        li   r3, %u\n"
                     "1:      { mov go0, r3 ; loop r3, 1b }\n"
                     "        li   r3, %u\n"
                     "2:      { add r6, r6, gi0 ; loop r3, 2b }\n"
                     "        trailer 0\n"
                     "        halt\n",
                     ring[i].x, ring[i].y, ring[i].dir, next->x, next->y, (unsigned)RING_WORDS, (unsigned)RING_WORDS);
        net_load(n, ring[i].x, ring[i].y, p, NULL, 0);
    }
    if (slice == 0)
        net_run(n, NET_LIMIT);
    else
        while (net_run(n, net_clock(n) + slice) == EMU_RUN_LIMIT && net_clock(n) < NET_LIMIT)
            ;
}

static void run_ring(net_t *n, const ring_cell_t *ring, unsigned len)
{
    run_ring_sliced(n, ring, len, 0);
}

/* Status deadlock, found no later than deadlock_clocks after the last progress, and a report that starts
 * with the wait cycle and names every cell of the ring and the channels between them. */
static void expect_ring_deadlock(const net_t *n, const ring_cell_t *ring, unsigned len)
{
    if (n->status != EMU_RUN_DEADLOCK) {
        net_print_state(n);
        fail_msg("a ring of %u cells streaming to each other without reading ended %s, not deadlock", len,
                 emu_run_status_name(n->status));
    }
    const char *text = emu_array_deadlock(n->array);
    assert_non_null(text);
    print_message("%s", text);
    if (strncmp(text, "wait cycle:\n", 12) != 0)
        fail_msg("the report does not start with the cycle:\n%s", text);
    char needle[64];
    for (unsigned i = 0; i < len; i++) {
        snprintf(needle, sizeof needle, "CA of (%u,%u)", ring[i].x, ring[i].y);
        net_expect_contains(text, needle);
        /* the channel each CA fills, as the CA waits on it */
        const coa_t *c = net_coa(n, ring[i].x, ring[i].y);
        snprintf(needle, sizeof needle, "(%u,%u) channel %u", ring[i].x, ring[i].y, c->gate_out_lc[0]);
        net_expect_contains(text, needle);
        /* the channel at the next cell that holds words for gi0, which its CA does not read */
        const ring_cell_t *next = &ring[(i + 1) % len];
        snprintf(needle, sizeof needle, "(%u,%u) channel %u", next->x, next->y,
                 net_coa(n, next->x, next->y)->gate_in_lc[0]);
        net_expect_contains(text, needle);
    }
    net_expect_contains(text, "go0");
    net_expect_contains(text, "gi0");
    /* The same cycle as steps, for the viewer to draw: every CA of the ring, and between each cell and the next
     * the link the ring goes over (on 2x1 both links join the two cells: the step names the one its words use). */
    const emu_wait_cycle_t *cyc = emu_array_deadlock_cycle(n->array);
    unsigned w = n->machine.width, cas = 0, lanes = 0;
    for (unsigned k = 0; k < cyc->n; k++) {
        const emu_wait_step_t *st = &cyc->step[k];
        cas += st->is_ca;
        if (st->lane_dir == COA_NUM_DIRS)
            continue;
        lanes++;
        bool on_ring = false;
        for (unsigned i = 0; i < len; i++)
            on_ring |= st->lane_cell == ring[i].y * w + ring[i].x && st->lane_dir == ring[i].dir;
        if (!on_ring)
            fail_msg("step %u crosses link %u of cell %u, which is not the ring's", k, st->lane_dir, st->lane_cell);
    }
    assert_int_equal(cas, len);
    assert_int_equal(lanes, len);
    /* Nothing moved in the last deadlock_clocks clocks, and the run stopped right then. */
    for (unsigned i = 0; i < len; i++) {
        const ca_t *ca = net_ca(n, ring[i].x, ring[i].y);
        assert_true(ca->s.state == CA_WAITING || ca->s.state == CA_FAULTED);
        assert_int_equal(ca->s.wait_cause, CA_STALL_GATE_OUT_FULL);
    }
}

static void test_two_cells_streaming_to_each_other_deadlock_and_the_cycle_is_reported(void **state)
{
    (void)state;
    static const ring_cell_t ring[] = {{0, 0, COA_DIR_PX}, {1, 0, COA_DIR_PX}}; /* (1,0) +X wraps to (0,0) */
    net_t n;
    net_init(&n, 2, 1);
    net_set(&n, "queue_depth", "%u", 2);
    net_set(&n, "deadlock_clocks", "%u", DEADLOCK_CLOCKS);
    run_ring(&n, ring, 2);
    expect_ring_deadlock(&n, ring, 2);
    net_free(&n);
}

static unsigned long long closed_at(const net_t *n)
{
    const char *closed = strstr(emu_array_deadlock(n->array), "the cycle closed at clock ");
    assert_non_null(closed);
    return strtoull(closed + strlen("the cycle closed at clock "), NULL, 10);
}

/* The clock the cycle closed is when its last word moved or its last CA began to wait, however the run was cut
 * into pieces: a run's end settles the CA's stall clocks, but the wait began where it began. */
static void test_the_clock_the_cycle_closed_does_not_depend_on_how_the_run_was_cut(void **state)
{
    (void)state;
    static const ring_cell_t ring[] = {{0, 0, COA_DIR_PX}, {1, 0, COA_DIR_PX}};
    unsigned long long at[2];
    for (unsigned k = 0; k < 2; k++) {
        net_t n;
        net_init(&n, 2, 1);
        net_set(&n, "queue_depth", "%u", 2);
        net_set(&n, "deadlock_clocks", "%u", DEADLOCK_CLOCKS);
        run_ring_sliced(&n, ring, 2, k == 0 ? 0 : 7);
        expect_ring_deadlock(&n, ring, 2);
        at[k] = closed_at(&n);
        net_free(&n);
    }
    assert_true(at[0] > 0 && at[0] < 100);
    assert_int_equal(at[1], at[0]);
}

static void test_four_cell_ring_with_turns_deadlocks_and_the_cycle_is_reported(void **state)
{
    (void)state;
    static const ring_cell_t ring[] = {{1, 1, COA_DIR_PX}, {2, 1, COA_DIR_PY}, {2, 2, COA_DIR_MX}, {1, 2, COA_DIR_MY}};
    net_t n;
    net_init(&n, 4, 4);
    net_set(&n, "queue_depth", "%u", 3);
    net_set(&n, "deadlock_clocks", "%u", DEADLOCK_CLOCKS);
    run_ring(&n, ring, 4);
    expect_ring_deadlock(&n, ring, 4);
    net_free(&n);
}

static void test_four_cells_around_a_torus_ring_deadlock(void **state)
{
    (void)state;
    static const ring_cell_t ring[] = {{0, 2, COA_DIR_PX}, {1, 2, COA_DIR_PX}, {2, 2, COA_DIR_PX}, {3, 2, COA_DIR_PX}};
    net_t n;
    net_init(&n, 4, 3);
    net_set(&n, "queue_depth", "%u", 1);
    net_set(&n, "deadlock_clocks", "%u", DEADLOCK_CLOCKS);
    run_ring(&n, ring, 4);
    expect_ring_deadlock(&n, ring, 4);
    /* The detector waited deadlock_clocks after the last word moved, not much longer. */
    uint64_t last_move = 0;
    for (unsigned i = 0; i < 4; i++) {
        const coa_t *c = net_coa(&n, ring[i].x, ring[i].y);
        for (unsigned lc = 0; lc < n.machine.agent.channels; lc++)
            if (c->lc[lc].moved_at != UINT64_MAX && c->lc[lc].moved_at > last_move)
                last_move = c->lc[lc].moved_at;
    }
    assert_true(net_clock(&n) >= last_move + DEADLOCK_CLOCKS);
    assert_true(net_clock(&n) <= last_move + DEADLOCK_CLOCKS + 10);
    net_free(&n);
}

/* Around a ring with one reservable channel per link and no dateline, each cell's header takes the channel
 * of the next cell and waits for the one after, which the next cell's header holds: a cycle of headers
 * waiting for channels (reason no_channel), reported through the pool channels it waits for. */
enum { HEADER_RING = 4, HEADER_DELAY = 20 };

static void load_header_ring(net_t *n)
{
    net_init(n, HEADER_RING, 1);
    net_set(n, "deadlock_clocks", "%u", DEADLOCK_CLOCKS);
    net_create(n);
    for (unsigned x = 0; x < HEADER_RING; x++) {
        const emu_program_t *p = net_asmf(n,
                                          "        .include \"net.inc\"\n"
                                          "_start: li   r5, 1 << 8\n"
                                          "        wrcr r5, [COA_LINK_POOL + DIR_PX * 8 + 0 * 2]\n"
                                          "        wrcr zero, [COA_LINK_POOL + DIR_PX * 8 + 1 * 2]\n"
                                          "        delay %u\n" /* every cell has narrowed its pool */
                                          "        open 0\n"
                                          "        sign 0, %u, 0, DIR_PX\n"
                                          "        sign 0, %u, 0, SIGN_GATE, 0\n"
                                          "        li   r3, 50\n"
                                          "1:      { mov go0, r3 ; loop r3, 1b }\n"
                                          "        trailer 0\n"
                                          "        halt\n",
                                          (unsigned)HEADER_DELAY, x, (x + 2) % HEADER_RING);
        net_load(n, x, 0, p, NULL, 0);
    }
}

/* Its steps: channel 8 of each cell, each waiting over its +X link. */
static void expect_header_ring_steps(const emu_wait_cycle_t *cyc)
{
    assert_int_equal(cyc->n, HEADER_RING);
    for (unsigned k = 0; k < cyc->n; k++) {
        const emu_wait_step_t *st = &cyc->step[k];
        assert_false(st->is_ca);
        assert_int_equal(st->lc, 8);
        assert_int_equal(st->lane_cell, st->cell);
        assert_int_equal(st->lane_dir, COA_DIR_PX);
        assert_int_equal(cyc->step[(k + 1) % cyc->n].cell, (st->cell + 1) % HEADER_RING);
    }
}

static void test_headers_waiting_for_each_others_channels_around_a_ring_deadlock(void **state)
{
    (void)state;
    enum { LEN = HEADER_RING };
    net_t n;
    load_header_ring(&n);
    net_run(&n, NET_LIMIT);
    if (n.status != EMU_RUN_DEADLOCK) {
        net_print_state(&n);
        fail_msg("headers waiting for each other's channels ended %s, not deadlock", emu_run_status_name(n.status));
    }
    const char *text = emu_array_deadlock(n.array);
    print_message("%s", text);
    net_expect_contains(text, "wait cycle:\n");
    char needle[96];
    for (unsigned x = 0; x < LEN; x++) {
        snprintf(needle, sizeof needle, "(%u,0) channel 8 holds a header waiting for a free pool-0 channel at (%u,0)",
                 x, (x + 1) % LEN);
        net_expect_contains(text, needle);
        const coa_t *c = net_coa(&n, x, 0);
        assert_int_equal(c->lc[8].state, COA_LC_HEADER);
        assert_int_equal(coa_lc_wait(c, 8, net_clock(&n)), COA_WAIT_NO_CHANNEL);
    }
    /* No word ever left these channels: the cycle closed when the last header was decoded, after the delay and
     * well before the detector noticed, not at clock 0. */
    const emu_wait_cycle_t *cyc = emu_array_deadlock_cycle(n.array);
    expect_header_ring_steps(cyc);
    if (cyc->closed_at <= HEADER_DELAY || cyc->closed_at + DEADLOCK_CLOCKS > net_clock(&n))
        fail_msg("closed at %llu, noticed at %llu", (unsigned long long)cyc->closed_at,
                 (unsigned long long)net_clock(&n));
    snprintf(needle, sizeof needle, "the cycle closed at clock %llu ", (unsigned long long)cyc->closed_at);
    net_expect_contains(text, needle);
    net_free(&n);
}

/* Stopped by its clock limit after the headers blocked and before the window closed, the run's wait cycle is
 * found all the same (the viewer draws it at a run's end), the same steps, and the report says the run stopped. */
static void test_a_stopped_run_shows_its_wait_cycle(void **state)
{
    (void)state;
    net_t n;
    load_header_ring(&n);
    assert_int_equal(net_run(&n, HEADER_DELAY + DEADLOCK_CLOCKS / 2), EMU_RUN_LIMIT);
    emu_wait_cycle_t cyc;
    char report[8192];
    assert_true(emu_array_find_wait_cycle(n.array, &cyc, report, sizeof report));
    print_message("%s", report);
    expect_header_ring_steps(&cyc);
    net_expect_contains(report, "wait cycle:\n");
    net_expect_contains(report, "the run stopped at clock");
    /* Before the headers are out there is no cycle, and no report. */
    net_free(&n);
    load_header_ring(&n);
    assert_int_equal(net_run(&n, HEADER_DELAY / 2), EMU_RUN_LIMIT);
    report[0] = 'x';
    assert_false(emu_array_find_wait_cycle(n.array, &cyc, report, sizeof report));
    assert_int_equal(cyc.n, 0);
    assert_int_equal(report[0], '\0');
    net_free(&n);
}

/* A long stream over several hops with a slow reader: the sender waits on go0 nearly all the time, but a
 * CA issues or a word moves every few clocks, so a deadlock_clocks far shorter than the run must not fire. */
static void test_a_long_run_that_keeps_moving_is_not_reported_as_deadlock(void **state)
{
    (void)state;
    enum { WORDS = 3000 };
    net_t n;
    net_init(&n, 8, 1);
    net_set(&n, "queue_depth", "%u", 2);
    net_set(&n, "deadlock_clocks", "%u", 8);
    net_create(&n);
    const emu_program_t *s = net_asmf(&n,
                                      "        .include \"net.inc\"\n"
                                      "_start: open 0\n"
                                      "        sign 0, 0, 0, DIR_PX\n"
                                      "        sign 0, 5, 0, SIGN_GATE, 0\n"
                                      "        li   r3, %u\n"
                                      "1:      { mov go0, r3 ; loop r3, 1b }\n"
                                      "        trailer 0\n"
                                      "        halt\n",
                                      (unsigned)WORDS);
    /* the reader multiplies every word (3 clocks): 7 clocks a word, over 3 words' time of the link */
    const emu_program_t *r = net_asmf(&n,
                                      "        .include \"net.inc\"\n"
                                      "_start: expect 0\n"
                                      "        li   r3, %u\n"
                                      "        li   r7, 7\n"
                                      "1:      mov  r5, gi0\n"
                                      "        mul  r5, r5, r7\n"
                                      "        add  r6, r6, r5\n"
                                      "        nop\n"
                                      "        loop r3, 1b\n"
                                      "        mov  a0, r6\n"
                                      "        halt\n",
                                      (unsigned)WORDS);
    net_load(&n, 0, 0, s, NULL, 0);
    net_load(&n, 5, 0, r, NULL, 0);
    net_run(&n, NET_LIMIT);
    net_expect_done(&n);
    assert_int_equal(net_a0(&n, 5, 0), 7u * WORDS * (WORDS + 1) / 2);
    assert_true(emu_array_cycles(n.array) > 7 * WORDS);
    net_free(&n);
}

/* Cell (0,0) sleeps in wfe on its timer SLEEPS times, 1000 clocks each, works BUSY loop iterations after
 * each wake, then sends one word to (1,0), whose CA waits on gi0 all along. Nothing moves for 20000 clocks.
 * Events stay off: the pending timer event in the mask wakes wfe all the same (docs/isa.md). */
static void run_sleeper(net_t *n, unsigned busy)
{
    enum { SLEEPS = 20 };
    net_init(n, 2, 1);
    net_set(n, "deadlock_clocks", "%u", 5000);
    net_create(n);
    const emu_program_t *s = net_asmf(n,
                                      "        .include \"net.inc\"\n"
                                      "_start: li   r4, EV_TIMER\n"
                                      "        wrcr r4, [CR_EVENT_MASK]\n"
                                      "        li   r8, %u\n"
                                      "1:      rdcr r5, [CR_CLOCK_LO]\n"
                                      "        add  r5, r5, 1000\n"
                                      "        wrcr r5, [CR_TIMER]\n"
                                      "2:      wfe\n"
                                      "        rdcr r6, [CR_EVENT_PENDING]\n"
                                      "        and  r6, r6, r4\n"
                                      "        beqz r6, 2b\n"
                                      "        wrcr r4, [CR_EVENT_PENDING]\n"
                                      "        li   r7, %u\n"
                                      "3:      { add r9, r9, 1 ; loop r7, 3b }\n"
                                      "        loop r8, 1b\n"
                                      "        open 0\n"
                                      "        sign 0, 0, 0, DIR_PX\n"
                                      "        sign 0, 1, 0, SIGN_GATE, 0\n"
                                      "        mov  go0, r9\n"
                                      "        trailer 0\n"
                                      "        halt\n",
                                      (unsigned)SLEEPS, busy);
    const emu_program_t *r = net_asmf(n, "        .include \"net.inc\"\n"
                                         "_start: expect 0\n"
                                         "        mov  a0, gi0\n"
                                         "        halt\n");
    net_load(n, 0, 0, s, NULL, 0);
    net_load(n, 1, 0, r, NULL, 0);
    net_run(n, NET_LIMIT);
}

/* Waking from wfe only to look and sleep again is not progress (the runtimes' wait loops while a sender
 * retries on a timer); working between the sleeps is. The run that only wakes stops as a livelock: no wait
 * cycle holds it, and the sleeper's timer still runs it. */
static void test_a_cell_that_only_wakes_and_sleeps_is_no_progress(void **state)
{
    (void)state;
    net_t n;
    run_sleeper(&n, 1);
    assert_int_equal(n.status, EMU_RUN_LIVELOCK);
    assert_non_null(strstr(emu_array_deadlock(n.array), "1 cell still runs, 1 waits for a word:\n  cell (0,0) pc "));
    assert_non_null(strstr(emu_array_deadlock(n.array), "waiting, until its timer\n"));
    net_free(&n);
    run_sleeper(&n, 100);
    net_expect_done(&n);
    assert_int_equal(net_a0(&n, 1, 0), 20u * 100);
    net_free(&n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_cells_streaming_to_each_other_deadlock_and_the_cycle_is_reported),
        cmocka_unit_test(test_the_clock_the_cycle_closed_does_not_depend_on_how_the_run_was_cut),
        cmocka_unit_test(test_four_cell_ring_with_turns_deadlocks_and_the_cycle_is_reported),
        cmocka_unit_test(test_four_cells_around_a_torus_ring_deadlock),
        cmocka_unit_test(test_headers_waiting_for_each_others_channels_around_a_ring_deadlock),
        cmocka_unit_test(test_a_stopped_run_shows_its_wait_cycle),
        cmocka_unit_test(test_a_long_run_that_keeps_moving_is_not_reported_as_deadlock),
        cmocka_unit_test(test_a_cell_that_only_wakes_and_sleeps_is_no_progress),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
