/* The checks an agent's state read from a file passes before the agent runs on it (a snapshot's restore). The
 * agent indexes its queues, channels, spools and lines with what its state holds, and trusts the masks that
 * summarize its channels (coa_t: busy_lc, routed_lc, ...) to say what the channels say: a channel in busy_lc
 * with no word would be popped below zero, and its next push written past its queue. So every index, count,
 * state and mask is checked against its range and the configuration of the machine, which the state's own copy
 * of it must equal. Each message names the field: "lc[3].count is 20, the queue holds 8". */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "coa_base.h"

static int fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
    if (err != NULL && errlen > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* A bool holding anything but 0 or 1 is undefined behaviour to read: its byte is looked at instead. */
static unsigned bool_byte(const bool *b)
{
    uint8_t v;
    memcpy(&v, b, 1);
    return v;
}

static uint64_t channels_mask(unsigned channels)
{
    return channels >= 64 ? ~0ull : coa_bit(channels) - 1u;
}

/* The agent's copy of the machine's keys (every row of coa_keys.def) and its place. */
static int check_config(const coa_t *c, const coa_config_t *want, coa_place_t at, char *err, size_t errlen)
{
#define COA_KEY(field, def, min, max, unit, doc, source)                                                               \
    if (c->cfg.field != want->field)                                                                                   \
        return fail(err, errlen, "cfg.%s is %u, the machine has %u", #field, c->cfg.field, want->field);
#include "coa_keys.def"
#undef COA_KEY
    const struct {
        const char *name;
        unsigned got, want;
    } f[] = {
        {"x", c->at.x, at.x},
        {"y", c->at.y, at.y},
        {"width", c->at.width, at.width},
        {"height", c->at.height, at.height},
    };
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
        if (f[i].got != f[i].want)
            return fail(err, errlen, "at.%s is %u, the cell's is %u", f[i].name, f[i].got, f[i].want);
    return 0;
}

/* A route or source: a link names a neighbour's channel; gates, spools and the arrival queue are looked up
 * with a range check where used (a program may write any index there). */
static int check_end(coa_end_t e, unsigned max_kind, unsigned channels, unsigned lc, const char *what, char *err,
                     size_t errlen)
{
    if (e.kind > max_kind)
        return fail(err, errlen, "lc[%u].%s.kind is %u, the kinds are 0..%u", lc, what, e.kind, max_kind);
    if (e.dir > 15u || (e.kind == COA_END_LINK && e.dir >= COA_NUM_DIRS))
        return fail(err, errlen, "lc[%u].%s.dir is %u, the directions are 0..%u", lc, what, e.dir, COA_NUM_DIRS - 1u);
    if (e.kind == COA_END_LINK && e.index >= channels)
        return fail(err, errlen, "lc[%u].%s.index is %u, the machine has %u channels", lc, what, e.index, channels);
    return 0;
}

static int check_channel(const coa_t *c, unsigned lc, const uint8_t *qtag, char *err, size_t errlen)
{
    const coa_lc_t *l = &c->lc[lc];
    unsigned depth = c->cfg.queue_depth;
    if (l->state > COA_LC_DRAINING)
        return fail(err, errlen, "lc[%u].state is %u, the states are 0..%u", lc, l->state, COA_LC_DRAINING);
    if (check_end(l->route, COA_END_QUEUE, c->cfg.channels, lc, "route", err, errlen) != 0 ||
        check_end(l->source, COA_END_SPOOL, c->cfg.channels, lc, "source", err, errlen) != 0)
        return -1;
    if (l->travel_dir >= COA_NUM_DIRS && l->travel_dir != COA_NONE)
        return fail(err, errlen, "lc[%u].travel_dir is %u, the directions are 0..%u or none (%u)", lc, l->travel_dir,
                    COA_NUM_DIRS - 1u, COA_NONE);
    if (l->pool >= COA_NUM_POOLS)
        return fail(err, errlen, "lc[%u].pool is %u, the pools are 0..%u", lc, l->pool, COA_NUM_POOLS - 1u);
    const struct {
        const char *name;
        const bool *b;
    } bools[] = {{"owned_by_link", &l->owned_by_link},
                 {"open_pending", &l->open_pending},
                 {"trailer_sent", &l->trailer_sent},
                 {"setup_started", &l->setup_started},
                 {"header_out", &l->header_out}};
    for (size_t i = 0; i < sizeof bools / sizeof bools[0]; i++)
        if (bool_byte(bools[i].b) > 1)
            return fail(err, errlen, "lc[%u].%s is %u, not 0 or 1", lc, bools[i].name, bool_byte(bools[i].b));
    if (l->credits > depth)
        return fail(err, errlen, "lc[%u].credits is %u, the queue holds %u", lc, l->credits, depth);
    if (l->head >= depth)
        return fail(err, errlen, "lc[%u].head is %u, the queue holds %u", lc, l->head, depth);
    if (l->count > depth)
        return fail(err, errlen, "lc[%u].count is %u, the queue holds %u", lc, l->count, depth);
    if (l->last_wait >= COA_WAIT_COUNT)
        return fail(err, errlen, "lc[%u].last_wait is %u, the waits are 0..%u", lc, l->last_wait, COA_WAIT_COUNT - 1u);
    /* The tags of the words queued: a popped trailer takes ntagged down, which must not pass zero. */
    unsigned tagged = 0;
    for (unsigned i = 0; i < l->count; i++) {
        uint8_t t = qtag[lc * depth + (l->head + i) % depth];
        if (t > 1)
            return fail(err, errlen, "lc[%u]'s word %u has tag %u, not 0 or 1", lc, i, t);
        tagged += t;
    }
    if (l->ntagged != tagged)
        return fail(err, errlen, "lc[%u].ntagged is %u, the queue holds %u tagged words", lc, l->ntagged, tagged);
    return 0;
}

/* The masks that summarize the channels say what the channels say (each is kept by one function, coa.h). */
static int check_channel_masks(const coa_t *c, char *err, size_t errlen)
{
    uint64_t busy = 0, tagged = 0, header = 0, routed = 0, credit = 0, link[COA_NUM_DIRS] = {0};
    /* The configuration is the machine's (at most COA_MAX_CHANNELS): the second bound tells the compiler so. */
    for (unsigned lc = 0; lc < c->cfg.channels && lc < COA_MAX_CHANNELS; lc++) {
        const coa_lc_t *l = &c->lc[lc];
        busy |= l->count > 0 ? coa_bit(lc) : 0;
        tagged |= l->ntagged > 0 ? coa_bit(lc) : 0;
        header |= l->state == COA_LC_HEADER ? coa_bit(lc) : 0;
        routed |= l->state == COA_LC_ROUTED ? coa_bit(lc) : 0;
        credit |= l->credits > 0 ? coa_bit(lc) : 0;
        if (l->route.kind == COA_END_LINK)
            link[l->route.dir] |= coa_bit(lc);
    }
    const struct {
        const char *name;
        uint64_t got, want;
        const char *says;
    } kept[] = {
        {"busy_lc", c->busy_lc, busy, "channels holding words"},
        {"tagged_lc", c->tagged_lc, tagged, "channels holding tagged words"},
        {"header_lc", c->header_lc, header, "channels in state header"},
        {"routed_lc", c->routed_lc, routed, "channels in state routed"},
        {"credit_lc", c->credit_lc, credit, "channels with credits"},
        {"link_lc[0]", c->link_lc[0], link[0], "channels routed to link 0"},
        {"link_lc[1]", c->link_lc[1], link[1], "channels routed to link 1"},
        {"link_lc[2]", c->link_lc[2], link[2], "channels routed to link 2"},
        {"link_lc[3]", c->link_lc[3], link[3], "channels routed to link 3"},
        {"linked_lc", c->linked_lc, link[0] | link[1] | link[2] | link[3], "channels routed to a link"},
        {"header_work_lc", c->header_work_lc,
         (header & ~c->blocked_lc) | (tagged & ~(link[0] | link[1] | link[2] | link[3]) & ~header),
         "channels with work for the headers"},
    };
    for (size_t i = 0; i < sizeof kept / sizeof kept[0]; i++)
        if (kept[i].got != kept[i].want)
            return fail(err, errlen, "%s is 0x%llx, the %s are 0x%llx", kept[i].name, (unsigned long long)kept[i].got,
                        kept[i].says, (unsigned long long)kept[i].want);
    /* The agent's own books name channels of the machine only. (The pools and remote_free may name any: a program
     * writes them whole, and a header takes only channels of the machine from them.) */
    uint64_t outside = ~channels_mask(c->cfg.channels);
    const struct {
        const char *name;
        uint64_t m;
    } within[] = {{"blocked_lc", c->blocked_lc}, {"frozen_lc", c->frozen_lc}, {"stuck_lcs", c->stuck_lcs}};
    for (size_t i = 0; i < sizeof within / sizeof within[0]; i++)
        if (within[i].m & outside)
            return fail(err, errlen, "%s is 0x%llx, the machine has %u channels", within[i].name,
                        (unsigned long long)within[i].m, c->cfg.channels);
    return 0;
}

static int check_spools(const coa_t *c, char *err, size_t errlen)
{
    uint32_t active = 0, machine = c->cfg.spools >= 32 ? ~0u : (1u << c->cfg.spools) - 1u;
    for (unsigned s = 0; s < COA_MAX_SPOOLS; s++) {
        const coa_spool_t *sp = &c->spool[s];
        if (sp->mode > COA_SPOOL_RECEIVE)
            return fail(err, errlen, "spool[%u].mode is %u, the modes are 0..%u", s, sp->mode, COA_SPOOL_RECEIVE);
        if (sp->mode != COA_SPOOL_IDLE && s >= c->cfg.spools)
            return fail(err, errlen, "spool[%u].mode is %u, the machine has %u spools", s, sp->mode, c->cfg.spools);
        if (sp->lc >= c->cfg.channels && sp->lc != COA_NONE)
            return fail(err, errlen, "spool[%u].lc is %u, the machine has %u channels", s, sp->lc, c->cfg.channels);
        if (sp->status > (COA_SPOOL_DONE | COA_SPOOL_TRAILER))
            return fail(err, errlen, "spool[%u].status is %u, the bits are 0x%x", s, sp->status,
                        COA_SPOOL_DONE | COA_SPOOL_TRAILER);
        active |= sp->mode != COA_SPOOL_IDLE ? 1u << s : 0;
    }
    if (c->spools_active != active)
        return fail(err, errlen, "spools_active is 0x%x, the spools not idle are 0x%x", c->spools_active, active);
    if (c->spools_stuck & ~machine)
        return fail(err, errlen, "spools_stuck is 0x%x, the machine has %u spools", c->spools_stuck, c->cfg.spools);
    if (c->spools_ready != (active & ~c->spools_stuck))
        return fail(err, errlen, "spools_ready is 0x%x, the active spools not stuck are 0x%x", c->spools_ready,
                    active & ~c->spools_stuck);
    if (c->spool_events & ~machine)
        return fail(err, errlen, "spool_events is 0x%x, the machine has %u spools", c->spool_events, c->cfg.spools);
    for (unsigned lc = 0; lc < c->cfg.channels && lc < COA_MAX_CHANNELS; lc++)
        if (c->stuck_on[lc] & ~machine)
            return fail(err, errlen, "stuck_on[%u] is 0x%x, the machine has %u spools", lc, c->stuck_on[lc],
                        c->cfg.spools);
    return 0;
}

/* Gates, the arrival queue, the pattern loader, and the rest of the agent's own fields. */
static int check_agent(const coa_t *c, char *err, size_t errlen)
{
    unsigned channels = c->cfg.channels;
    for (unsigned g = 0; g < COA_NUM_GATES; g++) {
        unsigned in = c->gate_in_lc[g], out = c->gate_out_lc[g];
        if (in >= channels && in != COA_NONE && in != COA_EXPECT)
            return fail(err, errlen, "gate_in_lc[%u] is %u, the machine has %u channels", g, in, channels);
        if (out >= channels && out != COA_NONE)
            return fail(err, errlen, "gate_out_lc[%u] is %u, the machine has %u channels", g, out, channels);
    }
    /* A link's round robin starts after the channel it served last, a shift by its number (coa_next_bit_after). */
    for (unsigned d = 0; d < COA_NUM_DIRS; d++)
        if (c->rr[d] >= COA_MAX_CHANNELS)
            return fail(err, errlen, "rr[%u] is %u, the channels are 0..%u", d, c->rr[d], COA_MAX_CHANNELS - 1u);
    if (c->tag_next >= 1u << COA_NUM_GATES)
        return fail(err, errlen, "tag_next is 0x%x, the gates are %u", c->tag_next, COA_NUM_GATES);
    const struct {
        const char *name;
        const bool *b;
    } bools[] = {{"asleep", &c->asleep}, {"loading", &c->loading}, {"fault.raised", &c->fault.raised}};
    for (size_t i = 0; i < sizeof bools / sizeof bools[0]; i++)
        if (bool_byte(bools[i].b) > 1)
            return fail(err, errlen, "%s is %u, not 0 or 1", bools[i].name, bool_byte(bools[i].b));
    /* The loader's next word is the count (UINT32_MAX) or one of an entry's four. */
    if (c->load_index >= 4 && c->load_index != UINT32_MAX)
        return fail(err, errlen, "load_index is %u, an entry has 4 words", c->load_index);
    if (c->narrivals > channels)
        return fail(err, errlen, "narrivals is %u, the machine has %u channels", c->narrivals, channels);
    for (unsigned i = 0; i < c->narrivals; i++)
        if (c->arrivals[i] >= channels)
            return fail(err, errlen, "arrivals[%u] is %u, the machine has %u channels", i, c->arrivals[i], channels);
    if (memchr(c->fault.detail, '\0', sizeof c->fault.detail) == NULL)
        return fail(err, errlen, "fault.detail has no end (%zu bytes without a NUL)", sizeof c->fault.detail);
    return 0;
}

int coa_state_check(const coa_t *c, const coa_config_t *cfg, coa_place_t at, const uint8_t *qtag, char *err,
                    size_t errlen)
{
    /* The configuration first: the checks below measure against it. */
    if (check_config(c, cfg, at, err, errlen) != 0)
        return -1;
    for (unsigned lc = 0; lc < cfg->channels && lc < COA_MAX_CHANNELS; lc++)
        if (check_channel(c, lc, qtag, err, errlen) != 0)
            return -1;
    if (check_channel_masks(c, err, errlen) != 0 || check_spools(c, err, errlen) != 0 ||
        check_agent(c, err, errlen) != 0)
        return -1;
    return 0;
}

int coa_slot_check(const coa_slot_t *s, unsigned channels, char *err, size_t errlen)
{
    uint64_t valid = channels >= 64 ? ~0ull : (1ull << channels) - 1u;
    if (bool_byte(&s->has_flit) > 1)
        return fail(err, errlen, "has_flit is %u, not 0 or 1", bool_byte(&s->has_flit));
    if (s->has_flit) {
        const coa_flit_t *f = &s->flit;
        if (f->dst_lc >= channels)
            return fail(err, errlen, "flit.dst_lc is %u, the machine has %u channels", f->dst_lc, channels);
        if (f->src_lc >= channels)
            return fail(err, errlen, "flit.src_lc is %u, the machine has %u channels", f->src_lc, channels);
        if (f->tag > 1 || f->open > 1)
            return fail(err, errlen, "flit.%s is %u, not 0 or 1", f->tag > 1 ? "tag" : "open",
                        f->tag > 1 ? f->tag : f->open);
        if (f->pool >= COA_NUM_POOLS)
            return fail(err, errlen, "flit.pool is %u, the pools are 0..%u", f->pool, COA_NUM_POOLS - 1u);
        if (f->travel_dir >= COA_NUM_DIRS && f->travel_dir != COA_NONE)
            return fail(err, errlen, "flit.travel_dir is %u, the directions are 0..%u or none (%u)", f->travel_dir,
                        COA_NUM_DIRS - 1u, COA_NONE);
    }
    if ((s->credit_lc & ~valid) != 0)
        return fail(err, errlen, "credit_lc is 0x%llx, the machine has %u channels", (unsigned long long)s->credit_lc,
                    channels);
    if ((s->free_lc & ~valid) != 0)
        return fail(err, errlen, "free_lc is 0x%llx, the machine has %u channels", (unsigned long long)s->free_lc,
                    channels);
    if ((s->more_lc & ~s->credit_lc) != 0)
        return fail(err, errlen, "more_lc is 0x%llx, not within credit_lc 0x%llx", (unsigned long long)s->more_lc,
                    (unsigned long long)s->credit_lc);
    /* A count outside more_lc would be added to by the sender and never taken by the receiver. */
    for (unsigned lc = 0; lc < COA_MAX_CHANNELS; lc++)
        if ((s->more[lc] != 0) != ((s->more_lc >> lc & 1u) != 0))
            return fail(err, errlen, "more[%u] is %u, more_lc says %s", lc, s->more[lc],
                        s->more_lc >> lc & 1u ? "more credits" : "none");
    return 0;
}
