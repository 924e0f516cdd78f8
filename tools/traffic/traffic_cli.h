/* The command line of `iwarp traffic` (docs/traffic.md), parsed apart from the measurements so a harness (fuzz/)
 * and the tests can take it alone. --machine reads its file; nothing else is opened and nothing runs. */
#ifndef TOOLS_TRAFFIC_TRAFFIC_CLI_H
#define TOOLS_TRAFFIC_TRAFFIC_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "plot.h"
#include "traffic.h"

enum { TRAFFIC_CLI_MAX_PATTERNS = 8, TRAFFIC_CLI_MAX_RATES = PLOT_MAX_POINTS };

typedef struct traffic_cli {
    traffic_config_t cfg;
    traffic_pattern_t patterns[TRAFFIC_CLI_MAX_PATTERNS];
    unsigned npatterns;
    double rates[TRAFFIC_CLI_MAX_RATES];
    unsigned nrates;
    const char *sizes_text;
    bool json;
    bool links;
    bool quiet;
    const char *out_dir;
} traffic_cli_t;

void traffic_cli_usage(FILE *out);
/* Parses argv (argv[0] is the command's name) and checks every pattern and rate against the array. Returns 0, 1
 * after --help (the usage is on stdout), or -1 after saying on stderr what is wrong. */
int traffic_cli_parse(int argc, char **argv, traffic_cli_t *o);

#endif
