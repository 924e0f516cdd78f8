/* Spools and the pattern loader (coa_spool.c): words between memory and channels in the background. */
#ifndef COA_SPOOL_H
#define COA_SPOOL_H

#include "coa_channel.h"

/* Whether coa_spools may move a word this clock: the memory port free (mem_used: the CA took it) and the pattern
 * loader running, or an awake agent with an active spool not stuck on its channel. */
static inline bool coa_spools_may_move(const coa_t *c, bool mem_used)
{
    return !mem_used && (c->loading || (!c->asleep && (c->spools_active & ~c->spools_stuck) != 0));
}
/* The pattern loader, then the spools in turn, for the clock's one memory word. Only when coa_spools_may_move. */
void coa_spools(coa_t *c, uint64_t now);
/* Whether no spool, nor the pattern loader, could move a word whatever the memory port does: each active
 * spool waits on its channel (room, data, or a pathway), which only an arrival or the CA changes. */
bool coa_spools_stuck(const coa_t *c);
static inline bool coa_mem_ok(const coa_t *c, uint32_t addr)
{
    return (addr & 3u) == 0 && addr >= c->w.mem_guard && addr <= c->w.mem_bytes - 4u;
}

#endif
