/*
 * Running the array on several host threads. Each thread steps the awake cells of a fixed block
 * (schedule.c); one barrier per clock. Cells interact only through link lines written at least one clock ahead, so the blocks can run
 * in parallel and the result is the same as with one thread. Every thread keeps its own copy of the clock
 * state and takes the same decision from the same merged summary (summaries are double-buffered by clock
 * parity, so a thread may start the next clock while another still reads this one).
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "threads.h"

enum { SPINS_BEFORE_YIELD = 2000 };

typedef struct barrier {
    atomic_uint count;
    atomic_uint generation;
    unsigned n;
} barrier_t;

static void barrier_wait(barrier_t *b)
{
    unsigned gen = atomic_load(&b->generation);
    if (atomic_fetch_add(&b->count, 1) + 1 == b->n) {
        atomic_store(&b->count, 0);
        atomic_fetch_add(&b->generation, 1);
        return;
    }
    for (unsigned spins = 0; atomic_load(&b->generation) == gen; spins++)
        if (spins >= SPINS_BEFORE_YIELD)
            sched_yield();
}

/* Each thread writes its own summary every clock: one cache line each, or the threads would fight over it. */
typedef struct padded_summary {
    _Alignas(64) emu_step_summary_t s;
} padded_summary_t;

typedef struct shared_run {
    emu_array_t *a;
    uint64_t limit;
    unsigned nthreads;
    barrier_t barrier;
    padded_summary_t *summaries; /* [2][nthreads] */
    emu_run_clock_t start;
    emu_run_clock_t end;     /* written by thread 0 */
    emu_run_status_t status; /* written by thread 0 */
} shared_run_t;

typedef struct worker {
    shared_run_t *run;
    atomic_int *go; /* 1: all threads exist, run; -1: give up */
    unsigned id;
    pthread_t thread;
} worker_t;

static void *worker_main(void *arg)
{
    worker_t *w = arg;
    shared_run_t *r = w->run;
    while (atomic_load(w->go) == 0)
        sched_yield();
    if (atomic_load(w->go) < 0)
        return NULL;
    emu_array_t *a = r->a;
    emu_block_t *block = &a->blocks[w->id];
    emu_run_clock_t rc = r->start;
    emu_run_status_t st = EMU_RUN_LIMIT;
    /* Summaries alternate by step, not by clock: skipping idle clocks can keep a clock's parity. */
    for (unsigned step = 0;; step++) {
        emu_step_summary_t *mine = &r->summaries[(step & 1u) * r->nthreads + w->id].s;
        *mine = (emu_step_summary_t){.next = UINT64_MAX};
        /* Only thread 0 looks at the stop request; the others learn it from its summary. Every thread steps this
         * clock all the same, and the run stops after it: had thread 0 left its block out, the others' cells
         * would have run one clock more than its own. */
        bool stop = w->id == 0 && a->stop_requested;
        emu_block_step(a, block, rc.clock, mine);
        mine->stop = stop;
        barrier_wait(&r->barrier);
        emu_step_summary_t sum = {.next = UINT64_MAX};
        for (unsigned t = 0; t < r->nthreads; t++)
            emu_summary_merge(&sum, &r->summaries[(step & 1u) * r->nthreads + t].s);
        stop = sum.stop;
        sum.stop = false;
        if (emu_clock_decide(&rc, &a->machine, &sum, r->limit, &st))
            break;
        if (stop) {
            st = EMU_RUN_STOPPED; /* before the next clock, which runs when the array goes on */
            break;
        }
    }
    if (w->id == 0) {
        r->end = rc;
        r->status = st;
    }
    return NULL;
}

emu_run_status_t emu_array_run_threads(emu_array_t *a, uint64_t limit)
{
    unsigned n = a->nthreads < a->ncells ? a->nthreads : a->ncells;
    if (n > EMU_MAX_BLOCKS)
        n = EMU_MAX_BLOCKS;
    if (emu_blocks_prepare(a, n) != 0)
        return emu_array_run_serial(a, limit);
    shared_run_t r = {.a = a, .limit = limit, .nthreads = n, .start = {a->clock, a->last_progress}};
    r.barrier.n = n;
    atomic_init(&r.barrier.count, 0);
    atomic_init(&r.barrier.generation, 0);
    r.summaries = aligned_alloc(64, 2u * n * sizeof *r.summaries);
    worker_t *workers = calloc(n, sizeof *workers);
    if (r.summaries == NULL || workers == NULL) {
        free(r.summaries);
        free(workers);
        return emu_array_run_serial(a, limit);
    }
    atomic_int go;
    atomic_init(&go, 0);
    unsigned started = 1;
    for (unsigned t = 0; t < n; t++)
        workers[t] = (worker_t){&r, &go, t, 0};
    for (unsigned t = 1; t < n; t++) {
        if (pthread_create(&workers[t].thread, NULL, worker_main, &workers[t]) != 0)
            break;
        started++;
    }
    /* The barrier needs every thread: if one could not start, release the others and run on one. */
    atomic_store(&go, started == n ? 1 : -1);
    if (started == n)
        worker_main(&workers[0]);
    for (unsigned t = 1; t < started; t++)
        pthread_join(workers[t].thread, NULL);
    if (started != n) {
        free(r.summaries);
        free(workers);
        return emu_array_run_serial(a, limit);
    }
    a->clock = r.end.clock;
    a->last_progress = r.end.last_progress;
    free(r.summaries);
    free(workers);
    return r.status;
}

emu_run_status_t emu_array_run_serial(emu_array_t *a, uint64_t limit)
{
    emu_run_clock_t rc = {a->clock, a->last_progress};
    emu_run_status_t st;
    bool scheduled = emu_blocks_prepare(a, 1) == 0; /* out of memory: every cell every clock, as it was */
    for (;;) {
        if (scheduled && !a->has_hooks && emu_block_alone(a, &a->blocks[0], &rc, limit, &st))
            break;
        emu_step_summary_t sum = {.next = UINT64_MAX};
        /* A stop request is seen as the clock starts and the run stops after it, as on several threads. */
        bool stop_after = a->stop_requested;
        if (a->has_hooks) {
            a->clock = rc.clock;
            a->last_progress = rc.last_progress;
            if (a->hooks.before_clock != NULL && a->hooks.before_clock(a->hooks.user, a, rc.clock))
                sum.stop = true; /* before the clock, which runs when the array goes on */
        }
        if (!sum.stop) {
            if (scheduled)
                emu_block_step(a, &a->blocks[0], rc.clock, &sum);
            else
                for (unsigned i = 0; i < a->ncells; i++)
                    emu_cell_step(&a->cells[i], rc.clock, &sum);
            a->last_ran = rc.clock;
            a->ran_any = true;
            if (a->has_hooks && a->hooks.after_clock != NULL && a->hooks.after_clock(a->hooks.user, a, rc.clock))
                stop_after = true;
        }
        if (emu_clock_decide(&rc, &a->machine, &sum, limit, &st))
            break;
        if (stop_after) {
            st = EMU_RUN_STOPPED;
            break;
        }
    }
    a->clock = rc.clock;
    a->last_progress = rc.last_progress;
    return st;
}
