/* The command line of `iwarp bench` and the suite it names (docs/bench.md), parsed apart from the runs so a
 * harness (fuzz/) and the tests can take it alone: nothing runs and no folder is made. */
#ifndef TOOLS_BENCH_BENCH_CLI_H
#define TOOLS_BENCH_BENCH_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "bench.h"

enum { BENCH_COUNT = 8 };

/* The benches, in the order a run takes them. */
extern const bench_t *const bench_suite; /* BENCH_COUNT of them */

typedef struct bench_cli {
    bench_format_t format;
    bool quick, quiet;
    const char *out_dir;
    unsigned threads, jobs;
    unsigned fem_partitioner;                     /* fem_partitioner_t: bench fem's products run on it */
    const char *fem_meshes[BENCH_FEM_MAX_MESHES]; /* --mesh: bench fem's meshes instead of the paper's four */
    unsigned fem_nmeshes;
    const char *booksim; /* --booksim: a BookSim 2 binary bench traffic runs beside its own points; NULL: none */
    bool selected[BENCH_COUNT]; /* every one when none is named */
} bench_cli_t;

void bench_cli_usage(FILE *out);
/* Parses argv (argv[0] is the command's name). Returns 0, 1 after --help (the usage is on stdout), or -1 after
 * saying on stderr what is wrong. */
int bench_cli_parse(int argc, char **argv, bench_cli_t *o);

#endif
