/*
 * Faults (docs/isa.md, "Faults"): each cause stops the cell with the documented kind at the pc of the
 * faulting bundle and the clock at which it issued; the run ends EMU_RUN_FAULT; emu_format_fault gives
 * the documented one-line report; nothing of a faulting bundle is committed; and no program, however
 * random, crashes the host.
 */
#include <stdio.h>

#include "harness.h"

/* Clocks of one bundle of the integer class (li, nop, halt). */
static unsigned t_int(const harness_t *h)
{
    return h_class_clocks(h, ISA_T_INT);
}

/* Runs the program built so far and expects `kind` at pc after `cycle` clocks; returns the fault. */
static const emu_fault_t *run_expect(harness_t *h, emu_fault_kind_t kind, uint32_t pc, uint64_t cycle)
{
    h_run(h);
    return h_expect_fault(h, kind, pc, cycle);
}

static void test_divide_by_zero_faults_at_its_bundle(void **state)
{
    harness_t *h = *state;
    static const unsigned ops[] = {ISA_OP_DIV, ISA_OP_DIVU, ISA_OP_REM, ISA_OP_REMU};
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        for (int imm = 0; imm <= 1; imm++) {
            h_next(h);
            PB(h->p, pb_li(3, 7), pb_li(4, 55));
            uint32_t pc = PB(h->p, imm ? pb_ri(ops[i], 4, 3, 0) : pb_rr(ops[i], 4, 3, 0));
            PB(h->p, pb_halt());
            const emu_fault_t *f = run_expect(h, EMU_FAULT_DIVIDE_BY_ZERO, pc, t_int(h));
            assert_non_null(strstr(f->detail, isa_op_info(ops[i])->mnemonic));
            assert_non_null(strstr(f->detail, "7"));
            assert_int_equal(h_reg(h, 4), 55); /* not written */
            assert_int_equal(emu_run_status_name(h->status)[0], 'f');
        }
}

static void test_fault_report_is_the_documented_line(void **state)
{
    harness_t *h = *state;
    /* docs/isa.md: "cell (0,0) pc 0x1010 (prog.s:5:9) cycle 7: integer divide by zero: div of 7 by zero".
     * li (1 clock, 2 words), two mul (3 clocks, 1 word each) put the div at 0x1010 and clock 7. */
    assert_int_equal(h_op_clocks(h, ISA_OP_MUL), 3);
    pb_line(h->p, "prog.s", 3, 9);
    PB(h->p, pb_li(3, 7));
    pb_line(h->p, "prog.s", 4, 9);
    PB(h->p, pb_rr(ISA_OP_MUL, 4, 3, 3));
    PB(h->p, pb_rr(ISA_OP_MUL, 4, 3, 3));
    pb_line(h->p, "prog.s", 5, 9);
    PB(h->p, pb_rr(ISA_OP_DIV, 5, 3, 0));
    PB(h->p, pb_halt());
    run_expect(h, EMU_FAULT_DIVIDE_BY_ZERO, 0x1010, 7);
    char line[256];
    h_fault_text(h, line, sizeof line);
    assert_string_equal(line, "cell (0,0) pc 0x1010 (prog.s:5:9) cycle 7: integer divide by zero: div of 7 by zero");
}

static void test_fault_report_names_the_cell_and_works_without_lines(void **state)
{
    harness_t *h = *state;
    h_place(h, 2, 2, 1, 1);
    PB(h->p, pb_nop());
    uint32_t pc = PB(h->p, pb_trap(42));
    run_expect(h, EMU_FAULT_TRAP, pc, t_int(h));
    char line[256], want[128];
    h_fault_text(h, line, sizeof line);
    snprintf(want, sizeof want, "cell (1,1) pc 0x%x cycle %u: trap", pc, t_int(h));
    if (strncmp(line, want, strlen(want)) != 0)
        fail_msg("report \"%s\" does not start with \"%s\"", line, want);
    assert_non_null(strstr(line, "42"));
}

