/*
 * iwarp bench fem: the finite element experiment of the ConSet paper (section 5.2), its structural part: the four
 * meshes made by gmsh (cached in out/fem/cache), partitioned by METIS and by RCB into the 64 cells of the 8x8
 * array, their communication patterns and the communication compiler's phases, as the paper's Table 4 beside its
 * own (bench_fem_table4.c); the distribution of words per connection, as its Figure 5; and one product on the
 * emulated cells on the partition --partitioner chooses (METIS by default), its Tables 5 and 6. With --mesh, the
 * same on a user's meshes in place of the paper's four, without the paper's figures. docs/fem.md.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "fem_analysis.h"
#include "fem_kernel.h"
#include "interrupt.h"
#include "model.h"
#include "plot.h"

enum { SIDE = 8, BINS = 8 };

/* The paper's Table 5 (local computation: cycles, MFLOPS) and the predicted columns of its Table 6. */
typedef struct paper_tables56 {
    unsigned cycles;
    double mflops;
    unsigned predicted_conset, predicted_msgpass;
} paper_tables56_t;

static const paper_tables56_t paper_tables56[FEM_MESHES] = {
    {22696, 189.44, 4786, 8378},
    {21064, 199.04, 5066, 6752},
    {186632, 200.96, 19774, 19508},
    {118096, 273.92, 35910, 32852},
};

/* The paper's Tables 5 and 6 for a mesh of the bench: its own four, never a user's file. */
static const paper_tables56_t *paper_of(const bench_fem_mesh_t *m)
{
    for (unsigned i = 0; m->file == NULL && i < FEM_MESHES; i++)
        if (strcmp(m->name, fem_mesh_names[i]) == 0)
            return &paper_tables56[i];
    return NULL;
}

const char *bench_fem_mesh_name(const char *file)
{
    const char *slash = strrchr(file, '/');
    return slash != NULL ? slash + 1 : file;
}

int bench_fem_meshes_read(const char *const *files, unsigned n, bench_fem_mesh_t *out)
{
    memset(out, 0, n * sizeof *out);
    for (unsigned i = 0; i < n; i++) {
        out[i].name = bench_fem_mesh_name(files[i]);
        if (fem_paper_row(files[i]) != NULL) /* a built-in name, as iwarp fem takes it: made or cached when it runs */
            continue;
        out[i].file = files[i];
        char err[1024];
        fem_mesh_t *m = malloc(sizeof *m);
        if (m == NULL)
            snprintf(err, sizeof err, "%s: out of memory", files[i]);
        else if (fem_mesh_read(files[i], m, err, sizeof err) != 0) {
            free(m);
            m = NULL;
        } else if (m->nelems < SIDE * SIDE) {
            snprintf(err, sizeof err,
                     "%s: %zu elements: bench fem cuts a mesh into the %u cells of %ux%u, an element a "
                     "cell at the least",
                     files[i], m->nelems, SIDE * SIDE, SIDE, SIDE);
            fem_mesh_free(m);
            free(m);
            m = NULL;
        }
        if (m == NULL) {
            fprintf(stderr, "iwarp bench fem: %s\n", err);
            bench_fem_meshes_free(out, i);
            return -1;
        }
        out[i].mesh = m;
    }
    return 0;
}

void bench_fem_meshes_free(bench_fem_mesh_t *m, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        if (m[i].mesh != NULL) {
            fem_mesh_free(m[i].mesh);
            free(m[i].mesh);
            m[i].mesh = NULL;
        }
}

/* The exchange's two codings (fem_kernel.h): the paper's, which the reproduction runs, and ours beside it. */
enum { CODINGS = 2 };
static const fem_coding_t codings[CODINGS] = {FEM_ONE_OP, FEM_LIW};

static double dev_percent(double ours, double paper)
{
    return 100.0 * (ours - paper) / paper;
}

/* What the tables print of the meshes that ran: the width of their names' column, and whether any has the paper's
 * figures (when none has, the paper's columns are left out; else a user's mesh shows '-' there). */
typedef struct columns {
    int name_width;
    bool paper;
} columns_t;

