/* The global clock: what the cells' steps of one clock add up to, and the next clock that matters. Inline:
 * every clock of every run comes through here. */
#ifndef EMU_CLOCK_H
#define EMU_CLOCK_H

#include "array_internal.h"

/* The same decision on every thread, from the same summary and the same clock state. Returns true when
 * the run stops, with the reason in *st. */
static inline bool emu_clock_decide(emu_run_clock_t *rc, const emu_machine_t *m, const emu_step_summary_t *sum,
                                    uint64_t limit, emu_run_status_t *st)
{
    uint64_t now = rc->clock;
    if (sum->progress_at > rc->last_progress)
        rc->last_progress = sum->progress_at;
    if (sum->stop) {
        *st = EMU_RUN_STOPPED; /* before the clock ran: it runs when the array goes on */
        return true;
    }
    if (emu_summary_faulted(sum)) {
        *st = EMU_RUN_FAULT;
    } else if (!emu_summary_running(sum)) {
        *st = EMU_RUN_DONE;
    } else if (emu_summary_waiting(sum) && now - rc->last_progress >= m->deadlock_clocks) {
        *st = EMU_RUN_DEADLOCK;
    } else {
        /* Nothing can change before sum->next: skip the idle clocks. */
        uint64_t next = sum->next > now + 1 ? sum->next : now + 1;
        /* The window closes at last_progress + deadlock_clocks, or never when that is past the clock's range. */
        uint64_t window_end = rc->last_progress + m->deadlock_clocks;
        if (window_end < rc->last_progress)
            window_end = UINT64_MAX;
        if (emu_summary_waiting(sum) && next > window_end)
            next = window_end;
        rc->clock = next < limit ? next : limit;
        if (rc->clock < limit)
            return false;
        *st = EMU_RUN_LIMIT;
        return true;
    }
    rc->clock = now + 1;
    return true;
}

static inline void emu_summary_merge(emu_step_summary_t *into, const emu_step_summary_t *s)
{
    emu_summary_add(into, s->next, s->progress_at, s->states);
    into->stop |= s->stop;
}

#endif
