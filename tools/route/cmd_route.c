/* iwarp route: the ConSet communication compiler (docs/conset.md). */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "commands.h"
#include "conset/cset.h"
#include "conset/pattern.h"
#include "conset/route.h"
#include "conset/route_report.h"
#include "conset/route_tables.h"
#include "file.h"

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

static void usage(FILE *out)
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

/* Status 0, or 1 with a message when something written to stdout did not get there (a full disk, a closed
 * pipe): a report that was cut must not look like a success. */
static int stdout_status(void)
{
    int e = fflush(stdout) != 0 ? errno : 0;
    if (e == 0 && !ferror(stdout))
        return 0;
    fprintf(stderr, "iwarp route: cannot write to standard output: %s\n", strerror(e ? e : EIO));
    return 1;
}

/* Returns 0, -1 on bad usage (with a message), or 1 when --help was printed. */
static int parse_options(int argc, char **argv, route_cli_t *o)
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
    optind = 0; /* glibc: start afresh, forgetting any earlier vector (1 keeps its place in a cluster) */
    int c;
    unsigned long long v;
    while ((c = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
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
        case 'h': usage(stdout); return 1;
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
        usage(stderr);
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

/* The set to compile, from the file or the generator; returns 0, or the exit status. */
static int load_set(const route_cli_t *o, cset_t *set, char *name, size_t cap)
{
    if (o->pattern_given) {
        char err[256];
        unsigned capacity = o->opt.capacity ? o->opt.capacity : CSET_DEFAULT_CAPACITY;
        if (pattern_generate(set, o->pattern, o->width, o->height, o->words, capacity, err, sizeof err) != 0) {
            fprintf(stderr, "iwarp route: --pattern %s: %s\n", pattern_name(o->pattern), err);
            return 2;
        }
        snprintf(name, cap, "pattern %s %ux%u, %u words", pattern_name(o->pattern), o->width, o->height, o->words);
        set->paper = o->opt.paper; /* the written set says which compiler made the tables */
        if (o->cset_out != NULL) {
            file_out_t out;
            char werr[512];
            int rc = file_out_open(&out, o->cset_out, "w", werr, sizeof werr);
            if (rc == 0 && cset_write(set, out.f) != 0) {
                file_out_abort(&out);
                snprintf(werr, sizeof werr, "%s: write failed", o->cset_out);
                rc = -1;
            } else if (rc == 0) {
                rc = file_out_commit(&out, werr, sizeof werr);
            }
            if (rc != 0) {
                fprintf(stderr, "iwarp route: cannot write %s\n", werr);
                return 1;
            }
        }
        return 0;
    }
    cset_diags_t d;
    size_t errors = cset_parse_file(set, o->file, &d);
    cset_print_diags(&d, o->file, stderr);
    cset_diags_free(&d);
    snprintf(name, cap, "%s", o->file);
    return errors ? 2 : 0;
}

int cmd_route(int argc, char **argv)
{
    route_cli_t o;
    int opts = parse_options(argc, argv, &o);
    if (opts != 0)
        return opts > 0 ? stdout_status() : 2;
    cset_t set;
    char name[512], err[512];
    int rc = load_set(&o, &set, name, sizeof name);
    if (rc == 0 && set.paper && o.opt.link_aware) {
        fprintf(stderr, "iwarp route: %s says `compiler paper`, which does not go with --links\n", name);
        rc = 2;
    }
    if (rc != 0) {
        cset_free(&set);
        return rc;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    route_plan_t plan;
    if (route_compile(&set, &o.opt, &plan, err, sizeof err) != 0) {
        fprintf(stderr, "iwarp route: %s: %s\n", name, err);
        cset_free(&set);
        return 1;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    if (o.output != NULL && route_tables_check(&plan, err, sizeof err) != 0) {
        fprintf(stderr, "iwarp route: %s: %s\n", name, err); /* the input's fault: nothing is written */
        rc = 2;
    } else if (o.output != NULL) {
        celldata_t cd;
        if (route_tables(&plan, &cd, err, sizeof err) != 0) {
            fprintf(stderr, "iwarp route: %s: %s\n", o.output, err);
            rc = 1;
        } else if (celldata_write(&cd, o.output, err, sizeof err) != 0) {
            fprintf(stderr, "iwarp route: %s\n", err); /* the message names the file */
            rc = 1;
        }
        celldata_free(&cd);
    }
    if (o.json)
        route_report_json(&plan, name, o.report, seconds, stdout);
    else
        route_report_text(&plan, name, o.report, seconds, stdout);
    if (stdout_status() != 0)
        rc = 1;
    route_plan_free(&plan);
    cset_free(&set);
    return rc;
}
