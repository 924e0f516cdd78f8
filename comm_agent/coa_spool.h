/* Spools and the pattern loader (coa_spool.c): words between memory and channels in the background. */
#ifndef COA_SPOOL_H
#define COA_SPOOL_H

#include "coa_channel.h"

/* Whether no spool, nor the pattern loader, could move a word whatever the memory port does: each active
 * spool waits on its channel (room, data, or a pathway), which only an arrival or the CA changes. */
bool coa_spools_stuck(const coa_t *c);
/* Whether addr is a word's, at or above the guard and in memory (mem_first, mem_span): an address below the first
 * wraps above the span. */
static inline bool coa_mem_ok(const coa_t *c, uint32_t addr)
{
    return (addr & 3u) == 0 && addr - c->w.mem_first <= c->w.mem_span;
}

#endif
