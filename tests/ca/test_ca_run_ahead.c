/*
 * The run-ahead (ca_run_alone, ca_run_ahead_noted) against the core stepped clock by clock (ca_step): for programs
 * with loops inside loops, jumps forwards and backwards, jumps to where a register says, writes to r0, memory, a jump
 * out of what may run ahead and faults after a jump or a fall-through, every horizon from one clock on must leave
 * the same registers, memory, clocks and statistics as stepping through issue() does, and report the clock of the
 * last bundle it issued. The run-ahead counts its statistics at its jumps and its exit, not bundle by bundle, and ends
 * its bundles with pseudo-operations chosen by predecoding: these are what the comparisons look at.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

enum { MEM_BYTES = 1u << 17, MEM_GUARD = 0x1000, MAX_ISSUES = 100000, MAX_NOTED_SPAN = 4096 };

/* Nothing here touches the agent: a port with no calls. */
static const ca_port_ops_t no_port_ops = {0};

typedef struct core {
    uint8_t *mem;
    ca_t ca;
} core_t;

static void core_start(core_t *c, const emu_program_t *prog)
{
    char err[200];
    c->mem = calloc(MEM_BYTES, 1);
    assert_non_null(c->mem);
    ca_init(&c->ca, c->mem, MEM_BYTES, MEM_GUARD,
            (ca_port_t){&no_port_ops, NULL, NULL, NULL, 0, 0, NULL, 0, 0, 0, 0, NULL, NULL});
    if (ca_load(&c->ca, prog, err, sizeof err) != 0)
        fail_msg("load: %s", err);
}

/* The reference: ca_step at every clock it asks for, every bundle issued by issue() (ca.c), not by the run-ahead's
 * code, which ca_step takes for the bundles that may run ahead. Notes the clock of each issue. */
static unsigned step_all(core_t *c, emu_program_t *prog, uint64_t *issued_at)
{
    uint16_t *flags = malloc(sizeof *flags * prog->nbundles);
    assert_non_null(flags);
    for (uint32_t k = 0; k < prog->nbundles; k++) {
        flags[k] = prog->bundles[k].flags;
        prog->bundles[k].flags &= (uint16_t)~(EMU_BUNDLE_RUN_AHEAD | EMU_BUNDLE_RUN_ONE | EMU_BUNDLE_LONE_CORE);
    }
    unsigned n = 0;
    for (uint64_t now = 0; now != UINT64_MAX;) {
        uint64_t before = c->ca.s.stats.bundles;
        uint64_t next = ca_step(&c->ca, now);
        if (c->ca.s.stats.bundles != before) {
            assert_true(n < MAX_ISSUES);
            issued_at[n++] = now;
        }
        now = next;
    }
    for (uint32_t k = 0; k < prog->nbundles; k++)
        prog->bundles[k].flags = flags[k];
    free(flags);
    return n;
}

/* One span of the run-ahead from the core's ready_at, its stores noted: undoing them must give back the memory as
 * it was before the span. Returns the bundles issued. */
static uint64_t run_noted(core_t *c, uint64_t span, uint64_t *last)
{
    if (span > MAX_NOTED_SPAN)
        span = MAX_NOTED_SPAN; /* the undo needs room for two stores a clock */
    ca_undo_entry_t *entries = calloc(2 * span + 2, sizeof *entries);
    uint8_t *before = malloc(MEM_BYTES), *after = malloc(MEM_BYTES);
    assert_true(entries != NULL && before != NULL && after != NULL);
    ca_undo_t undo = {entries, 0};
    memcpy(before, c->mem, MEM_BYTES);
    uint64_t n = ca_run_ahead_noted(&c->ca, c->ca.s.ready_at + span, &undo, last);
    assert_true(undo.n <= 2 * span + 2);
    memcpy(after, c->mem, MEM_BYTES);
    ca_undo_apply(&c->ca, &undo);
    assert_memory_equal(c->mem, before, MEM_BYTES);
    memcpy(c->mem, after, MEM_BYTES);
    free(after);
    free(before);
    free(entries);
    return n;
}

