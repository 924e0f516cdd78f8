/*
 * iwarp bench copy, its second half: xQy in all-to-all personalized communication on the whole 8x8 array
 * under ConSet (programs/copy/alltoall.s), buffer packing and chained, each beside the copy-transfer model
 * with the measured iWarp table and the paper's resource constraint (every cell sends and receives at once,
 * so the memory carries both: A Q <= 0C1 for A accesses a word). docs/copy.md.
 */
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "copy_alltoall.h"
#include "copy_expr.h"
#include "interrupt.h"
#include "plot.h"

enum { WORDS = 32, WORDS_QUICK = 8, SIDE = 8 };

/* x and y: 1, the array's cells (the cyclic layout of a transpose) or indexed. */
static const struct {
    const char *name;
    long x, y;
} patterns[] = {
    {"1Q1", 1, 1},
    {"1Q64", 1, SIDE * SIDE},
    {"64Q1", SIDE * SIDE, 1},
    {"64Q64", SIDE * SIDE, SIDE * SIDE},
    {"!Q1", COPY_INDEXED, 1},
    {"1Q!", 1, COPY_INDEXED},
    {"!Q!", COPY_INDEXED, COPY_INDEXED},
};
enum { NPATTERNS = sizeof patterns / sizeof patterns[0] };

typedef struct a2a_jobs {
    unsigned words, threads;
    copy_a2a_throughput_t r[NPATTERNS][2], net;
    bool ok[NPATTERNS][2], net_ok;
    char err[NPATTERNS][2][512], net_err[512];
} a2a_jobs_t;

/* Job 0: the network alone; then each pattern in both styles. */
static void run_job(void *arg, unsigned i)
{
    a2a_jobs_t *j = arg;
    if (i == 0) {
        copy_a2a_case_t c = {.style = COPY_BASIC, .x = 1, .y = 1, .words = j->words, .width = SIDE, .height = SIDE,
                             .threads = j->threads};
        j->net_ok = copy_alltoall_measure(&c, &j->net, j->net_err, sizeof j->net_err) == 0 &&
                    j->net.at_n.wrong + j->net.at_2n.wrong == 0;
        return;
    }
    i--;
    unsigned p = i / 2, s = i % 2;
    copy_a2a_case_t c = {.style = s ? COPY_CHAINED : COPY_PACKING,
                         .x = patterns[p].x,
                         .y = patterns[p].y,
                         .words = j->words,
                         .width = SIDE,
                         .height = SIDE,
                         .threads = j->threads};
    j->ok[p][s] = copy_alltoall_measure(&c, &j->r[p][s], j->err[p][s], sizeof j->err[p][s]) == 0 &&
                  j->r[p][s].at_n.wrong + j->r[p][s].at_2n.wrong == 0;
}

static void pattern_text(long s, char *buf, size_t cap)
{
    if (s == COPY_INDEXED)
        snprintf(buf, cap, "!");
    else
        snprintf(buf, cap, "%ld", s);
}

/* The model of each style in all-to-all, where the memory serves the sends and the receives. */
static void models(long x, long y, char *packing, char *chained, size_t cap)
{
    char xs[24], ys[24];
    pattern_text(x, xs, sizeof xs);
    pattern_text(y, ys, sizeof ys);
    unsigned accesses = (x == COPY_INDEXED ? 2 : 1) + (y == COPY_INDEXED ? 2 : 1);
    snprintf(packing, cap, "%sC1 -> (1S0 || Nd_alltoall || 0R1 where 2 * Q <= 0C1) -> 1C%s", xs, ys);
    snprintf(chained, cap, "%sS0 || Nd_alltoall || 0R%s where %u * Q <= 0C1", xs, ys, accesses);
}

