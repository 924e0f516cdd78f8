/* iwarp hpf: one HPF array assignment D = S between two tasks of the emulated array, uncached and cached, each
 * repeated; the latency of every iteration, the break-even and the speedups (docs/deposit.md). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "hpf.h"
#include "interrupt.h"
#include "json.h"

static void usage(FILE *out)
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

typedef struct hpf_cli {
    const char *assignment;
    unsigned n0, n1, task, width, height, iterations;
    hpf_format_t format;
    bool run[2]; /* uncached, cached */
    bool check_each, json;
} hpf_cli_t;

static int parse_options(int argc, char **argv, hpf_cli_t *o)
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
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        bool bad = false;
        switch (c) {
        case OPT_SIZE: bad = parse_size(optarg, &o->n0, &o->n1) != 0; break;
        case OPT_TASK: bad = parse_unsigned(optarg, 1, HPF_MAX_TASK, &o->task) != 0; break;
        case OPT_ARRAY: bad = emu_parse_array_size(optarg, &o->width, &o->height) != 0; break;
        case OPT_ITER: bad = parse_unsigned(optarg, 1, HPF_MAX_ITERATIONS, &o->iterations) != 0; break;
        case OPT_FORMAT:
            bad = strcmp(optarg, "blocks") != 0 && strcmp(optarg, "pairs") != 0;
            o->format = strcmp(optarg, "pairs") == 0 ? HPF_FORMAT_PAIRS : HPF_FORMAT_BLOCKS;
            break;
        case OPT_ONLY:
            bad = strcmp(optarg, "cached") != 0 && strcmp(optarg, "uncached") != 0;
            o->run[0] = strcmp(optarg, "uncached") == 0;
            o->run[1] = !o->run[0];
            break;
        case OPT_CHECK: o->check_each = true; break;
        case OPT_JSON: o->json = true; break;
        case OPT_HELP: usage(stdout); return 1;
        default: usage(stderr); return -1;
        }
        if (bad) {
            fprintf(stderr, "iwarp hpf: bad value '%s' for --%s\n", optarg, opts[c - OPT_SIZE].name);
            return -1;
        }
    }
    if (optind + 1 != argc) {
        fprintf(stderr, "iwarp hpf: one assignment expected, such as 'S(:,BLOCK) -> D(:,CYCLIC(4))'\n");
        usage(stderr);
        return -1;
    }
    o->assignment = argv[optind];
    return 0;
}

static void print_text(const hpf_cli_t *o, const hpf_case_t *c, const hpf_result_t r[2])
{
    char text[128];
    hpf_case_text(c, text, sizeof text);
    printf("%s: %u x %u words over two tasks of %u cells on %ux%u (cells 0-%u and %u-%u), address-data %s\n", text,
           c->n0, c->n1, c->task, o->width, o->height, c->task - 1, c->task, 2 * c->task - 1,
           o->format == HPF_FORMAT_PAIRS ? "pairs" : "blocks");
    for (unsigned m = 0; m < 2; m++)
        if (o->run[m])
            printf("%-8s  %llu words sent an iteration%s", m ? "cached" : "uncached",
                   (unsigned long long)(r[m].words_sent / o->iterations), m ? "" : "\n");
    if (o->run[1])
        printf("; the relation: %.0f blocks per source cell, stored in %u clocks\n",
               (double)r[1].blocks_cached / c->task, r[1].store[0]);
    printf("\nlatency in clocks (20 MHz), from the first source starting to the last word deposited\n");
    printf("%9s | %10s %10s | %10s %10s\n", "iteration", "uncached", "mean", "cached", "mean");
    for (unsigned i = 0; i < o->iterations; i++) {
        printf("%9u |", i + 1);
        for (unsigned m = 0; m < 2; m++) {
            if (o->run[m])
                printf(" %10u %10.0f", r[m].latency[i], hpf_mean_latency(&r[m], i + 1));
            else
                printf(" %10s %10s", "-", "-");
            printf("%s", m == 0 ? " |" : "");
        }
        printf("\n");
    }
    if (o->run[0] && o->run[1]) {
        unsigned be = hpf_break_even(&r[0], &r[1]), last = o->iterations - 1;
        if (be > 0)
            printf("\nbreak-even: %u iteration%s", be, be == 1 ? "" : "s");
        else
            printf("\nbreak-even: not within %u iterations", o->iterations);
        printf("; speedup of cached over uncached, last iteration: latency %.3f, assembly %.3f\n",
               (double)r[0].latency[last] / r[1].latency[last], (double)r[0].assembly[last] / r[1].assembly[last]);
    }
    printf("every destination element %s\n", o->check_each ? "checked after every iteration: right"
                                                            : "checked after the last iteration: right");
}

