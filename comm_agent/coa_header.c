/* Street-sign routing: decoding the header words at the head of channels, allocating the next hop, and
 * consuming trailers where pathways end. */
#include "coa_header.h"

static bool names_this_cell(const coa_t *c, const coa_sign_t *s)
{
    return s->x == c->at.x && s->y == c->at.y;
}

/* The channel's pathway ends here: bind it to its sink. */
static void sink(coa_t *c, unsigned lc, const coa_sign_t *s, uint64_t now)
{
    switch (s->action) {
    case COA_SIGN_GATE:
        if (s->sink >= COA_NUM_GATES) {
            coa_raise(c, lc, "street sign on channel %u ends at gate %u, which does not exist", lc, s->sink);
            return;
        }
        if (c->gate_in_lc[s->sink] != COA_NONE && c->gate_in_lc[s->sink] != COA_EXPECT) {
            coa_raise(c, lc, "street sign on channel %u ends at gi%u, which is bound to channel %u", lc, s->sink,
                      c->gate_in_lc[s->sink]);
            return;
        }
        coa_lc_set_state(c, lc, COA_LC_ROUTED, now);
        coa_lc_set_route(c, lc, (coa_end_t){COA_END_GATE, 0, (uint8_t)s->sink}, now);
        break;
    case COA_SIGN_SPOOL:
        if (s->sink >= c->cfg.spools) {
            coa_raise(c, lc, "street sign on channel %u ends at spool %u, which does not exist", lc, s->sink);
            return;
        }
        coa_lc_set_state(c, lc, COA_LC_ROUTED, now);
        coa_lc_set_route(c, lc, (coa_end_t){COA_END_SPOOL, 0, (uint8_t)s->sink}, now);
        coa_spool_bind(c, s->sink, (uint8_t)lc);
        break;
    default:
        coa_lc_set_state(c, lc, COA_LC_ARRIVED, now);
        coa_lc_set_route(c, lc, (coa_end_t){COA_END_QUEUE, 0, 0}, now);
        c->arrivals[c->narrivals++] = (uint8_t)lc;
        break;
    }
}

/* Takes a channel of the neighbour in the travel direction from this channel's pool. */
static bool extend(coa_t *c, unsigned lc, uint64_t now)
{
    coa_lc_t *l = &c->lc[lc];
    unsigned d = l->travel_dir;
    if (d >= COA_NUM_DIRS) {
        coa_raise(c, lc, "the header on channel %u names no direction at its source (the first sign must turn)", lc);
        return false;
    }
    if (c->w.out[d] == NULL) {
        coa_raise(c, lc, "the header on channel %u heads %s, where this cell has no link", lc,
                  coa_dir_name((coa_dir_t)d));
        return false;
    }
    /* A program writes the pools and remote_free whole: a bit above the neighbour's channels names no channel
     * (its queue would be written past the end of its queues). */
    uint64_t channels = c->cfg.channels >= 64 ? ~0ull : coa_bit(c->cfg.channels) - 1u;
    uint64_t avail = c->link_pool[d][l->pool] & c->remote_free[d] & channels;
    if (avail == 0)
        return false; /* waits until a FREE comes back from the neighbour */
    unsigned next = (unsigned)__builtin_ctzll(avail);
    c->remote_free[d] &= ~coa_bit(next);
    coa_lc_set_state(c, lc, COA_LC_ROUTED, now);
    coa_lc_set_route(c, lc, (coa_end_t){COA_END_LINK, (uint8_t)d, (uint8_t)next}, now);
    l->open_pending = true;
    return true;
}

static void header_step(coa_t *c, unsigned lc, uint64_t now)
{
    coa_lc_t *l = &c->lc[lc];
    if (!coa_lc_head_tagged(c, lc)) {
        coa_raise(c, lc, "data word 0x%x on channel %u, whose pathway has no route yet (missing street sign)",
                  coa_lc_head(c, lc), lc);
        return;
    }
    coa_sign_t s;
    uint32_t w = coa_lc_head(c, lc);
    if (!coa_sign_decode(w, &s)) {
        coa_raise(c, lc, "tagged word 0x%x on channel %u is not a street sign", w, lc);
        return;
    }
    if (!l->setup_started) {
        l->setup_started = true;
        l->setup_done = now + c->cfg.setup_clocks;
    }
    if (now < l->setup_done)
        return;
    if (!names_this_cell(c, &s)) {
        if (extend(c, lc, now))
            l->setup_started = false; /* routed now (coa_lc_set_state, which also clears its blocked_lc bit) */
        else if (!c->fault.raised) {
            c->blocked_lc |= coa_bit(lc); /* until a channel may have become free */
            coa_note_header_work(c);
        }
        return;
    }
    coa_lc_pop(c, lc, NULL, now);
    l->setup_started = false;
    if (s.set_pool)
        l->pool = (uint8_t)s.pool;
    if (s.action > COA_SIGN_MY) {
        sink(c, lc, &s, now);
        return;
    }
    /* A turn: the next sign's decoding starts in this same clock. */
    l->travel_dir = (uint8_t)s.action;
    if (l->count > 0)
        header_step(c, lc, now);
}