int bench_copy_alltoall(bench_context_t *ctx, copy_table_t *iwarp)
{
    static a2a_jobs_t jobs; /* large; the bench runs once at a time */
    memset(&jobs, 0, sizeof jobs);
    jobs.words = ctx->quick ? WORDS_QUICK : WORDS;
    jobs.threads = ctx->threads;
    bench_run_jobs(ctx, "bench copy (all-to-all)", 1 + 2 * NPATTERNS, run_job, &jobs);
    if (!jobs.net_ok) {
        if (!interrupt_requested())
            fprintf(stderr, "iwarp bench copy: all-to-all, the network alone: %s\n",
                    jobs.net_err[0] ? jobs.net_err : "a destination word changed");
        return interrupt_requested() ? 0 : -1;
    }
    /* The network's figure for this pattern and schedule, as the paper measures Nd at a pattern's congestion. */
    copy_transfer_t nd;
    copy_transfer_parse("Nd_alltoall", 11, &nd);
    copy_table_set(iwarp, &nd, jobs.net.mbps);
    bench_record_begin(ctx, "copy", "all-to-all network");
    bench_string(ctx, "kind", "alltoall");
    bench_string(ctx, "transfer", "Nd_alltoall");
    bench_string(ctx, "style", "network");
    bench_u64(ctx, "words", jobs.words);
    bench_u64(ctx, "phases", jobs.net.at_n.phases);
    bench_u64(ctx, "clocks_n", jobs.net.at_n.clocks);
    bench_u64(ctx, "clocks_2n", jobs.net.at_2n.clocks);
    bench_double(ctx, "mbps", jobs.net.mbps);
    bench_record_end(ctx);
    if (bench_report(ctx))
        printf("\nxQy all-to-all on %ux%u under ConSet: every cell sends N words to each other cell (N = %u and %u);\n"
               "MB/s per cell each way, measured, and the model with the measured table. The network alone, the\n"
               "same %u phases with no memory access: Nd_alltoall = %.2f MB/s (%.2f clocks a word)\n"
               "%-7s %9s %9s   %9s %9s   %9s\n",
               SIDE, SIDE, jobs.words, 2 * jobs.words, jobs.net.at_n.phases, jobs.net.mbps,
               4 * COPY_CLOCK_HZ / 1e6 / jobs.net.mbps, "xQy", "packing", "model", "chained", "model",
               "chained/packing");
    plot_t pl;
    bench_plot_init(ctx, &pl, "xQy all-to-all on 8x8 under ConSet: buffer packing and chained",
                    "pattern (1Q1, 1Q64, 64Q1, 64Q64, !Q1, 1Q!, !Q!)", "MB/s per cell", false, false);
    plot_series_t *sp = plot_add(&pl, "buffer packing", true), *sc = plot_add(&pl, "chained", false);
    int rc = 0;
    for (unsigned p = 0; p < NPATTERNS; p++) {
        if (!jobs.ok[p][0] || !jobs.ok[p][1]) {
            if (!interrupt_requested()) {
                for (unsigned s = 0; s < 2; s++)
                    if (!jobs.ok[p][s])
                        fprintf(stderr, "iwarp bench copy: all-to-all %s %s: %s\n", patterns[p].name,
                                s ? "chained" : "packing",
                                jobs.err[p][s][0] ? jobs.err[p][s] : "words arrived wrong");
                rc = -1;
            }
            continue;
        }
        char exprs[2][128];
        models(patterns[p].x, patterns[p].y, exprs[0], exprs[1], sizeof exprs[0]);
        double model[2];
        for (unsigned s = 0; s < 2; s++) {
            copy_result_t m;
            char err[300];
            if (copy_eval(exprs[s], iwarp, &m, err, sizeof err) != 0) {
                fprintf(stderr, "iwarp bench copy: %s: %s\n", exprs[s], err);
                return -1;
            }
            model[s] = m.mbps;
            const copy_a2a_throughput_t *r = &jobs.r[p][s];
            char name[48];
            snprintf(name, sizeof name, "all-to-all %s %s", patterns[p].name, s ? "chained" : "packing");
            bench_record_begin(ctx, "copy", name);
            bench_string(ctx, "kind", "alltoall");
            bench_string(ctx, "transfer", patterns[p].name);
            bench_string(ctx, "style", s ? "chained" : "packing");
            bench_u64(ctx, "words", jobs.words);
            bench_u64(ctx, "phases", r->at_n.phases);
            bench_u64(ctx, "clocks_n", r->at_n.clocks);
            bench_u64(ctx, "clocks_2n", r->at_2n.clocks);
            bench_double(ctx, "mbps", r->mbps);
            bench_string(ctx, "model_expr", exprs[s]);
            bench_double(ctx, "model_mbps", model[s]);
            bench_u64(ctx, "wrong_words", r->at_n.wrong + r->at_2n.wrong);
            bench_record_end(ctx);
        }
        plot_point(sp, p, jobs.r[p][0].mbps);
        plot_point(sc, p, jobs.r[p][1].mbps);
        if (bench_report(ctx))
            printf("%-7s %9.2f %9.2f   %9.2f %9.2f   %9.2f\n", patterns[p].name, jobs.r[p][0].mbps, model[0],
                   jobs.r[p][1].mbps, model[1], jobs.r[p][1].mbps / jobs.r[p][0].mbps);
    }
    bench_write_plot(ctx, &pl, "copy", "copy_alltoall.svg");
    return rc;
}
