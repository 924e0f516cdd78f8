/* Collective cases: names, groups, shapes, and every cell's memory before and after (coll.h). */
#include "coll.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ca.h"
#include "coll_layout.h"

static const char *const pattern_names[COLL_PATTERNS] = {
    "bcast", "reduce", "mbcast-tree", "mbcast-ring", "mbcast-pipe", "mreduce-tree", "mreduce-ring", "bsend",
};
static const char *const impl_names[COLL_IMPLS] = {"naive", "chunked", "conset"};
static const char *const groups_names[COLL_GROUPINGS] = {"rows", "columns", "whole"};

const char *coll_pattern_name(coll_pattern_t p)
{
    return (unsigned)p < COLL_PATTERNS ? pattern_names[p] : NULL;
}

const char *coll_impl_name(coll_impl_t i)
{
    return (unsigned)i < COLL_IMPLS ? impl_names[i] : NULL;
}

const char *coll_groups_name(coll_groups_t g)
{
    return (unsigned)g < COLL_GROUPINGS ? groups_names[g] : NULL;
}

static int find(const char *s, const char *const *names, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        if (strcmp(s, names[i]) == 0)
            return (int)i;
    return -1;
}

int coll_pattern_parse(const char *s, coll_pattern_t *p)
{
    int i = find(s, pattern_names, COLL_PATTERNS);
    if (i >= 0)
        *p = (coll_pattern_t)i;
    return i >= 0 ? 0 : -1;
}

int coll_impl_parse(const char *s, coll_impl_t *impl)
{
    int i = find(s, impl_names, COLL_IMPLS);
    if (i >= 0)
        *impl = (coll_impl_t)i;
    return i >= 0 ? 0 : -1;
}

int coll_groups_parse(const char *s, coll_groups_t *g)
{
    int i = find(s, groups_names, COLL_GROUPINGS);
    if (i >= 0)
        *g = (coll_groups_t)i;
    return i >= 0 ? 0 : -1;
}

unsigned coll_group_size(const coll_case_t *c)
{
    return c->groups == COLL_ROWS ? c->width : c->groups == COLL_COLUMNS ? c->height : c->width * c->height;
}

void coll_group_of(const coll_case_t *c, unsigned cell, unsigned *group, unsigned *rank)
{
    unsigned x = cell % c->width, y = cell / c->width;
    *group = c->groups == COLL_ROWS ? y : c->groups == COLL_COLUMNS ? x : 0;
    *rank = c->groups == COLL_ROWS ? x : c->groups == COLL_COLUMNS ? y : cell;
}

unsigned coll_cell_of(const coll_case_t *c, unsigned group, unsigned rank)
{
    return c->groups == COLL_ROWS      ? group * c->width + rank
           : c->groups == COLL_COLUMNS ? rank * c->width + group
                                       : rank;
}

bool coll_is_multi(coll_pattern_t p)
{
    return p == COLL_MBCAST_TREE || p == COLL_MBCAST_RING || p == COLL_MBCAST_PIPE || p == COLL_MREDUCE_TREE ||
           p == COLL_MREDUCE_RING;
}

/* Bytes from the first matrix's first word to past its last row's last word. */
static uint64_t matrix_bytes(const coll_case_t *c)
{
    return 4ull *
           ((uint64_t)(c->m - 1) * c->lda + (coll_is_multi(c->pattern) ? (uint64_t)coll_group_size(c) * c->n : c->n));
}

/* The second matrix of COLL_BSEND (where the answer lands on rank 0): past the first and its guards. */
static uint32_t second_matrix(const coll_case_t *c)
{
    return (uint32_t)((COLL_MAT + matrix_bytes(c) + 2 * COLL_GUARD_BYTES + 63) & ~63ull);
}

/* The region the check reads: the matrices with their guards. */
static void region(const coll_case_t *c, uint32_t *lo, uint32_t *hi)
{
    *lo = COLL_MAT - COLL_GUARD_BYTES;
    uint64_t end = c->pattern == COLL_BSEND ? second_matrix(c) + matrix_bytes(c) : COLL_MAT + matrix_bytes(c);
    *hi = (uint32_t)(end + COLL_GUARD_BYTES);
}

