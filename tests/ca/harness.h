/*
 * Shared scaffolding of the core's unit tests: a single-cell machine, a program builder, one run, and
 * checks on how it ended. Each cmocka test gets a fresh harness as its state (HTEST).
 *
 *     static void test_x(void **state)
 *     {
 *         harness_t *h = *state;
 *         PB(h->p, pb_li(3, 7));
 *         PB(h->p, pb_halt());
 *         h_run(h);
 *         h_expect_halted(h);
 *         assert_int_equal(h_reg(h, 3), 7);
 *     }
 */
#ifndef TESTS_CA_HARNESS_H
#define TESTS_CA_HARNESS_H

#include <setjmp.h> /* cmocka.h needs these first */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "emu.h"
#include "prog_builder.h"

enum {
    H_CONSOLE_BYTES = 4096,
    /* Registers the evaluation helpers use: operands in pairs r20:r21 and r22:r23, results in r24:r25
     * (register operand) and r26:r27 (immediate operand). */
    H_RA = 20,
    H_RB = 22,
    H_RD = 24,
    H_RD_IMM = 26,
};

typedef struct harness {
    emu_machine_t machine; /* defaults with a 1x1 array; a test may change it before h_run */
    pb_t *p;               /* the program being built */
    unsigned x, y;         /* the cell that runs it */
    uint32_t args[8];      /* a0..a7 */
    unsigned nargs;
    uint64_t limit; /* clock limit of a run */

    emu_array_t *array; /* of the last run */
    const ca_t *ca;     /* the cell that ran */
    emu_run_status_t status;
    char console[H_CONSOLE_BYTES]; /* console lines of the last run, each ended by '\n' */
    size_t console_len;
    unsigned out_x, out_y; /* the cell that wrote the last console line */
} harness_t;

int harness_setup(void **state);
int harness_teardown(void **state);
#define HTEST(f) cmocka_unit_test_setup_teardown(f, harness_setup, harness_teardown)

/* Sets a machine-description key; fails the test when it is refused. */
void h_set(harness_t *h, const char *key, const char *value);

/* Finishes h->p, creates the array, loads the program on cell (x, y) and runs it. */
void h_run(harness_t *h);
/* Finishes h->p and predecodes it with h's machine timing, for a test that runs a core of its own (emu_program_free
 * it after). */
void h_predecode(harness_t *h, emu_program_t *prog);
/* Starts a new program (frees the last run). */
void h_next(harness_t *h);

/* How the run ended: status DONE and the cell halted (the fault is printed otherwise). */
void h_expect_halted(const harness_t *h);
/* Ends the program with a halt, runs it and expects it to halt. */
void h_run_to_halt(harness_t *h);
/* Ends a program with two ways to a halt: falling through sets r5 = 1, the one at `label` sets r5 = 2.
 * After the run, h_took_label says which way it went (and fails the test if it did not halt). */
void h_emit_two_ways(harness_t *h, const char *label);
bool h_took_label(const harness_t *h);
/* Runs on cell (x, y) of a width x height array (with 64K memories, enough for these programs). */
void h_place(harness_t *h, unsigned width, unsigned height, unsigned x, unsigned y);
/* Status FAULT, the cell faulted first, with this kind, pc and cycle. Returns the fault. */
const emu_fault_t *h_expect_fault(const harness_t *h, emu_fault_kind_t kind, uint32_t pc, uint64_t cycle);
/* The one-line report of the cell's fault. */
void h_fault_text(const harness_t *h, char *buf, size_t cap);

uint32_t h_reg(const harness_t *h, unsigned r);
/* Expected register values after a run: H_EXPECT_REGS(h, {5, 42}, {6, 0xffffffff}); lists every mismatch. */
typedef struct h_reg_value {
    unsigned reg;
    uint32_t value;
} h_reg_value_t;
void h_expect_regs(const harness_t *h, const h_reg_value_t *want, size_t n);
#define H_EXPECT_REGS(h, ...)                                                                                          \
    h_expect_regs((h), (const h_reg_value_t[]){__VA_ARGS__},                                                           \
                  sizeof((const h_reg_value_t[]){__VA_ARGS__}) / sizeof(h_reg_value_t))
uint64_t h_pair(const harness_t *h, unsigned r);
uint32_t h_mem32(const harness_t *h, uint32_t addr);
uint64_t h_cycles(const harness_t *h);
const ca_stats_t *h_stats(const harness_t *h);

/* Clocks the machine gives an operation (its timing class) or a timing class. */
unsigned h_op_clocks(const harness_t *h, unsigned opcode);
unsigned h_class_clocks(const harness_t *h, isa_timing_class_t t);

/* Emits the bundle that loads a 64-bit value into pair r:r+1 (low word in r). */
void h_li_pair(harness_t *h, unsigned r, uint64_t value);

/*
 * Runs one operation on its own: pairs H_RA = a and H_RB = b, then `op H_RD, H_RA, H_RB` (RRX, also
 * the double forms) or `op H_RD, H_RA` (RR); when the row takes an immediate, also `op H_RD_IMM, H_RA,
 * imm` with imm the low word of b, and checks both forms agree. Returns pair H_RD (the high word is 0
 * unless the operation writes a pair). Fails the test if the program does not halt.
 */
uint64_t h_exec(harness_t *h, unsigned opcode, uint64_t a, uint64_t b);
static inline uint32_t h_exec32(harness_t *h, unsigned opcode, uint32_t a, uint32_t b)
{
    return (uint32_t)h_exec(h, opcode, a, b);
}

/* A table of cases for one operation: want = op(a, b). */
typedef struct h_case {
    uint64_t a, b, want;
} h_case_t;

/* Runs every case (h_exec) and fails with all the wrong ones listed. */
void h_check_cases(harness_t *h, unsigned opcode, const h_case_t *cases, size_t n);
#define H_CHECK_CASES(h, opcode, cases) h_check_cases((h), (opcode), (cases), sizeof(cases) / sizeof((cases)[0]))

#endif
