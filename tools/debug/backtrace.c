/*
 * Frames of a cell's call chain, unwound from the calling convention (docs/runtime.md): there is no frame
 * pointer and no unwind table, so, as gdb does for code without debug frames, each function's prologue is read
 * for what it did before the pc: `sub sp, sp, N` makes the frame, `stw ra, [sp + K]` keeps the return address
 * in it, `mov rX, ra` keeps it in a register. Every return address found is checked against the code (the
 * bundle before it must be a call), so a guess never prints as a frame.
 */
#include <stdlib.h>
#include <string.h>

#include "dbg.h"

enum { PROLOGUE_BUNDLES = 32 };

static bool is_call(const isa_op_t *op)
{
    const isa_op_info_t *info = isa_op_info(op->opcode);
    return info != NULL && (info->flags & ISA_F_LINK);
}

/* Whether the bundle at pc is a return (`ret`, that is `jr ra`). */
static bool returns_at(const emu_program_t *p, uint32_t pc)
{
    const emu_bundle_t *b = emu_program_bundle(p, pc);
    for (unsigned i = 0; b != NULL && i < b->count; i++) {
        const isa_op_t *op = &p->ops[b->first_op + i];
        if (op->opcode == ISA_OP_JR && op->rs1 == ISA_REG_LINK)
            return true;
    }
    return false;
}

uint32_t dbg_function_start(const ca_t *ca, uint32_t pc)
{
    const emu_program_t *p = ca->prog;
    uint32_t best = p->image.entry <= pc ? p->image.entry : 0;
    /* An event handler is entered without a call: its vector starts a function too. */
    if (ca->s.in_handler && ca->s.event_vector <= pc && ca->s.event_vector > best)
        best = ca->s.event_vector;
    for (size_t b = 0; b < p->nbundles; b++)
        for (unsigned i = 0; i < p->bundles[b].count; i++) {
            const isa_op_t *op = &p->ops[p->bundles[b].first_op + i];
            if (is_call(op) && op->has_ext && op->ext <= pc && op->ext > best)
                best = op->ext;
        }
    return best;
}

/* What a function's prologue did before `pc`: the frame it took and where it put the registers it saved. */
typedef struct prologue {
    uint32_t frame;                     /* bytes taken off sp */
    bool saved[ISA_NUM_REGS];           /* register r stored at entry sp + slot[r] */
    int32_t slot[ISA_NUM_REGS];
    int ra_reg;                         /* register the return address was copied to, or -1 */
    bool sp_lost;                       /* sp changed in a way the unwinder cannot follow */
} prologue_t;

static void note_store(prologue_t *pr, unsigned r, int32_t offset)
{
    if (r != ISA_REG_ZERO && r < ISA_REG_GI0 && !pr->saved[r]) {
        pr->saved[r] = true;
        pr->slot[r] = offset;
    }
}

static bool writes_sp(const isa_op_t *op)
{
    uint8_t regs[3];
    unsigned n = isa_op_writes(op, regs);
    for (unsigned i = 0; i < n; i++)
        if (regs[i] == ISA_REG_SP)
            return true;
    return false;
}

static void read_op(const isa_op_t *op, prologue_t *pr)
{
    bool sp_imm = op->rd == ISA_REG_SP && op->rs1 == ISA_REG_SP && op->has_ext;
    /* [sp + imm], or [sp] written with r0 as the index */
    bool to_stack = op->rs1 == ISA_REG_SP && (op->has_ext || op->rs2 == ISA_REG_ZERO);
    int32_t at = (int32_t)(op->has_ext ? op->ext : 0u) - (int32_t)pr->frame;
    if (op->opcode == ISA_OP_SUB && sp_imm)
        pr->frame += op->ext;
    else if (op->opcode == ISA_OP_ADD && sp_imm)
        pr->frame -= op->ext; /* an add of a negative immediate takes the frame too */
    else if (op->opcode == ISA_OP_STW && to_stack)
        note_store(pr, op->rd, at);
    else if (op->opcode == ISA_OP_STD && to_stack) {
        note_store(pr, op->rd, at);
        note_store(pr, op->rd + 1u, at + 4);
    } else if ((op->opcode == ISA_OP_OR || op->opcode == ISA_OP_ADD) && op->rs1 == ISA_REG_LINK &&
               ((op->has_ext && op->ext == 0) || (!op->has_ext && op->rs2 == ISA_REG_ZERO)) && op->rd != 0)
        pr->ra_reg = op->rd;
    else if (writes_sp(op))
        pr->sp_lost = true;
}

