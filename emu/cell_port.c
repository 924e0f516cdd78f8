/* A cell's port (ca_port_ops_t): where its CA meets its agent, at the gates of every bundle that names one. Apart
 * from cell.c so that it compiles a second time with the agent's keys fixed at their defaults (comm_agent/coa.h,
 * COA_KEY_OF): emu_cell_port_ops (cell.c) gives a cell of a machine with those keys that copy. */
#include "cell.h"
#include "coa_gate.h"
#include "watch.h"

static ca_gate_status_t gate_status(int coa_status)
{
    return coa_status == 0 ? CA_GATE_READY : coa_status == 1 ? CA_GATE_WAIT : CA_GATE_UNBOUND;
}

/* cell_gate_take asks each gate's status by name, not in a loop over a mask (which the compiler kept as a loop). */
_Static_assert(ISA_NUM_GATES_IN == 2 && ISA_NUM_GATES_OUT == 2, "cell_gate_take names every gate");

/* cell_gate_take's pops of the gates `in` names (one or both), apart (and last, so a jump): they need registers that
 * the statuses, asked at every clock of a wait, do not. */
__attribute__((noinline)) static ca_gates_t cell_gate_pop(emu_cell_t *c, unsigned in, uint32_t *in_words)
{
    /* Both gates' pops share the agent's books. Two gates bound to one channel (which only a forged state has: a
     * channel routes to one gate) pop in turn there, as one after the other. */
    if (in == 3u)
        coa_gate_in_pop_both(&c->coa, in_words, c->saved.now);
    else if (in & 1u)
        in_words[0] = coa_gate_in_pop(&c->coa, 0, c->saved.now);
    else
        in_words[1] = coa_gate_in_pop(&c->coa, 1, c->saved.now);
    return CA_GATES_READY;
}

/* Input gate g, if `in` names it, as gate_take answers for it alone. */
static inline ca_gates_t cell_gate_in_blocked(const coa_t *a, unsigned in, unsigned g)
{
    int st = in >> g & 1u ? coa_gate_in_status(a, g) : 0;
    return st == 0 ? CA_GATES_READY : ca_gates_blocked(g, gate_status(st));
}

static inline ca_gates_t cell_gate_out_blocked(const coa_t *a, unsigned out, unsigned g)
{
    int st = out >> g & 1u ? coa_gate_out_status(a, g) : 0;
    return st == 0 ? CA_GATES_READY : ca_gates_blocked(ISA_NUM_GATES_IN + g, gate_status(st));
}

/* The agent's statuses are inline (coa.h): here, behind the port's one call a bundle, they cost no call each. */
static inline __attribute__((always_inline)) ca_gates_t cell_gates_ready(const coa_t *a, unsigned in, unsigned out)
{
    ca_gates_t r = cell_gate_in_blocked(a, in, 0);
    if (r == CA_GATES_READY)
        r = cell_gate_in_blocked(a, in, 1);
    if (r == CA_GATES_READY)
        r = cell_gate_out_blocked(a, out, 0);
    if (r == CA_GATES_READY)
        r = cell_gate_out_blocked(a, out, 1);
    return r;
}

static ca_gates_t cell_gate_take(void *ctx, unsigned in, unsigned out, uint32_t *in_words)
{
    emu_cell_t *c = ctx;
    ca_gates_t r = cell_gates_ready(&c->coa, in, out);
    if (r != CA_GATES_READY || in == 0) /* a bundle that only writes gates pops none: no call for it */
        return r;
    return cell_gate_pop(c, in, in_words);
}

/* Tagged words are rare (a header's, a trailer's): a loop, the push inlined once, apart so that the untagged
 * pushes keep only the registers they need. */
__attribute__((noinline, cold)) static void cell_gate_put_tagged(emu_cell_t *c, unsigned out, const uint32_t *out_words)
{
    for (unsigned g = 0; g < ISA_NUM_GATES_OUT; g++)
        if (out >> g & 1u)
            coa_gate_out_push(&c->coa, g, out_words[g], c->saved.now);
}

__attribute__((noinline)) static void cell_gate_put(void *ctx, unsigned out, const uint32_t *out_words)
{
    emu_cell_t *c = ctx;
    if (c->coa.tag_next == 0) {
        /* Each gate by name: untagged, the push is small enough to inline twice, which costs fewer host instructions
         * than a loop's tests (a pop is not: inlined twice, the compiler made it a call). */
        uint64_t now = c->saved.now;
        if (out & 1u) {
            if (out & 2u)
                coa_gate_out_push_both_untagged(&c->coa, out_words, now);
            else
                coa_gate_out_push_untagged(&c->coa, 0, out_words[0], now);
        } else if (out & 2u) {
            coa_gate_out_push_untagged(&c->coa, 1, out_words[1], now);
        }
        return;
    }
    cell_gate_put_tagged(c, out, out_words);
}

static uint32_t cell_event_sources(void *ctx)
{
    emu_cell_t *c = ctx;
    uint32_t bits = c->coa.spool_events | (c->coa.narrivals > 0 ? (uint32_t)CA_EVENT_ARRIVAL : 0u);
    c->coa.spool_events = 0;
    return bits;
}

const ca_port_ops_t emu_cell_port = {
    .gate_take = cell_gate_take,
    .gate_put = cell_gate_put,
    .cr_read = emu_cell_cr_read,
    .cr_write = emu_cell_cr_write,
    .event_sources = cell_event_sources,
};

/* A watched cell's port (emu_array_watch): the same, with its gate words and marks logged, so that a cell nobody
 * watches pays nothing for the watch where its CA meets its agent. The log is apart from the statuses, as
 * cell_gate_pop is: asked at every clock of a wait, they keep no frame. */
__attribute__((noinline)) static ca_gates_t watched_gate_pop(emu_cell_t *c, unsigned in, uint32_t *in_words)
{
    emu_watch_read(c->watch, c->saved.now);
    return cell_gate_pop(c, in, in_words);
}

static ca_gates_t watched_gate_take(void *ctx, unsigned in, unsigned out, uint32_t *in_words)
{
    emu_cell_t *c = ctx;
    ca_gates_t r = cell_gates_ready(&c->coa, in, out);
    if (r != CA_GATES_READY || in == 0)
        return r;
    return watched_gate_pop(c, in, in_words);
}

/* The words are logged first, in the same clock: cell_gate_put stays one function, with the agent's push in it. */
static void watched_gate_put(void *ctx, unsigned out, const uint32_t *out_words)
{
    emu_cell_t *c = ctx;
    emu_watch_write(c->watch, c->saved.now);
    cell_gate_put(ctx, out, out_words);
}

static int watched_cr_write(void *ctx, uint32_t index, uint32_t value)
{
    emu_cell_t *c = ctx;
    if (index == EMU_CR_MARK)
        emu_watch_mark(c->watch, value, c->saved.now);
    return emu_cell_cr_write(ctx, index, value);
}

const ca_port_ops_t emu_cell_watched_port = {
    .gate_take = watched_gate_take,
    .gate_put = watched_gate_put,
    .cr_read = emu_cell_cr_read,
    .cr_write = watched_cr_write,
    .event_sources = cell_event_sources,
};

