/* Helpers for the console's tests: sessions over the shipped programs, driven line by line in-process. */
#ifndef TESTS_DEBUG_DBG_TEST_H
#define TESTS_DEBUG_DBG_TEST_H

#include <stdint.h>

#include "dbg.h"

/* A session over a run description (.run) or a program on a WxH array, path relative to the source root
 * (the tests run there). Its output goes to /dev/null; dt_do returns what a command printed. */
dbg_t *dt_open(const char *rel, unsigned w, unsigned h, const uint32_t *args, unsigned nargs);
void dt_close(dbg_t *d);
/* Runs a command that must succeed; returns its output (valid until the next command). */
const char *dt_do(dbg_t *d, const char *cmd);
/* Runs a command that must fail with a one-line error; returns the message. */
const char *dt_fail(dbg_t *d, const char *cmd);
/* What `iwarp run --state-hash-at n` prints for the same description, from a fresh array. */
uint64_t dt_batch_hash(const char *rel, unsigned w, unsigned h, const uint32_t *args, unsigned nargs, uint64_t n);

#endif
