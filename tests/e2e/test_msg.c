/* The message-passing runtime end to end: random traffic arrives whole and in order, the dateline is what
 * keeps that traffic from deadlocking, one transmitter sends one message at a time (the ConSet paper's,
 * section 4.3) and holds each pathway through the message's work, and misuse faults with a report that
 * names it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "e2e.h"
#include "iwarp_config.h"

static void test_random_messages_arrive_whole_and_in_order_on_8x8(void **state)
{
    (void)state;
    e2e_run_t r;
    e2e_run_file(&r, "programs/net/msg_random.run"); /* the program traps on a wrong word, length or order */
    e2e_assert_done(&r);
    uint64_t received = 0;
    for (unsigned y = 0; y < 8; y++)
        for (unsigned x = 0; x < 8; x++)
            received += e2e_a0(&r, x, y);
    uint32_t per_cell = r.desc.rules[0].args[0].value;
    assert_int_equal(received, 64ull * per_cell); /* every message sent was received */
    e2e_free(&r);
}

/* Long messages between random cells: with the dateline's pools they all get through; with every transit
 * hop in one pool, the channel dependencies round the rings close and the network deadlocks. */
static void run_random_traffic(e2e_run_t *r, bool dateline, unsigned messages, unsigned max_words)
{
    memset(r, 0, sizeof *r);
    emu_machine_t m;
    emu_machine_defaults(&m);
    char text[1024];
    snprintf(text, sizeof text, "%sarray 8x8\nprogram random %s/programs/net/msg_random.s\ncells all random %u %u\n",
             dateline ? "" : "define MSG_NO_DATELINE=1\n", IWARP_SOURCE_ROOT, messages, max_words);
    assert_int_equal(run_desc_parse_string("dateline.run", text, strlen(text), &m, &r->desc, stderr), 0);
    static const char *const none[1] = {NULL};
    assert_int_equal(run_desc_build(&r->desc, none, 0, none, 0, &r->array), 0);
    r->status = emu_array_run(r->array, 5000000);
}

static void test_random_long_messages_flow_with_the_dateline(void **state)
{
    (void)state;
    e2e_run_t r;
    run_random_traffic(&r, true, 8, 2048);
    e2e_assert_done(&r);
    e2e_free(&r);
}

/* Short queues keep a header's street signs in its first channel while it waits for the next: the transmitter
 * must not then stall its CA (a handler writing the info word through a gate into the full queue, events off)
 * or the receives that free channels never run. The soak found this case (6x5, queue_depth 2). */
static void test_a_waiting_header_does_not_stall_the_transmitter(void **state)
{
    (void)state;
    for (unsigned sends = 1; sends <= 4; sends += 3) {
        e2e_run_t r;
        memset(&r, 0, sizeof r);
        emu_machine_t m;
        emu_machine_defaults(&m);
        char text[1024];
        snprintf(text, sizeof text,
                 "array 6x5\nset queue_depth = 2\ndefine MSG_SENDS=%u\nprogram random %s/programs/net/msg_random.s\n"
                 "cells all random 14 259\n",
                 sends, IWARP_SOURCE_ROOT);
        assert_int_equal(run_desc_parse_string("short_queues.run", text, strlen(text), &m, &r.desc, stderr), 0);
        static const char *const none[1] = {NULL};
        assert_int_equal(run_desc_build(&r.desc, none, 0, none, 0, &r.array), 0);
        r.status = emu_array_run(r.array, 5000000);
        e2e_assert_done(&r);
        e2e_free(&r);
    }
}

/* A run stopped at any clock of the round-robin demo, whose messages keep moving, is in no wait cycle: a
 * channel waiting for a credit that is on the wire, or a header being decoded, waits on nothing stuck. (The
 * viewer outlines what this finds on a paused run; it found false cycles at clock 110.) */
