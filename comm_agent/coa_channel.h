/* Logical channels (coa_channel.c): the bottom layer above coa_base.h; links, spools and headers move words through them. */
#ifndef COA_CHANNEL_H
#define COA_CHANNEL_H

#include "coa_base.h"

static inline bool coa_lc_head_tagged(const coa_t *c, unsigned lc)
{
    return c->w.qtag[lc * COA_KEY_OF(c, queue_depth) + c->lc[lc].head] != 0;
}
static inline uint32_t coa_lc_head(const coa_t *c, unsigned lc)
{
    return c->w.qdata[lc * COA_KEY_OF(c, queue_depth) + c->lc[lc].head];
}
/* Frees a channel: tells the upstream allocator, unbinds gates and spools, keeps the statistics. */
void coa_lc_release(coa_t *c, unsigned lc, uint64_t now);
/* Empties and frees a channel at once, words and all (context switch, reset). */
void coa_lc_clear(coa_t *c, unsigned lc, uint64_t now);
/* Sets the route and keeps the gate and spool bindings in step with it. */
void coa_lc_set_route(coa_t *c, unsigned lc, coa_end_t route, uint64_t now);
void coa_lc_set_source(coa_t *c, unsigned lc, coa_end_t source);
/* Counts the clocks channel lc stood empty while routed (its no-data wait) up to `now`, at every change of its
 * state or route and when a word ends the emptiness; a pop that empties it starts the count (stats_since). The
 * occupancy needs nothing here (occupancy_base). */
static inline void coa_lc_note_state(coa_t *c, unsigned lc, uint64_t now)
{
    coa_lc_t *l = &c->lc[lc];
    uint64_t dt = now - l->stats_since;
    if (now > l->stats_since) {
        if (l->count == 0 && l->state == COA_LC_ROUTED)
            c->lc_stats[lc].wait_clocks[COA_WAIT_NO_DATA] += dt;
        l->stats_since = now;
    }
}
/* Index `at`, below twice the depth, wrapped into a channel's ring of agent c: a channel's head is below the depth
 * and its count at most the depth (coa_state_check holds a restored one to that). With the depth a known power of
 * two (the default keys' copy, COA_KEY_OF) a mask, else a compare and a subtract. */
static inline unsigned coa_ring_wrap(const coa_t *c, unsigned at)
{
    unsigned depth = COA_KEY_OF(c, queue_depth);
#ifdef COA_DEFAULT_KEYS
    if ((depth & (depth - 1u)) == 0)
        return at & (depth - 1u);
#endif
    return at >= depth ? at - depth : at;
}
/* The queue itself, inline: every word that crosses the agent is pushed once and popped once, and the
 * callers (arrivals, links, gates, spools) each know half of the arguments. The channel's own books apart from the
 * agent's (busy_lc, moved, the stuck spools), which a bundle's two gate words share (coa_gate.h); always inline, so
 * that coa_lc_push and coa_lc_pop_untagged compile as one function each. */
static inline __attribute__((always_inline)) void coa_lc_push_books(coa_t *c, unsigned lc, uint32_t word, bool tag,
                                                                    uint64_t now)
{
    coa_lc_t *l = &c->lc[lc];
    unsigned depth = COA_KEY_OF(c, queue_depth);
    unsigned at = coa_ring_wrap(c, l->head + l->count);
    if (l->count == 0)
        coa_lc_note_state(c, lc, now);
    l->occupancy_base -= now;
    l->count++;
    if (tag) {
        l->ntagged++;
        c->tagged_lc |= coa_bit(lc);
        c->header_work_lc |= coa_bit(lc) & ~c->linked_lc & ~c->header_lc; /* coa_note_header_work's, for lc */
    }
    /* words_in before occupancy_max: so, GCC forms the statistics' address once for both, not again after the test
     * (stream 8x8 -0.7%). */
    coa_lc_stats_t *st = &c->lc_stats[lc];
    st->words_in++;
    if (l->count > st->occupancy_max)
        st->occupancy_max = l->count;
    /* The word and its tag last: the tag's store is a byte's, which may alias the books above, and would have the
     * compiler load them again after it. */
    c->w.qdata[lc * depth + at] = word;
    c->w.qtag[lc * depth + at] = tag ? 1 : 0;
}
/* Always inline: with header_work_lc's books in coa_lc_push_books, GCC left it out of line in coa_deliver_lines, a
 * call for every word that arrives (stream 8x8 +2.8%). */
static inline __attribute__((always_inline)) void coa_lc_push(coa_t *c, unsigned lc, uint32_t word, bool tag,
                                                              uint64_t now)
{
    coa_lc_push_books(c, lc, word, tag, now);
    c->busy_lc |= coa_bit(lc);
    c->moved++;
    coa_spools_unstick(c, lc);
}

