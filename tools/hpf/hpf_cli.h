/* The command line of `iwarp hpf` (docs/deposit.md), parsed apart from the run so a harness (fuzz/) and the
 * tests can take it alone: nothing runs and no file is opened. */
#ifndef TOOLS_HPF_HPF_CLI_H
#define TOOLS_HPF_HPF_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "hpf.h"

typedef struct hpf_cli {
    const char *assignment;
    unsigned n0, n1, task, width, height, iterations;
    hpf_format_t format;
    bool run[2]; /* uncached, cached */
    bool check_each, json;
} hpf_cli_t;

void hpf_cli_usage(FILE *out);
/* Parses argv (argv[0] is the command's name). Returns 0, 1 after --help (the usage is on stdout), or -1 after
 * saying on stderr what is wrong: the option, the value and what it may be. */
int hpf_cli_parse(int argc, char **argv, hpf_cli_t *o);

#endif