static void test_a_stopped_run_with_traffic_on_the_wire_is_in_no_wait_cycle(void **state)
{
    (void)state;
    e2e_run_t r;
    memset(&r, 0, sizeof r);
    emu_machine_t m;
    emu_machine_defaults(&m);
    char path[1024];
    snprintf(path, sizeof path, "%s/programs/demos/roundrobin.run", IWARP_SOURCE_ROOT);
    assert_int_equal(run_desc_parse_file(path, &m, &r.desc, stderr), 0);
    static const char *const none[1] = {NULL};
    assert_int_equal(run_desc_build(&r.desc, none, 0, none, 0, &r.array), 0);
    static emu_wait_cycle_t cyc;
    unsigned stopped = 0;
    while ((r.status = emu_array_run(r.array, emu_array_clock(r.array) + 1)) == EMU_RUN_LIMIT) {
        if (emu_array_find_wait_cycle(r.array, &cyc, NULL, 0))
            fail_msg("a wait cycle at clock %llu of a run that keeps moving",
                     (unsigned long long)emu_array_clock(r.array));
        stopped++;
    }
    e2e_assert_done(&r);
    assert_true(stopped > 100);
    e2e_free(&r);
}

static void test_random_long_messages_deadlock_without_the_dateline(void **state)
{
    (void)state;
    e2e_run_t r;
    run_random_traffic(&r, false, 8, 2048);
    assert_int_equal(r.status, EMU_RUN_DEADLOCK);
    const char *report = emu_array_deadlock(r.array);
    assert_non_null(strstr(report, "channel"));
    /* The README's example: the report names the known cause and when the cycle closed, before it was noticed. */
    assert_non_null(strstr(report, "cause: channels of one pool (pool 0) round a ring (row "));
    assert_non_null(strstr(report, "no dateline"));
    const char *closed = strstr(report, "the cycle closed at clock ");
    assert_non_null(closed);
    unsigned long long at = strtoull(closed + strlen("the cycle closed at clock "), NULL, 10);
    assert_true(at > 0 && at < emu_array_clock(r.array));
    assert_non_null(strstr(report, "deadlock_clocks = 100000"));
    /* And the messages of the cycle, one row each: every one is sent by the runtime's spool 0 to an arrival queue,
     * its length read from its info word, and waits for a channel the next one holds, the last for one the first
     * holds. The rows fit in 120 columns. */
    const char *table = strstr(report, "messages in the cycle");
    assert_non_null(table);
    const char *row = strchr(table, '\n') + 1;
    assert_int_equal(strncmp(row, "   #  from", 10), 0);
    unsigned rows = 0, waits_for[32];
    for (row = strchr(row, '\n') + 1; strncmp(row, "   ", 3) == 0 && rows < 32; row = strchr(row, '\n') + 1) {
        size_t len = (size_t)(strchr(row, '\n') - row);
        char text[256];
        snprintf(text, sizeof text, "%.*s", (int)len, row);
        assert_true(len < 120);
        unsigned num, fx, fy, spool, tx, ty, sent, length;
        if (sscanf(text, " %u (%u,%u) spool %u (%u,%u) queue %u %u", &num, &fx, &fy, &spool, &tx, &ty, &sent,
                   &length) != 8)
            fail_msg("not a row of a message the runtime sent: %s", text);
        assert_int_equal(num, rows + 1);
        assert_true(sent > 0 && sent <= length);
        const char *held = strstr(text, "a pool-0 channel at (");
        assert_non_null(held);
        held = strstr(held, ", held by #");
        assert_non_null(held);
        waits_for[rows++] = (unsigned)strtoul(held + strlen(", held by #"), NULL, 10);
    }
    assert_true(rows >= 2);
    for (unsigned i = 0; i < rows; i++)
        assert_int_equal(waits_for[i], (i + 1) % rows + 1);
    e2e_free(&r);
}

/* programs/net/msg_random.run's traffic without the dateline: here the senders that find no free channel
 * retry on a timer, and the receivers' wait loops wake for each retry, look, and sleep again. That is no
 * progress: the run stops as a deadlock (it ran on to the cycle limit when every instruction outside a
 * handler counted). */
static void test_retrying_senders_do_not_hide_a_deadlock(void **state)
{
    (void)state;
    e2e_run_t r;
    run_random_traffic(&r, false, 16, 1024);
    assert_int_equal(r.status, EMU_RUN_DEADLOCK);
    assert_non_null(strstr(emu_array_deadlock(r.array), "waiting for a free pool-0 channel"));
    assert_true(emu_array_cycles(r.array) < 1000000);
    e2e_free(&r);
    run_random_traffic(&r, true, 16, 1024);
    e2e_assert_done(&r);
    e2e_free(&r);
}

