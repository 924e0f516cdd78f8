/* xQy all-to-all under ConSet on the emulated array (copy_alltoall.h). */
#include "copy_alltoall.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "celldata.h"
#include "conset/pattern.h"
#include "conset/route.h"
#include "conset/route_tables.h"
#include "emu.h"
#include "program_load.h"
#include "run_loop.h"

/* programs/copy/alltoall.s's layout. */
enum {
    CONSET_TABLES = 0x70000,
    SRC = 0x100000,
    RIDX = 0x140000,
    WIDX = 0x180000,
    DST = 0x240000,
    REGION = 0x40000, /* each region's bytes */
    MEM_BYTES = 4u << 20,
    CAPACITY = 12,
    GUARD_WORDS = 16,
};

static const uint32_t guard_word = 0x5eedf00du;

/* Distinct words: the cell and the address. */
static uint32_t value_at(unsigned cell, uint32_t addr)
{
    return (addr ^ (cell * 0x9e3779b9u)) * 2654435761u + 0x1234567u;
}

static unsigned gcd(unsigned a, unsigned b)
{
    while (b) {
        unsigned t = a % b;
        a = b;
        b = t;
    }
    return a;
}

typedef struct a2a_layout {
    unsigned p, n, mult_x, mult_y;
    long x, y;
} a2a_layout_t;

/* Word k of the block for (or from) `cell` with pattern s, from base (index walk: a permutation of P N). */
static uint32_t addr_of(const a2a_layout_t *l, long s, uint32_t base, unsigned cell, unsigned k, unsigned mult)
{
    uint64_t i = (uint64_t)cell * l->n + k;
    if (s == COPY_INDEXED)
        return base + 4 * (uint32_t)((i * mult) % ((uint64_t)l->p * l->n));
    if ((unsigned long)s < l->p)
        return base + (uint32_t)(4 * (i * (uint64_t)s));
    return base + (uint32_t)(4 * (cell + (uint64_t)k * s));
}

static uint64_t span_words(const a2a_layout_t *l, long s)
{
    if (s == COPY_INDEXED)
        return (uint64_t)l->p * l->n;
    if ((unsigned long)s < l->p)
        return (uint64_t)l->p * l->n * s;
    return (uint64_t)s * (l->n - 1) + l->p;
}

static unsigned multiplier(unsigned m, unsigned start)
{
    while (gcd(start % m, m) != 1)
        start += 2;
    return start;
}

static int poke(emu_array_t *a, unsigned cell, unsigned w, uint32_t addr, uint32_t v)
{
    return emu_array_poke(a, cell % w, cell / w, addr, &v, 4);
}

static int lay_out(emu_array_t *a, const a2a_layout_t *l, unsigned w)
{
    uint64_t dspan = span_words(l, l->y);
    int rc = 0;
    for (unsigned c = 0; c < l->p && rc == 0; c++) {
        for (unsigned d = 0; d < l->p; d++)
            for (unsigned k = 0; k < l->n && d != c; k++) {
                uint32_t ra = addr_of(l, l->x, SRC, d, k, l->mult_x);
                rc |= poke(a, c, w, ra, value_at(c, ra));
                if (l->x == COPY_INDEXED)
                    rc |= poke(a, c, w, RIDX + 4 * (d * l->n + k), ra);
                if (l->y == COPY_INDEXED)
                    rc |= poke(a, c, w, WIDX + 4 * (d * l->n + k), addr_of(l, l->y, DST, d, k, l->mult_y));
            }
        for (uint64_t i = 0; i < dspan + 2 * GUARD_WORDS && rc == 0; i++)
            rc |= poke(a, c, w, DST - 4 * GUARD_WORDS + 4 * (uint32_t)i, guard_word);
    }
    return rc;
}

/* Every cell's destination: word k from s at its place (when the words went to memory), guards everywhere
 * else. */
static uint64_t check(const emu_array_t *a, const a2a_layout_t *l, unsigned w, bool moved)
{
    uint64_t dspan = span_words(l, l->y), wrong = 0;
    uint32_t *want = malloc((dspan + 2 * GUARD_WORDS) * sizeof *want);
    uint32_t *have = malloc((dspan + 2 * GUARD_WORDS) * sizeof *have);
    if (want == NULL || have == NULL) {
        free(want);
        free(have);
        return UINT64_MAX;
    }
    for (unsigned c = 0; c < l->p; c++) {
        for (uint64_t i = 0; i < dspan + 2 * GUARD_WORDS; i++)
            want[i] = guard_word;
        for (unsigned s = 0; s < l->p && moved; s++)
            for (unsigned k = 0; k < l->n && s != c; k++) {
                uint32_t wa = addr_of(l, l->y, DST, s, k, l->mult_y);
                want[(wa - DST) / 4 + GUARD_WORDS] = value_at(s, addr_of(l, l->x, SRC, c, k, l->mult_x));
            }
        if (ca_mem_read(emu_array_ca(a, c % w, c / w), DST - 4 * GUARD_WORDS, have,
                        (uint32_t)((dspan + 2 * GUARD_WORDS) * 4)) != 0) {
            wrong = UINT64_MAX;
            break;
        }
        for (uint64_t i = 0; i < dspan + 2 * GUARD_WORDS; i++)
            wrong += have[i] != want[i];
    }
    free(want);
    free(have);
    return wrong;
}

