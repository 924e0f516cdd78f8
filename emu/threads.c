/*
 * Running the array on several host threads. Each thread steps the awake cells of a fixed block
 * (schedule.c); after each clock it waits for the others' summaries of it (thread_post_t). Cells interact
 * only through link lines written at least one clock ahead, so the blocks can run in parallel and the result
 * is the same as with one thread. Every thread keeps its own copy of the clock state and takes the same
 * decision from the same merged summary.
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "threads.h"

enum { SPINS_BEFORE_YIELD = 2000 };

/* What a thread tells the others after each clock, on a cache line of its own that only it writes: the clock's
 * summary, then the count of steps done (published last, with release). The others wait for that count and read
 * the summary from the same line: one cache line crosses per thread and clock, where a shared barrier counter
 * and its generation made the threads fight over one line. Summaries alternate by step parity: a thread writes
 * the next step's only after every other has done this step, hence read this one's. */
typedef struct thread_post {
    _Alignas(64) _Atomic uint64_t steps;
    emu_step_summary_t s[2];
} thread_post_t;
_Static_assert(sizeof(thread_post_t) == 64, "a thread's post is one cache line");

/* A clock of a block: emu_block_step, or its copy compiled for the agent's default keys. */
typedef void block_step_fn(emu_array_t *a, emu_block_t *b, uint64_t now, emu_step_summary_t *sum);

/* The block step for a's machine, chosen once a run: the copy compiled for the default keys when the machine has
 * them (comm_agent/coa.h, COA_KEY_OF), which is the same code with the keys folded in; else the one that reads them. */
static block_step_fn *block_step_for(const emu_array_t *a)
{
    return coa_keys_default(&a->machine.agent) ? emu_block_step_default_keys : emu_block_step;
}

typedef struct shared_run {
    emu_array_t *a;
    block_step_fn *block_step;
    uint64_t limit;
    unsigned nthreads;
    thread_post_t *posts; /* [nthreads] */
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

/* Waits until thread t has done `steps` steps. */
static void wait_for(const thread_post_t *p, uint64_t steps)
{
    for (unsigned spins = 0; atomic_load_explicit(&p->steps, memory_order_acquire) < steps; spins++)
        if (spins >= SPINS_BEFORE_YIELD)
            sched_yield();
}

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
    thread_post_t *post = &r->posts[w->id];
    emu_run_clock_t rc = r->start;
    emu_run_status_t st = EMU_RUN_LIMIT;
    /* Summaries alternate by step, not by clock: skipping idle clocks can keep a clock's parity. */
    for (uint64_t step = 0;; step++) {
        /* Summed here, not on the post's line, which the other threads are reading while they wait. */
        emu_step_summary_t sum = {.next = UINT64_MAX};
        /* Only thread 0 looks at the stop request; the others learn it from its summary. Every thread steps this
         * clock all the same, and the run stops after it: had thread 0 left its block out, the others' cells
         * would have run one clock more than its own. */
        sum.stop = w->id == 0 && a->stop_requested;
        r->block_step(a, block, rc.clock, &sum);
        post->s[step & 1u] = sum;
        atomic_store_explicit(&post->steps, step + 1, memory_order_release);
        for (unsigned t = 0; t < r->nthreads; t++)
            if (t != w->id) {
                wait_for(&r->posts[t], step + 1);
                emu_summary_merge(&sum, &r->posts[t].s[step & 1u]);
            }
        bool stop = sum.stop;
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

unsigned emu_array_max_threads(const emu_array_t *a)
{
    if (a->has_hooks || a->ncells <= 1)
        return 1;
    return a->ncells < EMU_MAX_BLOCKS ? a->ncells : EMU_MAX_BLOCKS;
}

emu_run_status_t emu_array_run_threads(emu_array_t *a, uint64_t limit)
{
    unsigned most = emu_array_max_threads(a), n = a->nthreads < most ? a->nthreads : most;
    if (emu_blocks_prepare(a, n) != 0)
        return emu_array_run_serial(a, limit);
    shared_run_t r = {
        .a = a, .block_step = block_step_for(a), .limit = limit, .nthreads = n, .start = {a->clock, a->last_progress}};
    r.posts = aligned_alloc(64, n * sizeof *r.posts);
    worker_t *workers = calloc(n, sizeof *workers);
    if (r.posts != NULL)
        for (unsigned t = 0; t < n; t++)
            atomic_init(&r.posts[t].steps, 0);
    if (r.posts == NULL || workers == NULL) {
        free(r.posts);
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
    /* The run needs every thread: if one could not start, release the others and run on one. */
    atomic_store(&go, started == n ? 1 : -1);
    if (started == n)
        worker_main(&workers[0]);
    for (unsigned t = 1; t < started; t++)
        pthread_join(workers[t].thread, NULL);
    if (started != n) {
        free(r.posts);
        free(workers);
        return emu_array_run_serial(a, limit);
    }
    a->clock = r.end.clock;
    a->last_progress = r.end.last_progress;
    free(r.posts);
    free(workers);
    return r.status;
}

emu_run_status_t emu_array_run_serial(emu_array_t *a, uint64_t limit)
{
    emu_run_clock_t rc = {a->clock, a->last_progress};
    emu_run_status_t st;
    bool scheduled = emu_blocks_prepare(a, 1) == 0; /* out of memory: every cell every clock, as it was */
    block_step_fn *block_step = block_step_for(a);
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
                block_step(a, &a->blocks[0], rc.clock, &sum);
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
