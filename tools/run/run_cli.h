/* The command line of `iwarp run` (docs/run.md), parsed apart from the run so a harness (fuzz/) and the tests can
 * take it alone: nothing is loaded, assembled or run. The program's options are program_options.h's, shared with
 * debug, view and demo. */
#ifndef TOOLS_RUN_RUN_CLI_H
#define TOOLS_RUN_RUN_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "program_options.h"

typedef struct run_cli {
    program_options_t p;
    bool json;
    bool quiet;
    const char *record;
    uint64_t hash_at;
    bool phases_only; /* --phases */
    bool no_phases;   /* --no-phases */
} run_cli_t;

void run_cli_usage(FILE *out);
/* Parses argv (argv[0] is the command's name). Returns 0, 1 after --help (the usage is on stdout), or -1 after
 * saying on stderr what is wrong. */
int run_cli_parse(int argc, char **argv, run_cli_t *o);

#endif
