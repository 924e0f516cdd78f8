/*
 * Bypass stalls (docs/isa.md, "Bypass stalls"): an instruction that reads a loaded word one instruction after the
 * load, or reads a computed value as a memory address or a word to store one instruction after it was computed,
 * issues a clock late; a value the next instruction's computing units or branch read does not make it wait, nor
 * one computed early enough in a longer instruction. The stall follows the path taken (the next instruction or the
 * branch target, also one a register names), is counted as a stall of cause bypass, and is gone when the machine's
 * bypass keys are 0. Every expected count is the documented formula over the machine's clocks.
 */
#include "harness.h"

#define T(h, cls) h_class_clocks((h), ISA_T_##cls)
#define LOAD_DELAY(h) ((h)->machine.timing.bypass_load)
#define MEM_DELAY(h) ((h)->machine.timing.bypass_mem_operand)

/* One word of data at "d", its address in r4 (set two instructions before anything reads it). */
static void data_and_pointer(harness_t *h)
{
    pb_data_label(h->p, "d");
    pb_data_word(h->p, 41);
    pb_data_word(h->p, 0);
    PB(h->p, pb_la(4, "d"));
    PB(h->p, pb_nop());
}

static void test_defaults_delay_a_loaded_word_and_a_memory_operand_by_a_clock(void **state)
{
    harness_t *h = *state;
    assert_int_equal(LOAD_DELAY(h), 1);
    assert_int_equal(MEM_DELAY(h), 1);
}

static void test_a_loaded_word_read_by_the_next_instruction_waits(void **state)
{
    harness_t *h = *state;
    data_and_pointer(h);
    PB(h->p, pb_ri(ISA_OP_LDW, 5, 4, 0));
    PB(h->p, pb_ri(ISA_OP_ADD, 6, 5, 1));
    h_run_to_halt(h);
    assert_int_equal(h_reg(h, 6), 42);
    assert_int_equal(h_cycles(h), 2 * T(h, INT) + T(h, MEM) + LOAD_DELAY(h) + T(h, INT) + T(h, INT));
    assert_int_equal(h_stats(h)->stall_clocks[CA_STALL_BYPASS], LOAD_DELAY(h));
    assert_int_equal(h_stats(h)->busy_clocks, h_cycles(h) - LOAD_DELAY(h));
}

static void test_a_loaded_word_two_instructions_later_does_not_wait(void **state)
{
    harness_t *h = *state;
    data_and_pointer(h);
    PB(h->p, pb_ri(ISA_OP_LDW, 5, 4, 0));
    PB(h->p, pb_nop());
    PB(h->p, pb_ri(ISA_OP_ADD, 6, 5, 1));
    h_run_to_halt(h);
    assert_int_equal(h_cycles(h), 2 * T(h, INT) + T(h, MEM) + 3 * T(h, INT));
    assert_int_equal(h_stats(h)->stall_clocks[CA_STALL_BYPASS], 0);
}

static void test_a_computed_address_used_by_the_next_instruction_waits(void **state)
{
    harness_t *h = *state;
    data_and_pointer(h);
    PB(h->p, pb_ri(ISA_OP_ADD, 7, 4, 4));
    PB(h->p, pb_ri(ISA_OP_STW, 4, 7, 0)); /* stores r4 at d + 4 */
    h_run_to_halt(h);
    assert_int_equal(h_mem32(h, pb_addr(h->p, "d") + 4), pb_addr(h->p, "d"));
    assert_int_equal(h_cycles(h), 3 * T(h, INT) + MEM_DELAY(h) + T(h, MEM) + T(h, INT));
    assert_int_equal(h_stats(h)->stall_clocks[CA_STALL_BYPASS], MEM_DELAY(h));
}

static void test_a_computed_word_to_store_waits_too(void **state)
{
    harness_t *h = *state;
    data_and_pointer(h);
    PB(h->p, pb_li(8, 99));
    PB(h->p, pb_ri(ISA_OP_STW, 8, 4, 4));
    h_run_to_halt(h);
    assert_int_equal(h_mem32(h, pb_addr(h->p, "d") + 4), 99);
    assert_int_equal(h_stats(h)->stall_clocks[CA_STALL_BYPASS], MEM_DELAY(h));
}

static void test_a_computed_value_for_the_alu_or_a_branch_does_not_wait(void **state)
{
    harness_t *h = *state;
    PB(h->p, pb_li(5, 3));
    PB(h->p, pb_ri(ISA_OP_ADD, 6, 5, 1));
    PB(h->p, pb_br(ISA_OP_BNE, 6, 0, "t"));
    pb_label(h->p, "t");
    h_run_to_halt(h);
    assert_int_equal(h_reg(h, 6), 4);
    assert_int_equal(h_cycles(h), 3 * T(h, INT) + T(h, INT));
    assert_int_equal(h_stats(h)->stall_clocks[CA_STALL_BYPASS], 0);
}

/* The ConSet paper's LIW loop that keeps a link busy (docs/isa.md): its pointer is computed in the first clock of
 * a two-clock instruction, so the next one's load finds it in the register file. */