static columns_t columns_of(const bench_fem_mesh_t *meshes, unsigned n, const bool *ran)
{
    columns_t c = {.name_width = 7};
    for (unsigned i = 0; i < n; i++)
        if (ran[i]) {
            int w = (int)strlen(meshes[i].name);
            c.name_width = w > c.name_width ? w : c.name_width;
            c.paper |= paper_of(&meshes[i]) != NULL;
        }
    return c;
}

/* Table 6 in one coding: emulated, our model and the paper's predicted, for ConSet and message passing. */
static void print_table6(unsigned k, const fem_model_t *m, const bench_fem_mesh_t *meshes, unsigned n,
                         const fem_run_t *runs, const fem_run_t *mp, const double *pred_c, const double *pred_m,
                         const bool *ran)
{
    if (codings[k] == FEM_ONE_OP)
        printf("\nThe paper's coding: one operation an instruction, one timeline a cell. ConSet b = %.0f (send %.0f,\n"
               "receive %.0f: the slower); message passing c = %d, a = %.0f gather + %.0f receive\n",
               m->conset_b, m->send, m->receive, MODEL_C, m->gather_a, m->receive_a);
    else
        printf("\nOurs: LIW bundles, a send and a receive timeline a cell. ConSet b = %.0f (a word out and one in);\n"
               "message passing c = %d, a = %.1f gather + %.0f receive\n",
               m->conset_b, MODEL_C, m->gather_a, m->receive_a);
    columns_t c = columns_of(meshes, n, ran);
    if (c.paper)
        printf("%-*s %8s %9s %6s %6s | %8s %9s %6s %6s | %9s\n", c.name_width, "mesh", "ConSet", "predicted", "paper",
               "dev %", "msg pass", "predicted", "paper", "dev %", "MP/ConSet");
    else
        printf("%-*s %8s %9s | %8s %9s | %9s\n", c.name_width, "mesh", "ConSet", "predicted", "msg pass", "predicted",
               "MP/ConSet");
    for (unsigned i = 0; i < n; i++) {
        if (!ran[i])
            continue;
        const paper_tables56_t *p = paper_of(&meshes[i]);
        char paper_c[48] = "", paper_m[48] = "";
        if (p != NULL) {
            snprintf(paper_c, sizeof paper_c, " %6u %6.1f", p->predicted_conset,
                     dev_percent(pred_c[i], p->predicted_conset));
            snprintf(paper_m, sizeof paper_m, " %6u %6.1f", p->predicted_msgpass,
                     dev_percent(pred_m[i], p->predicted_msgpass));
        } else if (c.paper) {
            snprintf(paper_c, sizeof paper_c, " %6s %6s", "-", "-");
            snprintf(paper_m, sizeof paper_m, " %6s %6s", "-", "-");
        }
        printf("%-*s %8llu %9.0f%s | %8llu %9.0f%s | %9.2f\n", c.name_width, meshes[i].name,
               (unsigned long long)runs[i].exchange, pred_c[i], paper_c, (unsigned long long)mp[i].exchange, pred_m[i],
               paper_m, (double)mp[i].exchange / (double)runs[i].exchange);
    }
}

/* Table 5: the local product of each mesh that ran, beside the paper's where it has one. */
static void print_table5(const bench_fem_mesh_t *meshes, unsigned n, const fem_run_t *runs, const bool *ran)
{
    columns_t c = columns_of(meshes, n, ran);
    printf("\nTable 5: one sparse matrix-vector product on the emulated 8x8, the local part (programs/fem/spmv.inc,\n"
           "each cell's assembled CSR rows): clocks of the slowest cell; MFLOPS: 2 a stored entry, over the array\n");
    if (c.paper)
        printf("%-*s %9s %11s %9s %9s %9s\n", c.name_width, "mesh", "entries", "compute", "paper", "MFLOPS", "paper");
    else
        printf("%-*s %9s %11s %9s\n", c.name_width, "mesh", "entries", "compute", "MFLOPS");
    for (unsigned i = 0; i < n; i++) {
        if (!ran[i])
            continue;
        const paper_tables56_t *p = paper_of(&meshes[i]);
        double mflops = 2.0 * (double)runs[i].nnz / ((double)runs[i].compute_max / 20e6) / 1e6;
        char cycles[16] = "", paper_mflops[16] = "";
        if (p != NULL) {
            snprintf(cycles, sizeof cycles, " %9u", p->cycles);
            snprintf(paper_mflops, sizeof paper_mflops, " %9.2f", p->mflops);
        } else if (c.paper) {
            snprintf(cycles, sizeof cycles, " %9s", "-");
            snprintf(paper_mflops, sizeof paper_mflops, " %9s", "-");
        }
        printf("%-*s %9llu %11llu%s %9.1f%s\n", c.name_width, meshes[i].name, (unsigned long long)runs[i].nnz,
               (unsigned long long)runs[i].compute_max, cycles, mflops, paper_mflops);
    }
}