static void test_trap_stops_the_cell_with_its_code(void **state)
{
    harness_t *h = *state;
    PB(h->p, pb_li(5, 1));
    uint32_t pc = PB(h->p, pb_trap(0xdeadbeefu));
    PB(h->p, pb_li(5, 2));
    PB(h->p, pb_halt());
    const emu_fault_t *f = run_expect(h, EMU_FAULT_TRAP, pc, t_int(h));
    assert_int_equal(f->addr, 0xdeadbeefu);
    assert_int_equal(h_reg(h, 5), 1);
}

static void test_unassigned_opcode_in_the_text_is_an_illegal_instruction(void **state)
{
    harness_t *h = *state;
    unsigned opc = 0;
    while (isa_op_info(opc) != NULL)
        opc++;
    PB(h->p, pb_li(5, 1));
    uint32_t pc = pb_here(h->p);
    pb_word(h->p, (uint32_t)opc << ISA_SHIFT_OPCODE);
    PB(h->p, pb_halt());
    run_expect(h, EMU_FAULT_ILLEGAL_INSTRUCTION, pc, t_int(h));
    assert_int_equal(h_reg(h, 5), 1);
}

static void test_bad_encodings_are_illegal_instructions(void **state)
{
    harness_t *h = *state;
    uint32_t nop = (uint32_t)ISA_OP_NOP << ISA_SHIFT_OPCODE;
    const uint32_t bad[] = {
        nop | 1u,                                 /* bit 0 set */
        nop | 1u << ISA_SHIFT_RD,                 /* unused field */
        (uint32_t)ISA_OP_JMP << ISA_SHIFT_OPCODE, /* jmp without its target word */
        nop | 1u << ISA_BIT_CHAIN,                /* the bundle runs off the end of the text */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        h_next(h);
        PB(h->p, pb_nop());
        uint32_t pc = pb_here(h->p);
        pb_word(h->p, bad[i]);
        run_expect(h, EMU_FAULT_ILLEGAL_INSTRUCTION, pc, t_int(h));
    }
}

static void test_running_off_the_end_of_the_text_is_a_bad_pc(void **state)
{
    harness_t *h = *state;
    PB(h->p, pb_li(5, 1));
    PB(h->p, pb_nop());
    const emu_fault_t *f = run_expect(h, EMU_FAULT_BAD_PC, pb_here(h->p), 2 * t_int(h));
    assert_int_equal(f->addr, pb_here(h->p));
}

static void test_entry_outside_the_text_is_a_bad_pc(void **state)
{
    harness_t *h = *state;
    PB(h->p, pb_halt());
    pb_set_entry(h->p, NULL, 0x20000);
    run_expect(h, EMU_FAULT_BAD_PC, 0x20000, 0);
}

/* Emits `li r5, 1` then `{ add r6, r6, 1 ; jump }` and expects a bad-pc fault at the jump bundle, with
 * nothing of that bundle committed. */
static void expect_bad_jump(harness_t *h, pb_op_t jump, uint32_t target)
{
    PB(h->p, pb_li(5, 1), pb_li(ISA_REG_LINK, 77));
    uint32_t pc = PB(h->p, jump, pb_ri(ISA_OP_ADD, 6, 6, 1));
    PB(h->p, pb_li(6, 9), pb_li(7, 0)); /* a two-operation bundle: its second op is mid-bundle */
    PB(h->p, pb_halt());
    const emu_fault_t *f = run_expect(h, EMU_FAULT_BAD_PC, pc, t_int(h));
    assert_int_equal(f->addr, target);
    assert_int_equal(h_reg(h, 6), 0);
    assert_int_equal(h_reg(h, ISA_REG_LINK), 77);
}

static void test_jumps_outside_the_text_fault_at_the_jump(void **state)
{
    harness_t *h = *state;
    static const uint32_t targets[] = {0x20000, 0, PB_TEXT_BASE - 4, 0xfffffffcu};
    for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++) {
        h_next(h);
        expect_bad_jump(h, pb_to(pb_j(ISA_OP_JMP, NULL), targets[i]), targets[i]);
    }
    /* Right after the last word of the text. */
    h_next(h);
    uint32_t end = PB_TEXT_BASE + 4 * (4 + 4 + 4 + 1);
    expect_bad_jump(h, pb_to(pb_j(ISA_OP_JMP, NULL), end), end);
}

