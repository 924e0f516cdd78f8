/*
 * Spools (background DMA between memory and a channel) and the forwarding-pattern loader.
 *
 * Memory rule (docs/network.md): the cell's memory performs one word access per clock. A CA memory
 * operation takes the port on the clock it issues (so a CA doing nothing but loads leaves every other
 * clock free); the pattern loader, then the spools in round-robin order, take the clocks the CA leaves.
 * With the CA computing, a cell therefore sustains one spool in and one spool out at full link rate.
 */
#include <string.h>

#include "coa_link.h"
#include "coa_spool.h"

static uint32_t mem_read(const coa_t *c, uint32_t addr)
{
    const uint8_t *p = c->w.mem + addr;
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void mem_write(coa_t *c, uint32_t addr, uint32_t w)
{
    uint8_t *p = c->w.mem + addr;
    p[0] = (uint8_t)w;
    p[1] = (uint8_t)(w >> 8);
    p[2] = (uint8_t)(w >> 16);
    p[3] = (uint8_t)(w >> 24);
}

/* One pattern entry: {channel, route, source, pool}; the channel is reset and set up with no header. */
static void load_entry(coa_t *c, const uint32_t e[4], uint64_t now)
{
    unsigned lc = e[0];
    if (lc >= COA_KEY_OF(c, channels)) {
        coa_raise(c, lc, "forwarding pattern names channel %u, which does not exist", lc);
        return;
    }
    if (c->lc[lc].count != 0) {
        coa_raise(c, lc, "forwarding pattern rewrites channel %u while it holds %u words", lc, c->lc[lc].count);
        return;
    }
    coa_end_t route = coa_end_decode(e[1]), source = coa_end_decode(e[2]);
    if ((route.kind == COA_END_LINK && (route.dir >= COA_NUM_DIRS || route.index >= COA_KEY_OF(c, channels))) ||
        (source.kind == COA_END_LINK && (source.dir >= COA_NUM_DIRS || source.index >= COA_KEY_OF(c, channels))) ||
        route.kind > COA_END_QUEUE || source.kind > COA_END_SPOOL) {
        coa_raise(c, lc, "forwarding pattern gives channel %u a route 0x%x or source 0x%x that does not exist", lc,
                  e[1], e[2]);
        return;
    }
    coa_lc_clear(c, lc, now);
    coa_lc_t *l = &c->lc[lc];
    coa_lc_set_state(c, lc, route.kind == COA_END_NONE && source.kind == COA_END_NONE ? COA_LC_FREE : COA_LC_ROUTED,
                     now);
    l->pool = (uint8_t)(e[3] & 3u);
    coa_lc_set_route(c, lc, route, now);
    coa_lc_set_source(c, lc, source);
    if (route.kind == COA_END_SPOOL && route.index < COA_KEY_OF(c, spools))
        coa_spool_bind(c, route.index, (uint8_t)lc);
}

/* One word of the pattern loader, which takes the memory port whenever it runs. Out of line: it runs only while
 * a pattern loads, and inline it would cost every clock of the spools registers to save. */
static __attribute__((noinline)) void loader_step(coa_t *c, uint64_t now)
{
    if (!coa_mem_ok(c, c->load_addr)) {
        coa_raise(c, c->load_addr, "forwarding pattern read at 0x%x is outside memory or misaligned", c->load_addr);
        c->loading = false;
        return;
    }
    uint32_t w = mem_read(c, c->load_addr);
    c->load_addr += 4;
    if (c->load_index == UINT32_MAX) { /* the count word */
        c->load_left = w;
        c->load_index = 0;
        if (w > COA_KEY_OF(c, channels) * 4u) {
            coa_raise(c, w, "forwarding pattern of %u entries is longer than possible", w);
            c->loading = false;
        }
        c->loading = c->loading && w > 0;
        return;
    }
    c->load_entry[c->load_index++] = w;
    if (c->load_index == 4) {
        load_entry(c, c->load_entry, now);
        c->load_index = 0;
        if (--c->load_left == 0)
            c->loading = false;
    }
}

/* Whether a send spool waits on channel l: for room, or for a channel that takes words, not free or draining. Those
 * two states are the ones whose two low bits are clear (a state is at most draining: coa_state_check), one test. */
static bool send_waits(const coa_t *c, const coa_lc_t *l)
{
    _Static_assert(COA_LC_FREE == 0 && COA_LC_DRAINING == 4 && COA_LC_HEADER % 4 != 0 && COA_LC_ROUTED % 4 != 0 &&
                       COA_LC_ARRIVED % 4 != 0,
                   "free and draining are the states that are 0 mod 4");
    return l->count >= COA_KEY_OF(c, queue_depth) || (l->state & 3u) == 0;
}
/* Whether a receive spool waits on channel lc: for a word that is not a trailer, on a channel routed to it. The
 * masks (busy_lc, tagged_lc) answer the first two without the channel's fields; only a channel holding a tagged
 * word has its head looked at, a load from the tags of the queues. */
static bool receive_waits(const coa_t *c, unsigned lc, const coa_lc_t *l)
{
    return !(c->busy_lc >> lc & 1u) || ((c->tagged_lc >> lc & 1u) && coa_lc_head_tagged(c, lc)) ||
           l->route.kind != COA_END_SPOOL;
}

/* Whether spool sp waits on its channel (send_waits, receive_waits), or for a channel at all (a receive waiting
 * for its pathway). Only a change of the channel or of the spool's own set-up ends it. */
static bool spool_waits(const coa_t *c, const coa_spool_t *sp)
{
    if (sp->lc >= COA_KEY_OF(c, channels))
        return true;
    const coa_lc_t *l = &c->lc[sp->lc];
    return sp->mode == COA_SPOOL_SEND ? send_waits(c, l) : receive_waits(c, sp->lc, l);
}

/* A spool's address is outside memory or misaligned: out of line, which leaves the spools' step registers. */
static __attribute__((noinline, cold)) void spool_fault(coa_t *c, unsigned s)
{
    const coa_spool_t *sp = &c->spool[s];
    coa_raise(c, sp->addr, "spool %u %s 0x%x, outside memory or misaligned", s,
              sp->mode == COA_SPOOL_SEND ? "reads" : "writes", sp->addr);
    coa_spool_set_mode(c, s, COA_SPOOL_IDLE);
}

/* Whether spool s's address is in memory; if not, the spool faults. */
static inline bool spool_in_memory(coa_t *c, unsigned s, uint32_t addr)
{
    if (coa_mem_ok(c, addr))
        return true;
    spool_fault(c, s);
    return false;
}

/* The spool's books after its word. */
static inline void spool_advance(coa_t *c, unsigned s, coa_spool_t *sp, uint32_t addr)
{
    sp->addr = addr + (uint32_t)sp->stride;
    sp->index++;
    sp->words++;
    if (--sp->count == 0) {
        coa_spool_set_mode(c, s, COA_SPOOL_IDLE);
        sp->status |= COA_SPOOL_DONE;
    }
}

/* Spool s's word from memory into channel lc, which has room (send_waits), at its address in memory. */
static void send_word(coa_t *c, unsigned s, unsigned lc, uint64_t now)
{
    coa_spool_t *sp = &c->spool[s];
    uint32_t addr = sp->addr;
    if (!spool_in_memory(c, s, addr))
        return;
    bool tag = sp->index < sp->tag_head || sp->count <= sp->tag_tail;
    uint32_t word = mem_read(c, addr);
    coa_lc_push(c, lc, word, tag, now);
    coa_lc_note_written(c, lc, word, tag, now);
    spool_advance(c, s, sp, addr);
}

/* Spool s's word from channel lc, which holds one for it (receive_waits), into memory at its address. */
static void receive_word(coa_t *c, unsigned s, unsigned lc, uint64_t now)
{
    coa_spool_t *sp = &c->spool[s];
    uint32_t addr = sp->addr;
    if (!spool_in_memory(c, s, addr))
        return;
    coa_lc_thaw(c, lc, now);                         /* it may have waited for this spool (coa_waits) */
    uint32_t word = coa_lc_pop_untagged(c, lc, now); /* a tagged head makes a receive wait */
    spool_advance(c, s, sp, addr);
    /* Last: a store to memory may alias anything the compiler holds. */
    mem_write(c, addr, word);
}

/* Spool s waits on its channel, or for one: until that changes (coa_spools_unstick, coa_spool_bind), coa_spools
 * skips it. Out of line: a try that fails is rare, and inline it would cost the round robin registers to save. */
static __attribute__((noinline)) void mark_stuck(coa_t *c, unsigned s)
{
    c->spools_stuck |= 1u << s;
    c->spools_ready &= ~(1u << s); /* coa_note_spools_ready's, for s */
    unsigned lc = c->spool[s].lc;
    if (lc < COA_KEY_OF(c, channels)) {
        if (!(c->stuck_lcs & coa_bit(lc)))
            c->stuck_on[lc] = 0;
        c->stuck_on[lc] |= 1u << s;
        c->stuck_lcs |= coa_bit(lc);
    }
}

bool coa_spools_stuck(const coa_t *c)
{
    if (c->loading)
        return false;
    for (uint32_t m = c->spools_active; m != 0; m &= m - 1)
        if (!spool_waits(c, &c->spool[__builtin_ctz(m)]))
            return false; /* spool_step would move a word, or raise a fault */
    return true;
}

/* A spool moves a word, if any can. */
static inline __attribute__((always_inline)) void spools_step(coa_t *c, uint64_t now)
{
    /* Round robin over the active spools, starting after the one served last: those above it, then the rest
     * from the lowest. Most clocks of a busy agent find most of them unable to move a word. */
    _Static_assert(COA_MAX_SPOOLS == 32, "the mask is rotated as 32 bits");
    unsigned from = (c->spool_rr + 1u) & 31u;
    uint32_t ready = c->spools_ready; /* the stuck ones would not move: skipped */
    for (uint32_t m = ready >> from | ready << ((32u - from) & 31u); m != 0; m &= m - 1) {
        unsigned s = ((unsigned)__builtin_ctz(m) + from) & 31u;
        const coa_spool_t *sp = &c->spool[s];
        unsigned lc = sp->lc;
        if (lc < COA_KEY_OF(c, channels)) {
            /* It moves a word, or faults: either way the memory port is used and the turn is its. */
            if (sp->mode == COA_SPOOL_SEND) {
                if (!send_waits(c, &c->lc[lc])) {
                    c->spool_rr = (uint8_t)s;
                    send_word(c, s, lc, now);
                    return;
                }
            } else if (!receive_waits(c, lc, &c->lc[lc])) {
                c->spool_rr = (uint8_t)s;
                receive_word(c, s, lc, now);
                return;
            }
        }
        mark_stuck(c, s);
    }
}

/* The pattern loader's clock: a word of the pattern, then the rest of the agent's clock, as coa_after_ca's way with
 * no spool (the agent may sleep while it loads). Out of line, as loader_step. */
static __attribute__((noinline)) void loader_clock(coa_t *c, uint64_t now)
{
    loader_step(c, now);
    if (!c->asleep) {
        if (coa_headers_may_act(c))
            coa_headers(c, now);
        uint64_t sendable = coa_links_sendable(c);
        if (sendable != 0) {
            coa_links_schedule(c, now, sendable);
            return;
        }
    }
    if ((c->busy_lc & ~c->frozen_lc) != 0)
        coa_account_waits(c, now);
}

void coa_spools(coa_t *c, uint64_t now)
{
    /* The loader runs in an agent's first clocks only: told so, GCC lays the spools' way in line (stream 8x8
     * -0.5%). */
    if (__builtin_expect(c->loading, 0)) {
        loader_clock(c, now);
        return;
    }
    /* Not loading, the agent is awake (coa_spools_may_move), and nothing below puts it to sleep. */
    spools_step(c, now);
    if (coa_headers_may_act(c))
        coa_headers(c, now);
    uint64_t sendable = coa_links_sendable(c);
    if (sendable != 0)
        coa_links_send(c, now, sendable);
    if ((c->busy_lc & ~c->frozen_lc) != 0)
        coa_waits_awake(c, now);
}
