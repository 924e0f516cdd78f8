/* The command line of `iwarp soak` (docs/soak.md), parsed apart from the soak so a harness (fuzz/) and the tests
 * can take it alone: nothing runs. */
#ifndef TOOLS_SOAK_SOAK_CLI_H
#define TOOLS_SOAK_SOAK_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef struct soak_cli {
    uint64_t seconds; /* 60 unless --seconds */
    uint64_t runs;    /* UINT64_MAX (no limit) unless --runs */
    uint64_t seed;    /* the clock's seconds unless --seed */
    bool quiet;
} soak_cli_t;

void soak_cli_usage(FILE *out);
/* Parses argv (argv[0] is the command's name). Returns 0, 1 after --help (the usage is on stdout), or -1 after
 * saying on stderr what is wrong. */
int soak_cli_parse(int argc, char **argv, soak_cli_t *o);

#endif
