/* The control registers: every channel's state readable, forwarding entries writable, sleep and wake,
 * pattern loading, gate bindings, pools and spools. */
#include "coa_cr.h"

#include "coa_spool.h"

static uint32_t lo32(uint64_t v) { return (uint32_t)v; }
static uint32_t hi32(uint64_t v) { return (uint32_t)(v >> 32); }
static void set_lo(uint64_t *v, uint32_t w) { *v = (*v & ~0xffffffffull) | w; }
static void set_hi(uint64_t *v, uint32_t w) { *v = (*v & 0xffffffffull) | (uint64_t)w << 32; }

static uint64_t channel_mask(const coa_t *c)
{
    return c->cfg.channels >= 64 ? ~0ull : coa_bit(c->cfg.channels) - 1u;
}

static int alloc_local(coa_t *c, uint64_t now)
{
    for (uint64_t m = c->local_pool & channel_mask(c); m != 0; m &= m - 1) {
        unsigned lc = (unsigned)__builtin_ctzll(m);
        if (c->lc[lc].state == COA_LC_FREE && c->lc[lc].count == 0) {
            coa_lc_set_state(c, lc, COA_LC_HEADER, now);
            c->lc_stats[lc].pathways++;
            return (int)lc;
        }
    }
    return -1;
}

static int lc_read(const coa_t *c, unsigned lc, unsigned f, uint32_t *v, uint64_t now)
{
    const coa_lc_t *l = &c->lc[lc];
    switch (f) {
    case COA_LC_F_STATE: *v = l->state; return 0;
    case COA_LC_F_ROUTE: *v = coa_end_encode(l->route); return 0;
    case COA_LC_F_SOURCE: *v = coa_end_encode(l->source); return 0;
    case COA_LC_F_COUNT: *v = l->count; return 0;
    case COA_LC_F_CREDITS: *v = l->credits; return 0;
    case COA_LC_F_POOL: *v = l->pool; return 0;
    case COA_LC_F_HEAD: *v = coa_lc_peek(c, lc, 0, NULL); return 0;
    case COA_LC_F_WAIT: *v = coa_lc_wait(c, lc, now); return 0;
    default: return -1;
    }
}

static int lc_write(coa_t *c, unsigned lc, unsigned f, uint32_t v, uint64_t now)
{
    coa_lc_t *l = &c->lc[lc];
    switch (f) {
    case COA_LC_F_STATE:
        if (v != COA_LC_FREE)
            return -1;
        coa_lc_clear(c, lc, now);
        return 0;
    case COA_LC_F_ROUTE: {
        coa_end_t e = coa_end_decode(v);
        if (e.kind > COA_END_QUEUE || (e.kind == COA_END_LINK && (e.dir >= COA_NUM_DIRS || e.index >= c->cfg.channels)))
            return -1;
        coa_lc_set_state(c, lc, COA_LC_ROUTED, now); /* written directly: a static route, never a header */
        coa_lc_set_route(c, lc, e, now);
        return 0;
    }
    case COA_LC_F_SOURCE: {
        coa_end_t e = coa_end_decode(v);
        if (e.kind > COA_END_SPOOL ||
            (e.kind == COA_END_LINK && (e.dir >= COA_NUM_DIRS || e.index >= c->cfg.channels)))
            return -1;
        /* A free channel given a neighbour as source is a static pathway (its words need no sign); given a
         * gate or spool it starts a dynamic one, whose first words are signs. */
        if (l->state == COA_LC_FREE)
            coa_lc_set_state(c, lc, e.kind == COA_END_LINK ? COA_LC_ROUTED : COA_LC_HEADER, now);
        coa_lc_set_source(c, lc, e);
        return 0;
    }
    case COA_LC_F_CREDITS:
        if (v > c->cfg.queue_depth)
            return -1;
        coa_lc_thaw(c, lc, now);
        coa_lc_set_credits(c, lc, v);
        return 0;
    case COA_LC_F_POOL:
        if (v >= COA_NUM_POOLS)
            return -1;
        l->pool = (uint8_t)v;
        return 0;
    default: return -1;
    }
}

