/* A cell's watch (watch.c), as the cell feeds it: inline, since the cell asks at every bundle whether it has
 * one. The events and what a tool does with them are in emu.h (emu_array_watch). */
#ifndef EMU_WATCH_H
#define EMU_WATCH_H

#include "emu.h"

enum { EMU_WATCH_MAX_PCS = 8 };

typedef struct emu_watch {
    uint32_t pcs[EMU_WATCH_MAX_PCS];
    unsigned npcs;
    uint64_t pc_bits; /* bit (pc / 4) % 64 of each watched pc: most pcs are none, told by one test */
    uint32_t last_pc; /* the CA's pc as last seen: a step that leaves it there arrives nowhere */
    emu_watch_event_t *log;
    unsigned n, cap;
    bool span_open; /* the last event is a gate span that the next gate word extends */
} emu_watch_t;

static inline uint64_t emu_watch_pc_bit(uint32_t pc)
{
    return 1ull << (pc / 4u % 64u);
}

/* Appends an event (its fields but the kind's own left to the caller); NULL when out of memory: the event is
 * lost, as a hook's account lost rows it had no memory for. */
emu_watch_event_t *emu_watch_append(emu_watch_t *w, emu_watch_kind_t kind, uint64_t clock);
void emu_watch_arrived(emu_watch_t *w, unsigned index, uint64_t clock);
void emu_watch_gate_span(emu_watch_t *w, bool write, uint64_t clock);

/* The CA's pc is `pc` after a step; if it moved, the bundle issued at `clock` moved it. */
static inline void emu_watch_pc(emu_watch_t *w, uint32_t pc, uint64_t clock)
{
    if (pc == w->last_pc)
        return;
    w->last_pc = pc;
    if ((w->pc_bits & emu_watch_pc_bit(pc)) == 0)
        return;
    for (unsigned i = 0; i < w->npcs; i++)
        if (w->pcs[i] == pc)
            emu_watch_arrived(w, i, clock);
}

/* The CA read (or wrote) gate words at `clock`. */
static inline void emu_watch_gate(emu_watch_t *w, bool write, uint64_t clock)
{
    if (!w->span_open) {
        emu_watch_gate_span(w, write, clock);
        return;
    }
    emu_watch_event_t *e = &w->log[w->n - 1];
    uint64_t *first = write ? &e->first_write : &e->first_read;
    if (*first == UINT64_MAX)
        *first = clock;
    *(write ? &e->last_write : &e->last_read) = clock;
}

void emu_watch_mark(emu_watch_t *w, uint32_t mark, uint64_t clock);

/* The CA was put back to before the bundles it issued at `clock` and after, its pc now `pc`: so are their
 * arrivals, the events logged last (a CA that runs ahead touches no gate and raises no mark). */
void emu_watch_rewind(emu_watch_t *w, uint64_t clock, uint32_t pc);

void emu_watch_free(emu_watch_t *w);

#endif