/* A word that a gate or spool of this cell wrote into channel lc, where a pathway starts: a street sign is (so
 * far) the header's last, and the first untagged word after it ends the time the pathway was held before its
 * data (coa_lc_stats_t.held_*). A trailer ends the pathway. Only writes from this cell come here: words
 * passing through from links are not where a sender does its work. */
static inline void coa_lc_note_written(coa_t *c, unsigned lc, uint32_t word, bool tag, uint64_t now)
{
    coa_lc_t *l = &c->lc[lc];
    if (tag) {
        l->header_out = coa_word_kind(word) == COA_WORD_KIND_SIGN;
        l->header_at = now;
        return;
    }
    if (!l->header_out)
        return;
    l->header_out = false;
    uint64_t held = now - l->header_at;
    coa_lc_stats_t *st = &c->lc_stats[lc];
    st->held_pathways++;
    st->held_clocks += held;
    if (held > st->held_max)
        st->held_max = held;
}

/* coa_lc_pop_untagged's books of the channel itself, as coa_lc_push_books. */
static inline __attribute__((always_inline)) uint32_t coa_lc_pop_books(coa_t *c, unsigned lc, uint64_t now)
{
    coa_lc_t *l = &c->lc[lc];
    unsigned depth = COA_KEY_OF(c, queue_depth);
    /* moved_at beside occupancy_base, before the statistics' store: after it, GCC formed the channel's address
     * again (stream 8x8 -0.3%). */
    l->occupancy_base += now;
    l->moved_at = now;
    uint32_t w = c->w.qdata[lc * depth + l->head];
    l->head = (uint16_t)coa_ring_wrap(c, l->head + 1u);
    l->count--;
    if (l->count == 0) {
        c->busy_lc &= ~coa_bit(lc);
        l->stats_since = now; /* its no-data wait, if it is routed, starts (coa_lc_note_state) */
    }
    c->lc_stats[lc].words_out++;
    return w;
}
/* The credit for a word that left channel lc, to whoever feeds it. */
static inline __attribute__((always_inline)) void coa_lc_credit_source(coa_t *c, unsigned lc, uint64_t now)
{
    const coa_lc_t *l = &c->lc[lc];
    if (l->source.kind == COA_END_LINK)
        coa_send_credit(c, (coa_dir_t)l->source.dir, l->source.index, now);
}
/* Pops the head, which is not tagged, and returns the credit to whoever feeds the channel: the pop of a ready
 * gate or a spool's receive, which the agent never gives a tagged word (coa_gate_in_status, the spools' waits). */
static inline uint32_t coa_lc_pop_untagged(coa_t *c, unsigned lc, uint64_t now)
{
    uint32_t w = coa_lc_pop_books(c, lc, now);
    c->moved++;
    coa_spools_unstick(c, lc);
    coa_lc_credit_source(c, lc, now);
    return w;
}
/* Pops the head, tagged or not (*tag, when tag is not NULL, says which). Only a channel holding a tagged word
 * (tagged_lc, a bit of a mask the agent holds in a register, not a field at the channel's address) has its head's
 * tag looked at, a load from the tags of the queues: a stream's words are plain. */
static inline uint32_t coa_lc_pop(coa_t *c, unsigned lc, bool *tag, uint64_t now)
{
    coa_lc_t *l = &c->lc[lc];
    bool tagged = (c->tagged_lc >> lc & 1u) && coa_lc_head_tagged(c, lc);
    if (tag != NULL)
        *tag = tagged;
    if (tagged && --l->ntagged == 0) {
        c->tagged_lc &= ~coa_bit(lc);
        c->header_work_lc &= ~coa_bit(lc) | (c->header_lc & ~c->blocked_lc); /* coa_note_header_work's, for lc */
    }
    return coa_lc_pop_untagged(c, lc, now);
}

/* Every state change goes through here: it settles the statistics and keeps header_lc in step. */
void coa_lc_set_state(coa_t *c, unsigned lc, coa_lc_state_t st, uint64_t now);
/* Why a channel holding words did not move one now (coa_lc_wait), inline for the per-clock accounting. */
static inline coa_wait_t coa_lc_wait_now(const coa_t *c, unsigned lc, uint64_t now)
{
    const coa_lc_t *l = &c->lc[lc];
    if (l->state == COA_LC_FREE || l->state == COA_LC_DRAINING)
        return COA_WAIT_NONE;
    if (l->count == 0)
        return l->state == COA_LC_ROUTED || l->state == COA_LC_HEADER ? COA_WAIT_NO_DATA : COA_WAIT_NONE;
    if (c->asleep)
        return COA_WAIT_ASLEEP;
    if (l->state == COA_LC_HEADER)
        return !l->setup_started || now < l->setup_done ? COA_WAIT_SETUP : COA_WAIT_NO_CHANNEL;
    if (l->state == COA_LC_ARRIVED)
        return COA_WAIT_RECEIVER;
    switch (l->route.kind) {
    case COA_END_LINK:
        if (l->credits == 0)
            return COA_WAIT_NO_SPACE;
        if (l->moved_at == now || (c->link_free_at[l->route.dir] > now && c->link_last_lc[l->route.dir] == lc))
            return COA_WAIT_NONE;
        return COA_WAIT_LOST_TURN;
    case COA_END_GATE:
    case COA_END_SPOOL:
    case COA_END_QUEUE: return l->moved_at == now ? COA_WAIT_NONE : COA_WAIT_RECEIVER;
    default: return COA_WAIT_NONE;
    }
}

