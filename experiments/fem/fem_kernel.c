/* The finite element product on the emulated array (fem_kernel.h). */
#include "fem_kernel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "celldata.h"
#include "conset/route.h"
#include "conset/route_tables.h"
#include "conset/sched.h"
#include "emu.h"
#include "model.h"
#include "program_load.h"
#include "run_loop.h"

/* programs/fem/fem.s's and programs/copy/exchange.inc's layout. */
enum {
    CONSET_TABLES = 0x70000,
    DESC_SEND = 0x90000,
    DESC_RECV = 0x98000,
    HDR = 0x1f0000,
    ROWPTR = 0x200000,
    COLS = 0x210000,
    VALS = 0x250000,
    X = 0x290000,
    Y = 0x2a0000,
    Y2 = 0x2b0000,
    SIDX = 0x2c0000,
    RIDX = 0x300000,
    REGION_WORDS = 0x10000, /* the smallest region (ROWPTR, X, Y, Y2): 64K words */
    NNZ_WORDS = 0x40000 / 4,
    MEM_BYTES = 4u << 20,
};

/* An element's matrix: symmetric, rows summing to 0, small integers (every sum of products stays exact). */
static int entry(size_t e, unsigned i, unsigned j, unsigned k)
{
    if (i != j)
        return -(int)(1 + (e + i + j) % 3);
    int d = 0;
    for (unsigned m = 0; m < k; m++)
        if (m != i)
            d += (int)(1 + (e + i + m) % 3);
    return d;
}

static float x_of(size_t g)
{
    return (float)((int)((g * 37) % 11) - 5);
}

typedef struct triple {
    uint32_t row, col;
    int val;
} triple_t;

static int by_row_col(const void *a, const void *b)
{
    const triple_t *x = a, *y = b;
    if (x->row != y->row)
        return x->row < y->row ? -1 : 1;
    return x->col < y->col ? -1 : x->col > y->col;
}

static int by_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* A part: its elements, its nodes (ascending global ids). */
typedef struct part {
    uint32_t *elems, nelems;
    uint32_t *nodes, nnodes;
} part_t;

static long local_of(const part_t *p, uint32_t g)
{
    const uint32_t *hit = bsearch(&g, p->nodes, p->nnodes, sizeof g, by_u32);
    return hit ? (long)(hit - p->nodes) : -1;
}

static int build_parts(const fem_analysis_t *a, part_t *parts)
{
    const fem_mesh_t *m = &a->mesh;
    unsigned np = a->part.parts;
    for (size_t e = 0; e < m->nelems; e++)
        parts[a->part.epart[e]].nelems++;
    for (unsigned p = 0; p < np; p++) {
        parts[p].elems = malloc((parts[p].nelems + 1) * sizeof *parts[p].elems);
        if (parts[p].elems == NULL)
            return -1;
        parts[p].nelems = 0;
    }
    for (size_t e = 0; e < m->nelems; e++) {
        part_t *p = &parts[a->part.epart[e]];
        p->elems[p->nelems++] = (uint32_t)e;
    }
    uint32_t *stamp = malloc(m->nnodes * sizeof *stamp);
    if (stamp == NULL)
        return -1;
    memset(stamp, 0xff, m->nnodes * sizeof *stamp);
    for (unsigned p = 0; p < np; p++) {
        size_t cap = 0;
        for (uint32_t i = 0; i < parts[p].nelems; i++)
            cap += m->elem_ptr[parts[p].elems[i] + 1] - m->elem_ptr[parts[p].elems[i]];
        parts[p].nodes = malloc((cap + 1) * sizeof *parts[p].nodes);
        if (parts[p].nodes == NULL) {
            free(stamp);
            return -1;
        }
        for (uint32_t i = 0; i < parts[p].nelems; i++) {
            uint32_t e = parts[p].elems[i];
            for (uint32_t k = m->elem_ptr[e]; k < m->elem_ptr[e + 1]; k++) {
                uint32_t g = m->elem_nodes[k];
                if (stamp[g] != p) {
                    stamp[g] = p;
                    parts[p].nodes[parts[p].nnodes++] = g;
                }
            }
        }
        qsort(parts[p].nodes, parts[p].nnodes, sizeof *parts[p].nodes, by_u32);
    }
    free(stamp);
    return 0;
}

