/* Physical links: delay lines, arrivals, and the round-robin scheduler of each outgoing link. */
#include <stdlib.h>
#include <string.h>

#include "coa_link.h"

/* Zeroed memory on cache lines of its own: a line's slots are written by one cell and read by another, maybe
 * on another thread, and must not share a cache line with anything else. */
static void *alloc_lines(size_t bytes)
{
    size_t rounded = (bytes + COA_CACHE_LINE - 1u) / COA_CACHE_LINE * COA_CACHE_LINE;
    void *p = aligned_alloc(COA_CACHE_LINE, rounded);
    if (p != NULL)
        memset(p, 0, rounded);
    return p;
}

int coa_line_init(coa_line_t *l, unsigned latency)
{
    memset(l, 0, sizeof *l);
    /* A power of two above the latency, so the slot of a clock is a mask, not a division. */
    unsigned mask = COA_SLOT_MASK_FOR(latency);
    if (mask >= COA_MAX_SLOTS)
        return -1;
    l->nslots = mask + 1u;
    l->slot_mask = mask;
    l->post_clock = UINT64_MAX;
    atomic_init(&l->never_dormant, false);
    l->receiver_dormant = &l->never_dormant;
    l->slots = alloc_lines(l->nslots * sizeof *l->slots);
    return l->slots == NULL ? -1 : 0;
}

void coa_wire(coa_t *from, coa_dir_t d, coa_line_t *line, coa_t *to)
{
    coa_dir_t back = coa_dir_opposite(d);
    from->w.out[d] = line;
    to->w.in_slots[back] = line->slots;
    to->w.in_mask = line->nslots - 1u;
    line->posted = &to->w.in_posted[back];
    line->taken = &to->w.in_taken[back];
}

void coa_line_reset_books(coa_line_t *l, uint64_t full)
{
    l->nposted = full;
    atomic_store(l->posted, full);
    *l->taken = 0;
    l->post_clock = UINT64_MAX;
}

void coa_line_free(coa_line_t *l)
{
    free(l->slots);
    memset(l, 0, sizeof *l);
}

/* A flit the channels cannot take (a fault): out of line, so that its calls do not take registers from the
 * arrivals' loop (deliver_flit is inlined there). */
static __attribute__((noinline, cold)) void refuse_flit(coa_t *c, coa_dir_t from, unsigned lc)
{
    if (lc >= COA_KEY_OF(c, channels))
        coa_raise(c, lc, "a word from %s arrived for channel %u, which does not exist", coa_dir_name(from), lc);
    else
        coa_raise(c, lc, "channel %u overflowed: a word arrived from %s with no room (credit error)", lc,
                  coa_dir_name(from));
}

/* A flit that opens a pathway or carries a tag: rare (a message's header and trailer), so out of line, and the
 * common flit, a plain word of a channel already set up, pushes with its tag known to be clear (deliver_flit). */
static __attribute__((noinline)) void deliver_flit_marked(coa_t *c, coa_dir_t from, const coa_flit_t *f,
                                                          uint64_t now)
{
    unsigned lc = f->dst_lc;
    coa_lc_t *l = &c->lc[lc];
    if (f->open) {
        if (l->state != COA_LC_FREE || l->count != 0) {
            coa_raise(c, lc, "a pathway from %s opened channel %u, which is in use (%s)", coa_dir_name(from), lc,
                      coa_lc_state_name((coa_lc_state_t)l->state));
            return;
        }
        coa_lc_set_state(c, lc, COA_LC_HEADER, now);
        coa_lc_set_source(c, lc, (coa_end_t){COA_END_LINK, (uint8_t)from, f->src_lc});
        l->travel_dir = f->travel_dir;
        l->pool = f->pool;
        l->owned_by_link = true;
        l->setup_started = false;
        c->lc_stats[lc].pathways++;
    }
    if (l->count >= COA_KEY_OF(c, queue_depth)) {
        refuse_flit(c, from, lc);
        return;
    }
    coa_lc_push(c, lc, f->word, f->tag != 0, now);
}

static void deliver_flit(coa_t *c, coa_dir_t from, const coa_flit_t *f, uint64_t now)
{
    unsigned lc = f->dst_lc;
    if (lc >= COA_KEY_OF(c, channels)) {
        refuse_flit(c, from, lc);
        return;
    }
    if ((f->open | f->tag) != 0) {
        deliver_flit_marked(c, from, f, now);
        return;
    }
    if (c->lc[lc].count >= COA_KEY_OF(c, queue_depth)) {
        refuse_flit(c, from, lc);
        return;
    }
    coa_lc_push(c, lc, f->word, false, now);
}

