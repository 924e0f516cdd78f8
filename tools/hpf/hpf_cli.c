/* The command line of `iwarp hpf`: every value checked against its range here, before anything runs. */
#include "hpf_cli.h"

#include <stdlib.h>
#include <string.h>

#include "cli_opts.h"
#include "emu.h"

void hpf_cli_usage(FILE *out)
{
    fprintf(out,
            "usage: iwarp hpf 'S(DIST,DIST) -> D(DIST,DIST)' [options]\n"
            "Assigns an N0 x N1 array distributed over a source task (cells 0 .. T-1) to one distributed over a\n"
            "destination task (cells T .. 2T-1) on the emulated cells, uncached and cached, and prints the latency\n"
            "of every iteration. DIST is ':', BLOCK, CYCLIC or CYCLIC(k); dimension 0 is the contiguous one.\n"
            "  --size N0xN1        the array (default 512x512)\n"
            "  --task T            cells per task, 1..%u (default 16)\n"
            "  --array WxH         the torus (default 8x8; it must hold 2T cells)\n"
            "  --iterations N      assignments in a row, 1..%u (default 8)\n"
            "  --format F          blocks (address-data blocks, default) or pairs (address-data pairs)\n"
            "  --only MODE         uncached or cached alone\n"
            "  --check-each        new values and a check of every element every iteration (else after the last)\n"
            "  --json              one record per iteration on stdout\n"
            "Exit status: 0 when every element arrived right, 1 when a run failed or an element is wrong, 2 on bad\n"
            "usage, 130 when interrupted.\n",
            HPF_MAX_TASK, HPF_MAX_ITERATIONS);
}

/* N0xN1: two numbers of digits only (no sign, no space), each 1..65536. */
static int parse_size(const char *s, unsigned *n0, unsigned *n1)
{
    char *end;
    if (*s < '0' || *s > '9')
        return -1;
    unsigned long a = strtoul(s, &end, 10);
    if (*end != 'x' || end[1] < '0' || end[1] > '9')
        return -1;
    unsigned long b = strtoul(end + 1, &end, 10);
    if (*end != '\0' || a < 1 || b < 1 || a > 65536 || b > 65536)
        return -1;
    *n0 = (unsigned)a;
    *n1 = (unsigned)b;
    return 0;
}

static int parse_unsigned(const char *s, unsigned lo, unsigned hi, unsigned *out)
{
    char *end;
    unsigned long v = strtoul(s, &end, 10);
    if (end == s || *end != '\0' || v < lo || v > hi)
        return -1;
    *out = (unsigned)v;
    return 0;
}

int hpf_cli_parse(int argc, char **argv, hpf_cli_t *o)
{
    enum { OPT_SIZE = 256, OPT_TASK, OPT_ARRAY, OPT_ITER, OPT_FORMAT, OPT_ONLY, OPT_CHECK, OPT_JSON, OPT_HELP };
    static const struct option opts[] = {
        {"size", required_argument, NULL, OPT_SIZE},     {"task", required_argument, NULL, OPT_TASK},
        {"array", required_argument, NULL, OPT_ARRAY},   {"iterations", required_argument, NULL, OPT_ITER},
        {"format", required_argument, NULL, OPT_FORMAT}, {"only", required_argument, NULL, OPT_ONLY},
        {"check-each", no_argument, NULL, OPT_CHECK},    {"json", no_argument, NULL, OPT_JSON},
        {"help", no_argument, NULL, OPT_HELP},           {NULL, 0, NULL, 0},
    };
    *o = (hpf_cli_t){NULL, 512, 512, 16, 8, 8, 8, HPF_FORMAT_BLOCKS, {true, true}, false, false};
    cli_opts_t cli;
    cli_opts_start(&cli, "hpf", argc, argv, "", opts);
    int c;
    while ((c = cli_opts_next(&cli)) != -1) {
        const char *want = NULL; /* what the option takes, when its value is bad */
        char range[64];
        switch (c) {
        case OPT_SIZE:
            if (parse_size(optarg, &o->n0, &o->n1) != 0)
                want = "N0xN1, each 1 to 65536";
            break;
        case OPT_TASK:
            snprintf(range, sizeof range, "1 to %d cells", HPF_MAX_TASK);
            if (parse_unsigned(optarg, 1, HPF_MAX_TASK, &o->task) != 0)
                want = range;
            break;
        case OPT_ARRAY:
            snprintf(range, sizeof range, "WxH, sides 1 to %d", EMU_MAX_DIM);
            if (emu_parse_array_size(optarg, &o->width, &o->height) != 0)
                want = range;
            break;
        case OPT_ITER:
            snprintf(range, sizeof range, "1 to %d", HPF_MAX_ITERATIONS);
            if (parse_unsigned(optarg, 1, HPF_MAX_ITERATIONS, &o->iterations) != 0)
                want = range;
            break;
        case OPT_FORMAT:
            if (strcmp(optarg, "blocks") != 0 && strcmp(optarg, "pairs") != 0)
                want = "blocks or pairs";
            o->format = strcmp(optarg, "pairs") == 0 ? HPF_FORMAT_PAIRS : HPF_FORMAT_BLOCKS;
            break;
        case OPT_ONLY:
            if (strcmp(optarg, "cached") != 0 && strcmp(optarg, "uncached") != 0)
                want = "uncached or cached";
            o->run[0] = strcmp(optarg, "uncached") == 0;
            o->run[1] = !o->run[0];
            break;
        case OPT_CHECK: o->check_each = true; break;
        case OPT_JSON: o->json = true; break;
        case OPT_HELP: hpf_cli_usage(stdout); return 1;
        default: hpf_cli_usage(stderr); return -1;
        }
        if (want != NULL) {
            fprintf(stderr, "iwarp hpf: bad value '%s' for --%s (%s)\n", optarg, opts[c - OPT_SIZE].name, want);
            return -1;
        }
    }
    if (optind + 1 != argc) {
        fprintf(stderr, "iwarp hpf: one assignment expected, such as 'S(:,BLOCK) -> D(:,CYCLIC(4))'\n");
        hpf_cli_usage(stderr);
        return -1;
    }
    o->assignment = argv[optind];
    unsigned cells = o->width * o->height;
    if (cells < 2 * o->task) {
        if (cells < 2)
            fprintf(stderr, "iwarp hpf: a %ux%u array cannot hold two tasks (--array of 2 cells or more)\n", o->width,
                    o->height);
        else
            fprintf(stderr, "iwarp hpf: a %ux%u array cannot hold two tasks of %u cells (--task 1 to %u on it)\n",
                    o->width, o->height, o->task, cells / 2);
        return -1;
    }
    return 0;
}