/* A trailer at the head of a channel that ends here: the pathway is over. */
static void sink_tagged(coa_t *c, unsigned lc, uint64_t now)
{
    uint32_t w = coa_lc_head(c, lc);
    if (coa_word_kind(w) != COA_WORD_KIND_TRAILER) {
        coa_raise(c, lc, "tagged word 0x%x reached the end of the pathway on channel %u (expected a trailer)", w, lc);
        return;
    }
    coa_lc_t *l = &c->lc[lc];
    if (l->route.kind == COA_END_SPOOL && l->route.index < c->cfg.spools) {
        coa_spool_t *sp = &c->spool[l->route.index];
        if (sp->mode == COA_SPOOL_RECEIVE && sp->lc == lc) {
            coa_spool_set_mode(c, (unsigned)(sp - c->spool), COA_SPOOL_IDLE);
            sp->status |= COA_SPOOL_DONE | (sp->count > 0 ? COA_SPOOL_TRAILER : 0);
        }
    }
    coa_lc_thaw(c, lc, now); /* it may have waited for its receiver (coa_waits) */
    coa_lc_pop(c, lc, NULL, now);
    if (l->count != 0) {
        coa_raise(c, lc, "words follow the trailer on channel %u", lc);
        return;
    }
    coa_lc_release(c, lc, now);
}

/* The channels whose tagged head word sink_tagged would take. */
static bool at_sink_tagged(const coa_t *c, unsigned lc)
{
    const coa_lc_t *l = &c->lc[lc];
    return ((l->state == COA_LC_ROUTED && l->route.kind != COA_END_LINK) || l->state == COA_LC_ARRIVED) &&
           l->count > 0 && coa_lc_head_tagged(c, lc);
}

bool coa_headers_stuck(const coa_t *c)
{
    if (coa_headers_ready(c) != 0)
        return false;
    for (uint64_t m = coa_tagged_at_ends(c); m != 0; m &= m - 1)
        if (at_sink_tagged(c, (unsigned)__builtin_ctzll(m)))
            return false;
    return true;
}

/* Headers first, oldest first: when several wait at this cell for a free channel, the one that has waited
 * longest gets it, so two pathways that follow the same route never overtake each other (messages between
 * two cells arrive in order). Then trailers at sinks. */
void coa_headers(coa_t *c, uint64_t now)
{
    /* Only headers that can act this clock: one that found no free channel cannot get one before a channel
     * is freed (coa_unblock_headers empties blocked_lc), and nothing in this loop frees one. Sorting the
     * others alone keeps their order (the sort is stable), and under congestion most headers wait. header_lc
     * is the channels in state header, busy_lc those holding words. */
    uint64_t ready = coa_headers_ready(c);
    unsigned order[COA_MAX_CHANNELS];
    unsigned n = 0;
    for (uint64_t m = ready; m != 0; m &= m - 1) {
        unsigned lc = (unsigned)__builtin_ctzll(m);
        uint64_t since = c->lc[lc].setup_started ? c->lc[lc].setup_done : UINT64_MAX;
        unsigned at = n++;
        while (at > 0) {
            const coa_lc_t *prev = &c->lc[order[at - 1]];
            uint64_t prev_since = prev->setup_started ? prev->setup_done : UINT64_MAX;
            if (prev_since <= since)
                break;
            order[at] = order[at - 1];
            at--;
        }
        order[at] = lc;
    }
    for (unsigned i = 0; i < n; i++)
        header_step(c, order[i], now);

    /* Only channels with a tagged word that may be a trailer at a sink. */
    for (uint64_t m = coa_tagged_at_ends(c); m != 0; m &= m - 1) {
        unsigned lc = (unsigned)__builtin_ctzll(m);
        if (at_sink_tagged(c, lc))
            sink_tagged(c, lc, now);
    }
}
