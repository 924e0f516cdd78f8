#include <math.h>
#include <stdio.h>
#include <time.h>

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
    char text[40] = "";
    if (isfinite(value))
        snprintf(text, sizeof text, "%.10g", value); /* as the JSON has it */
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

double bench_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

const emu_program_t *bench_program(emu_array_t *a, const char *rel, const char *const *defines, size_t ndefines)
{
    char path[1024], err[512];
    iwarp_path(path, sizeof path, rel);
    program_source_t src = {defines, ndefines, NULL, 0};
    isa_image_t image;
    if (program_load(path, &src, &image) != 0)
        return NULL;
    const emu_program_t *p = emu_array_add_program(a, &image, err, sizeof err);
    if (p == NULL)
        fprintf(stderr, "%s: %s\n", path, err);
    return p;
}
