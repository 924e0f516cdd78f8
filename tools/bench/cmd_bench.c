/* iwarp bench: the benchmark suite. Each bench prints a table and, with --json or --csv, one record per case. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "commands.h"
#include "file.h"
#include "interrupt.h"
#include "plot.h"
#include "run_meta.h"

static const bench_t benches[] = {
    {"patterns", bench_patterns, "the ConSet paper's torus, butterfly and all-to-all under ConSet and message passing"},
    {"logp", bench_logp, "LogGP microbenchmarks of message passing: EEL, o_s, o_r, g, G, g/G"},
    {"speed", bench_speed, "emulated bundles (instructions) and cell-clocks per host second"},
    {"traffic", bench_traffic, "network-only clocks per host second: 8x8 uniform traffic from host-side generators"},
    {"caching", bench_caching, "address relation caching: break-even and assembly speedup by n_g, beside the model; HPF array assignments"},
    {"fem", bench_fem, "the finite element meshes (gmsh), partitions (METIS), patterns and phases: the ConSet paper's Table 4"},
    {"collectives", bench_collectives, "the buffered collectives paper's collective patterns (trees, rings, pipelined broadcast, buffered send): naive, chunked, ConSet"},
    {"copy", bench_copy, "the copy-transfer model's basic transfers on iWarp (local copies, sends, receives, network), by stride"},
};
enum { NBENCHES = sizeof benches / sizeof benches[0] };

/* The report's records as one table beside its plots, for a spreadsheet. */
/* Host seconds each bench took: beside the records, never in them. */
typedef struct wall_times {
    const char *names[NBENCHES];
    double seconds[NBENCHES];
    unsigned n, jobs;
} wall_times_t;

static void wall_csv(const wall_times_t *w, FILE *out)
{
    for (unsigned i = 0; i < w->n; i++)
        fprintf(out, "# wall_seconds.%s: %.3f\n", w->names[i], w->seconds[i]);
    fprintf(out, "# jobs: %u\n", w->jobs);
}

static int write_table(const csv_table_t *csv, const run_meta_t *meta, const wall_times_t *walls, const char *dir,
                       bool partial)
{
    char path[4096], err[4200] = "";
    snprintf(path, sizeof path, "%s/results.csv", dir);
    file_out_t out; /* whole or not at all (file.h) */
    int rc = plot_make_dirs(dir) == 0 ? file_out_open(&out, path, "w", err, sizeof err) : -1;
    if (rc == 0) {
        if (partial) /* a table of some cases must not pass for the suite's */
            fprintf(out.f, "# partial: interrupted; only the cases that ended\n");
        run_meta_csv(meta, out.f);
        wall_csv(walls, out.f);
    }
    if (rc == 0 && csv_write(csv, out.f) != 0) {
        int e = errno;
        file_out_abort(&out);
        snprintf(err, sizeof err, "%s: %s", path, e != 0 ? strerror(e) : "a write failed");
        rc = -1;
    } else if (rc == 0) {
        rc = file_out_commit(&out, err, sizeof err);
    } else if (err[0] == '\0') {
        snprintf(err, sizeof err, "%s: cannot make its folder: %s", path, strerror(errno));
    }
    if (rc != 0) {
        fprintf(stderr, "iwarp bench: cannot write %s\n", err);
        return -1;
    }
    printf("every measured case as a row: %s\n", path);
    return 0;
}

static void usage(FILE *out)
{
    fprintf(out, "usage: iwarp bench [--json | --csv] [--quick] [--out DIR] [--threads N] [BENCH...]\n"
                 "Runs the named benches (default: all) and prints their report.\n"
                 "  --json      one JSON document with a record per measured case, on stdout\n"
                 "  --csv       the same records as one CSV table (a column per field), on stdout\n"
                 "  --quick     smaller runs (for tests and a first look)\n"
                 "  --out DIR   where each report's folder goes (default: out/bench): DATE-ID/ with its plots\n"
                 "              and results.csv, and DIR/latest pointing at the newest\n"
                 "  --threads N host threads for the emulated runs (default 1; results do not change)\n"
                 "  --jobs N    emulated runs at once where a bench has independent ones (default: the cores;\n"
                 "              results do not change; the speed bench always runs one at a time)\n"
                 "  --quiet     no progress lines on a terminal\n"
                 "Ctrl-C stops the bench inside the case being run: the cases that ended are reported; status 130.\n"
                 "benches:\n");
    for (unsigned i = 0; i < NBENCHES; i++)
        fprintf(out, "  %-10s %s\n", benches[i].name, benches[i].summary);
}

