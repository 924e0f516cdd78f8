/* The command line of `iwarp fem` (docs/fem.md), parsed apart from the experiment so a harness (fuzz/) and the
 * tests can take it alone: no mesh is read and no file is opened. */
#ifndef TOOLS_FEM_FEM_CLI_H
#define TOOLS_FEM_FEM_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "fem_partition.h"

typedef struct fem_cli {
    unsigned width, height, threads;
    const char *cache, *cset_path; /* cset_path NULL unless --cset */
    const char *mesh;
    bool json, run, msgpass, liw; /* liw: the exchange's loops in LIW bundles (ours), not the paper's */
    fem_partitioner_t how; /* --partitioner */
} fem_cli_t;

void fem_cli_usage(FILE *out);
/* Parses argv (argv[0] is the command's name). Returns 0, 1 after --help (the usage is on stdout), or -1 after
 * saying on stderr what is wrong: the option, the value and what it may be. */
int fem_cli_parse(int argc, char **argv, fem_cli_t *o);

#endif
