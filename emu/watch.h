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
    unsigned n;
    size_t cap;
    /* Events that found no memory in the log (emu_array_watch_lost): a reader of a log with a hole would count
     * wrong without knowing it, so it is told instead. */
    unsigned lost;
    /* The gate words since the last event, UINT64_MAX where none: logged as one event when the next comes.
     * Here, on the watch's own lines, not in the log, which may share one with another thread's cell. */
    uint64_t first_read, last_read, first_write, last_write;
} emu_watch_t;

static inline uint64_t emu_watch_pc_bit(uint32_t pc)
{
    return 1ull << (pc / 4u % 64u);
}

void emu_watch_arrived(emu_watch_t *w, unsigned index, uint64_t clock);

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

/* The CA read gate words at `clock`. */
static inline void emu_watch_read(emu_watch_t *w, uint64_t clock)
{
    if (w->first_read == UINT64_MAX)
        w->first_read = clock;
    w->last_read = clock;
}

/* The CA wrote gate words at `clock`. */
static inline void emu_watch_write(emu_watch_t *w, uint64_t clock)
{
    if (w->first_write == UINT64_MAX)
        w->first_write = clock;
    w->last_write = clock;
}


void emu_watch_mark(emu_watch_t *w, uint32_t mark, uint64_t clock);

/* The CA was put back to before the bundles it issued at `clock` and after, its pc now `pc`: so are their
 * arrivals, the events logged last (a CA that runs ahead touches no gate and raises no mark). */
void emu_watch_rewind(emu_watch_t *w, uint64_t clock, uint32_t pc);

void emu_watch_free(emu_watch_t *w);

#endif