int coll_case_check(const coll_case_t *c, char *err, size_t cap)
{
    const char *pat = coll_pattern_name(c->pattern);
    if (pat == NULL || coll_impl_name(c->impl) == NULL || coll_groups_name(c->groups) == NULL) {
        snprintf(err, cap, "unknown pattern, implementation or grouping");
        return -1;
    }
    if (c->width == 0 || c->height == 0 || c->width > 32 || c->height > 32) {
        snprintf(err, cap, "the array must be 1x1 to 32x32 cells, not %ux%u", c->width, c->height);
        return -1;
    }
    unsigned p = coll_group_size(c);
    if (p < 2) {
        snprintf(err, cap, "a %s group of the %ux%u array has one cell: a collective needs at least 2",
                 coll_groups_name(c->groups), c->width, c->height);
        return -1;
    }
    if (c->m == 0 || c->n == 0) {
        snprintf(err, cap, "the block is %ux%u: it needs at least one word", c->m, c->n);
        return -1;
    }
    uint64_t row = coll_is_multi(c->pattern) ? (uint64_t)p * c->n : c->n;
    if (c->lda < row) {
        snprintf(err, cap, "lda %u is less than the %s row of %llu words", c->lda,
                 coll_is_multi(c->pattern) ? "matrix's (P blocks of n)" : "block's", (unsigned long long)row);
        return -1;
    }
    if ((uint64_t)c->m * c->n > 0xfffffu) {
        snprintf(err, cap, "a block of %llu words is longer than a message may be (1048575)",
                 (unsigned long long)c->m * c->n);
        return -1;
    }
    uint32_t lo, hi;
    if ((uint64_t)c->m * c->lda > 0x1000000u || (region(c, &lo, &hi), hi > COLL_WORK)) {
        snprintf(err, cap, "a %u x %u matrix (lda %u) does not fit the %u KB the programs leave it", c->m,
                 (unsigned)row, c->lda, (COLL_WORK - COLL_MAT) / 1024);
        return -1;
    }
    /* the naive ring: two blocks being sent and one being received (runtime/coll.s, coll_shape) */
    if (12ull * c->m * c->n > COLL_WORK_END - COLL_WORK) {
        snprintf(err, cap, "a block of %llu words does not fit the runtime's buffers (%u KB for three blocks)",
                 (unsigned long long)c->m * c->n, (COLL_WORK_END - COLL_WORK) / 1024);
        return -1;
    }
    if (c->impl == COLL_CHUNKED && c->chunk == 0) {
        snprintf(err, cap, "a chunked %s needs a chunk of at least one word", pat);
        return -1;
    }
    if (c->root >= p && (c->pattern == COLL_BCAST || c->pattern == COLL_REDUCE)) {
        snprintf(err, cap, "root %u is not a rank of a group of %u", c->root, p);
        return -1;
    }
    if (c->impl == COLL_CONSET &&
        (c->pattern == COLL_MBCAST_TREE || c->pattern == COLL_MREDUCE_TREE || c->pattern == COLL_BSEND)) {
        snprintf(
            err, cap,
            c->pattern == COLL_BSEND
                ? "%s has no ConSet form: ConSet has connections, not messages to buffer (see docs/collectives.md)"
                : "%s has no ConSet form: P trees with P roots would be P connection sets; ConSet's multi-patterns "
                  "are mbcast-ring, mbcast-pipe and mreduce-ring (see docs/collectives.md)",
            pat);
        return -1;
    }
    return 0;
}

uint64_t coll_bytes(const coll_case_t *c)
{
    uint64_t block = 4ull * c->m * c->n;
    if (coll_is_multi(c->pattern))
        return block * coll_group_size(c);
    return c->pattern == COLL_BSEND ? 2 * block : block;
}

double coll_mbps(uint64_t bytes, uint64_t clocks)
{
    return clocks ? (double)bytes * 20.0 / (double)clocks : 0.0;
}

/* A word of rank r's contribution in group g at row i, column j of the matrix (block b's column j' is
 * b n + j'): a small whole number as an fp32, so that sums of up to 1024 of them are exact in any order. */
