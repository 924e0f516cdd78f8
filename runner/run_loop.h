/* Running an array for a command that may take long: in slices of clocks, with a progress line on a terminal
 * and Ctrl-C stopping it between two slices. Slicing changes nothing in the run: emu_array_run stops at a
 * slice's end and goes on from there as if it had not stopped (tests/e2e/test_slices.c). */
#ifndef RUNNER_RUN_LOOP_H
#define RUNNER_RUN_LOOP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <stdatomic.h>

#include "emu.h"
#include "thread_tuner.h"

/* Host threads for runs that share the host's cores with other runs (bench jobs): each has `base`, and the
 * workers left idle (no run left to start) are shared among the runs still going. A run's thread count only
 * changes between two slices, and its result never depends on it (tests/e2e/test_slices.c). */
typedef struct run_threads {
    unsigned base;
    _Atomic unsigned idle;    /* workers with nothing left to run */
    _Atomic unsigned running; /* runs going on now */
} run_threads_t;

/* Runs until the run ends or the clock reaches `limit`; with *interrupted set when Ctrl-C stopped it (the status
 * is then EMU_RUN_STOPPED). `what` names the work on the progress line; `quiet` keeps it off. */
emu_run_status_t run_loop(emu_array_t *a, uint64_t limit, const char *what, bool quiet, bool *interrupted);
/* The same with each slice's thread count from `tune` (--threads auto); NULL: the array's count throughout. */
emu_run_status_t run_loop_tuned(emu_array_t *a, uint64_t limit, const char *what, bool quiet, bool *interrupted,
                                thread_tuner_t *tune);

/* The same without a progress line and without arming Ctrl-C (the caller has armed it): for runs on worker
 * threads, several at once. */
emu_run_status_t run_sliced(emu_array_t *a, uint64_t limit, bool *interrupted);
/* run_sliced, counted in *share as running and taking its share of the idle workers' cores between slices. */
emu_run_status_t run_sliced_shared(emu_array_t *a, uint64_t limit, bool *interrupted, run_threads_t *share);

/* run_sliced to the end: 0 when every cell halted; else -1 with err saying why ("interrupted", or how the run
 * ended with the first fault and the deadlock report). */
int run_to_end(emu_array_t *a, uint64_t limit, bool *interrupted, char *err, size_t cap);

#endif