static void print_json(const hpf_cli_t *o, const hpf_case_t *c, const hpf_result_t r[2])
{
    char text[128];
    hpf_case_text(c, text, sizeof text);
    json_writer_t j;
    json_init(&j, stdout, true);
    json_begin_object(&j, NULL);
    json_begin_array(&j, "records");
    for (unsigned i = 0; i < o->iterations; i++) {
        json_begin_object(&j, NULL);
        json_string(&j, "assignment", text);
        json_u64(&j, "n0", c->n0);
        json_u64(&j, "n1", c->n1);
        json_u64(&j, "task", c->task);
        json_string(&j, "format", o->format == HPF_FORMAT_PAIRS ? "pairs" : "blocks");
        json_u64(&j, "iteration", i + 1);
        for (unsigned m = 0; m < 2; m++) {
            if (!o->run[m])
                continue;
            const char *const keys[2][4] = {
                {"uncached_latency", "uncached_mean_latency", "uncached_assembly", "uncached_words_sent"},
                {"cached_latency", "cached_mean_latency", "cached_assembly", "cached_words_sent"}};
            json_u64(&j, keys[m][0], r[m].latency[i]);
            json_double(&j, keys[m][1], hpf_mean_latency(&r[m], i + 1));
            json_u64(&j, keys[m][2], r[m].assembly[i]);
            json_u64(&j, keys[m][3], r[m].words_sent / o->iterations);
        }
        if (o->run[1]) {
            json_double(&j, "blocks_per_source", (double)r[1].blocks_cached / c->task);
            json_u64(&j, "relation_store", r[1].store[0]);
        }
        json_end_object(&j);
    }
    json_end_array(&j);
    json_end_object(&j);
    json_finish(&j);
}

int cmd_hpf(int argc, char **argv)
{
    hpf_cli_t o;
    int rc = parse_options(argc, argv, &o);
    if (rc != 0)
        return rc > 0 ? 0 : 2;
    hpf_case_t c;
    char err[4096];
    if (hpf_parse_case(o.assignment, o.n0, o.n1, o.task, &c, err, sizeof err) != 0) {
        fprintf(stderr, "iwarp hpf: %s: %s\n", o.assignment, err);
        return 2;
    }
    if (o.width * o.height < 2 * o.task) {
        fprintf(stderr, "iwarp hpf: a %ux%u array cannot hold two tasks of %u cells\n", o.width, o.height, o.task);
        return 2;
    }
    hpf_result_t r[2];
    memset(r, 0, sizeof r);
    interrupt_arm();
    int status = 0;
    for (unsigned m = 0; m < 2 && status == 0; m++) {
        if (!o.run[m])
            continue;
        bool interrupted = false;
        hpf_options_t ho = {m == 1, o.format, o.iterations, o.check_each, o.width, o.height, &interrupted};
        if (hpf_run(&c, &ho, &r[m], err, sizeof err) != 0) {
            fprintf(stderr, "iwarp hpf: %s\n", interrupted ? "interrupted" : err);
            status = interrupted ? 130 : 1;
        } else if (r[m].wrong_on_cells != 0 || r[m].wrong_on_host != 0) {
            fprintf(stderr,
                    "iwarp hpf: %s: %llu elements wrong by the destinations' own check, %llu elements or guard "
                    "words by the host's\n",
                    m ? "cached" : "uncached", (unsigned long long)r[m].wrong_on_cells,
                    (unsigned long long)r[m].wrong_on_host);
            status = 1;
        }
    }
    interrupt_disarm();
    if (status != 0)
        return status;
    if (o.json)
        print_json(&o, &c, r);
    else
        print_text(&o, &c, r);
    return 0;
}