static int poke(emu_array_t *a, unsigned w, unsigned cell, uint32_t addr, const void *v, size_t bytes)
{
    return emu_array_poke(a, cell % w, cell / w, addr, v, (uint32_t)bytes);
}

/* Cell p's matrix (CSR over its nodes), x and header. */
static int lay_out_matrix(emu_array_t *arr, unsigned w, const fem_mesh_t *m, unsigned p, const part_t *pt,
                          uint64_t *nnz_all, char *err, size_t cap)
{
    size_t ntrip = 0;
    for (uint32_t i = 0; i < pt->nelems; i++) {
        size_t k = m->elem_ptr[pt->elems[i] + 1] - m->elem_ptr[pt->elems[i]];
        ntrip += k * k;
    }
    triple_t *t = malloc((ntrip + 1) * sizeof *t);
    uint32_t *rowptr = calloc(pt->nnodes + 1, sizeof *rowptr), *cols = malloc((ntrip + 1) * sizeof *cols);
    float *vals = malloc((ntrip + 1) * sizeof *vals), *x = malloc((pt->nnodes + 1) * sizeof *x);
    int rc = t && rowptr && cols && vals && x ? 0 : -1;
    size_t n = 0, nnz = 0;
    for (uint32_t i = 0; rc == 0 && i < pt->nelems; i++) {
        uint32_t e = pt->elems[i], k = m->elem_ptr[e + 1] - m->elem_ptr[e];
        const uint32_t *nodes = &m->elem_nodes[m->elem_ptr[e]];
        for (unsigned r = 0; r < k; r++)
            for (unsigned c = 0; c < k; c++)
                t[n++] = (triple_t){(uint32_t)local_of(pt, nodes[r]), (uint32_t)local_of(pt, nodes[c]),
                                    entry(e, r, c, k)};
    }
    if (rc == 0) {
        qsort(t, n, sizeof *t, by_row_col);
        for (size_t i = 0; i < n; i++) {
            if (nnz > 0 && t[i].row == t[i - 1].row && t[i].col == t[i - 1].col) {
                vals[nnz - 1] += (float)t[i].val;
                continue;
            }
            cols[nnz] = X + 4 * t[i].col;
            vals[nnz] = (float)t[i].val;
            rowptr[t[i].row + 1] = (uint32_t)(nnz + 1);
            nnz++;
        }
        for (uint32_t r = 1; r <= pt->nnodes; r++) /* rows with no entry: none here, but keep it a prefix */
            rowptr[r] = rowptr[r] > rowptr[r - 1] ? rowptr[r] : rowptr[r - 1];
        for (uint32_t r = 0; r < pt->nnodes; r++)
            x[r] = x_of(pt->nodes[r]);
        if (pt->nnodes + 1 > REGION_WORDS || nnz > NNZ_WORDS) {
            snprintf(err, cap, "cell %u's part (%u nodes, %zu entries) does not fit the program's layout", p,
                     pt->nnodes, nnz);
            rc = -1;
        }
    }
    uint32_t rows = pt->nnodes;
    if (rc == 0)
        rc = poke(arr, w, p, HDR, &rows, 4) | poke(arr, w, p, ROWPTR, rowptr, 4 * (rows + 1)) |
             poke(arr, w, p, COLS, cols, 4 * nnz) | poke(arr, w, p, VALS, vals, 4 * nnz) | poke(arr, w, p, X, x, 4 * rows);
    *nnz_all += nnz;
    free(t);
    free(rowptr);
    free(cols);
    free(vals);
    free(x);
    return rc;
}

/* The exchange: for each pair sharing nodes, the sender's Y addresses and the receiver's Y2 addresses of
 * those nodes, in ascending global order at both ends. */