static void test_jumps_into_the_middle_of_a_bundle_fault_at_the_jump(void **state)
{
    harness_t *h = *state;
    /* Layout of expect_bad_jump: li/li at +0 (4 words), the jump bundle at +16 (4 words), li/li at +32. */
    static const uint32_t targets[] = {
        PB_TEXT_BASE + 4,  /* the extension word of the first li */
        PB_TEXT_BASE + 8,  /* the second operation of the first bundle */
        PB_TEXT_BASE + 20, /* the jump's own target word */
        PB_TEXT_BASE + 40, /* the second operation of the li/li bundle after the jump */
        PB_TEXT_BASE + 2,  /* not even word-aligned */
    };
    for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++) {
        h_next(h);
        expect_bad_jump(h, pb_to(pb_j(ISA_OP_JMP, NULL), targets[i]), targets[i]);
    }
}

static void test_every_kind_of_taken_jump_checks_its_target(void **state)
{
    harness_t *h = *state;
    const uint32_t bad = PB_TEXT_BASE + 4;
    expect_bad_jump(h, pb_to(pb_j(ISA_OP_CALL, NULL), bad), bad);
    h_next(h);
    expect_bad_jump(h, pb_to(pb_br(ISA_OP_BEQ, 0, 0, NULL), bad), bad);
    h_next(h);
    expect_bad_jump(h, pb_to(pb_br(ISA_OP_BGEU, 5, 0, NULL), bad), bad);
}

static void test_loop_and_register_jumps_check_their_targets(void **state)
{
    harness_t *h = *state;
    const uint32_t bad = PB_TEXT_BASE + 4;
    /* loop branches while the new count is not 0: start at 3. */
    PB(h->p, pb_li(3, 3), pb_li(ISA_REG_LINK, 77));
    uint32_t pc = PB(h->p, pb_to(pb_loop(3, NULL), bad));
    PB(h->p, pb_halt());
    const emu_fault_t *f = run_expect(h, EMU_FAULT_BAD_PC, pc, t_int(h));
    assert_int_equal(f->addr, bad);
    assert_int_equal(h_reg(h, 3), 3); /* the decrement is not committed */

    static const unsigned jr_ops[] = {ISA_OP_JR, ISA_OP_CALLR};
    for (size_t i = 0; i < 2; i++) {
        h_next(h);
        PB(h->p, pb_li(9, bad), pb_li(ISA_REG_LINK, 77));
        pc = PB(h->p, pb_jr(jr_ops[i], 9));
        PB(h->p, pb_halt());
        f = run_expect(h, EMU_FAULT_BAD_PC, pc, t_int(h));
        assert_int_equal(f->addr, bad);
        assert_int_equal(h_reg(h, ISA_REG_LINK), 77);
    }
}

/* Emits `op rd, [base + off]` after setting base, and expects `kind` with fault address addr. */
static void expect_access_fault(harness_t *h, unsigned opcode, uint32_t base, uint32_t off, emu_fault_kind_t kind,
                                uint32_t addr)
{
    h_next(h);
    /* The text starts at the default base, or at the end of a larger null page. */
    pb_set_text_base(h->p, h->machine.mem_guard > PB_TEXT_BASE ? h->machine.mem_guard : PB_TEXT_BASE);
    pb_data_align(h->p, 8);
    pb_data_label(h->p, "d");
    for (unsigned i = 0; i < 4; i++)
        pb_data_word(h->p, 0x11111111u * (i + 1));
    PB(h->p, pb_li(4, base), pb_li(20, 0xabababab));
    uint32_t pc = PB(h->p, pb_ri(opcode, 20, 4, off));
    PB(h->p, pb_halt());
    /* The base is one instruction old when the access reads it: a bypass stall first (docs/isa.md). */
    const emu_fault_t *f = run_expect(h, kind, pc, t_int(h) + h->machine.timing.bypass_mem_operand);
    if (f->addr != addr)
        fail_msg("%s at 0x%x: fault address 0x%x", isa_op_info(opcode)->mnemonic, base + off, f->addr);
    assert_int_equal(h_reg(h, 20), 0xabababab);
    uint32_t d = pb_addr(h->p, "d");
    for (unsigned i = 0; i < 4; i++)
        assert_int_equal(h_mem32(h, d + 4 * i), 0x11111111u * (i + 1));
}

