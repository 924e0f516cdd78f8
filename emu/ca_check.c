/* The checks a CA state block read from a file passes before the core runs on it (a snapshot's restore): every
 * field the core or the tools use as an index, a case of a switch or a string is in its range. */
#include <string.h>

#include "ca.h"
#include "err.h"

/* A bool holding anything but 0 or 1 is undefined behaviour to read: its byte is looked at instead. */
static unsigned bool_byte(const bool *b)
{
    uint8_t v;
    memcpy(&v, b, 1);
    return v;
}

int ca_state_check(const ca_state_block_t *s, uint32_t mem_bytes, char *err, size_t errlen)
{
    /* The console's `stats` counts cells per state in an array of the states, the deadlock report and the
     * console's wait text index the gates' names with wait_gate. */
    if ((unsigned)s->state > CA_FAULTED)
        return err_set(err, errlen, "state is %u, the states are 0..%u", (unsigned)s->state, (unsigned)CA_FAULTED);
    if (s->wait_cause >= CA_STALL_COUNT)
        return err_set(err, errlen, "wait_cause is %u, the causes are 0..%u", s->wait_cause, CA_STALL_COUNT - 1u);
    if (s->wait_gate >= ISA_NUM_GATES_IN + ISA_NUM_GATES_OUT)
        return err_set(err, errlen, "wait_gate is %u, the gates are 0..%u", s->wait_gate,
                       ISA_NUM_GATES_IN + ISA_NUM_GATES_OUT - 1u);
    /* The core faults at a pc outside its text, so this is a check of the file's sense, not of safety: a core that
     * runs is inside its memory, but for the clock after it entered a handler at a vector the program set
     * (nothing checks a vector when it is written), and a fault keeps the pc it stopped at. */
    if ((s->state == CA_RUNNING || s->state == CA_WAITING) && s->pc >= mem_bytes && s->pc != s->event_vector)
        return err_set(err, errlen, "pc is 0x%x, outside the memory of 0x%x bytes", s->pc, mem_bytes);
    /* r0 reads 0: the run-ahead adds it to every immediate operand (emu_ahead_op_t), and no run ever leaves another
     * value in it between bundles. */
    if (s->regs[ISA_REG_ZERO] != 0)
        return err_set(err, errlen, "regs[0] is 0x%x, not 0: r0 always reads 0", s->regs[ISA_REG_ZERO]);
    /* The arrival event is a level, never latched (ca_events_pending adds it while an arrival waits). */
    if (s->event_pending & CA_EVENT_LEVEL_BITS)
        return err_set(err, errlen, "event_pending is 0x%x, with the arrival bit 0x%x that is never latched",
                       s->event_pending, (unsigned)CA_EVENT_LEVEL_BITS);
    const struct {
        const char *name;
        const bool *b;
    } bools[] = {{"wfe_armed", &s->wfe_armed},
                 {"events_on", &s->events_on},
                 {"in_handler", &s->in_handler},
                 {"wfe_reached", &s->wfe_reached}};
    for (size_t i = 0; i < sizeof bools / sizeof bools[0]; i++)
        if (bool_byte(bools[i].b) > 1)
            return err_set(err, errlen, "%s is %u, not 0 or 1", bools[i].name, bool_byte(bools[i].b));
    if ((unsigned)s->fault.kind >= EMU_FAULT_COUNT)
        return err_set(err, errlen, "fault.kind is %u, the kinds are 0..%u", (unsigned)s->fault.kind,
                       EMU_FAULT_COUNT - 1u);
    if (memchr(s->fault.detail, '\0', sizeof s->fault.detail) == NULL)
        return err_set(err, errlen, "fault.detail has no end (%zu bytes without a NUL)", sizeof s->fault.detail);
    return 0;
}
