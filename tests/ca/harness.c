/* Shared scaffolding of the core's unit tests (see harness.h). */
#include "harness.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void collect_output(void *user, unsigned x, unsigned y, const char *text)
{
    harness_t *h = user;
    h->out_x = x;
    h->out_y = y;
    int n = snprintf(h->console + h->console_len, sizeof h->console - h->console_len, "%s\n", text);
    if (n > 0)
        h->console_len +=
            (size_t)n < sizeof h->console - h->console_len ? (size_t)n : sizeof h->console - h->console_len - 1;
}

int harness_setup(void **state)
{
    harness_t *h = calloc(1, sizeof *h);
    if (h == NULL)
        return -1;
    emu_machine_defaults(&h->machine);
    h->machine.width = 1;
    h->machine.height = 1;
    h->p = pb_new();
    h->limit = 100000000;
    *state = h;
    return 0;
}

int harness_teardown(void **state)
{
    harness_t *h = *state;
    if (h != NULL) {
        emu_array_free(h->array);
        pb_free(h->p);
        free(h);
    }
    return 0;
}

void h_set(harness_t *h, const char *key, const char *value)
{
    char err[200];
    if (emu_machine_set(&h->machine, key, value, err, sizeof err) != 0)
        fail_msg("machine %s = %s: %s", key, value, err);
}

void h_run(harness_t *h)
{
    char err[256];
    isa_image_t img;
    if (pb_finish(h->p, &img, err, sizeof err) != 0)
        fail_msg("building the program: %s", err);
    emu_array_free(h->array);
    h->array = NULL;
    h->ca = NULL;
    h->console_len = 0;
    h->console[0] = '\0';
    if (emu_array_create(&h->array, &h->machine, err, sizeof err) != 0) {
        isa_image_free(&img);
        fail_msg("emu_array_create: %s", err);
    }
    emu_array_set_output(h->array, collect_output, h);
    const emu_program_t *prog = emu_array_add_program(h->array, &img, err, sizeof err);
    if (prog == NULL)
        fail_msg("emu_array_add_program: %s", err);
    if (emu_array_load(h->array, h->x, h->y, prog, h->args, h->nargs, err, sizeof err) != 0)
        fail_msg("emu_array_load: %s", err);
    h->status = emu_array_run(h->array, h->limit);
    h->ca = emu_array_ca(h->array, h->x, h->y);
}

void h_predecode(harness_t *h, emu_program_t *prog)
{
    char err[256];
    isa_image_t img;
    if (pb_finish(h->p, &img, err, sizeof err) != 0)
        fail_msg("building the program: %s", err);
    if (emu_program_init(prog, &img, &h->machine.timing, err, sizeof err) != 0)
        fail_msg("predecoding: %s", err);
}

void h_next(harness_t *h)
{
    emu_array_free(h->array);
    h->array = NULL;
    h->ca = NULL;
    pb_free(h->p);
    h->p = pb_new();
}

void h_fault_text(const harness_t *h, char *buf, size_t cap)
{
    emu_format_fault(h->array, h->x, h->y, buf, cap);
}

void h_expect_halted(const harness_t *h)
{
    assert_non_null(h->ca);
    if (h->status != EMU_RUN_DONE || h->ca->s.state != CA_HALTED) {
        char text[256] = "";
        if (h->ca->s.state == CA_FAULTED)
            h_fault_text(h, text, sizeof text);
        fail_msg("run ended %s with the cell %s: %s", emu_run_status_name(h->status), ca_state_name(h->ca->s.state),
                 text);
    }
}

void h_run_to_halt(harness_t *h)
{
    PB(h->p, pb_halt());
    h_run(h);
    h_expect_halted(h);
}

void h_emit_two_ways(harness_t *h, const char *label)
{
    PB(h->p, pb_li(5, 1));
    PB(h->p, pb_halt());
    pb_label(h->p, label);
    PB(h->p, pb_li(5, 2));
    PB(h->p, pb_halt());
}

bool h_took_label(const harness_t *h)
{
    h_expect_halted(h);
    uint32_t way = h_reg(h, 5);
    if (way != 1 && way != 2)
        fail_msg("r5 = %u: neither way reached the halt", way);
    return way == 2;
}

void h_place(harness_t *h, unsigned width, unsigned height, unsigned x, unsigned y)
{
    h->machine.width = width;
    h->machine.height = height;
    h->machine.mem_bytes = 64 * 1024;
    h->x = x;
    h->y = y;
}

