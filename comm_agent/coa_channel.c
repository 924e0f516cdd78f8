/* Logical channels: their queues, credits back upstream, release, and the per-channel statistics. */
#include <stdarg.h>
#include <string.h>

#include "coa_channel.h"

void coa_send_more(coa_slot_t *s, unsigned lc)
{
    s->more[lc & (COA_MAX_CHANNELS - 1u)]++;
    s->more_lc |= coa_bit(lc & (COA_MAX_CHANNELS - 1u));
}

void coa_raise(coa_t *c, uint32_t addr, const char *fmt, ...)
{
    if (c->fault.raised)
        return;
    c->fault.raised = true;
    c->fault.addr = addr;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->fault.detail, sizeof c->fault.detail, fmt, ap);
    va_end(ap);
}

void coa_lc_set_state(coa_t *c, unsigned lc, coa_lc_state_t st, uint64_t now)
{
    /* Always in range already; this tells the compiler so (with the sanitizer's checks of the masks' shifts, it
     * otherwise sees a path on which lc is 64). */
    lc &= COA_MAX_CHANNELS - 1u;
    coa_lc_note_state(c, lc, now);
    coa_lc_thaw(c, lc, now);
    coa_spools_unstick(c, lc);
    c->lc[lc].state = (uint8_t)st;
    c->blocked_lc &= ~coa_bit(lc);
    if (st == COA_LC_HEADER)
        c->header_lc |= coa_bit(lc);
    else
        c->header_lc &= ~coa_bit(lc);
    if (st == COA_LC_ROUTED)
        c->routed_lc |= coa_bit(lc);
    else
        c->routed_lc &= ~coa_bit(lc);
    coa_note_header_work(c);
}

void coa_lc_set_route(coa_t *c, unsigned lc, coa_end_t route, uint64_t now)
{
    coa_lc_t *l = &c->lc[lc];
    coa_lc_note_state(c, lc, now);
    coa_lc_thaw(c, lc, now);
    coa_spools_unstick(c, lc);
    if (l->route.kind == COA_END_GATE && l->route.index < COA_NUM_GATES && c->gate_in_lc[l->route.index] == lc)
        c->gate_in_lc[l->route.index] = COA_NONE;
    if (l->route.kind == COA_END_SPOOL && l->route.index < c->cfg.spools && c->spool[l->route.index].lc == lc &&
        c->spool[l->route.index].mode == COA_SPOOL_RECEIVE)
        coa_spool_bind(c, l->route.index, COA_NONE);
    if (l->route.kind == COA_END_LINK)
        c->link_lc[l->route.dir] &= ~coa_bit(lc);
    l->route = route;
    if (route.kind == COA_END_LINK)
        c->link_lc[route.dir] |= coa_bit(lc);
    c->linked_lc = c->link_lc[0] | c->link_lc[1] | c->link_lc[2] | c->link_lc[3];
    coa_note_header_work(c);
    if (route.kind == COA_END_GATE && route.index < COA_NUM_GATES)
        c->gate_in_lc[route.index] = (uint8_t)lc;
    if (route.kind == COA_END_LINK)
        coa_lc_set_credits(c, lc, c->cfg.queue_depth);
}

void coa_lc_set_source(coa_t *c, unsigned lc, coa_end_t source)
{
    coa_lc_t *l = &c->lc[lc];
    if (l->source.kind == COA_END_GATE && l->source.index < COA_NUM_GATES && c->gate_out_lc[l->source.index] == lc)
        c->gate_out_lc[l->source.index] = COA_NONE;
    l->source = source;
    if (source.kind == COA_END_GATE && source.index < COA_NUM_GATES)
        c->gate_out_lc[source.index] = (uint8_t)lc;
}

static void unbind(coa_t *c, unsigned lc, uint64_t now)
{
    coa_lc_set_route(c, lc, (coa_end_t){COA_END_NONE, 0, 0}, now);
    coa_lc_set_source(c, lc, (coa_end_t){COA_END_NONE, 0, 0});
    for (uint32_t m = c->spools_active; m != 0; m &= m - 1) {
        unsigned s = (unsigned)__builtin_ctz(m);
        if (c->spool[s].lc == lc) {
            coa_spool_set_mode(c, s, COA_SPOOL_IDLE);
            c->spool[s].status |= COA_SPOOL_DONE;
        }
    }
    for (unsigned i = 0; i < c->narrivals; i++)
        if (c->arrivals[i] == lc) {
            memmove(&c->arrivals[i], &c->arrivals[i + 1], c->narrivals - i - 1);
            c->narrivals--;
            break;
        }
}