/* The run-ahead in spans of `span` clocks (noted or not), ca_step for the bundles that may not run ahead; after each
 * span, the clock of the last bundle issued must be the one stepping issued it at. */
static void run_ahead_all(core_t *c, uint64_t span, bool noted, const uint64_t *issued_at, unsigned nissued)
{
    while (!ca_done(&c->ca)) {
        const emu_bundle_t *b = emu_program_bundle(c->ca.prog, c->ca.s.pc);
        uint64_t count = c->ca.s.stats.bundles, last = UINT64_MAX, n;
        if (b != NULL && (b->flags & EMU_BUNDLE_RUN_AHEAD) && noted) {
            n = run_noted(c, span, &last);
        } else if (b != NULL && (b->flags & EMU_BUNDLE_ALONE) && !noted) {
            n = ca_run_alone(&c->ca, c->ca.s.ready_at + span, &last);
        } else {
            ca_step(&c->ca, c->ca.s.ready_at);
            n = c->ca.s.stats.bundles - count;
            last = n != 0 ? issued_at[count] : UINT64_MAX;
        }
        assert_int_equal(c->ca.s.stats.bundles, count + n);
        assert_true(count + n <= nissued);
        if (n != 0 && last != issued_at[count + n - 1])
            fail_msg("span %" PRIu64 "%s: bundle %" PRIu64 " issued at %" PRIu64 ", the run-ahead says %" PRIu64, span,
                     noted ? " noted" : "", count + n, issued_at[count + n - 1], last);
        if (n == 0 && !ca_done(&c->ca))
            fail_msg("span %" PRIu64 ": no progress at pc 0x%x", span, c->ca.s.pc);
    }
}