/* Cell (0,0) queues two messages at once, 512 words to (1,0) and 8 to (2,0): different destinations, so only
 * the number of concurrent sends keeps them apart. (1,0) notes the clock it has read A's last data word,
 * (2,0) the clock it has read B's first, each straight from gi0 as soon as it comes. */
static const char two_queued_sends[] = ".include \"msg.s\"\n"
                                       "        .bss\n"
                                       "buf:    .space 2048\n"
                                       "        .text\n"
                                       "_start: call msg_init\n"
                                       "        rdcr r64, [CR_CELL_ID]\n"
                                       "        li   r65, 1\n"
                                       "        beq  r64, r65, first\n"
                                       "        li   r65, 2\n"
                                       "        beq  r64, r65, second\n"
                                       "        li   a0, 1\n"
                                       "        li   a1, buf\n"
                                       "        li   a2, 512\n"
                                       "        call msg_isend\n"
                                       "        mov  r66, a0\n"
                                       "        li   a0, 2\n"
                                       "        li   a1, buf\n"
                                       "        li   a2, 8\n"
                                       "        call msg_isend\n"
                                       "        call msg_wait\n"
                                       "        mov  a0, r66\n"
                                       "        call msg_wait\n"
                                       "        halt\n"
                                       "first:  msg_take_arrival r12, r14, r13\n"
                                       "        li   r20, 512\n"
                                       "1:      mov  r21, gi0\n"
                                       "        loop r20, 1b\n"
                                       "        rdcr a0, [CR_CLOCK_LO]\n"
                                       "        halt\n"
                                       "second: msg_take_arrival r12, r14, r13\n"
                                       "        mov  r21, gi0\n"
                                       "        rdcr a0, [CR_CLOCK_LO]\n"
                                       "        li   r20, 7\n"
                                       "1:      mov  r21, gi0\n"
                                       "        loop r20, 1b\n"
                                       "        halt\n";

/* The paper's one transmitter (MSG_SENDS=1, the default) sends B only after A: B's first data word reaches
 * (2,0), two hops away, after A's last reached (1,0), one hop away. Four concurrent sends would start B
 * while A streams (the second run shows it), so a default gone back to 4 fails here. */
static void test_one_transmitter_sends_the_second_message_after_the_first(void **state)
{
    (void)state;
    e2e_run_t r;
    e2e_run_source(&r, two_queued_sends, "array 3x1");
    e2e_assert_done(&r);
    uint32_t last_of_a = e2e_a0(&r, 1, 0), first_of_b = e2e_a0(&r, 2, 0);
    assert_true(first_of_b > last_of_a);
    e2e_check_golden("msg_two_queued#last-of-A", last_of_a);
    e2e_check_golden("msg_two_queued#first-of-B", first_of_b);
    e2e_free(&r);

    e2e_run_source(&r, two_queued_sends, "array 3x1\ndefine MSG_SENDS=4");
    e2e_assert_done(&r);
    last_of_a = e2e_a0(&r, 1, 0);
    first_of_b = e2e_a0(&r, 2, 0);
    assert_true(first_of_b < last_of_a);
    e2e_check_golden("msg_two_queued_4_sends#last-of-A", last_of_a);
    e2e_check_golden("msg_two_queued_4_sends#first-of-B", first_of_b);
    e2e_free(&r);
}

/* The statistic of pathways held before their first data word, summed over the channels of a cell. */
static void held_of_cell(const e2e_run_t *r, unsigned x, unsigned y, uint64_t *pathways, uint64_t *clocks,
                         uint64_t *max)
{
    *pathways = *clocks = *max = 0;
    const coa_t *c = emu_array_coa(r->array, x, y);
    for (unsigned i = 0; i < c->cfg.channels; i++) {
        *pathways += c->lc_stats[i].held_pathways;
        *clocks += c->lc_stats[i].held_clocks;
        if (c->lc_stats[i].held_max > *max)
            *max = c->lc_stats[i].held_max;
    }
}