void coa_lc_release(coa_t *c, unsigned lc, uint64_t now)
{
    coa_lc_t *l = &c->lc[lc];
    if (l->owned_by_link && l->source.kind == COA_END_LINK)
        coa_send_free(c, (coa_dir_t)l->source.dir, lc, now);
    unbind(c, lc, now);
    coa_lc_set_state(c, lc, COA_LC_FREE, now);
    l->owned_by_link = false;
    l->trailer_sent = false;
    l->open_pending = false;
    l->setup_started = false;
    l->header_out = false;
    coa_lc_set_credits(c, lc, 0);
    l->travel_dir = COA_NONE;
    l->pool = 0;
}

void coa_lc_clear(coa_t *c, unsigned lc, uint64_t now)
{
    coa_lc_t *l = &c->lc[lc];
    coa_lc_note_state(c, lc, now);
    l->occupancy_base = coa_lc_occupancy_sum(l, now); /* its words leave now */
    l->head = 0;
    l->count = 0;
    l->ntagged = 0;
    c->busy_lc &= ~coa_bit(lc);
    c->tagged_lc &= ~coa_bit(lc);
    coa_note_header_work(c);
    unbind(c, lc, now);
    coa_lc_set_state(c, lc, COA_LC_FREE, now);
    l->owned_by_link = false;
    l->trailer_sent = false;
    l->open_pending = false;
    l->setup_started = false;
    l->header_out = false;
    coa_lc_set_credits(c, lc, 0);
    l->travel_dir = COA_NONE;
    l->pool = 0;
}

coa_wait_t coa_lc_wait(const coa_t *c, unsigned lc, uint64_t now)
{
    /* A channel that moved a word in this clock did not wait in it, whatever holds it up now: as the books count
     * it (coa_account_waits). */
    const coa_lc_t *l = &c->lc[lc];
    if (l->count > 0 && l->moved_at == now && l->state != COA_LC_FREE && l->state != COA_LC_DRAINING)
        return COA_WAIT_NONE;
    return coa_lc_wait_now(c, lc, now);
}

void coa_account_each(coa_t *c, uint64_t m, uint64_t now)
{
    for (; m != 0; m &= m - 1) {
        unsigned lc = (unsigned)__builtin_ctzll(m);
        coa_lc_t *l = &c->lc[lc];
        coa_wait_t w = l->moved_at == now ? COA_WAIT_NONE : coa_lc_wait_now(c, lc, now);
        l->last_wait = (uint8_t)w;
        if (w != COA_WAIT_NONE)
            c->lc_stats[lc].wait_clocks[w]++;
    }
}

void coa_account_waits(coa_t *c, uint64_t now)
{
    coa_waits(c, now);
}

void coa_account_stuck_waits(coa_t *c, uint64_t from, uint64_t n)
{
    if (n == 0)
        return;
    /* The frozen ones count on their own. */
    for (uint64_t m = c->busy_lc & ~c->frozen_lc; m != 0; m &= m - 1) {
        unsigned lc = (unsigned)__builtin_ctzll(m);
        coa_wait_t w = coa_lc_wait_now(c, lc, from);
        c->lc[lc].last_wait = (uint8_t)w;
        if (w != COA_WAIT_NONE)
            c->lc_stats[lc].wait_clocks[w] += n;
    }
}

uint32_t coa_lc_peek(const coa_t *c, unsigned lc, unsigned i, bool *tag)
{
    const coa_lc_t *l = &c->lc[lc];
    unsigned depth = c->cfg.queue_depth;
    if (i >= l->count) {
        if (tag != NULL)
            *tag = false;
        return 0;
    }
    unsigned at = (l->head + i) % depth;
    if (tag != NULL)
        *tag = c->w.qtag[lc * depth + at] != 0;
    return c->w.qdata[lc * depth + at];
}

const char *coa_wait_name(coa_wait_t w)
{
    static const char *const names[] = {
#define X(id, name) name,
        COA_WAITS(X)
#undef X
    };
    return (size_t)w < sizeof names / sizeof names[0] ? names[w] : "?";
}

const char *coa_lc_state_name(coa_lc_state_t s)
{
    static const char *const names[] = {
#define X(id, name) name,
        COA_LC_STATES(X)
#undef X
    };
    return (size_t)s < sizeof names / sizeof names[0] ? names[s] : "?";
}
