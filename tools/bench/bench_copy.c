/*
 * iwarp bench copy: the basic transfers of the copy-transfer model (Stricker and Gross, "Optimizing Memory
 * System Performance for Communication in Parallel Computers") measured on the emulated iWarp, as the paper's
 * Tables 1-4 and Figure 4 give them for the T3D and the Paragon; the measured figures as a table file for
 * `iwarp model copy --table`, and the model's buffer-packing and chained estimates of xQy with them.
 * docs/copy.md says how each figure follows from the machine's timing.
 */
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "copy_expr.h"
#include "copy_measure.h"
#include "interrupt.h"
#include "plot.h"

/* N and 2N words a run: 2N at the largest stride fills the program's 1 MB destination window. */
enum { WORDS = 512, WORDS_QUICK = 128 };

typedef struct copy_row {
    const char *table; /* which of the paper's tables it belongs to */
    const char *name;  /* the transfer as the model writes it */
    bool plain;
} copy_row_t;

static const copy_row_t rows[] = {
    {"1 local copies", "1C1", false},       {"1 local copies", "1C64", false},
    {"1 local copies", "64C1", false},      {"1 local copies", "64C64", false},
    {"1 local copies", "1C!", false},       {"1 local copies", "!C1", false},
    {"1 local copies", "!C!", false},       {"1 local copies", "0C1", false},
    {"1 local copies", "1C0", false},       {"2 sends", "1S0", false},
    {"2 sends", "64S0", false},             {"2 sends", "!S0", false},
    {"2 sends", "1S0", true},               {"2 sends", "64S0", true},
    {"2 sends", "!S0", true},               {"2 sends", "1F0", false},
    {"2 sends", "64F0", false},             {"3 receives", "0R1", false},
    {"3 receives", "0R64", false},          {"3 receives", "0R!", false},
    {"3 receives", "0D1", false},           {"3 receives", "0D64", false},
    {"3 receives", "0D!", false},           {"4 network", "Nd@1", false},
    {"4 network", "Nd@2", false},           {"4 network", "Nd@4", false},
    {"4 network", "Nadp@1", false},         {"4 network", "Nadp@2", false},
    {"4 network", "Nadp@4", false},
};
enum { NROWS = sizeof rows / sizeof rows[0] };

/* Figure 4's strides (words). */
static const unsigned strides[] = {1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 256};
enum { NSTRIDES = sizeof strides / sizeof strides[0] };

/* The xQy of the paper's section 5, in both styles, as programs/copy/basic.s implements them. */
static const struct {
    const char *xqy, *packing, *chained;
} estimates[] = {
    {"1Q1", "1C1 -> (1F0 || Nd || 0D1) -> 1C1", "1S0 || Nd || 0R1"},
    {"1Q64", "1C1 -> (1F0 || Nd || 0D1) -> 1C64", "1S0 || Nd || 0R64"},
    {"64Q1", "64C1 -> (1F0 || Nd || 0D1) -> 1C1", "64S0 || Nd || 0R1"},
    {"64Q64", "64C1 -> (1F0 || Nd || 0D1) -> 1C64", "64S0 || Nd || 0R64"},
    {"!Q1", "!C1 -> (1F0 || Nd || 0D1) -> 1C1", "!S0 || Nd || 0R1"},
    {"1Q!", "1C1 -> (1F0 || Nd || 0D1) -> 1C!", "1S0 || Nadp || 0D!"},
    {"!Q!", "!C1 -> (1F0 || Nd || 0D1) -> 1C!", "!S0 || Nadp || 0D!"},
};
enum { NESTIMATES = sizeof estimates / sizeof estimates[0] };

static void record(bench_context_t *ctx, const char *kind, const char *name, bool plain, unsigned words,
                   const copy_throughput_t *r)
{
    char case_name[64];
    snprintf(case_name, sizeof case_name, "%s%s", name, plain ? " plain" : "");
    bench_record_begin(ctx, "copy", case_name);
    bench_string(ctx, "kind", kind);
    bench_string(ctx, "transfer", name);
    bench_string(ctx, "code", plain ? "plain" : "liw");
    bench_u64(ctx, "words", words);
    bench_u64(ctx, "clocks_n", r->at_n.clocks);
    bench_u64(ctx, "clocks_2n", r->at_2n.clocks);
    bench_double(ctx, "clocks_per_word", r->clocks_per_word);
    bench_double(ctx, "mwords_per_second", r->mbps / 4);
    bench_double(ctx, "mbps", r->mbps);
    bench_u64(ctx, "wrong_words", r->at_n.wrong + r->at_2n.wrong);
    bench_record_end(ctx);
}

/* Runs a case at N and 2N and checks every word it moved; `name` for the messages. */
static int run_checked(const copy_bench_case_t *c, const char *name, copy_throughput_t *r)
{
    char err[1024];
    if (copy_measure(c, r, err, sizeof err) != 0) {
        if (!interrupt_requested()) /* Ctrl-C: the cases that ended are reported */
            fprintf(stderr, "iwarp bench copy: %s: %s\n", name, err);
        return -1;
    }
    if (r->at_n.wrong + r->at_2n.wrong != 0) {
        fprintf(stderr, "iwarp bench copy: %s moved %llu words wrong\n", name,
                (unsigned long long)(r->at_n.wrong + r->at_2n.wrong));
        return -1;
    }
    return 0;
}

