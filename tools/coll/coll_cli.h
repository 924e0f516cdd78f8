/* The command line of `iwarp coll` (docs/collectives.md), parsed apart from the run so a harness (fuzz/) and the
 * tests can take it alone: nothing runs and no file is opened. */
#ifndef TOOLS_COLL_COLL_CLI_H
#define TOOLS_COLL_COLL_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "coll.h"

typedef struct coll_cli {
    coll_case_t c; /* checked by coll_case_check, lda filled in */
    unsigned threads;
    bool json, model;
} coll_cli_t;

void coll_cli_usage(FILE *out);
/* Parses argv (argv[0] is the command's name). Returns 0, 1 after --help (the usage is on stdout), or -1 after
 * saying on stderr what is wrong: the option, the value and what it may be. Notes on options the case does not
 * use go to stderr too. */
int coll_cli_parse(int argc, char **argv, coll_cli_t *o);

#endif
