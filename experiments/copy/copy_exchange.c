/* A personalized exchange under ConSet on the emulated array (copy_exchange.h). */
#include "copy_exchange.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "celldata.h"
#include "conset/route.h"
#include "conset/route_memo.h"
#include "copy_words.h"
#include "emu.h"
#include "program_load.h"
#include "run_loop.h"

/* programs/copy/exchange.s's layout. */
enum {
    CONSET_TABLES = 0x70000,
    DESC_SEND = 0x90000,
    DESC_RECV = 0x98000,
    DESC_MAX_CELLS = 0x8000 / 16,
    BUF_BYTES = 0x40000, /* SENDBUF and RECVBUF */
    IDX = 0x180000,      /* the index arrays the host writes, send and receive */
    IDX_BYTES = COPY_EXCHANGE_DATA - IDX,
    MEM_BYTES = 4u << 20,
    CAPACITY = 12,
};

static int poke(emu_array_t *a, unsigned w, unsigned cell, uint32_t addr, uint32_t v)
{
    return emu_array_poke(a, cell % w, cell / w, addr, &v, 4);
}

/* What the host builds for one cell: the next free index word and buffer offsets, per side. */
typedef struct side {
    uint32_t idx, offset;
} side_t;

/* A descriptor for a block of n words at addr(k): a constant stride where the addresses have one (the
 * program's loops walk it), else an index array. */
static int describe(emu_array_t *a, unsigned w, unsigned cell, uint32_t desc, const uint32_t *addr, unsigned n,
                    side_t *sd, uint32_t idx_end, copy_exchange_run_t *out, bool *indexed, char *err, size_t cap)
{
    uint32_t stride = n >= 2 ? addr[1] - addr[0] : 4;
    bool strided = stride != 0;
    for (unsigned k = 2; k < n && strided; k++)
        strided = addr[k] - addr[k - 1] == stride;
    uint32_t start = addr[0];
    *indexed = !strided;
    if (!strided) {
        if (sd->idx + 4u * n > idx_end) {
            snprintf(err, cap, "the index arrays of cell %u do not fit the program's layout", cell);
            return -1;
        }
        start = sd->idx;
        for (unsigned k = 0; k < n; k++)
            if (poke(a, w, cell, sd->idx + 4 * k, addr[k]) != 0)
                return -1;
        sd->idx += 4 * n;
        stride = 0;
        out->indexed_blocks++;
    } else {
        out->strided_blocks++;
    }
    if (sd->offset + 4u * n > BUF_BYTES) {
        snprintf(err, cap, "the blocks of cell %u do not fit the program's 256 KB buffers", cell);
        return -1;
    }
    const uint32_t d[4] = {start, stride, n, sd->offset};
    sd->offset += 4 * n;
    return emu_array_poke(a, cell % w, cell / w, desc, d, sizeof d);
}

static bool inside(uint32_t addr, uint32_t lo, uint32_t hi)
{
    return addr >= lo && addr + 4 <= hi && addr % 4 == 0;
}