static void test_misaligned_accesses_fault(void **state)
{
    harness_t *h = *state;
    const uint32_t d = PB_DATA_BASE; /* where expect_access_fault puts "d" */
    expect_access_fault(h, ISA_OP_LDW, d, 2, EMU_FAULT_MISALIGNED, d + 2);
    expect_access_fault(h, ISA_OP_LDW, d, 1, EMU_FAULT_MISALIGNED, d + 1);
    expect_access_fault(h, ISA_OP_LDH, d, 1, EMU_FAULT_MISALIGNED, d + 1);
    expect_access_fault(h, ISA_OP_LDHU, d, 3, EMU_FAULT_MISALIGNED, d + 3);
    expect_access_fault(h, ISA_OP_LDD, d, 4, EMU_FAULT_MISALIGNED, d + 4);
    expect_access_fault(h, ISA_OP_STW, d, 2, EMU_FAULT_MISALIGNED, d + 2);
    expect_access_fault(h, ISA_OP_STH, d, 1, EMU_FAULT_MISALIGNED, d + 1);
    expect_access_fault(h, ISA_OP_STD, d, 12, EMU_FAULT_MISALIGNED, d + 12);
}

static void test_accesses_past_the_end_of_memory_fault(void **state)
{
    harness_t *h = *state;
    const uint32_t top = h->machine.mem_bytes;
    expect_access_fault(h, ISA_OP_LDW, top, 0, EMU_FAULT_BAD_ADDRESS, top);
    expect_access_fault(h, ISA_OP_LDB, top, 0, EMU_FAULT_BAD_ADDRESS, top);
    expect_access_fault(h, ISA_OP_LDD, top, 0, EMU_FAULT_BAD_ADDRESS, top);
    expect_access_fault(h, ISA_OP_STW, top, 0x100, EMU_FAULT_BAD_ADDRESS, top + 0x100);
    expect_access_fault(h, ISA_OP_STB, top, 0, EMU_FAULT_BAD_ADDRESS, top);
    expect_access_fault(h, ISA_OP_STD, 0xfffffff8u, 0, EMU_FAULT_BAD_ADDRESS, 0xfffffff8u);
    expect_access_fault(h, ISA_OP_LDW, 0xfffffffcu, 0, EMU_FAULT_BAD_ADDRESS, 0xfffffffcu);
    expect_access_fault(h, ISA_OP_LDW, 0x80000000u, 0, EMU_FAULT_BAD_ADDRESS, 0x80000000u);
}

static void test_null_page_accesses_fault(void **state)
{
    harness_t *h = *state;
    expect_access_fault(h, ISA_OP_LDW, 0, 0, EMU_FAULT_BAD_ADDRESS, 0);
    expect_access_fault(h, ISA_OP_LDB, 0, 0xfff, EMU_FAULT_BAD_ADDRESS, 0xfff);
    expect_access_fault(h, ISA_OP_LDW, 0xffc, 0, EMU_FAULT_BAD_ADDRESS, 0xffc);
    expect_access_fault(h, ISA_OP_STB, 0, 0x10, EMU_FAULT_BAD_ADDRESS, 0x10);
    expect_access_fault(h, ISA_OP_STD, 0x800, 0, EMU_FAULT_BAD_ADDRESS, 0x800);
    /* A larger guard from the machine description moves the null page's end. */
    h_set(h, "mem_guard", "0x4000");
    expect_access_fault(h, ISA_OP_LDW, 0x3ffc, 0, EMU_FAULT_BAD_ADDRESS, 0x3ffc);
}