static uint32_t value(unsigned g, unsigned r, unsigned i, unsigned j)
{
    float f = (float)((r * 7u + g * 3u + i * 13u + j) % 61u + 1u);
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static uint32_t sum(const coll_case_t *c, unsigned g, unsigned i, unsigned j)
{
    float f = 0;
    for (unsigned r = 0; r < coll_group_size(c); r++)
        f += (float)((r * 7u + g * 3u + i * 13u + j) % 61u + 1u);
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* Fills `img` (the region from `lo`, every word a guard to start) with the matrix words a cell holds
 * before the run (after = false) or must hold after it. */
static void image(const coll_case_t *c, unsigned cell, bool after, uint32_t lo, uint32_t *img, size_t words)
{
    for (size_t k = 0; k < words; k++)
        img[k] = COLL_GUARD_WORD;
    unsigned g, r, p = coll_group_size(c);
    coll_group_of(c, cell, &g, &r);
    uint32_t *mat = img + (COLL_MAT - lo) / 4;
    for (unsigned i = 0; i < c->m; i++)
        for (unsigned b = 0; b < (coll_is_multi(c->pattern) ? p : 1); b++)
            for (unsigned j0 = 0; j0 < c->n; j0++) {
                unsigned j = b * c->n + j0;
                uint32_t *w = &mat[(size_t)i * c->lda + j];
                switch (c->pattern) {
                case COLL_BCAST:
                    if (r == c->root || after)
                        *w = value(g, c->root, i, j);
                    break;
                case COLL_REDUCE: *w = after && r == c->root ? sum(c, g, i, j) : value(g, r, i, j); break;
                case COLL_MBCAST_TREE:
                case COLL_MBCAST_RING:
                case COLL_MBCAST_PIPE:
                    if (b == r || after)
                        *w = value(g, b, i, j);
                    break;
                case COLL_MREDUCE_TREE:
                case COLL_MREDUCE_RING: *w = after && b == r ? sum(c, g, i, j) : value(g, r, i, j); break;
                case COLL_BSEND:
                    if (r == 0 || (after && r == p - 1))
                        *w = value(g, 0, i, j);
                    if (r == 0 && after)
                        img[(second_matrix(c) - lo) / 4 + (size_t)i * c->lda + j] = value(g, 0, i, j);
                    break;
                case COLL_PATTERNS: break;
                }
            }
}

int coll_layout(emu_array_t *a, const coll_case_t *c, char *err, size_t cap)
{
    if (coll_case_check(c, err, cap) != 0)
        return -1;
    uint32_t lo, hi;
    region(c, &lo, &hi);
    size_t words = (hi - lo) / 4;
    uint32_t *img = malloc(words * sizeof *img);
    if (img == NULL) {
        snprintf(err, cap, "out of memory");
        return -1;
    }
    int rc = 0;
    unsigned cells = c->width * c->height;
    for (unsigned cell = 0; cell < cells && rc == 0; cell++) {
        unsigned g, r;
        coll_group_of(c, cell, &g, &r);
        uint32_t params[COLL_P_WORDS] = {0};
        params[COLL_P_PATTERN] = c->pattern;
        params[COLL_P_IMPL] = c->impl;
        params[COLL_P_GROUPS] = c->groups;
        params[COLL_P_ROOT] = c->root;
        params[COLL_P_M] = c->m;
        params[COLL_P_N] = c->n;
        params[COLL_P_LDA] = c->lda;
        params[COLL_P_CHUNK] = c->chunk;
        params[COLL_P_DELAY] = c->delay;
        params[COLL_P_SIZE] = coll_group_size(c);
        params[COLL_P_RANK] = r;
        params[COLL_P_BASE] = coll_cell_of(c, g, 0);
        params[COLL_P_STEP] = coll_cell_of(c, g, 1) - coll_cell_of(c, g, 0);
        params[COLL_P_MAT2] = second_matrix(c);
        image(c, cell, false, lo, img, words);
        unsigned x = cell % c->width, y = cell / c->width;
        rc = emu_array_poke(a, x, y, COLL_PARAMS, params, sizeof params);
        if (rc == 0)
            rc = emu_array_poke(a, x, y, lo, img, (uint32_t)(words * 4));
        if (rc != 0)
            snprintf(err, cap, "cannot write the memory of cell (%u,%u)", x, y);
    }
    free(img);
    return rc;
}

uint64_t coll_check(const emu_array_t *a, const coll_case_t *c)
{
    uint32_t lo, hi;
    region(c, &lo, &hi);
    size_t words = (hi - lo) / 4;
    uint32_t *want = malloc(words * sizeof *want), *have = malloc(words * sizeof *have);
    uint64_t wrong = 0;
    for (unsigned cell = 0; cell < c->width * c->height && want != NULL && have != NULL; cell++) {
        image(c, cell, true, lo, want, words);
        if (ca_mem_read(emu_array_ca(a, cell % c->width, cell / c->width), lo, have, (uint32_t)(words * 4)) != 0) {
            wrong = UINT64_MAX;
            break;
        }
        for (size_t k = 0; k < words; k++)
            wrong += have[k] != want[k];
    }
    if (want == NULL || have == NULL)
        wrong = UINT64_MAX;
    free(want);
    free(have);
    return wrong;
}
