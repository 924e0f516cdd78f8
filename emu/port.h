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

typedef struct ca_port_ops {
    ca_gate_status_t (*gate_in_status)(void *ctx, unsigned gate);
    uint32_t (*gate_in_pop)(void *ctx, unsigned gate);
    ca_gate_status_t (*gate_out_status)(void *ctx, unsigned gate);
    void (*gate_out_push)(void *ctx, unsigned gate, uint32_t word);
    /* Control registers: return 0, or -1 when the index names no register (the CA faults). */
    int (*cr_read)(void *ctx, uint32_t index, uint32_t *value);
    int (*cr_write)(void *ctx, uint32_t index, uint32_t value);
    /* Event sources outside the CA: bits that became pending since the last call (latched by the CA),
     * together with the level-triggered ones (CA_EVENT_LEVEL_BITS) as they are now. May be NULL. */
    uint32_t (*event_sources)(void *ctx);
    /* A count that changes whenever a word moves in the cell's communication agent (wfe waits on it). */
    uint64_t (*activity)(void *ctx);
} ca_port_ops_t;

typedef struct ca_port {
    const ca_port_ops_t *ops;
    void *ctx;
} ca_port_t;

#endif
