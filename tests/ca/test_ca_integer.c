/*
 * Integer operations on the core (docs/isa.md, "Integer"): wrapping arithmetic, logic, shifts by the
 * whole 32-bit amount, signed and unsigned compares, multiply high halves, division signs and the
 * INT_MIN / -1 case, and r0. Each case runs the register form and the immediate form (h_exec).
 */
#include "harness.h"

#define INT_MIN_U 0x80000000u
#define INT_MAX_U 0x7fffffffu
#define NEG(x) ((uint32_t)(0u - (uint32_t)(x))) /* -x as a 32-bit word */

static void test_add_and_sub_wrap_without_trap(void **state)
{
    static const h_case_t add[] = {
        {1, 2, 3}, {INT_MAX_U, 1, INT_MIN_U}, {0xffffffffu, 1, 0}, {INT_MIN_U, INT_MIN_U, 0}, {NEG(5), 3, NEG(2)},
    };
    static const h_case_t sub[] = {
        {5, 3, 2}, {0, 1, 0xffffffffu}, {INT_MIN_U, 1, INT_MAX_U}, {INT_MAX_U, NEG(1), INT_MIN_U}, {3, 5, NEG(2)},
    };
    H_CHECK_CASES(*state, ISA_OP_ADD, add);
    H_CHECK_CASES(*state, ISA_OP_SUB, sub);
}

static void test_logic_operations_are_bitwise(void **state)
{
    static const h_case_t and_[] = {{0xff00ff00u, 0x0ff00ff0u, 0x0f000f00u}, {0xffffffffu, 0, 0}};
    static const h_case_t or_[] = {{0xff00ff00u, 0x0ff00ff0u, 0xfff0fff0u}, {0, 0, 0}};
    static const h_case_t xor_[] = {{0xff00ff00u, 0x0ff00ff0u, 0xf0f0f0f0u}, {0x12345678u, 0x12345678u, 0}};
    static const h_case_t nor_[] = {{0, 0, 0xffffffffu}, {0xff00ff00u, 0x0ff00ff0u, 0x000f000fu}, {0xffffffffu, 0, 0}};
    H_CHECK_CASES(*state, ISA_OP_AND, and_);
    H_CHECK_CASES(*state, ISA_OP_OR, or_);
    H_CHECK_CASES(*state, ISA_OP_XOR, xor_);
    H_CHECK_CASES(*state, ISA_OP_NOR, nor_);
}

static void test_sll_by_32_or_more_gives_zero(void **state)
{
    static const h_case_t sll[] = {
        {0x12345678u, 0, 0x12345678u},
        {1, 1, 2},
        {1, 31, INT_MIN_U},
        {0xffffffffu, 31, INT_MIN_U},
        {1, 32, 0},
        {1, 33, 0},
        {1, 0xffffffffu, 0},
        {0xffffffffu, 0x20, 0},
    };
    H_CHECK_CASES(*state, ISA_OP_SLL, sll);
}

static void test_srl_by_32_or_more_gives_zero(void **state)
{
    static const h_case_t srl[] = {
        {INT_MIN_U, 0, INT_MIN_U},     {INT_MIN_U, 1, 0x40000000u}, {INT_MIN_U, 31, 1},
        {0xffffffffu, 31, 1},          {0xffffffffu, 32, 0},        {0xffffffffu, 33, 0},
        {0xffffffffu, 0xffffffffu, 0},
    };
    H_CHECK_CASES(*state, ISA_OP_SRL, srl);
}

static void test_sra_by_32_or_more_fills_with_sign(void **state)
{
    static const h_case_t sra[] = {
        {INT_MIN_U, 0, INT_MIN_U},    {INT_MIN_U, 1, 0xc0000000u},  {INT_MIN_U, 31, 0xffffffffu},
        {INT_MIN_U, 32, 0xffffffffu}, {INT_MIN_U, 33, 0xffffffffu}, {INT_MIN_U, 0xffffffffu, 0xffffffffu},
        {INT_MAX_U, 0, INT_MAX_U},    {INT_MAX_U, 30, 1},           {INT_MAX_U, 31, 0},
        {INT_MAX_U, 32, 0},           {INT_MAX_U, 33, 0},           {INT_MAX_U, 0xffffffffu, 0},
        {NEG(8), 2, NEG(2)},          {NEG(1), 5, NEG(1)},
    };
    H_CHECK_CASES(*state, ISA_OP_SRA, sra);
}

