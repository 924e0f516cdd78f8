/*
 * The copy-transfer paper's own estimates (Stricker and Gross, sections 3.4 and 5.1), as expressions over its
 * machines' tables, so that `iwarp model copy` and the tests evaluate them the same way. docs/copy.md.
 */
#ifndef EXPERIMENTS_COPY_PAPER_H
#define EXPERIMENTS_COPY_PAPER_H

#include <stddef.h>

#include "copy_expr.h"

typedef struct copy_paper_estimate {
    const char *machine;  /* "t3d" or "paragon" */
    const char *transfer; /* the paper's name for it, such as "1Q1024" */
    const char *section;
    const char *expr;
    double nd;    /* when above 0: the network figure (Nd at the table's congestion) the estimate implies */
    double paper; /* MB/s as printed */
    const char *note; /* why it does not come out, or NULL */
} copy_paper_estimate_t;

extern const copy_paper_estimate_t copy_paper_estimates[];
extern const size_t copy_paper_estimate_count;

/* The built-in table by name ("t3d", "paragon"); -1 if there is none by that name. */
int copy_table_builtin(const char *name, copy_table_t *t);

/* Evaluates estimate e with its machine's table (and its network figure). */
int copy_paper_eval(const copy_paper_estimate_t *e, copy_result_t *out, char *err, size_t cap);

#endif
