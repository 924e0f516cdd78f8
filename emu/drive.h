/* Cells whose core is a host-side driver in place of their CA: `iwarp traffic`'s generators and sinks
 * (docs/traffic.md). The array steps every cell at every clock, on its scheduler and threads, and a run ends at
 * its limit; what each clock of a cell does, and in which order, is emu_drive_cells's. */
#ifndef EMU_DRIVE_H
#define EMU_DRIVE_H

#include <stddef.h>

#include "coa.h"

/* The cells one thread drives at a clock: [first, last), the agent of each `stride` bytes after the last's. */
typedef struct emu_drive_span {
    coa_t *agent; /* cell first's */
    size_t stride;
    unsigned first, last;
    bool fault; /* a core left its agent's fault raised: the run stops on it, as on a CA's network fault */
} emu_drive_span_t;

/* The driver: its clock function is given each thread's span at each clock, and calls emu_drive_cells on it with
 * its own core functions. */
typedef struct emu_driver {
    void *user;
    void (*clock)(void *user, emu_drive_span_t *span, uint64_t now);
} emu_driver_t;

typedef void emu_core_fn(void *user, unsigned cell, coa_t *agent, uint64_t now);

/* One clock of the span's cells, each in the order of emu/cell.c's step: arrivals; the core (`step`), which
 * works the agent's port (coa_cr_read/write, the gates) where a CA would issue; the agent's spools, headers and
 * links; then `after`, which sees the agent once its clock has run (a trailer consumed, a fault raised). Inline,
 * for the compiler to fold the driver's functions into the loop: called through pointers, once per cell and
 * clock, they cost more than the cores do. */
static inline __attribute__((always_inline)) void emu_drive_cells(emu_drive_span_t *span, uint64_t now, void *user,
                                                                  emu_core_fn *step, emu_core_fn *after)
{
    char *at = (char *)span->agent;
    size_t stride = span->stride;
    bool fault = false; /* in a register: the calls could write *span */
    for (unsigned i = span->first, last = span->last; i < last; i++, at += stride) {
        coa_t *agent = (coa_t *)(void *)at;
        coa_deliver(agent, now);
        step(user, i, agent, now);
        if (coa_active(agent))
            coa_after_ca(agent, now, false);
        after(user, i, agent, now);
        fault |= agent->fault.raised;
    }
    span->fault = fault;
}

#endif
