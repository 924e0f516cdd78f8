/* The gates' words, for the cores (a CA's port in emu/cell.c, a traffic generator): inline, since a bundle that
 * forwards a word through the gates costs a pop and a push at every clock, and a call each cost as much as the
 * queue's own work. Only when the gate's status (coa.h) said ready. */
#ifndef COA_GATE_H
#define COA_GATE_H

#include "coa_channel.h"

static inline uint32_t coa_gate_in_pop(coa_t *c, unsigned g, uint64_t now)
{
    unsigned lc = c->gate_in_lc[g];
    coa_lc_thaw(c, lc, now);                /* it may have waited for the program (coa_waits) */
    return coa_lc_pop_untagged(c, lc, now); /* ready: its head is not a trailer */
}

/* coa_gate_out_push when no word written to an output gate is to be tagged (tag_next is 0), as for all but the few
 * words of a header or trailer: a bundle's pushes then have no tag to look at, clear or end a pathway with. */
static inline void coa_gate_out_push_untagged(coa_t *c, unsigned g, uint32_t word, uint64_t now)
{
    unsigned lc = c->gate_out_lc[g];
    coa_lc_push(c, lc, word, false, now);
    coa_lc_note_written(c, lc, word, false, now);
}

static inline void coa_gate_out_push(coa_t *c, unsigned g, uint32_t word, uint64_t now)
{
    unsigned lc = c->gate_out_lc[g];
    bool tag = (c->tag_next >> g & 1u) != 0;
    c->tag_next &= (uint8_t) ~(1u << g);
    coa_lc_push(c, lc, word, tag, now);
    coa_lc_note_written(c, lc, word, tag, now);
    /* Writing the trailer ends the program's use of the pathway. */
    if (tag && coa_word_kind(word) == COA_WORD_KIND_TRAILER)
        c->gate_out_lc[g] = COA_NONE;
}

#endif
