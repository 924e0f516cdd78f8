/* Basic transfers measured on the emulated array (copy_measure.h). */
#include "copy_measure.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "copy_words.h"
#include "emu.h"
#include "program_load.h"
#include "run_loop.h"

/* programs/copy/basic.s's layout and transfer numbers. */
enum {
    SRC = 0x010000,
    RIDX = 0x180000,
    WIDX = 0x190000,
    PAIRS = 0x1a0000,
    DST = 0x200000,
    RESULTS = 0x3f0000,
    MEM_BYTES = 4u << 20,
    GUARD_WORDS = 16,
};
enum {
    OP_LOCAL,
    OP_SEND,
    OP_SEND_PLAIN,
    OP_FETCH,
    OP_RECEIVE,
    OP_DEPOSIT,
    OP_DEPOSIT_PAIRS,
    OP_NET_DATA,
    OP_NET_PAIRS,
    OP_PACKING,
    OP_CHAINED,
    OP_STORE_STREAM,
    OP_LOAD_STREAM,
};
enum { STORE_STREAM_WORD = 0x0c1 }; /* what basic.s's 0C1 stores */


/* Indexed patterns walk a permutation: k * mult mod N, mult odd and prime to N (N even). */
static uint32_t permuted(unsigned k, unsigned n, unsigned mult)
{
    return (uint32_t)(((uint64_t)k * mult) % n);
}

/* Address of element k of an access pattern (a stride in words, or indexed). */
static uint32_t pattern_addr(uint32_t base, long pattern, unsigned k, unsigned n, unsigned mult)
{
    if (pattern == COPY_INDEXED)
        return base + 4 * permuted(k, n, mult);
    return base + (uint32_t)(4 * (uint64_t)pattern * k);
}

bool copy_xqy_parse(const char *s, copy_style_t style, unsigned words, copy_bench_case_t *out)
{
    /* xQy has the patterns of a local copy xCy. */
    char buf[COPY_NAME_MAX];
    size_t len = strlen(s);
    const char *q = strchr(s, 'Q');
    if (q == NULL || len >= sizeof buf || style == COPY_BASIC)
        return false;
    memcpy(buf, s, len + 1);
    buf[q - s] = 'C';
    *out = (copy_bench_case_t){.style = style, .words = words};
    return copy_transfer_parse(buf, len, &out->t) && out->t.read != 0 && out->t.write != 0;
}

static int op_of(const copy_bench_case_t *c, char *err, size_t cap)
{
    const copy_transfer_t *t = &c->t;
    if (c->style != COPY_BASIC)
        return c->style == COPY_PACKING ? OP_PACKING : OP_CHAINED;
    switch (t->kind) {
    case COPY_LOCAL: return t->read == 0 ? OP_STORE_STREAM : t->write == 0 ? OP_LOAD_STREAM : OP_LOCAL;
    case COPY_SEND: return c->plain ? OP_SEND_PLAIN : OP_SEND;
    case COPY_FETCH:
        if (t->read == COPY_INDEXED) {
            snprintf(err, cap, "a spool fetches with a constant stride only: no !F0 on iWarp");
            return -1;
        }
        return OP_FETCH;
    case COPY_RECEIVE: return OP_RECEIVE;
    case COPY_DEPOSIT: return t->write == COPY_INDEXED ? OP_DEPOSIT_PAIRS : OP_DEPOSIT;
    case COPY_NET_DATA: return OP_NET_DATA;
    case COPY_NET_ADDRESS: return OP_NET_PAIRS;
    case COPY_NAMED: break;
    }
    snprintf(err, cap, "not a basic transfer");
    return -1;
}

typedef struct layout {
    int op;
    unsigned n, k, mult_r, mult_w;
    long read, write; /* the patterns the program sees (contiguous where the transfer has none) */
} layout_t;

static int poke_word(emu_array_t *a, unsigned x, uint32_t addr, uint32_t v)
{
    return emu_array_poke(a, x, 0, addr, &v, 4);
}

static uint32_t read_addr(const layout_t *l, unsigned k)
{
    return pattern_addr(SRC, l->read, k, l->n, l->mult_r);
}

static uint32_t write_addr(const layout_t *l, unsigned k)
{
    return pattern_addr(DST, l->write, k, l->n, l->mult_w);
}

/* The cell whose DST the transfer writes: cell 0 for a local copy (and the streams of 0C1 and 1C0), else the
 * receiver. */
static unsigned destination_cell(int op)
{
    return op == OP_LOCAL || op >= OP_STORE_STREAM ? 0 : 1;
}