static void test_slt_is_signed_and_sltu_unsigned(void **state)
{
    static const h_case_t slt[] = {
        {NEG(1), 0, 1}, {0, NEG(1), 0}, {INT_MIN_U, INT_MAX_U, 1}, {INT_MAX_U, INT_MIN_U, 0}, {5, 5, 0}, {4, 5, 1},
    };
    static const h_case_t sltu[] = {
        {NEG(1), 0, 0}, {0, NEG(1), 1}, {INT_MIN_U, INT_MAX_U, 0}, {INT_MAX_U, INT_MIN_U, 1}, {5, 5, 0}, {4, 5, 1},
    };
    H_CHECK_CASES(*state, ISA_OP_SLT, slt);
    H_CHECK_CASES(*state, ISA_OP_SLTU, sltu);
}

static void test_seq_and_sne_compare_all_bits(void **state)
{
    static const h_case_t seq[] = {{7, 7, 1}, {7, 8, 0}, {INT_MIN_U, 0, 0}, {0, 0, 1}};
    static const h_case_t sne[] = {{7, 7, 0}, {7, 8, 1}, {INT_MIN_U, 0, 1}, {0, 0, 0}};
    H_CHECK_CASES(*state, ISA_OP_SEQ, seq);
    H_CHECK_CASES(*state, ISA_OP_SNE, sne);
}

static void test_mul_keeps_the_low_word(void **state)
{
    static const h_case_t mul[] = {
        {6, 7, 42},           {0x10000u, 0x10000u, 0},        {0xffffffffu, 0xffffffffu, 1}, {INT_MAX_U, 2, NEG(2)},
        {NEG(3), 5, NEG(15)}, {INT_MIN_U, NEG(1), INT_MIN_U},
    };
    H_CHECK_CASES(*state, ISA_OP_MUL, mul);
}

static void test_mulh_is_the_signed_high_word(void **state)
{
    static const h_case_t mulh[] = {
        {NEG(1), NEG(1), 0},
        {NEG(1), 1, 0xffffffffu},
        {NEG(2), 3, 0xffffffffu},
        {INT_MIN_U, INT_MIN_U, 0x40000000u},
        {INT_MIN_U, NEG(1), 0},
        {INT_MAX_U, INT_MAX_U, 0x3fffffffu},
        {0x10000u, 0x10000u, 1},
        {INT_MIN_U, 1, 0xffffffffu},
        {INT_MIN_U, INT_MAX_U, 0xc0000000u},
    };
    H_CHECK_CASES(*state, ISA_OP_MULH, mulh);
}

static void test_mulhu_is_the_unsigned_high_word(void **state)
{
    static const h_case_t mulhu[] = {
        {0xffffffffu, 0xffffffffu, 0xfffffffeu}, {INT_MIN_U, 2, 1}, {NEG(1), 1, 0}, {0x10000u, 0x10000u, 1},
        {INT_MIN_U, INT_MIN_U, 0x40000000u},
    };
    H_CHECK_CASES(*state, ISA_OP_MULHU, mulhu);
}

static void test_div_truncates_toward_zero(void **state)
{
    static const h_case_t div[] = {
        {7, 2, 3}, {NEG(7), 2, NEG(3)},       {7, NEG(2), NEG(3)},         {NEG(7), NEG(2), 3},
        {0, 5, 0}, {INT_MIN_U, 1, INT_MIN_U}, {INT_MIN_U, 2, 0xc0000000u}, {INT_MAX_U, NEG(1), NEG(INT_MAX_U)},
    };
    H_CHECK_CASES(*state, ISA_OP_DIV, div);
}

static void test_rem_takes_the_sign_of_the_dividend(void **state)
{
    static const h_case_t rem[] = {
        {7, 2, 1}, {NEG(7), 2, NEG(1)}, {7, NEG(2), 1}, {NEG(7), NEG(2), NEG(1)}, {6, 3, 0}, {INT_MIN_U, 3, NEG(2)},
    };
    H_CHECK_CASES(*state, ISA_OP_REM, rem);
}

