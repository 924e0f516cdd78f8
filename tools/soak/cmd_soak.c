/* iwarp soak: random workloads on random machines for a while, each checked word for word and run twice (one
 * host thread and several) for identical results (docs/soak.md). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "commands.h"
#include "interrupt.h"
#include "soak.h"
#include "soak_cli.h"

int cmd_soak(int argc, char **argv)
{
    soak_cli_t o;
    int parsed = soak_cli_parse(argc, argv, &o);
    if (parsed != 0)
        return parsed > 0 ? 0 : 2;
    interrupt_arm();

    printf("soak: seed %llu, %llu s%s\n", (unsigned long long)o.seed, (unsigned long long)o.seconds,
           o.runs != UINT64_MAX ? " or the run limit" : "");
    fflush(stdout);
    double t0 = bench_now();
    uint64_t n = 0, clocks = 0, words = 0;
    int failed = 0;
    while (n < o.runs && bench_now() - t0 < (double)o.seconds && !interrupt_requested()) {
        soak_case_t c;
        soak_draw(o.seed, n, &c);
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
        if (!o.quiet)
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
