/*
 * The computation agent: one cell's instruction-level core with exact cycle accounting.
 *
 * Timing model (docs/isa.md): a bundle issues when every gate it reads holds a word and every gate it
 * writes has room; it then occupies the core for isa_bundle_clocks() clocks (its slowest operation). The next
 * bundle issues after those clocks, or a bypass stall later when it reads a result that is not yet where it reads
 * it (emu_program_stall). Waiting for a gate counts as a stall of that cause. There is no cache.
 */
#ifndef EMU_CA_H
#define EMU_CA_H

#include <stdbool.h>
#include <stdint.h>

#include "fault.h"
#include "machine.h"
#include "port.h"
#include "program.h"

#define CA_STATES(X)                                                                                                   \
    X(IDLE, "idle")       /* no program loaded */                                                                      \
    X(RUNNING, "running") /* executing or about to */                                                                  \
    X(WAITING, "waiting") /* its next bundle waits for a gate */                                                       \
    X(HALTED, "halted")                                                                                                \
    X(FAULTED, "faulted")

typedef enum ca_state {
#define X(id, name) CA_##id,
    CA_STATES(X)
#undef X
} ca_state_t;

/* Events (docs/isa.md): bits of the pending and mask registers. X(ID, BIT, DOC). */
#define CA_EVENTS(X)                                                                                                   \
    X(SPOOL0, 1u << 0, "<< spool number: spool s finished (bits 0..7)")                                                \
    X(ARRIVAL, 1u << 8, "a pathway waits in the arrival queue (level)")                                                \
    X(TIMER, 1u << 9, "the clock reached the timer")                                                                   \
    X(SOFT0, 1u << 16, "<< n: raised by software (bits 16..31)")

enum {
#define X(id, bit, doc) CA_EVENT_##id = (bit),
    CA_EVENTS(X)
#undef X
        CA_EVENT_LEVEL_BITS = CA_EVENT_ARRIVAL,
};

#define CA_STALL_CAUSES(X)                                                                                             \
    X(GATE_IN_EMPTY, "gate_in_empty")                                                                                  \
    X(GATE_OUT_FULL, "gate_out_full")                                                                                  \
    X(WFE, "wfe")       /* wfe: waiting for the network or an event */                                                 \
    X(BYPASS, "bypass") /* a result of the instruction before is not yet where this one reads it (docs/isa.md) */

typedef enum ca_stall_cause {
#define X(id, name) CA_STALL_##id,
    CA_STALL_CAUSES(X)
#undef X
        CA_STALL_COUNT
} ca_stall_cause_t;

typedef struct ca_stats {
    uint64_t bundles;     /* instructions issued */
    uint64_t ops;         /* operations issued (a bundle holds one or more) */
    uint64_t busy_clocks; /* clocks spent executing bundles */
    uint64_t stall_clocks[CA_STALL_COUNT];
    uint64_t mem_reads; /* word accesses; a double counts two */
    uint64_t mem_writes;
    uint64_t gate_reads;
    uint64_t gate_writes;
    uint64_t cr_reads;
    uint64_t cr_writes;
    uint64_t branches_taken;
    uint64_t events; /* events taken */
} ca_stats_t;

/* Everything that changes as the core runs, in one block so a snapshot is a copy. */
typedef struct ca_state_block {
    uint32_t regs[ISA_NUM_REGS];
    uint32_t pc;
    ca_state_t state;
    uint64_t ready_at;       /* first clock at which the next bundle may issue */
    uint64_t wait_since;     /* the current wait's clocks before this one are in stall_clocks (ca_finish moves it) */
    uint8_t wait_cause;      /* ca_stall_cause_t of the current wait */
    uint8_t wait_gate;       /* gate number it waits for (input 0/1, output 2/3) */
    bool wfe_armed;          /* a wfe is waiting */
    bool wfe_reached;        /* the program came to a wfe (slept in it, passed it, or took an event at it); the cell
                              * clears it: its wait loop's bundles are not progress (emu/cell.c) */
    uint64_t wfe_token;      /* the network activity count when the last wfe finished */
    uint64_t mem_busy_until; /* the CA's memory accesses take the memory up to this clock (exclusive) */
    uint64_t halted_at;      /* clock of the halt or fault */
    bool events_on;          /* global event enable: cleared on entry to a handler, set by rfe */
    bool in_handler;         /* between an event's entry and its rfe */
    uint32_t event_mask;
    uint32_t event_vector;
    uint32_t epc;           /* where rfe returns */
    uint32_t event_pending; /* latched event bits */
    uint64_t timer_at;      /* clock at which CA_EVENT_TIMER becomes pending; 0 = off */
    emu_fault_t fault;
    ca_stats_t stats;
    uint64_t wait_began; /* clock at which the current wait began, for reports (no run's end moves it): last, off
                          * the fields the core reads every bundle */
} ca_state_block_t;

