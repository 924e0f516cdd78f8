/*
 * Control flow and control registers on the core (docs/isa.md, "Control flow", "Control registers"):
 * each branch condition signed and unsigned, loop counting, jumps, calls and returns, the cell registers
 * 0x00..0x07 and the debug console registers 0x10..0x12 through the output callback.
 */
#include <strings.h>

#include "harness.h"

#define INT_MIN_U 0x80000000u
#define INT_MAX_U 0x7fffffffu

/* Runs `b<cond> a, b, taken` and reports whether it branched. */
static bool branch_taken(harness_t *h, unsigned opcode, uint32_t a, uint32_t b)
{
    h_next(h);
    PB(h->p, pb_li(3, a), pb_li(4, b));
    PB(h->p, pb_br(opcode, 3, 4, "taken"));
    h_emit_two_ways(h, "taken");
    h_run(h);
    return h_took_label(h);
}

static void test_branch_conditions_signed_and_unsigned(void **state)
{
    static const struct {
        unsigned opcode;
        uint32_t a, b;
        bool taken;
    } cases[] = {
        {ISA_OP_BEQ, 5, 5, true},
        {ISA_OP_BEQ, 5, 6, false},
        {ISA_OP_BNE, 5, 5, false},
        {ISA_OP_BNE, 5, 6, true},
        {ISA_OP_BLT, 5, 6, true},
        {ISA_OP_BLT, 6, 5, false},
        {ISA_OP_BLT, 5, 5, false},
        {ISA_OP_BLT, 0xffffffffu, 1, true}, /* -1 < 1 */
        {ISA_OP_BLT, INT_MIN_U, INT_MAX_U, true},
        {ISA_OP_BGE, 5, 5, true},
        {ISA_OP_BGE, 6, 5, true},
        {ISA_OP_BGE, 5, 6, false},
        {ISA_OP_BGE, 1, 0xffffffffu, true},
        {ISA_OP_BGE, INT_MIN_U, INT_MAX_U, false},
        {ISA_OP_BLTU, 5, 6, true},
        {ISA_OP_BLTU, 5, 5, false},
        {ISA_OP_BLTU, 0xffffffffu, 1, false}, /* 0xffffffff is large unsigned */
        {ISA_OP_BLTU, INT_MAX_U, INT_MIN_U, true},
        {ISA_OP_BGEU, 5, 5, true},
        {ISA_OP_BGEU, 5, 6, false},
        {ISA_OP_BGEU, 0xffffffffu, 1, true},
        {ISA_OP_BGEU, 0, 0xffffffffu, false},
    };
    unsigned bad = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        bool got = branch_taken(*state, cases[i].opcode, cases[i].a, cases[i].b);
        if (got != cases[i].taken) {
            print_error("%s 0x%x, 0x%x: %s, want %s\n", isa_op_info(cases[i].opcode)->mnemonic, cases[i].a, cases[i].b,
                        got ? "taken" : "not taken", cases[i].taken ? "taken" : "not taken");
            bad++;
        }
    }
    assert_int_equal(bad, 0);
}

/* li r3, count; top: add r4, r4, 1; loop r3, top; halt */
static void counted_loop(harness_t *h, uint32_t count)
{
    PB(h->p, pb_li(3, count));
    pb_label(h->p, "top");
    PB(h->p, pb_ri(ISA_OP_ADD, 4, 4, 1));
    PB(h->p, pb_loop(3, "top"));
    PB(h->p, pb_halt());
    h_run(h);
}

static void test_loop_decrements_and_branches_while_not_zero(void **state)
{
    harness_t *h = *state;
    static const uint32_t counts[] = {1, 2, 5}; /* 1: the body runs once, the loop falls through */
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        h_next(h);
        counted_loop(h, counts[i]);
        h_expect_halted(h);
        H_EXPECT_REGS(h, {4, counts[i]}, {3, 0});
    }
}

static void test_loop_with_count_zero_wraps_around(void **state)
{
    harness_t *h = *state;
    h->limit = 1000; /* 2^32 iterations: stop early */
    counted_loop(h, 0);
    assert_int_equal(h->status, EMU_RUN_LIMIT);
    uint32_t body = h_reg(h, 4);
    assert_true(body > 100);
    /* Each completed loop op took one off 0: r3 = -iterations (mod 2^32), one behind or level with the body. */
    uint32_t loops = (uint32_t)-h_reg(h, 3);
    assert_true(loops == body || loops + 1 == body);
}

