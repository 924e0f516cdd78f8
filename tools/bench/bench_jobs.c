/*
 * Independent emulated runs of a bench, several at once (--jobs): each worker thread takes the next job
 * index until none is left; the calling thread shows how far they are. Every run has its own array, so the
 * results do not depend on how many run at once or in which order they finish.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>

#include "bench.h"
#include "interrupt.h"
#include "progress.h"

typedef struct job_pool {
    void (*run)(void *arg, unsigned i);
    void *arg;
    unsigned n;
    _Atomic unsigned next, done;
    run_threads_t *share; /* NULL: the jobs' runs keep their threads */
} job_pool_t;

static void *job_worker(void *p)
{
    job_pool_t *pool = p;
    for (;;) {
        unsigned i = atomic_fetch_add(&pool->next, 1);
        if (i >= pool->n) {
            /* Nothing left to start: this worker's core goes to the runs still going (run_sliced_shared). */
            if (pool->share != NULL)
                atomic_fetch_add(&pool->share->idle, 1);
            return NULL;
        }
        if (!interrupt_requested())
            pool->run(pool->arg, i);
        atomic_fetch_add(&pool->done, 1);
    }
}

void bench_run_jobs(const bench_context_t *ctx, const char *name, unsigned n, void (*run)(void *arg, unsigned i),
                    void *arg)
{
    unsigned workers = ctx->jobs < 1 ? 1 : ctx->jobs > n ? n : ctx->jobs;
    /* Cores beyond the workers (more cores than jobs) are idle from the start. */
    unsigned spare = ctx->jobs > workers ? ctx->jobs - workers : 0;
    if (ctx->share != NULL) {
        ctx->share->base = ctx->threads;
        atomic_store(&ctx->share->idle, spare);
        atomic_store(&ctx->share->running, 0);
    }
    job_pool_t pool = {run, arg, n, 0, 0, workers > 1 ? ctx->share : NULL};
    pthread_t tid[BENCH_MAX_JOBS];
    unsigned started = 0;
    for (unsigned w = 0; workers > 1 && w < workers && w < BENCH_MAX_JOBS; w++)
        if (pthread_create(&tid[started], NULL, job_worker, &pool) == 0)
            started++;
    progress_t prog;
    progress_init(&prog, name, ctx->quiet);
    if (started == 0) {
        job_worker(&pool); /* one at a time on this thread */
    } else {
        /* The workers run the jobs (if a thread could not start, the others take its share); this thread shows
         * how far they are. */
        while (atomic_load(&pool.done) < n) {
            char what[96];
            snprintf(what, sizeof what, "%u of %u emulated runs done, %u at once", atomic_load(&pool.done), n,
                     started);
            progress_step(&prog, what);
            struct timespec ts = {0, 100 * 1000 * 1000};
            nanosleep(&ts, NULL);
        }
    }
    for (unsigned w = 0; w < started; w++)
        pthread_join(tid[w], NULL);
    if (ctx->share != NULL)
        atomic_store(&ctx->share->idle, 0);
    progress_done(&prog);
}
