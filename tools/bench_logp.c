/*
 * iwarp bench logp: the LogGP microbenchmarks of seed 001 on the emulated machine (programs/logp/logp.s over
 * runtime/msg.s): ping-pong for the end-to-end latency, the flood test over sizes and queue depths for g
 * and G, the CPU overlap tests for o_s and o_r, and g/G. Every figure comes out of an emulated run.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "bench_logp.h"
#include "interrupt.h"
#include "plot.h"
#include "progress.h"
#include "run_loop.h"

enum { MODE_PINGPONG = 0, MODE_FLOOD = 1, MODE_OVERLAP_SEND = 2, MODE_OVERLAP_RECEIVE = 3, MAX_SIZES = 16 };

static const unsigned depths_full[] = {1, 2, 4, 8, 16};
static const unsigned depths_quick[] = {1, 4};

/* Runs logp.s once; returns cell 0's clocks, or 0 after printing why it failed. */
static uint64_t run_once(const logp_setup_t *su, unsigned mode, uint32_t words, uint32_t messages, uint32_t depth,
                         uint32_t compute, uint32_t partner)
{
    emu_machine_t m;
    emu_machine_defaults(&m);
    m.width = su->width;
    m.height = su->height;
    char err[256];
    emu_array_t *a;
    if (emu_array_create(&a, &m, err, sizeof err) != 0) {
        fprintf(stderr, "bench logp: %s\n", err);
        return 0;
    }
    const emu_program_t *p = bench_program(a, "programs/logp/logp.s", NULL, 0);
    uint32_t args[6] = {mode, words, messages, depth, compute, partner};
    int rc = p != NULL ? 0 : -1;
    for (unsigned y = 0; rc == 0 && y < m.height; y++)
        for (unsigned x = 0; rc == 0 && x < m.width; x++)
            if (emu_array_load(a, x, y, p, args, 6, err, sizeof err) != 0) {
                fprintf(stderr, "bench logp: %s\n", err);
                rc = -1;
            }
    uint64_t clocks = 0;
    if (rc == 0 && !interrupt_requested()) {
        /* A progress line on a terminal; after Ctrl-C no run starts, and the measurement ends without a result. */
        static const char *const mode_names[] = {"ping-pong", "flood", "overlap send", "overlap receive"};
        char what[128];
        snprintf(what, sizeof what, "%s, %u words x %u, queue depth %u, compute %u", mode < 4 ? mode_names[mode] : "?",
                 words, messages, depth, compute);
        char named[160];
        snprintf(named, sizeof named, "bench logp: %s", what);
        /* Most runs take a fraction of a second: the measurement's own line names each; alone, the run's line. */
        if (su->steps != NULL)
            progress_step(su->steps, what);
        bool interrupted;
        emu_run_status_t st = run_loop(a, 2000000000ull, named, su->quiet || su->steps != NULL, &interrupted);
        if (interrupted) {
            emu_array_free(a);
            return 0;
        }
        if (st == EMU_RUN_DONE) {
            clocks = ca_reg(emu_array_ca(a, 0, 0), ISA_REG_A0);
        } else {
            unsigned fx = 0, fy = 0;
            emu_array_first_fault(a, &fx, &fy);
            emu_format_fault(a, fx, fy, err, sizeof err);
            fprintf(stderr, "bench logp: mode %u, %u words: run ended %s %s %s\n", mode, words, emu_run_status_name(st),
                    st == EMU_RUN_FAULT ? err : "", emu_array_deadlock(a));
        }
    }
    emu_array_free(a);
    return clocks;
}

/* The seed's method: the minimum of several runs. The emulator is deterministic, so the runs agree; the
 * second run checks it. */
static uint64_t run_min(const logp_setup_t *su, unsigned mode, uint32_t words, uint32_t messages, uint32_t depth,
                        uint32_t compute, uint32_t partner)
{
    uint64_t a = run_once(su, mode, words, messages, depth, compute, partner);
    if (a == 0 || su->runs < 2)
        return a;
    uint64_t b = run_once(su, mode, words, messages, depth, compute, partner);
    if (b != a)
        fprintf(stderr, "bench logp: two identical runs took %llu and %llu clocks: the emulator is not deterministic\n",
                (unsigned long long)a, (unsigned long long)b);
    return b < a ? b : a;
}

static uint32_t flood_messages(const logp_setup_t *su, uint32_t words)
{
    uint32_t budget = su->quick ? 8192 : 65536; /* words per run */
    uint32_t n = budget / words;
    uint32_t lo = 4, hi = su->quick ? 40 : 200;
    return n < lo ? lo : n > hi ? hi : n;
}

