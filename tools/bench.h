/* What every bench shares: its options, the JSON record stream, and helpers to build and time runs. */
#ifndef TOOLS_BENCH_H
#define TOOLS_BENCH_H

#include <stdbool.h>

#include "emu.h"
#include "json.h"

typedef struct bench_context {
    bool json;
    bool quick;
    const char *out_dir;
    unsigned threads; /* host threads for the emulated runs (results do not depend on it) */
    json_writer_t *jw; /* inside the "records" array when json */
} bench_context_t;

typedef struct bench {
    const char *name;
    int (*run)(bench_context_t *ctx);
    const char *summary;
} bench_t;

int bench_speed(bench_context_t *ctx);
int bench_logp(bench_context_t *ctx);
int bench_patterns(bench_context_t *ctx);

/* Starts a record {"bench": ..., "case": ...}; the caller adds fields and calls json_end_object. */
void bench_record_begin(bench_context_t *ctx, const char *bench, const char *case_name);

/* Seconds of a monotonic clock. */
double bench_now(void);

/* Assembles programs/<rel> (with optional defines) and adds it to the array; NULL after printing why. */
const emu_program_t *bench_program(emu_array_t *a, const char *rel, const char *const *defines, size_t ndefines);

#endif
