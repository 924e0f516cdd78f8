/* Internals shared by the files of comm_agent/. */
#ifndef COA_INTERNAL_H
#define COA_INTERNAL_H

#include <stdio.h>

#include "coa.h"

static inline uint64_t coa_bit(unsigned i) { return 1ull << i; }

/* Lowest set bit at or after `from` in mask, wrapping round; -1 when mask is empty. */
static inline int coa_next_bit(uint64_t mask, unsigned from)
{
    if (mask == 0)
        return -1;
    uint64_t upper = from < 64 ? mask & ~(coa_bit(from) - 1u) : 0;
    return __builtin_ctzll(upper ? upper : mask);
}

/* --- channels (coa_channel.c) --- */
void coa_lc_push(coa_t *c, unsigned lc, uint32_t word, bool tag, uint64_t now);
/* Pops the head and returns the credit to whoever feeds the channel. */
uint32_t coa_lc_pop(coa_t *c, unsigned lc, bool *tag, uint64_t now);
static inline bool coa_lc_head_tagged(const coa_t *c, unsigned lc)
{
    return c->qtag[lc * c->cfg.queue_depth + c->lc[lc].head] != 0;
}
static inline uint32_t coa_lc_head(const coa_t *c, unsigned lc)
{
    return c->qdata[lc * c->cfg.queue_depth + c->lc[lc].head];
}
/* Frees a channel: tells the upstream allocator, unbinds gates and spools, keeps the statistics. */
void coa_lc_release(coa_t *c, unsigned lc, uint64_t now);
/* Empties and frees a channel at once, words and all (context switch, reset). */
void coa_lc_clear(coa_t *c, unsigned lc, uint64_t now);
/* Sets the route and keeps the gate and spool bindings in step with it. */
void coa_lc_set_route(coa_t *c, unsigned lc, coa_end_t route, uint64_t now);
void coa_lc_set_source(coa_t *c, unsigned lc, coa_end_t source);
/* Settles the time-weighted occupancy and the "no data" time of routed channels, at every change. Inline:
 * every word pushed and popped comes through here. */
static inline void coa_lc_note_state(coa_t *c, unsigned lc, uint64_t now)
{
    coa_lc_t *l = &c->lc[lc];
    uint64_t dt = now - l->stats_since;
    if (dt > 0) {
        l->stats.occupancy_sum += (uint64_t)l->count * dt;
        if (l->count == 0 && l->state == COA_LC_ROUTED)
            l->stats.wait_clocks[COA_WAIT_NO_DATA] += dt;
        l->stats_since = now;
    }
}
/* Every state change goes through here: it settles the statistics and keeps header_lc in step. */
void coa_lc_set_state(coa_t *c, unsigned lc, coa_lc_state_t st, uint64_t now);
void coa_raise(coa_t *c, uint32_t addr, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Why a channel holding words did not move one now (coa_lc_wait), inline for the per-clock accounting. */
static inline coa_wait_t coa_lc_wait_now(const coa_t *c, unsigned lc, uint64_t now)
{
    const coa_lc_t *l = &c->lc[lc];
    if (l->state == COA_LC_FREE || l->state == COA_LC_DRAINING)
        return COA_WAIT_NONE;
    if (l->count == 0)
        return l->state == COA_LC_ROUTED || l->state == COA_LC_HEADER ? COA_WAIT_NO_DATA : COA_WAIT_NONE;
    if (c->asleep)
        return COA_WAIT_ASLEEP;
    if (l->state == COA_LC_HEADER)
        return !l->setup_started || now < l->setup_done ? COA_WAIT_SETUP : COA_WAIT_NO_CHANNEL;
    if (l->state == COA_LC_ARRIVED)
        return COA_WAIT_RECEIVER;
    switch (l->route.kind) {
    case COA_END_LINK:
        if (l->credits == 0)
            return COA_WAIT_NO_SPACE;
        if (l->moved_at == now || (c->link_free_at[l->route.dir] > now && c->link_last_lc[l->route.dir] == lc))
            return COA_WAIT_NONE;
        return COA_WAIT_LOST_TURN;
    case COA_END_GATE:
    case COA_END_SPOOL:
    case COA_END_QUEUE: return l->moved_at == now ? COA_WAIT_NONE : COA_WAIT_RECEIVER;
    default: return COA_WAIT_NONE;
    }
}
void coa_account_waits(coa_t *c, uint64_t now);

/* --- links (coa_link.c) --- */
/* The slot of the outgoing line a message sent now arrives in. The line has one writer, this agent, so its
 * count of posted slots is a plain add (an atomic store, for the receiver's thread), not a locked one. */
static inline coa_slot_t *coa_out_slot(coa_t *c, coa_dir_t dir, uint64_t now)
{
    coa_line_t *line = c->out[dir];
    c->out_pending_until = now + c->cfg.hop_latency;
    coa_slot_t *s = &line->slots[(now + c->cfg.hop_latency) & (line->nslots - 1u)];
    if (!s->has_flit && s->nctrl == 0) {
        atomic_store_explicit(&line->posted, atomic_load_explicit(&line->posted, memory_order_relaxed) + 1,
                              memory_order_relaxed);
        if (line->receiver_dormant != NULL && atomic_load_explicit(line->receiver_dormant, memory_order_relaxed))
            line->wake(line->receiver);
    }
    return s;
}
static inline void coa_send_ctrl(coa_t *c, coa_dir_t dir, coa_ctrl_kind_t kind, unsigned lc, uint64_t now)
{
    if (c->out[dir] == NULL)
        return;
    coa_slot_t *s = coa_out_slot(c, dir, now);
    /* Capacity is two messages per channel: a channel pops at most one word and frees at most once a clock. */
    s->ctrl[s->nctrl++] = (coa_ctrl_t){(uint8_t)kind, (uint8_t)lc};
}
void coa_links_schedule(coa_t *c, uint64_t now);

/* --- headers (coa_header.c) --- */
void coa_headers(coa_t *c, uint64_t now);

/* --- spools and the pattern loader (coa_spool.c) --- */
void coa_spools(coa_t *c, uint64_t now, bool mem_used);
static inline void coa_spool_set_mode(coa_t *c, unsigned s, coa_spool_mode_t mode)
{
    _Static_assert(COA_MAX_SPOOLS == 32, "spool masks are 32 bits");
    s &= COA_MAX_SPOOLS - 1u; /* always in range already; this tells the compiler so */
    if (mode == COA_SPOOL_IDLE && c->spool[s].mode != COA_SPOOL_IDLE)
        c->spool_events |= 1u << s; /* finished: an event for the CA */
    c->spool[s].mode = (uint8_t)mode;
    if (mode == COA_SPOOL_IDLE)
        c->spools_active &= ~(1u << s);
    else
        c->spools_active |= 1u << s;
}
bool coa_mem_ok(const coa_t *c, uint32_t addr);

#endif