/* What each word from DST on should hold after the transfer (the guard where it writes nothing). */
static uint32_t *destination(const layout_t *l, size_t *nwords)
{
    size_t span = 0;
    bool pairs_kept = l->op == OP_NET_PAIRS;
    bool streams = l->op == OP_NET_DATA || pairs_kept;
    if (streams)
        span = (size_t)l->k * l->n * (pairs_kept ? 2 : 1);
    else if (l->op == OP_STORE_STREAM || l->op == OP_LOAD_STREAM)
        span = l->n;
    else
        for (unsigned k = 0; k < l->n; k++) {
            size_t w = (write_addr(l, k) - DST) / 4 + 1;
            span = w > span ? w : span;
        }
    uint32_t *v = malloc((span + 1) * sizeof *v);
    if (v == NULL)
        return NULL;
    for (size_t i = 0; i < span; i++)
        v[i] = COPY_GUARD_WORD;
    if (streams) {
        for (unsigned j = 0; j < l->k; j++)
            for (unsigned k = 0; k < l->n; k++) {
                if (pairs_kept) {
                    v[(size_t)j * 2 * l->n + 2 * k] = DST + 4 * k;
                    v[(size_t)j * 2 * l->n + 2 * k + 1] = copy_value_at(0, SRC + 4 * k);
                } else {
                    v[(size_t)j * l->n + k] = copy_value_at(0, SRC + 4 * k);
                }
            }
    } else if (l->op == OP_STORE_STREAM) {
        for (unsigned k = 0; k < l->n; k++)
            v[k] = STORE_STREAM_WORD;
    } else if (l->op != OP_LOAD_STREAM) { /* loads leave the destination alone: guards only */
        for (unsigned k = 0; k < l->n; k++)
            v[(write_addr(l, k) - DST) / 4] = copy_value_at(0, read_addr(l, k));
    }
    *nwords = span;
    return v;
}

static int lay_out(emu_array_t *a, const layout_t *l, size_t span, unsigned dst_cell)
{
    int rc = 0;
    for (unsigned k = 0; k < l->n && rc == 0; k++) {
        uint32_t ra = read_addr(l, k), wa = write_addr(l, k);
        rc |= poke_word(a, 0, ra, copy_value_at(0, ra));
        if (l->read == COPY_INDEXED)
            rc |= poke_word(a, 0, RIDX + 4 * k, ra);
        /* Both cells: a chained sender sends the receiver's addresses with the words. */
        if (l->write == COPY_INDEXED)
            for (unsigned x = 0; x < 2; x++)
                rc |= poke_word(a, x, WIDX + 4 * k, wa);
        if (l->op == OP_DEPOSIT_PAIRS || l->op == OP_NET_PAIRS) {
            rc |= poke_word(a, 0, PAIRS + 8 * k, wa);
            rc |= poke_word(a, 0, PAIRS + 8 * k + 4, copy_value_at(0, ra));
        }
    }
    for (size_t w = 0; w < span + 2 * GUARD_WORDS && rc == 0; w++)
        rc |= poke_word(a, dst_cell, DST - 4 * GUARD_WORDS + 4 * (uint32_t)w, COPY_GUARD_WORD);
    return rc;
}

static uint64_t check(const emu_array_t *a, const uint32_t *want, size_t span, unsigned dst_cell)
{
    uint64_t wrong = 0;
    const ca_t *ca = emu_array_ca(a, dst_cell, 0);
    for (size_t w = 0; w < span + 2 * GUARD_WORDS; w++) {
        uint32_t v;
        if (ca_mem_read(ca, DST - 4 * GUARD_WORDS + 4 * (uint32_t)w, &v, 4) != 0)
            return span + 2 * GUARD_WORDS;
        bool inside = w >= GUARD_WORDS && w < span + GUARD_WORDS;
        wrong += v != (inside ? want[w - GUARD_WORDS] : COPY_GUARD_WORD);
    }
    return wrong;
}

static int validate(const copy_bench_case_t *c, char *err, size_t cap)
{
    const copy_transfer_t *t = &c->t;
    if (c->words < 2 || c->words % 2 != 0 || c->words > 16384) {
        snprintf(err, cap, "N must be even, from 2 to 16384 words");
        return -1;
    }
    bool net = t->kind == COPY_NET_DATA || t->kind == COPY_NET_ADDRESS;
    if (net && (t->congestion < 1 || t->congestion > 4)) {
        snprintf(err, cap, "the congestion must be 1 to 4 pathways on one link");
        return -1;
    }
    uint64_t rspan = t->read > 0 ? (uint64_t)t->read * c->words * 4 : (uint64_t)c->words * 4;
    uint64_t wspan = t->write > 0 ? (uint64_t)t->write * c->words * 4 : (uint64_t)c->words * 4;
    if (SRC + rspan > RIDX || DST + wspan + 4 * GUARD_WORDS > RESULTS ||
        (net && (uint64_t)t->congestion * c->words * 8 + DST > RESULTS)) {
        snprintf(err, cap, "N x stride spans more memory than the program's layout has (1.4 MB a side)");
        return -1;
    }
    return 0;
}

