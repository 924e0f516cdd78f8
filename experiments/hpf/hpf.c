/*
 * HPF array assignment from the host's side (hpf.h). The cells do the work (programs/hpf/assign.s); the host
 * turns HPF's distribution syntax into the program's symbols, runs it and checks what it left in memory
 * with its own arithmetic, not the cells'.
 */
#include "hpf.h"
#include "program_load.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "run_loop.h"

/* Salt of iteration i, as assign.s computes it (mul by 0x9e3779b1, wrapping). */
static uint32_t salt_of(unsigned iteration)
{
    return (uint32_t)iteration * 0x9e3779b1u;
}

static void skip_spaces(const char **s)
{
    while (isspace((unsigned char)**s))
        (*s)++;
}

/* One dimension's distribution at *s: ':', BLOCK, CYCLIC or CYCLIC(k); p is filled in later. */
static int parse_dim(const char *text, const char **s, unsigned *kind, unsigned *k, char *err, size_t cap)
{
    skip_spaces(s);
    const char *at = *s;
    if (**s == ':') {
        (*s)++;
        *kind = 0;
    } else if (strncasecmp(*s, "BLOCK", 5) == 0) {
        *s += 5;
        *kind = 1;
    } else if (strncasecmp(*s, "CYCLIC", 6) == 0) {
        *s += 6;
        *kind = 2;
        *k = 1;
        skip_spaces(s);
        if (**s == '(') {
            (*s)++;
            skip_spaces(s);
            char *end;
            unsigned long v = strtoul(*s, &end, 10);
            if (end == *s || v == 0 || v > 1u << 20) {
                snprintf(err, cap, "col %zu: CYCLIC(k) needs a block size k from 1 to %u", (size_t)(*s - text) + 1,
                         1u << 20);
                return -1;
            }
            *k = (unsigned)v;
            *s = end;
            skip_spaces(s);
            if (**s != ')') {
                snprintf(err, cap, "col %zu: ')' expected after the block size", (size_t)(*s - text) + 1);
                return -1;
            }
            (*s)++;
        }
    } else {
        snprintf(err, cap, "col %zu: a distribution (':', BLOCK, CYCLIC or CYCLIC(k)) expected",
                 (size_t)(at - text) + 1);
        return -1;
    }
    return 0;
}

/* NAME(d0, d1) at *s into dims, with the task's processors shared out between the distributed dimensions. */
static int parse_array(const char *text, const char **s, unsigned n0, unsigned n1, unsigned task, hpf_dim_t dims[2],
                       char *err, size_t cap)
{
    skip_spaces(s);
    if (!isalpha((unsigned char)**s)) {
        snprintf(err, cap, "col %zu: an array name expected", (size_t)(*s - text) + 1);
        return -1;
    }
    while (isalnum((unsigned char)**s) || **s == '_')
        (*s)++;
    skip_spaces(s);
    if (**s != '(') {
        snprintf(err, cap, "col %zu: '(' expected after the array name", (size_t)(*s - text) + 1);
        return -1;
    }
    (*s)++;
    unsigned kind[2], k[2] = {0, 0};
    for (unsigned d = 0; d < 2; d++) {
        if (parse_dim(text, s, &kind[d], &k[d], err, cap) != 0)
            return -1;
        skip_spaces(s);
        if (**s != (d == 0 ? ',' : ')')) {
            snprintf(err, cap, "col %zu: '%c' expected", (size_t)(*s - text) + 1, d == 0 ? ',' : ')');
            return -1;
        }
        (*s)++;
    }
    unsigned p[2] = {1, 1};
    if (kind[0] != 0 && kind[1] != 0) {
        unsigned p0 = 1;
        for (unsigned q = 1; q * q <= task; q++)
            if (task % q == 0)
                p0 = q;
        p[0] = p0;
        p[1] = task / p0;
    } else if (kind[0] != 0) {
        p[0] = task;
    } else if (kind[1] != 0) {
        p[1] = task;
    } else if (task != 1) {
        snprintf(err, cap, "col %zu: (:, :) puts the whole array on one cell, but the task has %u",
                 (size_t)(*s - text), task);
        return -1;
    }
    const unsigned n[2] = {n0, n1};
    for (unsigned d = 0; d < 2; d++) {
        dims[d].p = p[d];
        dims[d].k = kind[d] == 0 ? n[d] : kind[d] == 1 ? (n[d] + p[d] - 1) / p[d] : k[d];
    }
    return 0;
}