const emu_fault_t *h_expect_fault(const harness_t *h, emu_fault_kind_t kind, uint32_t pc, uint64_t cycle)
{
    assert_non_null(h->ca);
    const emu_fault_t *f = &h->ca->s.fault;
    char text[256] = "";
    if (h->ca->s.state == CA_FAULTED)
        h_fault_text(h, text, sizeof text);
    if (h->status != EMU_RUN_FAULT || h->ca->s.state != CA_FAULTED)
        fail_msg("expected a %s fault; the run ended %s with the cell %s %s", emu_fault_kind_name(kind),
                 emu_run_status_name(h->status), ca_state_name(h->ca->s.state), text);
    if (f->kind != kind || f->pc != pc || f->cycle != cycle)
        fail_msg("expected %s at pc 0x%" PRIx32 " cycle %" PRIu64 ", got: %s", emu_fault_kind_name(kind), pc, cycle,
                 text);
    unsigned fx = 99, fy = 99;
    assert_true(emu_array_first_fault(h->array, &fx, &fy));
    assert_int_equal(fx, h->x);
    assert_int_equal(fy, h->y);
    return f;
}

uint32_t h_reg(const harness_t *h, unsigned r)
{
    return ca_reg(h->ca, r);
}

void h_expect_regs(const harness_t *h, const h_reg_value_t *want, size_t n)
{
    char report[1024];
    size_t len = 0;
    unsigned bad = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t got = h_reg(h, want[i].reg);
        if (got == want[i].value)
            continue;
        bad++;
        int k = snprintf(report + len, sizeof report - len, "\n  r%u = 0x%" PRIx32 ", want 0x%" PRIx32, want[i].reg,
                         got, want[i].value);
        if (k > 0 && (size_t)k < sizeof report - len)
            len += (size_t)k;
    }
    if (bad)
        fail_msg("%u of %zu registers wrong:%s", bad, n, report);
}

uint64_t h_pair(const harness_t *h, unsigned r)
{
    return (uint64_t)ca_reg(h->ca, r + 1) << 32 | ca_reg(h->ca, r);
}

uint32_t h_mem32(const harness_t *h, uint32_t addr)
{
    uint8_t b[4];
    if (ca_mem_read(h->ca, addr, b, 4) != 0)
        fail_msg("memory 0x%" PRIx32 " out of range", addr);
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

uint64_t h_cycles(const harness_t *h)
{
    return emu_array_cycles(h->array);
}

const ca_stats_t *h_stats(const harness_t *h)
{
    return &h->ca->s.stats;
}

unsigned h_class_clocks(const harness_t *h, isa_timing_class_t t)
{
    return h->machine.timing.clocks[t];
}

unsigned h_op_clocks(const harness_t *h, unsigned opcode)
{
    const isa_op_info_t *info = isa_op_info(opcode);
    assert_non_null(info);
    return h_class_clocks(h, info->timing);
}

void h_li_pair(harness_t *h, unsigned r, uint64_t value)
{
    PB(h->p, pb_li(r, (uint32_t)value), pb_li(r + 1, (uint32_t)(value >> 32)));
}

uint64_t h_exec(harness_t *h, unsigned opcode, uint64_t a, uint64_t b)
{
    const isa_op_info_t *info = isa_op_info(opcode);
    assert_non_null(info);
    bool rr = info->format == ISA_FMT_RR;
    bool imm = !rr && !(info->flags & ISA_F_NO_IMM);
    h_next(h);
    h_li_pair(h, H_RA, a);
    h_li_pair(h, H_RB, b);
    PB(h->p, rr ? pb_r(opcode, H_RD, H_RA) : pb_rr(opcode, H_RD, H_RA, H_RB));
    if (imm)
        PB(h->p, pb_ri(opcode, H_RD_IMM, H_RA, (uint32_t)b));
    PB(h->p, pb_halt());
    h_run(h);
    if (h->status != EMU_RUN_DONE) {
        char text[256] = "";
        h_fault_text(h, text, sizeof text);
        fail_msg("%s 0x%" PRIx64 ", 0x%" PRIx64 " did not halt: %s", info->mnemonic, a, b, text);
    }
    uint64_t got = h_pair(h, H_RD);
    if (imm && h_pair(h, H_RD_IMM) != got)
        fail_msg("%s 0x%" PRIx64 ", 0x%" PRIx64 ": register form 0x%" PRIx64 ", immediate form 0x%" PRIx64,
                 info->mnemonic, a, b, got, h_pair(h, H_RD_IMM));
    return got;
}

void h_check_cases(harness_t *h, unsigned opcode, const h_case_t *cases, size_t n)
{
    char report[2048];
    size_t len = 0;
    unsigned bad = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t got = h_exec(h, opcode, cases[i].a, cases[i].b);
        if (got == cases[i].want)
            continue;
        bad++;
        int k = snprintf(report + len, sizeof report - len,
                         "\n  %s 0x%" PRIx64 ", 0x%" PRIx64 ": got 0x%" PRIx64 ", want 0x%" PRIx64,
                         isa_op_info(opcode)->mnemonic, cases[i].a, cases[i].b, got, cases[i].want);
        if (k > 0 && (size_t)k < sizeof report - len)
            len += (size_t)k;
    }
    if (bad)
        fail_msg("%u of %zu cases wrong:%s", bad, n, len ? report : "");
}