static int tables_for(unsigned width, unsigned height, unsigned words, celldata_t *tables, unsigned *phases, char *err,
                      size_t cap)
{
    cset_t set;
    if (pattern_generate(&set, PATTERN_ALLTOALL, width, height, words, CAPACITY, err, cap) != 0)
        return -1;
    route_options_t o;
    route_options_init(&o);
    route_plan_t plan;
    int rc = route_compile(&set, &o, &plan, err, cap);
    if (rc == 0) {
        *phases = plan.nphases;
        rc = route_tables(&plan, tables, err, cap);
        route_plan_free(&plan);
    }
    cset_free(&set);
    return rc;
}

static int validate(const copy_a2a_case_t *c, char *err, size_t cap)
{
    unsigned p = c->width * c->height;
    if (c->words < 2 || c->words % 2 != 0 || p < 2) {
        snprintf(err, cap, "N must be even and 2 or more, on 2 cells or more");
        return -1;
    }
    a2a_layout_t l = {.p = p, .n = c->words, .x = c->x, .y = c->y};
    if (c->x == 0 || c->y == 0 || span_words(&l, c->x) * 4 > REGION || span_words(&l, c->y) * 4 + 4 * GUARD_WORDS > REGION ||
        (uint64_t)p * c->words * 4 > REGION) {
        snprintf(err, cap, "the blocks of %u cells x %u words at these strides do not fit the program's 256 KB regions",
                 p, c->words);
        return -1;
    }
    return 0;
}

int copy_alltoall_run(const copy_a2a_case_t *c, copy_a2a_run_t *out, char *err, size_t cap)
{
    memset(out, 0, sizeof *out);
    if (validate(c, err, cap) != 0)
        return -1;
    unsigned p = c->width * c->height;
    a2a_layout_t l = {.p = p, .n = c->words, .x = c->x, .y = c->y};
    l.mult_x = multiplier(p * c->words, 389);
    l.mult_y = multiplier(p * c->words, 277);
    celldata_t tables;
    if (tables_for(c->width, c->height, c->words, &tables, &out->phases, err, cap) != 0)
        return -1;
    emu_machine_t m;
    emu_machine_defaults(&m);
    m.width = c->width;
    m.height = c->height;
    m.mem_bytes = MEM_BYTES;
    emu_array_t *a;
    if (emu_array_create(&a, &m, err, cap) != 0) {
        celldata_free(&tables);
        return -1;
    }
    emu_array_set_threads(a, c->threads ? c->threads : 1);
    const emu_program_t *prog = program_add(a, "programs/copy/alltoall.s", NULL, 0);
    int rc = prog != NULL ? 0 : -1;
    if (rc != 0)
        snprintf(err, cap, "programs/copy/alltoall.s did not assemble");
    const uint32_t args[4] = {
        c->style == COPY_PACKING ? 0 : c->style == COPY_CHAINED ? 1 : 2,
        c->words,
        c->x == COPY_INDEXED ? 0 : (uint32_t)c->x,
        c->y == COPY_INDEXED ? 0 : (uint32_t)c->y,
    };
    for (unsigned i = 0; i < p && rc == 0; i++)
        rc = emu_array_load(a, i % c->width, i / c->width, prog, args, 4, err, cap);
    if (rc == 0)
        rc = celldata_load(&tables, a, CONSET_TABLES, err, cap);
    if (rc == 0 && lay_out(a, &l, c->width) != 0) {
        snprintf(err, cap, "could not lay out the memory");
        rc = -1;
    }
    bool interrupted = false;
    if (rc == 0)
        rc = run_to_end(a, 4000000000ull, &interrupted, err, cap);
    if (rc == 0) {
        for (unsigned i = 0; i < p; i++) {
            uint64_t t = ca_reg(emu_array_ca(a, i % c->width, i / c->width), ISA_REG_A0);
            out->clocks = t > out->clocks ? t : out->clocks;
        }
        out->wrong = check(a, &l, c->width, c->style != COPY_BASIC);
    }
    emu_array_free(a);
    celldata_free(&tables);
    return rc;
}

int copy_alltoall_measure(const copy_a2a_case_t *c, copy_a2a_throughput_t *out, char *err, size_t cap)
{
    memset(out, 0, sizeof *out);
    copy_a2a_case_t twice = *c;
    twice.words = 2 * c->words;
    if (copy_alltoall_run(c, &out->at_n, err, cap) != 0 || copy_alltoall_run(&twice, &out->at_2n, err, cap) != 0)
        return -1;
    if (out->at_2n.clocks <= out->at_n.clocks) {
        snprintf(err, cap, "2N words took no longer than N");
        return -1;
    }
    double words = (double)(c->width * c->height - 1) * c->words;
    out->mbps = 4.0 * words * COPY_CLOCK_HZ / (double)(out->at_2n.clocks - out->at_n.clocks) / 1e6;
    return 0;
}