static void test_nested_loops_count_the_product(void **state)
{
    harness_t *h = *state;
    PB(h->p, pb_li(3, 3));
    pb_label(h->p, "outer");
    PB(h->p, pb_li(5, 4));
    pb_label(h->p, "inner");
    PB(h->p, pb_ri(ISA_OP_ADD, 4, 4, 1), pb_loop(5, "inner"));
    PB(h->p, pb_loop(3, "outer"));
    h_run_to_halt(h);
    assert_int_equal(h_reg(h, 4), 12);
}

static void test_jmp_skips_to_its_target(void **state)
{
    harness_t *h = *state;
    PB(h->p, pb_j(ISA_OP_JMP, "over"));
    PB(h->p, pb_li(5, 1));
    pb_label(h->p, "over");
    PB(h->p, pb_li(6, 2));
    h_run_to_halt(h);
    assert_int_equal(h_reg(h, 5), 0);
    assert_int_equal(h_reg(h, 6), 2);
}

static void test_call_links_the_next_bundle_and_jr_ra_returns(void **state)
{
    harness_t *h = *state;
    PB(h->p, pb_j(ISA_OP_CALL, "f"), pb_ri(ISA_OP_ADD, 7, 7, 1)); /* the link is after the whole bundle */
    uint32_t after_call = pb_here(h->p);
    PB(h->p, pb_ri(ISA_OP_ADD, 6, 5, 1));
    PB(h->p, pb_halt());
    pb_label(h->p, "f");
    PB(h->p, pb_li(5, 41), pb_ri(ISA_OP_ADD, 8, ISA_REG_LINK, 0));
    PB(h->p, pb_jr(ISA_OP_JR, ISA_REG_LINK));
    h_run(h);
    h_expect_halted(h);
    H_EXPECT_REGS(h, {8, after_call}, {ISA_REG_LINK, after_call}, {6, 42}, {7, 1});
}

static void test_callr_links_and_jumps_to_a_register(void **state)
{
    harness_t *h = *state;
    PB(h->p, pb_la(9, "f"));
    PB(h->p, pb_jr(ISA_OP_CALLR, 9));
    uint32_t after_call = pb_here(h->p);
    PB(h->p, pb_halt());
    pb_label(h->p, "f");
    PB(h->p, pb_li(5, 3));
    PB(h->p, pb_jr(ISA_OP_JR, ISA_REG_LINK));
    h_run(h);
    h_expect_halted(h);
    assert_int_equal(h_reg(h, ISA_REG_LINK), after_call);
    assert_int_equal(h_reg(h, 5), 3);
}

static void test_jr_jumps_to_a_computed_address(void **state)
{
    harness_t *h = *state;
    PB(h->p, pb_la(9, "t"));
    PB(h->p, pb_jr(ISA_OP_JR, 9));
    PB(h->p, pb_li(5, 1));
    PB(h->p, pb_halt());
    pb_label(h->p, "t");
    PB(h->p, pb_li(6, 1));
    h_run_to_halt(h);
    assert_int_equal(h_reg(h, 5), 0);
    assert_int_equal(h_reg(h, 6), 1);
    assert_int_equal(h_reg(h, ISA_REG_LINK), 0); /* jr does not link */
}

/* Emits rdcr r<first + i> of control registers 0x00..0x0a. */
static void read_cell_registers(harness_t *h, unsigned first)
{
    for (unsigned i = 0; i <= EMU_CR_LINK_CLOCKS; i++)
        PB(h->p, pb_ri(ISA_OP_RDCR, first + i, 0, i));
}

