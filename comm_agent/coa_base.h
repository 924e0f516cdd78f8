/*
 * What every layer of the communication agent uses: bit helpers, faults, posting a word or a control message
 * on an outgoing line, and the spools' mode bookkeeping. The layers above, each a header and a file:
 * channels (coa_channel), then links, spools and headers (coa_link, coa_spool, coa_header), and the agent's
 * step and control registers on top (coa.c, coa_cr.c). No file includes a header above its own layer.
 */
#ifndef COA_BASE_H
#define COA_BASE_H

#include <stdio.h>

#include "coa.h"

static inline uint64_t coa_bit(unsigned i) { return 1ull << i; }

/* Lowest set bit after bit `last` (0..63) in mask, which is not empty, wrapping round. The bits above last are ~1
 * shifted by it: no test of a shift by 64, as `at or after last + 1` would need. */
static inline unsigned coa_next_bit_after(uint64_t mask, unsigned last)
{
    uint64_t upper = mask & (~1ull << (last & 63u));
    return (unsigned)__builtin_ctzll(upper ? upper : mask);
}

/* A fault of the agent (defined in coa_channel.c). */
void coa_raise(coa_t *c, uint32_t addr, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* --- outgoing lines --- */
/* The slot of the outgoing line a message sent now arrives in (*slot), and whether this is the line's first post
 * this clock: its slot is then empty (see coa_line_t), so a post there stores its mask without reading it, a read
 * that on another thread waits for the receiver's cache line, and then calls coa_out_wake. The line has one writer,
 * this agent, so flipping the slot's bit in its books is a plain store (an atomic one, for the receiver's thread),
 * not a locked one. */
static inline bool coa_out_post(coa_t *c, coa_line_t *line, uint64_t now, coa_slot_t **slot)
{
    uint64_t at = now + COA_KEY_OF(c, hop_latency);
    unsigned k = (unsigned)at & COA_LINE_MASK(line);
    *slot = &line->slots[k];
    /* Most posts are a clock's first to their line (a bundle's two credits, a link's word and its pop's credit go
     * to different lines): told so, GCC lays the first post's books in line (msgpass 8x8 -0.18%, ConSet -0.11%). */
    if (__builtin_expect(line->post_clock == now, 0))
        return false;
    /* The new books in a local before any store: c's fields may alias the line's, which would be read again. */
    uint64_t nposted = line->nposted ^ coa_bit(k);
    line->post_clock = now;
    line->nposted = nposted;
    atomic_store_explicit(line->posted, nposted, memory_order_relaxed);
    c->out_pending_until = at;
    return true;
}
/* After a first post to the line (coa_out_post), once the slot is written: no value of the post is then live
 * across the call, which would keep the common path's in the stack. A later post of this clock to this line finds
 * its bit already flipped: a receiver that went dormant sees it (emu/schedule.c), and one already dormant was
 * woken here. */
static inline void coa_out_wake(coa_line_t *line)
{
    if (atomic_load_explicit(line->receiver_dormant, memory_order_relaxed))
        line->wake(line->receiver);
}
/* A post that writes its slot itself: the link's word. Its wake comes before the flit's stores, since the flit's
 * values are live after them anyway (waking after them cost 0.4% more in msgpass 8x8). */
static inline coa_slot_t *coa_out_slot(coa_t *c, coa_line_t *line, uint64_t now)
{
    coa_slot_t *s;
    if (coa_out_post(c, line, now, &s))
        coa_out_wake(line);
    return s;
}
/* A second credit of channel lc in this clock: a header's street signs (coa_slot_t). Out of line (coa_channel.c),
 * so that the common path does not compute the count's index ahead of its test, as GCC did. */
void coa_send_more(coa_slot_t *s, unsigned lc) __attribute__((cold));
/* A word left channel lc, fed from the neighbour in direction dir: its channel may send one more. */
static inline void coa_send_credit(coa_t *c, coa_dir_t dir, unsigned lc, uint64_t now)
{
    coa_line_t *line = c->w.out[dir];
    if (line == NULL)
        return;
    coa_slot_t *s;
    uint64_t bit = coa_bit(lc & (COA_MAX_CHANNELS - 1u));
    if (coa_out_post(c, line, now, &s)) {
        s->credit_lc = bit; /* the slot was empty */
        coa_out_wake(line);
    } else if ((s->credit_lc & bit) == 0) {
        s->credit_lc |= bit;
    } else { /* a second word of the channel in this clock */
        coa_send_more(s, lc);
    }
}
/* Channel lc, which the neighbour in direction dir allocated, is free again. */
static inline void coa_send_free(coa_t *c, coa_dir_t dir, unsigned lc, uint64_t now)
{
    coa_line_t *line = c->w.out[dir];
    if (line == NULL)
        return;
    coa_slot_t *s;
    uint64_t bit = coa_bit(lc & (COA_MAX_CHANNELS - 1u));
    if (coa_out_post(c, line, now, &s)) {
        s->free_lc = bit; /* the slot was empty */
        coa_out_wake(line);
    } else {
        s->free_lc |= bit;
    }
}

/* Channel lc's wait may change from now on: the clocks it waited frozen (coa_account_waits) are counted. Called
 * wherever a frozen channel's reason may end: its state, route or credits change (coa_lc_set_state,
 * coa_lc_set_route, a credit arriving or written), a header may find a free channel (coa_unblock_headers), the
 * agent falls asleep or wakes, and a pop where its pathway ends (a gate, a receiving spool, a trailer at its sink)
 * for one that waited for its receiver. No other pop finds a channel frozen: a link needs a credit to send it, and
 * a blocked header is not stepped. */
static inline void coa_lc_thaw(coa_t *c, unsigned lc, uint64_t now)
{
    if (c->frozen_lc & coa_bit(lc)) {
        coa_lc_t *l = &c->lc[lc];
        c->lc_stats[lc].wait_clocks[l->last_wait % COA_WAIT_COUNT] += coa_lc_frozen_clocks(c, lc, now);
        c->frozen_lc &= ~coa_bit(lc);
    }
}
static inline void coa_thaw(coa_t *c, uint64_t mask, uint64_t now)
{
    for (uint64_t m = mask & c->frozen_lc; m != 0; m &= m - 1)
        coa_lc_thaw(c, (unsigned)__builtin_ctzll(m), now);
}

/* Every change of a channel's credits goes through here, which keeps credit_lc, but the two on the word path in
 * coa_link.c, which keep the bit themselves: a credit's arrival (take_credit) and a word's send. */
static inline void coa_lc_set_credits(coa_t *c, unsigned lc, unsigned credits)
{
    c->lc[lc].credits = (uint16_t)credits;
    if (credits > 0)
        c->credit_lc |= coa_bit(lc);
    else
        c->credit_lc &= ~coa_bit(lc);
}

/* Channel lc changed (a word in or out, its state or route): the spools stuck on it may move again. */
static inline void coa_spools_unstick(coa_t *c, unsigned lc)
{
    if (c->stuck_lcs & coa_bit(lc)) {
        c->spools_stuck &= ~c->stuck_on[lc];
        c->spools_ready |= c->stuck_on[lc] & c->spools_active; /* coa_note_spools_ready's, for these spools */
        c->stuck_lcs &= ~coa_bit(lc);
    }
}
/* Binds spool s to channel lc (COA_NONE: none yet): it may move again. */
static inline void coa_spool_bind(coa_t *c, unsigned s, uint8_t lc)
{
    c->spool[s].lc = lc;
    c->spools_stuck &= ~(1u << s);
    coa_note_spools_ready(c);
}

/* A neighbour's channel may have become free: every header that waits for one may try again. */
static inline void coa_unblock_headers(coa_t *c, uint64_t now)
{
    coa_thaw(c, c->blocked_lc, now);
    c->blocked_lc = 0;
    coa_note_header_work(c);
}

/* The spools' mode and the events their ends raise. */
static inline void coa_spool_set_mode(coa_t *c, unsigned s, coa_spool_mode_t mode)
{
    _Static_assert(COA_MAX_SPOOLS == 32, "spool masks are 32 bits");
    s &= COA_MAX_SPOOLS - 1u; /* always in range already; this tells the compiler so */
    if (mode == COA_SPOOL_IDLE && c->spool[s].mode != COA_SPOOL_IDLE)
        c->spool_events |= 1u << s; /* finished: an event for the CA */
    c->spools_stuck &= ~(1u << s);
    c->spool[s].mode = (uint8_t)mode;
    if (mode == COA_SPOOL_IDLE)
        c->spools_active &= ~(1u << s);
    else
        c->spools_active |= 1u << s;
    coa_note_spools_ready(c);
}
#endif
