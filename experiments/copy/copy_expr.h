/*
 * Expressions of the copy-transfer model (Stricker and Gross, docs/references.md) evaluated with a machine's
 * table: basic transfers composed in sequence (`->`, the reciprocal sum of their throughputs: they share a
 * resource) and in parallel (`||`, the minimum: disjoint resources), with resource constraints after `where`
 * (`2 * Q <= 0C1`: twice the composite's throughput cannot exceed 0C1's; the composite is lowered until it
 * holds), at the end or inside parentheses, where Q is what the parentheses hold. Numbers stand for themselves in MB/s. docs/copy.md gives the grammar.
 *
 *   1C1 -> (1S0 || Nd || 0D1) -> 1C64          buffer packing, contiguous to stride 64
 *   !S0 || Nadp || 0D!                          chained, indexed to indexed
 */
#ifndef EXPERIMENTS_COPY_EXPR_H
#define EXPERIMENTS_COPY_EXPR_H

#include <stdbool.h>
#include <stddef.h>

#include "copy_table.h"

enum { COPY_TERMS_MAX = 64, COPY_DEPTH_MAX = 64 };

/* A basic transfer the expression used: as written, and the table entry that stood for it. */
typedef struct copy_term {
    copy_transfer_t asked, used;
    double mbps;
    unsigned col;
} copy_term_t;

typedef struct copy_result {
    double mbps;
    bool constrained; /* a `where` clause lowered it */
    unsigned nterms;  /* terms past COPY_TERMS_MAX are evaluated but not listed */
    copy_term_t terms[COPY_TERMS_MAX];
} copy_result_t;

/* Evaluates expr with table t. Errors say `expr:COL: what` (COL 1-based). */
int copy_eval(const char *expr, const copy_table_t *t, copy_result_t *out, char *err, size_t cap);

#endif