static void test_cell_registers_on_a_single_cell(void **state)
{
    harness_t *h = *state;
    read_cell_registers(h, 10);
    h_run_to_halt(h);
    H_EXPECT_REGS(h, {10 + EMU_CR_CELL_X, 0}, {10 + EMU_CR_CELL_Y, 0}, {10 + EMU_CR_ARRAY_W, 1},
                  {10 + EMU_CR_ARRAY_H, 1}, {10 + EMU_CR_CLOCK_LO, 4u * h_op_clocks(h, ISA_OP_RDCR)},
                  {10 + EMU_CR_CLOCK_HI, 0}, {10 + EMU_CR_MEM_BYTES, h->machine.mem_bytes}, {10 + EMU_CR_CELL_ID, 0},
                  {10 + EMU_CR_QUEUE_DEPTH, h->machine.agent.queue_depth},
                  {10 + EMU_CR_HOP_LATENCY, h->machine.agent.hop_latency},
                  {10 + EMU_CR_LINK_CLOCKS, h->machine.agent.link_clocks});
}

static void test_cell_registers_name_the_cell_in_a_larger_array(void **state)
{
    harness_t *h = *state;
    h_place(h, 3, 2, 2, 1);
    h_set(h, "mem_bytes", "128K");
    h_set(h, "queue_depth", "5");
    h_set(h, "hop_latency", "7");
    h_set(h, "link_clocks", "3");
    read_cell_registers(h, 10);
    h_run_to_halt(h);
    H_EXPECT_REGS(h, {10 + EMU_CR_CELL_X, 2}, {10 + EMU_CR_CELL_Y, 1}, {10 + EMU_CR_ARRAY_W, 3},
                  {10 + EMU_CR_ARRAY_H, 2}, {10 + EMU_CR_MEM_BYTES, 128 * 1024}, {10 + EMU_CR_CELL_ID, 1 * 3 + 2},
                  {10 + EMU_CR_QUEUE_DEPTH, 5}, {10 + EMU_CR_HOP_LATENCY, 7}, {10 + EMU_CR_LINK_CLOCKS, 3});
}

static void test_clock_register_reads_the_clock_at_issue(void **state)
{
    harness_t *h = *state;
    PB(h->p, pb_li(8, 1));
    PB(h->p, pb_ri(ISA_OP_RDCR, 5, 0, EMU_CR_CLOCK_LO));
    PB(h->p, pb_rr(ISA_OP_DIV, 6, 8, 8));
    PB(h->p, pb_li(3, EMU_CR_CLOCK_LO - 1));
    PB(h->p, pb_ri(ISA_OP_RDCR, 9, 3, 1)); /* number rs1 + imm */
    h_run_to_halt(h);
    unsigned t_int = h_op_clocks(h, ISA_OP_ADD), t_cr = h_op_clocks(h, ISA_OP_RDCR);
    unsigned t_div = h_op_clocks(h, ISA_OP_DIV);
    assert_int_equal(h_reg(h, 5), t_int);
    assert_int_equal(h_reg(h, 9), t_int + t_cr + t_div + t_int);
}

static void test_debug_console_prints_the_documented_example(void **state)
{
    harness_t *h = *state;
    /* docs/isa.md: print "x<x>,<y>" and a newline. */
    PB(h->p, pb_ri(ISA_OP_RDCR, 5, 0, EMU_CR_CELL_X));
    PB(h->p, pb_ri(ISA_OP_RDCR, 6, 0, EMU_CR_CELL_Y));
    PB(h->p, pb_li(7, 'x'));
    PB(h->p, pb_ri(ISA_OP_WRCR, 7, 0, EMU_CR_DEBUG_PUTC));
    PB(h->p, pb_ri(ISA_OP_WRCR, 5, 0, EMU_CR_DEBUG_PUTI));
    PB(h->p, pb_li(7, ','));
    PB(h->p, pb_ri(ISA_OP_WRCR, 7, 0, EMU_CR_DEBUG_PUTC));
    PB(h->p, pb_ri(ISA_OP_WRCR, 6, 0, EMU_CR_DEBUG_PUTI));
    PB(h->p, pb_li(7, 10));
    PB(h->p, pb_ri(ISA_OP_WRCR, 7, 0, EMU_CR_DEBUG_PUTC));
    PB(h->p, pb_halt());
    h_place(h, 4, 4, 3, 2);
    h_run(h);
    h_expect_halted(h);
    assert_string_equal(h->console, "x3,2\n");
    assert_int_equal(h->out_x, 3);
    assert_int_equal(h->out_y, 2);
}