static void test_stores_into_the_text_fault(void **state)
{
    harness_t *h = *state;
    expect_access_fault(h, ISA_OP_STW, PB_TEXT_BASE, 0, EMU_FAULT_WRITE_TO_TEXT, PB_TEXT_BASE);
    expect_access_fault(h, ISA_OP_STB, PB_TEXT_BASE, 4 * 4 + 3, EMU_FAULT_WRITE_TO_TEXT, PB_TEXT_BASE + 19);
    expect_access_fault(h, ISA_OP_STH, PB_TEXT_BASE, 4 * 6 + 2, EMU_FAULT_WRITE_TO_TEXT, PB_TEXT_BASE + 26);
    /* Text of li/li (4 words), the store (2), halt (1): 7 words, so the last word starts 8-aligned at
     * +24 and a double there covers it and the word after the text. */
    expect_access_fault(h, ISA_OP_STD, PB_TEXT_BASE, 24, EMU_FAULT_WRITE_TO_TEXT, PB_TEXT_BASE + 24);
}

static void test_unbound_gates_fault(void **state)
{
    harness_t *h = *state;
    const pb_op_t uses[] = {
        pb_ri(ISA_OP_ADD, 5, ISA_REG_GI0, 0),
        pb_ri(ISA_OP_ADD, 5, ISA_REG_GI1, 0),
        pb_ri(ISA_OP_ADD, ISA_REG_GO0, 5, 0),
        pb_ri(ISA_OP_LDW, ISA_REG_GO1, 0, PB_TEXT_BASE),
    };
    for (size_t i = 0; i < sizeof uses / sizeof uses[0]; i++) {
        h_next(h);
        PB(h->p, pb_li(6, 1));
        uint32_t pc = PB(h->p, uses[i], pb_ri(ISA_OP_ADD, 6, 6, 1));
        PB(h->p, pb_halt());
        run_expect(h, EMU_FAULT_UNBOUND_GATE, pc, t_int(h));
        assert_int_equal(h_reg(h, 6), 1);
        assert_int_equal(h_stats(h)->gate_reads + h_stats(h)->gate_writes, 0);
    }
}

static void test_bad_control_registers_fault(void **state)
{
    harness_t *h = *state;
    static const struct {
        unsigned opcode;
        uint32_t number;
    } bad[] = {
        {ISA_OP_RDCR, 0x0b},
        {ISA_OP_RDCR, 0x0f},
        {ISA_OP_RDCR, 0x14},
        {ISA_OP_RDCR, EMU_CR_MARK}, /* write-only */
        {ISA_OP_RDCR, 0xff},
        {ISA_OP_RDCR, 0xffffffffu},
        {ISA_OP_RDCR, EMU_CR_DEBUG_PUTC}, /* write-only */
        {ISA_OP_WRCR, 0x14},
        {ISA_OP_WRCR, 0x27},
        {ISA_OP_WRCR, 0x08},
        {ISA_OP_WRCR, EMU_CR_HOP_LATENCY}, /* read-only */
        {ISA_OP_WRCR, EMU_CR_CELL_X},      /* read-only */
        {ISA_OP_WRCR, EMU_CR_CLOCK_LO},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        h_next(h);
        PB(h->p, pb_li(5, 'q'), pb_li(3, bad[i].number - 1));
        uint32_t pc = PB(h->p, pb_ri(bad[i].opcode, 5, 3, 1), pb_ri(ISA_OP_ADD, 6, 6, 1)); /* number r3 + 1 */
        PB(h->p, pb_halt());
        const emu_fault_t *f = run_expect(h, EMU_FAULT_BAD_CONTROL_REGISTER, pc, t_int(h));
        if (f->addr != bad[i].number)
            fail_msg("%s 0x%x: fault names 0x%x", isa_op_info(bad[i].opcode)->mnemonic, bad[i].number, f->addr);
        assert_int_equal(h_reg(h, 5), 'q');
        assert_int_equal(h_reg(h, 6), 0);
        assert_string_equal(h->console, "");
    }
    /* An rdcr alone in its bundle, which ca_step runs apart (EMU_BUNDLE_LONE_CORE), faults the same. */
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (bad[i].opcode != ISA_OP_RDCR)
            continue;
        h_next(h);
        PB(h->p, pb_li(5, 'q'), pb_li(3, bad[i].number - 1));
        uint32_t pc = PB(h->p, pb_ri(ISA_OP_RDCR, 5, 3, 1));
        PB(h->p, pb_halt());
        const emu_fault_t *f = run_expect(h, EMU_FAULT_BAD_CONTROL_REGISTER, pc, t_int(h));
        if (f->addr != bad[i].number)
            fail_msg("lone rdcr 0x%x: fault names 0x%x", bad[i].number, f->addr);
        assert_int_equal(h_reg(h, 5), 'q');
        assert_int_equal(h_stats(h)->cr_reads, 0);
    }
}

