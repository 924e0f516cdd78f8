/*
 * Exact cycle counts (docs/isa.md, "Timing"): a bundle occupies the core for the clocks of its slowest
 * operation, taken branches cost nothing extra, and the clocks per timing class come from the machine
 * description. Every expected count is written as the documented formula over the machine's per-class
 * clocks; where docs/isa.md gives the number for the default machine, the test checks that too. The
 * statistics (bundles, ops, busy clocks, memory accesses, branches taken) are checked alongside. The tests of
 * loops that read a result in the next instruction turn the bypass stalls off (no_bypass): they check the classes
 * alone; test_ca_bypass.c checks the stalls.
 */
#include "harness.h"

static unsigned max2(unsigned a, unsigned b)
{
    return a > b ? a : b;
}
static unsigned max3(unsigned a, unsigned b, unsigned c)
{
    return max2(max2(a, b), c);
}

/* The machine without bypass stalls: each bundle issues when the one before frees the core. */
static void no_bypass(harness_t *h)
{
    h_set(h, "bypass.load", "0");
    h_set(h, "bypass.mem_operand", "0");
}

/* Clocks of the default classes, from the machine the harness runs. */
#define T(h, cls) h_class_clocks((h), ISA_T_##cls)

static void test_halt_alone_takes_one_cycle(void **state)
{
    harness_t *h = *state;
    h_run_to_halt(h);
    assert_int_equal(h_cycles(h), T(h, INT));
    assert_int_equal(h_cycles(h), 1); /* docs/isa.md: halt alone is 1 cycle */
    assert_int_equal(h_stats(h)->bundles, 1);
    assert_int_equal(h_stats(h)->ops, 1);
    assert_int_equal(h_stats(h)->busy_clocks, T(h, INT));
}

static void test_nop_costs_one_cycle(void **state)
{
    harness_t *h = *state;
    PB(h->p, pb_nop());
    PB(h->p, pb_nop());
    PB(h->p, pb_nop());
    h_run_to_halt(h);
    assert_int_equal(h_cycles(h), 3 * T(h, INT) + T(h, INT));
    assert_int_equal(h_cycles(h), 4);
}

/* li r3, 100; top: ldw r5, [d]; add r5, r5, 1; stw r5, [d]; loop r3, top; halt */
static void load_add_store_loop(harness_t *h)
{
    no_bypass(h);
    pb_data_label(h->p, "d");
    pb_data_word(h->p, 0);
    PB(h->p, pb_li(3, 100));
    pb_label(h->p, "top");
    PB(h->p, pb_with_target(pb_ri(ISA_OP_LDW, 5, 0, 0), "d"));
    PB(h->p, pb_ri(ISA_OP_ADD, 5, 5, 1));
    PB(h->p, pb_with_target(pb_ri(ISA_OP_STW, 5, 0, 0), "d"));
    PB(h->p, pb_loop(3, "top"));
    h_run_to_halt(h);
    assert_int_equal(h_mem32(h, pb_addr(h->p, "d")), 100);
}

static uint64_t load_add_store_loop_cycles(const harness_t *h)
{
    return T(h, INT) + 100ull * (T(h, MEM) + T(h, INT) + T(h, MEM) + T(h, BRANCH)) + T(h, INT);
}

static void test_load_add_store_loop_of_100_takes_602_cycles(void **state)
{
    harness_t *h = *state;
    load_add_store_loop(h);
    assert_int_equal(h_cycles(h), load_add_store_loop_cycles(h));
    assert_int_equal(h_cycles(h), 602); /* docs/isa.md: 1 + 100 * (2 + 1 + 2 + 1) + 1 */
    const ca_stats_t *s = h_stats(h);
    assert_int_equal(s->bundles, 1 + 100 * 4 + 1);
    assert_int_equal(s->ops, 1 + 100 * 4 + 1);
    assert_int_equal(s->busy_clocks, h_cycles(h));
    assert_int_equal(s->mem_reads, 100);
    assert_int_equal(s->mem_writes, 100);
    assert_int_equal(s->branches_taken, 99);
    assert_int_equal(s->stall_clocks[CA_STALL_GATE_IN_EMPTY], 0);
    assert_int_equal(s->stall_clocks[CA_STALL_GATE_OUT_FULL], 0);
}

