/* The command line of `iwarp route`: every value checked here, before a set is read or generated. */
#include "route_cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli_opts.h"
#include "conset/cset.h"
#include "emu.h"
#include "file.h"

void route_cli_usage(FILE *out)
{
    fprintf(
        out,
        "usage: iwarp route [options] FILE.cset\n"
        "       iwarp route --pattern torus|butterfly|alltoall --words K [options]\n"
        "Partitions a connection set into phases, routes every connection (APR) and schedules each phase (AS),\n"
        "then writes each cell's phase tables as a cell data file and prints a report (docs/conset.md).\n"
        "  -o, --output FILE   cell data file of the tables (without it nothing is written)\n"
        "  --report            list every connection of every phase with its path, channels and schedule\n"
        "  --json              the report as JSON on stdout\n"
        "  --capacity N        channels per cell the connections may use, 1..16 (default: the set's, or 12)\n"
        "  --iterations K      rip-up-and-reroute rounds allowed for each phase removal (default %u)\n"
        "  --seed S            seed of the rerouting order (default %u); the same seed gives the same output\n"
        "  --links             schedule the links too: connections sharing a physical link never overlap\n"
        "                      (congestion-aware; default: the ConSet paper's AS, which looks at the two ends only)\n"
        "  --paper             only what the ConSet paper's compiler does (section 4.4): its node costs and\n"
        "                      rip-up rounds, its greedy AS; no balancing, tightening or other schedules\n"
        "  --one-timeline      schedule each cell's sends and receives on one timeline (code without LIW\n"
        "                      instructions, as the ConSet paper's finite element exchange: docs/fem.md)\n"
        "pattern generation (the ConSet paper, section 5.1):\n"
        "  --pattern NAME      torus, butterfly or alltoall instead of FILE\n"
        "  --words K           words per connection\n"
        "  --array WxH         array size (default 8x8)\n"
        "  --cset FILE         also write the generated connection set\n"
        "Exit status: 0 on success, 1 when an output cannot be written, 2 on bad usage or input.\n",
        ROUTE_DEFAULT_ITERATIONS, ROUTE_DEFAULT_SEED);
}

/* A number as the .cset syntax writes them: decimal digits only (no sign, base prefix, spaces or trailing text),
 * 0..max. */
static int parse_uint(const char *s, unsigned long long max, unsigned long long *v)
{
    char *end;
    if (*s < '0' || *s > '9')
        return -1;
    errno = 0;
    *v = strtoull(s, &end, 10);
    return *end == '\0' && errno == 0 && *v <= max ? 0 : -1;
}

