/*
 * Compiled cell tables kept for a connection set that comes again. A bench runs one exchange in several
 * styles and sizes whose connection sets are often the same (every xQy all-to-all of `bench copy` is one set),
 * and the compiler takes 0.7G host instructions on an 8x8 all-to-all: compiling each set once is the same result for
 * less. The key is the set as cset_write writes it (every connection, word count, task and constraint, in
 * order) and every compiler option, so two requests share tables only when the compiler's input is the same.
 * Several threads may ask at once: the first compiles, the others wait for it.
 */
#ifndef CONSET_ROUTE_MEMO_H
#define CONSET_ROUTE_MEMO_H

#include <stddef.h>

#include "celldata.h"
#include "conset/cset.h"
#include "conset/route.h"

typedef struct route_memo route_memo_t;

/* NULL when out of memory. */
route_memo_t *route_memo_new(void);
void route_memo_free(route_memo_t *m);

/* The tables of set compiled with o (route_compile, then route_tables) and its phases. *tables stays valid
 * and unchanged until route_memo_free; the caller must not free it. Returns 0, or -1 with err set (the same
 * error for every request of a set that did not compile). */
int route_memo_tables(route_memo_t *m, const cset_t *set, const route_options_t *o, const celldata_t **tables,
                      unsigned *phases, char *err, size_t errlen);

/* How many sets the memo compiled, and how many requests it answered in all. */
void route_memo_counts(route_memo_t *m, unsigned *compiled, unsigned *requests);

#endif