static void test_slower_memory_in_the_machine_description_slows_the_loop(void **state)
{
    harness_t *h = *state;
    h_set(h, "timing.mem", "3");
    load_add_store_loop(h);
    assert_int_equal(T(h, MEM), 3);
    assert_int_equal(h_cycles(h), load_add_store_loop_cycles(h));
    assert_int_equal(h_cycles(h), 1 + 100 * (3 + 1 + 3 + 1) + 1);
    assert_int_equal(h_stats(h)->busy_clocks, h_cycles(h));
}

static void test_slower_integer_unit_slows_every_int_bundle(void **state)
{
    harness_t *h = *state;
    h_set(h, "timing.int", "2");
    h_set(h, "timing.branch", "5");
    load_add_store_loop(h);
    assert_int_equal(h_cycles(h), load_add_store_loop_cycles(h));
    assert_int_equal(h_cycles(h), 2 + 100 * (2 + 2 + 2 + 5) + 2);
}

static void test_liw_loop_takes_its_slowest_operation_per_iteration(void **state)
{
    harness_t *h = *state;
    no_bypass(h);
    pb_data_label(h->p, "d");
    for (uint32_t i = 1; i <= 64; i++)
        pb_data_word(h->p, i);
    PB(h->p, pb_li(3, 64), pb_la(4, "d"));
    pb_label(h->p, "top");
    /* The documented loop without gates: load, advance the pointer, sum the word loaded last time. */
    PB(h->p, pb_ri(ISA_OP_LDW, 5, 4, 0), pb_ri(ISA_OP_ADD, 4, 4, 4), pb_rr(ISA_OP_ADD, 6, 6, 5), pb_loop(3, "top"));
    PB(h->p, pb_rr(ISA_OP_ADD, 6, 6, 5));
    h_run_to_halt(h);
    unsigned body = max3(T(h, MEM), T(h, INT), T(h, BRANCH));
    assert_int_equal(body, 2); /* docs/isa.md: this bundle takes 2 clocks */
    assert_int_equal(h_cycles(h), T(h, INT) + 64ull * body + T(h, INT) + T(h, INT));
    assert_int_equal(h_reg(h, 6), 64 * 65 / 2);
    const ca_stats_t *s = h_stats(h);
    assert_int_equal(s->bundles, 1 + 64 + 1 + 1);
    assert_int_equal(s->ops, 2 + 64 * 4 + 1 + 1);
    assert_int_equal(s->mem_reads, 64);
    assert_int_equal(s->mem_writes, 0);
    assert_int_equal(s->branches_taken, 63);
}

static void test_liw_copy_loop_with_a_load_and_a_store_takes_two_clocks_a_word(void **state)
{
    harness_t *h = *state;
    no_bypass(h);
    pb_data_label(h->p, "src");
    for (uint32_t i = 1; i <= 32; i++)
        pb_data_word(h->p, i * 7);
    pb_data_label(h->p, "dst");
    for (uint32_t i = 1; i <= 32; i++)
        pb_data_word(h->p, 0);
    PB(h->p, pb_li(3, 32), pb_la(4, "src"));
    PB(h->p, pb_la(5, "dst"));
    pb_label(h->p, "top");
    /* One load and one store per bundle: the memory is busy on both of the bundle's clocks. */
    PB(h->p, pb_ri(ISA_OP_LDW, 6, 4, 0), pb_ri(ISA_OP_STW, 6, 5, -4), pb_ri(ISA_OP_ADD, 4, 4, 4),
       pb_ri(ISA_OP_ADD, 5, 5, 4), pb_loop(3, "top"));
    PB(h->p, pb_ri(ISA_OP_STW, 6, 5, -4));
    h_run_to_halt(h);
    unsigned body = max3(T(h, MEM), 2 /* word accesses */, T(h, BRANCH));
    assert_int_equal(body, 2); /* docs/isa.md: a load and a store in one bundle take 2 clocks */
    assert_int_equal(h_cycles(h), 2ull * T(h, INT) + 32ull * body + T(h, MEM) + T(h, INT));
    /* The store of iteration i writes the word loaded in iteration i-1: a copy shifted by one. */
    for (uint32_t i = 1; i < 32; i++)
        assert_int_equal(h_mem32(h, pb_addr(h->p, "dst") + 4 * (i - 1)), i * 7);
    const ca_stats_t *s = h_stats(h);
    assert_int_equal(s->mem_reads, 32);
    assert_int_equal(s->mem_writes, 33);
}

