/* Network-only speed: clocks of the 8x8 torus per host second under uniform traffic from the host-side
 * generators (no computation agent runs). A figure to watch, never a test: the best of several runs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "bench_booksim.h"
#include "interrupt.h"
#include "progress.h"
#include "traffic_internal.h"

enum { TRAFFIC_BENCH_RUNS = 3 };

/* Only what this run measures: a simulator's speed typed in from another day and machine would read as measured
 * beside it. With --booksim, BookSim runs here, alternated with iwarp's runs so that both see the same load. */
typedef struct traffic_bench_case {
    const char *name;
    double rate;
    unsigned threads;
    unsigned booksim_of; /* the case whose BookSim runs this one is set beside: BookSim has one thread, so the
                            two-thread case is compared with the one-thread case's runs of the same point */
} traffic_bench_case_t;

static const traffic_bench_case_t cases[] = {
    {"uniform 0.05", 0.05, 1, 0},
    {"uniform 0.25", 0.25, 1, 1},
    {"uniform 0.25 2 threads", 0.25, 2, 1},
};
enum { TRAFFIC_BENCH_CASES = sizeof cases / sizeof cases[0] };

/* BookSim's side of one case: the best of its runs, or why there is none. */
typedef struct booksim_side {
    bool failed;
    booksim_result_t best; /* best.ok once a run succeeded */
    char why[700];         /* failed: the reason, as stderr has it (without PATH) */
    char cfg[4200];        /* its config, written before the first run */
} booksim_side_t;

/* Ends the case's BookSim runs: says why on stderr, naming PATH, and keeps it for the record. */
static void booksim_fail(const bench_context_t *ctx, booksim_side_t *side, const char *where, const char *why)
{
    fprintf(stderr, "bench traffic: --booksim %s: %s: %s\n", ctx->booksim, where, why);
    snprintf(side->why, sizeof side->why, "%s", why);
    side->failed = true;
}

/* One run of iwarp's network for `clocks`: its host seconds. Returns 0, 1 when Ctrl-C stopped it (the case is
 * dropped), or -1 after saying what is wrong. */
static int iwarp_run(const bench_context_t *ctx, const traffic_bench_case_t *bc, unsigned run, uint64_t clocks,
                     double *seconds, uint64_t *delivered)
{
    traffic_config_t cfg;
    traffic_config_defaults(&cfg);
    cfg.rate = bc->rate;
    cfg.threads = bc->threads;
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
    *seconds = bench_now() - t0;
    progress_done(&prog);
    if (interrupt_requested()) {
        tr_net_free(&n);
        return 1;
    }
    tr_counts_t c = tr_net_counts(&n);
    tr_net_free(&n);
    if (c.errors != 0) {
        fprintf(stderr, "bench traffic: %s: %llu words wrong\n", bc->name, (unsigned long long)c.errors);
        return -1;
    }
    *delivered = c.words_delivered;
    return 0;
}

/* The point as BookSim is told it: the iwarp network's own shape, message size and load. */
static booksim_point_t booksim_point(const traffic_bench_case_t *bc, uint64_t clocks)
{
    traffic_config_t cfg;
    traffic_config_defaults(&cfg);
    return (booksim_point_t){.k = cfg.machine.width, .packet_size = cfg.sizes[0], .rate = bc->rate, .cycles = clocks};
}

/* Run `run` of BookSim on the case's point (its config written on the first). A failure is said on stderr, naming
 * PATH, and ends the case's BookSim runs. Returns 1 when Ctrl-C stopped it, else 0. */
static int booksim_side_run(const bench_context_t *ctx, booksim_dir_t *dir, const traffic_bench_case_t *bc,
                            unsigned run, uint64_t clocks, booksim_side_t *side)
{
    if (side->failed)
        return 0;
    booksim_point_t p = booksim_point(bc, clocks);
    char name[64], why[512];
    snprintf(name, sizeof name, "uniform-%g", bc->rate);
    if (run == 0 && booksim_config_file(dir, name, &p, side->cfg, sizeof side->cfg, why, sizeof why) != 0) {
        booksim_fail(ctx, side, bc->name, why);
        dir->keep = true;
        return 0;
    }
    char out[4200], what[96];
    snprintf(out, sizeof out, "%s/%s-run%u.out", dir->path, name, run + 1);
    snprintf(what, sizeof what, "bench traffic: BookSim, %s, run %u of %u", bc->name, run + 1, TRAFFIC_BENCH_RUNS);
    booksim_result_t r;
    bool interrupted = false;
    booksim_run(ctx->booksim, side->cfg, out, clocks, ctx->booksim_wall_seconds, what, ctx->quiet, &r, &interrupted);
    if (interrupted)
        return 1;
    if (!r.ok) {
        char where[96];
        snprintf(where, sizeof where, "%s, run %u", bc->name, run + 1);
        booksim_fail(ctx, side, where, r.why);
        dir->keep = true; /* its output and config stay for the user to read */
        return 0;
    }
    if (!side->best.ok || r.run_seconds < side->best.run_seconds)
        side->best = r;
    return 0;
}

