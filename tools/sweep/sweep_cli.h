/* The command line of `iwarp sweep` (docs/sweep.md), parsed apart from the sweep so a harness (fuzz/) and the
 * tests can take it alone: the sweep file is not read and nothing runs. */
#ifndef TOOLS_SWEEP_SWEEP_CLI_H
#define TOOLS_SWEEP_SWEEP_CLI_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

enum { SWEEP_CLI_MAX_SBATCH = 16, SWEEP_CLI_MAX_PLOTS = 4 };
/* --max-output's default: far above what any iwarp command prints as JSON (a 128x128 `run --json` is about
 * 20 MiB), and a bound on what a sweep file from anyone can make a sweep hold per case. */
#define SWEEP_DEFAULT_MAX_OUTPUT (256ull << 20)

typedef struct sweep_cli {
    const char *file;
    char results[PATH_MAX], csv[PATH_MAX];
    const char *results_arg, *csv_arg, *slurm;
    unsigned jobs, limit;
    uint64_t max_output; /* --max-output, bytes */
    int only_case;
    bool list, gather, submit, wait, quiet;
    bool log_y; /* --log-y: the plots' y axes logarithmic */
    const char *sbatch[SWEEP_CLI_MAX_SBATCH];
    unsigned nsbatch;
    const char *plots[SWEEP_CLI_MAX_PLOTS];
    unsigned nplots;
} sweep_cli_t;

void sweep_cli_usage(FILE *out);
/* Parses argv (argv[0] is the command's name); results and csv are left for the command to make absolute.
 * Returns 0, 1 after --help (the usage is on stdout), or -1 after saying on stderr what is wrong. */
int sweep_cli_parse(int argc, char **argv, sweep_cli_t *o);

#endif
