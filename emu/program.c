/* Predecoding: walk the text once, bundle by bundle, and record what the core needs per bundle. */
#include "program.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void describe_gates(emu_bundle_t *b, const isa_op_t *ops)
{
    for (unsigned i = 0; i < b->count; i++) {
        uint8_t regs[4];
        unsigned n = isa_op_reads(&ops[i], regs);
        for (unsigned k = 0; k < n; k++)
            if (isa_reg_is_gate_in(regs[k]))
                b->gates_in |= (uint8_t)(1u << (regs[k] - ISA_REG_GI0));
        n = isa_op_writes(&ops[i], regs);
        for (unsigned k = 0; k < n; k++)
            if (isa_reg_is_gate_out(regs[k]))
                b->gates_out |= (uint8_t)(1u << (regs[k] - ISA_REG_GO0));
        if (ops[i].opcode == ISA_OP_WFE)
            b->flags |= EMU_BUNDLE_WFE;
        if (isa_op_mem_accesses(&ops[i]) > 0)
            b->flags |= EMU_BUNDLE_MEM;
        b->mem_accesses = (uint8_t)(b->mem_accesses + isa_op_mem_accesses(&ops[i]));
        const isa_op_info_t *info = isa_op_info(ops[i].opcode);
        if (info != NULL && info->format == ISA_FMT_ST)
            b->mem_writes = (uint8_t)(b->mem_writes + isa_op_mem_accesses(&ops[i]));
        else
            b->mem_reads = (uint8_t)(b->mem_reads + isa_op_mem_accesses(&ops[i]));
    }
    if (b->gates_in | b->gates_out)
        b->flags |= EMU_BUNDLE_GATES;
    else if (b->count == 1)
        b->flags |= EMU_BUNDLE_SIMPLE;
    bool cr = false, cr_write = false, sys = false;
    for (unsigned i = 0; i < b->count; i++) {
        const isa_op_info_t *info = isa_op_info(ops[i].opcode);
        cr |= info != NULL && info->unit == ISA_UNIT_CR;
        cr_write |= ops[i].opcode == ISA_OP_WRCR;
        /* halt, trap and wfe; rfe turns events back on */
        sys |= info == NULL || info->unit == ISA_UNIT_SYS || ops[i].opcode == ISA_OP_RFE;
    }
    if (!cr_write && !sys)
        b->flags |= EMU_BUNDLE_PLAIN;
    if ((b->flags & EMU_BUNDLE_SIMPLE) && ops[0].opcode == ISA_OP_WRCR)
        b->flags |= EMU_BUNDLE_CR_WRITE_ALONE;
    if (cr || b->gates_in || b->gates_out || (b->flags & EMU_BUNDLE_WFE))
        b->flags |= EMU_BUNDLE_PORT;
    else if (!sys)
        b->flags |= EMU_BUNDLE_ALONE;
}

static bool has_target(const isa_op_info_t *info)
{
    return info->format == ISA_FMT_BR || info->format == ISA_FMT_LOOP || info->format == ISA_FMT_J;
}

/* Whether the core's handler for op can fault in bundle b: its row's FAULTS column (isa/isa.def), where a jump to a
 * target written in the operation cannot once predecoding has checked the bundle's targets. */
static bool may_fault(const emu_bundle_t *b, const isa_op_t *op)
{
    const isa_op_info_t *info = isa_op_info(op->opcode);
    if (info == NULL)
        return true;
    switch (info->faults) {
    case ISA_FAULTS_NEVER: return false;
    case ISA_FAULTS_TARGET: return !(b->flags & EMU_BUNDLE_TARGETS_OK);
    case ISA_FAULTS_MAY: break;
    }
    return true;
}

static void add_regs(uint64_t set[2], const uint8_t *regs, unsigned n)
{
    for (unsigned k = 0; k < n; k++)
        set[regs[k] >> 6 & 1u] |= 1ull << (regs[k] & 63u);
}

/* A bundle's operations read every operand before any writes back (docs/isa.md); the core stages the writes to
 * get that. It need not when no operation reads a register an earlier one of the bundle writes, and none that
 * comes after the first write can fault (a fault leaves the registers as they were before the bundle), nor any
 * at the commit (wrcr). Each handler reads its operands before it writes, and faults before it writes, except
 * loop, whose target is checked after: a bundle qualifies only with its targets checked here. The reads are those
 * of the table, and rs1, rs2 (with their pairs) whatever the format, since the core loads them for every
 * operation (an immediate's rs2 field is 0: the run-ahead reads r0 for it, emu_ahead_op_t). Stores go in place too: a
 * store is a write for the rule on faults, and every operation that reads memory (a load) may fault, so none comes
 * after a store. */
