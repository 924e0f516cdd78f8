/* The view model: filling it from a live array (the recorder's side), unpacking it (the renderer's side). */
#include "view_model.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void view_layout_init(view_layout_t *l, unsigned width, unsigned height, unsigned channels, unsigned spools,
                      unsigned queue_depth, unsigned link_clocks, unsigned hop_latency)
{
    memset(l, 0, sizeof *l);
    l->width = width;
    l->height = height;
    l->channels = channels;
    l->spools = spools;
    l->queue_depth = queue_depth;
    l->link_clocks = link_clocks;
    l->hop_latency = hop_latency;
    l->link0 = VM_CELL_SLOTS;
    l->lc0 = l->link0 + COA_NUM_DIRS * VM_LINK_SLOTS;
    l->spool0 = l->lc0 + channels * VM_LC_SLOTS;
    l->regs0 = l->spool0 + spools * VM_SP_SLOTS;
    l->cell_slots = l->regs0 + ISA_NUM_REGS;
}

void view_layout_from_machine(view_layout_t *l, const emu_machine_t *m)
{
    view_layout_init(l, m->width, m->height, m->agent.channels, m->agent.spools, m->agent.queue_depth,
                     m->agent.link_clocks, m->agent.hop_latency);
}

bool view_layout_valid(const view_layout_t *l)
{
    return l->width >= 1 && l->width <= EMU_MAX_DIM && l->height >= 1 && l->height <= EMU_MAX_DIM && l->channels >= 1 &&
           l->channels <= COA_MAX_CHANNELS && l->spools <= COA_MAX_SPOOLS && l->queue_depth >= 1 &&
           l->queue_depth <= 0xffff && l->link_clocks >= 1 && l->hop_latency >= 1;
}

int view_model_init(view_model_t *m, const view_layout_t *l)
{
    memset(m, 0, sizeof *m);
    m->l = *l;
    m->slots = calloc(view_model_nslots(m), sizeof *m->slots);
    m->bundles_seen = malloc((size_t)l->width * l->height * sizeof *m->bundles_seen);
    if (m->slots == NULL || m->bundles_seen == NULL) {
        view_model_free(m);
        return -1;
    }
    memset(m->bundles_seen, 0xff, (size_t)l->width * l->height * sizeof *m->bundles_seen);
    return 0;
}

void view_model_free(view_model_t *m)
{
    free(m->slots);
    free(m->bundles_seen);
    m->slots = NULL;
    m->bundles_seen = NULL;
}

void view_model_clear(view_model_t *m)
{
    memset(m->slots, 0, view_model_nslots(m) * sizeof *m->slots);
    memset(m->bundles_seen, 0xff, (size_t)m->l.width * m->l.height * sizeof *m->bundles_seen);
    m->clock = 0;
    m->next_path = 0;
}

void view_changes_free(view_changes_t *c)
{
    free(c->idx);
    memset(c, 0, sizeof *c);
}

static void note(view_changes_t *c, size_t i)
{
    if (c == NULL || c->failed)
        return;
    if (c->n == c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 1024;
        uint32_t *grown = realloc(c->idx, cap * sizeof *grown);
        if (grown == NULL) {
            c->failed = true;
            return;
        }
        c->idx = grown;
        c->cap = cap;
    }
    if (c->n > 0 && c->idx[c->n - 1] >= i)
        c->unsorted = true;
    c->idx[c->n++] = (uint32_t)i;
}

static inline void put(view_model_t *m, size_t i, uint64_t v, view_changes_t *ch)
{
    if (m->slots[i] != v) {
        m->slots[i] = v;
        note(ch, i);
    }
}

void view_neighbour(const view_layout_t *l, unsigned x, unsigned y, unsigned d, unsigned *nx, unsigned *ny)
{
    *nx = x;
    *ny = y;
    coa_dir_step((coa_dir_t)d, l->width, l->height, nx, ny);
}