int hpf_parse_case(const char *text, unsigned n0, unsigned n1, unsigned task, hpf_case_t *out, char *err,
                   size_t cap)
{
    if (n0 == 0 || n1 == 0 || n0 > 1u << 16 || n1 > 1u << 16 || task == 0 || task > HPF_MAX_TASK) {
        snprintf(err, cap, "the array must be 1..65536 on each side and a task 1..%u cells", HPF_MAX_TASK);
        return -1;
    }
    const char *s = text;
    hpf_case_t c = {n0, n1, task, {{0, 0}, {0, 0}}, {{0, 0}, {0, 0}}};
    if (parse_array(text, &s, n0, n1, task, c.src, err, cap) != 0)
        return -1;
    skip_spaces(&s);
    if (strncmp(s, "->", 2) != 0 && strncmp(s, "=", 1) != 0) {
        snprintf(err, cap, "col %zu: '->' expected between the source and the destination", (size_t)(s - text) + 1);
        return -1;
    }
    s += s[0] == '-' ? 2 : 1;
    if (parse_array(text, &s, n0, n1, task, c.dst, err, cap) != 0)
        return -1;
    skip_spaces(&s);
    if (*s != '\0') {
        snprintf(err, cap, "col %zu: unexpected text after the destination", (size_t)(s - text) + 1);
        return -1;
    }
    *out = c;
    return 0;
}

static void dim_text(const hpf_dim_t *d, unsigned n, char *buf, size_t cap)
{
    if (d->p == 1 && d->k == n)
        snprintf(buf, cap, ":");
    else if (d->k == 1)
        snprintf(buf, cap, "CYCLIC");
    else if (d->k == (n + d->p - 1) / d->p)
        snprintf(buf, cap, "BLOCK");
    else
        snprintf(buf, cap, "CYCLIC(%u)", d->k);
}

void hpf_case_text(const hpf_case_t *c, char *buf, size_t cap)
{
    char s0[24], s1[24], d0[24], d1[24];
    dim_text(&c->src[0], c->n0, s0, sizeof s0);
    dim_text(&c->src[1], c->n1, s1, sizeof s1);
    dim_text(&c->dst[0], c->n0, d0, sizeof d0);
    dim_text(&c->dst[1], c->n1, d1, sizeof d1);
    snprintf(buf, cap, "S(%s,%s) -> D(%s,%s)", s0, s1, d0, d1);
}

/* Indices of n that processor q holds under d. */
static unsigned extent(const hpf_dim_t *d, unsigned n, unsigned q)
{
    unsigned cycle = d->p * d->k, whole = n / cycle, rest = n - whole * cycle, start = q * d->k;
    unsigned tail = rest > start ? rest - start : 0;
    return whole * d->k + (tail < d->k ? tail : d->k);
}

/* The global index of local index l on processor q. */
static unsigned global_of(const hpf_dim_t *d, unsigned q, unsigned l)
{
    return (l / d->k) * d->p * d->k + q * d->k + l % d->k;
}

static uint32_t symbol(const emu_program_t *p, const char *name)
{
    const isa_symbol_t *s = isa_image_symbol(&p->image, name);
    return s != NULL ? s->value : 0;
}

/* Elements of every destination that do not hold what S held in the last iteration, plus guard words that
 * changed, read from the cells' memory. */
static uint64_t host_check(emu_array_t *a, unsigned width, const hpf_case_t *c, uint32_t local, uint32_t guard,
                           uint32_t salt)
{
    uint64_t wrong = 0;
    for (unsigned q = 0; q < c->task; q++) {
        unsigned id = c->task + q, q0 = q % c->dst[0].p, q1 = q / c->dst[0].p;
        const ca_t *ca = emu_array_ca(a, id % width, id / width);
        unsigned l0n = extent(&c->dst[0], c->n0, q0), l1n = extent(&c->dst[1], c->n1, q1);
        uint32_t around[8];
        if (ca_mem_read(ca, local - 16, around, 16) != 0 ||
            ca_mem_read(ca, local + 4u * l0n * l1n, around + 4, 16) != 0)
            return UINT64_MAX;
        for (unsigned i = 0; i < 8; i++)
            wrong += around[i] != guard;
        uint32_t *col = malloc(sizeof *col * (l0n > 0 ? l0n : 1));
        if (col == NULL)
            return UINT64_MAX;
        for (unsigned l1 = 0; l1 < l1n; l1++) {
            if (ca_mem_read(ca, local + 4u * l1 * l0n, col, 4u * l0n) != 0) {
                free(col);
                return UINT64_MAX;
            }
            unsigned g1 = global_of(&c->dst[1], q1, l1);
            for (unsigned l0 = 0; l0 < l0n; l0++)
                wrong += col[l0] != (uint32_t)(g1 * c->n0 + global_of(&c->dst[0], q0, l0)) + salt;
        }
        free(col);
    }
    return wrong;
}

double hpf_mean_latency(const hpf_result_t *r, unsigned n)
{
    double sum = 0;
    for (unsigned i = 0; i < n && i < r->iterations; i++)
        sum += r->latency[i];
    return n > 0 ? sum / (n < r->iterations ? n : r->iterations) : 0;
}