int copy_measure_run(const copy_bench_case_t *c, copy_run_t *out, char *err, size_t cap)
{
    memset(out, 0, sizeof *out);
    int op = op_of(c, err, cap);
    if (op < 0 || validate(c, err, cap) != 0)
        return -1;
    const copy_transfer_t *t = &c->t;
    bool net = op == OP_NET_DATA || op == OP_NET_PAIRS;
    layout_t l = {.op = op, .n = c->words, .k = net ? t->congestion : 1};
    l.mult_r = copy_coprime_multiplier(c->words, 389);
    l.mult_w = copy_coprime_multiplier(c->words, 277);
    /* The side a transfer does not have is contiguous: a send's words land contiguously at the receiver, a
     * receive's come from a contiguous stream. */
    bool xqy = c->style != COPY_BASIC;
    l.read = xqy || t->kind == COPY_LOCAL || t->kind == COPY_SEND || t->kind == COPY_FETCH ? t->read : 1;
    l.write = xqy || t->kind == COPY_LOCAL || t->kind == COPY_RECEIVE || t->kind == COPY_DEPOSIT ? t->write : 1;
    emu_machine_t m;
    emu_machine_defaults(&m);
    m.width = 2;
    m.height = 1;
    m.mem_bytes = MEM_BYTES;
    emu_array_t *a;
    if (emu_array_create(&a, &m, err, cap) != 0)
        return -1;
    int rc = 0;
    const emu_program_t *p = program_add(a, "programs/copy/basic.s", NULL, 0);
    if (p == NULL) {
        snprintf(err, cap, "programs/copy/basic.s did not assemble");
        rc = -1;
    }
    const uint32_t args[4] = {
        (uint32_t)op,
        c->words,
        net ? t->congestion : l.read == COPY_INDEXED ? 0 : (uint32_t)(4 * l.read),
        l.write == COPY_INDEXED ? 0 : (uint32_t)(4 * l.write),
    };
    for (unsigned x = 0; x < 2 && rc == 0; x++)
        rc = emu_array_load(a, x, 0, p, args, 4, err, cap);
    uint32_t *want = NULL;
    size_t span = 0;
    unsigned dst_cell = destination_cell(op);
    if (rc == 0) {
        want = destination(&l, &span);
        if (want == NULL || lay_out(a, &l, span, dst_cell) != 0) {
            snprintf(err, cap, "could not lay out the memory");
            rc = -1;
        }
    }
    if (rc == 0) {
        bool interrupted = false;
        rc = run_to_end(a, 100000000ull, &interrupted, err, cap);
    }
    if (rc == 0) {
        uint32_t start, end;
        unsigned timer = op <= OP_FETCH || op >= OP_STORE_STREAM ? 0 : 1;
        if (ca_mem_read(emu_array_ca(a, 0, 0), RESULTS, &start, 4) != 0 ||
            ca_mem_read(emu_array_ca(a, timer, 0), RESULTS + 4, &end, 4) != 0) {
            snprintf(err, cap, "the results are not in the cells' memory");
            rc = -1;
        } else {
            out->clocks = (uint32_t)(end - start);
            out->wrong = check(a, want, span, dst_cell);
        }
    }
    free(want);
    emu_array_free(a);
    return rc;
}

int copy_measure(const copy_bench_case_t *c, copy_throughput_t *out, char *err, size_t cap)
{
    memset(out, 0, sizeof *out);
    copy_bench_case_t twice = *c;
    twice.words = 2 * c->words;
    if (copy_measure_run(c, &out->at_n, err, cap) != 0 || copy_measure_run(&twice, &out->at_2n, err, cap) != 0)
        return -1;
    if (out->at_2n.clocks <= out->at_n.clocks) {
        snprintf(err, cap, "2N words took no longer than N");
        return -1;
    }
    out->clocks_per_word = (double)(out->at_2n.clocks - out->at_n.clocks) / c->words;
    out->mbps = 4.0 * COPY_CLOCK_HZ / out->clocks_per_word / 1e6;
    return 0;
}