static int spool_read(const coa_t *c, unsigned s, unsigned f, uint32_t *v)
{
    const coa_spool_t *sp = &c->spool[s];
    switch (f) {
    case COA_SPOOL_F_CTRL: *v = sp->mode; return 0;
    case COA_SPOOL_F_LC: *v = sp->lc == COA_NONE ? COA_CR_NONE : sp->lc; return 0;
    case COA_SPOOL_F_ADDR: *v = sp->addr; return 0;
    case COA_SPOOL_F_STRIDE: *v = (uint32_t)sp->stride; return 0;
    case COA_SPOOL_F_COUNT: *v = sp->count; return 0;
    case COA_SPOOL_F_TAG_HEAD: *v = sp->tag_head; return 0;
    case COA_SPOOL_F_TAG_TAIL: *v = sp->tag_tail; return 0;
    case COA_SPOOL_F_STATUS: *v = sp->status; return 0;
    default: return -1;
    }
}

static int spool_write(coa_t *c, unsigned s, unsigned f, uint32_t v, uint64_t now)
{
    coa_spool_t *sp = &c->spool[s];
    switch (f) {
    case COA_SPOOL_F_CTRL:
        if (v > COA_SPOOL_RECEIVE)
            return -1;
        if (v == COA_SPOOL_RECEIVE && sp->lc == COA_NONE) {
            /* Receiving from the pathway that will end at this spool (a street sign names it). */
            sp->status = 0;
            sp->index = 0;
            coa_spool_set_mode(c, s, COA_SPOOL_RECEIVE);
            return 0;
        }
        if (v != COA_SPOOL_IDLE) {
            if (sp->lc >= c->cfg.channels)
                return -1;
            coa_lc_t *l = &c->lc[sp->lc];
            if (v == COA_SPOOL_SEND) {
                if (l->state == COA_LC_FREE)
                    coa_lc_set_state(c, sp->lc, COA_LC_HEADER, now);
                coa_lc_set_source(c, sp->lc, (coa_end_t){COA_END_SPOOL, 0, (uint8_t)s});
            } else if (l->route.kind != COA_END_SPOOL || l->route.index != s) {
                /* Receiving from an arrived or routed channel: point its route at this spool. */
                coa_lc_set_state(c, sp->lc, COA_LC_ROUTED, now);
                coa_lc_set_route(c, sp->lc, (coa_end_t){COA_END_SPOOL, 0, (uint8_t)s}, now);
                for (unsigned i = 0; i < c->narrivals; i++)
                    if (c->arrivals[i] == sp->lc) {
                        for (unsigned k = i + 1; k < c->narrivals; k++)
                            c->arrivals[k - 1] = c->arrivals[k];
                        c->narrivals--;
                        break;
                    }
            }
            sp->status = 0;
            sp->index = 0;
            if (sp->count == 0) {
                sp->status = COA_SPOOL_DONE;
                c->spool_events |= 1u << s;
                return 0;
            }
        }
        coa_spool_set_mode(c, s, (coa_spool_mode_t)v);
        return 0;
    case COA_SPOOL_F_LC:
        if (v != COA_CR_NONE && v >= c->cfg.channels)
            return -1;
        coa_spool_bind(c, s, v == COA_CR_NONE ? COA_NONE : (uint8_t)v);
        return 0;
    case COA_SPOOL_F_ADDR: sp->addr = v; return 0;
    case COA_SPOOL_F_STRIDE: sp->stride = (int32_t)v; return 0;
    case COA_SPOOL_F_COUNT: sp->count = v; return 0;
    case COA_SPOOL_F_TAG_HEAD: sp->tag_head = v; return 0;
    case COA_SPOOL_F_TAG_TAIL: sp->tag_tail = v; return 0;
    case COA_SPOOL_F_STATUS: sp->status = 0; return 0;
    default: return -1;
    }
}