typedef struct ca {
    ca_state_block_t s;
    /* The clock at which the core last issued a bundle one by one (count_bundle, passed_alone, step_lone; a run
     * ahead's bundles are counted at its end and set none); UINT64_MAX after an rfe, which issues in its handler.
     * With in_handler, the cell asks it after each step rather than keeping the bundle count and in_handler across
     * the call (its books of progress, emu/cell_step.h). Not state: no clock the cell is stepped at again equals it
     * (a snapshot's restore sets it to UINT64_MAX). */
    uint64_t awake_issue_at;
    /* wiring, fixed once loaded */
    uint8_t *mem;
    uint32_t mem_bytes;
    uint32_t mem_guard;
    const emu_program_t *prog;
    ca_port_t port;
    /* Memory is all zero (as calloc gave it): the first load need not clear it. On a 32x32 array clearing
     * touched 512 MB of pages for nothing. */
    bool mem_clean;
} ca_t;

/* Wires a core to its memory and port; the core starts idle. */
void ca_init(ca_t *ca, uint8_t *mem, uint32_t mem_bytes, uint32_t mem_guard, ca_port_t port);

/* Copies the image's data into memory, clears the bss and registers, sets pc to the entry and sp to
 * the top of memory. Returns 0, or -1 with a message when the image does not fit. */
int ca_load(ca_t *ca, const emu_program_t *prog, char *err, size_t errlen);

/* Sets argument register a<i> (r3 + i), before the run starts. */
void ca_set_arg(ca_t *ca, unsigned i, uint32_t value);

/* Stops the core with a fault found outside it (its communication agent, the deadlock detector). */
void ca_raise_fault(ca_t *ca, uint64_t now, emu_fault_kind_t kind, uint32_t addr, const char *detail);

/* The event bits pending now (latched ones and level-triggered sources), before masking. */
uint32_t ca_events_pending(ca_t *ca, uint64_t now);

/* Closes the books at the end of a run: a wait still open at `now` is added to the stall counts. */
void ca_finish(ca_t *ca, uint64_t now);

/* Advances the core to clock `now` (called with strictly increasing clocks). Issues at most one bundle.
 * Returns the next clock at which calling again can change anything: ready_at after an issue, now + 1
 * while waiting for a gate, UINT64_MAX once halted or faulted. */
uint64_t ca_step(ca_t *ca, uint64_t now);

/* ca_step for a core that runs or waits and is ready at `now` (ready_at <= now), for a caller that has found that the
 * events would neither be latched nor taken: they are off, or no source outside the core has a new one (the port's
 * event_sources would give at most its level bits), the timer is not due, and no event pending or at its level is in
 * the mask. The same, without asking the port. */
uint64_t ca_step_ready(ca_t *ca, uint64_t now);

/* Runs ahead for a cell that computes alone (schedule.c): issues bundle after bundle, each at the clock the last
 * one frees the core, while that clock is below `horizon` and the next bundle is EMU_BUNDLE_ALONE (it touches
 * nothing outside the core, and neither halts nor leaves a handler). Every issue is the one ca_step would make
 * at that clock. Call it with the CA running, events off, and the clock at ready_at. Returns the number issued
 * and the clock of the last in *last_issue; it stops early after a fault (the faulting clock is in s.fault). */
uint64_t ca_run_alone(ca_t *ca, uint64_t horizon, uint64_t *last_issue);

/* The memory a CA running ahead of its cell's clock overwrote, in order, to put back if the array stops before
 * its clock catches up with the CA's (emu/cell.c). */
typedef struct ca_undo_entry {
    uint32_t addr;
    uint32_t size;
    uint64_t old;
} ca_undo_entry_t;
typedef struct ca_undo {
    ca_undo_entry_t *e;
    unsigned n; /* noted; the caller gives room for two a clock of the horizon (the memory unit's two a bundle) */
} ca_undo_t;
/* ca_run_alone for the bundles that may run ahead (EMU_BUNDLE_RUN_AHEAD) alone, each store noted in undo. */
uint64_t ca_run_ahead_noted(ca_t *ca, uint64_t horizon, ca_undo_t *undo, uint64_t *last_issue);
/* Puts back what undo noted, newest first: the memory as it was before the first noted store. */
void ca_undo_apply(ca_t *ca, const ca_undo_t *undo);

/* Reads of the architectural state for tools; the 64-bit form joins an even/odd pair. */
static inline uint32_t ca_reg(const ca_t *ca, unsigned r)
{
    return ca->s.regs[r & 127u];
}
static inline bool ca_done(const ca_t *ca)
{
    return ca->s.state == CA_HALTED || ca->s.state == CA_FAULTED;
}

/* Whether a state block from outside (a snapshot file) is one the core can run on: every enum, index and string
 * in range, and a running core's pc in memory. 0, or -1 with "FIELD is VALUE, ..." in err. Other addresses and
 * the clocks need no check: the core checks every address it uses. */
int ca_state_check(const ca_state_block_t *s, uint32_t mem_bytes, char *err, size_t errlen);

const char *ca_state_name(ca_state_t st);
const char *ca_stall_cause_name(ca_stall_cause_t c);

/* Memory helpers used by the core, the loader and the tools. Return 0, or -1 when out of range. */
int ca_mem_read(const ca_t *ca, uint32_t addr, void *buf, uint32_t len);
int ca_mem_write(ca_t *ca, uint32_t addr, const void *buf, uint32_t len);

#endif