/* A basic transfer by its name ("1C64", "!S0", "Nd@2"). */
static int measure(const char *name, bool plain, unsigned words, copy_throughput_t *r)
{
    copy_bench_case_t c = {.plain = plain, .words = words};
    if (!copy_transfer_parse(name, strlen(name), &c.t)) {
        fprintf(stderr, "iwarp bench copy: %s is not a transfer\n", name);
        return -1;
    }
    return run_checked(&c, name, r);
}

static int basic_transfers(bench_context_t *ctx, unsigned words, copy_table_t *iwarp)
{
    if (bench_report(ctx)) {
        printf("Basic transfers on the emulated iWarp (2 cells, 32-bit words, 20 MHz; N = %u and %u words, the\n"
               "rate from the difference): the copy-transfer paper's Tables 1-4 (Stricker and Gross)\n\n",
               words, 2 * words);
        printf("%-15s %-8s %-6s %12s %12s %9s\n", "table", "transfer", "code", "clocks/word", "Mwords/s", "MB/s");
    }
    int rc = 0;
    for (unsigned i = 0; i < NROWS && rc == 0 && !interrupt_requested(); i++) {
        copy_throughput_t r;
        if (measure(rows[i].name, rows[i].plain, words, &r) != 0) {
            rc = -1;
            break;
        }
        record(ctx, "basic", rows[i].name, rows[i].plain, words, &r);
        if (bench_report(ctx))
            printf("%-15s %-8s %-6s %12.3f %12.3f %9.2f\n", rows[i].table, rows[i].name,
                   rows[i].plain ? "plain" : "LIW", r.clocks_per_word, r.mbps / 4, r.mbps);
        if (!rows[i].plain) {
            copy_transfer_t t;
            copy_transfer_parse(rows[i].name, strlen(rows[i].name), &t);
            copy_table_set(iwarp, &t, r.mbps);
        }
    }
    return rc;
}

static int stride_sweep(bench_context_t *ctx, unsigned words)
{
    plot_t pl;
    bench_plot_init(ctx, &pl, "Strided copies on the emulated iWarp (as Figure 4)",
                    "stride (words)", "MB/s", true, false);
    char config[96];
    snprintf(config, sizeof config, "one cell, N = %u and %u words a copy", words, 2 * words);
    pl.config = config;
    pl.legend_title = "copy (s = stride in words)";
    /* one hue, two shades: the twin's ring and thin line stay visible where the two coincide */
    plot_series_t *load = plot_add(&pl, "sC1: strided loads", false);
    plot_series_t *store = plot_add_related(&pl, "1Cs: strided stores", load);
    if (bench_report(ctx)) {
        printf("\nStrided copies by stride (Figure 4): MB/s\n%8s %10s %10s\n", "stride", "sC1", "1Cs");
    }
    for (unsigned i = 0; i < NSTRIDES && !interrupt_requested(); i++) {
        char a[24], b[24];
        snprintf(a, sizeof a, "%uC1", strides[i]);
        snprintf(b, sizeof b, "1C%u", strides[i]);
        copy_throughput_t ra, rb;
        if (measure(a, false, words, &ra) != 0 || measure(b, false, words, &rb) != 0)
            return -1;
        record(ctx, "stride", a, false, words, &ra);
        record(ctx, "stride", b, false, words, &rb);
        plot_point(load, strides[i], ra.mbps);
        plot_point(store, strides[i], rb.mbps);
        if (bench_report(ctx))
            printf("%8u %10.2f %10.2f\n", strides[i], ra.mbps, rb.mbps);
    }
    bench_write_plot(ctx, &pl, "copy", "copy_stride.svg");
    return 0;
}

/* xQy ("1Q64") between two cells in one style. */
static int xqy_measure(const char *xqy, copy_style_t style, unsigned words, copy_throughput_t *r)
{
    copy_bench_case_t c;
    if (!copy_xqy_parse(xqy, style, words, &c)) {
        fprintf(stderr, "iwarp bench copy: %s is not an xQy\n", xqy);
        return -1;
    }
    return run_checked(&c, xqy, r);
}

