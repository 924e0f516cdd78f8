/* Emulation speed: how many emulated instructions and cell-clocks the host runs per second. A figure to
 * watch, never a test (hosts are noisy): the best of several runs is reported. */
#include <stdio.h>

#include "bench.h"

enum { SPEED_RUNS = 3 };

typedef struct speed_result {
    uint64_t cycles;
    uint64_t instructions;
    double seconds; /* best of the runs */
} speed_result_t;

static int run_compute(bench_context_t *ctx, speed_result_t *res)
{
    emu_machine_t m;
    emu_machine_defaults(&m);
    m.width = m.height = 1;
    uint32_t outer = ctx->quick ? 200 : 4000;
    res->seconds = 1e30;
    for (unsigned run = 0; run < SPEED_RUNS; run++) {
        char err[256];
        emu_array_t *a;
        if (emu_array_create(&a, &m, err, sizeof err) != 0) {
            fprintf(stderr, "bench speed: %s\n", err);
            return -1;
        }
        const emu_program_t *p = bench_program(a, "programs/bench/compute.s", NULL, 0);
        if (p == NULL || emu_array_load(a, 0, 0, p, &outer, 1, err, sizeof err) != 0) {
            if (p != NULL)
                fprintf(stderr, "bench speed: %s\n", err);
            emu_array_free(a);
            return -1;
        }
        double t0 = bench_now();
        emu_run_status_t st = emu_array_run(a, UINT64_MAX);
        double dt = bench_now() - t0;
        if (st != EMU_RUN_DONE) {
            fprintf(stderr, "bench speed: compute program ended with status %s\n", emu_run_status_name(st));
            emu_array_free(a);
            return -1;
        }
        res->cycles = emu_array_cycles(a);
        res->instructions = emu_array_ca(a, 0, 0)->s.stats.bundles;
        if (dt < res->seconds)
            res->seconds = dt;
        emu_array_free(a);
    }
    return 0;
}

int bench_speed(bench_context_t *ctx)
{
    speed_result_t r;
    if (run_compute(ctx, &r) != 0)
        return -1;
    double ips = (double)r.instructions / r.seconds;
    double cps = (double)r.cycles / r.seconds;
    if (ctx->json) {
        bench_record_begin(ctx, "speed", "compute 1x1");
        json_u64(ctx->jw, "cells", 1);
        json_u64(ctx->jw, "threads", 1);
        json_u64(ctx->jw, "emulated_cycles", r.cycles);
        json_u64(ctx->jw, "emulated_instructions", r.instructions);
        json_double(ctx->jw, "host_seconds", r.seconds);
        json_double(ctx->jw, "instructions_per_second", ips);
        json_double(ctx->jw, "cell_clocks_per_second", cps);
        json_end_object(ctx->jw);
    } else {
        printf("%-22s %8s %14s %14s %10s %16s %16s\n", "case", "threads", "cycles", "instructions", "host s",
               "instr/s", "cell-clocks/s");
        printf("%-22s %8u %14llu %14llu %10.3f %16.4g %16.4g\n", "compute 1x1", 1u, (unsigned long long)r.cycles,
               (unsigned long long)r.instructions, r.seconds, ips, cps);
    }
    return 0;
}