static int lay_out_exchange(emu_array_t *arr, unsigned w, const fem_analysis_t *a, const part_t *parts, char *err,
                            size_t cap)
{
    unsigned np = a->part.parts;
    uint32_t *sidx_at = malloc(np * sizeof *sidx_at), *ridx_at = malloc(np * sizeof *ridx_at);
    uint32_t *sbuf_at = calloc(np, sizeof *sbuf_at); /* message passing's send buffer offsets */
    uint32_t *si = malloc(REGION_WORDS * sizeof *si), *ri = malloc(REGION_WORDS * sizeof *ri);
    int rc = sidx_at && ridx_at && sbuf_at && si && ri ? 0 : -1;
    for (unsigned p = 0; p < np; p++) {
        if (sidx_at)
            sidx_at[p] = SIDX;
        if (ridx_at)
            ridx_at[p] = RIDX;
    }
    for (unsigned p = 0; p < np && rc == 0; p++)
        for (unsigned q = 0; q < np && rc == 0; q++) {
            uint32_t words = a->part.words[(size_t)p * np + q];
            if (p == q || words == 0)
                continue;
            uint32_t n = 0;
            const part_t *a_ = &parts[p], *b_ = &parts[q];
            for (uint32_t i = 0, j = 0; i < a_->nnodes && j < b_->nnodes && n < REGION_WORDS;) {
                if (a_->nodes[i] < b_->nodes[j]) {
                    i++;
                } else if (a_->nodes[i] > b_->nodes[j]) {
                    j++;
                } else {
                    si[n] = Y + 4 * i;
                    ri[n] = Y2 + 4 * j;
                    n++, i++, j++;
                }
            }
            if (n != words || sidx_at[p] + 4 * n > RIDX || ridx_at[q] + 4 * n > RIDX + 4 * REGION_WORDS) {
                snprintf(err, cap, "cells %u and %u: %u shared nodes where the pattern says %u, or no room", p, q,
                         n, words);
                rc = -1;
                break;
            }
            const uint32_t ds[4] = {sidx_at[p], 0, n, sbuf_at[p]}, dr[4] = {ridx_at[q], 0, n, 0};
            sbuf_at[p] += 4 * n;
            rc = poke(arr, w, p, sidx_at[p], si, 4 * n) | poke(arr, w, q, ridx_at[q], ri, 4 * n) |
                 poke(arr, w, p, DESC_SEND + 16 * q, ds, sizeof ds) | poke(arr, w, q, DESC_RECV + 16 * p, dr, sizeof dr);
            sidx_at[p] += 4 * n;
            ridx_at[q] += 4 * n;
        }
    free(sidx_at);
    free(ridx_at);
    free(sbuf_at);
    free(si);
    free(ri);
    return rc;
}

/* y = A x over the whole mesh, element by element, in doubles (exact: small integers). */
static double *reference(const fem_mesh_t *m)
{
    double *y = calloc(m->nnodes, sizeof *y);
    if (y == NULL)
        return NULL;
    for (size_t e = 0; e < m->nelems; e++) {
        uint32_t k = m->elem_ptr[e + 1] - m->elem_ptr[e];
        const uint32_t *nodes = &m->elem_nodes[m->elem_ptr[e]];
        for (unsigned r = 0; r < k; r++)
            for (unsigned c = 0; c < k; c++)
                y[nodes[r]] += entry(e, r, c, k) * (double)x_of(nodes[c]);
    }
    return y;
}

static uint64_t check(const emu_array_t *arr, unsigned w, const fem_mesh_t *m, const part_t *parts, unsigned np)
{
    double *y = reference(m);
    if (y == NULL)
        return UINT64_MAX;
    uint64_t wrong = 0;
    for (unsigned p = 0; p < np; p++)
        for (uint32_t r = 0; r < parts[p].nnodes; r++) {
            float have, want = (float)y[parts[p].nodes[r]];
            if (ca_mem_read(emu_array_ca(arr, p % w, p / w), Y2 + 4 * r, &have, 4) != 0 ||
                memcmp(&have, &want, sizeof have) != 0)
                wrong++;
        }
    free(y);
    return wrong;
}