/* Largest computation per message that leaves the flood time within one clock per message of none. */
static uint32_t max_hidden_compute(const logp_setup_t *su, unsigned mode, uint32_t messages, uint32_t partner,
                                   uint64_t base, uint32_t limit)
{
    uint32_t lo = 0, hi = limit;
    while (hi - lo > (su->quick ? 8u : 2u)) {
        uint32_t mid = lo + (hi - lo) / 2;
        uint64_t t = run_once(su, mode, 2, messages, 1, mid, partner);
        if (t != 0 && t <= base + messages)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

int logp_measure(const logp_setup_t *su, logp_result_t *r)
{
    memset(r, 0, sizeof *r);
    uint32_t near = 1 % (su->width * su->height);
    uint32_t far = (su->height / 2) * su->width + su->width / 2;
    r->far_hops = su->width / 2 + su->height / 2;
    uint32_t pings = su->quick ? 20 : 100;

    uint64_t t = run_min(su, MODE_PINGPONG, 2, pings, 1, 0, near);
    if (t == 0)
        return -1;
    r->eel_near = (double)t / (2.0 * pings);
    t = run_min(su, MODE_PINGPONG, 2, pings, 1, 0, far);
    if (t == 0)
        return -1;
    r->eel_far = (double)t / (2.0 * pings);

    /* g against the queue depth, 8-byte messages */
    uint32_t n8 = flood_messages(su, 2);
    r->ndepth_g = su->quick ? 4 : 16;
    r->g = INFINITY;
    for (unsigned q = 1; q <= r->ndepth_g; q++) {
        t = run_min(su, MODE_FLOOD, 2, n8, q, 0, near);
        if (t == 0)
            return -1;
        r->g_by_depth[q - 1] = (double)t / n8;
        r->g = fmin(r->g, r->g_by_depth[q - 1]);
    }

    /* time per message against the size, for a few queue depths */
    const unsigned *depths = su->quick ? depths_quick : depths_full;
    r->ndepths = su->quick ? 2 : 5;
    r->nsizes = 0;
    for (uint32_t words = 2; words <= 32768; words *= su->quick ? 32 : 2)
        r->sizes_words[r->nsizes++] = words;
    for (unsigned d = 0; d < r->ndepths; d++) {
        r->depths[d] = depths[d];
        for (unsigned s = 0; s < r->nsizes; s++) {
            uint32_t words = r->sizes_words[s], n = flood_messages(su, words);
            t = run_min(su, MODE_FLOOD, words, n, depths[d], 0, near);
            if (t == 0)
                return -1;
            r->per_message[d][s] = (double)t / n;
        }
    }

    /* G: the slope of the time per message against the size, over the large messages (least squares over
     * the sizes of 4 KB and up at the best queue depth measured). */
    unsigned best = r->ndepths - 1;
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    unsigned k = 0;
    for (unsigned s = 0; s < r->nsizes; s++) {
        double bytes = 4.0 * r->sizes_words[s];
        if (bytes < 4096 && s + 2 < r->nsizes)
            continue;
        sx += bytes;
        sy += r->per_message[best][s];
        sxx += bytes * bytes;
        sxy += bytes * r->per_message[best][s];
        k++;
    }
    r->G = k >= 2 ? (k * sxy - sx * sy) / (k * sxx - sx * sx) : NAN;
    r->large_bytes = r->g / r->G;

    /* overheads: computation hidden behind a send (or a receive) at queue depth one */
    uint32_t n1 = su->quick ? 20 : 100;
    uint64_t base = run_min(su, MODE_OVERLAP_SEND, 2, n1, 1, 0, near);
    if (base == 0)
        return -1;
    r->g_q1 = (double)base / n1;
    uint32_t hidden = max_hidden_compute(su, MODE_OVERLAP_SEND, n1, near, base, (uint32_t)(2 * r->g_q1));
    r->hidden_send = hidden;
    r->o_s = r->g_q1 - hidden;
    base = run_min(su, MODE_OVERLAP_RECEIVE, 2, n1, 1, 0, near);
    if (base == 0)
        return -1;
    hidden = max_hidden_compute(su, MODE_OVERLAP_RECEIVE, n1, near, base, (uint32_t)(2 * r->g_q1));
    r->hidden_receive = hidden;
    r->o_r = (double)base / n1 - hidden;
    return 0;
}

static double us(double clocks)
{
    return clocks / 20.0;
} /* 20 MHz */

static void write_plots(const bench_context_t *ctx, const logp_result_t *r)
{
    plot_t p;
    bench_plot_init(ctx, &p, "LogGP flood test: gap g of 8-byte messages", "queue depth", "g (clocks per message)",
                    false, false);
    plot_series_t *s = plot_add(&p, "emulated", false);
    for (unsigned q = 1; q <= r->ndepth_g; q++)
        plot_point(s, q, r->g_by_depth[q - 1]);
    bench_write_plot(ctx, &p, "logp", "logp_gap_vs_depth.svg");

    char names[8][32]; /* the plot keeps the series' names, not copies */
    bench_plot_init(ctx, &p, "LogGP flood test: time per message", "message size (bytes)", "clocks per message", true,
                    true);
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

int bench_logp(bench_context_t *ctx)
{
    progress_t steps;
    progress_init(&steps, "bench logp", ctx->quiet);
    logp_setup_t su = {
        .width = 8, .height = 8, .quick = ctx->quick, .runs = ctx->quick ? 1 : 2, .quiet = ctx->quiet, .steps = &steps};
    logp_result_t r;
    int rc = logp_measure(&su, &r);
    progress_done(&steps);
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
