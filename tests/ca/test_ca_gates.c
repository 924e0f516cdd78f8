/*
 * Bundles with gates against a fake communication agent (the port of emu/port.h): ca_step runs a plain bundle with
 * gates (EMU_BUNDLE_PORT_AHEAD) with the run-ahead's code once it has taken its gates, and any other through issue().
 * Both must leave the same registers, memory, clocks, statistics and words on the output gates, through waits on
 * either kind of gate, a fault in an operation after the gates were read, and a gate bound to no channel.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

enum { MEM_BYTES = 1u << 17, MEM_GUARD = 0x1000, MAX_WORDS = 512, MAX_CLOCKS = 100000 };

/* Input gate g hands out g * 1000 + 1, + 2, ...; an output gate keeps what it is given. Now and then a gate is not
 * ready (the call count says when, so that both runs, which call alike, see the same), and an unbound one never is. */
typedef struct fake_agent {
    unsigned calls;
    uint32_t next_in[ISA_NUM_GATES_IN];
    bool unbound_in[ISA_NUM_GATES_IN];
    uint32_t out[ISA_NUM_GATES_OUT][MAX_WORDS];
    unsigned nout[ISA_NUM_GATES_OUT];
} fake_agent_t;

static ca_gates_t fake_take(void *ctx, unsigned in, unsigned out, uint32_t *in_words)
{
    fake_agent_t *f = ctx;
    f->calls++;
    for (unsigned g = 0; g < ISA_NUM_GATES_IN; g++)
        if (in >> g & 1u) {
            if (f->unbound_in[g])
                return ca_gates_blocked(g, CA_GATE_UNBOUND);
            if (f->calls % (3 + g) == 0)
                return ca_gates_blocked(g, CA_GATE_WAIT);
        }
    for (unsigned g = 0; g < ISA_NUM_GATES_OUT; g++)
        if ((out >> g & 1u) && (f->calls % 7 == 0 || f->nout[g] == MAX_WORDS))
            return ca_gates_blocked(ISA_NUM_GATES_IN + g, CA_GATE_WAIT);
    for (unsigned g = 0; g < ISA_NUM_GATES_IN; g++)
        if (in >> g & 1u)
            in_words[g] = g * 1000u + ++f->next_in[g];
    return CA_GATES_READY;
}

static void fake_put(void *ctx, unsigned out, const uint32_t *out_words)
{
    fake_agent_t *f = ctx;
    for (unsigned g = 0; g < ISA_NUM_GATES_OUT; g++)
        if (out >> g & 1u)
            f->out[g][f->nout[g]++] = out_words[g];
}

/* No control register: a program's wrcr faults. */
static int fake_cr_read(void *ctx, uint32_t index, uint32_t *value) { return -1; }
static int fake_cr_write(void *ctx, uint32_t index, uint32_t value) { return -1; }

static const ca_port_ops_t fake_ops = {
    .gate_take = fake_take, .gate_put = fake_put, .cr_read = fake_cr_read, .cr_write = fake_cr_write};

typedef struct core {
    uint8_t *mem;
    ca_t ca;
    fake_agent_t agent;
} core_t;

/* Runs prog on a fresh core with ca_step at every clock it asks for, to the end. */
static void run(core_t *c, const emu_program_t *prog, bool unbound_gi1)
{
    char err[200];
    memset(&c->agent, 0, sizeof c->agent);
    c->agent.unbound_in[1] = unbound_gi1;
    c->mem = calloc(MEM_BYTES, 1);
    assert_non_null(c->mem);
    ca_init(&c->ca, c->mem, MEM_BYTES, MEM_GUARD,
            (ca_port_t){&fake_ops, &c->agent, NULL, NULL, 0, 0, NULL, 0, 0, 0, 0, NULL, NULL});
    if (ca_load(&c->ca, prog, err, sizeof err) != 0)
        fail_msg("load: %s", err);
    for (uint64_t now = 0; now != UINT64_MAX;) {
        assert_true(now < MAX_CLOCKS);
        now = ca_step(&c->ca, now);
    }
}