/* The assembler's -D of a coding (programs/fem/fem.s): none for the paper's, the default. */
static const char *const liw_define[1] = {"FEM_LIW=1"};

static size_t ndefines(fem_coding_t coding)
{
    return coding == FEM_LIW ? 1 : 0;
}

/* The compiler's options for a coding: one timeline a cell for code that sends or receives, not both. */
static void coding_route_options(fem_coding_t coding, route_options_t *o)
{
    route_options_init(o);
    o->one_timeline = coding == FEM_ONE_OP;
}

int fem_kernel_run(const fem_analysis_t *a, unsigned width, unsigned height, fem_style_t style, fem_coding_t coding,
                   unsigned threads, fem_run_t *out, char *err, size_t cap)
{
    memset(out, 0, sizeof *out);
    unsigned np = a->part.parts;
    if (np != width * height) {
        snprintf(err, cap, "%u parts on a %ux%u array", np, width, height);
        return -1;
    }
    part_t *parts = calloc(np, sizeof *parts);
    int rc = parts != NULL && build_parts(a, parts) == 0 ? 0 : -1;
    if (rc != 0)
        snprintf(err, cap, "out of memory");
    route_plan_t plan;
    celldata_t tables;
    bool have_plan = false, have_tables = false;
    bool conset = style == FEM_CONSET;
    if (rc == 0 && conset) {
        route_options_t o;
        coding_route_options(coding, &o);
        rc = route_compile(&a->set, &o, &plan, err, cap);
        have_plan = rc == 0;
    }
    if (rc == 0 && conset) {
        rc = route_tables(&plan, &tables, err, cap);
        have_tables = rc == 0;
    }
    emu_array_t *arr = NULL;
    if (rc == 0) {
        emu_machine_t m;
        emu_machine_defaults(&m);
        m.width = width;
        m.height = height;
        m.mem_bytes = MEM_BYTES;
        rc = emu_array_create(&arr, &m, err, cap);
    }
    const emu_program_t *prog = NULL;
    if (rc == 0) {
        emu_array_set_threads(arr, threads ? threads : 1);
        const char *path = conset ? "programs/fem/fem.s" : "programs/fem/fem_msg.s";
        prog = program_add(arr, path, liw_define, ndefines(coding));
        if (prog == NULL) {
            snprintf(err, cap, "%s did not assemble", path);
            rc = -1;
        }
    }
    const uint32_t arg = (uint32_t)style;
    for (unsigned p = 0; p < np && rc == 0; p++)
        rc = emu_array_load(arr, p % width, p / width, prog, &arg, 1, err, cap);
    if (rc == 0 && conset)
        rc = celldata_load(&tables, arr, CONSET_TABLES, err, cap);
    for (unsigned p = 0; p < np && rc == 0; p++)
        rc = lay_out_matrix(arr, width, &a->mesh, p, &parts[p], &out->nnz, err, cap);
    if (rc == 0)
        rc = lay_out_exchange(arr, width, a, parts, err, cap);
    bool interrupted = false;
    if (rc == 0)
        rc = run_to_end(arr, 4000000000ull, &interrupted, err, cap);
    if (rc == 0) {
        out->compute_min = UINT64_MAX;
        for (unsigned p = 0; p < np; p++) {
            const ca_t *ca = emu_array_ca(arr, p % width, p / width);
            uint64_t c = ca_reg(ca, ISA_REG_A0);
            out->compute_max = c > out->compute_max ? c : out->compute_max;
            out->compute_min = c < out->compute_min ? c : out->compute_min;
            out->exchange = ca_reg(ca, ISA_REG_A0 + 1) > out->exchange ? ca_reg(ca, ISA_REG_A0 + 1) : out->exchange;
            out->total = ca_reg(ca, ISA_REG_A0 + 2) > out->total ? ca_reg(ca, ISA_REG_A0 + 2) : out->total;
        }
        out->wrong = check(arr, width, &a->mesh, parts, np);
    }
    if (arr != NULL)
        emu_array_free(arr);
    if (have_tables)
        celldata_free(&tables);
    if (have_plan)
        route_plan_free(&plan);
    for (unsigned p = 0; parts != NULL && p < np; p++) {
        free(parts[p].elems);
        free(parts[p].nodes);
    }
    free(parts);
    return rc;
}