/* Runs the program built so far expecting `kind` at the bundle at pc; checks r5 kept 5, memory word "d"
 * kept 0x5555 and the console stayed empty. */
static void expect_nothing_committed(harness_t *h, emu_fault_kind_t kind, uint32_t pc)
{
    run_expect(h, kind, pc, 3ull * t_int(h));
    H_EXPECT_REGS(h, {5, 5}, {6, 6}, {ISA_REG_LINK, 1});
    assert_int_equal(h_mem32(h, pb_addr(h->p, "d")), 0x5555);
    assert_string_equal(h->console, "");
}

/* r5 = 5, r6 = 6, r7 = &d, ra = 1, d = 0x5555; the next bundle is the one under test (3 int clocks in). */
static void committed_setup(harness_t *h)
{
    h_next(h);
    pb_data_label(h->p, "d");
    pb_data_word(h->p, 0x5555);
    PB(h->p, pb_li(5, 5), pb_li(6, 6));
    PB(h->p, pb_la(7, "d"), pb_li(ISA_REG_LINK, 1));
    PB(h->p, pb_li(8, 'X'));
}

static void test_faulting_bundle_commits_nothing(void **state)
{
    harness_t *h = *state;
    /* The fault comes after the writes in operation order. */
    committed_setup(h);
    uint32_t pc = PB(h->p, pb_ri(ISA_OP_ADD, 5, 5, 1), pb_ri(ISA_OP_STW, 6, 7, 0), pb_rr(ISA_OP_DIV, 6, 5, 0));
    expect_nothing_committed(h, EMU_FAULT_DIVIDE_BY_ZERO, pc);

    committed_setup(h);
    pc = PB(h->p, pb_ri(ISA_OP_WRCR, 8, 0, EMU_CR_DEBUG_PUTC), pb_ri(ISA_OP_SUB, 6, 6, 1), pb_rr(ISA_OP_REMU, 5, 5, 0));
    expect_nothing_committed(h, EMU_FAULT_DIVIDE_BY_ZERO, pc);

    committed_setup(h);
    pc = PB(h->p, pb_ri(ISA_OP_ADD, 5, 5, 1), pb_ri(ISA_OP_WRCR, 8, 0, 0x14));
    expect_nothing_committed(h, EMU_FAULT_BAD_CONTROL_REGISTER, pc);

    committed_setup(h);
    pc = PB(h->p, pb_ri(ISA_OP_ADD, 5, 5, 1), pb_ri(ISA_OP_STW, 6, 7, 2));
    expect_nothing_committed(h, EMU_FAULT_MISALIGNED, pc);

    committed_setup(h);
    pc = PB(h->p, pb_ri(ISA_OP_STW, 6, 7, 0), pb_ri(ISA_OP_ADD, 5, 5, 1), pb_to(pb_j(ISA_OP_CALL, NULL), 0x20000));
    expect_nothing_committed(h, EMU_FAULT_BAD_PC, pc);

    committed_setup(h);
    pc = PB(h->p, pb_ri(ISA_OP_STW, 6, 7, 0), pb_ri(ISA_OP_ADD, 5, ISA_REG_GI0, 1));
    expect_nothing_committed(h, EMU_FAULT_UNBOUND_GATE, pc);

    committed_setup(h);
    pc = PB(h->p, pb_ri(ISA_OP_ADD, 5, 5, 1), pb_ri(ISA_OP_LDW, 6, 0, 0x10));
    expect_nothing_committed(h, EMU_FAULT_BAD_ADDRESS, pc);

    /* The fault comes first in operation order. */
    committed_setup(h);
    pc = PB(h->p, pb_rr(ISA_OP_DIV, 6, 5, 0), pb_ri(ISA_OP_ADD, 5, 5, 1), pb_ri(ISA_OP_WRCR, 8, 0, EMU_CR_DEBUG_PUTC));
    expect_nothing_committed(h, EMU_FAULT_DIVIDE_BY_ZERO, pc);
}

