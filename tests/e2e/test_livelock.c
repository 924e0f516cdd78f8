/* Livelocks: no progress in the network (no word moved in any agent, no CA computing outside its wait loops and
 * event handlers) for deadlock_clocks while some cell waits, no wait cycle, and cells that still run. The run
 * stops with status livelock, at the same clock and with the same report on any number of threads; a long
 * computation, alone or with a cell waiting for its result, is progress and never stops so. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "e2e.h"
#include "iwarp_config.h"

/* Cell (0,0) takes its timer event in a handler that sets the timer again 16 clocks on and then works longer
 * than that, so the event is due again when it returns: the handler runs back to back and the program it
 * interrupted (waiting in msg_receive) never goes on. Cell (1,0) waits in msg_receive for a message nobody
 * sends. The same happens to the message-passing runtime when its retry timer is shorter than its handler
 * (docs/runtime.md). */
static const char spinning_source[] = "        .include \"msg.s\"\n"
                                      "        .bss\n"
                                      "buf:    .space 16\n"
                                      "        .text\n"
                                      "_start: call msg_init\n"
                                      "        rdcr r32, [CR_CELL_ID]\n"
                                      "        bnez r32, wait\n"
                                      "        li   r33, spin\n"
                                      "        wrcr r33, [CR_EVENT_VECTOR]\n"
                                      "        li   r33, EV_TIMER\n"
                                      "        wrcr r33, [CR_EVENT_MASK]\n"
                                      "        rdcr r33, [CR_CLOCK_LO]\n"
                                      "        add  r33, r33, 16\n"
                                      "        wrcr r33, [CR_TIMER]\n"
                                      "wait:   li   a0, buf\n"
                                      "        li   a1, 4\n"
                                      "        call msg_receive\n"
                                      "        halt\n"
                                      "spin:   li   r40, EV_TIMER\n"
                                      "        wrcr r40, [CR_EVENT_PENDING]\n"
                                      "        rdcr r40, [CR_CLOCK_LO]\n"
                                      "        add  r40, r40, 16\n"
                                      "        wrcr r40, [CR_TIMER]\n"
                                      "        li   r41, 20\n"
                                      "1:      loop r41, 1b\n"
                                      "        rfe\n";

static void run_spinning_handler(e2e_run_t *r, unsigned threads)
{
    char options[512];
    snprintf(options, sizeof options, "array 2x1\nset deadlock_clocks = 1000\nthreads %u\ninclude %s/runtime", threads,
             IWARP_SOURCE_ROOT);
    e2e_run_source(r, spinning_source, options);
}

/* The report's number after `key`. */
static uint64_t number_after(const char *report, const char *key)
{
    const char *p = strstr(report, key);
    assert_non_null(p);
    return strtoull(p + strlen(key), NULL, 10);
}

static void test_a_timer_shorter_than_its_handler_livelocks(void **state)
{
    (void)state;
    e2e_run_t first;
    run_spinning_handler(&first, 1);
    assert_int_equal(first.status, EMU_RUN_LIVELOCK);
    const char *report = emu_array_deadlock(first.array);
    /* The window closes deadlock_clocks after the last progress, and the run stops at the clock after that. */
    uint64_t progress = number_after(report, "no progress since clock ");
    uint64_t window = emu_array_machine(first.array)->deadlock_clocks;
    assert_int_equal(emu_array_clock(first.array), progress + window + 1);
    assert_non_null(strstr(report, "no word has moved in this run"));
    /* No cell has halted: (0,0) runs its handler, (1,0) waits. */
    assert_non_null(strstr(report, "; 1 cell still runs, 1 waits for a word:"));
    /* Where the spinning cell is: in its handler, diverted from the wait in the runtime. */
    assert_non_null(strstr(report, "running, in an event handler from pc 0x"));
    assert_non_null(strstr(report, "cell (0,0) pc "));
    assert_non_null(strstr(report, "runtime/msg.s:"));
    e2e_check_golden("timer_handler_livelock", emu_array_clock(first.array));
    for (unsigned threads = 2; threads <= 3; threads++) {
        e2e_run_t r;
        run_spinning_handler(&r, threads);
        assert_int_equal(r.status, EMU_RUN_LIVELOCK);
        assert_int_equal(emu_array_clock(r.array), emu_array_clock(first.array));
        /* The same report, but for the name of the run's own temporary source file. */
        assert_string_equal(strstr(emu_array_deadlock(r.array), ") running"), strstr(report, ") running"));
        assert_int_equal(strncmp(emu_array_deadlock(r.array), report, (size_t)(strstr(report, "iwarp-e2e-") - report)), 0);
        assert_int_equal(emu_array_hash(r.array, true, true), emu_array_hash(first.array, true, true));
        e2e_free(&r);
    }
    e2e_free(&first);
}

