/* The command line of `iwarp soak`: its limits and seed. */
#include "soak_cli.h"

#include <time.h>

#include "cli_opts.h"
#include "emu.h"

void soak_cli_usage(FILE *out)
{
    fprintf(out, "usage: iwarp soak [--seconds N] [--runs N] [--seed S] [--quiet]\n"
                 "Runs random workloads (message passing random traffic, spool exchanges with the neighbours) on\n"
                 "random arrays (1x1..8x8) and queue depths (1..16): every word each receiver gets is checked,\n"
                 "every cell must end with the count its senders' host twins predict, and a second run on 2..4\n"
                 "host threads must give the same clocks, statistics and state hash (docs/soak.md).\n"
                 "  --seconds N  stop starting new runs after N seconds (default 60)\n"
                 "  --runs N     stop after N runs (default: no limit)\n"
                 "  --seed S     which cases are drawn (default: from the clock; printed, to repeat a soak)\n"
                 "  --quiet      only the summary\n"
                 "Exit status: 0 when every run passed, 1 on a failure (its `iwarp run` command is printed),\n"
                 "130 when interrupted (the summary of the runs so far is printed), 2 on bad usage.\n");
}

static int count_arg(const char *s, const char *name, uint64_t *v)
{
    if (emu_parse_count(s, v) == 0 && *v > 0)
        return 0;
    fprintf(stderr, "iwarp soak: %s wants 1..2^64-1, not '%s'\n", name, s);
    return -1;
}

int soak_cli_parse(int argc, char **argv, soak_cli_t *o)
{
    enum { O_SECONDS = 256, O_RUNS, O_SEED, O_QUIET, O_HELP };
    static const struct option opts[] = {
        {"seconds", required_argument, NULL, O_SECONDS},
        {"runs", required_argument, NULL, O_RUNS},
        {"seed", required_argument, NULL, O_SEED},
        {"quiet", no_argument, NULL, O_QUIET},
        {"help", no_argument, NULL, O_HELP},
        {NULL, 0, NULL, 0},
    };
    *o = (soak_cli_t){60, UINT64_MAX, (uint64_t)time(NULL), false};
    cli_opts_t cli;
    cli_opts_start(&cli, "soak", argc, argv, "h", opts);
    int c;
    while ((c = cli_opts_next(&cli)) != -1) {
        switch (c) {
        case O_SECONDS:
            if (count_arg(optarg, "--seconds", &o->seconds) != 0)
                return -1;
            break;
        case O_RUNS:
            if (count_arg(optarg, "--runs", &o->runs) != 0)
                return -1;
            break;
        case O_SEED:
            if (emu_parse_count(optarg, &o->seed) != 0) {
                fprintf(stderr, "iwarp soak: --seed wants 0..2^64-1, not '%s'\n", optarg);
                return -1;
            }
            break;
        case O_QUIET: o->quiet = true; break;
        case O_HELP:
        case 'h': soak_cli_usage(stdout); return 1;
        default: soak_cli_usage(stderr); return -1;
        }
    }
    if (optind != argc) {
        cli_opts_unexpected(&cli, argv[optind]);
        soak_cli_usage(stderr);
        return -1;
    }
    return 0;
}
