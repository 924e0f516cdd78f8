/* The message-passing runtime end to end: random traffic arrives whole and in order, the dateline is what
 * keeps that traffic from deadlocking, and misuse faults with a report that names it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
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
    snprintf(text, sizeof text,
             "%sarray 8x8\nprogram random %s/programs/net/msg_random.s\ncells all random %u %u\n",
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

static void test_random_long_messages_deadlock_without_the_dateline(void **state)
{
    (void)state;
    e2e_run_t r;
    run_random_traffic(&r, false, 8, 2048);
    assert_int_equal(r.status, EMU_RUN_DEADLOCK);
    assert_non_null(strstr(emu_array_deadlock(r.array), "channel"));
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
        cmocka_unit_test(test_random_long_messages_deadlock_without_the_dateline),
        cmocka_unit_test(test_retrying_senders_do_not_hide_a_deadlock),
        cmocka_unit_test(test_a_message_to_a_cell_that_does_not_exist_faults),
        cmocka_unit_test(test_a_buffer_outside_memory_faults),
        cmocka_unit_test(test_a_message_longer_than_the_receive_buffer_faults),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
