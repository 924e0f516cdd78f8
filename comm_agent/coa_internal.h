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
void coa_lc_note_state(coa_t *c, unsigned lc, uint64_t now); /* settles the time-weighted statistics */
/* Every state change goes through here: it settles the statistics and keeps header_lc in step. */
void coa_lc_set_state(coa_t *c, unsigned lc, coa_lc_state_t st, uint64_t now);
void coa_raise(coa_t *c, uint32_t addr, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void coa_account_waits(coa_t *c, uint64_t now);

/* --- links (coa_link.c) --- */
void coa_send_ctrl(coa_t *c, coa_dir_t dir, coa_ctrl_kind_t kind, unsigned lc, uint64_t now);
void coa_links_deliver(coa_t *c, uint64_t now);
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