int route_cli_parse(int argc, char **argv, route_cli_t *o)
{
    enum {
        OPT_REPORT = 256,
        OPT_JSON,
        OPT_CAPACITY,
        OPT_ITERATIONS,
        OPT_SEED,
        OPT_LINKS,
        OPT_PAPER,
        OPT_ONE_TIMELINE,
        OPT_PATTERN,
        OPT_WORDS,
        OPT_ARRAY,
        OPT_CSET,
        OPT_HELP
    };
    static const struct option longopts[] = {
        {"output", required_argument, NULL, 'o'},
        {"report", no_argument, NULL, OPT_REPORT},
        {"json", no_argument, NULL, OPT_JSON},
        {"capacity", required_argument, NULL, OPT_CAPACITY},
        {"iterations", required_argument, NULL, OPT_ITERATIONS},
        {"seed", required_argument, NULL, OPT_SEED},
        {"links", no_argument, NULL, OPT_LINKS},
        {"paper", no_argument, NULL, OPT_PAPER},
        {"one-timeline", no_argument, NULL, OPT_ONE_TIMELINE},
        {"pattern", required_argument, NULL, OPT_PATTERN},
        {"words", required_argument, NULL, OPT_WORDS},
        {"array", required_argument, NULL, OPT_ARRAY},
        {"cset", required_argument, NULL, OPT_CSET},
        {"help", no_argument, NULL, OPT_HELP},
        {NULL, 0, NULL, 0},
    };
    memset(o, 0, sizeof *o);
    route_options_init(&o->opt);
    o->width = o->height = CSET_DEFAULT_SIDE;
    cli_opts_t cli;
    cli_opts_start(&cli, "route", argc, argv, "o:h", longopts);
    int c;
    unsigned long long v;
    while ((c = cli_opts_next(&cli)) != -1) {
        switch (c) {
        case 'o': o->output = optarg; break;
        case OPT_REPORT: o->report = true; break;
        case OPT_JSON: o->json = true; break;
        case OPT_LINKS: o->opt.link_aware = true; break;
        case OPT_PAPER: o->opt.paper = true; break;
        case OPT_ONE_TIMELINE: o->opt.one_timeline = true; break;
        case OPT_CAPACITY:
            if (parse_uint(optarg, CSET_MAX_CAPACITY, &v) != 0 || v < 1) {
                fprintf(stderr, "iwarp route: --capacity wants 1..%u, not '%s'\n", CSET_MAX_CAPACITY, optarg);
                return -1;
            }
            o->opt.capacity = (unsigned)v;
            break;
        case OPT_ITERATIONS:
            if (parse_uint(optarg, 100000, &v) != 0) {
                fprintf(stderr, "iwarp route: --iterations wants 0..100000, not '%s'\n", optarg);
                return -1;
            }
            o->opt.iterations = (unsigned)v;
            break;
        case OPT_SEED:
            if (parse_uint(optarg, UINT64_MAX, &v) != 0) {
                fprintf(stderr, "iwarp route: --seed wants 0..%llu, not '%s'\n", (unsigned long long)UINT64_MAX,
                        optarg);
                return -1;
            }
            o->opt.seed = v;
            break;
        case OPT_PATTERN:
            if (pattern_parse(optarg, &o->pattern) != 0) {
                fprintf(stderr, "iwarp route: --pattern wants torus, butterfly or alltoall, not '%s'\n", optarg);
                return -1;
            }
            o->pattern_given = true;
            break;
        case OPT_WORDS:
            if (parse_uint(optarg, CSET_MAX_WORDS, &v) != 0 || v < 1) {
                fprintf(stderr, "iwarp route: --words wants 1..%u, not '%s'\n", CSET_MAX_WORDS, optarg);
                return -1;
            }
            o->words = (uint32_t)v;
            o->words_given = true;
            break;
        case OPT_ARRAY:
            if (emu_parse_array_size(optarg, &o->width, &o->height) != 0) {
                fprintf(stderr, "iwarp route: --array wants WxH with sides 1..%u, not '%s'\n", CSET_MAX_SIDE, optarg);
                return -1;
            }
            o->array_given = true;
            break;
        case OPT_CSET: o->cset_out = optarg; break;
        case OPT_HELP:
        case 'h': route_cli_usage(stdout); return 1;
        default: return -1;
        }
    }
    if (o->opt.paper && o->opt.link_aware) {
        fprintf(stderr, "iwarp route: --paper and --links do not go together (the paper left the congestion-aware "
                        "scheduler for later)\n");
        return -1;
    }
    if (o->pattern_given) {
        if (optind != argc || !o->words_given) {
            fprintf(stderr, "iwarp route: --pattern takes no FILE and needs --words K\n");
            return -1;
        }
        return 0;
    }
    if (o->words_given || o->array_given || o->cset_out != NULL) {
        fprintf(stderr, "iwarp route: --words, --array and --cset go with --pattern\n");
        return -1;
    }
    if (optind != argc - 1) {
        route_cli_usage(stderr);
        return -1;
    }
    o->file = argv[optind];
    char err[1024];
    if (file_out_not_input(o->output, &o->file, 1, err, sizeof err) != 0) {
        fprintf(stderr, "iwarp route: -o %s\n", err);
        return -1;
    }
    return 0;
}