/* A word left the neighbour's channel that channel lc feeds: lc may send one more. */
static void take_credit(coa_t *c, unsigned lc, uint64_t now)
{
    coa_lc_t *l = &c->lc[lc];
    unsigned credits = l->credits, depth = COA_KEY_OF(c, queue_depth);
    if (credits == 0) {
        coa_lc_thaw(c, lc, now); /* it may have waited for this credit */
        c->credit_lc |= coa_bit(lc); /* it has one now (depth >= 1); with any, its bit is set already */
    }
    if (__builtin_expect(credits < depth, 1)) /* a credit comes for a word sent: nearly always below */
        l->credits = (uint16_t)++credits;
    /* Told unlikely, though about one credit in five fills its channel's (msgpass 8x8): GCC then lays the common
     * credit's way straight through (stream 8x8 -0.2%, msgpass -0.1%). */
    if (__builtin_expect(credits == depth, 0) && l->state == COA_LC_DRAINING)
        coa_lc_release(c, lc, now);
}

/* A slot's rare messages back, after its credits: a header's further credits (more) and frees. Out of line, so that
 * the arrivals ask one test of both after a slot's credits, and one of the frees alone for a slot without credits
 * (its more_lc is within its credit_lc, which coa_slot_check holds a restored slot to). */
static __attribute__((noinline)) void deliver_back_rare(coa_t *c, coa_dir_t from, coa_slot_t *s, uint64_t now)
{
    uint64_t more = s->more_lc;
    if (more != 0) {
        s->more_lc = 0;
        for (uint64_t m = more; m != 0; m &= m - 1) {
            unsigned lc = (unsigned)__builtin_ctzll(m);
            for (unsigned n = s->more[lc]; n > 0; n--)
                take_credit(c, lc, now);
            s->more[lc] = 0;
        }
    }
    uint64_t freed = s->free_lc; /* read late, as more */
    if (freed != 0) {
        s->free_lc = 0;
        c->remote_free[from] |= freed;
        coa_unblock_headers(c, now);
    }
}

/* The credits and frees of slot s, from the neighbour in direction `from` (coa_slot_t). */
static void deliver_back(coa_t *c, coa_dir_t from, coa_slot_t *s, uint64_t now)
{
    uint64_t credited = s->credit_lc;
    s->credit_lc = 0;
    for (uint64_t m = credited; m != 0; m &= m - 1)
        take_credit(c, (unsigned)__builtin_ctzll(m), now);
    /* Read after the credits, not kept across their calls (a channel's release): nothing writes a slot in the clock
     * it is taken, the sender posts to later ones. */
    if ((s->more_lc | s->free_lc) != 0)
        deliver_back_rare(c, from, s, now);
}

void coa_deliver_lines(coa_t *c, uint64_t now, uint64_t full0, uint64_t full1, uint64_t full2, uint64_t full3)
{
    const uint64_t full[COA_NUM_DIRS] = {full0, full1, full2, full3}; /* by direction, as coa_deliver read them */
    unsigned k = (unsigned)now & COA_IN_MASK(c);
    uint64_t *taken = c->w.in_taken;
    uint64_t bit = coa_bit(k);
    /* The slot's offset in bytes, the same in all four lines: computed once, not once for each line with something
     * for this clock (the compiler kept k, not k times the slot's size, across the arrivals' work). */
    size_t at = k * sizeof(coa_slot_t);
#pragma GCC unroll 4
    for (unsigned d = 0; d < COA_NUM_DIRS; d++) {
        if ((full[d] & bit) == 0)
            continue; /* nothing, or only what is for a later clock: its slot is not read */
        taken[d] ^= bit;
        coa_slot_t *s = (coa_slot_t *)((char *)c->w.in_slots[d] + at);
        if (s->has_flit) {
            deliver_flit(c, (coa_dir_t)d, &s->flit, now);
            s->has_flit = false;
        }
        if (s->credit_lc != 0)
            deliver_back(c, (coa_dir_t)d, s, now);
        else if (s->free_lc != 0)
            deliver_back_rare(c, (coa_dir_t)d, s, now);
    }
}

bool coa_links_stuck(const coa_t *c)
{
    for (unsigned d = 0; d < COA_NUM_DIRS; d++) {
        uint64_t candidates = c->busy_lc & c->link_lc[d];
        if (candidates != 0 && c->w.out[d] != NULL && coa_links_eligible(c, candidates) != 0)
            return false;
    }
    return true;
}

void coa_links_schedule(coa_t *c, uint64_t now, uint64_t sendable)
{
    coa_links_send(c, now, sendable);
    if ((c->busy_lc & ~c->frozen_lc) != 0)
        coa_waits_awake(c, now); /* only an awake agent's links send (coa_after_ca) */
}
