/* The command line of `iwarp dis` (docs/assembly.md), parsed apart from the disassembler so a harness (fuzz/) and
 * the tests can take it alone: no image is read. getopt_long through common/cli_opts.h, as every command. */
#ifndef TOOLS_DIS_DIS_CLI_H
#define TOOLS_DIS_DIS_CLI_H

#include <stdio.h>

typedef struct dis_cli {
    unsigned flags; /* DIS_NO_SYMBOLS, DIS_RAW, DIS_LINES (dis.h) */
    const char *path;
} dis_cli_t;

void dis_cli_usage(FILE *out);
/* Parses argv (argv[0] is the command's name). Returns 0, 1 after --help (the usage is on stdout), or -1 after
 * saying on stderr what is wrong. */
int dis_cli_parse(int argc, char **argv, dis_cli_t *o);

#endif