/* Words a connection carries, binned by powers of two: 1, 2-3, 4-7, ..., 128 and more. */
static unsigned bin_of(uint32_t w)
{
    unsigned b = 0;
    while (w > 1 && b + 1 < BINS) {
        w >>= 1;
        b++;
    }
    return b;
}

/* The mesh partitioned by every partitioner (fem_partitioner_t's order), its Table 4 reported. 0, or -1 after
 * saying why on stderr. */
static int analyse(const bench_fem_mesh_t *m, const char *cache, fem_analysis_t by[FEM_PARTITIONERS])
{
    char err[1024];
    for (unsigned made = 0; made < FEM_PARTITIONERS; made++) {
        fem_partitioner_t how = (fem_partitioner_t)made;
        int rc = m->mesh != NULL ? fem_analyse_mesh(m->mesh, SIDE, SIDE, how, &by[made], err, sizeof err)
                                 : fem_analyse(m->name, SIDE, SIDE, how, cache, &by[made], err, sizeof err);
        if (rc != 0) {
            fprintf(stderr, "iwarp bench fem: %s: %s (%s)\n", m->name, err, fem_partitioner_names[made]);
            while (made > 0)
                fem_analysis_free(&by[--made]);
            return -1;
        }
    }
    return 0;
}

/* The fields a record of a user's mesh has instead of the paper's: the file as given. */
static void record_mesh(bench_context_t *ctx, const bench_fem_mesh_t *m, const char *kind)
{
    bench_record_begin(ctx, "fem", m->name);
    bench_string(ctx, "kind", kind);
    if (m->file != NULL)
        bench_string(ctx, "mesh_file", m->file);
}