/* No frame, nothing saved, ra where the call put it. */
static void prologue_none(prologue_t *pr)
{
    memset(pr, 0, sizeof *pr);
    pr->ra_reg = -1;
}

/* The straight-line code from the function's start up to pc: the prologue ends at the first control transfer. */
static void read_prologue(const emu_program_t *p, uint32_t start, uint32_t pc, prologue_t *pr)
{
    prologue_none(pr);
    uint32_t addr = start;
    for (unsigned n = 0; n < PROLOGUE_BUNDLES && addr < pc; n++) {
        const emu_bundle_t *b = emu_program_bundle(p, addr);
        if (b == NULL)
            break;
        bool control = false;
        for (unsigned i = 0; i < b->count; i++) {
            const isa_op_t *op = &p->ops[b->first_op + i];
            const isa_op_info_t *info = isa_op_info(op->opcode);
            if (info != NULL && info->unit == ISA_UNIT_CTRL)
                control = true;
            else
                read_op(op, pr);
        }
        if (control)
            break;
        addr = b->next_pc;
    }
}

/* The call bundle a return address comes back to, or NULL when the bundle before it is not a call. */
static const emu_bundle_t *call_before(const emu_program_t *p, uint32_t ret_addr)
{
    if (ret_addr <= p->text_base || ret_addr > p->text_end || (ret_addr & 3u) != 0)
        return NULL;
    for (uint32_t a = ret_addr - 4; a >= p->text_base && ret_addr - a <= 4u * (2u * ISA_BUNDLE_MAX_OPS + 1u);
         a -= 4) {
        const emu_bundle_t *b = emu_program_bundle(p, a); /* NULL unless a bundle starts at a */
        if (b != NULL) {
            if (b->next_pc != ret_addr)
                return NULL;
            for (unsigned i = 0; i < b->count; i++)
                if (is_call(&p->ops[b->first_op + i]))
                    return b;
            return NULL;
        }
        if (a == p->text_base)
            break;
    }
    return NULL;
}

static void print_frame(dbg_t *d, unsigned cell, unsigned n, uint32_t pc, uint32_t func)
{
    const emu_program_t *p = dbg_ca(d, cell)->prog;
    const isa_symbol_t *f = isa_image_symbol_before(&p->image, func);
    char line[256];
    dbg_line_text(d, cell, pc, line, sizeof line);
    char name[128];
    if (f != NULL && f->value == func)
        snprintf(name, sizeof name, "%s", f->name);
    else
        snprintf(name, sizeof name, "0x%x", func);
    dbg_printf(d, "#%-2u 0x%04x in %s%s%s\n", n, pc, name, *line ? " at " : "", line);
}

/* The caller's registers as the callee entered: what the prologue saved comes back from the stack; sp is the
 * entry sp; ra was overwritten by the call (a handler, entered by an event, leaves it alone). */
static int unwind_regs(const ca_t *ca, const prologue_t *pr, uint32_t entry_sp, bool by_event, expr_frame_t *r)
{
    for (unsigned i = 0; i < ISA_NUM_REGS; i++)
        if (pr->saved[i]) {
            uint32_t w;
            if (ca_mem_read(ca, entry_sp + (uint32_t)pr->slot[i], &w, 4) != 0)
                return -1;
            r->regs[i] = w;
            r->known[i] = true;
        }
    r->regs[ISA_REG_SP] = entry_sp;
    r->known[ISA_REG_SP] = true;
    if (!by_event && !pr->saved[ISA_REG_LINK])
        r->known[ISA_REG_LINK] = false;
    return 0;
}

