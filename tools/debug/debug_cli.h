/* The command line of `iwarp debug` (docs/console.md), parsed apart from the session so a harness (fuzz/) and the
 * tests can take it alone: nothing is loaded and no script is read. The program's options are those of
 * `iwarp run` (tools/run/program_options.h). */
#ifndef TOOLS_DEBUG_DEBUG_CLI_H
#define TOOLS_DEBUG_DEBUG_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "program_options.h"

enum { DEBUG_CLI_MAX_ITEMS = 64 };

typedef struct debug_cli {
    program_options_t p;
    const char *scripts[DEBUG_CLI_MAX_ITEMS], *cmds[DEBUG_CLI_MAX_ITEMS]; /* -x, -e */
    unsigned nscripts, ncmds;
    bool echo, batch;
} debug_cli_t;

void debug_cli_usage(FILE *out);
/* Parses argv (argv[0] is the command's name). Returns 0, 1 after --help (the usage is on stdout), or -1 after
 * saying on stderr what is wrong. */
int debug_cli_parse(int argc, char **argv, debug_cli_t *o);

#endif
