/* The exchanges of `iwarp bench copy` (copy_kernels.h). */
#include "copy_kernels.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "copy_words.h"

/* Where the kernels keep their arrays in every cell: the source below, the destination above. */
enum { SRC = COPY_EXCHANGE_DATA, DST = 0x300000, SPAN = DST - SRC };

/* For the kernels that a formula does not describe: each pair's local source and destination indices. */
typedef struct pair_list {
    uint32_t *src, *dst;
    unsigned n, cap;
} pair_list_t;

struct copy_kernel {
    copy_kernel_params_t p;
    unsigned cells;
    unsigned mult_x, mult_y; /* xQy's indexed patterns: k -> k mult mod (P N) */
    pair_list_t *lists;      /* cells x cells, from-major; NULL for the formulas */
    copy_exchange_spec_t spec;
};

/* xQy: word k of the block between `cell` and its peer with pattern s (see exchange.s's header). */
static uint32_t xqy_addr(const copy_kernel_t *k, long s, uint32_t base, unsigned cell, unsigned i, unsigned mult)
{
    uint64_t at = (uint64_t)cell * k->p.n + i;
    if (s == COPY_INDEXED)
        return base + 4 * (uint32_t)((at * mult) % ((uint64_t)k->cells * k->p.n));
    if ((unsigned long)s < k->cells)
        return base + (uint32_t)(4 * at * (uint64_t)s);
    return base + (uint32_t)(4 * (cell + (uint64_t)i * s));
}

static uint64_t xqy_span(const copy_kernel_t *k, long s)
{
    if (s == COPY_INDEXED)
        return (uint64_t)k->cells * k->p.n;
    if ((unsigned long)s < k->cells)
        return (uint64_t)k->cells * k->p.n * s;
    return (uint64_t)s * (k->p.n - 1) + k->cells;
}

static unsigned count_of(const void *ctx, unsigned from, unsigned to)
{
    const copy_kernel_t *k = ctx;
    switch (k->p.kind) {
    case COPY_KERNEL_XQY: return from == to ? 0 : k->p.n;
    case COPY_KERNEL_TRANSPOSE: return k->p.n;
    default: return k->lists[from * k->cells + to].n;
    }
}

static uint32_t src_of(const void *ctx, unsigned from, unsigned to, unsigned i)
{
    const copy_kernel_t *k = ctx;
    switch (k->p.kind) {
    case COPY_KERNEL_XQY: return xqy_addr(k, k->p.x, SRC, to, i, k->mult_x);
    case COPY_KERNEL_TRANSPOSE: return SRC + 4 * (i * k->cells + to); /* row i of the sender, column `to` */
    default: return SRC + 4 * k->lists[from * k->cells + to].src[i];
    }
}

static uint32_t dst_of(const void *ctx, unsigned from, unsigned to, unsigned i)
{
    const copy_kernel_t *k = ctx;
    switch (k->p.kind) {
    case COPY_KERNEL_XQY: return xqy_addr(k, k->p.y, DST, from, i, k->mult_y);
    case COPY_KERNEL_TRANSPOSE: return DST + 4 * (from * k->p.n + i); /* the receiver's row, columns of `from` */
    default: return DST + 4 * k->lists[from * k->cells + to].dst[i];
    }
}

static int list_add(pair_list_t *l, uint32_t s, uint32_t d)
{
    if (l->n == l->cap) {
        unsigned cap = l->cap ? 2 * l->cap : 16;
        uint32_t *ns = realloc(l->src, cap * sizeof *ns);
        if (ns == NULL)
            return -1;
        l->src = ns;
        uint32_t *nd = realloc(l->dst, cap * sizeof *nd);
        if (nd == NULL)
            return -1;
        l->dst = nd;
        l->cap = cap;
    }
    l->src[l->n] = s;
    l->dst[l->n] = d;
    l->n++;
    return 0;
}

/* A = B[X]: element i of A (cell i / n, local i % n) takes B[X[i]] (cell X[i] / n). The owner of B sends,
 * in the order of i; X is a Fisher-Yates permutation from a fixed xorshift seed. */