/* xQy between two cells in both styles, each beside the model's estimate with the measured table. */
static int xqy_two_cells(bench_context_t *ctx, unsigned words, const copy_table_t *iwarp, plot_t *pl)
{
    if (bench_report(ctx))
        printf("\nxQy from cell 0's memory to cell 1's (N = %u and %u words): measured and the model with the\n"
               "measured table, MB/s\n%-7s %9s %9s   %9s %9s   %9s\n",
               words, 2 * words, "xQy", "packing", "model", "chained", "model", "chained/packing");
    plot_series_t *sp = plot_add(pl, "buffer packing, measured", false);
    plot_series_t *spm = plot_add_model(pl, "buffer packing, model", sp);
    plot_series_t *sc = plot_add(pl, "chained, measured", false);
    plot_series_t *scm = plot_add_model(pl, "chained, model", sc);
    for (unsigned i = 0; i < NESTIMATES && !interrupt_requested(); i++) {
        copy_result_t mp, mc;
        char err[300];
        if (copy_eval(estimates[i].packing, iwarp, &mp, err, sizeof err) != 0 ||
            copy_eval(estimates[i].chained, iwarp, &mc, err, sizeof err) != 0) {
            fprintf(stderr, "iwarp bench copy: %s: %s\n", estimates[i].xqy, err);
            return -1;
        }
        copy_throughput_t p, c;
        if (xqy_measure(estimates[i].xqy, COPY_PACKING, words, &p) != 0 ||
            xqy_measure(estimates[i].xqy, COPY_CHAINED, words, &c) != 0)
            return -1;
        const struct {
            const char *style, *expr;
            const copy_throughput_t *r;
            double model;
        } both[2] = {{"packing", estimates[i].packing, &p, mp.mbps}, {"chained", estimates[i].chained, &c, mc.mbps}};
        for (unsigned b = 0; b < 2; b++) {
            char case_name[48];
            snprintf(case_name, sizeof case_name, "%s %s", estimates[i].xqy, both[b].style);
            bench_record_begin(ctx, "copy", case_name);
            bench_string(ctx, "kind", "xqy");
            bench_string(ctx, "transfer", estimates[i].xqy);
            bench_string(ctx, "style", both[b].style);
            bench_u64(ctx, "words", words);
            bench_u64(ctx, "clocks_n", both[b].r->at_n.clocks);
            bench_u64(ctx, "clocks_2n", both[b].r->at_2n.clocks);
            bench_double(ctx, "clocks_per_word", both[b].r->clocks_per_word);
            bench_double(ctx, "mbps", both[b].r->mbps);
            bench_string(ctx, "model_expr", both[b].expr);
            bench_double(ctx, "model_mbps", both[b].model);
            bench_u64(ctx, "wrong_words", both[b].r->at_n.wrong + both[b].r->at_2n.wrong);
            bench_record_end(ctx);
        }
        plot_point(sp, i, p.mbps);
        plot_point(spm, i, mp.mbps);
        plot_point(sc, i, c.mbps);
        plot_point(scm, i, mc.mbps);
        if (bench_report(ctx))
            printf("%-7s %9.2f %9.2f   %9.2f %9.2f   %9.2f\n", estimates[i].xqy, p.mbps, mp.mbps, c.mbps, mc.mbps,
                   c.mbps / p.mbps);
    }
    return 0;
}

static void write_table(const bench_context_t *ctx, const copy_table_t *t)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/copy_iwarp.table", ctx->out_dir);
    if (plot_make_dirs(ctx->out_dir) != 0) {
        fprintf(stderr, "iwarp bench copy: cannot make %s\n", ctx->out_dir);
        return;
    }
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        fprintf(stderr, "iwarp bench copy: cannot write %s\n", path);
        return;
    }
    fprintf(f, "# The basic transfers measured by `iwarp bench copy` (MB/s of useful data): iwarp model copy --table\n");
    copy_table_write(t, f);
    if (fclose(f) != 0)
        fprintf(stderr, "iwarp bench copy: cannot write %s\n", path);
    else if (bench_report(ctx))
        printf("the measured table for `iwarp model copy --table`: %s\n", path);
}

int bench_copy(bench_context_t *ctx)
{
    unsigned words = ctx->quick ? WORDS_QUICK : WORDS;
    copy_table_t iwarp = {.machine = "iWarp (emulated)", .word_bytes = 4, .congestion = 1};
    if (basic_transfers(ctx, words, &iwarp) != 0 || stride_sweep(ctx, words) != 0)
        return interrupt_requested() ? 0 : 1;
    if (interrupt_requested())
        return 0;
    plot_t pl;
    bench_plot_init(ctx, &pl, "xQy between two cells: buffer packing and chained", "xQy",
                    "MB/s", false, false);
    const char *names[NESTIMATES]; /* the plot keeps the pointers: written below, in this function */
    for (unsigned i = 0; i < NESTIMATES; i++)
        names[i] = estimates[i].xqy;
    plot_categories(&pl, names, NESTIMATES);
    char config[96];
    snprintf(config, sizeof config, "cell 0 to cell 1, N = %u and %u words; model with the measured table", words,
             2 * words);
    pl.config = config;
    pl.legend_title = "style (bar: model)";
    int rc = xqy_two_cells(ctx, words, &iwarp, &pl);
    bench_write_plot(ctx, &pl, "copy", "copy_xqy.svg");
    if (rc == 0 && !interrupt_requested())
        rc = bench_copy_exchange(ctx, &iwarp);
    if (!interrupt_requested())
        write_table(ctx, &iwarp);
    return rc != 0 && !interrupt_requested() ? 1 : 0;
}
