/* iwarp fem: the finite element experiment of the ConSet paper (section 5.2) for one mesh: made or read by gmsh,
 * partitioned by METIS into one part a cell, its communication pattern and the compiler's phases (Table 4).
 * docs/fem.md. */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "fem_analysis.h"
#include "fem_kernel.h"
#include "file.h"
#include "json.h"
#include "emu.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: iwarp fem MESH [options]\n"
            "  MESH: m11k, c10k, c100k, g20k (the ConSet paper's meshes, made by gmsh with fixed seeds and\n"
            "        cached), or a gmsh file (.msh, or a .geo that gmsh meshes)\n"
            "  --array WxH     cells, one part each (default 8x8)\n"
            "  --cache DIR     where meshes and partitions are kept (default out/fem/cache)\n"
            "  --cset FILE     write the pattern as a connection set (for iwarp route)\n"
            "  --run           also run one product y = A x on the emulated array, y checked on every cell\n"
            "  --msgpass       the exchange by message passing (runtime/msg.s) instead of ConSet\n"
            "  --threads N     host threads for that run (results do not depend on it)\n"
            "  --json          the figures as one JSON object\n"
            "Prints the paper's Table 4 for the mesh: elements, nodes, elements a cell, words a cell sends and\n"
            "receives, the largest in/out-degree, logical channels and the communication compiler's phases.\n");
}

static void print_text(const char *mesh, const fem_analysis_t *a)
{
    const fem_stats_t *s = &a->stats;
    /* The paper's column only where it applies: its mesh, in its 64 parts. */
    const fem_paper_table4_t *p = a->part.parts == 64 ? fem_paper_row(mesh) : NULL;
    bool builtin = fem_paper_row(mesh) != NULL;
    printf("%s: %uD, %zu elements, %zu nodes; mesh %s, partition into %u %s\n", mesh, a->mesh.dim, s->elements,
           s->nodes, !builtin ? "read from the file" : a->mesh_made ? "made by gmsh now" : "from the cache",
           a->part.parts, a->part_made ? "made by METIS now" : "from the cache");
    printf("%-28s %14s %14s\n", "", "here", p ? "paper" : "");
    /* Each row: its label, this mesh's pair of figures and the paper's (a pair when min/max). */
    const struct {
        const char *label;
        unsigned long long here[2], paper[2];
        bool pair;
    } rows[] = {
        {"elements", {s->elements, 0}, {p ? p->elements : 0, 0}, false},
        {"nodes", {s->nodes, 0}, {p ? p->nodes : 0, 0}, false},
        {"elements a cell min/max", {s->elems_min, s->elems_max}, {p ? p->elems_min : 0, p ? p->elems_max : 0}, true},
        {"words a cell min/max", {s->comm_min, s->comm_max}, {p ? p->comm_min : 0, p ? p->comm_max : 0}, true},
        {"in/out-degree", {s->degree_max, 0}, {p ? p->degree : 0, 0}, false},
        {"logical channels", {a->set.capacity, 0}, {p ? p->channels : 0, 0}, false},
        {"phases", {a->phases, 0}, {p ? p->phases : 0, 0}, false},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        char here[48], paper[48] = "";
        if (rows[i].pair) {
            snprintf(here, sizeof here, "%llu/%llu", rows[i].here[0], rows[i].here[1]);
            if (p)
                snprintf(paper, sizeof paper, "%llu/%llu", rows[i].paper[0], rows[i].paper[1]);
        } else {
            snprintf(here, sizeof here, "%llu", rows[i].here[0]);
            if (p)
                snprintf(paper, sizeof paper, "%llu", rows[i].paper[0]);
        }
        printf("%-28s %14s %14s\n", rows[i].label, here, paper);
    }
    printf("%u connections, %llu words in all, %u to %u a connection\n", s->connections,
           (unsigned long long)s->words, s->words_min, s->words_max);
}

static void print_json(const char *mesh, const fem_analysis_t *a, const fem_run_t *r)
{
    const fem_stats_t *s = &a->stats;
    json_writer_t j;
    json_init(&j, stdout, true);
    json_begin_object(&j, NULL);
    json_string(&j, "mesh", mesh);
    json_u64(&j, "dim", a->mesh.dim);
    json_u64(&j, "elements", s->elements);
    json_u64(&j, "nodes", s->nodes);
    json_u64(&j, "cells", a->part.parts);
    json_u64(&j, "elements_min", s->elems_min);
    json_u64(&j, "elements_max", s->elems_max);
    json_u64(&j, "comm_words_min", s->comm_min);
    json_u64(&j, "comm_words_max", s->comm_max);
    json_u64(&j, "degree_max", s->degree_max);
    json_u64(&j, "connections", s->connections);
    json_u64(&j, "words", s->words);
    json_u64(&j, "logical_channels", a->set.capacity);
    json_u64(&j, "phases", a->phases);
    if (r != NULL) {
        json_u64(&j, "entries", r->nnz);
        json_u64(&j, "compute_clocks_min", r->compute_min);
        json_u64(&j, "compute_clocks_max", r->compute_max);
        json_u64(&j, "exchange_clocks", r->exchange);
        json_u64(&j, "total_clocks", r->total);
        json_u64(&j, "wrong", r->wrong);
    }
    json_end_object(&j);
    json_finish(&j);
}

