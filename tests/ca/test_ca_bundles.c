/*
 * Long instruction words on the core (docs/isa.md, "Bundles"): every operation of a bundle reads its
 * operands before any of them writes, one bundle drives every unit at once, and a bundle that breaks
 * the combination rules is an illegal instruction when (and only when) the program reaches it.
 */
#include "harness.h"

static void test_two_adds_in_one_bundle_swap_registers(void **state)
{
    harness_t *h = *state;
    PB(h->p, pb_li(5, 111), pb_li(6, 222));
    PB(h->p, pb_ri(ISA_OP_ADD, 5, 6, 0), pb_ri(ISA_OP_ADD, 6, 5, 0));
    h_run_to_halt(h);
    assert_int_equal(h_reg(h, 5), 222);
    assert_int_equal(h_reg(h, 6), 111);
}

static void test_memory_operations_use_registers_from_before_the_bundle(void **state)
{
    harness_t *h = *state;
    pb_data_label(h->p, "d");
    pb_data_word(h->p, 10);
    pb_data_word(h->p, 20);
    PB(h->p, pb_la(6, "d"), pb_li(7, 5));
    PB(h->p, pb_ri(ISA_OP_LDW, 5, 6, 0), pb_ri(ISA_OP_ADD, 6, 6, 4)); /* loads d, not d + 4 */
    PB(h->p, pb_ri(ISA_OP_STW, 7, 6, 0), pb_ri(ISA_OP_ADD, 7, 7, 1)); /* stores 5 at d + 4 */
    PB(h->p, pb_ri(ISA_OP_LDW, 8, 6, 0));
    h_run_to_halt(h);
    H_EXPECT_REGS(h, {5, 10}, {6, pb_addr(h->p, "d") + 4}, {7, 6}, {8, 5});
}

/* Both stores of a bundle land (the memory unit takes two operations); of two to one address, the later
 * operation's word stays. */
static void test_two_stores_in_one_bundle_both_land(void **state)
{
    harness_t *h = *state;
    pb_data_label(h->p, "d");
    pb_data_word(h->p, 0);
    pb_data_word(h->p, 0);
    pb_data_word(h->p, 0);
    PB(h->p, pb_la(6, "d"), pb_li(7, 7));
    PB(h->p, pb_li(8, 9), pb_li(9, 11));
    PB(h->p, pb_ri(ISA_OP_STW, 7, 6, 0), pb_ri(ISA_OP_STW, 8, 6, 4));
    PB(h->p, pb_ri(ISA_OP_STW, 7, 6, 8), pb_ri(ISA_OP_STW, 9, 6, 8));
    PB(h->p, pb_ri(ISA_OP_LDW, 10, 6, 0), pb_ri(ISA_OP_LDW, 11, 6, 4));
    PB(h->p, pb_ri(ISA_OP_LDW, 12, 6, 8));
    h_run_to_halt(h);
    H_EXPECT_REGS(h, {10, 7}, {11, 9}, {12, 11});
}

static void test_branch_compares_values_from_before_the_bundle(void **state)
{
    harness_t *h = *state;
    PB(h->p, pb_ri(ISA_OP_ADD, 3, 3, 1), pb_br(ISA_OP_BEQ, 3, 0, "taken")); /* r3 is still 0 for beq */
    h_emit_two_ways(h, "taken");
    h_run(h);
    assert_true(h_took_label(h));
    assert_int_equal(h_reg(h, 3), 1);
}

static void test_loop_counter_read_in_its_bundle_is_the_old_value(void **state)
{
    harness_t *h = *state;
    PB(h->p, pb_li(3, 4));
    pb_label(h->p, "top");
    PB(h->p, pb_rr(ISA_OP_ADD, 4, 4, 3), pb_loop(3, "top")); /* 4 + 3 + 2 + 1 */
    h_run_to_halt(h);
    assert_int_equal(h_reg(h, 4), 10);
    assert_int_equal(h_reg(h, 3), 0);
}

static void test_call_bundle_reads_the_old_link_register(void **state)
{
    harness_t *h = *state;
    PB(h->p, pb_li(ISA_REG_LINK, 99));
    PB(h->p, pb_j(ISA_OP_CALL, "f"), pb_ri(ISA_OP_ADD, 5, ISA_REG_LINK, 0));
    PB(h->p, pb_halt());
    pb_label(h->p, "f");
    h_run_to_halt(h);
    assert_int_equal(h_reg(h, 5), 99);
    assert_int_equal(h_reg(h, ISA_REG_LINK), pb_addr(h->p, "f") - 4); /* the halt after the call bundle */
}

static void test_pairs_swap_in_one_bundle(void **state)
{
    harness_t *h = *state;
    h_li_pair(h, 20, 0x1111111122222222ull);
    h_li_pair(h, 22, 0x3333333344444444ull);
    PB(h->p, pb_r(ISA_OP_FMOV_D, 20, 22), pb_r(ISA_OP_FMOV_D, 22, 20));
    h_run_to_halt(h);
    assert_int_equal(h_pair(h, 20), 0x3333333344444444ull);
    assert_int_equal(h_pair(h, 22), 0x1111111122222222ull);
}

