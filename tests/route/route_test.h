/*
 * Helpers of the communication compiler's tests (suite 'route'): compile a set or a pattern, check every
 * property a plan must have (the acceptance list of docs/conset.md), decode the cell tables, build random
 * sets, and compare numbers with the golden file tests/route/golden/phases.txt.
 */
#ifndef TESTS_ROUTE_TEST_H
#define TESTS_ROUTE_TEST_H

#include <setjmp.h> /* cmocka.h needs these first */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "celldata.h"
#include "conset/cset.h"
#include "conset/pattern.h"
#include "conset/route.h"

/* Parses text (failing the test on any error). */
void rt_parse(cset_t *s, const char *text);
/* Builds a pattern (failing the test on an error). */
void rt_pattern(cset_t *s, pattern_kind_t k, unsigned w, unsigned h, uint32_t words, unsigned capacity);
/* Compiles with the default options and the given capacity (0: the set's), failing on an error. */
void rt_compile(const cset_t *s, unsigned capacity, route_plan_t *plan);

/* Fails the test unless the plan has every property it must: each connection in exactly one phase of its task,
 * a contiguous simple path on the torus from its source to its destination, at most `capacity` connections at
 * any cell of any phase, distinct channels 4..19 at each cell of each phase, ordering constraints kept (a later
 * phase, or the same phase with the later one starting after the earlier ends), a schedule with no overlap on
 * any cell's send or receive timeline and whose phase clocks are the latest end, at least the lower bound of
 * phases. */
void rt_check_plan(const cset_t *s, const route_plan_t *plan);

/* Fails the test unless the cell data are exactly what docs/conset.md says for the plan. */
void rt_check_tables(const route_plan_t *plan, const celldata_t *d);

/* A random set: n connections (src, dst, words uniform; self connections included) and, with ordered, some
 * `after` constraints from earlier connections of the same task; tasks 1..3. */
void rt_random_set(cset_t *s, uint64_t seed, unsigned w, unsigned h, unsigned n, unsigned capacity, bool ordered);

/* Phases at least needed: channel uses of shortest paths over cells x capacity, per task. */
unsigned rt_lower_bound(const cset_t *s, unsigned capacity);

/* Checks `name value` against tests/route/golden/phases.txt, or records it when IWARP_REBASELINE=1. */
void rt_check_golden(const char *name, uint64_t value);

/* A whole file (NUL-terminated; *len without the NUL), failing the test when it cannot be read. */
char *rt_read_file(const char *path, size_t *len);

/* Source-tree path of rel. */
void rt_source_path(char *buf, size_t cap, const char *rel);

#endif