/* The agent's registers below COA_CR_LINK_POOL, which are not arrays. */
static int own_read(coa_t *c, uint32_t index, uint32_t *v, uint64_t now)
{
    switch (index) {
    case COA_CR_STATUS:
        *v = (c->asleep ? COA_STATUS_ASLEEP : 0u) | (coa_quiescent(c) ? COA_STATUS_QUIESCENT : 0u) |
             (c->loading ? COA_STATUS_LOADING : 0u);
        return 0;
    case COA_CR_SLEEP: *v = c->asleep; return 0;
    case COA_CR_ALLOC: {
        int lc = alloc_local(c, now);
        *v = lc < 0 ? COA_CR_NONE : (uint32_t)lc;
        return 0;
    }
    case COA_CR_ARRIVAL:
        if (c->narrivals == 0) {
            *v = COA_CR_NONE;
            return 0;
        }
        *v = c->arrivals[0];
        for (unsigned i = 1; i < c->narrivals; i++)
            c->arrivals[i - 1] = c->arrivals[i];
        c->narrivals--;
        return 0;
    case COA_CR_ARRIVALS: *v = c->narrivals; return 0;
    case COA_CR_TAG_NEXT: *v = c->tag_next; return 0;
    case COA_CR_GATE_IN0:
    case COA_CR_GATE_IN1: {
        unsigned lc = c->gate_in_lc[index - COA_CR_GATE_IN0];
        *v = lc == COA_NONE ? COA_CR_NONE : lc == COA_EXPECT ? COA_CR_EXPECT : lc;
        return 0;
    }
    case COA_CR_GATE_OUT0:
    case COA_CR_GATE_OUT1: {
        unsigned lc = c->gate_out_lc[index - COA_CR_GATE_OUT0];
        *v = lc == COA_NONE ? COA_CR_NONE : lc;
        return 0;
    }
    case COA_CR_LOCAL_POOL: *v = lo32(c->local_pool); return 0;
    case COA_CR_LOCAL_POOL_HI: *v = hi32(c->local_pool); return 0;
    case COA_CR_MOVED: *v = (uint32_t)c->moved; return 0;
    default: return -1;
    }
}

int coa_cr_read(coa_t *c, uint32_t index, uint32_t *v, uint64_t now)
{
    /* The runtimes' wait loops read the arrival queue or a spool's status at every trip: those are asked for first
     * (no two ranges overlap, so the order is free). */
    if (index < COA_CR_LINK_POOL)
        return own_read(c, index, v, now);
    if (index >= COA_CR_SPOOL && index < COA_CR_SPOOL + 8u * c->cfg.spools)
        return spool_read(c, (index - COA_CR_SPOOL) / 8, (index - COA_CR_SPOOL) % 8, v);
    if (index >= COA_CR_LC && index < COA_CR_LC + 8u * c->cfg.channels)
        return lc_read(c, (index - COA_CR_LC) / 8, (index - COA_CR_LC) % 8, v, now);
    if (index >= COA_CR_LINK_POOL && index < COA_CR_LINK_POOL + 32) {
        unsigned k = index - COA_CR_LINK_POOL;
        uint64_t m = c->link_pool[k / 8][(k % 8) / 2];
        *v = k % 2 ? hi32(m) : lo32(m);
        return 0;
    }
    if (index >= COA_CR_REMOTE_FREE && index < COA_CR_REMOTE_FREE + 8) {
        unsigned k = index - COA_CR_REMOTE_FREE;
        *v = k % 2 ? hi32(c->remote_free[k / 2]) : lo32(c->remote_free[k / 2]);
        return 0;
    }
    if (index >= COA_CR_LINK_WORDS && index < COA_CR_LINK_WORDS + 8) {
        unsigned k = index - COA_CR_LINK_WORDS;
        *v = (uint32_t)(k % 2 ? c->link_stats[k / 2].busy_clocks : c->link_stats[k / 2].words);
        return 0;
    }
    return -1;
}

static int bind_gate_in(coa_t *c, unsigned g, uint32_t v, uint64_t now)
{
    unsigned old = c->gate_in_lc[g];
    if (v == COA_CR_NONE || v == COA_CR_EXPECT) {
        if (old < c->cfg.channels)
            coa_lc_set_route(c, old, (coa_end_t){COA_END_NONE, 0, 0}, now);
        c->gate_in_lc[g] = v == COA_CR_NONE ? COA_NONE : COA_EXPECT;
        return 0;
    }
    if (v >= c->cfg.channels)
        return -1;
    if (old < c->cfg.channels && old != v)
        coa_lc_set_route(c, old, (coa_end_t){COA_END_NONE, 0, 0}, now);
    coa_lc_t *l = &c->lc[v];
    coa_lc_note_state(c, v, now);
    if (l->state == COA_LC_ARRIVED) {
        for (unsigned i = 0; i < c->narrivals; i++)
            if (c->arrivals[i] == v) {
                for (unsigned k = i + 1; k < c->narrivals; k++)
                    c->arrivals[k - 1] = c->arrivals[k];
                c->narrivals--;
                break;
            }
    }
    coa_lc_set_state(c, v, COA_LC_ROUTED, now);
    coa_lc_set_route(c, v, (coa_end_t){COA_END_GATE, 0, (uint8_t)g}, now);
    return 0;
}