/* Guards over every destination region, then every cell's source words, descriptors and index arrays. */
static int lay_out(emu_array_t *a, const copy_exchange_spec_t *s, copy_exchange_run_t *out, char *err, size_t cap)
{
    unsigned p = s->width * s->height, w = s->width;
    for (unsigned c = 0; c < p; c++)
        for (uint32_t at = s->dst_lo; at < s->dst_hi; at += 4)
            if (poke(a, w, c, at, COPY_GUARD_WORD) != 0)
                return -1;
    side_t *send = calloc(p, sizeof *send), *recv = calloc(p, sizeof *recv);
    uint32_t *addr = NULL;
    size_t addr_cap = 0;
    int rc = send != NULL && recv != NULL ? 0 : -1;
    for (unsigned c = 0; c < p && rc == 0; c++) {
        send[c].idx = IDX;
        recv[c].idx = IDX + IDX_BYTES / 2;
    }
    for (unsigned c = 0; c < p && rc == 0; c++)
        for (unsigned d = 0; d < p && rc == 0; d++) {
            unsigned n = s->count(s->ctx, c, d);
            if (n == 0)
                continue;
            if (n > addr_cap) {
                uint32_t *grown = realloc(addr, n * sizeof *addr);
                if (grown == NULL) {
                    rc = -1;
                    break;
                }
                addr = grown;
                addr_cap = n;
            }
            for (unsigned k = 0; k < n && rc == 0; k++) {
                addr[k] = s->src(s->ctx, c, d, k);
                if (!inside(addr[k], COPY_EXCHANGE_DATA, COPY_EXCHANGE_END) ||
                    inside(addr[k], s->dst_lo, s->dst_hi)) {
                    snprintf(err, cap, "word %u from cell %u to %u: source 0x%x is outside the data region or "
                             "inside the destination", k, c, d, addr[k]);
                    rc = -1;
                }
                rc |= poke(a, w, c, addr[k], copy_value_at(c, addr[k]));
            }
            bool sent_indexed = false, received_indexed = false;
            if (rc == 0)
                rc = describe(a, w, c, DESC_SEND + 16 * d, addr, n, &send[c], IDX + IDX_BYTES / 2, out, &sent_indexed,
                              err, cap);
            for (unsigned k = 0; k < n && rc == 0; k++) {
                addr[k] = s->dst(s->ctx, c, d, k);
                if (!inside(addr[k], s->dst_lo, s->dst_hi)) {
                    snprintf(err, cap, "word %u from cell %u to %u: destination 0x%x is outside the destination "
                             "region", k, c, d, addr[k]);
                    rc = -1;
                }
            }
            if (rc == 0)
                rc = describe(a, w, d, DESC_RECV + 16 * c, addr, n, &recv[d], IDX + IDX_BYTES, out, &received_indexed,
                              err, cap);
            if (c != d) {
                out->words += n;
                out->class_words[sent_indexed][received_indexed] += n;
            }
        }
    free(addr);
    free(send);
    free(recv);
    return rc;
}

static uint64_t check(const emu_array_t *a, const copy_exchange_spec_t *s, bool moved)
{
    unsigned p = s->width * s->height;
    size_t n = (s->dst_hi - s->dst_lo) / 4;
    uint32_t *want = malloc(n * sizeof *want), *have = malloc(n * sizeof *have);
    uint64_t wrong = 0;
    if (want == NULL || have == NULL) {
        free(want);
        free(have);
        return UINT64_MAX;
    }
    for (unsigned d = 0; d < p && wrong != UINT64_MAX; d++) {
        for (size_t i = 0; i < n; i++)
            want[i] = COPY_GUARD_WORD;
        for (unsigned c = 0; c < p && moved; c++) {
            unsigned count = s->count(s->ctx, c, d);
            for (unsigned k = 0; k < count; k++)
                want[(s->dst(s->ctx, c, d, k) - s->dst_lo) / 4] = copy_value_at(c, s->src(s->ctx, c, d, k));
        }
        if (ca_mem_read(emu_array_ca(a, d % s->width, d / s->width), s->dst_lo, have, (uint32_t)(4 * n)) != 0) {
            wrong = UINT64_MAX;
            break;
        }
        for (size_t i = 0; i < n; i++)
            wrong += have[i] != want[i];
    }
    free(want);
    free(have);
    return wrong;
}

/* The connection set of the exchange (every pair with words, but a cell's own), compiled into tables: the memo's
 * for that set. */
static int tables_for(const copy_exchange_spec_t *s, route_memo_t *memo, const celldata_t **tables, unsigned *phases,
                      char *err, size_t cap)
{
    unsigned p = s->width * s->height;
    cset_t set;
    if (cset_init(&set, s->width, s->height, CAPACITY) != 0) {
        snprintf(err, cap, "out of memory");
        return -1;
    }
    unsigned task = cset_task(&set, "exchange");
    int rc = 0;
    for (unsigned c = 0; c < p && rc == 0; c++)
        for (unsigned d = 0; d < p && rc == 0; d++) {
            unsigned n = s->count(s->ctx, c, d);
            char id[32];
            snprintf(id, sizeof id, "c%u_%u", c, d);
            if (c != d && n > 0 && cset_add(&set, id, c, d, n, task) == CSET_NONE) {
                snprintf(err, cap, "cannot add connection %s", id);
                rc = -1;
            }
        }
    route_options_t o;
    route_options_init(&o);
    if (rc == 0)
        rc = route_memo_tables(memo, &set, &o, tables, phases, err, cap);
    cset_free(&set);
    return rc;
}