/* A channel's reason for this clock, w (not COA_WAIT_NONE), kept for tools and counted. */
static inline void coa_count_wait(coa_t *c, unsigned lc, coa_wait_t w)
{
    c->lc[lc].last_wait = (uint8_t)w;
    c->lc_stats[lc].wait_clocks[w]++;
}

/* Channel lc, counted for its last_wait in this clock, waits so in every clock after it until an event thaws it
 * (coa_lc_thaw). */
static inline void coa_lc_freeze(coa_t *c, unsigned lc, uint64_t now)
{
    c->lc[lc].frozen_from = now + 1;
    c->frozen_lc |= coa_bit(lc);
}
static inline void coa_freeze_wait(coa_t *c, unsigned lc, coa_wait_t w, uint64_t now)
{
    coa_count_wait(c, lc, w);
    coa_lc_freeze(c, lc, now);
}

/* Channels of mask m that moved a word in this clock did not wait in it: the rest each get their reason from
 * coa_lc_wait_now. The way of a sleeping agent, whose reasons the masks do not give. */
void coa_account_each(coa_t *c, uint64_t m, uint64_t now);
/* Per clock, only for the channels holding words: why each did not move one. A channel that waits for a credit
 * (no space), for a free channel (a blocked header) or for its receiver waits so until an event on it: it is frozen
 * (frozen_lc), skipped here, and its clocks are counted when it thaws (coa_lc_thaw). The masks the agent keeps sort the
 * rest into the few kinds a busy agent has, each with coa_lc_wait_now's answer for it without the questions whose
 * answers the mask gives. Inline for the parts of the agent's clock that come before it (coa_spools,
 * coa_links_schedule), so that a clock of a busy agent costs no call of its own for them; coa_account_waits
 * otherwise. For an awake agent, which those parts know it is (coa_waits asks). */
static inline __attribute__((always_inline)) void coa_waits_awake(coa_t *c, uint64_t now)
{
    uint64_t busy = c->busy_lc & ~c->frozen_lc;
    uint64_t routed = c->routed_lc, linked = c->linked_lc;
    for (uint64_t m = busy; m != 0; m &= m - 1) {
        unsigned lc = (unsigned)__builtin_ctzll(m);
        coa_lc_t *l = &c->lc[lc];
        if (l->moved_at == now) {
            l->last_wait = COA_WAIT_NONE;
            continue;
        }
        if (!(routed >> lc & 1u)) {
            /* A header that found no free channel (blocked_lc, never a routed one: a change of state clears it)
             * waits for one, as coa_lc_wait_now would find after its longer way round; under congestion most waiting
             * channels are such. Asked here, not in a loop of its own over them: most clocks have none, and the
             * loop's tests cost every clock. */
            if (c->blocked_lc >> lc & 1u) {
                coa_freeze_wait(c, lc, COA_WAIT_NO_CHANNEL, now);
                continue;
            }
            coa_wait_t w = coa_lc_wait_now(c, lc, now);
            l->last_wait = (uint8_t)w;
            if (w != COA_WAIT_NONE)
                c->lc_stats[lc].wait_clocks[w]++;
            if (w == COA_WAIT_RECEIVER) /* arrived: it waits for the program until its state changes */
                coa_lc_freeze(c, lc, now);
        } else if (linked >> lc & 1u) {
            /* Routed on to a link: it waits for a credit (frozen until one comes) or its turn, unless the link is
             * busy with its own word. */
            if (l->credits == 0)
                coa_freeze_wait(c, lc, COA_WAIT_NO_SPACE, now);
            else if (c->link_free_at[l->route.dir] > now && c->link_last_lc[l->route.dir] == lc)
                l->last_wait = COA_WAIT_NONE;
            else
                coa_count_wait(c, lc, COA_WAIT_LOST_TURN);
        } else if ((unsigned)(l->route.kind - COA_END_GATE) > COA_END_QUEUE - COA_END_GATE)
            l->last_wait = COA_WAIT_NONE;
        else /* routed to its end in this cell (a gate, a spool, the arrival queue), which did not take the word:
              * it waits so until a pop there or a change of its state or route */
            coa_freeze_wait(c, lc, COA_WAIT_RECEIVER, now);
    }
}
/* coa_waits_awake for an agent that may sleep. */
static inline __attribute__((always_inline)) void coa_waits(coa_t *c, uint64_t now)
{
    if (c->asleep) {
        coa_account_each(c, c->busy_lc & ~c->frozen_lc, now);
        return;
    }
    coa_waits_awake(c, now);
}

#endif