static bool writes_direct(const emu_bundle_t *b, const isa_op_t *ops)
{
    if (!(b->flags & EMU_BUNDLE_TARGETS_OK))
        return false;
    uint64_t written[2] = {0, 0};
    bool stored = false;
    for (unsigned i = 0; i < b->count; i++) {
        const isa_op_info_t *info = isa_op_info(ops[i].opcode);
        if (info == NULL || ops[i].opcode == ISA_OP_WRCR)
            return false; /* a control register write faults at the commit, after every operation */
        uint8_t regs[4];
        uint64_t read[2] = {0, 0};
        add_regs(read, regs, isa_op_reads(&ops[i], regs));
        bool pairs = (info->flags & ISA_F_RS_PAIR) != 0;
        uint8_t operands[4] = {ops[i].rs1, ops[i].rs2, (uint8_t)(ops[i].rs1 + pairs), (uint8_t)(ops[i].rs2 + pairs)};
        add_regs(read, operands, 4);
        if ((read[0] & written[0]) | (read[1] & written[1]))
            return false;
        if ((written[0] | written[1] | stored) && may_fault(b, &ops[i]))
            return false;
        add_regs(written, regs, isa_op_writes(&ops[i], regs));
        stored |= info->format == ISA_FMT_ST;
    }
    return true;
}

/* Bypass stalls (docs/isa.md, "Bypass stalls"): a result is written to the register file when its operation's
 * clocks end; the bypass hands it to the next instruction's computing units and branches at once, but not to the
 * memory unit, which reads its address and store operands from the register file bypass_mem_operand clocks later;
 * and a loaded word reaches no unit until bypass_load clocks after its access. Both at most ISA_BYPASS_MAX (one
 * clock), so only the instruction just before can make one wait: its clocks cover every earlier one's results. */
unsigned emu_program_stall(const emu_program_t *p, const emu_bundle_t *from, const emu_bundle_t *to)
{
    if ((from->flags | to->flags) & EMU_BUNDLE_ILLEGAL)
        return 0;
    /* The registers from writes, and the clock (counted from from's issue) at which each kind of reader may have
     * each: a short list, since jumps through a register ask as they run. */
    struct late {
        uint8_t reg;
        uint16_t any, memory;
    } late[ISA_BUNDLE_MAX_OPS * 3];
    unsigned nlate = 0;
    const isa_timing_t *t = &p->timing;
    for (unsigned i = 0; i < from->count; i++) {
        const isa_op_t *op = &p->ops[from->first_op + i];
        const isa_op_info_t *info = isa_op_info(op->opcode);
        uint8_t regs[3];
        unsigned n = isa_op_writes(op, regs);
        bool load = info->unit == ISA_UNIT_MEM && info->format == ISA_FMT_LD; /* not rdcr: a port, not memory */
        unsigned done = t->clocks[info->timing];
        unsigned any = done + (load ? t->bypass_load : 0);
        unsigned to_memory = load && t->bypass_load > t->bypass_mem_operand ? t->bypass_load : t->bypass_mem_operand;
        for (unsigned k = 0; k < n; k++)
            if (regs[k] != ISA_REG_ZERO && !isa_reg_is_gate(regs[k]) && done + to_memory > from->clocks)
                late[nlate++] = (struct late){regs[k], (uint16_t)any, (uint16_t)(done + to_memory)};
    }
    unsigned ready = 0;
    for (unsigned i = 0; nlate != 0 && i < to->count; i++) {
        const isa_op_t *op = &p->ops[to->first_op + i];
        bool memory = isa_op_info(op->opcode)->unit == ISA_UNIT_MEM;
        uint8_t regs[4];
        unsigned n = isa_op_reads(op, regs);
        for (unsigned k = 0; k < n; k++)
            for (unsigned j = 0; j < nlate; j++)
                if (late[j].reg == regs[k]) {
                    unsigned when = memory ? late[j].memory : late[j].any;
                    ready = when > ready ? when : ready;
                }
    }
    return ready > from->clocks ? ready - from->clocks : 0;
}

