/* The command line of `iwarp run`: the program's options (program_options.c) and the run's own. */
#include "run_cli.h"

#include <string.h>

#include "cli_opts.h"
#include "emu.h"

void run_cli_usage(FILE *out)
{
    fprintf(out,
            "usage: iwarp run [options] PROGRAM.s|PROGRAM.img|DESCRIPTION.run\n"
            "Runs a program on every cell of the array, or what a run description (docs/run.md) says, until\n"
            "all cells halt, one faults, the network deadlocks or livelocks, or the cycle limit.\n"
            "  --array WxH         array size (default 1x1 for a single program)\n"
            "  --threads N|auto    host threads (results do not depend on it); auto: tried as the run goes\n"
            "  --args A,B,...      values for a0..a7 (decimal or 0x hex)\n"
            "  --machine FILE      machine description (docs/machine.md)\n"
            "  --set KEY=VALUE     override one machine key (repeatable)\n"
            "  -D NAME=VALUE       assembler define (repeatable)\n"
            "  -I DIR              assembler include folder (repeatable)\n"
            "  --max-cycles N      stop after N clocks (default 1000000000)\n"
            "  --json              machine-readable report on stdout\n"
            "  --quiet             no report, only the exit status\n"
            "  --record FILE       record the run for `iwarp view FILE` (docs/trace.md; runs on one thread)\n"
            "  --state-hash-at N   run until clock N (or the end) and print the state hash, as `hash` in iwarp debug\n"
            "  --phases            a ConSet run: print only its per-phase account (docs/conset.md)\n"
            "  --no-phases         no per-phase account\n"
            "On a terminal a progress line shows the clock and its rate; Ctrl-C stops the run and prints the report\n"
            "so far.\n"
            "Exit status: 0 when every cell halted, 1 on a fault, deadlock, livelock or limit (or a per-phase\n"
            "account or recording that could not be made whole), 2 on bad usage or input, 130 when interrupted.\n");
}

int run_cli_parse(int argc, char **argv, run_cli_t *o)
{
    enum { OPT_JSON = 256, OPT_QUIET, OPT_HELP, OPT_RECORD, OPT_HASH_AT, OPT_PHASES, OPT_NO_PHASES };
    static const struct option longopts[] = {
        PROGRAM_LONG_OPTIONS,
        {"json", no_argument, NULL, OPT_JSON},
        {"quiet", no_argument, NULL, OPT_QUIET},
        {"help", no_argument, NULL, OPT_HELP},
        {"record", required_argument, NULL, OPT_RECORD},
        {"state-hash-at", required_argument, NULL, OPT_HASH_AT},
        {"phases", no_argument, NULL, OPT_PHASES},
        {"no-phases", no_argument, NULL, OPT_NO_PHASES},
        {NULL, 0, NULL, 0},
    };
    memset(o, 0, sizeof *o);
    program_options_init(&o->p);
    cli_opts_t cli;
    cli_opts_start(&cli, "run", argc, argv, PROGRAM_SHORT_OPTIONS "h", longopts);
    int c;
    while ((c = cli_opts_next(&cli)) != -1) {
        int took = program_options_take(&o->p, c, optarg, "run");
        if (took != 0) {
            if (took < 0)
                return -1;
            continue;
        }
        switch (c) {
        case OPT_JSON: o->json = true; break;
        case OPT_QUIET: o->quiet = true; break;
        case OPT_RECORD: o->record = optarg; break;
        case OPT_PHASES: o->phases_only = true; break;
        case OPT_NO_PHASES: o->no_phases = true; break;
        case OPT_HASH_AT: {
            if (emu_parse_count(optarg, &o->hash_at) != 0 || o->hash_at == 0) {
                fprintf(stderr, "iwarp run: --state-hash-at wants a clock 1..2^64-1, not '%s'\n", optarg);
                return -1;
            }
            break;
        }
        case OPT_HELP:
        case 'h': run_cli_usage(stdout); return 1;
        default: return -1;
        }
    }
    if (optind != argc - 1) {
        run_cli_usage(stderr);
        return -1;
    }
    if (o->phases_only && (o->no_phases || o->json || o->quiet)) {
        fprintf(stderr, "iwarp run: --phases goes with none of --no-phases, --json, --quiet\n");
        return -1;
    }
    o->p.file = argv[optind];
    return 0;
}
