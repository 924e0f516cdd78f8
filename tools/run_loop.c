#include "run_loop.h"

#include <time.h>

#include "interrupt.h"
#include "progress.h"

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

emu_run_status_t run_loop(emu_array_t *a, uint64_t limit, const char *what, bool quiet, bool *interrupted)
{
    *interrupted = false;
    progress_t p;
    progress_init(&p, what, quiet);
    interrupt_arm();
    /* Slices grow until one takes about a tenth of a second: progress and Ctrl-C stay prompt on a 32x32 array,
     * and a small one does not pay a call per few clocks. */
    uint64_t slice = 1024;
    emu_run_status_t st;
    for (;;) {
        uint64_t clock = emu_array_clock(a);
        uint64_t to = limit - clock <= slice ? limit : clock + slice;
        double t0 = now_s();
        st = emu_array_run(a, to);
        if (st != EMU_RUN_LIMIT || to == limit)
            break;
        if (interrupt_requested()) {
            *interrupted = true;
            st = EMU_RUN_STOPPED;
            break;
        }
        if (now_s() - t0 < 0.05 && slice < (1ull << 40))
            slice *= 2;
        progress_update(&p, emu_array_clock(a), limit);
    }
    progress_done(&p);
    interrupt_disarm();
    return st;
}

emu_run_status_t run_sliced(emu_array_t *a, uint64_t limit, bool *interrupted)
{
    *interrupted = false;
    uint64_t slice = 1u << 16;
    for (;;) {
        uint64_t clock = emu_array_clock(a);
        uint64_t to = limit - clock <= slice ? limit : clock + slice;
        emu_run_status_t st = emu_array_run(a, to);
        if (st != EMU_RUN_LIMIT || to == limit)
            return st;
        if (interrupt_requested()) {
            *interrupted = true;
            return EMU_RUN_STOPPED;
        }
    }
}
