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

/* Both input gates' pops, for a bundle that reads gi0 and gi1 (a forwarding core's, at every word), bound to two
 * channels: the agent's books (the frozen and stuck masks, moved) once for both. The same effects as the two pops
 * one after the other, since each touches only its own channel besides those masks and counts. */
static inline void coa_gate_in_pop_both(coa_t *c, uint32_t *words, uint64_t now)
{
    unsigned lc0 = c->gate_in_lc[0], lc1 = c->gate_in_lc[1];
    uint64_t both = coa_bit(lc0) | coa_bit(lc1);
    if (c->frozen_lc & both) {
        coa_lc_thaw(c, lc0, now);
        coa_lc_thaw(c, lc1, now);
    }
    words[0] = coa_lc_pop_books(c, lc0, now);
    words[1] = coa_lc_pop_books(c, lc1, now);
    c->moved += 2;
    if (c->stuck_lcs & both) {
        coa_spools_unstick(c, lc0);
        coa_spools_unstick(c, lc1);
    }
    coa_lc_credit_source(c, lc0, now);
    coa_lc_credit_source(c, lc1, now);
}

/* coa_gate_out_push when no word written to an output gate is to be tagged (tag_next is 0), as for all but the few
 * words of a header or trailer: a bundle's pushes then have no tag to look at, clear or end a pathway with. */
static inline void coa_gate_out_push_untagged(coa_t *c, unsigned g, uint32_t word, uint64_t now)
{
    unsigned lc = c->gate_out_lc[g];
    coa_lc_push(c, lc, word, false, now);
    coa_lc_note_written(c, lc, word, false, now);
}

/* Both output gates' untagged pushes, bound to two channels, as coa_gate_in_pop_both. */
static inline void coa_gate_out_push_both_untagged(coa_t *c, const uint32_t *words, uint64_t now)
{
    unsigned lc0 = c->gate_out_lc[0], lc1 = c->gate_out_lc[1];
    coa_lc_push_books(c, lc0, words[0], false, now);
    coa_lc_note_written(c, lc0, words[0], false, now);
    coa_lc_push_books(c, lc1, words[1], false, now);
    coa_lc_note_written(c, lc1, words[1], false, now);
    uint64_t both = coa_bit(lc0) | coa_bit(lc1);
    c->busy_lc |= both;
    c->moved += 2;
    if (c->stuck_lcs & both) {
        coa_spools_unstick(c, lc0);
        coa_spools_unstick(c, lc1);
    }
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