static int build_gather(copy_kernel_t *k)
{
    uint64_t total = (uint64_t)k->cells * k->p.n;
    uint32_t *x = malloc(total * sizeof *x);
    if (x == NULL)
        return -1;
    for (uint64_t i = 0; i < total; i++)
        x[i] = (uint32_t)i;
    uint64_t r = 0x9e3779b97f4a7c15ull;
    for (uint64_t i = total - 1; i > 0; i--) {
        r ^= r << 13;
        r ^= r >> 7;
        r ^= r << 17;
        uint64_t j = r % (i + 1);
        uint32_t t = x[i];
        x[i] = x[j];
        x[j] = t;
    }
    int rc = 0;
    for (uint64_t i = 0; i < total && rc == 0; i++) {
        unsigned owner = x[i] / k->p.n, to = (unsigned)(i / k->p.n);
        rc = list_add(&k->lists[owner * k->cells + to], x[i] % k->p.n, (uint32_t)(i % k->p.n));
    }
    free(x);
    return rc;
}

/* CYCLIC(k1) to CYCLIC(k2): global element g lives on cell (g / k) mod P at local (g / (k P)) k + g mod k. */
static int build_cyclic(copy_kernel_t *k)
{
    uint64_t total = (uint64_t)k->cells * k->p.n;
    unsigned k1 = k->p.k1, k2 = k->p.k2, p = k->cells;
    int rc = 0;
    for (uint64_t g = 0; g < total && rc == 0; g++) {
        unsigned from = (unsigned)((g / k1) % p), to = (unsigned)((g / k2) % p);
        uint32_t s = (uint32_t)((g / ((uint64_t)k1 * p)) * k1 + g % k1);
        uint32_t d = (uint32_t)((g / ((uint64_t)k2 * p)) * k2 + g % k2);
        rc = list_add(&k->lists[from * p + to], s, d);
    }
    return rc;
}

static uint64_t local_words(const copy_kernel_t *k, bool destination)
{
    const copy_kernel_params_t *p = &k->p;
    switch (p->kind) {
    case COPY_KERNEL_XQY: return xqy_span(k, destination ? p->y : p->x);
    case COPY_KERNEL_TRANSPOSE: return (uint64_t)k->cells * p->n;
    case COPY_KERNEL_GATHER: return p->n;
    case COPY_KERNEL_CYCLIC: {
        /* a cell's local part: up to n rounded up to whole blocks of k */
        unsigned b = destination ? p->k2 : p->k1;
        return ((uint64_t)p->n + b - 1) / b * b + b;
    }
    }
    return 0;
}

copy_kernel_t *copy_kernel_new(const copy_kernel_params_t *p, char *err, size_t cap)
{
    unsigned cells = p->width * p->height;
    if (cells < 2 || p->n < 1 || (p->kind == COPY_KERNEL_CYCLIC && (p->k1 < 1 || p->k2 < 1)) ||
        (p->kind == COPY_KERNEL_XQY && (p->x == 0 || p->y == 0 || p->n < 2))) {
        snprintf(err, cap, "a kernel needs 2 cells or more, n of 1 or more (2 for xQy), k1, k2 and x, y not 0");
        return NULL;
    }
    copy_kernel_t *k = calloc(1, sizeof *k);
    if (k == NULL) {
        snprintf(err, cap, "out of memory");
        return NULL;
    }
    k->p = *p;
    k->cells = cells;
    k->mult_x = copy_coprime_multiplier(cells * p->n, 389);
    k->mult_y = copy_coprime_multiplier(cells * p->n, 277);
    if (4 * local_words(k, false) > SPAN || 4 * local_words(k, true) > COPY_EXCHANGE_END - DST) {
        snprintf(err, cap, "the kernel's arrays do not fit a cell's data region (%u KB a side)", SPAN / 1024);
        free(k);
        return NULL;
    }
    if (p->kind == COPY_KERNEL_GATHER || p->kind == COPY_KERNEL_CYCLIC) {
        k->lists = calloc((size_t)cells * cells, sizeof *k->lists);
        if (k->lists == NULL || (p->kind == COPY_KERNEL_GATHER ? build_gather(k) : build_cyclic(k)) != 0) {
            snprintf(err, cap, "out of memory");
            copy_kernel_free(k);
            return NULL;
        }
    }
    k->spec = (copy_exchange_spec_t){
        .width = p->width,
        .height = p->height,
        .ctx = k,
        .count = count_of,
        .src = src_of,
        .dst = dst_of,
        .dst_lo = DST,
        .dst_hi = DST + (uint32_t)(4 * local_words(k, true)),
    };
    return k;
}

const copy_exchange_spec_t *copy_kernel_spec(const copy_kernel_t *k)
{
    return &k->spec;
}

void copy_kernel_free(copy_kernel_t *k)
{
    if (k == NULL)
        return;
    if (k->lists != NULL)
        for (size_t i = 0; i < (size_t)k->cells * k->cells; i++) {
            free(k->lists[i].src);
            free(k->lists[i].dst);
        }
    free(k->lists);
    free(k);
}