int cmd_bench(int argc, char **argv)
{
    enum { OPT_JSON = 256, OPT_CSV, OPT_QUICK, OPT_OUT, OPT_HELP, OPT_THREADS, OPT_QUIET, OPT_JOBS };
    static const struct option longopts[] = {
        {"json", no_argument, NULL, OPT_JSON},
        {"csv", no_argument, NULL, OPT_CSV},
        {"quick", no_argument, NULL, OPT_QUICK},
        {"quiet", no_argument, NULL, OPT_QUIET},
        {"out", required_argument, NULL, OPT_OUT},
        {"threads", required_argument, NULL, OPT_THREADS},
        {"jobs", required_argument, NULL, OPT_JOBS},
        {"help", no_argument, NULL, OPT_HELP},
        {NULL, 0, NULL, 0},
    };
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    run_threads_t share = {.base = 1};
    atomic_init(&share.idle, 0);
    atomic_init(&share.running, 0);
    bench_context_t ctx = {.out_dir = "out/bench", .threads = 1, .share = &share,
                           .jobs = cores < 1 ? 1u : cores > BENCH_MAX_JOBS ? BENCH_MAX_JOBS : (unsigned)cores};
    optind = 0; /* glibc: start afresh, forgetting any earlier vector (1 keeps its place in a cluster) */
    int c;
    while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
        switch (c) {
        case OPT_JSON:
        case OPT_CSV: {
            bench_format_t f = c == OPT_JSON ? BENCH_JSON : BENCH_CSV;
            if (ctx.format != BENCH_TEXT && ctx.format != f) {
                fprintf(stderr, "iwarp bench: --json or --csv, not both\n");
                return 2;
            }
            ctx.format = f;
            break;
        }
        case OPT_QUICK: ctx.quick = true; break;
        case OPT_QUIET: ctx.quiet = true; break;
        case OPT_OUT: ctx.out_dir = optarg; break;
        case OPT_JOBS: {
            char *end;
            unsigned long n = strtoul(optarg, &end, 10);
            if (*end != '\0' || n < 1 || n > BENCH_MAX_JOBS) {
                fprintf(stderr, "iwarp bench: --jobs wants 1..%d, not '%s'\n", BENCH_MAX_JOBS, optarg);
                return 2;
            }
            ctx.jobs = (unsigned)n;
            break;
        }
        case OPT_THREADS: {
            char *end;
            unsigned long n = strtoul(optarg, &end, 10);
            if (*end != '\0' || n < 1 || n > 256) {
                fprintf(stderr, "iwarp bench: --threads wants 1..256, not '%s'\n", optarg);
                return 2;
            }
            ctx.threads = (unsigned)n;
            break;
        }
        case OPT_HELP:
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    bool selected[NBENCHES];
    for (unsigned i = 0; i < NBENCHES; i++)
        selected[i] = optind == argc;
    for (int k = optind; k < argc; k++) {
        unsigned i = 0;
        while (i < NBENCHES && strcmp(benches[i].name, argv[k]) != 0)
            i++;
        if (i == NBENCHES) {
            fprintf(stderr, "iwarp bench: no bench named '%s'\n", argv[k]);
            usage(stderr);
            return 2;
        }
        selected[i] = true;
    }

    /* The plots and the table go there at the end of long runs: find out now whether they can. */
    if (plot_make_dirs(ctx.out_dir) != 0 || access(ctx.out_dir, W_OK) != 0) {
        fprintf(stderr, "iwarp bench: cannot write into %s: %s\n", ctx.out_dir, strerror(errno));
        return 2;
    }
    run_meta_t meta;
    run_meta_init(&meta, argc, argv);
    /* A report's plots and table go into a folder of this run's own, never over another run's. */
    char run_dir[4096], base[128];
    const char *parent = ctx.out_dir;
    if (bench_run_dir(parent, ctx.quick, run_dir, sizeof run_dir, base, sizeof base) != 0) {
        fprintf(stderr, "iwarp bench: cannot make a folder in %s: %s\n", parent, strerror(errno));
        return 2;
    }
    ctx.out_dir = run_dir; /* the plots of a --json or --csv run are kept too */
    json_writer_t j;
    csv_table_t csv;
    ctx.jw = &j;
    ctx.csv = &csv;
    csv_init(&csv);
    if (ctx.format == BENCH_JSON) {
        json_init(&j, stdout, true);
        json_begin_object(&j, NULL);
        run_meta_json(&meta, &j);
        json_begin_array(&j, "records");
    }
    int rc = 0;
    double wall_total = 0;
    wall_times_t walls = {.jobs = ctx.jobs};
    interrupt_arm();
    for (unsigned i = 0; i < NBENCHES; i++) {
        if (!selected[i])
            continue;
        if (interrupt_requested())
            break;
        if (ctx.format == BENCH_TEXT)
            printf("== %s: %s ==\n", benches[i].name, benches[i].summary);
        double t0 = bench_now();
        if (benches[i].run(&ctx) != 0)
            rc = 1;
        double wall = bench_now() - t0;
        wall_total += wall;
        walls.seconds[walls.n] = wall;
        walls.names[walls.n++] = benches[i].name;
        if (ctx.format == BENCH_TEXT)
            printf("(%s: %.1f s wall time)\n\n", benches[i].name, wall);
        fflush(stdout);
    }
    if (ctx.format == BENCH_TEXT)
        printf("== %.1f s wall time, up to %u emulated runs at once (--jobs) ==\n", wall_total, ctx.jobs);
    bool interrupted = interrupt_requested();
    interrupt_disarm();
    if (interrupted) {
        fprintf(stderr, "iwarp bench: interrupted: the results are those of the cases that ended\n");
        if (ctx.format == BENCH_TEXT)
            printf("== interrupted (Ctrl-C): the report above is of the cases that ended ==\n");
    }
    if (ctx.format == BENCH_JSON) {
        json_end_array(&j);
        /* The host's time is not a record (records are the same on every host): it follows them. */
        json_begin_object(&j, "wall_seconds");
        for (unsigned i = 0; i < walls.n; i++)
            json_double(&j, walls.names[i], walls.seconds[i]);
        json_double(&j, "total", wall_total);
        json_u64(&j, "jobs", walls.jobs);
        json_end_object(&j);
        json_end_object(&j);
        json_finish(&j);
    }
    /* latest is the newest whole run: an interrupted one keeps its folder, marked partial, and leaves latest be. */
    if (ctx.format != BENCH_TEXT && !interrupted && bench_link_latest(parent, base) != 0)
        fprintf(stderr, "iwarp bench: could not point %s/latest at %s\n", parent, base);
    if (ctx.format == BENCH_CSV) {
        run_meta_csv(&meta, stdout);
        wall_csv(&walls, stdout);
        if (csv_write(&csv, stdout) != 0) {
            fprintf(stderr, "iwarp bench: the CSV table could not be written (out of memory or a write error)\n");
            rc = 1;
        }
    } else if (ctx.format == BENCH_TEXT) {
        if (write_table(&csv, &meta, &walls, ctx.out_dir, interrupted) != 0)
            rc = 1;
        else if (interrupted)
            printf("this run's folder: %s (partial; %s/latest is left at the last whole run)\n", ctx.out_dir, parent);
        else if (bench_link_latest(parent, base) != 0)
            fprintf(stderr, "iwarp bench: could not point %s/latest at %s\n", parent, base);
        else
            printf("this run's folder: %s (also %s/latest)\n", ctx.out_dir, parent);
    }
    csv_free(&csv);
    return interrupted ? 130 : rc;
}