static void putc_str(harness_t *h, const char *s)
{
    for (; *s; s++) {
        PB(h->p, pb_li(7, (uint8_t)*s));
        PB(h->p, pb_ri(ISA_OP_WRCR, 7, 0, EMU_CR_DEBUG_PUTC));
    }
}

static void test_debug_puti_prints_signed_decimal(void **state)
{
    harness_t *h = *state;
    static const uint32_t values[] = {0, 42, (uint32_t)-42, INT_MIN_U, INT_MAX_U};
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        PB(h->p, pb_li(5, values[i]));
        PB(h->p, pb_ri(ISA_OP_WRCR, 5, 0, EMU_CR_DEBUG_PUTI));
        putc_str(h, " ");
    }
    putc_str(h, "\n");
    h_run_to_halt(h);
    assert_string_equal(h->console, "0 42 -42 -2147483648 2147483647 \n");
}

static void test_debug_putx_prints_prefixed_hex(void **state)
{
    harness_t *h = *state;
    static const uint32_t values[] = {0, 0xdeadbeefu, 0x10u};
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        PB(h->p, pb_li(5, values[i]));
        PB(h->p, pb_ri(ISA_OP_WRCR, 5, 0, EMU_CR_DEBUG_PUTX));
        putc_str(h, "\n");
    }
    h_run_to_halt(h);
    /* The digits' case is not documented; the 0x prefix is. */
    assert_int_equal(strncmp(h->console, "0x", 2), 0);
    if (strcasecmp(h->console, "0x0\n0xdeadbeef\n0x10\n") != 0)
        fail_msg("console: \"%s\"", h->console);
}

static void test_console_delivers_whole_lines_and_the_rest_at_the_end(void **state)
{
    harness_t *h = *state;
    putc_str(h, "ab\ncd");
    PB(h->p, pb_li(5, 7));
    PB(h->p, pb_ri(ISA_OP_WRCR, 5, 0, EMU_CR_DEBUG_PUTI));
    putc_str(h, "\nlast");
    h_run_to_halt(h);
    /* Lines arrive without their newline; the harness adds one per line. */
    assert_string_equal(h->console, "ab\ncd7\nlast\n");
}

static void test_console_keeps_empty_lines(void **state)
{
    harness_t *h = *state;
    /* The output is a stream of characters: "a\n\nb\n" is three lines, the second one empty. */
    putc_str(h, "a\n\nb\n");
    h_run_to_halt(h);
    assert_string_equal(h->console, "a\n\nb\n");
}

static void test_console_keeps_long_lines_whole(void **state)
{
    harness_t *h = *state;
    enum { LEN = 300 };
    PB(h->p, pb_li(3, LEN), pb_li(7, 'a'));
    pb_label(h->p, "top");
    PB(h->p, pb_ri(ISA_OP_WRCR, 7, 0, EMU_CR_DEBUG_PUTC), pb_loop(3, "top"));
    putc_str(h, "\n");
    h_run_to_halt(h);
    char want[LEN + 2];
    memset(want, 'a', LEN);
    want[LEN] = '\n';
    want[LEN + 1] = '\0';
    assert_string_equal(h->console, want);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        HTEST(test_branch_conditions_signed_and_unsigned),
        HTEST(test_loop_decrements_and_branches_while_not_zero),
        HTEST(test_loop_with_count_zero_wraps_around),
        HTEST(test_nested_loops_count_the_product),
        HTEST(test_jmp_skips_to_its_target),
        HTEST(test_call_links_the_next_bundle_and_jr_ra_returns),
        HTEST(test_callr_links_and_jumps_to_a_register),
        HTEST(test_jr_jumps_to_a_computed_address),
        HTEST(test_cell_registers_on_a_single_cell),
        HTEST(test_cell_registers_name_the_cell_in_a_larger_array),
        HTEST(test_clock_register_reads_the_clock_at_issue),
        HTEST(test_debug_console_prints_the_documented_example),
        HTEST(test_debug_puti_prints_signed_decimal),
        HTEST(test_debug_putx_prints_prefixed_hex),
        HTEST(test_console_delivers_whole_lines_and_the_rest_at_the_end),
        HTEST(test_console_keeps_empty_lines),
        HTEST(test_console_keeps_long_lines_whole),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