#define SAME(field)                                                                                                    \
    do {                                                                                                               \
        if (memcmp(&want->field, &got->field, sizeof want->field) != 0)                                                \
            fail_msg(#field " differs");                                                                               \
    } while (0)

static void expect_same(const core_t *want, const core_t *got)
{
    SAME(ca.s.regs);
    SAME(ca.s.pc);
    SAME(ca.s.state);
    SAME(ca.s.ready_at);
    SAME(ca.s.mem_busy_until);
    SAME(ca.s.halted_at);
    SAME(ca.s.wait_gate);
    SAME(ca.s.fault);
    SAME(ca.s.stats);
    SAME(agent);
    if (memcmp(want->mem, got->mem, MEM_BYTES) != 0)
        fail_msg("memory differs");
}

/* Runs h's program through issue() (every bundle's PORT_AHEAD flag cleared), then as ca_step has it; both must
 * agree, with `fast` bundles PORT_AHEAD, the run ending in fault `ends_with` (or none). */
static void compare(harness_t *h, unsigned fast, emu_fault_kind_t ends_with, bool unbound_gi1)
{
    emu_program_t prog;
    h_predecode(h, &prog);
    unsigned n = 0;
    uint16_t *flags = malloc(sizeof *flags * prog.nbundles);
    assert_non_null(flags);
    for (uint32_t k = 0; k < prog.nbundles; k++) {
        flags[k] = prog.bundles[k].flags;
        n += (flags[k] & EMU_BUNDLE_PORT_AHEAD) != 0;
        if (flags[k] & EMU_BUNDLE_PORT_AHEAD) /* and what would still send it to run_one or step_lone */
            prog.bundles[k].flags &= (uint16_t)~(EMU_BUNDLE_PORT_AHEAD | EMU_BUNDLE_RUN_ONE | EMU_BUNDLE_LONE_CORE);
    }
    assert_int_equal(n, fast);
    core_t *want = calloc(1, sizeof *want), *got = calloc(1, sizeof *got);
    assert_true(want != NULL && got != NULL);
    run(want, &prog, unbound_gi1);
    for (uint32_t k = 0; k < prog.nbundles; k++)
        prog.bundles[k].flags = flags[k];
    run(got, &prog, unbound_gi1);
    assert_int_equal(want->ca.s.fault.kind, ends_with);
    assert_true(want->ca.s.stats.gate_reads > 0);
    assert_true(want->ca.s.stats.stall_clocks[CA_STALL_GATE_IN_EMPTY] > 0);
    expect_same(want, got);
    free(want->mem);
    free(got->mem);
    free(want);
    free(got);
    free(flags);
    emu_program_free(&prog);
}

/* A forwarding loop like programs/bench/stream.s, then gates with memory, a branch on a gate word, a bundle that
 * writes r0, and a bundle with a control register (through issue() either way). */
static void test_gate_bundles_match_issue(void **state)
{
    harness_t *h = *state;
    pb_data_label(h->p, "buf");
    pb_bss(h->p, 64);
    PB(h->p, pb_li(3, 40), pb_la(11, "buf"));
    pb_label(h->p, "fwd");
    PB(h->p, pb_rr(ISA_OP_OR, ISA_REG_GO0, ISA_REG_GI0, ISA_REG_ZERO),
       pb_rr(ISA_OP_OR, ISA_REG_GO1, ISA_REG_GI1, ISA_REG_ZERO), pb_loop(3, "fwd"));
    PB(h->p, pb_li(3, 12));
    pb_label(h->p, "mem");
    PB(h->p, pb_rr(ISA_OP_STW, ISA_REG_GI0, 11, ISA_REG_ZERO), pb_ri(ISA_OP_ADD, 5, 5, 1));
    PB(h->p, pb_rr(ISA_OP_LDW, 6, 11, ISA_REG_ZERO), pb_rr(ISA_OP_ADD, ISA_REG_GO1, 5, ISA_REG_GI1));
    PB(h->p, pb_ri(ISA_OP_AND, 7, ISA_REG_GI0, 1), pb_rr(ISA_OP_ADD, ISA_REG_ZERO, ISA_REG_GI1, 6));
    PB(h->p, pb_br(ISA_OP_BNE, 7, ISA_REG_ZERO, "odd"));
    PB(h->p, pb_rr(ISA_OP_ADD, ISA_REG_GO0, 6, 7));
    pb_label(h->p, "odd");
    PB(h->p, pb_loop(3, "mem"));
    PB(h->p, pb_ri(ISA_OP_WRCR, ISA_REG_GI0, ISA_REG_ZERO, 0x7fff0));
    PB(h->p, pb_halt());
    compare(h, 5, EMU_FAULT_BAD_CONTROL_REGISTER, false);
}

/* A load from the null page, in a bundle that has read its gate: the word is gone, nothing else happened. */
static void test_a_fault_after_the_gates_matches_issue(void **state)
{
    harness_t *h = *state;
    PB(h->p, pb_li(3, 12), pb_li(14, 0x9000));
    pb_label(h->p, "top");
    PB(h->p, pb_rr(ISA_OP_LDW, 15, 14, ISA_REG_ZERO), pb_rr(ISA_OP_ADD, ISA_REG_GO0, ISA_REG_GI0, 3));
    PB(h->p, pb_ri(ISA_OP_SUB, 14, 14, 0x1000), pb_loop(3, "top"));
    PB(h->p, pb_halt());
    compare(h, 1, EMU_FAULT_BAD_ADDRESS, false);
}

/* gi1 bound to no channel: the bundle that reads it faults, after the ones before it waited on gi0. */
static void test_an_unbound_gate_matches_issue(void **state)
{
    harness_t *h = *state;
    PB(h->p, pb_li(3, 6));
    pb_label(h->p, "top");
    PB(h->p, pb_rr(ISA_OP_ADD, 5, 5, ISA_REG_GI0), pb_loop(3, "top"));
    PB(h->p, pb_rr(ISA_OP_OR, ISA_REG_GO0, ISA_REG_GI1, ISA_REG_ZERO));
    PB(h->p, pb_halt());
    compare(h, 2, EMU_FAULT_UNBOUND_GATE, true);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        HTEST(test_gate_bundles_match_issue),
        HTEST(test_a_fault_after_the_gates_matches_issue),
        HTEST(test_an_unbound_gate_matches_issue),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