unsigned dbg_unwind(const dbg_t *d, unsigned cell, dbg_frame_t *f, unsigned max, bool *more, char *why, size_t cap)
{
    const ca_t *ca = dbg_ca(d, cell);
    const emu_program_t *p = ca->prog;
    *more = false;
    why[0] = '\0';
    if (p == NULL || max == 0)
        return 0;
    expr_frame_t regs;
    for (unsigned i = 0; i < ISA_NUM_REGS; i++) {
        regs.regs[i] = ca_reg(ca, i);
        regs.known[i] = true;
    }
    prologue_t pr;
    uint32_t pc = ca->s.pc;
    bool in_handler = ca->s.in_handler;
    for (unsigned n = 0;; n++) {
        uint32_t func = dbg_function_start(ca, pc);
        dbg_frame_t *fr = &f[n];
        fr->r = regs;
        fr->r.pc = pc;
        fr->r.level = n;
        fr->func = func;
        fr->by_event = false;
        fr->entry_sp = DBG_NO_ADDR;
        read_prologue(p, func, pc, &pr);
        /* At the ret itself the epilogue has reloaded ra and given the frame back. */
        if (n == 0 && returns_at(p, pc))
            prologue_none(&pr);
        memcpy(fr->saved, pr.saved, sizeof fr->saved);
        memcpy(fr->slot, pr.slot, sizeof fr->slot);
        if (func == p->image.entry && !in_handler)
            return n + 1; /* the function the loader started: the outermost frame */
        if (n + 1 == max) {
            *more = true;
            return n + 1;
        }
        if (pr.sp_lost) {
            snprintf(why, cap, "%s", "the stack pointer is changed in a way the unwinder cannot follow");
            return n + 1;
        }
        uint32_t entry_sp = regs.regs[ISA_REG_SP] + pr.frame;
        fr->entry_sp = entry_sp;
        bool by_event = in_handler && func == ca->s.event_vector;
        uint32_t ret_addr = 0;
        bool known = true;
        if (by_event)
            ret_addr = ca->s.epc; /* rfe goes back to the interrupted code */
        else if (pr.saved[ISA_REG_LINK]) {
            if (ca_mem_read(ca, entry_sp + (uint32_t)pr.slot[ISA_REG_LINK], &ret_addr, 4) != 0) {
                snprintf(why, cap, "the return address slot 0x%x is outside memory",
                         entry_sp + (uint32_t)pr.slot[ISA_REG_LINK]);
                return n + 1;
            }
        } else if (pr.ra_reg >= 0 && regs.known[pr.ra_reg])
            ret_addr = regs.regs[pr.ra_reg]; /* exact while the callees leave that register alone (checked below) */
        else if (pr.ra_reg < 0 && regs.known[ISA_REG_LINK])
            ret_addr = regs.regs[ISA_REG_LINK];
        else
            known = false;
        uint32_t next_pc = ret_addr;
        if (!by_event) {
            const emu_bundle_t *call = known ? call_before(p, ret_addr) : NULL;
            if (call == NULL) {
                if (known)
                    snprintf(why, cap, "the return address found, 0x%x, does not follow a call", ret_addr);
                else
                    snprintf(why, cap, "%s", "the caller's return address is not where the unwinder can see it");
                return n + 1;
            }
            next_pc = call->pc;
        } else {
            fr->by_event = true;
            fr->event_ret = ret_addr;
            in_handler = false;
        }
        if (unwind_regs(ca, &pr, entry_sp, by_event, &regs) != 0) {
            snprintf(why, cap, "%s", "a saved register's slot is outside memory");
            return n + 1;
        }
        pc = next_pc;
    }
}

void dbg_print_frame(dbg_t *d, unsigned cell, const dbg_frame_t *f)
{
    print_frame(d, cell, f->r.level, f->r.pc, f->func);
}

int dbg_cmd_backtrace(dbg_t *d, char *args)
{
    unsigned cell;
    if (dbg_cell_arg(d, &args, &cell) != 0)
        return -1;
    uint64_t limit = DBG_MAX_FRAMES;
    char *rest = dbg_trim(args);
    if (*rest != '\0' && (dbg_parse_u64(rest, &limit) != 0 || limit == 0))
        return dbg_error(d, "usage: backtrace [X,Y] [N]  (N: how many frames, at least 1)");
    if (limit > DBG_MAX_FRAMES)
        limit = DBG_MAX_FRAMES;
    if (dbg_ca(d, cell)->prog == NULL)
        return dbg_error(d, "(%u,%u) has no program", dbg_cell_x(d, cell), dbg_cell_y(d, cell));
    dbg_frame_t *f = malloc(sizeof *f * (size_t)limit);
    if (f == NULL)
        return dbg_error(d, "out of memory");
    bool more;
    char why[160];
    unsigned n = dbg_unwind(d, cell, f, (unsigned)limit, &more, why, sizeof why);
    for (unsigned i = 0; i < n; i++) {
        dbg_print_frame(d, cell, &f[i]);
        if (f[i].by_event && i + 1 < n)
            dbg_printf(d, "    <event: the handler returns to 0x%04x with rfe>\n", f[i].event_ret);
    }
    free(f);
    if (more)
        dbg_printf(d, "(more frames: backtrace %llu or more shows them)\n", (unsigned long long)limit + 1);
    else if (why[0] != '\0')
        dbg_printf(d, "(backtrace stopped: %s)\n", why);
    return 0;
}
