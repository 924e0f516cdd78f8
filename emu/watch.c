/*
 * Watching cells without a hook (emu.h, emu_array_watch). A hook after every clock costs the run its threads,
 * its sleeping cells and its CAs' run-ahead (schedule.c); a tool that only wants to know when a cell's pc
 * reaches a few places, which marks it raises and when its gate words move gets the same from a log the cell
 * keeps as it steps. Marks and gate words come from bundles that touch the agent, which never run ahead. An
 * arrival comes from the bundle before, which may: the bundles at watched pcs never run ahead
 * (emu_program_stop_ahead), so a run-ahead stops there, and the arrival's clock is its last bundle's.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "array_internal.h"
#include "cell.h"
#include "grow.h"
#include "watch.h"

/* NULL when out of memory: the event is lost and counted, so that whoever reads the log knows it has a hole. */
static emu_watch_event_t *append(emu_watch_t *w, emu_watch_kind_t kind, uint64_t clock)
{
    emu_watch_event_t *log = grow_double(w->log, w->n, &w->cap, sizeof *log, 64, UINT_MAX);
    if (log == NULL) {
        if (w->lost < UINT_MAX)
            w->lost++;
        return NULL;
    }
    w->log = log;
    emu_watch_event_t *e = &w->log[w->n++];
    *e = (emu_watch_event_t){.kind = kind,
                             .clock = clock,
                             .first_read = UINT64_MAX,
                             .last_read = UINT64_MAX,
                             .first_write = UINT64_MAX,
                             .last_write = UINT64_MAX};
    return e;
}

/* Logs the gate words since the last event, if any. */
static void flush_gates(emu_watch_t *w)
{
    if (w->first_read == UINT64_MAX && w->first_write == UINT64_MAX)
        return;
    uint64_t first = w->first_read < w->first_write ? w->first_read : w->first_write;
    emu_watch_event_t *e = append(w, EMU_WATCH_GATES, first);
    if (e != NULL) {
        e->first_read = w->first_read;
        e->last_read = w->last_read;
        e->first_write = w->first_write;
        e->last_write = w->last_write;
    }
    w->first_read = w->last_read = w->first_write = w->last_write = UINT64_MAX;
}

/* Appends an event after the gate words before it (its fields but the kind's own left to the caller); NULL when
 * out of memory (append). */
static emu_watch_event_t *append_event(emu_watch_t *w, emu_watch_kind_t kind, uint64_t clock)
{
    flush_gates(w);
    return append(w, kind, clock);
}

void emu_watch_arrived(emu_watch_t *w, unsigned index, uint64_t clock)
{
    emu_watch_event_t *e = append_event(w, EMU_WATCH_ARRIVE, clock);
    if (e != NULL)
        e->pc = index;
}

void emu_watch_mark(emu_watch_t *w, uint32_t mark, uint64_t clock)
{
    emu_watch_event_t *e = append_event(w, EMU_WATCH_MARK, clock);
    if (e != NULL)
        e->mark = mark;
}

void emu_watch_rewind(emu_watch_t *w, uint64_t clock, uint32_t pc)
{
    w->last_pc = pc;
    while (w->n > 0 && w->log[w->n - 1].kind == EMU_WATCH_ARRIVE && w->log[w->n - 1].clock >= clock)
        w->n--;
}

void emu_watch_free(emu_watch_t *w)
{
    if (w != NULL)
        free(w->log);
    free(w);
}

/* The program that cell c runs, as the array owns it (cells see it const). */
static emu_program_t *owned_program(emu_array_t *a, const emu_cell_t *c)
{
    for (unsigned i = 0; i < a->nprograms; i++)
        if (a->programs[i] == c->ca.prog)
            return a->programs[i];
    return NULL;
}

int emu_array_watch(emu_array_t *a, unsigned x, unsigned y, const uint32_t *pcs, unsigned npcs)
{
    if (x >= a->machine.width || y >= a->machine.height || npcs > EMU_WATCH_MAX_PCS)
        return -1;
    emu_cell_t *c = emu_array_cell(a, x, y);
    if (npcs == 0) {
        emu_cell_set_watch(c, NULL);
        return 0;
    }
    emu_program_t *p = owned_program(a, c);
    if (p == NULL)
        return -1;
    /* A line of its own: the thread that steps the cell writes it at every gate word. */
    emu_watch_t *w = aligned_alloc(64, (sizeof *w + 63) / 64 * 64);
    if (w == NULL)
        return -1;
    memset(w, 0, sizeof *w);
    w->first_read = w->last_read = w->first_write = w->last_write = UINT64_MAX;
    for (unsigned i = 0; i < npcs; i++) {
        w->pcs[i] = pcs[i];
        w->pc_bits |= emu_watch_pc_bit(pcs[i]);
        emu_program_stop_ahead(p, pcs[i]);
    }
    w->npcs = npcs;
    w->last_pc = c->ca.s.pc;
    emu_cell_set_watch(c, w);
    return 0;
}

unsigned emu_array_watch_take(emu_array_t *a, unsigned x, unsigned y, const emu_watch_event_t **events)
{
    if (x >= a->machine.width || y >= a->machine.height)
        return 0;
    emu_watch_t *w = emu_array_cell(a, x, y)->watch;
    if (w == NULL)
        return 0;
    flush_gates(w);
    unsigned n = w->n;
    *events = w->log;
    w->n = 0;
    return n;
}

unsigned emu_array_watch_lost(emu_array_t *a, unsigned x, unsigned y)
{
    if (x >= a->machine.width || y >= a->machine.height)
        return 0;
    const emu_watch_t *w = emu_array_cell(a, x, y)->watch;
    return w == NULL ? 0 : w->lost;
}
