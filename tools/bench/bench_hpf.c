/*
 * The HPF half of `iwarp bench caching`: task-parallel array assignments D = S between two tasks of 16 cells,
 * cached and uncached, as Dinda and O'Hallaron measured them ("The Performance Impact of Address Relation
 * Caching", section 5, on a 512 x 512 array): the average end-to-end latency after n iterations, the
 * break-even and the steady speedup, and a plot per case like the paper's figure.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "hpf.h"
#include "interrupt.h"
#include "plot.h"

/* The paper's three cases first, then distributions with shorter runs, where the relation costs more. */
static const char *const hpf_cases[] = {
    "S(:,BLOCK) -> D(:,BLOCK)",         "S(BLOCK,:) -> D(:,BLOCK)",
    "S(:,CYCLIC(5)) -> D(:,CYCLIC(20))", "S(CYCLIC,:) -> D(BLOCK,:)",
    "S(BLOCK,BLOCK) -> D(CYCLIC,CYCLIC)", "S(CYCLIC(3),:) -> D(:,CYCLIC(2))",
};
enum { HPF_CASES = sizeof hpf_cases / sizeof hpf_cases[0], HPF_TASK = 16 };

/* A file name for a case: its distributions with the punctuation dropped. */
static void slug(const char *text, char *buf, size_t cap)
{
    size_t n = 0;
    for (const char *s = text; *s != '\0' && n + 1 < cap; s++) {
        if (isalnum((unsigned char)*s)) {
            buf[n++] = (char)tolower((unsigned char)*s);
        } else if (*s == ':' && n + 3 < cap) {
            memcpy(buf + n, "all", 3);
            n += 3;
        } else if (n > 0 && buf[n - 1] != '_') {
            buf[n++] = '_';
        }
    }
    while (n > 0 && buf[n - 1] == '_')
        n--;
    buf[n] = '\0';
}

/* Every case's two runs (uncached, cached) are jobs that run at once (--jobs). */
typedef struct hpf_jobs {
    hpf_case_t cases[HPF_CASES];
    hpf_result_t results[HPF_CASES][2];
    bool ok[HPF_CASES][2];
    unsigned iterations;
} hpf_jobs_t;

static void run_hpf_job(void *arg, unsigned j)
{
    hpf_jobs_t *jobs = arg;
    /* the irregular cases, the longest, first, so that the last run to start is a short one */
    unsigned i = HPF_CASES - 1 - j / 2, cached = j % 2;
    hpf_options_t o = {cached, HPF_FORMAT_BLOCKS, jobs->iterations, false, 8, 8, NULL};
    hpf_result_t *r = &jobs->results[i][cached];
    char err[4096];
    if (hpf_run(&jobs->cases[i], &o, r, err, sizeof err) != 0) {
        if (!interrupt_requested())
            fprintf(stderr, "bench caching: %s, %s: %s\n", hpf_cases[i], cached ? "cached" : "uncached", err);
    } else if (r->wrong_on_cells != 0 || r->wrong_on_host != 0) {
        fprintf(stderr, "bench caching: %s, %s: %llu elements or guard words wrong\n", hpf_cases[i],
                cached ? "cached" : "uncached", (unsigned long long)(r->wrong_on_cells + r->wrong_on_host));
    } else {
        jobs->ok[i][cached] = true;
    }
}