static void test_int_min_divided_by_minus_one_gives_int_min_and_remainder_zero(void **state)
{
    harness_t *h = *state;
    assert_int_equal(h_exec32(h, ISA_OP_DIV, INT_MIN_U, NEG(1)), INT_MIN_U);
    assert_int_equal(h_exec32(h, ISA_OP_REM, INT_MIN_U, NEG(1)), 0);
}

static void test_divu_and_remu_are_unsigned(void **state)
{
    static const h_case_t divu[] = {
        {0xffffffffu, 2, INT_MAX_U}, {7, 0xffffffffu, 0}, {0xffffffffu, 0xffffffffu, 1},
        {INT_MIN_U, NEG(1), 0},      {100, 7, 14},
    };
    static const h_case_t remu[] = {
        {0xffffffffu, 10, 5},
        {7, 0xffffffffu, 7},
        {INT_MIN_U, NEG(1), INT_MIN_U},
        {100, 7, 2},
    };
    H_CHECK_CASES(*state, ISA_OP_DIVU, divu);
    H_CHECK_CASES(*state, ISA_OP_REMU, remu);
}

static void test_r0_stays_zero_when_written(void **state)
{
    harness_t *h = *state;
    PB(h->p, pb_li(5, 1234));
    PB(h->p, pb_ri(ISA_OP_ADD, 0, 5, 1));
    PB(h->p, pb_ri(ISA_OP_ADD, 6, 0, 0)); /* reads r0 after the write */
    /* In one bundle, a reader of r0 sees 0 too. */
    PB(h->p, pb_ri(ISA_OP_OR, 0, 5, 0), pb_ri(ISA_OP_ADD, 7, 0, 5));
    PB(h->p, pb_rr(ISA_OP_MUL, 0, 5, 5));
    h_run_to_halt(h);
    H_EXPECT_REGS(h, {0, 0}, {6, 0}, {7, 5});
}

static void test_immediates_are_full_32_bit_words(void **state)
{
    harness_t *h = *state;
    PB(h->p, pb_li(5, 0xdeadbeefu));
    PB(h->p, pb_ri(ISA_OP_XOR, 6, 5, 0xffffffffu));
    PB(h->p, pb_ri(ISA_OP_ADD, 7, 0, NEG(1)));
    h_run_to_halt(h);
    H_EXPECT_REGS(h, {5, 0xdeadbeefu}, {6, 0x21524110u}, {7, 0xffffffffu});
}

static void test_registers_start_zero_except_sp_and_arguments(void **state)
{
    harness_t *h = *state;
    for (unsigned i = 0; i < 8; i++)
        h->args[i] = 100 + i;
    h->nargs = 8;
    h_run_to_halt(h);
    for (unsigned r = 0; r < ISA_NUM_REGS; r++) {
        uint32_t want = 0;
        if (r == ISA_REG_SP)
            want = h->machine.mem_bytes; /* the top of memory */
        else if (r >= ISA_REG_A0 && r < ISA_REG_A0 + 8)
            want = 100 + (r - ISA_REG_A0);
        if (r >= ISA_REG_GI0)
            continue; /* gates are not storage */
        if (h_reg(h, r) != want)
            fail_msg("r%u is 0x%x at start, want 0x%x", r, h_reg(h, r), want);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        HTEST(test_add_and_sub_wrap_without_trap),
        HTEST(test_logic_operations_are_bitwise),
        HTEST(test_sll_by_32_or_more_gives_zero),
        HTEST(test_srl_by_32_or_more_gives_zero),
        HTEST(test_sra_by_32_or_more_fills_with_sign),
        HTEST(test_slt_is_signed_and_sltu_unsigned),
        HTEST(test_seq_and_sne_compare_all_bits),
        HTEST(test_mul_keeps_the_low_word),
        HTEST(test_mulh_is_the_signed_high_word),
        HTEST(test_mulhu_is_the_unsigned_high_word),
        HTEST(test_div_truncates_toward_zero),
        HTEST(test_rem_takes_the_sign_of_the_dividend),
        HTEST(test_int_min_divided_by_minus_one_gives_int_min_and_remainder_zero),
        HTEST(test_divu_and_remu_are_unsigned),
        HTEST(test_r0_stays_zero_when_written),
        HTEST(test_immediates_are_full_32_bit_words),
        HTEST(test_registers_start_zero_except_sp_and_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
