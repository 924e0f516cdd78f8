/*
 * The narrow port between a computation agent and its communication agent (uxn's dei/deo idea): the CA
 * sees gates and control registers only through these calls, so it can be tested with a fake agent and
 * the communication agent can be tested without a CA.
 */
#ifndef EMU_PORT_H
#define EMU_PORT_H

#include <stdint.h>

typedef enum ca_gate_status {
    CA_GATE_READY,   /* a word to read, or room to write */
    CA_GATE_WAIT,    /* empty (input) or full (output): the CA stalls */
    CA_GATE_UNBOUND, /* no logical channel bound: the CA faults */
} ca_gate_status_t;

/* What ca_port_ops_t.gate_take answers: CA_GATES_READY when every gate is ready, else the first one that is not, as
 * ca_gates_blocked(gate, status) with gate 0 and 1 the input gates, 2 and 3 the output gates 0 and 1. A number, not a
 * struct: it comes back in one register, with nothing to pack or unpack on the way. */
typedef uint32_t ca_gates_t;
enum { CA_GATES_READY = 0 };
static inline ca_gates_t ca_gates_blocked(unsigned gate, ca_gate_status_t status)
{
    return (ca_gates_t)(gate << 2 | (unsigned)status);
}
static inline unsigned ca_gates_gate(ca_gates_t g) { return g >> 2; }
static inline ca_gate_status_t ca_gates_status(ca_gates_t g) { return (ca_gate_status_t)(g & 3u); }

typedef struct ca_port_ops {
    /* A bundle's gates in one call, not one a gate (the core asks at every clock of a wait, and a busy array's
     * cells forward words through their gates at every clock): `in` and `out` are the masks of the input and
     * output gates it uses. When every one of them is ready, pops a word from each input gate g into in_words[g]
     * and returns CA_GATES_READY; else pops none and returns the first that is not, in the order gi0, gi1, go0, go1.
     * Every status is found before the first pop. */
    ca_gates_t (*gate_take)(void *ctx, unsigned in, unsigned out, uint32_t *in_words);
    /* Pushes out_words[g] to each output gate g in `out`, gate 0 first; gate_take found room in each. */
    void (*gate_put)(void *ctx, unsigned out, const uint32_t *out_words);
    /* Control registers: return 0, or -1 when the index names no register (the CA faults). */
    int (*cr_read)(void *ctx, uint32_t index, uint32_t *value);
    int (*cr_write)(void *ctx, uint32_t index, uint32_t value);
    /* Event sources outside the CA: bits that became pending since the last call (latched by the CA),
     * together with the level-triggered ones (CA_EVENT_LEVEL_BITS) as they are now. May be NULL. */
    uint32_t (*event_sources)(void *ctx);
} ca_port_ops_t;

typedef struct ca_port {
    const ca_port_ops_t *ops;
    void *ctx;
    /* A count that changes whenever a word moves in the cell's communication agent (wfe waits on it), or NULL for
     * none. Read where it is, not asked through a call: the runtimes' wait loops pass a wfe at every trip. */
    const uint64_t *activity;
    /* A control register (quiet_cr) that reads as quiet_value while *quiet_count is 0, answered by the core where it is,
     * or quiet_count NULL for none: the message runtimes' arrival loop reads an empty arrival queue at every trip, and
     * the call to cr_read cost more than the rest of the bundle. The same answer cr_read gives then. */
    const unsigned *quiet_count;
    uint32_t quiet_cr;
    uint32_t quiet_value;
    /* Registers whose value is a byte where it is, read by the core the same way: register byte_cr + (i << byte_shift)
     * is byte_at[i * byte_stride], for i below byte_crs (0 for none). The message runtimes' spool-done loop reads
     * one at every trip. */
    const uint8_t *byte_at;
    uint32_t byte_cr;
    uint32_t byte_crs;
    uint32_t byte_shift;
    uint32_t byte_stride;
    /* The input gates' emptiness where it is, for the core to find a gate empty with no call to gate_take: the
     * channel each input gate reads (gate_in_lc[g]; a number of 64 or more is not one, and gate_take is asked) and
     * the mask of channels holding words (*busy). An input gate bound to a channel that holds none waits
     * (CA_GATE_WAIT), as gate_take would answer. A forwarding core, whose words come every second clock, finds gi0
     * so at every other clock, where the call and run_one's frame cost more than the wait itself. NULL for none. */
    const uint8_t *gate_in_lc;
    const uint64_t *busy;
} ca_port_t;

#endif
