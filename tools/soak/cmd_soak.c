/* iwarp soak: random workloads on random machines for a while, each checked word for word and run twice (one
 * host thread and several) for identical results (docs/soak.md). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "commands.h"
#include "interrupt.h"
#include "soak.h"

static void usage(FILE *out)
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

int cmd_soak(int argc, char **argv)
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
    uint64_t seconds = 60, runs = UINT64_MAX, seed = (uint64_t)time(NULL);
    int quiet = 0;
    optind = 0; /* glibc: start afresh */
    int o;
    while ((o = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (o) {
        case O_SECONDS:
            if (count_arg(optarg, "--seconds", &seconds) != 0)
                return 2;
            break;
        case O_RUNS:
            if (count_arg(optarg, "--runs", &runs) != 0)
                return 2;
            break;
        case O_SEED:
            if (emu_parse_count(optarg, &seed) != 0) {
                fprintf(stderr, "iwarp soak: --seed wants 0..2^64-1, not '%s'\n", optarg);
                return 2;
            }
            break;
        case O_QUIET: quiet = 1; break;
        case O_HELP:
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (optind != argc) {
        usage(stderr);
        return 2;
    }
    interrupt_arm();

    printf("soak: seed %llu, %llu s%s\n", (unsigned long long)seed, (unsigned long long)seconds,
           runs != UINT64_MAX ? " or the run limit" : "");
    fflush(stdout);
    double t0 = bench_now();
    uint64_t n = 0, clocks = 0, words = 0;
    int failed = 0;
    while (n < runs && bench_now() - t0 < (double)seconds && !interrupt_requested()) {
        soak_case_t c;
        soak_draw(seed, n, &c);
        soak_result_t r;
        soak_run(&c, &r);
        char cmd[512];
        soak_command(&c, cmd, sizeof cmd);
        n++;
        if (!r.ok) {
            printf("FAILED run %llu: %s\n  %s\n", (unsigned long long)n, r.why, cmd);
            failed = 1;
            break;
        }
        clocks += r.clocks;
        words += r.words;
        if (!quiet)
            printf("run %4llu ok  %8llu clocks %9llu words  %s\n", (unsigned long long)n, (unsigned long long)r.clocks,
                   (unsigned long long)r.words, cmd);
        fflush(stdout);
    }
    bool interrupted = interrupt_requested();
    interrupt_disarm();
    printf("soak: %llu runs%s, %llu clocks emulated (each run twice), %llu words checked, %.1f s%s\n",
           (unsigned long long)n, failed ? " (the last failed)" : "", (unsigned long long)clocks,
           (unsigned long long)words, bench_now() - t0, interrupted ? ", interrupted" : "");
    return failed ? 1 : interrupted ? 130 : 0;
}
