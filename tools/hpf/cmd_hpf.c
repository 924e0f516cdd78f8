/* iwarp hpf: one HPF array assignment D = S between two tasks of the emulated array, uncached and cached, each
 * repeated; the latency of every iteration, the break-even and the speedups (docs/deposit.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "hpf.h"
#include "hpf_cli.h"
#include "interrupt.h"
#include "json.h"

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
    int rc = hpf_cli_parse(argc, argv, &o);
    if (rc != 0)
        return rc > 0 ? 0 : 2;
    hpf_case_t c;
    char err[4096];
    if (hpf_parse_case(o.assignment, o.n0, o.n1, o.task, &c, err, sizeof err) != 0) {
        fprintf(stderr, "iwarp hpf: %s: %s\n", o.assignment, err);
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