/* The record's and the row's BookSim fields, beside iwarp's clocks per second cps. */
static void booksim_record(bench_context_t *ctx, const traffic_bench_case_t *bc, uint64_t clocks,
                           const booksim_side_t *side, double cps)
{
    booksim_point_t p = booksim_point(bc, clocks);
    bool ok = side->best.ok && !side->failed;
    double bcps = ok ? (double)side->best.cycles / side->best.run_seconds : NAN;
    bench_double(ctx, "booksim_injection_rate", booksim_injection_rate(&p));
    if (ok)
        bench_u64(ctx, "booksim_cycles", side->best.cycles);
    else
        bench_null(ctx, "booksim_cycles");
    bench_double(ctx, "booksim_run_seconds", ok ? side->best.run_seconds : NAN);
    bench_double(ctx, "booksim_wall_seconds", ok ? side->best.wall_seconds : NAN);
    bench_double(ctx, "booksim_cycles_per_second", bcps);
    bench_double(ctx, "ratio_to_booksim", cps / bcps);
    if (ok)
        bench_null(ctx, "booksim_error");
    else
        bench_string(ctx, "booksim_error", side->why);
}

int bench_traffic(bench_context_t *ctx)
{
    uint64_t clocks = ctx->quick ? 2000 : 40000;
    booksim_side_t *sides = NULL;
    booksim_dir_t dir;
    int rc = 0;
    if (ctx->booksim != NULL) {
        sides = calloc(TRAFFIC_BENCH_CASES, sizeof *sides);
        if (sides == NULL) {
            fprintf(stderr, "bench traffic: out of memory\n");
            return -1;
        }
        char why[512];
        if (booksim_dir_open(&dir, why, sizeof why) != 0) {
            for (size_t i = 0; i < TRAFFIC_BENCH_CASES; i++)
                if (cases[i].booksim_of == i)
                    booksim_fail(ctx, &sides[i], cases[i].name, why);
            dir.keep = true; /* there is no folder to remove */
            dir.path[0] = '\0';
        }
    }
    if (bench_report(ctx)) {
        printf("%-24s %9s %10s %12s %10s %14s", "case", "clocks", "delivered", "host s", "clocks/s", "cell-clocks/s");
        if (sides != NULL)
            printf(" %12s %8s", "BookSim c/s", "ratio");
        printf("\n");
    }
    for (size_t i = 0; i < TRAFFIC_BENCH_CASES; i++) {
        const traffic_bench_case_t *bc = &cases[i];
        double best = 1e30;
        uint64_t delivered = 0;
        int stop = 0;
        for (unsigned run = 0; run < TRAFFIC_BENCH_RUNS && stop == 0; run++) {
            double dt;
            stop = iwarp_run(ctx, bc, run, clocks, &dt, &delivered);
            if (stop == 0 && dt < best)
                best = dt;
            if (stop == 0 && sides != NULL && bc->booksim_of == i)
                stop = booksim_side_run(ctx, &dir, bc, run, clocks, &sides[i]);
        }
        if (stop != 0) { /* Ctrl-C: the case is dropped and the bench says it was interrupted; or an error */
            rc = stop < 0 ? -1 : 0;
            break;
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
        const booksim_side_t *side = sides != NULL ? &sides[bc->booksim_of] : NULL;
        if (side != NULL)
            booksim_record(ctx, bc, clocks, side, cps);
        bench_record_end(ctx);
        if (bench_report(ctx)) {
            printf("%-24s %9llu %10llu %12.3f %10.4g %14.4g", bc->name, (unsigned long long)clocks,
                   (unsigned long long)delivered, best, cps, cps * 64);
            if (side != NULL && side->best.ok && !side->failed) {
                double bcps = (double)side->best.cycles / side->best.run_seconds;
                printf(" %12.4g %8.3g", bcps, cps / bcps);
            } else if (side != NULL) {
                printf(" %12s %8s", "failed", "-");
            }
            printf("\n");
        }
    }
    if (sides != NULL) {
        bool failed = false;
        for (size_t i = 0; i < TRAFFIC_BENCH_CASES; i++)
            failed |= sides[i].failed;
        if (bench_report(ctx)) {
            printf("BookSim: %s on the same points (docs/traffic.md, \"Speed\": its config), best of %d runs "
                   "alternated with iwarp's;\n  c/s: its 'Time taken' cycles / its 'Total run time' (its "
                   "simulation alone); ratio: iwarp's clocks/s / BookSim's c/s\n",
                   ctx->booksim, TRAFFIC_BENCH_RUNS);
            if (failed && dir.path[0] != '\0')
                printf("BookSim failed (the reason is on stderr); its configs and output are kept in %s\n", dir.path);
        }
        if (failed && rc == 0 && !interrupt_requested())
            rc = -1;
        booksim_dir_close(&dir);
        free(sides);
    }
    return rc;
}