void view_lc_unpack(const view_model_t *m, const uint64_t *cell, unsigned lc, view_lc_info_t *out)
{
    const uint64_t *s = view_lc(m, cell, lc);
    uint64_t a = s[VM_LC_A], e = s[VM_LC_ENDS], h = s[VM_LC_HEAD];
    out->state = (unsigned)(a & 0xff);
    out->travel_dir = (unsigned)(a >> 8 & 0xff);
    out->pool = (unsigned)(a >> 16 & 0xff);
    out->wait = (unsigned)(a >> 24 & 0xff);
    out->count = (unsigned)(a >> 32 & 0xffff);
    out->credits = (unsigned)(a >> 48 & 0xffff);
    out->route = coa_end_decode((uint32_t)(e & 0xffff));
    out->source = coa_end_decode((uint32_t)(e >> 16 & 0xffff));
    out->ntagged = (unsigned)(e >> 32 & 0xffff);
    out->head = (uint32_t)h;
    out->head_tagged = (h >> 32 & 1u) != 0;
    out->has_head = (h >> 33 & 1u) != 0;
    out->path = s[VM_LC_PATH];
}

const char *view_ca_describe(const uint64_t *cell, bool has_program, char *buf, size_t cap)
{
    unsigned state = (unsigned)(cell[VM_CA] & 0xff), gate = (unsigned)(cell[VM_CA] >> 16 & 0xff);
    if (!has_program)
        snprintf(buf, cap, "no program: its agent only forwards words");
    else if (state == CA_WAITING)
        snprintf(buf, cap, "waiting %s %s%u since clock %" PRIu64, gate < 2 ? "for a word on" : "for room on",
                 gate < 2 ? "gi" : "go", gate % 2, cell[VM_SINCE]);
    else if (state == CA_HALTED || state == CA_FAULTED)
        snprintf(buf, cap, "%s at clock %" PRIu64, state == CA_HALTED ? "halted" : "faulted", cell[VM_SINCE]);
    else
        snprintf(buf, cap, "running");
    return buf;
}

const char *view_end_name(coa_end_t e, bool route, char *buf, size_t cap)
{
    switch (e.kind) {
    case COA_END_LINK: snprintf(buf, cap, "%s ch%u", coa_dir_name((coa_dir_t)e.dir), e.index); break;
    case COA_END_GATE: snprintf(buf, cap, "%s%u", route ? "gi" : "go", e.index); break;
    case COA_END_SPOOL: snprintf(buf, cap, "spool %u", e.index); break;
    case COA_END_QUEUE: snprintf(buf, cap, "arrivals"); break;
    default: snprintf(buf, cap, "-"); break;
    }
    return buf;
}

void view_slot_where(const view_layout_t *l, size_t i, unsigned *cell, view_slot_kind_t *kind, unsigned *unit,
                     unsigned *field)
{
    *cell = (unsigned)(i / l->cell_slots);
    unsigned k = (unsigned)(i % l->cell_slots);
    if (k < l->link0) {
        *kind = VM_KIND_CELL, *unit = 0, *field = k;
    } else if (k < l->lc0) {
        *kind = VM_KIND_LINK, *unit = (k - l->link0) / VM_LINK_SLOTS, *field = (k - l->link0) % VM_LINK_SLOTS;
    } else if (k < l->spool0) {
        *kind = VM_KIND_LC, *unit = (k - l->lc0) / VM_LC_SLOTS, *field = (k - l->lc0) % VM_LC_SLOTS;
    } else if (k < l->regs0) {
        *kind = VM_KIND_SPOOL, *unit = (k - l->spool0) / VM_SP_SLOTS, *field = (k - l->spool0) % VM_SP_SLOTS;
    } else {
        *kind = VM_KIND_REG, *unit = k - l->regs0, *field = 0;
    }
}

static uint64_t ca_word(const ca_t *ca)
{
    uint64_t v = (uint64_t)ca->s.state;
    if (ca->s.state == CA_WAITING)
        v |= (uint64_t)ca->s.wait_cause << 8 | (uint64_t)ca->s.wait_gate << 16;
    return v;
}

