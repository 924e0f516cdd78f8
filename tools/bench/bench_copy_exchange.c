/*
 * iwarp bench copy, its second half: exchanges over the whole 8x8 array under ConSet (programs/copy/
 * exchange.s): xQy all-to-all and three application kernels (the transpose of a 2D FFT, a sparse gather, a
 * block-cyclic redistribution), by buffer packing and chained, each beside the copy-transfer model with the
 * measured iWarp table, the network's own figure for that exchange (its phases run with no memory access)
 * and the paper's resource constraint: every cell sends and receives at once, so its memory carries both
 * (A Q <= 0C1 for A accesses a word). docs/copy.md.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "copy_expr.h"
#include "conset/route_memo.h"
#include "copy_kernels.h"
#include "interrupt.h"
#include "plot.h"

/* --quick runs the same exchanges on 4x4 (the patterns' strides stay 64: the blocks still interleave). */
enum { SIDE = 8, CELLS = SIDE * SIDE, QUICK = 4 };

typedef struct exchange_case {
    const char *name;
    copy_kernel_params_t p, quick;
} exchange_case_t;

#define XQY(name, x, y)                                                                                              \
    {                                                                                                                \
        name, {COPY_KERNEL_XQY, SIDE, SIDE, 32, x, y, 0, 0}, { COPY_KERNEL_XQY, QUICK, QUICK, 8, x, y, 0, 0 }       \
    }
static const exchange_case_t cases[] = {
    XQY("1Q1", 1, 1),
    XQY("1Q64", 1, CELLS),
    XQY("64Q1", CELLS, 1),
    XQY("64Q64", CELLS, CELLS),
    XQY("!Q1", COPY_INDEXED, 1),
    XQY("1Q!", 1, COPY_INDEXED),
    XQY("!Q!", COPY_INDEXED, COPY_INDEXED),
    {"transpose", {COPY_KERNEL_TRANSPOSE, SIDE, SIDE, 32, 0, 0, 0, 0}, {COPY_KERNEL_TRANSPOSE, QUICK, QUICK, 8, 0, 0, 0, 0}},
    {"gather", {COPY_KERNEL_GATHER, SIDE, SIDE, 2048, 0, 0, 0, 0}, {COPY_KERNEL_GATHER, QUICK, QUICK, 128, 0, 0, 0, 0}},
    {"cyclic", {COPY_KERNEL_CYCLIC, SIDE, SIDE, 2048, 0, 0, 4, 5}, {COPY_KERNEL_CYCLIC, QUICK, QUICK, 128, 0, 0, 4, 5}},
};
#undef XQY
enum { NCASES = sizeof cases / sizeof cases[0], NXQY = 7, STYLES = 3 };

static const copy_style_t styles[STYLES] = {COPY_BASIC, COPY_PACKING, COPY_CHAINED};
static const char *const style_names[STYLES] = {"network", "packing", "chained"};

typedef struct exchange_jobs {
    bool quick;
    unsigned threads;
    route_memo_t *memo; /* the styles, and the xQy patterns, of a size share one connection set */
    copy_exchange_run_t r[NCASES][STYLES][2]; /* at n and 2n */
    bool ok[NCASES][STYLES];
    char err[NCASES][STYLES][512];
} exchange_jobs_t;

static void run_job(void *arg, unsigned i)
{
    exchange_jobs_t *j = arg;
    unsigned c = i / STYLES, s = i % STYLES;
    j->ok[c][s] = true;
    for (unsigned twice = 0; twice < 2 && j->ok[c][s]; twice++) {
        copy_kernel_params_t p = j->quick ? cases[c].quick : cases[c].p;
        p.n *= twice + 1;
        copy_kernel_t *k = copy_kernel_new(&p, j->err[c][s], sizeof j->err[c][s]);
        j->ok[c][s] = k != NULL && copy_exchange_run(copy_kernel_spec(k), styles[s], j->threads, j->memo,
                                                     &j->r[c][s][twice], j->err[c][s], sizeof j->err[c][s]) == 0;
        if (j->ok[c][s] && j->r[c][s][twice].wrong != 0) {
            snprintf(j->err[c][s], sizeof j->err[c][s], "%llu words wrong",
                     (unsigned long long)j->r[c][s][twice].wrong);
            j->ok[c][s] = false;
        }
        copy_kernel_free(k);
    }
}