unsigned emu_program_stall_to(const emu_program_t *p, const emu_bundle_t *from, uint32_t pc)
{
    const emu_bundle_t *to = emu_program_bundle(p, pc);
    return to != NULL ? emu_program_stall(p, from, to) : 0;
}

uint64_t emu_program_loop_clocks(const emu_program_t *p, uint32_t from, uint32_t to)
{
    uint64_t sum = 0;
    for (uint32_t pc = from; pc < to;) {
        const emu_bundle_t *b = emu_program_bundle(p, pc);
        if (b == NULL)
            return 0;
        sum += b->next_pc < to ? b->clocks_fall : b->clocks_taken;
        pc = b->next_pc;
    }
    return sum;
}

/* Each bundle's clocks to the bundle after it and to its target, and the longest a bundle keeps the core. */
static void find_stalls(emu_program_t *p)
{
    bool bypass = p->timing.bypass_load != 0 || p->timing.bypass_mem_operand != 0; /* else no jump can stall */
    for (uint32_t k = 0; k < p->nbundles; k++) {
        emu_bundle_t *b = &p->bundles[k];
        const isa_op_t *ops = &p->ops[b->first_op];
        unsigned fall = emu_program_stall_to(p, b, b->next_pc), taken = 0;
        for (unsigned i = 0; i < b->count; i++) {
            const isa_op_info_t *info = isa_op_info(ops[i].opcode);
            if (has_target(info))
                taken = emu_program_stall_to(p, b, ops[i].ext);
            else if ((info->format == ISA_FMT_JR || ops[i].opcode == ISA_OP_RFE) && bypass)
                b->flags |= EMU_BUNDLE_DYN_TARGET;
        }
        b->clocks_fall = (uint16_t)(b->clocks + fall);
        b->clocks_taken = (uint16_t)(b->clocks + taken);
        unsigned most = fall > taken ? fall : taken;
        if (b->flags & EMU_BUNDLE_DYN_TARGET)
            most = ISA_BYPASS_MAX;
        if (b->clocks + most > p->max_clocks)
            p->max_clocks = (uint16_t)(b->clocks + most);
    }
}

/* Whether ca_step may run bundle b with its own few lines (step_lone in ca.c) rather than the run-ahead's code:
 * one operation of those it knows, which touches neither the memory nor the gates and leaves r0 alone, and faults
 * only as an rdcr of a register that is not there. Asked once the bundle's RUN_AHEAD, PORT_AHEAD and TARGETS_OK are
 * known. */
static bool lone_core(const emu_bundle_t *b, const isa_op_t *ops)
{
    if (b->count != 1 || b->mem_accesses != 0 || !(b->flags & (EMU_BUNDLE_RUN_AHEAD | EMU_BUNDLE_PORT_AHEAD)) ||
        (b->flags & EMU_BUNDLE_GATES) || !(b->flags & EMU_BUNDLE_TARGETS_OK) || (b->flags & EMU_BUNDLE_DYN_TARGET))
        return false;
    switch (ops[0].opcode) {
    case ISA_OP_RDCR:
    case ISA_OP_ADD:
    case ISA_OP_SUB:
    case ISA_OP_AND:
    case ISA_OP_OR:
    case ISA_OP_XOR: return ops[0].rd != ISA_REG_ZERO;
    case ISA_OP_BEQ:
    case ISA_OP_BNE: return ops[0].has_ext;
    default: return false;
    }
}

/* Once every bundle is known: branch targets, and which bundles need no staging. */
static void check_bundles(emu_program_t *p)
{
    for (uint32_t k = 0; k < p->nbundles; k++) {
        emu_bundle_t *b = &p->bundles[k];
        if (b->flags & EMU_BUNDLE_ILLEGAL)
            continue;
        const isa_op_t *ops = &p->ops[b->first_op];
        bool ok = true;
        for (unsigned i = 0; i < b->count; i++) {
            const isa_op_info_t *info = isa_op_info(ops[i].opcode);
            if (info != NULL && has_target(info) && emu_program_bundle(p, ops[i].ext) == NULL)
                ok = false;
        }
        if (ok)
            b->flags |= EMU_BUNDLE_TARGETS_OK;
        if (writes_direct(b, ops))
            b->flags |= EMU_BUNDLE_DIRECT;
        if ((b->flags & EMU_BUNDLE_ALONE) && (b->flags & EMU_BUNDLE_DIRECT))
            b->flags |= EMU_BUNDLE_RUN_AHEAD;
        /* A plain bundle's only uses of the port are its gates and a control register read (wfe is a system
         * operation). */
        if ((b->flags & EMU_BUNDLE_PLAIN) && (b->flags & EMU_BUNDLE_PORT) && (b->flags & EMU_BUNDLE_DIRECT))
            b->flags |= EMU_BUNDLE_PORT_AHEAD;
        if (lone_core(b, ops))
            b->flags |= EMU_BUNDLE_LONE_CORE;
        if ((b->flags & (EMU_BUNDLE_RUN_AHEAD | EMU_BUNDLE_PORT_AHEAD)) && !(b->flags & EMU_BUNDLE_LONE_CORE))
            b->flags |= EMU_BUNDLE_RUN_ONE;
    }
}