static int bind_gate_out(coa_t *c, unsigned g, uint32_t v, uint64_t now)
{
    unsigned old = c->gate_out_lc[g];
    if (v == COA_CR_NONE) {
        if (old != COA_NONE)
            coa_lc_set_source(c, old, (coa_end_t){COA_END_NONE, 0, 0});
        c->gate_out_lc[g] = COA_NONE;
        return 0;
    }
    if (v >= c->cfg.channels)
        return -1;
    if (old != COA_NONE && old != v)
        coa_lc_set_source(c, old, (coa_end_t){COA_END_NONE, 0, 0});
    coa_lc_t *l = &c->lc[v];
    if (l->state == COA_LC_FREE)
        coa_lc_set_state(c, v, COA_LC_HEADER, now);
    coa_lc_set_source(c, v, (coa_end_t){COA_END_GATE, 0, (uint8_t)g});
    return 0;
}

int coa_cr_write(coa_t *c, uint32_t index, uint32_t v, uint64_t now)
{
    if (index >= COA_CR_LC && index < COA_CR_LC + 8u * c->cfg.channels)
        return lc_write(c, (index - COA_CR_LC) / 8, (index - COA_CR_LC) % 8, v, now);
    if (index >= COA_CR_SPOOL && index < COA_CR_SPOOL + 8u * c->cfg.spools)
        return spool_write(c, (index - COA_CR_SPOOL) / 8, (index - COA_CR_SPOOL) % 8, v, now);
    if (index >= COA_CR_LINK_POOL && index < COA_CR_LINK_POOL + 32) {
        unsigned k = index - COA_CR_LINK_POOL;
        uint64_t *m = &c->link_pool[k / 8][(k % 8) / 2];
        coa_unblock_headers(c, now);
        if (k % 2)
            set_hi(m, v);
        else
            set_lo(m, v);
        return 0;
    }
    if (index >= COA_CR_REMOTE_FREE && index < COA_CR_REMOTE_FREE + 8) {
        unsigned k = index - COA_CR_REMOTE_FREE;
        coa_unblock_headers(c, now);
        if (k % 2)
            set_hi(&c->remote_free[k / 2], v);
        else
            set_lo(&c->remote_free[k / 2], v);
        return 0;
    }
    switch (index) {
    case COA_CR_SLEEP:
        coa_thaw(c, ~0ull, now); /* every wait reason becomes or stops being "asleep" */
        c->asleep = v != 0;
        return 0;
    case COA_CR_RELEASE:
        if (v >= c->cfg.channels || c->lc[v].count != 0)
            return -1;
        coa_lc_release(c, v, now);
        return 0;
    case COA_CR_TAG_NEXT: c->tag_next = (uint8_t)(v & 3u); return 0;
    case COA_CR_LOAD:
        if (c->loading)
            return -1;
        c->loading = true;
        c->load_addr = v;
        c->load_index = UINT32_MAX;
        c->load_left = 0;
        return 0;
    case COA_CR_GATE_IN0:
    case COA_CR_GATE_IN1: return bind_gate_in(c, index - COA_CR_GATE_IN0, v, now);
    case COA_CR_GATE_OUT0:
    case COA_CR_GATE_OUT1: return bind_gate_out(c, index - COA_CR_GATE_OUT0, v, now);
    case COA_CR_LOCAL_POOL: set_lo(&c->local_pool, v); return 0;
    case COA_CR_LOCAL_POOL_HI: set_hi(&c->local_pool, v); return 0;
    default: return -1;
    }
}