static void test_bundle_with_a_double_load_and_a_store_needs_a_clock_per_word_access(void **state)
{
    harness_t *h = *state;
    no_bypass(h);
    emu_machine_set(&h->machine, "timing.mem_d", "2", NULL, 0); /* make the accesses, not the timing, the bound */
    pb_data_label(h->p, "d");
    pb_data_word(h->p, 1);
    pb_data_word(h->p, 2);
    pb_data_word(h->p, 3);
    pb_data_word(h->p, 4);
    PB(h->p, pb_la(4, "d"));
    PB(h->p, pb_ri(ISA_OP_LDD, 6, 4, 0), pb_ri(ISA_OP_STW, 0, 4, 8));
    h_run_to_halt(h);
    assert_int_equal(h_cycles(h), T(h, INT) + 3 /* two accesses for ldd, one for stw */ + T(h, INT));
}

static void test_fp_heavy_loop_cycles(void **state)
{
    harness_t *h = *state;
    enum { N = 10 };
    PB(h->p, pb_li(3, N), pb_li(6, pb_f32(1.5f)));
    PB(h->p, pb_li(8, pb_f32(2.0f)), pb_li(9, pb_f32(1024.0f)));
    h_li_pair(h, 12, pb_f64(0.5));
    pb_label(h->p, "top");
    PB(h->p, pb_rr(ISA_OP_FDIV_S, 9, 9, 8));
    PB(h->p, pb_rr(ISA_OP_FADD_D, 10, 10, 12), pb_rr(ISA_OP_FMUL_D, 14, 12, 12));
    PB(h->p, pb_rr(ISA_OP_FADD_S, 5, 5, 6), pb_rr(ISA_OP_FMUL_S, 7, 8, 8), pb_loop(3, "top"));
    h_run_to_halt(h);
    uint64_t setup = 3ull * T(h, INT);
    uint64_t body = T(h, FDIV_S) + max2(T(h, FADD_D), T(h, FMUL_D)) + max3(T(h, FADD_S), T(h, FMUL_S), T(h, BRANCH));
    assert_int_equal(h_cycles(h), setup + N * body + T(h, INT));
    assert_int_equal(h_cycles(h), 3 + N * (15 + 4 + 2) + 1);
    assert_int_equal(h_reg(h, 5), pb_f32(15.0f));
    assert_int_equal(h_reg(h, 9), pb_f32(1.0f));
    assert_int_equal(h_pair(h, 10), pb_f64(5.0));
    assert_int_equal(h_stats(h)->busy_clocks, h_cycles(h));
}

static void test_multiply_and_divide_cycles(void **state)
{
    harness_t *h = *state;
    enum { N = 7 };
    PB(h->p, pb_li(3, N), pb_li(5, 3));
    pb_label(h->p, "top");
    PB(h->p, pb_rr(ISA_OP_MUL, 6, 5, 5));
    PB(h->p, pb_rr(ISA_OP_MULH, 7, 5, 5), pb_ri(ISA_OP_ADD, 8, 8, 1));
    PB(h->p, pb_rr(ISA_OP_DIV, 9, 5, 5));
    PB(h->p, pb_rr(ISA_OP_REMU, 10, 5, 5), pb_loop(3, "top"));
    h_run_to_halt(h);
    uint64_t body = T(h, IMUL) + max2(T(h, IMUL), T(h, INT)) + T(h, IDIV) + max2(T(h, IDIV), T(h, BRANCH));
    assert_int_equal(h_cycles(h), T(h, INT) + N * body + T(h, INT));
    assert_int_equal(h_cycles(h), 1 + N * (3 + 3 + 31 + 31) + 1);
}

static void test_changed_divide_timing_changes_the_count(void **state)
{
    harness_t *h = *state;
    h_set(h, "timing.idiv", "40");
    h_set(h, "timing.imul", "1");
    PB(h->p, pb_li(5, 3));
    PB(h->p, pb_rr(ISA_OP_DIV, 9, 5, 5));
    PB(h->p, pb_rr(ISA_OP_MULHU, 9, 5, 5));
    h_run_to_halt(h);
    assert_int_equal(h_cycles(h), T(h, INT) + T(h, IDIV) + T(h, IMUL) + T(h, INT));
    assert_int_equal(h_cycles(h), 1 + 40 + 1 + 1);
}