/* The model of one class of blocks (sent strided or indexed, received strided or indexed) with the
 * exchange's network figure `net`. iWarp's figures do not depend on the stride, so a strided block is "1". */
static int class_model(const copy_table_t *iwarp, double net, bool xi, bool yi, copy_style_t style, double *mbps,
                       char *expr, size_t cap)
{
    copy_table_t t = *iwarp;
    copy_transfer_t nd;
    copy_transfer_parse("Nd_exchange", 11, &nd);
    copy_table_set(&t, &nd, net);
    const char *x = xi ? "!" : "1", *y = yi ? "!" : "1";
    if (style == COPY_PACKING)
        snprintf(expr, cap, "%sC1 -> (1S0 || Nd_exchange || 0R1 where 2 * Q <= 0C1) -> 1C%s", x, y);
    else
        snprintf(expr, cap, "%sS0 || Nd_exchange || 0R%s where %u * Q <= 0C1", x, y, (xi ? 2 : 1) + (yi ? 2 : 1));
    copy_result_t r;
    char err[300];
    if (copy_eval(expr, &t, &r, err, sizeof err) != 0) {
        fprintf(stderr, "iwarp bench copy: %s: %s\n", expr, err);
        return -1;
    }
    *mbps = r.mbps;
    return 0;
}

/* The exchange's model: each class's words at its rate, one after the other (a harmonic mean by words). The
 * expression of the class with the most words is the one recorded. */
static int exchange_model(const copy_table_t *iwarp, const copy_exchange_run_t *r, double net, copy_style_t style,
                          double *mbps, char *expr, size_t cap)
{
    double seconds = 0, words = 0;
    uint64_t most = 0;
    for (unsigned xi = 0; xi < 2; xi++)
        for (unsigned yi = 0; yi < 2; yi++) {
            uint64_t w = r->class_words[xi][yi];
            if (w == 0)
                continue;
            double rate;
            char e[160];
            if (class_model(iwarp, net, xi, yi, style, &rate, e, sizeof e) != 0)
                return -1;
            seconds += w / rate;
            words += w;
            if (w > most) {
                most = w;
                snprintf(expr, cap, "%s", e);
            }
        }
    *mbps = words > 0 ? words / seconds : 0;
    return 0;
}

static void record(bench_context_t *ctx, unsigned c, unsigned s, const copy_exchange_run_t *r, double mbps,
                   const char *expr, double model)
{
    char name[64];
    snprintf(name, sizeof name, "exchange %s %s", cases[c].name, style_names[s]);
    bench_record_begin(ctx, "copy", name);
    bench_string(ctx, "kind", c < NXQY ? "alltoall" : "kernel");
    bench_string(ctx, "transfer", cases[c].name);
    bench_string(ctx, "style", style_names[s]);
    bench_u64(ctx, "n", r[0].words);
    bench_u64(ctx, "phases", r[0].phases);
    bench_u64(ctx, "clocks_n", r[0].clocks);
    bench_u64(ctx, "clocks_2n", r[1].clocks);
    bench_u64(ctx, "words_n", r[0].words);
    bench_u64(ctx, "words_2n", r[1].words);
    bench_u64(ctx, "indexed_blocks", r[1].indexed_blocks);
    bench_u64(ctx, "strided_blocks", r[1].strided_blocks);
    bench_double(ctx, "mbps", mbps);
    if (expr != NULL) {
        bench_string(ctx, "model_expr", expr);
        bench_double(ctx, "model_mbps", model);
    }
    bench_u64(ctx, "wrong_words", r[0].wrong + r[1].wrong);
    bench_record_end(ctx);
}