static void test_faulting_bundle_counts_no_memory_or_register_access(void **state)
{
    harness_t *h = *state;
    /* ca_stats_t counts accesses made; a faulting bundle makes none (it commits nothing). */
    committed_setup(h);
    uint32_t pc = PB(h->p, pb_ri(ISA_OP_STW, 6, 7, 0), pb_rr(ISA_OP_DIV, 6, 5, 0));
    expect_nothing_committed(h, EMU_FAULT_DIVIDE_BY_ZERO, pc);
    assert_int_equal(h_stats(h)->mem_writes, 0);

    committed_setup(h);
    pc = PB(h->p, pb_ri(ISA_OP_LDD, 20, 7, 0), pb_ri(ISA_OP_RDCR, 9, 0, EMU_CR_CELL_X), pb_rr(ISA_OP_REM, 6, 5, 0));
    expect_nothing_committed(h, EMU_FAULT_DIVIDE_BY_ZERO, pc);
    assert_int_equal(h_stats(h)->mem_reads, 0);
    assert_int_equal(h_stats(h)->cr_reads, 0);
    assert_int_equal(h_stats(h)->bundles, 3);
}

static void test_a_fault_stops_the_cell_for_good(void **state)
{
    harness_t *h = *state;
    PB(h->p, pb_trap(1));
    PB(h->p, pb_halt());
    run_expect(h, EMU_FAULT_TRAP, PB_TEXT_BASE, 0);
    /* Running on does nothing more. */
    uint64_t bundles = h_stats(h)->bundles;
    emu_array_run(h->array, 1000);
    assert_int_equal(h->ca->s.state, CA_FAULTED);
    assert_int_equal(h->ca->s.fault.kind, EMU_FAULT_TRAP);
    assert_int_equal(h_stats(h)->bundles, bundles);
}

/* xorshift64*: a deterministic stream, state held by the caller. */
static uint32_t next_random(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return (uint32_t)((*s * 0x2545F4914F6CDD1Dull) >> 32);
}

/* A random register: mostly r0..r15, rarely a gate. */
static unsigned random_reg(uint64_t *s)
{
    unsigned r = next_random(s) % 64;
    return r < 62 ? r % 16 : ISA_REG_GI0 + next_random(s) % 4;
}

/* A random extension word: mostly the start of a bundle emitted so far or an aligned address in the data,
 * sometimes anything. */
static uint32_t random_ext(uint64_t *s, uint32_t data, const uint32_t *starts, unsigned nstarts)
{
    switch (next_random(s) % 8) {
    case 0: return next_random(s);
    case 1: return next_random(s) % 0x20;
    case 2:
    case 3: return nstarts ? starts[next_random(s) % nstarts] : PB_TEXT_BASE;
    default: return data + 8 * (next_random(s) % 32);
    }
}

/* A random program: `li` of data addresses and small numbers into r1..r15, then operations of random rows,
 * legal on their own except now and then (a wrong field, a garbage word), with targets mostly at earlier
 * bundles and addresses mostly in the data. */
static void random_program(harness_t *h, uint64_t *seed, uint32_t data, unsigned nops)
{
    uint32_t starts[256];
    unsigned nstarts = 0;
    for (unsigned r = 1; r < 16; r++)
        starts[nstarts++] = PB(h->p, pb_li(r, r < 8 ? data + 8 * r : next_random(seed) % 16));
    for (unsigned i = 0; i < nops && nstarts < sizeof starts / sizeof starts[0]; i++) {
        if (next_random(seed) % 32 == 0) {
            pb_word(h->p, next_random(seed));
            continue;
        }
        bool sloppy = next_random(seed) % 16 == 0;
        pb_op_t o;
        do {
            unsigned opc;
            do
                opc = next_random(seed) & ISA_MASK_OPCODE;
            while (isa_op_info(opc) == NULL || opc == ISA_OP_HALT || opc == ISA_OP_TRAP);
            isa_format_t f = isa_op_info(opc)->format;
            bool ext = isa_format_needs_ext(f) || (isa_format_has_operand2(f) && next_random(seed) % 2);
            o = pb_raw(opc, random_reg(seed), random_reg(seed), random_reg(seed), ext,
                       random_ext(seed, data, starts, nstarts));
            if (isa_op_info(opc)->unit == ISA_UNIT_CR && next_random(seed) % 2)
                o = pb_ri(opc, o.op.rd, 0, next_random(seed) % 0x14);
            if (!sloppy) {
                o.op.rd = isa_format_has_rd(f) ? o.op.rd : 0;
                o.op.rs1 = isa_format_has_rs1(f) ? o.op.rs1 : 0;
                o.op.rs2 = isa_format_has_rs2_reg(f) || (isa_format_has_operand2(f) && !ext) ? o.op.rs2 : 0;
            }
        } while (!sloppy && isa_op_check(&o.op) != ISA_OK);
        starts[nstarts++] = pb_emit(h->p, &o, 1);
    }
    PB(h->p, pb_halt());
}

