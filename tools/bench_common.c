#include <stdio.h>
#include <time.h>

#include "bench.h"
#include "program_load.h"

void bench_record_begin(bench_context_t *ctx, const char *bench, const char *case_name)
{
    json_begin_object(ctx->jw, NULL);
    json_string(ctx->jw, "bench", bench);
    json_string(ctx->jw, "case", case_name);
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