static void test_one_bundle_drives_two_alus_fp_memory_control_register_and_branch(void **state)
{
    harness_t *h = *state;
    pb_data_label(h->p, "d");
    pb_data_word(h->p, 0xabcdu);
    PB(h->p, pb_li(5, 10), pb_li(6, 20));
    PB(h->p, pb_li(8, pb_f32(1.5f)), pb_la(11, "d"));
    PB(h->p, pb_li(13, 1));
    PB(h->p, pb_ri(ISA_OP_ADD, 5, 5, 1),          /* alu */
       pb_ri(ISA_OP_SUB, 6, 6, 1),                /* alu */
       pb_rr(ISA_OP_FADD_S, 7, 8, 8),             /* fpa */
       pb_rr(ISA_OP_FMUL_S, 9, 8, 8),             /* fpm */
       pb_ri(ISA_OP_LDW, 10, 11, 0),              /* mem */
       pb_ri(ISA_OP_RDCR, 12, 0, EMU_CR_ARRAY_W), /* cr */
       pb_br(ISA_OP_BNE, 13, 0, "taken"),         /* ctrl */
       pb_nop());
    PB(h->p, pb_trap(1)); /* not reached: the branch is taken */
    pb_label(h->p, "taken");
    h_run_to_halt(h);
    H_EXPECT_REGS(h, {5, 11}, {6, 19}, {7, pb_f32(3.0f)}, {9, pb_f32(2.25f)}, {10, 0xabcdu}, {12, 1});
    assert_int_equal(h_stats(h)->ops, 2 + 2 + 1 + 8 + 1);
    assert_int_equal(h_stats(h)->bundles, 1 + 1 + 1 + 1 + 1);
}

static void test_wrcr_in_a_bundle_writes_the_value_from_before_it(void **state)
{
    harness_t *h = *state;
    PB(h->p, pb_li(7, 'a'));
    PB(h->p, pb_ri(ISA_OP_WRCR, 7, 0, EMU_CR_DEBUG_PUTC), pb_ri(ISA_OP_ADD, 7, 7, 1));
    PB(h->p, pb_ri(ISA_OP_WRCR, 7, 0, EMU_CR_DEBUG_PUTC));
    h_run_to_halt(h);
    assert_string_equal(h->console, "ab\n");
}

/* Emits a bundle that breaks a combination rule, checks that the core faults when it reaches it, after
 * running what comes before it. */
static void expect_illegal_bundle_faults(harness_t *h, const pb_op_t *ops, unsigned n)
{
    h_next(h);
    PB(h->p, pb_li(5, 1));
    uint32_t pc = pb_emit(h->p, ops, n);
    PB(h->p, pb_halt());
    h_run(h);
    const emu_fault_t *f = h_expect_fault(h, EMU_FAULT_ILLEGAL_INSTRUCTION, pc, h_op_clocks(h, ISA_OP_ADD));
    assert_int_equal(h_reg(h, 5), 1);
    assert_true(strlen(f->detail) > 0);
}
#define EXPECT_ILLEGAL(h, ...) expect_illegal_bundle_faults((h), (const pb_op_t[]){__VA_ARGS__}, PB_COUNT(__VA_ARGS__))

static void test_bundles_breaking_the_rules_are_illegal_instructions(void **state)
{
    harness_t *h = *state;
    EXPECT_ILLEGAL(h, pb_ri(ISA_OP_ADD, 6, 6, 1), pb_ri(ISA_OP_ADD, 7, 7, 1), pb_ri(ISA_OP_ADD, 8, 8, 1));
    EXPECT_ILLEGAL(h, pb_ri(ISA_OP_LDW, 6, 5, 0), pb_ri(ISA_OP_STW, 7, 5, 0), pb_ri(ISA_OP_LDW, 8, 5, 0));
    EXPECT_ILLEGAL(h, pb_ri(ISA_OP_ADD, 6, 6, 1), pb_ri(ISA_OP_SUB, 6, 6, 1));
    EXPECT_ILLEGAL(h, pb_nop(), pb_halt());
    EXPECT_ILLEGAL(h, pb_nop(), pb_nop(), pb_nop(), pb_nop(), pb_nop(), pb_nop(), pb_nop(), pb_nop(), pb_nop());
    EXPECT_ILLEGAL(h, pb_ri(ISA_OP_ADD, ISA_REG_GI0, 6, 1));  /* writes an input gate */
    EXPECT_ILLEGAL(h, pb_rr(ISA_OP_FADD_D, 21, 22, 24));      /* odd pair */
    EXPECT_ILLEGAL(h, pb_ri(ISA_OP_FADD_D, 20, 22, 0));       /* no immediate form */
    EXPECT_ILLEGAL(h, pb_raw(ISA_OP_NOP, 0, 0, 3, false, 0)); /* unused field not zero */
}

static void test_illegal_words_in_the_text_fault_only_when_reached(void **state)
{
    harness_t *h = *state;
    PB(h->p, pb_li(5, 1));
    PB(h->p, pb_halt());
    pb_word(h->p, 0xffffffffu);
    pb_word(h->p, 0x03u << ISA_SHIFT_OPCODE);
    h_run(h);
    h_expect_halted(h);
    assert_int_equal(h_reg(h, 5), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        HTEST(test_two_adds_in_one_bundle_swap_registers),
        HTEST(test_memory_operations_use_registers_from_before_the_bundle),
        HTEST(test_two_stores_in_one_bundle_both_land),
        HTEST(test_branch_compares_values_from_before_the_bundle),
        HTEST(test_loop_counter_read_in_its_bundle_is_the_old_value),
        HTEST(test_call_bundle_reads_the_old_link_register),
        HTEST(test_pairs_swap_in_one_bundle),
        HTEST(test_one_bundle_drives_two_alus_fp_memory_control_register_and_branch),
        HTEST(test_wrcr_in_a_bundle_writes_the_value_from_before_it),
        HTEST(test_bundles_breaking_the_rules_are_illegal_instructions),
        HTEST(test_illegal_words_in_the_text_fault_only_when_reached),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