static void update_cell(view_model_t *m, const emu_array_t *a, unsigned x, unsigned y, uint64_t clock, bool ran,
                        view_changes_t *ch)
{
    const view_layout_t *l = &m->l;
    size_t base = ((size_t)y * l->width + x) * l->cell_slots;
    const ca_t *ca = emu_array_ca(a, x, y);
    const coa_t *co = emu_array_coa(a, x, y);

    put(m, base + VM_CA, ca_word(ca), ch);
    put(m, base + VM_PC, ca->s.pc, ch);
    if (ca->s.state != CA_WAITING)
        put(m, base + VM_SINCE, ca_done(ca) ? ca->s.halted_at : 0, ch);
    else
        put(m, base + VM_SINCE, ca->s.wait_began, ch);
    if (ran) {
        const uint32_t *marks;
        unsigned n = emu_array_marks(a, x, y, &marks);
        if (n > 0) {
            put(m, base + VM_MARK, marks[n - 1], ch);
            put(m, base + VM_MARK_CLOCK, clock, ch);
        }
    }
    put(m, base + VM_GATES,
        (uint64_t)co->gate_in_lc[0] | (uint64_t)co->gate_in_lc[1] << 8 | (uint64_t)co->gate_out_lc[0] << 16 |
            (uint64_t)co->gate_out_lc[1] << 24,
        ch);
    put(m, base + VM_AGENT, (co->asleep ? 1u : 0u) | (co->loading ? 2u : 0u) | (uint64_t)co->narrivals << 8, ch);

    for (unsigned d = 0; d < COA_NUM_DIRS; d++) {
        size_t s = base + l->link0 + d * VM_LINK_SLOTS;
        bool sent = m->slots[s + VM_LINK_WORDS] != co->link_stats[d].words;
        put(m, s + VM_LINK_WORDS, co->link_stats[d].words, ch);
        put(m, s + VM_LINK_BUSY, co->link_stats[d].busy_clocks, ch);
        if (sent) {
            /* A word left in the clock that just ran: it is on the wire for hop_latency clocks. */
            put(m, s + VM_LINK_SENT, clock, ch);
            put(m, s + VM_LINK_LC, co->link_last_lc[d], ch);
        }
    }

    for (unsigned lc = 0; lc < l->channels; lc++) {
        const coa_lc_t *c = &co->lc[lc];
        size_t s = base + l->lc0 + lc * VM_LC_SLOTS;
        /* A stale last_wait stays behind when a channel empties: an empty channel waits for data or nothing. */
        unsigned wait = c->count > 0                                             ? c->last_wait
                        : c->state == COA_LC_ROUTED || c->state == COA_LC_HEADER ? COA_WAIT_NO_DATA
                                                                                 : COA_WAIT_NONE;
        uint64_t av = (uint64_t)c->state | (uint64_t)(c->travel_dir & 0xffu) << 8 | (uint64_t)c->pool << 16 |
                      (uint64_t)wait << 24 | (uint64_t)c->count << 32 | (uint64_t)c->credits << 48;
        uint64_t ends =
            (uint64_t)coa_end_encode(c->route) | (uint64_t)coa_end_encode(c->source) << 16 | (uint64_t)c->ntagged << 32;
        uint64_t head = 0;
        if (c->count > 0) {
            bool tag;
            uint32_t w = coa_lc_peek(co, lc, 0, &tag);
            head = (uint64_t)w | (uint64_t)(tag ? 1u : 0u) << 32 | 1ull << 33;
        }
        bool was_free = (m->slots[s + VM_LC_A] & 0xff) == COA_LC_FREE;
        /* A channel that gets its first source (ALLOC, then binding a gate or spool) stays the same pathway. */
        uint64_t old_source = m->slots[s + VM_LC_ENDS] >> 16 & 0xffff;
        bool new_source = old_source != 0 && old_source != (ends >> 16 & 0xffff);
        put(m, s + VM_LC_A, av, ch);
        put(m, s + VM_LC_ENDS, ends, ch);
        put(m, s + VM_LC_HEAD, head, ch);
        if (c->state == COA_LC_FREE)
            put(m, s + VM_LC_PATH, 0, ch);
        else if (was_free || new_source || m->slots[s + VM_LC_PATH] == 0)
            m->slots[s + VM_LC_PATH] = UINT64_MAX; /* to be named once every cell is up to date */
    }

    for (unsigned sp = 0; sp < l->spools; sp++) {
        const coa_spool_t *p = &co->spool[sp];
        size_t s = base + l->spool0 + sp * VM_SP_SLOTS;
        put(m, s + VM_SP_A,
            (uint64_t)p->mode | (uint64_t)p->lc << 8 | (uint64_t)p->status << 16 | (uint64_t)p->count << 32, ch);
        put(m, s + VM_SP_WORDS, p->words, ch);
    }

    /* Registers change only when a bundle issues (the core commits them then): most cells in most clocks
     * did not issue one, and comparing 128 registers is most of an update's work. */
    uint64_t *seen = &m->bundles_seen[(size_t)y * l->width + x];
    if (*seen != ca->s.stats.bundles) {
        *seen = ca->s.stats.bundles;
        /* The gate registers r124..r127 are not storage: what they hold is the network's (the channels). */
        for (unsigned r = 0; r < ISA_NUM_REGS; r++)
            put(m, base + l->regs0 + r, r < 124 ? ca_reg(ca, r) : 0, ch);
    }
}