/* The run-ahead's form (emu_ahead_op_t), built once the bundles' flags and clocks are known, so that the core's
 * fast loop decides per bundle, as it runs, only what the text cannot tell beforehand.
 * Bundle k's ending, at index `at` of ahead_ops: the plain ones leave out the tests END_ANY makes. */
static emu_ahead_op_t ending(const emu_program_t *p, uint32_t k, uint32_t at)
{
    const emu_bundle_t *b = &p->bundles[k];
    /* The sentinel after the last bundle has no flags: the run-ahead stops there. */
    bool next_runs = (p->bundles[k + 1].flags & EMU_BUNDLE_RUN_AHEAD) != 0;
    emu_ahead_op_t end = {.opcode = EMU_AHEAD_END_ANY,
                          .clocks = b->clocks_fall,
                          .mem_accesses = b->mem_accesses,
                          .next_runs = next_runs,
                          .clocks_taken = b->clocks_taken,
                          .bundle = k};
    bool jumps = false, writes_zero = false;
    const emu_bundle_t *target = NULL;
    for (unsigned i = 0; i < b->count; i++) {
        const isa_op_t *op = &p->ops[b->first_op + i];
        const isa_op_info_t *info = isa_op_info(op->opcode);
        jumps |= info == NULL || info->unit == ISA_UNIT_CTRL;
        if (info != NULL && has_target(info))
            target = emu_program_bundle(p, op->ext);
        uint8_t regs[3];
        unsigned n = isa_op_writes(op, regs);
        for (unsigned w = 0; w < n; w++)
            writes_zero |= regs[w] == ISA_REG_ZERO;
    }
    if (writes_zero)
        return end;
    if (jumps) {
        if (target != NULL && (target->flags & EMU_BUNDLE_RUN_AHEAD) && !(b->flags & EMU_BUNDLE_DYN_TARGET)) {
            end.opcode = EMU_AHEAD_END_JUMP;
            end.jump = (int32_t)(target->first_ahead - at);
        }
        return end;
    }
    if (next_runs)
        end.opcode = b->mem_accesses != 0 ? EMU_AHEAD_END_MEM : EMU_AHEAD_END;
    return end;
}

/* ahead_ops and sums: 0, or -1 when out of memory. */
static int build_ahead(emu_program_t *p)
{
    p->ahead_ops = malloc(sizeof *p->ahead_ops * (p->nops + p->nbundles + 1)); /* + 1: never malloc(0) */
    p->sums = malloc(sizeof *p->sums * (p->nbundles + 1));
    if (p->ahead_ops == NULL || p->sums == NULL)
        return -1;
    for (uint32_t k = 0, n = 0; k < p->nbundles; k++) {
        p->bundles[k].first_ahead = n;
        n += p->bundles[k].count + 1u;
    }
    uint32_t n = 0;
    p->sums[0] = (emu_bundle_sums_t){0, 0, 0, 0};
    for (uint32_t k = 0; k < p->nbundles; k++) {
        const emu_bundle_t *b = &p->bundles[k];
        for (unsigned i = 0; i < b->count; i++) {
            const isa_op_t *op = &p->ops[b->first_op + i];
            p->ahead_ops[n++] = (emu_ahead_op_t){.opcode = op->opcode,
                                                 .rd = op->rd,
                                                 .rs1 = op->rs1,
                                                 .rs2 = op->rs2,
                                                 .v2_reg = op->has_ext ? ISA_REG_ZERO : op->rs2,
                                                 .ext = op->has_ext ? op->ext : 0,
                                                 .bundle = k};
        }
        p->ahead_ops[n] = ending(p, k, n);
        n++;
        const emu_bundle_sums_t *sum = &p->sums[k];
        p->sums[k + 1] = (emu_bundle_sums_t){sum->ops + b->count, sum->busy_clocks + b->clocks,
                                             sum->mem_reads + b->mem_reads, sum->mem_writes + b->mem_writes};
    }
    return 0;
}