static void test_an_address_computed_in_a_two_clock_instruction_does_not_wait(void **state)
{
    harness_t *h = *state;
    pb_data_label(h->p, "d");
    for (unsigned i = 0; i < 8; i++)
        pb_data_word(h->p, i + 1);
    PB(h->p, pb_li(3, 8), pb_la(4, "d"));
    PB(h->p, pb_nop());
    pb_label(h->p, "top");
    PB(h->p, pb_ri(ISA_OP_LDW, 5, 4, 0), pb_ri(ISA_OP_ADD, 4, 4, 4), pb_loop(3, "top"));
    h_run_to_halt(h);
    assert_int_equal(h_cycles(h), 2 * T(h, INT) + 8 * T(h, MEM) + T(h, INT));
    assert_int_equal(h_stats(h)->stall_clocks[CA_STALL_BYPASS], 0);
}

/* A loop whose body reads at its top what its last instruction loads: the stall falls on the taken branch back,
 * not on the instruction after the loop, which reads nothing. */
static void test_the_stall_follows_the_branch_taken(void **state)
{
    harness_t *h = *state;
    data_and_pointer(h);
    PB(h->p, pb_li(3, 5));
    pb_label(h->p, "top");
    PB(h->p, pb_ri(ISA_OP_ADD, 6, 5, 1));
    PB(h->p, pb_ri(ISA_OP_LDW, 5, 4, 0), pb_loop(3, "top"));
    PB(h->p, pb_nop());
    h_run_to_halt(h);
    /* 5 loads; 4 of them go back to the add, which reads the loaded r5 */
    assert_int_equal(h_stats(h)->stall_clocks[CA_STALL_BYPASS], 4 * LOAD_DELAY(h));
    assert_int_equal(h_cycles(h), 3 * T(h, INT) + 5 * (T(h, INT) + T(h, MEM)) + 4 * LOAD_DELAY(h) + 2 * T(h, INT));
}

/* jr's target is known only as it runs: the stall is found there. */
static void test_a_jump_through_a_register_stalls_at_its_target(void **state)
{
    harness_t *h = *state;
    data_and_pointer(h);
    PB(h->p, pb_la(9, "t"));
    PB(h->p, pb_nop());
    PB(h->p, pb_ri(ISA_OP_LDW, 5, 4, 0), pb_jr(ISA_OP_JR, 9));
    PB(h->p, pb_halt());
    pb_label(h->p, "t");
    PB(h->p, pb_ri(ISA_OP_ADD, 6, 5, 1));
    h_run_to_halt(h);
    assert_int_equal(h_reg(h, 6), 42);
    assert_int_equal(h_stats(h)->stall_clocks[CA_STALL_BYPASS], LOAD_DELAY(h));
}

static void test_zero_delays_remove_every_stall(void **state)
{
    harness_t *h = *state;
    h_set(h, "bypass.load", "0");
    h_set(h, "bypass.mem_operand", "0");
    data_and_pointer(h);
    PB(h->p, pb_ri(ISA_OP_LDW, 5, 4, 0));
    PB(h->p, pb_ri(ISA_OP_ADD, 6, 5, 1)); /* a loaded word one instruction old */
    PB(h->p, pb_ri(ISA_OP_ADD, 7, 4, 4));
    PB(h->p, pb_ri(ISA_OP_STW, 6, 7, 0)); /* an address one instruction old */
    h_run_to_halt(h);
    assert_int_equal(h_mem32(h, pb_addr(h->p, "d") + 4), 42);
    assert_int_equal(h_stats(h)->stall_clocks[CA_STALL_BYPASS], 0);
    assert_int_equal(h_cycles(h), 2 * T(h, INT) + T(h, MEM) + 2 * T(h, INT) + T(h, MEM) + T(h, INT));
}

static void test_delays_above_one_clock_are_refused(void **state)
{
    harness_t *h = *state;
    char err[200];
    assert_int_equal(emu_machine_set(&h->machine, "bypass.load", "2", err, sizeof err), -1);
    assert_non_null(strstr(err, "from 0 to 1"));
    assert_int_equal(emu_machine_set(&h->machine, "bypass.mem_operand", "2", err, sizeof err), -1);
}

/* A loaded word read as an address waits the longer of the two delays, not their sum. */
static void test_a_loaded_address_waits_once(void **state)
{
    harness_t *h = *state;
    pb_data_label(h->p, "d");
    pb_data_word(h->p, 0);
    pb_data_word(h->p, 7);
    PB(h->p, pb_la(4, "d"));
    PB(h->p, pb_nop());
    PB(h->p, pb_ri(ISA_OP_LDW, 5, 4, 0)); /* r5 = 0 */
    PB(h->p, pb_rr(ISA_OP_LDW, 6, 4, 5)); /* [d + r5] */
    h_run_to_halt(h);
    assert_int_equal(h_stats(h)->stall_clocks[CA_STALL_BYPASS], LOAD_DELAY(h));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        HTEST(test_defaults_delay_a_loaded_word_and_a_memory_operand_by_a_clock),
        HTEST(test_a_loaded_word_read_by_the_next_instruction_waits),
        HTEST(test_a_loaded_word_two_instructions_later_does_not_wait),
        HTEST(test_a_computed_address_used_by_the_next_instruction_waits),
        HTEST(test_a_computed_word_to_store_waits_too),
        HTEST(test_a_computed_value_for_the_alu_or_a_branch_does_not_wait),
        HTEST(test_an_address_computed_in_a_two_clock_instruction_does_not_wait),
        HTEST(test_the_stall_follows_the_branch_taken),
        HTEST(test_a_jump_through_a_register_stalls_at_its_target),
        HTEST(test_zero_delays_remove_every_stall),
        HTEST(test_delays_above_one_clock_are_refused),
        HTEST(test_a_loaded_address_waits_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