/* A channel that just opened joins the pathway of the channel feeding it over a link, so a pathway keeps one
 * id (one colour) from its first hop to its last for as long as it lives; a pathway that starts here (a
 * gate, a spool, a pattern entry with no upstream) gets a new id. */
bool view_lc_upstream(const view_model_t *m, size_t s, size_t *up)
{
    const view_layout_t *l = &m->l;
    size_t cell = s / l->cell_slots;
    unsigned lc = (unsigned)((s % l->cell_slots - l->lc0) / VM_LC_SLOTS);
    coa_end_t src = coa_end_decode((uint32_t)(m->slots[s + VM_LC_ENDS] >> 16 & 0xffff));
    if (src.kind != COA_END_LINK || src.dir >= COA_NUM_DIRS || src.index >= l->channels)
        return false;
    unsigned nx, ny;
    view_neighbour(l, (unsigned)(cell % l->width), (unsigned)(cell / l->width), src.dir, &nx, &ny);
    size_t u = ((size_t)ny * l->width + nx) * l->cell_slots + l->lc0 + src.index * VM_LC_SLOTS;
    coa_end_t r = coa_end_decode((uint32_t)(m->slots[u + VM_LC_ENDS] & 0xffff));
    if ((m->slots[u + VM_LC_A] & 0xff) == COA_LC_FREE || r.kind != COA_END_LINK ||
        r.dir != coa_dir_opposite((coa_dir_t)src.dir) || r.index != lc)
        return false;
    *up = u;
    return true;
}

bool view_lc_downstream(const view_model_t *m, size_t s, size_t *down)
{
    const view_layout_t *l = &m->l;
    size_t cell = s / l->cell_slots;
    coa_end_t r = coa_end_decode((uint32_t)(m->slots[s + VM_LC_ENDS] & 0xffff));
    if (r.kind != COA_END_LINK || r.dir >= COA_NUM_DIRS || r.index >= l->channels)
        return false;
    unsigned nx, ny;
    view_neighbour(l, (unsigned)(cell % l->width), (unsigned)(cell / l->width), r.dir, &nx, &ny);
    size_t d = ((size_t)ny * l->width + nx) * l->cell_slots + l->lc0 + r.index * VM_LC_SLOTS, up;
    /* The next hop is there when it is fed by this one: the same test as upstream, from the other end. */
    if ((m->slots[d + VM_LC_A] & 0xff) == COA_LC_FREE || !view_lc_upstream(m, d, &up) || up != s)
        return false;
    *down = d;
    return true;
}

unsigned view_pathway(const view_model_t *m, unsigned cell, unsigned lc, view_hop_t *hops, unsigned cap)
{
    const view_layout_t *l = &m->l;
    if (cell >= l->width * l->height || lc >= l->channels || cap == 0)
        return 0;
    size_t s0 = view_lc_slot(m, cell, lc), s = s0, next, limit = (size_t)l->width * l->height * l->channels;
    if ((m->slots[s0 + VM_LC_A] & 0xff) == COA_LC_FREE)
        return 0;
    /* Back to where it starts (a ring has no start: it starts at the chosen hop). */
    for (size_t steps = 0; view_lc_upstream(m, s, &next) && next != s0 && steps < limit; steps++)
        s = next;
    if (view_lc_upstream(m, s, &next) && next == s0)
        s = s0;
    size_t first = s;
    unsigned n = 0;
    for (;;) {
        hops[n].cell = (unsigned)(s / l->cell_slots);
        hops[n].lc = (unsigned)((s % l->cell_slots - l->lc0) / VM_LC_SLOTS);
        n++;
        if (n == cap || !view_lc_downstream(m, s, &next) || next == first)
            return n;
        s = next;
    }
}

