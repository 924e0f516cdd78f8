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
    }
    if (b->count == 1 && b->gates_in == 0 && b->gates_out == 0)
        b->flags |= EMU_BUNDLE_SIMPLE;
    bool cr = false, sys = false;
    for (unsigned i = 0; i < b->count; i++) {
        const isa_op_info_t *info = isa_op_info(ops[i].opcode);
        cr |= info != NULL && info->unit == ISA_UNIT_CR;
        /* halt, trap and wfe; rfe turns events back on */
        sys |= info == NULL || info->unit == ISA_UNIT_SYS || ops[i].opcode == ISA_OP_RFE;
    }
    if (cr || b->gates_in || b->gates_out || (b->flags & EMU_BUNDLE_WFE))
        b->flags |= EMU_BUNDLE_PORT;
    else if (!sys)
        b->flags |= EMU_BUNDLE_ALONE;
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
    p->bundles = calloc(n ? n : 1, sizeof *p->bundles);      /* at most one bundle per word */
    p->ops = calloc(n ? n : 1, sizeof *p->ops);              /* at most one op per word */
    if (!p->bundle_at || !p->bundles || !p->ops) {
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
        if (b->clocks > p->max_clocks)
            p->max_clocks = b->clocks;
        b->next_pc = b->pc + 4u * (uint32_t)used;
        p->bundle_at[at] = (int32_t)p->nbundles++;
        at += (uint32_t)used;
    }
    return 0;
}

void emu_program_free(emu_program_t *p)
{
    isa_image_free(&p->image);
    free(p->bundle_at);
    free(p->bundles);
    free(p->ops);
    memset(p, 0, sizeof *p);
}