/* Each of the two messages is counted once, at its sender, and the clocks are those of the transmitter's
 * work between its header and its info word (the first untagged word): the event, taking it off the queue,
 * the info word and the data's spool. No other cell starts a pathway. */
static void test_each_message_counts_the_clocks_its_header_held_the_pathway(void **state)
{
    (void)state;
    e2e_run_t r;
    e2e_run_source(&r, two_queued_sends, "array 3x1");
    e2e_assert_done(&r);
    uint64_t pathways, clocks, max;
    held_of_cell(&r, 0, 0, &pathways, &clocks, &max);
    assert_int_equal(pathways, 2);
    assert_true(max <= clocks);
    e2e_check_golden("msg_two_queued#held-clocks", clocks);
    e2e_check_golden("msg_two_queued#held-max", max);
    for (unsigned x = 1; x < 3; x++) {
        held_of_cell(&r, x, 0, &pathways, &clocks, &max);
        assert_int_equal(pathways, 0);
    }
    e2e_free(&r);
}

static void expect_trap(const char *program, const char *array, const char *trap_name)
{
    e2e_run_t r;
    e2e_run_source(&r, program, array);
    assert_int_equal(r.status, EMU_RUN_FAULT);
    unsigned x, y;
    assert_true(emu_array_first_fault(r.array, &x, &y));
    char line[400];
    emu_format_fault(r.array, x, y, line, sizeof line);
    if (strstr(line, trap_name) == NULL || strstr(line, "msg.s:") == NULL)
        fail_msg("expected a fault naming %s in msg.s, got: %s", trap_name, line);
    e2e_free(&r);
}

static void test_a_message_to_a_cell_that_does_not_exist_faults(void **state)
{
    (void)state;
    expect_trap(".include \"msg.s\"\n"
                "_start: call msg_init\n"
                "        li a0, 4\n" /* a 2x2 array has cells 0..3 */
                "        li a1, 0x8000\n"
                "        li a2, 4\n"
                "        call msg_isend\n"
                "        halt\n",
                "array 2x2", "TRAP_MSG_DEST");
}

static void test_a_buffer_outside_memory_faults(void **state)
{
    (void)state;
    expect_trap(".include \"msg.s\"\n"
                "_start: call msg_init\n"
                "        li a0, 1\n"
                "        li a1, 0x7fff0\n" /* 100 words from here run past 512 KB */
                "        li a2, 100\n"
                "        call msg_isend\n"
                "        halt\n",
                "array 2x1", "TRAP_MSG_BUFFER");
}

static void test_a_message_longer_than_the_receive_buffer_faults(void **state)
{
    (void)state;
    expect_trap(".include \"msg.s\"\n"
                "_start: call msg_init\n"
                "        rdcr r64, [CR_CELL_ID]\n"
                "        bnez r64, 1f\n"
                "        li a0, 1\n"
                "        li a1, 0x8000\n"
                "        li a2, 16\n"
                "        call msg_send\n"
                "        halt\n"
                "1:      li a0, 0x8000\n"
                "        li a1, 8\n" /* room for 8 words, the message has 16 */
                "        call msg_receive\n"
                "        halt\n",
                "array 2x1", "TRAP_MSG_LONG");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_messages_arrive_whole_and_in_order_on_8x8),
        cmocka_unit_test(test_random_long_messages_flow_with_the_dateline),
        cmocka_unit_test(test_a_waiting_header_does_not_stall_the_transmitter),
        cmocka_unit_test(test_a_stopped_run_with_traffic_on_the_wire_is_in_no_wait_cycle),
        cmocka_unit_test(test_random_long_messages_deadlock_without_the_dateline),
        cmocka_unit_test(test_retrying_senders_do_not_hide_a_deadlock),
        cmocka_unit_test(test_one_transmitter_sends_the_second_message_after_the_first),
        cmocka_unit_test(test_each_message_counts_the_clocks_its_header_held_the_pathway),
        cmocka_unit_test(test_a_message_to_a_cell_that_does_not_exist_faults),
        cmocka_unit_test(test_a_buffer_outside_memory_faults),
        cmocka_unit_test(test_a_message_longer_than_the_receive_buffer_faults),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