int cmd_fem(int argc, char **argv)
{
    enum { OPT_ARRAY = 256, OPT_CACHE, OPT_CSET, OPT_RUN, OPT_MSGPASS, OPT_THREADS, OPT_JSON, OPT_HELP };
    static const struct option longopts[] = {
        {"array", required_argument, NULL, OPT_ARRAY}, {"cache", required_argument, NULL, OPT_CACHE},
        {"cset", required_argument, NULL, OPT_CSET},   {"json", no_argument, NULL, OPT_JSON},
        {"run", no_argument, NULL, OPT_RUN},           {"threads", required_argument, NULL, OPT_THREADS},
        {"msgpass", no_argument, NULL, OPT_MSGPASS},
        {"help", no_argument, NULL, OPT_HELP},         {NULL, 0, NULL, 0},
    };
    unsigned w = 8, h = 8;
    const char *cache = "out/fem/cache", *cset_path = NULL;
    bool json = false, run = false, msgpass = false;
    unsigned threads = 1;
    optind = 0;
    int c;
    while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
        switch (c) {
        case OPT_ARRAY:
            if (emu_parse_array_size(optarg, &w, &h) != 0 || w * h < 2) {
                fprintf(stderr, "iwarp fem: bad value '%s' for --array (WxH, sides 1 to %d, 2 cells or more)\n",
                        optarg, EMU_MAX_DIM);
                return 2;
            }
            break;
        case OPT_CACHE: cache = optarg; break;
        case OPT_CSET: cset_path = optarg; break;
        case OPT_JSON: json = true; break;
        case OPT_RUN: run = true; break;
        case OPT_MSGPASS: msgpass = true; break;
        case OPT_THREADS: {
            uint64_t n;
            if (emu_parse_count(optarg, &n) != 0 || n < 1 || n > 64) {
                fprintf(stderr, "iwarp fem: bad value '%s' for --threads (1 to 64)\n", optarg);
                return 2;
            }
            threads = (unsigned)n;
            break;
        }
        case OPT_HELP:
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (optind != argc - 1) {
        fprintf(stderr, "iwarp fem: one MESH expected\n");
        usage(stderr);
        return 2;
    }
    if (msgpass && !run) {
        fprintf(stderr, "iwarp fem: --msgpass chooses how --run exchanges: give --run too\n");
        return 2;
    }
    const char *mesh = argv[optind];
    fem_analysis_t a;
    char err[1024];
    if (file_out_not_input(cset_path, &mesh, 1, err, sizeof err) != 0) {
        fprintf(stderr, "iwarp fem: --cset %s\n", err);
        return 2;
    }
    if (fem_analyse(mesh, w, h, cache, &a, err, sizeof err) != 0) {
        fprintf(stderr, "iwarp fem: %s\n", err);
        return 1;
    }
    int rc = 0;
    if (cset_path != NULL) {
        file_out_t out;
        err[0] = '\0';
        if (file_out_open(&out, cset_path, "w", err, sizeof err) != 0) {
            fprintf(stderr, "iwarp fem: %s\n", err);
            rc = 1;
        } else if (cset_write(&a.set, out.f) != 0) {
            file_out_abort(&out);
            fprintf(stderr, "iwarp fem: cannot write %s\n", cset_path);
            rc = 1;
        } else if (file_out_commit(&out, err, sizeof err) != 0) {
            fprintf(stderr, "iwarp fem: %s\n", err);
            rc = 1;
        }
    }
    fem_run_t r = {0};
    if (rc == 0 && run && fem_kernel_run(&a, w, h, msgpass ? FEM_MSGPASS : FEM_CONSET, threads, &r, err, sizeof err) != 0) {
        fprintf(stderr, "iwarp fem: %s\n", err);
        rc = 1;
        run = false;
    }
    if (json)
        print_json(mesh, &a, run ? &r : NULL);
    else
        print_text(mesh, &a);
    if (run && !json) {
        double mflops = 2.0 * (double)r.nnz / ((double)r.compute_max / 20e6) / 1e6;
        printf("one product on the emulated %ux%u (%s): %llu entries; local product %llu..%llu clocks "
               "(%.1f MFLOPS over the array at the slowest cell), exchange %llu clocks; y on every cell: %s\n",
               w, h, msgpass ? "message passing" : "ConSet", (unsigned long long)r.nnz, (unsigned long long)r.compute_min, (unsigned long long)r.compute_max,
               mflops, (unsigned long long)r.exchange, r.wrong == 0 ? "right" : "WRONG");
    }
    if (cset_path != NULL && rc == 0 && !json)
        printf("the pattern as a connection set (%u connections): %s\n", a.stats.connections, cset_path);
    if (run && r.wrong != 0)
        rc = 1;
    fem_analysis_free(&a);
    return rc;
}