int bench_copy_exchange(bench_context_t *ctx, const copy_table_t *iwarp)
{
    exchange_jobs_t *jobs = calloc(1, sizeof *jobs);
    route_memo_t *memo = route_memo_new();
    if (jobs == NULL || memo == NULL) {
        free(jobs);
        route_memo_free(memo);
        return -1;
    }
    jobs->quick = ctx->quick;
    jobs->threads = ctx->threads;
    jobs->memo = memo;
    bench_run_jobs(ctx, "bench copy (exchanges)", NCASES * STYLES, run_job, jobs);
    route_memo_free(memo);
    unsigned side = ctx->quick ? QUICK : SIDE, cells = side * side;
    if (bench_report(ctx) && ctx->quick)
        printf("\n(--quick: 4x4 and short blocks; rates from differences of runs this small are rough, and can\n"
               "exceed a link's 40 MB/s where the phases of n and 2n differ)");
    if (bench_report(ctx))
        printf("\nExchanges on %ux%u under ConSet: MB/s per cell each way, measured (from runs of n and 2n) and the\n"
               "model with the measured table and the exchange's network figure (the same phases with no memory\n"
               "access). xQy: N = %u and %u words from every cell to every other; transpose: %u and %u rows a cell;\n"
               "gather, cyclic: %u and %u elements a cell\n"
               "%-10s %6s %8s   %8s %8s   %8s %8s   %8s\n",
               side, side, (ctx->quick ? cases[0].quick : cases[0].p).n, 2 * (ctx->quick ? cases[0].quick : cases[0].p).n,
               (ctx->quick ? cases[NXQY].quick : cases[NXQY].p).n, 2 * (ctx->quick ? cases[NXQY].quick : cases[NXQY].p).n,
               (ctx->quick ? cases[NXQY + 1].quick : cases[NXQY + 1].p).n,
               2 * (ctx->quick ? cases[NXQY + 1].quick : cases[NXQY + 1].p).n, "exchange", "phases", "network",
               "packing", "model", "chained", "model", "ch./pack.");
    plot_t pl;
    bench_plot_init(ctx, &pl, "Exchanges under ConSet: buffer packing and chained", "exchange",
                    "MB/s per cell", false, false);
    const char *names[NCASES]; /* the plot keeps the pointers: written below, in this function */
    for (unsigned c = 0; c < NCASES; c++)
        names[c] = cases[c].name;
    plot_categories(&pl, names, NCASES);
    pl.legend_title = "style (bar: model)";
    char config[96];
    snprintf(config, sizeof config, "%ux%u array under ConSet; model from the measured table", side, side);
    pl.config = config;
    plot_series_t *series[STYLES] = {plot_add(&pl, "network alone", false), plot_add(&pl, "buffer packing", false),
                                     plot_add(&pl, "chained", false)};
    plot_series_t *models[STYLES] = {NULL, plot_add_model(&pl, "buffer packing, model", series[1]),
                                     plot_add_model(&pl, "chained, model", series[2])};
    int rc = 0;
    for (unsigned c = 0; c < NCASES; c++) {
        bool ok = true;
        for (unsigned s = 0; s < STYLES; s++)
            if (!jobs->ok[c][s]) {
                ok = false;
                if (!interrupt_requested()) {
                    fprintf(stderr, "iwarp bench copy: %s %s: %s\n", cases[c].name, style_names[s], jobs->err[c][s]);
                    rc = -1;
                }
            }
        if (!ok)
            continue;
        double mbps[STYLES], model[STYLES] = {0};
        char expr[STYLES][160] = {""};
        for (unsigned s = 0; s < STYLES; s++) {
            mbps[s] = copy_exchange_mbps(&jobs->r[c][s][0], &jobs->r[c][s][1], cells);
            if (s > 0 && exchange_model(iwarp, &jobs->r[c][s][1], mbps[0], styles[s], &model[s], expr[s],
                                        sizeof expr[s]) != 0)
                rc = -1;
            record(ctx, c, s, jobs->r[c][s], mbps[s], s > 0 ? expr[s] : NULL, model[s]);
            plot_point(series[s], c, mbps[s]);
            plot_point(models[s], c, model[s]); /* NULL for the network alone: no model */
        }
        if (bench_report(ctx))
            printf("%-10s %6u %8.2f   %8.2f %8.2f   %8.2f %8.2f   %8.2f\n", cases[c].name, jobs->r[c][1][0].phases,
                   mbps[0], mbps[1], model[1], mbps[2], model[2], mbps[2] / mbps[1]);
    }
    bench_write_plot(ctx, &pl, "copy", "copy_exchanges.svg");
    free(jobs);
    return rc;
}
