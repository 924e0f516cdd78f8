/* Headers (coa_header.c): street signs decoded, channels allocated, pathways built and torn down. */
#ifndef COA_HEADER_H
#define COA_HEADER_H

#include "coa_channel.h"

/* The headers that may act: holding words, and not waiting for a free channel (blocked_lc). */
static inline uint64_t coa_headers_ready(const coa_t *c) { return c->busy_lc & c->header_lc & ~c->blocked_lc; }
/* The channels whose tagged words are at a pathway's end, not signs or trailers passing through to a link. */
static inline uint64_t coa_tagged_at_ends(const coa_t *c)
{
    return c->busy_lc & c->tagged_lc & ~c->linked_lc & ~c->header_lc;
}
/* Only when one of the two above is not empty: otherwise it has nothing to do. */
void coa_headers(coa_t *c, uint64_t now);
/* Whether coa_headers would do nothing, now or later, before a channel is freed: every header found no free
 * channel, and no tagged word waits at a sink. */
bool coa_headers_stuck(const coa_t *c);

#endif
