/* iwarp bench: the benchmark suite. Each bench prints a table and, with --json or --csv, one record per case. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "bench_booksim.h"
#include "bench_cli.h"
#include "commands.h"
#include "file.h"
#include "interrupt.h"
#include "plot.h"
#include "run_meta.h"


/* The report's records as one table beside its plots, for a spreadsheet. */
/* Host seconds each bench took: beside the records, never in them. */
typedef struct wall_times {
    const char *names[BENCH_COUNT];
    double seconds[BENCH_COUNT];
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

int cmd_bench(int argc, char **argv)
{
    bench_cli_t o;
    int prc = bench_cli_parse(argc, argv, &o);
    if (prc != 0)
        return prc > 0 ? 0 : 2;
    run_threads_t share = {.base = 1};
    atomic_init(&share.idle, 0);
    atomic_init(&share.running, 0);
    bench_context_t ctx = {.format = o.format, .quick = o.quick, .quiet = o.quiet, .out_dir = o.out_dir,
                           .threads = o.threads, .jobs = o.jobs, .share = &share, .fem_partitioner = o.fem_partitioner};
    const bool *selected = o.selected;
    const bench_t *benches = bench_suite;
    /* The plots and the table go there at the end of long runs: find out now whether they can. */
    if (plot_make_dirs(ctx.out_dir) != 0 || access(ctx.out_dir, W_OK) != 0) {
        fprintf(stderr, "iwarp bench: cannot write into %s: %s\n", ctx.out_dir, strerror(errno));
        return 2;
    }
    /* The BookSim binary and its limit, checked now: a mistyped path must not cost the benches before traffic. */
    if (o.booksim != NULL) {
        char why[512];
        if (booksim_check(o.booksim, why, sizeof why) != 0) {
            fprintf(stderr, "iwarp bench: --booksim %s: %s\n", o.booksim, why);
            return 2;
        }
        if (booksim_wall_limit(&ctx.booksim_wall_seconds, why, sizeof why) != 0) {
            fprintf(stderr, "iwarp bench: %s\n", why);
            return 2;
        }
        ctx.booksim = o.booksim;
    }
    /* bench fem's meshes, read now: a broken one stops the run before any bench runs or a folder is made. */
    bench_fem_mesh_t meshes[BENCH_FEM_MAX_MESHES];
    if (bench_fem_meshes_read(o.fem_meshes, o.fem_nmeshes, meshes) != 0)
        return 1;
    ctx.fem_meshes = meshes;
    ctx.fem_nmeshes = o.fem_nmeshes;
    run_meta_t meta;
    run_meta_init(&meta, argc, argv);
    /* A report's plots and table go into a folder of this run's own, never over another run's. */
    char run_dir[4096], base[128];
    const char *parent = ctx.out_dir;
    if (bench_run_dir(parent, ctx.quick, run_dir, sizeof run_dir, base, sizeof base) != 0) {
        fprintf(stderr, "iwarp bench: cannot make a folder in %s: %s\n", parent, strerror(errno));
        bench_fem_meshes_free(meshes, o.fem_nmeshes);
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
    for (unsigned i = 0; i < BENCH_COUNT; i++) {
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
    bench_fem_meshes_free(meshes, o.fem_nmeshes);
    return interrupted ? 130 : rc;
}