static void test_random_programs_never_crash_the_host(void **state)
{
    harness_t *h = *state;
    uint64_t seed = 0x0123456789abcdefull;
    h_set(h, "mem_bytes", "64K");
    h->limit = 20000;
    unsigned outcomes[5] = {0};
    uint64_t bundles = 0;
    for (unsigned round = 0; round < 400; round++) {
        h_next(h);
        pb_set_data_base(h->p, 0x8000);
        for (unsigned i = 0; i < 64; i++)
            pb_data_word(h->p, next_random(&seed));
        random_program(h, &seed, 0x8000, 40);
        h_run(h);
        assert_true(h->status == EMU_RUN_DONE || h->status == EMU_RUN_FAULT || h->status == EMU_RUN_LIMIT);
        outcomes[h->status]++;
        if (h->status == EMU_RUN_FAULT) {
            const emu_fault_t *f = &h->ca->s.fault;
            assert_int_equal(h->ca->s.state, CA_FAULTED);
            assert_true(f->kind > EMU_FAULT_NONE && f->kind < EMU_FAULT_COUNT);
            char line[256];
            h_fault_text(h, line, sizeof line);
            assert_int_equal(strncmp(line, "cell (0,0) pc 0x", 16), 0);
            assert_non_null(strstr(line, emu_fault_kind_name(f->kind)));
        }
        assert_true(h_cycles(h) <= h->limit);
        assert_int_equal(h_reg(h, 0), 0);
        bundles += h_stats(h)->bundles;
    }
    /* The programs must get somewhere for this to mean anything. */
    assert_true(outcomes[EMU_RUN_FAULT] > 0);
    assert_true(outcomes[EMU_RUN_DONE] + outcomes[EMU_RUN_LIMIT] > 0);
    assert_true(bundles > 2000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        HTEST(test_divide_by_zero_faults_at_its_bundle),
        HTEST(test_fault_report_is_the_documented_line),
        HTEST(test_fault_report_names_the_cell_and_works_without_lines),
        HTEST(test_trap_stops_the_cell_with_its_code),
        HTEST(test_unassigned_opcode_in_the_text_is_an_illegal_instruction),
        HTEST(test_bad_encodings_are_illegal_instructions),
        HTEST(test_running_off_the_end_of_the_text_is_a_bad_pc),
        HTEST(test_entry_outside_the_text_is_a_bad_pc),
        HTEST(test_jumps_outside_the_text_fault_at_the_jump),
        HTEST(test_jumps_into_the_middle_of_a_bundle_fault_at_the_jump),
        HTEST(test_every_kind_of_taken_jump_checks_its_target),
        HTEST(test_loop_and_register_jumps_check_their_targets),
        HTEST(test_misaligned_accesses_fault),
        HTEST(test_accesses_past_the_end_of_memory_fault),
        HTEST(test_null_page_accesses_fault),
        HTEST(test_stores_into_the_text_fault),
        HTEST(test_unbound_gates_fault),
        HTEST(test_bad_control_registers_fault),
        HTEST(test_faulting_bundle_commits_nothing),
        HTEST(test_faulting_bundle_counts_no_memory_or_register_access),
        HTEST(test_a_fault_stops_the_cell_for_good),
        HTEST(test_random_programs_never_crash_the_host),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
