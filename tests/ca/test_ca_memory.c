/*
 * Memory operations on the core (docs/isa.md, "Memory"): sign and zero extension, little-endian byte
 * order, narrow stores, double pairs, address arithmetic, the edges of memory and of the text, and what
 * the loader sets up. The faults of bad accesses are in test_ca_faults.c.
 */
#include "harness.h"

/* Emits `op rd, [base + off]` for a base register already holding a data address. */
static void mem_op(harness_t *h, unsigned opcode, unsigned rd, unsigned base, uint32_t off)
{
    PB(h->p, pb_ri(opcode, rd, base, off));
}

static void test_ldh_and_ldb_sign_extend_ldhu_and_ldbu_zero_extend(void **state)
{
    harness_t *h = *state;
    pb_data_label(h->p, "d");
    pb_data_word(h->p, 0x7fff8000u); /* halves 0x8000, 0x7fff */
    pb_data_word(h->p, 0x00ff7f80u); /* bytes 0x80, 0x7f, 0xff, 0x00 */
    PB(h->p, pb_la(3, "d"));
    mem_op(h, ISA_OP_LDH, 10, 3, 0);
    mem_op(h, ISA_OP_LDHU, 11, 3, 0);
    mem_op(h, ISA_OP_LDH, 12, 3, 2);
    mem_op(h, ISA_OP_LDHU, 13, 3, 2);
    mem_op(h, ISA_OP_LDB, 14, 3, 4);
    mem_op(h, ISA_OP_LDBU, 15, 3, 4);
    mem_op(h, ISA_OP_LDB, 16, 3, 5);
    mem_op(h, ISA_OP_LDBU, 17, 3, 5);
    mem_op(h, ISA_OP_LDB, 18, 3, 6);
    mem_op(h, ISA_OP_LDBU, 19, 3, 6);
    mem_op(h, ISA_OP_LDB, 20, 3, 7);
    h_run_to_halt(h);
    H_EXPECT_REGS(h, {10, 0xffff8000u}, {11, 0x00008000u}, {12, 0x00007fffu}, {13, 0x00007fffu}, {14, 0xffffff80u},
                  {15, 0x00000080u}, {16, 0x0000007fu}, {17, 0x0000007fu}, {18, 0xffffffffu}, {19, 0x000000ffu},
                  {20, 0});
}

static void test_words_are_little_endian(void **state)
{
    harness_t *h = *state;
    static const uint8_t bytes[] = {0x44, 0x33, 0x22, 0x11};
    pb_data_label(h->p, "d");
    pb_data_bytes(h->p, bytes, sizeof bytes);
    PB(h->p, pb_la(3, "d"));
    mem_op(h, ISA_OP_LDW, 10, 3, 0);
    mem_op(h, ISA_OP_LDBU, 11, 3, 0);
    mem_op(h, ISA_OP_LDBU, 12, 3, 3);
    mem_op(h, ISA_OP_LDHU, 13, 3, 0);
    mem_op(h, ISA_OP_LDHU, 14, 3, 2);
    PB(h->p, pb_li(5, 0xa1b2c3d4u));
    mem_op(h, ISA_OP_STW, 5, 3, 0);
    mem_op(h, ISA_OP_LDBU, 15, 3, 0);
    h_run_to_halt(h);
    H_EXPECT_REGS(h, {10, 0x11223344u}, {11, 0x44}, {12, 0x11}, {13, 0x3344}, {14, 0x1122}, {15, 0xd4});
}

static void test_narrow_stores_write_only_their_low_bytes(void **state)
{
    harness_t *h = *state;
    pb_data_label(h->p, "d");
    pb_data_word(h->p, 0xaaaaaaaau);
    pb_data_word(h->p, 0xaaaaaaaau);
    PB(h->p, pb_la(3, "d"));
    PB(h->p, pb_li(5, 0x12345678u));
    mem_op(h, ISA_OP_STB, 5, 3, 1);
    mem_op(h, ISA_OP_STH, 5, 3, 6);
    h_run_to_halt(h);
    uint32_t d = pb_addr(h->p, "d");
    assert_int_equal(h_mem32(h, d), 0xaaaa78aau);
    assert_int_equal(h_mem32(h, d + 4), 0x5678aaaau);
}