int bench_fem(bench_context_t *ctx)
{
    const char *cache = "out/fem/cache";
    /* The paper's four, or those --mesh named (read before any bench ran) */
    bench_fem_mesh_t paper_meshes[FEM_MESHES];
    for (unsigned i = 0; i < FEM_MESHES; i++)
        paper_meshes[i] = (bench_fem_mesh_t){.name = fem_mesh_names[i]};
    const bool users = ctx->fem_nmeshes > 0;
    const bench_fem_mesh_t *meshes = users ? ctx->fem_meshes : paper_meshes;
    const unsigned n = users ? ctx->fem_nmeshes : FEM_MESHES;
    const char *partition = fem_partitioner_label((fem_partitioner_t)ctx->fem_partitioner);
    if (bench_report(ctx) && !users)
        printf("The ConSet paper's Table 4 on 8x8: meshes by gmsh, each partitioned into one part a cell by METIS\n"
               "(METIS_PartMeshDual) and by RCB (recursive coordinate bisection of the elements' centroids), phases\n"
               "by the communication compiler with 12 logical channels. words a cell: sent and received in one\n"
               "product, one a shared node and neighbour. Each figure with its difference from the paper's;\n"
               "distance: the mean of |here - paper| / paper over words a cell min and max, degree and phases.\n"
               "Figure 5 and Tables 5 and 6 run on %s's partition.\n",
               partition);
    else if (bench_report(ctx))
        printf("The ConSet paper's Table 4 on 8x8 for the meshes --mesh names: each partitioned into one part a cell\n"
               "by METIS (METIS_PartMeshDual) and by RCB (recursive coordinate bisection of the elements' centroids),\n"
               "phases by the communication compiler with 12 logical channels. words a cell: sent and received in one\n"
               "product, one a shared node and neighbour. The paper's figures only beside its own meshes.\n"
               "Figure 5 and Tables 5 and 6 run on %s's partition.\n",
               partition);
    plot_t pl;
    bench_plot_init(ctx, &pl, "Words per connection (as the ConSet paper's Figure 5)",
                    "words a connection carries (1, 2-3, 4-7, ...)", "connections", false, false);
    static const char *const bins[BINS] = {"1", "2", "4", "8", "16", "32", "64", "128+"};
    plot_categories(&pl, bins, BINS);
    pl.legend_title = "mesh";
    char config[128];
    snprintf(config, sizeof config, "%ux%u array, %s partition, 12 logical channels", SIDE, SIDE, partition);
    pl.config = config;
    int rc = 0;
    /* [coding][mesh]: the paper's coding (FEM_ONE_OP, the reproduction) first, ours (FEM_LIW) beside it */
    fem_run_t runs[CODINGS][BENCH_FEM_MAX_MESHES], mp[CODINGS][BENCH_FEM_MAX_MESHES];
    double pred_c[CODINGS][BENCH_FEM_MAX_MESHES], pred_m[CODINGS][BENCH_FEM_MAX_MESHES];
    uint64_t words[BENCH_FEM_MAX_MESHES];
    bool ran[BENCH_FEM_MAX_MESHES] = {false};
    const char *names[BENCH_FEM_MAX_MESHES];
    fem_model_t model[CODINGS];
    char merr[512];
    for (unsigned k = 0; k < CODINGS; k++)
        if (fem_model_loops(codings[k], &model[k], merr, sizeof merr) != 0) {
            fprintf(stderr, "iwarp bench fem: %s\n", merr);
            return 1;
        }
    for (unsigned i = 0; i < n; i++)
        names[i] = meshes[i].name;
    for (unsigned i = 0; i < n && !interrupt_requested(); i++) {
        const bench_fem_mesh_t *mesh = &meshes[i];
        const paper_tables56_t *paper = paper_of(mesh);
        if (ctx->quick && !users && strcmp(mesh->name, "c100k") == 0)
            continue; /* --quick: the three small meshes (c100k takes gmsh seconds to make) */
        fem_analysis_t by[FEM_PARTITIONERS];
        char err[1024];
        if (analyse(mesh, cache, by) != 0) {
            rc = 1;
            continue;
        }
        const fem_analysis_t *const both[FEM_PARTITIONERS] = {&by[FEM_METIS], &by[FEM_RCB]};
        bench_fem_table4(ctx, mesh, both);
        /* The products run on the chosen partition; the other is done with. */
        fem_analysis_t a = by[ctx->fem_partitioner];
        for (unsigned p = 0; p < FEM_PARTITIONERS; p++)
            if (p != ctx->fem_partitioner)
                fem_analysis_free(&by[p]);
        const fem_stats_t *s = &a.stats;
        unsigned count[BINS] = {0};
        for (size_t c = 0; c < (size_t)a.part.parts * a.part.parts; c++)
            if (a.part.words[c] > 0)
                count[bin_of(a.part.words[c])]++;
        plot_series_t *series = plot_add(&pl, mesh->name, false);
        for (unsigned b = 0; b < BINS; b++)
            plot_point(series, b, count[b]);
        /* One product on the emulated array in each coding and style, y checked on every cell. */
        words[i] = s->words;
        bool ok = true;
        for (unsigned k = 0; k < CODINGS && ok; k++) {
            pred_m[k][i] = fem_predict_msgpass(&a, &model[k]);
            if (fem_predict_conset(&a, &model[k], &pred_c[k][i], err, sizeof err) != 0) {
                fprintf(stderr, "iwarp bench fem: %s: %s\n", mesh->name, err);
                rc = 1;
                ok = false;
            }
        }
        for (unsigned run = 0; run < 2 * CODINGS && ok && !interrupt_requested(); run++) {
            unsigned style = run % 2, k = run / 2;
            fem_run_t *r = style == 0 ? &runs[k][i] : &mp[k][i];
            if (fem_kernel_run(&a, SIDE, SIDE, style == 0 ? FEM_CONSET : FEM_MSGPASS, codings[k], ctx->threads, r, err,
                               sizeof err) != 0) {
                if (!interrupt_requested()) {
                    fprintf(stderr, "iwarp bench fem: %s: %s\n", mesh->name, err);
                    rc = 1;
                }
                ok = false;
            } else if (r->wrong != 0) {
                fprintf(stderr, "iwarp bench fem: %s: %llu entries of y wrong\n", mesh->name,
                        (unsigned long long)r->wrong);
                rc = 1;
                ok = false;
            } else {
                record_mesh(ctx, mesh, "product");
                bench_string(ctx, "style", style == 0 ? "conset" : "msgpass");
                bench_string(ctx, "coding", codings[k] == FEM_LIW ? "liw" : "one_op");
                bench_u64(ctx, "entries", r->nnz);
                bench_u64(ctx, "compute_clocks_min", r->compute_min);
                bench_u64(ctx, "compute_clocks_max", r->compute_max);
                bench_double(ctx, "mflops", 2.0 * (double)r->nnz / ((double)r->compute_max / 20e6) / 1e6);
                bench_u64(ctx, "exchange_clocks", r->exchange);
                bench_double(ctx, "predicted_exchange_clocks", style == 0 ? pred_c[k][i] : pred_m[k][i]);
                bench_double(ctx, "exchange_mbps", 4.0 * (double)s->words / ((double)r->exchange / 20e6) / 1e6);
                if (paper != NULL) {
                    bench_u64(ctx, "paper_compute_cycles", paper->cycles);
                    bench_double(ctx, "paper_mflops", paper->mflops);
                    bench_u64(ctx, "paper_predicted_exchange",
                              style == 0 ? paper->predicted_conset : paper->predicted_msgpass);
                }
                bench_u64(ctx, "wrong", r->wrong);
                bench_record_end(ctx);
            }
        }
        ran[i] = ok && !interrupt_requested();
        fem_analysis_free(&a);
    }
    bench_write_plot(ctx, &pl, "fem", "fem_words_per_connection.svg");
    /* Figure 6: the aggregate bandwidth of the exchange, predicted and emulated, by mesh. */
    plot_t bw;
    bench_plot_init(ctx, &bw, "Exchange bandwidth on 8x8 (as the paper's Figure 6)", "mesh", "MB/s, all cells", false,
                    false);
    plot_categories(&bw, names, n);
    bw.config = config;
    bw.legend_title = "scheme (bar: predicted)";
    plot_series_t *bs[4] = {plot_add(&bw, "ConSet emulated", false), NULL,
                            plot_add(&bw, "message passing emulated", false), NULL};
    bs[1] = plot_add_model(&bw, "ConSet predicted", bs[0]);
    bs[3] = plot_add_model(&bw, "message passing predicted", bs[2]);
    for (unsigned i = 0; i < n; i++)
        if (!ran[i]) { /* a mesh not run (--quick's c100k) is a gap, not a line to the next one */
            for (unsigned k = 0; k < 4; k++)
                plot_point(bs[k], i, NAN);
        } else {
            double bytes = 4.0 * (double)words[i] * 20e6 / 1e6;
            plot_point(bs[0], i, bytes / (double)runs[0][i].exchange);
            plot_point(bs[1], i, bytes / pred_c[0][i]);
            plot_point(bs[2], i, bytes / (double)mp[0][i].exchange);
            plot_point(bs[3], i, bytes / pred_m[0][i]);
        }
    bench_write_plot(ctx, &bw, "fem", "fem_bandwidth.svg");
    if (bench_report(ctx)) {
        print_table5(meshes, n, runs[0], ran);
        printf(
            "\nTable 6: the exchange of the shared nodes' partial sums, clocks between the barriers around it; y\n"
            "checked on every cell. ConSet: the phases, each word gathered through its index into the gate and added\n"
            "at the receiver; message passing: gathered into a buffer and sent (runtime/msg.s), added at the\n"
            "receiver alike. predicted: the paper's models with the loops' clocks a word counted in the assembled\n"
            "programs (ConSet: phases x %d + AS's phases at b a word; message passing: 2c + a a word a message)%s\n",
            MODEL_PER_PHASE, columns_of(meshes, n, ran).paper ? ";\ndev: predicted against the paper's predicted" : "");
        for (unsigned k = 0; k < CODINGS; k++)
            print_table6(k, &model[k], meshes, n, runs[k], mp[k], pred_c[k], pred_m[k], ran);
    }
    return rc;
}
