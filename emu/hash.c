/* A hash of the whole array: every field of each cell's state that emu/state_fields.c declares, field by field
 * (never raw structs, whose padding is undefined), and the statistics, so that runs can be compared across
 * thread counts, stops and replays. */
#include <string.h>

#include "array_internal.h"
#include "fnv.h"
#include "state_fields.h"

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
        s->h = (s->h ^ w) * FNV64_PRIME;
        s->h ^= s->h >> 29;
    }
    for (; i < n; i++)
        s->h = (s->h ^ b[i]) * FNV64_PRIME;
}

static void u64(hasher_t *s, uint64_t v)
{
    mix(s, &v, sizeof v);
}

/* A struct by its table (emu/state_fields.h): every field it declares as state, in the table's order. */
static void hash_fields(hasher_t *s, const void *base, const state_struct_t *t, bool with_stats)
{
    for (unsigned i = 0; i < t->nfields; i++) {
        const state_field_t *f = &t->fields[i];
        const uint8_t *p = (const uint8_t *)base + f->offset;
        switch (f->how) {
        case STATE_STATS:
            if (with_stats)
                mix(s, p, f->size);
            break;
        case STATE_BYTES: mix(s, p, f->size); break;
        case STATE_TEXT: {
            const uint8_t *end = memchr(p, 0, f->size);
            mix(s, p, end != NULL ? (size_t)(end - p) : f->size);
            break;
        }
        case STATE_NESTED:
            for (size_t k = 0; k + f->of->size <= f->size; k += f->of->size)
                hash_fields(s, p + k, f->of, with_stats);
            break;
        case STATE_BY_HAND:
        case STATE_NOT_HASHED: break;
        }
    }
}

static void hash_ca(hasher_t *s, const ca_t *ca, bool with_stats, uint64_t now)
{
    hash_fields(s, &ca->s, state_fields_ca(), with_stats);
    if (!with_stats)
        return;
    /* Statistics as if settled now: the same whether or not a run has closed its books at this clock. */
    ca_stats_t st = ca->s.stats;
    if (ca->s.state == CA_WAITING && now > ca->s.wait_since)
        st.stall_clocks[ca->s.wait_cause] += now - ca->s.wait_since;
    hash_fields(s, &st, state_fields_ca_stats(), true);
}

static void hash_coa(hasher_t *s, const coa_t *c, bool with_stats, uint64_t now)
{
    hash_fields(s, c, state_fields_coa(), with_stats);
    mix(s, c->arrivals, c->narrivals < COA_MAX_CHANNELS ? c->narrivals : COA_MAX_CHANNELS);
    unsigned channels = c->cfg.channels < COA_MAX_CHANNELS ? c->cfg.channels : COA_MAX_CHANNELS;
    for (unsigned i = 0; i < channels; i++) {
        const coa_lc_t *l = &c->lc[i];
        for (unsigned k = 0; k < l->count; k++) { /* the queue's words live in the wiring */
            bool tag;
            u64(s, coa_lc_peek(c, i, k, &tag));
            u64(s, tag);
        }
        if (!with_stats)
            continue;
        /* As if settled now (coa_settle), and the waits counted lazily as if thawed. */
        coa_lc_stats_t st = c->lc_stats[i];
        uint64_t dt = now > l->stats_since ? now - l->stats_since : 0;
        if (l->count == 0 && l->state == COA_LC_ROUTED)
            st.wait_clocks[COA_WAIT_NO_DATA] += dt;
        st.occupancy_sum = coa_lc_occupancy_sum(l, now);
        st.wait_clocks[l->last_wait % COA_WAIT_COUNT] += coa_lc_frozen_clocks(c, i, now);
        hash_fields(s, &st, state_fields_coa_lc_stats(), true);
    }
}

uint64_t emu_array_hash(const emu_array_t *a, bool with_memory, bool with_stats)
{
    hasher_t s = {FNV64_OFFSET};
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
