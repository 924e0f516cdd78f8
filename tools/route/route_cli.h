/* The command line of `iwarp route` (docs/conset.md), parsed apart from the compiler so a harness (fuzz/) and the
 * tests can take it alone: no set is read or generated and nothing is written (-o is compared with FILE by stat). */
#ifndef TOOLS_ROUTE_ROUTE_CLI_H
#define TOOLS_ROUTE_ROUTE_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "conset/pattern.h"
#include "conset/route.h"

typedef struct route_cli {
    const char *file;
    const char *output;
    const char *cset_out;
    bool report, json;
    route_options_t opt;
    bool pattern_given, words_given, array_given;
    pattern_kind_t pattern;
    uint32_t words;
    unsigned width, height;
} route_cli_t;

void route_cli_usage(FILE *out);
/* Parses argv (argv[0] is the command's name). Returns 0, 1 after --help (the usage is on stdout), or -1 after
 * saying on stderr what is wrong. */
int route_cli_parse(int argc, char **argv, route_cli_t *o);

#endif
