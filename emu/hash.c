/* A hash of the whole array: architectural state and statistics, field by field (never raw structs, whose
 * padding is undefined), so that runs can be compared across thread counts, stops and replays. */
#include <string.h>

#include "array_internal.h"

typedef struct hasher {
    uint64_t h;
} hasher_t;

/* FNV-1a over 8-byte words (fast enough for every cell's memory), then the tail byte by byte. */
static void mix(hasher_t *s, const void *p, size_t n)
{
    const uint8_t *b = p;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, b + i, 8);
        s->h = (s->h ^ w) * 0x100000001b3ull;
        s->h ^= s->h >> 29;
    }
    for (; i < n; i++)
        s->h = (s->h ^ b[i]) * 0x100000001b3ull;
}

static void u64(hasher_t *s, uint64_t v) { mix(s, &v, sizeof v); }

static void hash_ca(hasher_t *s, const ca_t *ca, bool with_stats, uint64_t now)
{
    mix(s, ca->s.regs, sizeof ca->s.regs);
    u64(s, ca->s.pc);
    u64(s, ca->s.state);
    u64(s, ca->s.ready_at);
    u64(s, ca->s.halted_at);
    u64(s, ca->s.fault.kind);
    if (!with_stats)
        return;
    /* Statistics as if settled now: the same whether or not a run has closed its books at this clock. */
    ca_stats_t st = ca->s.stats;
    if (ca->s.state == CA_WAITING && now > ca->s.wait_since)
        st.stall_clocks[ca->s.wait_cause] += now - ca->s.wait_since;
    mix(s, st.stall_clocks, sizeof st.stall_clocks);
    uint64_t v[] = {st.bundles,   st.ops,        st.busy_clocks, st.mem_reads,      st.mem_writes,
                    st.gate_reads, st.gate_writes, st.cr_reads,    st.cr_writes,      st.branches_taken};
    mix(s, v, sizeof v);
}

static void hash_coa(hasher_t *s, const coa_t *c, bool with_stats, uint64_t now)
{
    for (unsigned i = 0; i < c->cfg.channels; i++) {
        const coa_lc_t *l = &c->lc[i];
        uint64_t v[] = {l->state, coa_end_encode(l->route), coa_end_encode(l->source), l->travel_dir, l->pool,
                        l->credits, l->count};
        mix(s, v, sizeof v);
        for (unsigned k = 0; k < l->count; k++) {
            bool tag;
            u64(s, coa_lc_peek(c, i, k, &tag));
            u64(s, tag);
        }
        if (with_stats) {
            const coa_lc_stats_t *st = &l->stats;
            uint64_t dt = now > l->stats_since ? now - l->stats_since : 0;
            uint64_t no_data = st->wait_clocks[COA_WAIT_NO_DATA];
            if (l->count == 0 && l->state == COA_LC_ROUTED)
                no_data += dt;
            u64(s, st->words_in);
            u64(s, st->words_out);
            u64(s, st->occupancy_sum + (uint64_t)l->count * dt);
            u64(s, st->occupancy_max);
            u64(s, st->pathways);
            u64(s, st->held_pathways);
            u64(s, st->held_clocks);
            u64(s, st->held_max);
            uint64_t waits[COA_WAIT_COUNT];
            memcpy(waits, st->wait_clocks, sizeof waits);
            waits[COA_WAIT_NO_DATA] = no_data;
            waits[l->last_wait % COA_WAIT_COUNT] += coa_lc_frozen_clocks(c, i, now); /* as if thawed */
            mix(s, waits, sizeof waits);
        }
    }
    for (unsigned i = 0; i < c->cfg.spools; i++) {
        const coa_spool_t *sp = &c->spool[i];
        uint64_t v[] = {sp->mode, sp->lc, sp->status, sp->addr, (uint32_t)sp->stride, sp->count, sp->words};
        mix(s, v, sizeof v);
    }
    for (unsigned d = 0; d < COA_NUM_DIRS; d++) {
        u64(s, c->remote_free[d]);
        if (with_stats) {
            u64(s, c->link_stats[d].words);
            u64(s, c->link_stats[d].busy_clocks);
        }
    }
    u64(s, c->asleep);
    u64(s, c->narrivals);
    u64(s, c->moved);
}

uint64_t emu_array_hash(const emu_array_t *a, bool with_memory, bool with_stats)
{
    hasher_t s = {0xcbf29ce484222325ull};
    u64(&s, a->clock);
    for (unsigned i = 0; i < a->ncells; i++) {
        const emu_cell_t *c = &a->cells[i];
        hash_ca(&s, &c->ca, with_stats, a->clock);
        hash_coa(&s, &c->coa, with_stats, a->clock);
        if (with_memory)
            mix(&s, c->mem, a->machine.mem_bytes);
    }
    return s.h;
}