void view_model_fed(const view_model_t *m, uint8_t *fed)
{
    size_t n = (size_t)m->l.width * m->l.height * m->l.channels;
    /* Walks each pathway upstream from each of its channels. */
    for (size_t i = 0; i < n; i++) {
        size_t s = view_lc_slot(m, (unsigned)(i / m->l.channels), (unsigned)(i % m->l.channels)), up, steps = 0;
        bool is_fed = false;
        for (;;) {
            if ((m->slots[s + VM_LC_A] >> 32 & 0xffff) != 0) {
                is_fed = true;
                break;
            }
            if (!view_lc_upstream(m, s, &up) || steps++ >= n) {
                is_fed = coa_end_decode((uint32_t)(m->slots[s + VM_LC_ENDS] >> 16 & 0xffff)).kind != COA_END_NONE;
                break;
            }
            s = up;
        }
        fed[i] = is_fed;
    }
}

static int cmp_u32(const void *p, const void *q)
{
    uint32_t a = *(const uint32_t *)p, b = *(const uint32_t *)q;
    return (a > b) - (a < b);
}

static void name_pathways(view_model_t *m, view_changes_t *ch)
{
    const view_layout_t *l = &m->l;
    size_t ncells = (size_t)l->width * l->height, limit = ncells * l->channels;
    for (size_t c = 0; c < ncells; c++) {
        for (unsigned lc = 0; lc < l->channels; lc++) {
            size_t s = c * l->cell_slots + l->lc0 + lc * VM_LC_SLOTS;
            if (m->slots[s + VM_LC_PATH] != UINT64_MAX)
                continue;
            /* Walk upstream to a channel with a name, or to the start of the pathway. */
            size_t at = s, up, steps = 0;
            uint64_t id = 0;
            while (view_lc_upstream(m, at, &up) && steps++ < limit) {
                if (m->slots[up + VM_LC_PATH] != UINT64_MAX) {
                    id = m->slots[up + VM_LC_PATH];
                    break;
                }
                at = up;
            }
            if (id == 0)
                id = ++m->next_path;
            /* Name the whole unnamed stretch from s upstream. */
            at = s;
            steps = 0;
            for (;;) {
                m->slots[at + VM_LC_PATH] = 0;
                put(m, at + VM_LC_PATH, id, ch);
                if (!view_lc_upstream(m, at, &up) || m->slots[up + VM_LC_PATH] != UINT64_MAX || steps++ >= limit)
                    break;
                at = up;
            }
        }
    }
}

/* The trace codes slot numbers as gaps, so they must increase; names of pathways are noted after the rest of
 * the cells' changes, which breaks the order on the (rare) updates that open a pathway. */
static void settle_order(view_changes_t *ch)
{
    if (ch != NULL && ch->unsorted && !ch->failed) {
        qsort(ch->idx, ch->n, sizeof *ch->idx, cmp_u32);
        size_t k = 0;
        for (size_t i = 0; i < ch->n; i++)
            if (k == 0 || ch->idx[k - 1] != ch->idx[i])
                ch->idx[k++] = ch->idx[i];
        ch->n = k;
    }
}

void view_model_update(view_model_t *m, const emu_array_t *a, uint64_t clock, bool ran, view_changes_t *changes)
{
    if (changes != NULL) {
        changes->n = 0;
        changes->unsorted = false;
    }
    for (unsigned y = 0; y < m->l.height; y++)
        for (unsigned x = 0; x < m->l.width; x++)
            update_cell(m, a, x, y, clock, ran, changes);
    name_pathways(m, changes);
    settle_order(changes);
    m->clock = clock;
}
