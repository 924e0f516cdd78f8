/*
 * The FAULTS column of isa/isa.def against what the core's handlers do. Predecoding lets a bundle write in place
 * past an operation only when the column says it cannot fault (emu/program.c), so a row marked NEVER that can
 * fault would commit half a faulting bundle, and a row marked MAY that cannot costs every bundle it is in the
 * staging. Each row runs, alone in its bundle, on every pair of edge operands (zero, small, unaligned, the sign
 * bit, all ones: a zero divisor, an address outside memory or misaligned, a register or control register number
 * that names none, a jump to nowhere); rows with a target written in the operation run once to a good target and
 * once to one outside the text. A row faults if any run faults at its bundle:
 *   NEVER   no run faults;
 *   TARGET  a run to the bad target faults, none to the good one does;
 *   MAY     some run faults.
 */
#include <stdio.h>

#include "harness.h"

enum {
    R_A = 20,       /* operand 1 and its pair */
    R_B = 22,       /* operand 2 (register form) and its pair; also the value a store or wrcr writes */
    R_DST = 24,     /* destination (even, so pairs fit) */
    BAD_TARGET = 4, /* below the text and inside the null page */
};

/* Edge values of each operand; a pair holds the value in both words. */
static const uint32_t edges[] = {0, 1, 3, 0x80000000u, 0xffffffffu};
enum { NEDGES = sizeof edges / sizeof edges[0] };

static bool has_target(const isa_op_info_t *info)
{
    return info->format == ISA_FMT_BR || info->format == ISA_FMT_LOOP || info->format == ISA_FMT_J;
}

/* The row's operation on R_A and R_B (or on its target, to "after" or to BAD_TARGET). */
static pb_op_t row_operation(unsigned opcode, bool bad_target)
{
    const isa_op_info_t *info = isa_op_info(opcode);
    pb_op_t op = pb_nop();
    switch (info->format) {
    case ISA_FMT_NONE: op = pb_raw(opcode, 0, 0, 0, false, 0); break;
    case ISA_FMT_TRAP: op = pb_trap(0x2a); break;
    case ISA_FMT_RRX:
    case ISA_FMT_LD: op = pb_rr(opcode, R_DST, R_A, R_B); break;
    case ISA_FMT_ST: op = pb_rr(opcode, R_B, R_A, R_B); break;
    case ISA_FMT_RR: op = pb_r(opcode, R_DST, R_A); break;
    case ISA_FMT_BR: op = pb_br(opcode, R_A, R_B, "after"); break;
    case ISA_FMT_LOOP: op = pb_loop(R_A, "after"); break;
    case ISA_FMT_J: op = pb_j(opcode, "after"); break;
    case ISA_FMT_JR: op = pb_jr(opcode, R_A); break;
    case ISA_FMT_COUNT: fail_msg("row %s has no format", info->mnemonic);
    }
    return bad_target ? pb_to(op, BAD_TARGET) : op;
}

/* Runs the row on operands a and b; true when the run faults at the row's bundle. */
static bool row_faults(harness_t *h, unsigned opcode, uint32_t a, uint32_t b, bool bad_target)
{
    h_next(h);
    PB(h->p, pb_li(R_A, a), pb_li(R_A + 1, a));
    PB(h->p, pb_li(R_B, b), pb_li(R_B + 1, b));
    /* rfe jumps to the event pc: its operand. */
    if (opcode == ISA_OP_RFE)
        PB(h->p, pb_ri(ISA_OP_WRCR, R_A, 0, EMU_CR_EVENT_EPC));
    pb_op_t op = row_operation(opcode, bad_target);
    uint32_t pc = pb_emit(h->p, &op, 1);
    pb_label(h->p, "after");
    PB(h->p, pb_halt());
    h_run(h);
    const emu_fault_t *f = &h->ca->s.fault;
    return h->ca->s.state == CA_FAULTED && f->pc == pc && f->kind != EMU_FAULT_DEADLOCK && f->kind != EMU_FAULT_NETWORK;
}

/* Whether any pair of edge operands makes the row fault; *example says which. */
static bool faults_on_some_operands(harness_t *h, unsigned opcode, bool bad_target, char *example, size_t cap)
{
    for (unsigned i = 0; i < NEDGES; i++)
        for (unsigned j = 0; j < NEDGES; j++)
            if (row_faults(h, opcode, edges[i], edges[j], bad_target)) {
                char text[256] = "";
                h_fault_text(h, text, sizeof text);
                snprintf(example, cap, "a = 0x%x, b = 0x%x%s: %s", edges[i], edges[j], bad_target ? ", bad target" : "",
                         text);
                return true;
            }
    return false;
}

static const char *faults_name(isa_faults_t f)
{
    switch (f) {
    case ISA_FAULTS_NEVER: return "NEVER";
    case ISA_FAULTS_TARGET: return "TARGET";
    case ISA_FAULTS_MAY: return "MAY";
    }
    return "?";
}

static void test_every_row_faults_as_its_column_says(void **state)
{
    harness_t *h = *state;
    h->limit = 1000; /* wfe waits for an event that never comes */
    unsigned rows = 0;
    for (unsigned opc = 0; opc < ISA_OPCODE_LIMIT; opc++) {
        const isa_op_info_t *info = isa_op_info(opc);
        if (info == NULL)
            continue;
        rows++;
        char example[320] = "";
        bool faults = faults_on_some_operands(h, opc, false, example, sizeof example);
        bool faults_away = has_target(info) && faults_on_some_operands(h, opc, true, example, sizeof example);
        isa_faults_t seen = faults ? ISA_FAULTS_MAY : faults_away ? ISA_FAULTS_TARGET : ISA_FAULTS_NEVER;
        if (seen != info->faults)
            fail_msg("%s: isa.def says FAULTS %s, the handler behaves as %s (%s)", info->mnemonic,
                     faults_name(info->faults), faults_name(seen), example[0] ? example : "no run faulted");
    }
    assert_true(rows > 0);
}

/* Predecoding checks the targets of exactly the formats that carry one (emu/program.c), and lets a bundle write in
 * place after a store only because every load may fault (a load that could not would read the stored word). */
static void test_column_fits_what_predecoding_assumes(void **state)
{
    (void)state;
    for (unsigned opc = 0; opc < ISA_OPCODE_LIMIT; opc++) {
        const isa_op_info_t *info = isa_op_info(opc);
        if (info == NULL)
            continue;
        if (info->faults == ISA_FAULTS_TARGET && !has_target(info))
            fail_msg("%s: FAULTS TARGET, but its format carries no target", info->mnemonic);
        if (info->unit == ISA_UNIT_MEM && info->format == ISA_FMT_LD && info->faults != ISA_FAULTS_MAY)
            fail_msg("%s: a load must be FAULTS MAY", info->mnemonic);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        HTEST(test_every_row_faults_as_its_column_says),
        HTEST(test_column_fits_what_predecoding_assumes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