static void test_bundle_takes_the_clocks_of_its_slowest_operation(void **state)
{
    harness_t *h = *state;
    pb_data_label(h->p, "d");
    pb_data_word(h->p, 0);
    PB(h->p, pb_li(5, 3), pb_li(3, 1));
    PB(h->p, pb_rr(ISA_OP_DIV, 9, 5, 5), pb_with_target(pb_ri(ISA_OP_LDW, 10, 0, 0), "d"), pb_ri(ISA_OP_ADD, 11, 5, 1),
       pb_r(ISA_OP_CVT_D_W, 12, 5), pb_loop(3, "top"));
    pb_label(h->p, "top");
    h_run_to_halt(h);
    unsigned slowest = max3(max3(T(h, IDIV), T(h, MEM), T(h, INT)), T(h, FADD_D), T(h, BRANCH));
    assert_int_equal(h_cycles(h), T(h, INT) + slowest + T(h, INT));
    assert_int_equal(h_cycles(h), 1 + 31 + 1);
}

static void test_double_memory_operations_take_mem_d_and_count_two_accesses(void **state)
{
    harness_t *h = *state;
    no_bypass(h);
    pb_data_align(h->p, 8);
    pb_data_label(h->p, "d");
    pb_data_word(h->p, 1);
    pb_data_word(h->p, 2);
    PB(h->p, pb_la(4, "d"));
    PB(h->p, pb_ri(ISA_OP_LDD, 20, 4, 0));
    PB(h->p, pb_ri(ISA_OP_STD, 20, 4, 0));
    PB(h->p, pb_ri(ISA_OP_LDH, 5, 4, 0));
    PB(h->p, pb_ri(ISA_OP_STB, 5, 4, 0));
    h_run_to_halt(h);
    assert_int_equal(h_cycles(h), T(h, INT) + 2ull * T(h, MEM_D) + 2ull * T(h, MEM) + T(h, INT));
    assert_int_equal(h_cycles(h), 1 + 4 + 4 + 2 + 2 + 1);
    assert_int_equal(h_stats(h)->mem_reads, 2 + 1);
    assert_int_equal(h_stats(h)->mem_writes, 2 + 1);
}

static void test_taken_branch_costs_nothing_extra(void **state)
{
    harness_t *h = *state;
    uint64_t cycles[2];
    for (unsigned taken = 0; taken < 2; taken++) {
        h_next(h);
        PB(h->p, pb_li(3, taken));
        PB(h->p, pb_br(ISA_OP_BNE, 3, 0, "t"));
        pb_label(h->p, "t");
        PB(h->p, pb_halt());
        h_run(h);
        h_expect_halted(h);
        cycles[taken] = h_cycles(h);
        assert_int_equal(h_stats(h)->branches_taken, taken);
    }
    assert_int_equal(cycles[0], cycles[1]);
    assert_int_equal(cycles[1], T(h, INT) + T(h, BRANCH) + T(h, INT));
}

static void test_control_register_accesses_take_cr_clocks_and_are_counted(void **state)
{
    harness_t *h = *state;
    h_set(h, "timing.cr", "6");
    PB(h->p, pb_ri(ISA_OP_RDCR, 5, 0, EMU_CR_CELL_ID));
    PB(h->p, pb_li(6, 'z'));
    PB(h->p, pb_ri(ISA_OP_WRCR, 6, 0, EMU_CR_DEBUG_PUTC));
    PB(h->p, pb_ri(ISA_OP_RDCR, 7, 0, EMU_CR_CLOCK_LO));
    h_run_to_halt(h);
    assert_int_equal(h_cycles(h), 3ull * T(h, CR) + 2ull * T(h, INT));
    assert_int_equal(h_reg(h, 7), 2 * T(h, CR) + T(h, INT));
    assert_int_equal(h_stats(h)->cr_reads, 2);
    assert_int_equal(h_stats(h)->cr_writes, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        HTEST(test_halt_alone_takes_one_cycle),
        HTEST(test_nop_costs_one_cycle),
        HTEST(test_load_add_store_loop_of_100_takes_602_cycles),
        HTEST(test_slower_memory_in_the_machine_description_slows_the_loop),
        HTEST(test_slower_integer_unit_slows_every_int_bundle),
        HTEST(test_liw_loop_takes_its_slowest_operation_per_iteration),
        HTEST(test_liw_copy_loop_with_a_load_and_a_store_takes_two_clocks_a_word),
        HTEST(test_bundle_with_a_double_load_and_a_store_needs_a_clock_per_word_access),
        HTEST(test_fp_heavy_loop_cycles),
        HTEST(test_multiply_and_divide_cycles),
        HTEST(test_changed_divide_timing_changes_the_count),
        HTEST(test_bundle_takes_the_clocks_of_its_slowest_operation),
        HTEST(test_double_memory_operations_take_mem_d_and_count_two_accesses),
        HTEST(test_taken_branch_costs_nothing_extra),
        HTEST(test_control_register_accesses_take_cr_clocks_and_are_counted),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