/* Cell (0,0) computes for about 6 deadlock windows (no word moves anywhere meanwhile), then sends its result
 * to (1,0), which waits for it in msg_receive, asleep in wfe. There is no wait cycle and a cell runs: were the
 * computing not progress, the run would stop as a livelock. It is: the run is done, the word delivered. */
static const char computing_source[] = "        .include \"msg.s\"\n"
                                       "        .bss\n"
                                       "buf:    .space 16\n"
                                       "        .text\n"
                                       "_start: call msg_init\n"
                                       "        rdcr r32, [CR_CELL_ID]\n"
                                       "        bnez r32, wait\n"
                                       "        li   r33, 0\n"
                                       "        li   r34, 3000\n"
                                       "1:      add  r33, r33, r34\n" /* 2 clocks an iteration */
                                       "        loop r34, 1b\n"
                                       "        stw  r33, [buf]\n"
                                       "        li   a0, 1\n"
                                       "        li   a1, buf\n"
                                       "        li   a2, 1\n"
                                       "        call msg_send\n"
                                       "        mov  a0, r33\n"
                                       "        halt\n"
                                       "wait:   li   a0, buf\n"
                                       "        li   a1, 4\n"
                                       "        call msg_receive\n"
                                       "        ldw  a0, [buf]\n"
                                       "        halt\n";

static void test_a_long_computation_is_not_a_livelock(void **state)
{
    (void)state;
    for (unsigned threads = 1; threads <= 3; threads++) {
        char options[512];
        snprintf(options, sizeof options, "array 2x1\nset deadlock_clocks = 1000\nthreads %u\ninclude %s/runtime",
                 threads, IWARP_SOURCE_ROOT);
        e2e_run_t r;
        e2e_run_source(&r, computing_source, options);
        e2e_assert_done(&r);
        assert_int_equal(e2e_a0(&r, 1, 0), 3000u * 3001u / 2u); /* the sum, delivered */
        assert_int_equal(e2e_a0(&r, 0, 0), e2e_a0(&r, 1, 0));
        assert_true(emu_array_cycles(r.array) > 6 * 1000);
        e2e_free(&r);
    }
}

/* A cell alone, computing for many windows with nobody waiting: not a deadlock nor a livelock. */
static void test_a_cell_computing_alone_is_not_a_livelock(void **state)
{
    (void)state;
    char options[512];
    snprintf(options, sizeof options, "array 1x1\nset deadlock_clocks = 100\ninclude %s/runtime", IWARP_SOURCE_ROOT);
    e2e_run_t r;
    e2e_run_source(&r,
                   "_start: li   r34, 5000\n"
                   "1:      add  a0, a0, 3\n"
                   "        loop r34, 1b\n"
                   "        halt\n",
                   options);
    e2e_assert_done(&r);
    assert_int_equal(e2e_a0(&r, 0, 0), 3u * 5000u);
    e2e_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_timer_shorter_than_its_handler_livelocks),
        cmocka_unit_test(test_a_long_computation_is_not_a_livelock),
        cmocka_unit_test(test_a_cell_computing_alone_is_not_a_livelock),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