/* Clocks of one trip round the loop from label `from` up to label `to` of a program in a coding, as the default
 * machine runs it (emu_program_loop_clocks: its bypass stalls included). */
static int loop_clocks(const char *program, fem_coding_t coding, const char *from, const char *to, double *clocks,
                       char *err, size_t cap)
{
    emu_machine_t m;
    emu_machine_defaults(&m);
    m.width = m.height = 1;
    emu_array_t *a;
    if (emu_array_create(&a, &m, err, cap) != 0)
        return -1;
    const emu_program_t *p = program_add(a, program, liw_define, ndefines(coding));
    uint64_t sum = p != NULL ? program_loop_clocks(p, from, to) : 0;
    int rc = 0;
    if (sum == 0) {
        snprintf(err, cap, "%s: no loop from %s to %s", program, from, to);
        rc = -1;
    }
    *clocks = (double)sum;
    emu_array_free(a);
    return rc;
}

int fem_model_loops(fem_coding_t coding, fem_model_t *m, char *err, size_t cap)
{
    static const char fem[] = "programs/fem/fem.s", msg[] = "programs/fem/fem_msg.s";
    memset(m, 0, sizeof *m);
    m->coding = coding;
    if (coding == FEM_ONE_OP) {
        if (loop_clocks(fem, coding, "send_gather_one_op", "send_gather_one_op_end", &m->send, err, cap) != 0 ||
            loop_clocks(fem, coding, "recv_sum_one_op", "recv_sum_one_op_end", &m->receive, err, cap) != 0 ||
            loop_clocks(msg, coding, "gather_one_op", "gather_one_op_end", &m->gather_a, err, cap) != 0 ||
            loop_clocks(msg, coding, "receive_sum_one_op", "receive_sum_one_op_end", &m->receive_a, err, cap) != 0)
            return -1;
        /* A connection's ends run together, each at its own loop's pace: a word goes at the slower one's. */
        m->conset_b = m->send > m->receive ? m->send : m->receive;
        return 0;
    }
    double gather2;
    if (loop_clocks(fem, coding, "exchange_sum_loop", "exchange_sum_loop_end", &m->conset_b, err, cap) != 0 ||
        loop_clocks(msg, coding, "copy_i_s_loop", "copy_i_s_loop_end", &gather2, err, cap) != 0 ||
        loop_clocks(msg, coding, "receive_sum_liw", "receive_sum_liw_end", &m->receive_a, err, cap) != 0)
        return -1;
    m->gather_a = gather2 / 2; /* the gather moves two words an iteration */
    return 0;
}

int fem_predict_conset(const fem_analysis_t *a, const fem_model_t *m, double *clocks, char *err, size_t cap)
{
    route_options_t o;
    coding_route_options(m->coding, &o);
    route_plan_t plan;
    if (route_compile(&a->set, &o, &plan, err, cap) != 0)
        return -1;
    /* AS counts SCHED_CLOCKS_PER_WORD a word (a word out and one in on two timelines, one of them on one). */
    double words = 0;
    for (unsigned p = 0; p < plan.nphases; p++)
        words += (double)plan.phases[p].clocks / SCHED_CLOCKS_PER_WORD;
    *clocks = (double)plan.nphases * MODEL_PER_PHASE + m->conset_b * words;
    route_plan_free(&plan);
    return 0;
}

double fem_predict_msgpass(const fem_analysis_t *a, const fem_model_t *m)
{
    double best = 0;
    unsigned np = a->part.parts;
    for (unsigned x = 0; x < np; x++) {
        double t = 0;
        for (unsigned y = 0; y < np; y++) {
            uint32_t w = a->part.words[(size_t)x * np + y];
            if (w > 0)
                t += 2.0 * MODEL_C + (m->gather_a + m->receive_a) * w;
        }
        best = t > best ? t : best;
    }
    return best;
}