int bench_caching_hpf(bench_context_t *ctx)
{
    const unsigned size = ctx->quick ? 128 : 512, iterations = ctx->quick ? 4 : 8;
    hpf_jobs_t *jobs = calloc(1, sizeof *jobs);
    if (jobs == NULL)
        return -1;
    jobs->iterations = iterations;
    for (unsigned i = 0; i < HPF_CASES; i++) {
        char err[256];
        if (hpf_parse_case(hpf_cases[i], size, size, HPF_TASK, &jobs->cases[i], err, sizeof err) != 0) {
            fprintf(stderr, "bench caching: %s: %s\n", hpf_cases[i], err);
            free(jobs);
            return -1;
        }
    }
    bench_run_jobs(ctx, "bench caching (HPF)", 2 * HPF_CASES, run_hpf_job, jobs);
    if (bench_report(ctx))
        printf("\nHPF array assignment D = S, %u x %u words, two tasks of %u cells on 8x8 (cells 0-%u and %u-%u),\n"
               "address-data blocks, %u iterations emulated; latency: from the first source starting to the last\n"
               "word deposited, clocks at 20 MHz. blocks: the cached relation per source cell; break-even: iterations\n"
               "after which the cached average is no slower; speedup: uncached over cached, last iteration.\n"
               "%-36s | %7s | %9s %9s %9s | %10s | %7s %8s\n",
               size, size, HPF_TASK, HPF_TASK - 1, HPF_TASK, 2 * HPF_TASK - 1, iterations, "case", "blocks",
               "uncached", "cached 1", "cached", "break-even", "latency", "assembly");
    int rc = 0;
    for (unsigned i = 0; i < HPF_CASES; i++) {
        if (!jobs->ok[i][0] || !jobs->ok[i][1]) {
            rc = interrupt_requested() ? rc : -1;
            continue;
        }
        const hpf_result_t *r = jobs->results[i];
        const hpf_result_t *u = &r[0], *k = &r[1];
        unsigned last = iterations - 1, be = hpf_break_even(u, k);
        double blocks = (double)k->blocks_cached / HPF_TASK;
        double speedup = (double)u->latency[last] / k->latency[last];
        double asm_speedup = (double)u->assembly[last] / k->assembly[last];
        char be_text[16];
        if (be > 0)
            snprintf(be_text, sizeof be_text, "%u", be);
        else
            snprintf(be_text, sizeof be_text, ">%u", iterations);
        for (unsigned n = 1; n <= iterations; n++) {
            char name[96];
            snprintf(name, sizeof name, "%s, %u iterations", hpf_cases[i], n);
            bench_record_begin(ctx, "caching_hpf", name);
            bench_string(ctx, "assignment", hpf_cases[i]);
            bench_u64(ctx, "size", size);
            bench_u64(ctx, "task", HPF_TASK);
            bench_u64(ctx, "iterations", n);
            bench_double(ctx, "uncached_mean_latency", hpf_mean_latency(u, n));
            bench_double(ctx, "cached_mean_latency", hpf_mean_latency(k, n));
            bench_u64(ctx, "uncached_latency", u->latency[n - 1]);
            bench_u64(ctx, "cached_latency", k->latency[n - 1]);
            bench_u64(ctx, "uncached_assembly", u->assembly[n - 1]);
            bench_u64(ctx, "cached_assembly", k->assembly[n - 1]);
            bench_double(ctx, "blocks_per_source", blocks);
            bench_u64(ctx, "relation_store", k->store[0]);
            if (be > 0)
                bench_u64(ctx, "break_even", be);
            else
                bench_null(ctx, "break_even");
            bench_double(ctx, "speedup", speedup);
            bench_double(ctx, "assembly_speedup", asm_speedup);
            bench_record_end(ctx);
        }
        if (bench_report(ctx))
            printf("%-36s | %7.0f | %9u %9u %9u | %10s | %7.3f %8.3f\n", hpf_cases[i], blocks, u->latency[last],
                   k->latency[0], k->latency[last], be_text, speedup, asm_speedup);
        plot_t pl;
        char title[128], name[64], file[96];
        snprintf(title, sizeof title, "HPF assignment %s, %u x %u, tasks of %u", hpf_cases[i], size, size, HPF_TASK);
        bench_plot_init(ctx, &pl, title, "iterations", "average end-to-end latency (clocks)", false, false);
        pl.legend_title = "address relations";
        plot_series_t *su = plot_add(&pl, "uncached", false), *sc = plot_add_related(&pl, "cached", su);
        for (unsigned n = 1; n <= iterations; n++) {
            plot_point(su, n, hpf_mean_latency(u, n));
            plot_point(sc, n, hpf_mean_latency(k, n));
        }
        slug(hpf_cases[i], name, sizeof name);
        snprintf(file, sizeof file, "caching_hpf_%s.svg", name);
        bench_write_plot(ctx, &pl, "caching", file);
    }
    free(jobs);
    return rc;
}
