#include "run_loop.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "interrupt.h"
#include "progress.h"

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The host's cores that nothing runs on now but this run's `ours` threads: the cores less the tasks the kernel
 * has runnable at this instant (/proc/loadavg's fourth field, "running/total"), of which this run has one (its
 * worker threads live only while a slice runs). THREAD_TUNER_IDLE_UNKNOWN where the file is not there. */
static unsigned host_idle_cores(unsigned ours)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    FILE *f = fopen("/proc/loadavg", "r");
    unsigned running = 0;
    int got = f != NULL ? fscanf(f, "%*f %*f %*f %u/", &running) : 0;
    if (f != NULL)
        fclose(f);
    if (got != 1 || cores < 1 || running < 1)
        return THREAD_TUNER_IDLE_UNKNOWN;
    long idle = cores - (long)(running - 1u) - (long)ours;
    return idle > 0 ? (unsigned)idle : 0u;
}

/* base, plus this run's share of the idle workers. */
static unsigned shared_threads(const run_threads_t *share)
{
    unsigned running = atomic_load(&share->running);
    return share->base + atomic_load(&share->idle) / (running > 0 ? running : 1u);
}

/* The run in slices that grow until one takes about a twentieth of a second (progress and Ctrl-C stay prompt on
 * a 32x32 array, and a small one does not pay a call per few clocks), with the line between them when one is
 * given. The first slice is 64 k cell-clocks (1024 clocks of 8x8, 64 of 32x32: a busy 32x32 array's 1024 clocks
 * took a quarter of a second, which --threads auto then spent on one thread). The thread count of each slice
 * comes from the bench's share of cores, or from the tuner, when given. */
static emu_run_status_t sliced(emu_array_t *a, uint64_t limit, progress_t *p, bool *interrupted,
                               const run_threads_t *share, thread_tuner_t *tune)
{
    *interrupted = false;
    uint64_t cells = (uint64_t)emu_array_width(a) * emu_array_height(a);
    uint64_t slice = cells >= 64 ? 65536 / cells : 1024;
    for (;;) {
        if (share != NULL)
            emu_array_set_threads(a, shared_threads(share));
        if (tune != NULL)
            emu_array_set_threads(a, thread_tuner_next(tune, host_idle_cores(tune->cur)));
        uint64_t clock = emu_array_clock(a);
        uint64_t to = limit - clock <= slice ? limit : clock + slice;
        double t0 = now_s();
        emu_run_status_t st = emu_array_run(a, to);
        double seconds = now_s() - t0;
        if (st != EMU_RUN_LIMIT || to == limit) {
            if (tune != NULL)
                thread_tuner_skip(tune);
            return st;
        }
        if (tune != NULL)
            thread_tuner_note(tune, emu_array_clock(a) - clock, seconds);
        if (interrupt_requested()) {
            *interrupted = true;
            return EMU_RUN_STOPPED;
        }
        if (seconds < 0.05 && slice < (1ull << 40))
            slice *= 2;
        if (p != NULL)
            progress_update(p, emu_array_clock(a), limit);
    }
}

emu_run_status_t run_loop(emu_array_t *a, uint64_t limit, const char *what, bool quiet, bool *interrupted)
{
    return run_loop_tuned(a, limit, what, quiet, interrupted, NULL);
}

emu_run_status_t run_loop_tuned(emu_array_t *a, uint64_t limit, const char *what, bool quiet, bool *interrupted,
                                thread_tuner_t *tune)
{
    progress_t p;
    progress_init(&p, what, quiet);
    interrupt_arm();
    emu_run_status_t st = sliced(a, limit, &p, interrupted, NULL, tune);
    progress_done(&p);
    interrupt_disarm();
    return st;
}

emu_run_status_t run_sliced(emu_array_t *a, uint64_t limit, bool *interrupted)
{
    return sliced(a, limit, NULL, interrupted, NULL, NULL);
}

emu_run_status_t run_sliced_shared(emu_array_t *a, uint64_t limit, bool *interrupted, run_threads_t *share)
{
    atomic_fetch_add(&share->running, 1);
    emu_run_status_t st = sliced(a, limit, NULL, interrupted, share, NULL);
    atomic_fetch_sub(&share->running, 1);
    return st;
}

int run_to_end(emu_array_t *a, uint64_t limit, bool *interrupted, char *err, size_t cap)
{
    emu_run_status_t st = run_sliced(a, limit, interrupted);
    if (*interrupted) {
        snprintf(err, cap, "interrupted");
        return -1;
    }
    if (st != EMU_RUN_DONE) {
        unsigned fx, fy;
        char fault[512] = "";
        if (emu_array_first_fault(a, &fx, &fy))
            emu_format_fault(a, fx, fy, fault, sizeof fault);
        snprintf(err, cap, "the run ended %s\n%s%s", emu_run_status_name(st), fault, emu_array_deadlock(a));
        return -1;
    }
    return 0;
}
