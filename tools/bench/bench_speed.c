/* Emulation speed: how many emulated bundles (instructions) and cell-clocks the host runs per second. A figure to
 * watch, never a test (hosts are noisy): the best of several runs is reported. */
#include <stdio.h>

#include "bench.h"
#include "program_load.h"
#include "run_desc.h"
#include "run_loop.h"

enum { SPEED_RUNS = 3 };

typedef struct speed_result {
    unsigned cells; /* the array's, which a run description gives */
    uint64_t cycles;
    uint64_t bundles;
    double seconds; /* best of the runs */
} speed_result_t;

typedef struct speed_case {
    const char *name;
    const char *program; /* a program on every cell, or a run description (.run: its array, cells, tables) */
    unsigned width, height; /* for a program; 0 for a description */
    unsigned threads;
    uint32_t args[2], quick_args[2]; /* a0, a1 of every cell */
} speed_case_t;

/* The cases issue 11 sets targets for: the core alone, idle cells, every link busy, message passing, and a
 * large array on one and two threads; every cell of 8x8 computing, which costs what one does when the CAs
 * run ahead of the array's clock; and a congested network, where most of the suite's time goes (the
 * all-to-all runs of `bench patterns` and the like). scripts/count-instructions.sh runs the one-thread cases at
 * their quick sizes through `iwarp run`: a case changed here is changed there too. */
static const speed_case_t cases[] = {
    {"compute 1x1", "programs/bench/compute.s", 1, 1, 1, {4000, 0}, {200, 0}},
    {"compute 8x8", "programs/bench/compute.s", 8, 8, 1, {100, 0}, {5, 0}},
    {"one active of 64", "programs/bench/one_active.s", 8, 8, 1, {4000, 7000000}, {200, 300000}},
    {"stream 8x8", "programs/bench/stream.s", 8, 8, 1, {40000, 0}, {2000, 0}},
    {"stream 8x8", "programs/bench/stream.s", 8, 8, 2, {40000, 0}, {2000, 0}},
    {"msg random 8x8", "programs/net/msg_random.s", 8, 8, 1, {8, 512}, {2, 64}},
    {"stream 32x32", "programs/bench/stream.s", 32, 32, 1, {2000, 0}, {100, 0}},
    {"stream 32x32", "programs/bench/stream.s", 32, 32, 2, {2000, 0}, {100, 0}},
    {"conset all-to-all 8x8", "programs/patterns/conset_alltoall.run", 0, 0, 1, {0, 0}, {0, 0}},
};

/* The array of a case with its cells loaded, outside the timed part: a run description builds its own (array,
 * programs, compiled connection set); a program goes on every cell with the case's arguments. */
static int build_case(const speed_case_t *sc, const emu_machine_t *m, const uint32_t *args, emu_array_t **out)
{
    if (run_desc_is_path(sc->program)) {
        char path[1024];
        iwarp_path(path, sizeof path, sc->program);
        run_desc_t d;
        if (run_desc_parse_file(path, m, &d, stderr) != 0)
            return -1;
        int rc = run_desc_build(&d, NULL, 0, NULL, 0, out);
        run_desc_free(&d);
        return rc;
    }
    char err[256];
    if (emu_array_create(out, m, err, sizeof err) != 0) {
        fprintf(stderr, "bench speed: %s\n", err);
        return -1;
    }
    const emu_program_t *p = program_add(*out, sc->program, NULL, 0);
    for (unsigned y = 0; p != NULL && y < m->height; y++)
        for (unsigned x = 0; p != NULL && x < m->width; x++)
            if (emu_array_load(*out, x, y, p, args, 2, err, sizeof err) != 0) {
                fprintf(stderr, "bench speed: %s\n", err);
                p = NULL;
            }
    if (p == NULL) {
        emu_array_free(*out);
        return -1;
    }
    return 0;
}

static int run_case(const bench_context_t *ctx, const speed_case_t *sc, speed_result_t *res)
{
    emu_machine_t m;
    emu_machine_defaults(&m);
    if (sc->width != 0) { /* a run description gives its own */
        m.width = sc->width;
        m.height = sc->height;
    }
    const uint32_t *args = ctx->quick ? sc->quick_args : sc->args;
    res->seconds = 1e30;
    for (unsigned run = 0; run < SPEED_RUNS; run++) {
        emu_array_t *a;
        if (build_case(sc, &m, args, &a) != 0)
            return -1;
        emu_array_set_threads(a, sc->threads);
        char what[128];
        snprintf(what, sizeof what, "bench speed: %s, run %u of %u", sc->name, run + 1, SPEED_RUNS);
        bool interrupted;
        double t0 = bench_now();
        /* In slices that grow to a twentieth of a second each: the progress line and Ctrl-C cost nothing measurable. */
        emu_run_status_t st = run_loop(a, UINT64_MAX, what, ctx->quiet, &interrupted);
        double dt = bench_now() - t0;
        if (interrupted) {
            emu_array_free(a);
            return 1;
        }
        if (st != EMU_RUN_DONE) {
            fprintf(stderr, "bench speed: %s ended with status %s\n", sc->program, emu_run_status_name(st));
            emu_array_free(a);
            return -1;
        }
        res->cycles = emu_array_cycles(a);
        res->cells = emu_array_width(a) * emu_array_height(a);
        res->bundles = 0;
        for (unsigned y = 0; y < emu_array_height(a); y++)
            for (unsigned x = 0; x < emu_array_width(a); x++)
                res->bundles += emu_array_ca(a, x, y)->s.stats.bundles;
        if (dt < res->seconds)
            res->seconds = dt;
        emu_array_free(a);
    }
    return 0;
}

int bench_speed(bench_context_t *ctx)
{
    if (bench_report(ctx))
        printf("%-22s %6s %8s %12s %14s %9s %12s %14s\n", "case", "cells", "threads", "cycles", "bundles", "host s",
               "bundles/s", "cell-clocks/s");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const speed_case_t *sc = &cases[i];
        speed_result_t r;
        int rc = run_case(ctx, sc, &r);
        if (rc > 0)
            return 0; /* Ctrl-C: the cases that ended are reported; the bench says it was interrupted */
        if (rc != 0)
            return -1;
        unsigned cells = r.cells;
        double bps = (double)r.bundles / r.seconds;
        double cps = (double)r.cycles * cells / r.seconds;
        bench_record_begin(ctx, "speed", sc->name);
        bench_u64(ctx, "cells", cells);
        bench_u64(ctx, "threads", sc->threads);
        bench_u64(ctx, "emulated_cycles", r.cycles);
        bench_u64(ctx, "emulated_bundles", r.bundles);
        bench_double(ctx, "host_seconds", r.seconds);
        bench_double(ctx, "bundles_per_second", bps);
        bench_double(ctx, "cell_clocks_per_second", cps);
        bench_record_end(ctx);
        if (bench_report(ctx)) {
            printf("%-22s %6u %8u %12llu %14llu %9.3f %12.4g %14.4g\n", sc->name, cells, sc->threads,
                   (unsigned long long)r.cycles, (unsigned long long)r.bundles, r.seconds, bps, cps);
        }
    }
    return 0;
}