static void test_ldd_and_std_keep_the_low_word_at_the_lower_address(void **state)
{
    harness_t *h = *state;
    pb_data_align(h->p, 8);
    pb_data_label(h->p, "d");
    pb_data_word(h->p, 0x11111111u);
    pb_data_word(h->p, 0x22222222u);
    pb_data_word(h->p, 0);
    pb_data_word(h->p, 0);
    PB(h->p, pb_la(3, "d"));
    mem_op(h, ISA_OP_LDD, 20, 3, 0);
    PB(h->p, pb_li(22, 0x33333333u), pb_li(23, 0x44444444u));
    mem_op(h, ISA_OP_STD, 22, 3, 8);
    h_run_to_halt(h);
    uint32_t d = pb_addr(h->p, "d");
    assert_int_equal(h_reg(h, 20), 0x11111111u);
    assert_int_equal(h_reg(h, 21), 0x22222222u);
    assert_int_equal(h_mem32(h, d + 8), 0x33333333u);
    assert_int_equal(h_mem32(h, d + 12), 0x44444444u);
}

static void test_address_is_rs1_plus_operand_modulo_2_to_32(void **state)
{
    harness_t *h = *state;
    pb_data_label(h->p, "d");
    for (uint32_t i = 0; i < 4; i++)
        pb_data_word(h->p, 0x100 + i);
    PB(h->p, pb_la(3, "d"), pb_li(4, 4));
    PB(h->p, pb_rr(ISA_OP_LDW, 10, 3, 4)); /* [d + r4] */
    PB(h->p, pb_ri(ISA_OP_ADD, 6, 3, 12));
    PB(h->p, pb_ri(ISA_OP_LDW, 11, 6, 0xfffffff8u)); /* [d + 12 - 8]: the sum wraps */
    PB(h->p, pb_li(7, (uint32_t)-12));
    PB(h->p, pb_rr(ISA_OP_LDW, 12, 6, 7)); /* [d + 12 + (-12)] */
    PB(h->p, pb_la(8, "d"));
    PB(h->p, pb_rr(ISA_OP_LDW, 13, 0, 8)); /* [r0 + d] */
    h_run_to_halt(h);
    H_EXPECT_REGS(h, {10, 0x101}, {11, 0x101}, {12, 0x100}, {13, 0x100});
}

static void test_store_then_load_sees_the_new_value(void **state)
{
    harness_t *h = *state;
    pb_data_label(h->p, "d");
    pb_data_word(h->p, 1);
    PB(h->p, pb_la(3, "d"), pb_li(5, 0xcafef00du));
    mem_op(h, ISA_OP_STW, 5, 3, 0);
    mem_op(h, ISA_OP_LDW, 6, 3, 0);
    h_run_to_halt(h);
    assert_int_equal(h_reg(h, 6), 0xcafef00du);
}

static void test_the_last_bytes_of_memory_are_accessible(void **state)
{
    harness_t *h = *state;
    uint32_t top = h->machine.mem_bytes;
    PB(h->p, pb_li(3, top), pb_li(5, 0x01020304u));
    mem_op(h, ISA_OP_STW, 5, 3, (uint32_t)-4);
    mem_op(h, ISA_OP_LDW, 10, 3, (uint32_t)-4);
    mem_op(h, ISA_OP_LDBU, 11, 3, (uint32_t)-1);
    mem_op(h, ISA_OP_LDHU, 12, 3, (uint32_t)-2);
    mem_op(h, ISA_OP_LDD, 20, 3, (uint32_t)-8);
    mem_op(h, ISA_OP_STD, 20, 3, (uint32_t)-8);
    h_run_to_halt(h);
    H_EXPECT_REGS(h, {10, 0x01020304u}, {11, 0x01}, {12, 0x0102}, {21, 0x01020304u});
}

