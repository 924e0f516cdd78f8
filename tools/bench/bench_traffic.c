/* Network-only speed: clocks of the 8x8 torus per host second under uniform traffic from the host-side
 * generators (no computation agent runs). A figure to watch, never a test: the best of several runs. */
#include <stdio.h>

#include "bench.h"
#include "interrupt.h"
#include "progress.h"
#include "traffic_internal.h"

enum { TRAFFIC_BENCH_RUNS = 3 };

/* Only what this run measures: a simulator's speed typed in from another day and machine would read as measured
 * beside it (docs/traffic.md, "Speed", gives the last side-by-side figures with their date). */
typedef struct traffic_bench_case {
    const char *name;
    double rate;
    unsigned threads;
} traffic_bench_case_t;

static const traffic_bench_case_t cases[] = {
    {"uniform 0.05", 0.05, 1},
    {"uniform 0.25", 0.25, 1},
    {"uniform 0.25 2 threads", 0.25, 2},
};

int bench_traffic(bench_context_t *ctx)
{
    uint64_t clocks = ctx->quick ? 2000 : 40000;
    if (bench_report(ctx))
        printf("%-24s %9s %10s %12s %10s %14s\n", "case", "clocks", "delivered", "host s", "clocks/s",
               "cell-clocks/s");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const traffic_bench_case_t *bc = &cases[i];
        traffic_config_t cfg;
        traffic_config_defaults(&cfg);
        cfg.rate = bc->rate;
        cfg.threads = bc->threads;
        double best = 1e30;
        uint64_t delivered = 0;
        for (unsigned run = 0; run < TRAFFIC_BENCH_RUNS; run++) {
            tr_net_t n;
            char err[256];
            if (tr_net_init(&n, &cfg, err, sizeof err) != 0) {
                fprintf(stderr, "bench traffic: %s\n", err);
                return -1;
            }
            char what[96];
            snprintf(what, sizeof what, "bench traffic: %s, run %u of %u", bc->name, run + 1, TRAFFIC_BENCH_RUNS);
            progress_t prog;
            progress_init(&prog, what, ctx->quiet);
            double t0 = bench_now();
            /* Ten slices: the progress line moves, Ctrl-C is seen, and the run is the same (test_traffic.c,
             * test_slices_change_nothing). */
            for (unsigned k = 1; k <= 10 && !interrupt_requested(); k++) {
                tr_net_run(&n, clocks * k / 10);
                progress_update(&prog, n.clock, clocks);
            }
            double dt = bench_now() - t0;
            progress_done(&prog);
            if (interrupt_requested()) {
                tr_net_free(&n);
                return 0; /* the case is dropped; the bench says it was interrupted */
            }
            tr_counts_t c = tr_net_counts(&n);
            tr_net_free(&n);
            if (c.errors != 0) {
                fprintf(stderr, "bench traffic: %s: %llu words wrong\n", bc->name, (unsigned long long)c.errors);
                return -1;
            }
            delivered = c.words_delivered;
            if (dt < best)
                best = dt;
        }
        double cps = (double)clocks / best;
        bench_record_begin(ctx, "traffic", bc->name);
        bench_string(ctx, "array", "8x8");
        bench_string(ctx, "pattern", "uniform");
        bench_double(ctx, "rate", bc->rate);
        bench_u64(ctx, "threads", bc->threads);
        bench_u64(ctx, "network_clocks", clocks);
        bench_u64(ctx, "data_words_delivered", delivered);
        bench_double(ctx, "host_seconds", best);
        bench_double(ctx, "clocks_per_second", cps);
        bench_double(ctx, "cell_clocks_per_second", cps * 64);
        bench_record_end(ctx);
        if (bench_report(ctx))
            printf("%-24s %9llu %10llu %12.3f %10.4g %14.4g\n", bc->name, (unsigned long long)clocks,
                   (unsigned long long)delivered, best, cps, cps * 64);
    }
    return 0;
}
