/*
 * gdb's frame habits: `up`, `down`, `frame N` select a caller's frame of the selected cell, and `print`,
 * `display` and `x` then read that frame's pc and registers (as the unwinder recovered them, backtrace.c);
 * `info frame` says where the frame keeps what it saved. The selection lasts while nothing runs: at any other
 * clock or cell the frame is 0 again, as gdb goes back to the innermost frame at every stop.
 */
#include <stdlib.h>
#include <string.h>

#include "dbg.h"

unsigned dbg_selected_frame(const dbg_t *d)
{
    if (d->frame_cell != d->sel || d->frame_clock != emu_array_clock(d->a))
        return 0;
    return d->frame;
}

/* Unwinds the selected cell up to and including frame `level`; returns how many frames there are (at most
 * level + 1), 0 with the message printed when none. */
static unsigned unwind_to(dbg_t *d, unsigned level, dbg_frame_t **out)
{
    *out = NULL;
    if (dbg_ca(d, d->sel)->prog == NULL) {
        dbg_error(d, "(%u,%u) has no program, so no frames", dbg_cell_x(d, d->sel), dbg_cell_y(d, d->sel));
        return 0;
    }
    dbg_frame_t *f = malloc(sizeof *f * (size_t)(level + 2));
    if (f == NULL) {
        dbg_error(d, "out of memory");
        return 0;
    }
    bool more;
    char why[160];
    /* One frame beyond the one asked for, so `up` from the outermost frame knows it is the outermost. */
    unsigned n = dbg_unwind(d, d->sel, f, level + 2, &more, why, sizeof why);
    *out = f;
    return n;
}

/* Selects frame `level` (clamped to the frames there are, as gdb does at either end) and shows it. */
static int select_frame(dbg_t *d, long level, const char *edge)
{
    dbg_frame_t *f;
    unsigned want = level < 0 ? 0 : level > DBG_MAX_FRAMES - 2 ? DBG_MAX_FRAMES - 2 : (unsigned)level;
    unsigned n = unwind_to(d, want, &f);
    if (n == 0)
        return -1;
    if (level < 0 || want >= n) {
        unsigned at = level < 0 ? 0 : n - 1;
        if (edge != NULL && at == dbg_selected_frame(d)) {
            free(f);
            return dbg_error(d, "%s", edge);
        }
        want = at;
    }
    d->frame = want;
    d->frame_cell = d->sel;
    d->frame_clock = emu_array_clock(d->a);
    dbg_print_frame(d, d->sel, &f[want]);
    dbg_print_source(d, d->sel, f[want].r.pc);
    free(f);
    return 0;
}

static int count_arg(dbg_t *d, char *args, const char *usage, long *v)
{
    char *t = dbg_trim(args);
    uint64_t n = 1;
    if (*t != '\0' && (dbg_parse_u64(t, &n) != 0 || n > DBG_MAX_FRAMES))
        return dbg_error(d, "%s", usage);
    *v = (long)n;
    return 0;
}

int dbg_cmd_up(dbg_t *d, char *args)
{
    long n;
    if (count_arg(d, args, "usage: up [N]  (N frames towards the callers, 1 by default)", &n) != 0)
        return -1;
    return select_frame(d, (long)dbg_selected_frame(d) + n, "Initial frame selected; you cannot go up.");
}

int dbg_cmd_down(dbg_t *d, char *args)
{
    long n;
    if (count_arg(d, args, "usage: down [N]  (N frames towards the innermost, 1 by default)", &n) != 0)
        return -1;
    return select_frame(d, (long)dbg_selected_frame(d) - n, "Bottom (innermost) frame selected; you cannot go down.");
}

int dbg_cmd_frame(dbg_t *d, char *args)
{
    char *t = dbg_trim(args);
    uint64_t n = dbg_selected_frame(d);
    if (*t != '\0' && (dbg_parse_u64(t, &n) != 0 || n >= DBG_MAX_FRAMES))
        return dbg_error(d, "usage: frame [N]  (N: a frame number backtrace shows; none: the selected frame)");
    return select_frame(d, (long)n, NULL);
}

void dbg_info_frame(dbg_t *d)
{
    unsigned level = dbg_selected_frame(d);
    dbg_frame_t *f;
    unsigned n = unwind_to(d, level, &f);
    if (n == 0)
        return;
    if (level >= n)
        level = n - 1;
    const dbg_frame_t *fr = &f[level];
    char where[160], line[96];
    dbg_addr_text(d, d->sel, fr->r.pc, where, sizeof where);
    dbg_line_text(d, d->sel, fr->r.pc, line, sizeof line);
    dbg_printf(d, "Stack level %u of (%u,%u), pc = %s%s%s\n", level, dbg_cell_x(d, d->sel), dbg_cell_y(d, d->sel),
               where, *line ? " " : "", line);
    char func[160];
    dbg_addr_text(d, d->sel, fr->func, func, sizeof func);
    dbg_printf(d, " function starts at %s; sp = 0x%x", func, fr->r.regs[ISA_REG_SP]);
    if (fr->entry_sp != DBG_NO_ADDR)
        dbg_printf(d, ", at entry 0x%x (frame %u bytes)", fr->entry_sp, fr->entry_sp - fr->r.regs[ISA_REG_SP]);
    dbg_printf(d, "\n");
    if (level + 1 < n)
        dbg_printf(d, " called by frame %u (0x%x)%s\n", level + 1, f[level + 1].r.pc,
                   fr->by_event ? ", entered by an event: rfe returns there" : "");
    else
        dbg_printf(d, " outermost frame\n");
    if (level > 0)
        dbg_printf(d, " caller of frame %u (0x%x)\n", level - 1, f[level - 1].r.pc);
    bool any = false;
    for (unsigned r = 0; r < ISA_NUM_REGS; r++) {
        if (!fr->saved[r] || fr->entry_sp == DBG_NO_ADDR)
            continue;
        char name[8];
        const char *nm = r == ISA_REG_LINK ? "ra" : r == ISA_REG_SP ? "sp" : isa_reg_name(r, name);
        dbg_printf(d, "%s%s at 0x%x", any ? ", " : " saved registers: ", nm,
                   fr->entry_sp + (uint32_t)fr->slot[r]);
        any = true;
    }
    dbg_printf(d, "%s\n", any ? "" : " saved registers: none (a leaf, or its prologue has not run yet)");
    free(f);
}
