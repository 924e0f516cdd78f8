/*
 * Every row of the operation table runs on the core: one legal operation per row, generated from the
 * table itself (format, unit, flags; no hand-kept list), executed on a 1x1 array with operands that
 * cannot legitimately fault. It must not fault (in particular not with "has no handler"), halt and trap
 * must stop the cell as documented, and the run must take exactly the clocks of the row's timing class,
 * with the default timing and with that class changed in the machine description.
 */
#include <stdio.h>

#include "harness.h"

enum {
    R_DST = 30,   /* destination (even, so pairs fit) */
    R_A = 22,     /* operand 1: the pair 7 : 0x40000000 */
    R_B = 24,     /* operand 2: the pair 1 : 0x3ff00000, never zero for the dividers */
    R_VAL = 20,   /* value a store or wrcr writes: 'A' */
    R_DATA = 26,  /* address of an 8-aligned data area */
    R_TARGET = 28 /* address of the bundle after the operation */
};

/* One legal operation of the row, reading the registers set up by setup_operands. */
static pb_op_t row_operation(unsigned opcode)
{
    const isa_op_info_t *info = isa_op_info(opcode);
    bool imm_ok = !(info->flags & ISA_F_NO_IMM);
    bool cr = info->unit == ISA_UNIT_CR;
    switch (info->format) {
    case ISA_FMT_NONE: return pb_raw(opcode, 0, 0, 0, false, 0);
    case ISA_FMT_TRAP: return pb_trap(0x2a);
    case ISA_FMT_RRX: return imm_ok ? pb_ri(opcode, R_DST, R_A, 3) : pb_rr(opcode, R_DST, R_A, R_B);
    case ISA_FMT_RR: return pb_r(opcode, R_DST, R_A);
    /* Loads and stores address the data area; rdcr reads CELL_X, wrcr writes DEBUG_PUTC. */
    case ISA_FMT_LD: return cr ? pb_ri(opcode, R_DST, 0, EMU_CR_CELL_X) : pb_ri(opcode, R_DST, R_DATA, 8);
    case ISA_FMT_ST: return cr ? pb_ri(opcode, R_VAL, 0, EMU_CR_DEBUG_PUTC) : pb_ri(opcode, R_VAL, R_DATA, 8);
    case ISA_FMT_BR: return pb_br(opcode, R_A, R_B, "after");
    case ISA_FMT_LOOP: return pb_loop(R_A, "after");
    case ISA_FMT_J: return pb_j(opcode, "after");
    case ISA_FMT_JR: return pb_jr(opcode, R_TARGET);
    case ISA_FMT_COUNT: break;
    }
    fail_msg("row %s has no format", info->mnemonic);
    return pb_nop();
}

/* Four bundles of li (integer clocks) set every operand register. */
enum { SETUP_BUNDLES = 4 };
static void setup_operands(harness_t *h)
{
    pb_data_align(h->p, 8);
    pb_data_label(h->p, "data");
    for (unsigned i = 0; i < 8; i++)
        pb_data_word(h->p, 0x01020304u * (i + 1));
    PB(h->p, pb_li(R_A, 7), pb_li(R_A + 1, 0x40000000u));
    PB(h->p, pb_li(R_B, 1), pb_li(R_B + 1, 0x3ff00000u));
    PB(h->p, pb_li(R_VAL, 'A'), pb_la(R_DATA, "data"));
    PB(h->p, pb_la(R_TARGET, "after"));
}

/* Runs the row's operation and checks how the run ends and how long it takes. */
static void run_row(harness_t *h, unsigned opcode)
{
    const isa_op_info_t *info = isa_op_info(opcode);
    h_next(h);
    setup_operands(h);
    /* rfe returns to the event pc: point it at the bundle after the operation. */
    bool rfe = opcode == ISA_OP_RFE;
    if (rfe)
        PB(h->p, pb_ri(ISA_OP_WRCR, R_TARGET, 0, EMU_CR_EVENT_EPC));
    /* wfe waits for a masked event: make one pending (events stay off, so no handler runs). */
    bool wfe = opcode == ISA_OP_WFE;
    if (wfe) {
        PB(h->p, pb_li(R_DST, CA_EVENT_SOFT0));
        PB(h->p, pb_ri(ISA_OP_WRCR, R_DST, 0, EMU_CR_EVENT_MASK));
        PB(h->p, pb_ri(ISA_OP_WRCR, R_DST, 0, EMU_CR_EVENT_RAISE));
    }
    pb_op_t op = row_operation(opcode);
    uint32_t pc = pb_emit(h->p, &op, 1);
    pb_label(h->p, "after");
    PB(h->p, pb_halt());
    h_run(h);

    unsigned t_int = h_class_clocks(h, ISA_T_INT);
    uint64_t before = SETUP_BUNDLES * (uint64_t)t_int + (rfe ? h_class_clocks(h, ISA_T_CR) : 0) +
                      (wfe ? t_int + 2ull * h_class_clocks(h, ISA_T_CR) : 0);
    char report[256] = "";
    if (h->ca->s.state == CA_FAULTED)
        h_fault_text(h, report, sizeof report);
    if (opcode == ISA_OP_TRAP) {
        const emu_fault_t *f = h_expect_fault(h, EMU_FAULT_TRAP, pc, before);
        assert_int_equal(f->addr, 0x2a);
        return;
    }
    if (h->status != EMU_RUN_DONE || h->ca->s.state != CA_HALTED)
        fail_msg("row %s (opcode 0x%02x) did not run to the halt: %s", info->mnemonic, opcode, report);
    /* The halt row halts at the operation itself; every other row runs, then the halt after it. */
    uint64_t want = before + h_op_clocks(h, opcode) + (opcode == ISA_OP_HALT ? 0 : t_int);
    if (h_cycles(h) != want)
        fail_msg("row %s (timing %s = %u): %llu cycles, want %llu", info->mnemonic, isa_timing_key(info->timing),
                 h_op_clocks(h, opcode), (unsigned long long)h_cycles(h), (unsigned long long)want);
    assert_int_equal(h_stats(h)->bundles,
                     SETUP_BUNDLES + (rfe ? 1 : 0) + (wfe ? 3 : 0) + 1 + (opcode == ISA_OP_HALT ? 0 : 1));
    assert_int_equal(h_stats(h)->busy_clocks, want);
    if (opcode == ISA_OP_WRCR)
        assert_string_equal(h->console, "A\n");
}

static void test_every_row_runs_without_fault_in_its_timing_class(void **state)
{
    harness_t *h = *state;
    unsigned rows = 0;
    for (unsigned opc = 0; opc < ISA_OPCODE_LIMIT; opc++) {
        if (isa_op_info(opc) == NULL)
            continue;
        run_row(h, opc);
        rows++;
    }
    assert_true(rows > 0);
}

static void test_every_row_takes_the_clocks_its_class_is_given(void **state)
{
    harness_t *h = *state;
    for (unsigned opc = 0; opc < ISA_OPCODE_LIMIT; opc++) {
        const isa_op_info_t *info = isa_op_info(opc);
        if (info == NULL || opc == ISA_OP_TRAP)
            continue;
        emu_machine_defaults(&h->machine);
        h->machine.width = h->machine.height = 1;
        char key[64];
        snprintf(key, sizeof key, "timing.%s", isa_timing_key(info->timing));
        h_set(h, key, "17");
        run_row(h, opc); /* the expected count reads the changed clocks from the machine */
        assert_int_equal(h_op_clocks(h, opc), 17);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        HTEST(test_every_row_runs_without_fault_in_its_timing_class),
        HTEST(test_every_row_takes_the_clocks_its_class_is_given),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