#define SAME(field)                                                                                                    \
    do {                                                                                                               \
        if (memcmp(&w->field, &g->field, sizeof w->field) != 0)                                                        \
            fail_msg("%s: " #field " differs", what);                                                                  \
    } while (0)

static void expect_same(const core_t *want, const core_t *got, const char *what)
{
    const ca_state_block_t *w = &want->ca.s, *g = &got->ca.s;
    SAME(regs);
    SAME(pc);
    SAME(state);
    SAME(ready_at);
    SAME(mem_busy_until);
    SAME(halted_at);
    SAME(fault.kind);
    SAME(fault.pc);
    SAME(fault.cycle);
    SAME(fault.addr);
    SAME(fault.detail);
    SAME(stats);
    if (memcmp(want->mem, got->mem, MEM_BYTES) != 0)
        fail_msg("%s: memory differs", what);
}

/* A set of the run-ahead's bundle endings (EMU_AHEAD_ENDS), which a program is meant to have. */
#define ENDING(id) (1u << (EMU_AHEAD_##id - EMU_AHEAD_END))

static unsigned endings(const emu_program_t *prog)
{
    unsigned set = 0;
    for (uint32_t k = 0; k < prog->nbundles; k++) {
        const emu_bundle_t *b = &prog->bundles[k];
        if (b->flags & EMU_BUNDLE_RUN_AHEAD)
            set |= 1u << (prog->ahead_ops[b->first_ahead + b->count].opcode - EMU_AHEAD_END);
    }
    return set;
}

/* Runs h's program both ways, for spans from 1 clock up, plain and noted; it ends with a fault of that kind (or
 * none), and its bundles that run ahead have the endings `has`. */
static void compare(harness_t *h, emu_fault_kind_t ends_with, unsigned has)
{
    emu_program_t prog;
    h_predecode(h, &prog);
    assert_int_equal(endings(&prog), has);
    uint64_t *issued_at = malloc(sizeof *issued_at * MAX_ISSUES);
    assert_non_null(issued_at);
    core_t want;
    core_start(&want, &prog);
    unsigned n = step_all(&want, &prog, issued_at);
    assert_int_equal(want.ca.s.fault.kind, ends_with);
    assert_true(n > 10);
    static const uint64_t spans[] = {1, 2, 3, 4, 5, 7, 11, 64, 1000, 1u << 30};
    for (size_t i = 0; i < sizeof spans / sizeof spans[0]; i++)
        for (int noted = 0; noted < 2; noted++) {
            core_t got;
            core_start(&got, &prog);
            run_ahead_all(&got, spans[i], noted, issued_at, n);
            char what[64];
            snprintf(what, sizeof what, "span %" PRIu64 "%s", spans[i], noted ? " noted" : "");
            expect_same(&want, &got, what);
            free(got.mem);
        }
    free(want.mem);
    free(issued_at);
    emu_program_free(&prog);
}

/* Loops in loops over a buffer: loads, stores (a pair too), a forward branch taken now and then, and a bundle that
 * writes r0. */
static void test_loops_with_memory_match_stepping(void **state)
{
    harness_t *h = *state;
    pb_data_label(h->p, "buf");
    for (unsigned i = 0; i < 16; i++)
        pb_data_word(h->p, i * 3u);
    PB(h->p, pb_la(11, "buf"));
    PB(h->p, pb_li(12, 5), pb_li(16, 1));
    pb_label(h->p, "outer");
    PB(h->p, pb_li(13, 7), pb_rr(ISA_OP_OR, 14, 11, ISA_REG_ZERO));
    pb_label(h->p, "inner");
    PB(h->p, pb_rr(ISA_OP_LDW, 15, 14, ISA_REG_ZERO));
    PB(h->p, pb_ri(ISA_OP_ADD, ISA_REG_ZERO, 15, 3), pb_rr(ISA_OP_ADD, 16, 16, 15));
    PB(h->p, pb_rr(ISA_OP_STW, 16, 14, ISA_REG_ZERO), pb_ri(ISA_OP_AND, 17, 16, 1));
    PB(h->p, pb_br(ISA_OP_BNE, 17, ISA_REG_ZERO, "odd"));
    PB(h->p, pb_ri(ISA_OP_ADD, 18, 18, 1));
    pb_label(h->p, "odd");
    PB(h->p, pb_ri(ISA_OP_ADD, 14, 14, 4), pb_loop(13, "inner"));
    PB(h->p, pb_rf(ISA_OP_FADD_S, 19, 19, 1.0f));
    PB(h->p, pb_ri(ISA_OP_STD, 16, 11, 40));
    PB(h->p, pb_loop(12, "outer"));
    PB(h->p, pb_halt());
    compare(h, EMU_FAULT_NONE, ENDING(END) | ENDING(END_MEM) | ENDING(END_JUMP) | ENDING(END_ANY));
}

/* Calls to a function from two places, so that its return (a jump where a register says) goes to one, then the
 * other; a call through a register; and a jump to the halt, which may not run ahead. */
static void test_calls_and_returns_match_stepping(void **state)
{
    harness_t *h = *state;
    PB(h->p, pb_li(12, 9), pb_la(19, "g"));
    pb_label(h->p, "top");
    PB(h->p, pb_j(ISA_OP_CALL, "f"));
    PB(h->p, pb_j(ISA_OP_CALL, "f"));
    PB(h->p, pb_jr(ISA_OP_CALLR, 19));
    PB(h->p, pb_loop(12, "top"));
    PB(h->p, pb_j(ISA_OP_JMP, "done"));
    pb_label(h->p, "f");
    PB(h->p, pb_ri(ISA_OP_ADD, 20, 20, 1));
    PB(h->p, pb_jr(ISA_OP_JR, ISA_REG_LINK));
    pb_label(h->p, "g");
    PB(h->p, pb_rr(ISA_OP_LDW, 22, 19, ISA_REG_ZERO), pb_ri(ISA_OP_ADD, 21, 21, 2));
    PB(h->p, pb_jr(ISA_OP_JR, ISA_REG_LINK));
    pb_label(h->p, "done");
    PB(h->p, pb_halt());
    compare(h, EMU_FAULT_NONE, ENDING(END) | ENDING(END_MEM) | ENDING(END_JUMP) | ENDING(END_ANY));
}

/* A jump through a register to the bundle before it or the one before that, in turn: the same jump taken again
 * and again, each time to another target. */
static void test_a_jump_to_another_target_each_time_matches_stepping(void **state)
{
    harness_t *h = *state;
    PB(h->p, pb_la(19, "a"), pb_la(22, "b"));
    PB(h->p, pb_rr(ISA_OP_XOR, 23, 19, 22), pb_li(12, 40));
    pb_label(h->p, "a");
    PB(h->p, pb_ri(ISA_OP_ADD, 21, 21, 1));
    pb_label(h->p, "b");
    PB(h->p, pb_rr(ISA_OP_XOR, 19, 19, 23), pb_ri(ISA_OP_SUB, 12, 12, 1));
    PB(h->p, pb_br(ISA_OP_BEQ, 12, ISA_REG_ZERO, "done"));
    PB(h->p, pb_jr(ISA_OP_JR, 19));
    pb_label(h->p, "done");
    PB(h->p, pb_halt());
    compare(h, EMU_FAULT_NONE, ENDING(END) | ENDING(END_ANY));
}

/* A load walks down to the null page and faults in the bundle a jump lands on. */
static void test_a_fault_after_a_jump_matches_stepping(void **state)
{
    harness_t *h = *state;
    PB(h->p, pb_li(12, 12), pb_li(14, 0x8000));
    pb_label(h->p, "top");
    PB(h->p, pb_rr(ISA_OP_LDW, 15, 14, ISA_REG_ZERO));
    PB(h->p, pb_ri(ISA_OP_SUB, 14, 14, 0x1000), pb_rr(ISA_OP_ADD, 16, 16, 15));
    PB(h->p, pb_loop(12, "top"));
    PB(h->p, pb_halt());
    compare(h, EMU_FAULT_BAD_ADDRESS, ENDING(END) | ENDING(END_MEM) | ENDING(END_JUMP));
}

/* A loop whose load walks down to the null page and whose division counts a divisor down from `divisor`: it faults in
 * bundles reached by falling through, the load's or the division's, whichever comes first. */
static void fall_through_faults(harness_t *h, uint32_t divisor)
{
    PB(h->p, pb_li(12, 12), pb_li(14, 0x9000));
    PB(h->p, pb_li(17, divisor));
    pb_label(h->p, "top");
    PB(h->p, pb_ri(ISA_OP_SUB, 14, 14, 0x1000), pb_ri(ISA_OP_SUB, 17, 17, 1));
    PB(h->p, pb_rr(ISA_OP_LDW, 15, 14, ISA_REG_ZERO));
    PB(h->p, pb_rr(ISA_OP_DIVU, 16, 15, 17));
    PB(h->p, pb_loop(12, "top"));
    PB(h->p, pb_halt());
}

static void test_a_fault_after_a_fall_through_matches_stepping(void **state)
{
    harness_t *h = *state;
    fall_through_faults(h, 100);
    compare(h, EMU_FAULT_BAD_ADDRESS, ENDING(END) | ENDING(END_MEM) | ENDING(END_JUMP));
    h_next(h);
    fall_through_faults(h, 5);
    compare(h, EMU_FAULT_DIVIDE_BY_ZERO, ENDING(END) | ENDING(END_MEM) | ENDING(END_JUMP));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        HTEST(test_loops_with_memory_match_stepping),
        HTEST(test_calls_and_returns_match_stepping),
        HTEST(test_a_jump_to_another_target_each_time_matches_stepping),
        HTEST(test_a_fault_after_a_jump_matches_stepping),
        HTEST(test_a_fault_after_a_fall_through_matches_stepping),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
