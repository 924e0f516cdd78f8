/* What every bench shares: its options, the JSON record stream, and helpers to build and time runs. */
#ifndef TOOLS_BENCH_H
#define TOOLS_BENCH_H

#include <stdbool.h>
#include <stdint.h>

#include "csv.h"
#include "emu.h"
#include "json.h"
#include "plot.h"
#include "run_loop.h"

typedef enum bench_format {
    BENCH_TEXT, /* the report, with its tables and plots */
    BENCH_JSON, /* one JSON document with a record per measured case */
    BENCH_CSV,  /* the same records as a CSV table: a column per field name */
} bench_format_t;

enum { BENCH_MAX_JOBS = 64 };

/* bench fem --mesh: at most a mesh a series of its plot of words per connection. */
enum { BENCH_FEM_MAX_MESHES = PLOT_MAX_SERIES };

/* A mesh of bench fem: one of the paper's four, or one --mesh names. */
typedef struct bench_fem_mesh {
    const char *name;      /* in the report, the records and the plots: a built-in name, or the file's name */
    const char *file;      /* a user's file as given; NULL for a built-in mesh (the paper's figures are its) */
    struct fem_mesh *mesh; /* the file's, read (a .geo meshed) before any bench ran; NULL for a built-in one */
} bench_fem_mesh_t;

typedef struct bench_context {
    bench_format_t format;
    bool quick;
    bool quiet; /* no progress lines (they show on a terminal otherwise) */
    unsigned jobs; /* emulated runs at once where a bench has independent ones (results do not change) */
    const char *out_dir;
    unsigned fem_partitioner; /* bench fem: the partition (fem_partitioner_t) its products run on */
    const bench_fem_mesh_t *fem_meshes; /* bench fem --mesh: the meshes it runs instead of the paper's four */
    unsigned fem_nmeshes;               /* 0: the paper's four */
    const char *booksim;                /* bench traffic --booksim: the BookSim 2 binary to run beside; NULL: none */
    unsigned booksim_wall_seconds;      /* the limit of one of its runs (bench_booksim.h) */
    unsigned threads;  /* host threads for the emulated runs (results do not depend on it) */
    run_threads_t *share; /* threads + the cores of the job workers left idle (bench_run_jobs), for long runs */
    json_writer_t *jw; /* inside the "records" array when JSON */
    csv_table_t *csv;  /* when CSV */
} bench_context_t;

typedef struct bench {
    const char *name;
    int (*run)(bench_context_t *ctx);
    const char *summary;
} bench_t;

int bench_speed(bench_context_t *ctx);
int bench_logp(bench_context_t *ctx);
int bench_patterns(bench_context_t *ctx);
int bench_traffic(bench_context_t *ctx);
int bench_caching(bench_context_t *ctx);
int bench_copy(bench_context_t *ctx);
int bench_fem(bench_context_t *ctx);
int bench_collectives(bench_context_t *ctx);
/* The exchanges of bench copy (bench_copy_exchange.c), modelled with the table the first half measured. */
struct copy_table;
int bench_copy_exchange(bench_context_t *ctx, const struct copy_table *iwarp);
/* bench fem's Table 4 for a mesh partitioned by each partitioner in fem_partitioner_t's order, beside the
 * paper's figures when it is one of the paper's meshes (bench_fem_table4.c). */
struct fem_analysis;
void bench_fem_table4(bench_context_t *ctx, const bench_fem_mesh_t *mesh, const struct fem_analysis *const by[]);
/* What bench fem calls a user's mesh: the file's name without its folders. */
const char *bench_fem_mesh_name(const char *file);
/* bench fem --mesh: reads the n files (a built-in name is left to be made when the bench runs) into out[n], before
 * any bench runs, so that a broken file stops the run before anything else. -1 after saying on stderr what is
 * wrong (`file:line:col: what`, as iwarp fem says it), nothing kept. */
int bench_fem_meshes_read(const char *const *files, unsigned n, bench_fem_mesh_t *out);
void bench_fem_meshes_free(bench_fem_mesh_t *meshes, unsigned n);
/* The HPF array assignments of bench caching (bench_hpf.c). */
int bench_caching_hpf(bench_context_t *ctx);

/* Whether the benches print their report (text); every format gets the records (the text report's go to
 * results.csv). */
bool bench_report(const bench_context_t *ctx);
/* A record {"bench": ..., "case": ...}: begin it, add its fields, end it. */
void bench_record_begin(bench_context_t *ctx, const char *bench, const char *case_name);
void bench_string(bench_context_t *ctx, const char *key, const char *value);
void bench_u64(bench_context_t *ctx, const char *key, uint64_t value);
void bench_double(bench_context_t *ctx, const char *key, double value); /* non-finite: null / empty */
void bench_null(bench_context_t *ctx, const char *key);
void bench_record_end(bench_context_t *ctx);

/* A new folder parent/DATE-ID[-quick] for one report (base: its name). Returns 0, or -1 with errno. */
int bench_run_dir(const char *parent, bool quick, char *dir, size_t cap, char *base, size_t base_cap);
/* Points parent/latest at the folder `base` (replacing the link at once). Returns 0 or -1. */
int bench_link_latest(const char *parent, const char *base);

/* plot_init, with a note under the title when the run is --quick (so its plots never pass for the full ones). */
void bench_plot_init(const bench_context_t *ctx, plot_t *p, const char *title, const char *x_label, const char *y_label,
                     bool log_x, bool log_y);

/* Calls run(arg, i) for i = 0 .. n-1, ctx->jobs at once on worker threads (skipping what is left after Ctrl-C),
 * with a progress line called `name` on a terminal. bench_jobs.c. */
void bench_run_jobs(const bench_context_t *ctx, const char *name, unsigned n, void (*run)(void *arg, unsigned i),
                    void *arg);

/* Writes the plot as out_dir/FILE and names it in the text report; a failure is said on stderr and the bench
 * goes on (its records do not depend on the plot). */
void bench_write_plot(const bench_context_t *ctx, const plot_t *p, const char *bench, const char *file);

/* Seconds of a monotonic clock. */
double bench_now(void);

#endif
