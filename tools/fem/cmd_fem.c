/* iwarp fem: the finite element experiment of the ConSet paper (section 5.2) for one mesh: made or read by gmsh,
 * partitioned by METIS (or RCB) into one part a cell, its communication pattern and the compiler's phases (Table 4).
 * docs/fem.md. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "fem_analysis.h"
#include "fem_cli.h"
#include "fem_kernel.h"
#include "file.h"
#include "json.h"
#include "emu.h"
#include "model.h"


static void print_text(const char *mesh, const fem_analysis_t *a)
{
    const fem_stats_t *s = &a->stats;
    /* The paper's column only where it applies: its mesh, in its 64 parts. */
    const fem_paper_table4_t *p = a->part.parts == 64 ? fem_paper_row(mesh) : NULL;
    printf("%s: %uD, %zu elements, %zu nodes; mesh %s, partition into %u by %s %s\n", mesh, a->mesh.dim, s->elements,
           s->nodes, fem_mesh_origin(mesh, a->mesh_made),
           a->part.parts, fem_partitioner_label(a->how), a->part_made ? "made now" : "from the cache");
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
    if (p)
        printf("distance to the paper: %.0f%% (the mean of |here - paper| / paper over words a cell min and max, "
               "degree and phases)\n",
               100 * fem_paper_distance(s, a->phases, p));
}

/* The paper's model of the run's exchange in its style and coding, as bench fem's Table 6 predicts it
 * (fem_kernel.h), with the clocks a word that the model takes from the assembled loops. */
static int predict(const fem_analysis_t *a, bool msgpass, bool liw, fem_model_t *m, double *clocks, char *err,
                   size_t cap)
{
    if (fem_model_loops(liw ? FEM_LIW : FEM_ONE_OP, m, err, cap) != 0)
        return -1;
    if (msgpass) {
        *clocks = fem_predict_msgpass(a, m);
        return 0;
    }
    return fem_predict_conset(a, m, clocks, err, cap);
}

static void print_run(unsigned w, unsigned h, const fem_run_t *r, bool msgpass, bool liw, const fem_model_t *m,
                      double predicted)
{
    double mflops = 2.0 * (double)r->nnz / ((double)r->compute_max / 20e6) / 1e6;
    printf("one product on the emulated %ux%u (%s, %s): %llu entries; local product %llu..%llu clocks "
           "(%.1f MFLOPS over the array at the slowest cell), exchange %llu clocks; y on every cell: %s\n",
           w, h, msgpass ? "message passing" : "ConSet",
           liw ? "LIW loops" : "the paper's loops, one operation an instruction", (unsigned long long)r->nnz,
           (unsigned long long)r->compute_min, (unsigned long long)r->compute_max, mflops,
           (unsigned long long)r->exchange, r->wrong == 0 ? "right" : "WRONG");
    if (msgpass)
        printf("the model's exchange (as bench fem's Table 6): %.0f clocks, the most over the cells of 2c + a w a "
               "message, c = %d, a = %.1f gather + %.0f receive; emulated/predicted %.2f\n",
               predicted, MODEL_C, m->gather_a, m->receive_a, (double)r->exchange / predicted);
    else
        printf("the model's exchange (as bench fem's Table 6): %.0f clocks, phases x %d + AS's schedule of each "
               "phase at b = %.0f a word; emulated/predicted %.2f\n",
               predicted, MODEL_PER_PHASE, m->conset_b, (double)r->exchange / predicted);
}

static void print_json(const char *mesh, const fem_analysis_t *a, const fem_run_t *r, double predicted, bool liw)
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
    json_string(&j, "partitioner", fem_partitioner_names[a->how]);
    json_u64(&j, "elements_min", s->elems_min);
    json_u64(&j, "elements_max", s->elems_max);
    json_u64(&j, "comm_words_min", s->comm_min);
    json_u64(&j, "comm_words_max", s->comm_max);
    json_u64(&j, "degree_max", s->degree_max);
    json_u64(&j, "connections", s->connections);
    json_u64(&j, "words", s->words);
    json_u64(&j, "logical_channels", a->set.capacity);
    json_u64(&j, "phases", a->phases);
    const fem_paper_table4_t *p = a->part.parts == 64 ? fem_paper_row(mesh) : NULL;
    if (p)
        json_double(&j, "paper_distance", fem_paper_distance(s, a->phases, p));
    if (r != NULL) {
        json_string(&j, "coding", liw ? "liw" : "one_op");
        json_u64(&j, "entries", r->nnz);
        json_u64(&j, "compute_clocks_min", r->compute_min);
        json_u64(&j, "compute_clocks_max", r->compute_max);
        json_u64(&j, "exchange_clocks", r->exchange);
        json_double(&j, "predicted_exchange_clocks", predicted);
        json_u64(&j, "total_clocks", r->total);
        json_u64(&j, "wrong", r->wrong);
    }
    json_end_object(&j);
    json_finish(&j);
}

int cmd_fem(int argc, char **argv)
{
    fem_cli_t o;
    int prc = fem_cli_parse(argc, argv, &o);
    if (prc != 0)
        return prc > 0 ? 0 : 2;
    unsigned w = o.width, h = o.height, threads = o.threads;
    const char *cache = o.cache, *cset_path = o.cset_path;
    bool json = o.json, run = o.run, msgpass = o.msgpass, liw = o.liw;
    const char *mesh = o.mesh;
    fem_analysis_t a;
    char err[1024];
    if (file_out_not_input(cset_path, &mesh, 1, err, sizeof err) != 0) {
        fprintf(stderr, "iwarp fem: --cset %s\n", err);
        return 2;
    }
    if (fem_analyse(mesh, w, h, o.how, cache, &a, err, sizeof err) != 0) {
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
    fem_model_t model = {0};
    double predicted = 0;
    if (rc == 0 && run &&
        (predict(&a, msgpass, liw, &model, &predicted, err, sizeof err) != 0 ||
         fem_kernel_run(&a, w, h, msgpass ? FEM_MSGPASS : FEM_CONSET, liw ? FEM_LIW : FEM_ONE_OP, threads, &r, err,
                        sizeof err) != 0)) {
        fprintf(stderr, "iwarp fem: %s\n", err);
        rc = 1;
        run = false;
    }
    if (json)
        print_json(mesh, &a, run ? &r : NULL, predicted, liw);
    else
        print_text(mesh, &a);
    if (run && !json)
        print_run(w, h, &r, msgpass, liw, &model, predicted);
    if (cset_path != NULL && rc == 0 && !json)
        printf("the pattern as a connection set (%u connections): %s\n", a.stats.connections, cset_path);
    if (run && r.wrong != 0)
        rc = 1;
    fem_analysis_free(&a);
    return rc;
}
