/*
 * The state hash of `iwarp run --state-hash-at N` and of the console's `hash` command: run until the clock
 * reaches N (or the run ends before), then hash every cell's registers, memory, channels, spools and every
 * statistic. A console session stopped and resumed any number of times, stepped back and forth, prints the
 * hash the uninterrupted batch run prints at the same clock (tests/debug/test_state_hash.c).
 *
 * Header-only: `iwarp run` and the console (tools/debug) share it.
 */
#ifndef TRACE_STATE_HASH_H
#define TRACE_STATE_HASH_H

#include <stdint.h>
#include <stdio.h>

#include "emu.h"

/* Runs a (freshly built) array to clock n and returns its hash; *status gets how the run ended. */
static inline uint64_t state_hash_at(emu_array_t *a, uint64_t n, emu_run_status_t *status)
{
    emu_run_status_t st = emu_array_run(a, n);
    if (status != NULL)
        *status = st;
    return emu_array_hash(a, true, true);
}

/* The printed form: 16 lowercase hex digits and a newline. */
static inline void state_hash_print(FILE *out, uint64_t hash)
{
    fprintf(out, "%016llx\n", (unsigned long long)hash);
}

#endif
