/* Links (coa_link.c): the words and control messages between neighbours, one word per link per turn. */
#ifndef COA_LINK_H
#define COA_LINK_H

#include "coa_channel.h"

/* Whether no channel could go out on any link, now or later, before a credit arrives: every channel routed
 * to a link and holding a word lacks a credit or is not yet routed. */
bool coa_links_stuck(const coa_t *c);

/* Of the candidates for link d (routed there and holding a word: busy_lc & link_lc[d], where link_lc[d] is
 * exactly the channels whose route is link d, as coa_lc_set_route keeps it), those that could send now: in
 * state routed, with a credit (masks kept by coa_lc_set_state and coa_lc_set_credits). */
static inline uint64_t coa_links_eligible(const coa_t *c, uint64_t candidates)
{
    return candidates & c->routed_lc & c->credit_lc;
}

/* The scheduler itself: a word per free link, round robin. Inline for coa_spools, which goes on to it with no call of
 * its own (coa.h, coa_after_ca), and for coa_links_schedule, the way there when no spool moves. */
static inline void coa_links_send(coa_t *c, uint64_t now, uint64_t sendable)
{
    /* The channels that could send now, whatever their link (coa_links_sendable), then each link's share of them. */
#pragma GCC unroll 4
    for (unsigned d = 0; d < COA_NUM_DIRS; d++) {
        uint64_t mask = sendable & c->link_lc[d];
        if (mask == 0 || now < c->link_free_at[d] || c->w.out[d] == NULL)
            continue;
        /* Round robin: the first eligible channel after the one served last (a channel: coa_state_check). */
        unsigned lc = coa_next_bit_after(mask, c->rr[d]);
        coa_lc_t *l = &c->lc[lc];
        bool tag;
        uint32_t w = coa_lc_pop(c, lc, &tag, now);
        coa_slot_t *s = coa_out_slot(c, c->w.out[d], now);
        s->has_flit = true;
        s->flit = (coa_flit_t){
            .word = w,
            .tag = tag,
            .dst_lc = l->route.index,
            .src_lc = (uint8_t)lc,
            .open = l->open_pending,
            .pool = l->pool,
            .travel_dir = l->travel_dir,
        };
        l->open_pending = false;
        if (--l->credits == 0) /* it had one to send (eligible): the bit is set, and goes with the last */
            c->credit_lc &= ~coa_bit(lc);
        c->rr[d] = (uint8_t)lc;
        c->link_last_lc[d] = (uint8_t)lc;
        c->link_free_at[d] = now + COA_KEY_OF(c, link_clocks);
        c->link_stats[d].words++;
        c->link_stats[d].busy_clocks += COA_KEY_OF(c, link_clocks);
        if (tag && coa_word_kind(w) == COA_WORD_KIND_TRAILER) {
            if (l->count != 0) {
                coa_raise(c, lc, "words follow the trailer on channel %u", lc);
                continue;
            }
            /* The channel is free once the credits of every word it sent are back. */
            l->trailer_sent = true;
            coa_lc_set_state(c, lc, COA_LC_DRAINING, now);
            if (l->credits == COA_KEY_OF(c, queue_depth))
                coa_lc_release(c, lc, now);
        }
    }
}

#endif