int copy_exchange_run(const copy_exchange_spec_t *s, copy_style_t style, unsigned threads, route_memo_t *memo,
                      copy_exchange_run_t *out, char *err, size_t cap)
{
    memset(out, 0, sizeof *out);
    if (cap > 0)
        err[0] = '\0';
    unsigned p = s->width * s->height;
    if (p < 2 || p > DESC_MAX_CELLS || s->dst_lo % 4 != 0 || s->dst_lo >= s->dst_hi ||
        !inside(s->dst_lo, COPY_EXCHANGE_DATA, COPY_EXCHANGE_END) || s->dst_hi > COPY_EXCHANGE_END) {
        snprintf(err, cap, "an exchange needs 2 to %d cells and a destination region inside 0x%x..0x%x",
                 DESC_MAX_CELLS, COPY_EXCHANGE_DATA, COPY_EXCHANGE_END);
        return -1;
    }
    /* Without the caller's memo, one of its own for this run. */
    route_memo_t *own = NULL;
    if (memo == NULL && (memo = own = route_memo_new()) == NULL) {
        snprintf(err, cap, "out of memory");
        return -1;
    }
    const celldata_t *tables = NULL;
    if (tables_for(s, memo, &tables, &out->phases, err, cap) != 0) {
        route_memo_free(own);
        return -1;
    }
    emu_machine_t m;
    emu_machine_defaults(&m);
    m.width = s->width;
    m.height = s->height;
    m.mem_bytes = MEM_BYTES;
    emu_array_t *a;
    if (emu_array_create(&a, &m, err, cap) != 0) {
        route_memo_free(own);
        return -1;
    }
    emu_array_set_threads(a, threads ? threads : 1);
    const emu_program_t *prog = program_add(a, "programs/copy/exchange.s", NULL, 0);
    int rc = prog != NULL ? 0 : -1;
    if (rc != 0)
        snprintf(err, cap, "programs/copy/exchange.s did not assemble");
    const uint32_t arg = style == COPY_PACKING ? 0 : style == COPY_CHAINED ? 1 : 2;
    for (unsigned i = 0; i < p && rc == 0; i++)
        rc = emu_array_load(a, i % s->width, i / s->width, prog, &arg, 1, err, cap);
    if (rc == 0)
        rc = celldata_load(tables, a, CONSET_TABLES, err, cap);
    if (rc == 0 && lay_out(a, s, out, err, cap) != 0) {
        if (err[0] == '\0')
            snprintf(err, cap, "could not lay out the memory");
        rc = -1;
    }
    bool interrupted = false;
    if (rc == 0)
        rc = run_to_end(a, 4000000000ull, &interrupted, err, cap);
    if (rc == 0) {
        for (unsigned i = 0; i < p; i++) {
            uint64_t t = ca_reg(emu_array_ca(a, i % s->width, i / s->width), ISA_REG_A0);
            out->clocks = t > out->clocks ? t : out->clocks;
        }
        out->wrong = check(a, s, style != COPY_BASIC);
    }
    emu_array_free(a);
    route_memo_free(own);
    return rc;
}

double copy_exchange_mbps(const copy_exchange_run_t *at_n, const copy_exchange_run_t *at_2n, unsigned cells)
{
    if (at_2n->clocks <= at_n->clocks)
        return 0;
    double words = (double)(at_2n->words - at_n->words) / cells;
    return 4.0 * words * COPY_CLOCK_HZ / (double)(at_2n->clocks - at_n->clocks) / 1e6;
}