void emu_program_stop_ahead(emu_program_t *p, uint32_t pc)
{
    const emu_bundle_t *at = emu_program_bundle(p, pc);
    if (at == NULL || !(at->flags & EMU_BUNDLE_ALONE))
        return;
    emu_bundle_t *b = &p->bundles[at - p->bundles];
    /* Stepped, it still takes the run-ahead's code for one bundle, as it did (ca_step, PORT_AHEAD). */
    if (b->flags & EMU_BUNDLE_RUN_AHEAD)
        b->flags |= EMU_BUNDLE_PORT_AHEAD;
    b->flags &= (uint16_t) ~(EMU_BUNDLE_ALONE | EMU_BUNDLE_RUN_AHEAD);
    /* The bundles that go on to it learnt that it runs ahead when their endings were made. */
    for (uint32_t k = 0; k < p->nbundles; k++) {
        uint32_t end = p->bundles[k].first_ahead + p->bundles[k].count;
        p->ahead_ops[end] = ending(p, k, end);
    }
}

int emu_program_init(emu_program_t *p, isa_image_t *image, const isa_timing_t *timing, char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    p->image = *image;
    p->timing = *timing;
    memset(image, 0, sizeof *image);
    uint32_t n = p->image.text_words;
    p->text_base = p->image.text_base;
    p->text_end = p->text_base + 4u * n;
    if ((p->text_base & 3u) != 0 || p->text_end < p->text_base) {
        snprintf(err, errlen, "text base 0x%x is misaligned or the text wraps the address space", p->text_base);
        emu_program_free(p);
        return -1;
    }
    p->bundle_at = malloc(sizeof *p->bundle_at * (n ? n : 1));
    p->bundle_of = calloc(n ? n : 1, sizeof *p->bundle_of);
    p->bundles = calloc(n + 1, sizeof *p->bundles); /* at most one bundle per word, and the sentinel */
    p->ops = calloc(n ? n : 1, sizeof *p->ops);     /* at most one op per word */
    if (!p->bundle_at || !p->bundle_of || !p->bundles || !p->ops) {
        snprintf(err, errlen, "out of memory predecoding %u words", n);
        emu_program_free(p);
        return -1;
    }
    for (uint32_t i = 0; i < n; i++)
        p->bundle_at[i] = -1;

    uint32_t at = 0;
    while (at < n) {
        isa_bundle_t ib;
        size_t used = 0;
        emu_bundle_t *b = &p->bundles[p->nbundles];
        b->pc = p->text_base + 4u * at;
        b->first_op = p->nops;
        isa_error_t e = isa_decode_bundle(p->image.text + at, n - at, &ib, &used);
        if (e != ISA_OK) {
            /* Data or garbage in the text: it faults only if the program runs into it. */
            b->flags = EMU_BUNDLE_ILLEGAL;
            b->error = (uint8_t)e;
            b->count = 0;
            b->clocks = 1;
            used = 1;
        } else {
            b->count = ib.count;
            b->clocks = (uint16_t)isa_bundle_clocks(&ib, timing);
            memcpy(&p->ops[p->nops], ib.ops, sizeof ib.ops[0] * ib.count);
            p->nops += ib.count;
            describe_gates(b, &p->ops[b->first_op]);
        }
        b->next_pc = b->pc + 4u * (uint32_t)used;
        p->bundle_of[at] = b;
        p->bundle_at[at] = (int32_t)p->nbundles++;
        at += (uint32_t)used;
    }
    check_bundles(p);
    find_stalls(p);
    if (build_ahead(p) != 0) {
        snprintf(err, errlen, "out of memory predecoding %u words", n);
        emu_program_free(p);
        return -1;
    }
    return 0;
}

void emu_program_free(emu_program_t *p)
{
    isa_image_free(&p->image);
    free(p->bundle_at);
    free(p->bundle_of);
    free(p->bundles);
    free(p->ops);
    free(p->ahead_ops);
    free(p->sums);
    memset(p, 0, sizeof *p);
}