static void test_memory_right_outside_the_text_is_writable(void **state)
{
    harness_t *h = *state;
    /* Text at 0x2000 with the null page at 0x1000: 0x1ffc is just below the text, "end" just after it. */
    pb_set_text_base(h->p, 0x2000);
    PB(h->p, pb_la(3, "end"), pb_li(4, 0x1ffc));
    PB(h->p, pb_li(5, 77));
    mem_op(h, ISA_OP_STW, 5, 3, 0);
    mem_op(h, ISA_OP_STW, 5, 4, 0);
    mem_op(h, ISA_OP_LDW, 10, 3, 0);
    mem_op(h, ISA_OP_LDW, 11, 4, 0);
    PB(h->p, pb_halt());
    pb_label(h->p, "end");
    h_run(h);
    h_expect_halted(h);
    assert_int_equal(h_reg(h, 10), 77);
    assert_int_equal(h_reg(h, 11), 77);
}

static void test_the_text_is_readable_as_little_endian_words(void **state)
{
    harness_t *h = *state;
    pb_op_t first = pb_ri(ISA_OP_LDW, 10, 0, PB_TEXT_BASE);
    PB(h->p, first);
    mem_op(h, ISA_OP_LDBU, 11, 0, PB_TEXT_BASE + 7); /* the top byte of the extension word */
    h_run_to_halt(h);
    uint32_t w[2];
    isa_encode_op(&first.op, false, w);
    assert_int_equal(h_reg(h, 10), w[0]);
    assert_int_equal(h_reg(h, 11), w[1] >> 24);
}

static void test_loader_copies_data_and_zeroes_bss(void **state)
{
    harness_t *h = *state;
    pb_data_label(h->p, "d");
    pb_data_word(h->p, 0x5a5a5a5au);
    pb_data_label(h->p, "bss");
    pb_bss(h->p, 64);
    PB(h->p, pb_la(3, "d"), pb_la(4, "bss"));
    mem_op(h, ISA_OP_LDW, 10, 3, 0);
    mem_op(h, ISA_OP_LDW, 11, 4, 0);
    mem_op(h, ISA_OP_LDW, 12, 4, 60);
    h_run_to_halt(h);
    H_EXPECT_REGS(h, {10, 0x5a5a5a5au}, {11, 0}, {12, 0});
}

static void test_stack_pointer_starts_at_the_top_of_memory(void **state)
{
    harness_t *h = *state;
    h_set(h, "mem_bytes", "64K");
    PB(h->p, pb_li(5, 9));
    mem_op(h, ISA_OP_STW, 5, ISA_REG_SP, (uint32_t)-4); /* push */
    mem_op(h, ISA_OP_LDW, 6, ISA_REG_SP, (uint32_t)-4);
    h_run_to_halt(h);
    assert_int_equal(h_reg(h, ISA_REG_SP), 64 * 1024);
    assert_int_equal(h_reg(h, 6), 9);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        HTEST(test_ldh_and_ldb_sign_extend_ldhu_and_ldbu_zero_extend),
        HTEST(test_words_are_little_endian),
        HTEST(test_narrow_stores_write_only_their_low_bytes),
        HTEST(test_ldd_and_std_keep_the_low_word_at_the_lower_address),
        HTEST(test_address_is_rs1_plus_operand_modulo_2_to_32),
        HTEST(test_store_then_load_sees_the_new_value),
        HTEST(test_the_last_bytes_of_memory_are_accessible),
        HTEST(test_memory_right_outside_the_text_is_writable),
        HTEST(test_the_text_is_readable_as_little_endian_words),
        HTEST(test_loader_copies_data_and_zeroes_bss),
        HTEST(test_stack_pointer_starts_at_the_top_of_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