unsigned hpf_break_even(const hpf_result_t *uncached, const hpf_result_t *cached)
{
    for (unsigned n = 1; n <= uncached->iterations && n <= cached->iterations; n++)
        if (hpf_mean_latency(cached, n) <= hpf_mean_latency(uncached, n))
            return n;
    return 0;
}

static int read_results(emu_array_t *a, const emu_program_t *p, unsigned width, const hpf_case_t *c,
                        hpf_result_t *out)
{
    uint32_t results = symbol(p, "results"), totals = symbol(p, "totals");
    for (unsigned i = 0; i < out->iterations; i++) {
        uint32_t first = 0, last = 0, assembly = 0, store = 0;
        for (unsigned id = 0; id < 2 * c->task; id++) {
            uint32_t w[4];
            if (ca_mem_read(emu_array_ca(a, id % width, id / width), results + 16 * i, w, sizeof w) != 0)
                return -1;
            if (id < c->task) {
                first = id == 0 || w[0] < first ? w[0] : first;
                assembly = w[1] > assembly ? w[1] : assembly;
                store = w[2] > store ? w[2] : store;
            } else {
                last = id == c->task || w[3] > last ? w[3] : last;
            }
        }
        out->latency[i] = last - first;
        out->assembly[i] = assembly;
        out->store[i] = store;
    }
    for (unsigned id = 0; id < 2 * c->task; id++) {
        uint32_t w[2];
        if (ca_mem_read(emu_array_ca(a, id % width, id / width), totals, w, sizeof w) != 0)
            return -1;
        if (id < c->task) {
            out->words_sent += w[0];
            out->blocks_cached += w[1];
        } else {
            out->wrong_on_cells += w[0];
        }
    }
    return 0;
}

int hpf_run(const hpf_case_t *c, const hpf_options_t *o, hpf_result_t *out, char *err, size_t cap)
{
    memset(out, 0, sizeof *out);
    out->iterations = o->iterations;
    if (o->iterations == 0 || o->iterations > HPF_MAX_ITERATIONS) {
        snprintf(err, cap, "iterations must be 1..%u", HPF_MAX_ITERATIONS);
        return -1;
    }
    if (c->src[0].p * c->src[1].p != c->task || c->dst[0].p * c->dst[1].p != c->task) {
        snprintf(err, cap, "each distribution must use the task's %u cells", c->task);
        return -1;
    }
    emu_machine_t m;
    emu_machine_defaults(&m);
    m.width = o->width != 0 ? o->width : 8;
    m.height = o->height != 0 ? o->height : 8;
    if (m.width * m.height < 2 * c->task) {
        snprintf(err, cap, "a %ux%u array cannot hold two tasks of %u cells", m.width, m.height, c->task);
        return -1;
    }
    char defs[11][32];
    const char *names[11] = {"N0", "N1", "T", "SP0", "SK0", "SP1", "SK1", "DP0", "DK0", "DP1", "DK1"};
    const unsigned values[11] = {c->n0, c->n1, c->task, c->src[0].p, c->src[0].k, c->src[1].p, c->src[1].k,
                                 c->dst[0].p, c->dst[0].k, c->dst[1].p, c->dst[1].k};
    const char *defines[11];
    for (unsigned i = 0; i < 11; i++) {
        snprintf(defs[i], sizeof defs[i], "%s=%u", names[i], values[i]);
        defines[i] = defs[i];
    }
    emu_array_t *a;
    if (emu_array_create(&a, &m, err, cap) != 0)
        return -1;
    const emu_program_t *p = program_add(a, "programs/hpf/assign.s", defines, 11);
    const uint32_t args[4] = {o->cached, o->format, o->iterations, o->check_each};
    int rc = 0;
    if (p == NULL) {
        snprintf(err, cap, "programs/hpf/assign.s did not assemble");
        rc = -1;
    }
    for (unsigned y = 0; rc == 0 && y < m.height; y++)
        for (unsigned x = 0; rc == 0 && x < m.width; x++)
            rc = emu_array_load(a, x, y, p, args, 4, err, cap);
    bool interrupted = false;
    if (rc == 0) {
        rc = run_to_end(a, 20000000000ull, &interrupted, err, cap);
        out->cycles = emu_array_cycles(a);
    }
    if (o->interrupted != NULL)
        *o->interrupted = interrupted;
    if (rc == 0 && read_results(a, p, m.width, c, out) != 0) {
        snprintf(err, cap, "the results are not in the cells' memory");
        rc = -1;
    }
    if (rc == 0)
        out->wrong_on_host = host_check(a, m.width, c, symbol(p, "local"), symbol(p, "GUARD"),
                                        o->check_each ? salt_of(o->iterations - 1) : 0);
    emu_array_free(a);
    return rc;
}
