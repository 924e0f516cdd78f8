#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "program_load.h"

bool bench_report(const bench_context_t *ctx)
{
    return ctx->format == BENCH_TEXT;
}

void bench_record_begin(bench_context_t *ctx, const char *bench, const char *case_name)
{
    if (ctx->format == BENCH_JSON)
        json_begin_object(ctx->jw, NULL);
    else
        csv_row(ctx->csv);
    bench_string(ctx, "bench", bench);
    bench_string(ctx, "case", case_name);
}

void bench_string(bench_context_t *ctx, const char *key, const char *value)
{
    if (ctx->format == BENCH_JSON)
        json_string(ctx->jw, key, value);
    else
        csv_set(ctx->csv, key, value);
}

void bench_u64(bench_context_t *ctx, const char *key, uint64_t value)
{
    char text[32];
    snprintf(text, sizeof text, "%llu", (unsigned long long)value);
    if (ctx->format == BENCH_JSON)
        json_u64(ctx->jw, key, value);
    else
        csv_set(ctx->csv, key, text);
}

void bench_double(bench_context_t *ctx, const char *key, double value)
{
    char text[32] = "";
    if (isfinite(value))
        json_format_double(text, value); /* as the JSON has it */
    if (ctx->format == BENCH_JSON)
        json_double(ctx->jw, key, value);
    else
        csv_set(ctx->csv, key, text);
}

void bench_null(bench_context_t *ctx, const char *key)
{
    if (ctx->format == BENCH_JSON)
        json_null(ctx->jw, key);
    else
        csv_set(ctx->csv, key, "");
}

void bench_record_end(bench_context_t *ctx)
{
    if (ctx->format == BENCH_JSON)
        json_end_object(ctx->jw);
}

void bench_write_plot(const bench_context_t *ctx, const plot_t *p, const char *bench, const char *file)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", ctx->out_dir, file);
    char err[1024];
    if (plot_write_all(p, path, err, sizeof err) != 0)
        fprintf(stderr, "bench %s: cannot write a plot: %s\n", bench, err);
    else if (bench_report(ctx))
        printf("plot: %s\n", path);
}

double bench_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int bench_run_dir(const char *parent, bool quick, char *dir, size_t cap, char *base, size_t base_cap)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    struct tm utc;
    gmtime_r(&t.tv_sec, &utc);
    char stamp[32];
    strftime(stamp, sizeof stamp, "%Y-%m-%dT%H%M%S", &utc);
    /* A short id tells apart two runs started in the same second (the process and the nanoseconds). */
    unsigned id = ((unsigned)getpid() * 2654435761u ^ (unsigned)t.tv_nsec) & 0xffffu;
    for (unsigned attempt = 0; attempt < 16; attempt++, id = (id + 1) & 0xffffu) {
        snprintf(base, base_cap, "%s-%04x%s", stamp, id, quick ? "-quick" : "");
        snprintf(dir, cap, "%s/%s", parent, base);
        if (mkdir(dir, 0777) == 0)
            return 0;
        if (errno != EEXIST)
            return -1;
    }
    return -1;
}

int bench_link_latest(const char *parent, const char *base)
{
    char tmp[4096], link[4096];
    snprintf(tmp, sizeof tmp, "%s/.latest-%d", parent, (int)getpid());
    snprintf(link, sizeof link, "%s/latest", parent);
    unlink(tmp);
    /* A new link renamed over the old: readers never see "latest" missing. */
    if (symlink(base, tmp) != 0)
        return -1;
    if (rename(tmp, link) != 0) {
        unlink(tmp);
        return -1;
    }
    return 0;
}

void bench_plot_init(const bench_context_t *ctx, plot_t *p, const char *title, const char *x_label, const char *y_label,
                     bool log_x, bool log_y)
{
    plot_init(p, title, x_label, y_label, log_x, log_y);
    if (ctx->quick)
        p->note = "--quick: fewer sizes and cases than the full bench";
}
