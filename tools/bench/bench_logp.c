/*
 * iwarp bench logp: the LogGP microbenchmarks (experiments/logp/logp.c) as a report: the parameters, the gap by
 * queue depth and the time per message by size, records and plots.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "interrupt.h"
#include "logp.h"
#include "plot.h"

static double us(double clocks)
{
    return clocks / 20.0;
} /* 20 MHz */

static void write_plots(const bench_context_t *ctx, const logp_result_t *r)
{
    plot_t p;
    bench_plot_init(ctx, &p, "LogGP flood test: gap g of 8-byte messages", "queue depth", "g (clocks per message)",
                    false, false);
    p.legend_title = "run";
    plot_series_t *s = plot_add(&p, "emulated iWarp", false);
    for (unsigned q = 1; q <= r->ndepth_g; q++)
        plot_point(s, q, r->g_by_depth[q - 1]);
    bench_write_plot(ctx, &p, "logp", "logp_gap_vs_depth.svg");

    char names[8][32]; /* the plot keeps the series' names, not copies */
    bench_plot_init(ctx, &p, "LogGP flood test: time per message", "message size (bytes)", "clocks per message", true,
                    true);
    p.legend_title = "queue depth (messages); model";
    for (unsigned d = 0; d < r->ndepths && d < 8; d++) {
        snprintf(names[d], sizeof names[d], "queue depth %u", r->depths[d]);
        s = plot_add(&p, names[d], false);
        for (unsigned k = 0; k < r->nsizes; k++)
            plot_point(s, 4.0 * r->sizes_words[k], r->per_message[d][k]);
    }
    s = plot_add(&p, "g + size * G", true);
    for (unsigned k = 0; k < r->nsizes; k++)
        plot_point(s, 4.0 * r->sizes_words[k], r->g + 4.0 * r->sizes_words[k] * r->G);
    bench_write_plot(ctx, &p, "logp", "logp_time_vs_size.svg");
}

static void record_parameter(bench_context_t *ctx, const char *name, double clocks, const char *unit)
{
    bench_record_begin(ctx, "logp", name);
    bench_double(ctx, "clocks", clocks);
    bench_double(ctx, "us", us(clocks));
    bench_string(ctx, "unit", unit);
    bench_record_end(ctx);
}

/* One record per measured value, in every format (the text report's table is results.csv). */
static void record_results(bench_context_t *ctx, const logp_result_t *r)
{
    record_parameter(ctx, "EEL 1 hop", r->eel_near, "per message");
    record_parameter(ctx, "EEL far", r->eel_far, "per message");
    record_parameter(ctx, "o_s", r->o_s, "per message");
    record_parameter(ctx, "o_r", r->o_r, "per message");
    record_parameter(ctx, "g", r->g, "per message");
    record_parameter(ctx, "G", r->G, "per byte");
    bench_record_begin(ctx, "logp", "g/G");
    bench_double(ctx, "bytes", r->large_bytes);
    bench_record_end(ctx);
    for (unsigned q = 1; q <= r->ndepth_g; q++) {
        bench_record_begin(ctx, "logp", "flood 8 B");
        bench_u64(ctx, "queue_depth", q);
        bench_double(ctx, "clocks_per_message", r->g_by_depth[q - 1]);
        bench_record_end(ctx);
    }
    for (unsigned d = 0; d < r->ndepths; d++)
        for (unsigned k = 0; k < r->nsizes; k++) {
            bench_record_begin(ctx, "logp", "flood");
            bench_u64(ctx, "queue_depth", r->depths[d]);
            bench_u64(ctx, "bytes", 4ull * r->sizes_words[k]);
            bench_double(ctx, "clocks_per_message", r->per_message[d][k]);
            bench_double(ctx, "mb_per_s", 4.0 * r->sizes_words[k] / us(r->per_message[d][k]));
            bench_record_end(ctx);
        }
}

/* The measurement's independent runs, ctx->jobs at once. */
static void run_jobs(void *ctx, unsigned n, void (*job)(void *arg, unsigned i), void *arg)
{
    bench_run_jobs(ctx, "bench logp", n, job, arg);
}

int bench_logp(bench_context_t *ctx)
{
    logp_setup_t su = {.width = 8,
                       .height = 8,
                       .quick = ctx->quick,
                       .runs = ctx->quick ? 1 : 2,
                       .quiet = ctx->quiet,
                       .run_jobs = run_jobs,
                       .jobs_ctx = ctx};
    logp_result_t r;
    int rc = logp_measure(&su, &r);
    if (rc != 0)
        return interrupt_requested() ? 0 : -1; /* after Ctrl-C: no parameters, and the bench says why */
    write_plots(ctx, &r);
    record_results(ctx, &r);
    if (!bench_report(ctx))
        return 0;
    printf("Two cells of the %ux%u array, message passing runtime (runtime/msg.s), 20 MHz clock.\n", su.width,
           su.height);
    printf("%-28s %12s %12s\n", "parameter", "clocks", "us");
    printf("%-28s %12.1f %12.2f\n", "EEL, 8 B, 1 hop", r.eel_near, us(r.eel_near));
    char label[64];
    snprintf(label, sizeof label, "EEL, 8 B, %u hops", r.far_hops);
    printf("%-28s %12.1f %12.2f\n", label, r.eel_far, us(r.eel_far));
    printf("%-28s %12.1f %12.2f\n", "o_s (send overhead)", r.o_s, us(r.o_s));
    printf("%-28s %12.1f %12.2f\n", "o_r (receive overhead)", r.o_r, us(r.o_r));
    printf("%-28s %12.1f %12.2f\n", "g (gap, 8 B, best depth)", r.g, us(r.g));
    printf("%-28s %12.4f %12.5f   (%.1f MB/s)\n", "G (per byte)", r.G, us(r.G), 1.0 / us(r.G));
    printf("%-28s %12.0f bytes: larger messages are bandwidth-bound\n", "g/G", r.large_bytes);
    printf("\nflood test, 8-byte messages: gap by queue depth (clocks per message)\n");
    for (unsigned q = 1; q <= r.ndepth_g; q++)
        printf("  q=%-3u %8.1f%s", q, r.g_by_depth[q - 1], q % 4 == 0 ? "\n" : "");
    printf("\n");
    for (unsigned d = 0; d < r.ndepths; d++) {
        printf("\nflood test, queue depth %u\n%10s %14s %12s %10s\n", r.depths[d], "bytes", "clocks/msg", "us/msg",
               "MB/s");
        for (unsigned k = 0; k < r.nsizes; k++)
            printf("%10u %14.1f %12.2f %10.2f\n", 4 * r.sizes_words[k], r.per_message[d][k], us(r.per_message[d][k]),
                   4.0 * r.sizes_words[k] / us(r.per_message[d][k]));
    }
    printf("\nplots: %s/logp_gap_vs_depth.svg, %s/logp_time_vs_size.svg\n", ctx->out_dir, ctx->out_dir);
    return 0;
}
