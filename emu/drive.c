/* Cells driven by a host-side core (drive.h): each thread's span handed to the driver at each clock. */
#include "schedule.h"

void emu_block_drive(emu_array_t *a, emu_block_t *b, uint64_t now, emu_step_summary_t *sum)
{
    emu_drive_span_t span = {&a->cells[b->first].coa, sizeof(emu_cell_t), b->first, b->last, false};
    a->driver.clock(a->driver.user, &span, now);
    /* A driver never halts and never waits on a gate: the run goes on to its limit, and no deadlock window is
     * kept (each clock counts as progress). */
    uint32_t states = EMU_STATE_BIT(CA_RUNNING);
    if (span.fault)
        for (unsigned i = b->first; i < b->last; i++) {
            emu_cell_t *c = &a->cells[i];
            if (c->coa.fault.raised) {
                ca_raise_fault(&c->ca, now, EMU_FAULT_NETWORK, c->coa.fault.addr, c->coa.fault.detail);
                c->coa.fault.raised = false;
                states |= EMU_STATE_BIT(CA_FAULTED);
            }
        }
    emu_summary_add(sum, now + 1, now, states);
}
