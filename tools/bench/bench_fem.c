/*
 * iwarp bench fem: the finite element experiment of the ConSet paper (section 5.2), its structural part: the four
 * meshes made by gmsh (cached in out/fem/cache), partitioned by METIS and by RCB into the 64 cells of the 8x8
 * array, their communication patterns and the communication compiler's phases, as the paper's Table 4 beside its
 * own (bench_fem_table4.c); the distribution of words per connection, as its Figure 5; and one product on the
 * emulated cells on the partition --partitioner chooses (METIS by default), its Tables 5 and 6. docs/fem.md.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "fem_analysis.h"
#include "fem_kernel.h"
#include "model.h"
#include "interrupt.h"
#include "plot.h"

enum { SIDE = 8, BINS = 8 };

/* The paper's Table 5 (local computation: cycles, MFLOPS) and the predicted columns of its Table 6. */
static const struct {
    unsigned cycles;
    double mflops;
    unsigned predicted_conset, predicted_msgpass;
} paper_tables56[FEM_MESHES] = {
    {22696, 189.44, 4786, 8378},
    {21064, 199.04, 5066, 6752},
    {186632, 200.96, 19774, 19508},
    {118096, 273.92, 35910, 32852},
};

/* The exchange's two codings (fem_kernel.h): the paper's, which the reproduction runs, and ours beside it. */
enum { CODINGS = 2 };
static const fem_coding_t codings[CODINGS] = {FEM_ONE_OP, FEM_LIW};

static double dev_percent(double ours, double paper)
{
    return 100.0 * (ours - paper) / paper;
}

/* Table 6 in one coding: emulated, our model and the paper's predicted, for ConSet and message passing. */
static void print_table6(unsigned k, const fem_model_t *m, const fem_run_t *runs, const fem_run_t *mp,
                         const double *pred_c, const double *pred_m, const bool *ran)
{
    if (codings[k] == FEM_ONE_OP)
        printf("\nThe paper's coding: one operation an instruction, one timeline a cell. ConSet b = %.0f (send %.0f,\n"
               "receive %.0f: the slower); message passing c = %d, a = %.0f gather + %.0f receive\n",
               m->conset_b, m->send, m->receive, MODEL_C, m->gather_a, m->receive_a);
    else
        printf("\nOurs: LIW bundles, a send and a receive timeline a cell. ConSet b = %.0f (a word out and one in);\n"
               "message passing c = %d, a = %.1f gather + %.0f receive\n",
               m->conset_b, MODEL_C, m->gather_a, m->receive_a);
    printf("%-7s %8s %9s %6s %6s | %8s %9s %6s %6s | %9s\n", "mesh", "ConSet", "predicted", "paper", "dev %",
           "msg pass", "predicted", "paper", "dev %", "MP/ConSet");
    for (unsigned i = 0; i < FEM_MESHES; i++)
        if (ran[i])
            printf("%-7s %8llu %9.0f %6u %6.1f | %8llu %9.0f %6u %6.1f | %9.2f\n", fem_mesh_names[i],
                   (unsigned long long)runs[i].exchange, pred_c[i], paper_tables56[i].predicted_conset,
                   dev_percent(pred_c[i], paper_tables56[i].predicted_conset), (unsigned long long)mp[i].exchange,
                   pred_m[i], paper_tables56[i].predicted_msgpass,
                   dev_percent(pred_m[i], paper_tables56[i].predicted_msgpass),
                   (double)mp[i].exchange / (double)runs[i].exchange);
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

int bench_fem(bench_context_t *ctx)
{
    const char *cache = "out/fem/cache";
    if (bench_report(ctx))
        printf("The ConSet paper's Table 4 on 8x8: meshes by gmsh, each partitioned into one part a cell by METIS\n"
               "(METIS_PartMeshDual) and by RCB (recursive coordinate bisection of the elements' centroids), phases\n"
               "by the communication compiler with 12 logical channels. words a cell: sent and received in one\n"
               "product, one a shared node and neighbour. Each figure with its difference from the paper's;\n"
               "distance: the mean of |here - paper| / paper over words a cell min and max, degree and phases.\n"
               "Figure 5 and Tables 5 and 6 run on %s's partition.\n",
               fem_partitioner_label((fem_partitioner_t)ctx->fem_partitioner));
    plot_t pl;
    bench_plot_init(ctx, &pl, "Words per connection (as the ConSet paper's Figure 5)",
                    "words a connection carries (1, 2-3, 4-7, ...)", "connections", false, false);
    static const char *const bins[BINS] = {"1", "2", "4", "8", "16", "32", "64", "128+"};
    plot_categories(&pl, bins, BINS);
    pl.legend_title = "mesh";
    char config[128];
    snprintf(config, sizeof config, "%ux%u array, %s partition, 12 logical channels", SIDE, SIDE,
             fem_partitioner_label((fem_partitioner_t)ctx->fem_partitioner));
    pl.config = config;
    int rc = 0;
    /* [coding][mesh]: the paper's coding (FEM_ONE_OP, the reproduction) first, ours (FEM_LIW) beside it */
    fem_run_t runs[CODINGS][FEM_MESHES], mp[CODINGS][FEM_MESHES];
    double pred_c[CODINGS][FEM_MESHES], pred_m[CODINGS][FEM_MESHES];
    uint64_t words[FEM_MESHES];
    bool ran[FEM_MESHES] = {false};
    fem_model_t model[CODINGS];
    char merr[512];
    for (unsigned k = 0; k < CODINGS; k++)
        if (fem_model_loops(codings[k], &model[k], merr, sizeof merr) != 0) {
            fprintf(stderr, "iwarp bench fem: %s\n", merr);
            return 1;
        }
    for (unsigned i = 0; i < FEM_MESHES && !interrupt_requested(); i++) {
        const char *mesh = fem_mesh_names[i];
        if (ctx->quick && strcmp(mesh, "c100k") == 0)
            continue; /* --quick: the three small meshes (c100k takes gmsh seconds to make) */
        fem_analysis_t by[FEM_PARTITIONERS];
        char err[1024];
        unsigned made = 0;
        for (; made < FEM_PARTITIONERS; made++)
            if (fem_analyse(mesh, SIDE, SIDE, (fem_partitioner_t)made, cache, &by[made], err, sizeof err) != 0) {
                fprintf(stderr, "iwarp bench fem: %s (%s)\n", err, fem_partitioner_names[made]);
                break;
            }
        if (made < FEM_PARTITIONERS) {
            while (made > 0)
                fem_analysis_free(&by[--made]);
            rc = 1;
            continue;
        }
        const fem_analysis_t *const both[FEM_PARTITIONERS] = {&by[FEM_METIS], &by[FEM_RCB]};
        bench_fem_table4(ctx, i, both);
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
        plot_series_t *series = plot_add(&pl, mesh, false);
        for (unsigned b = 0; b < BINS; b++)
            plot_point(series, b, count[b]);
        /* One product on the emulated array in each coding and style, y checked on every cell. */
        words[i] = s->words;
        bool ok = true;
        for (unsigned k = 0; k < CODINGS && ok; k++) {
            pred_m[k][i] = fem_predict_msgpass(&a, &model[k]);
            if (fem_predict_conset(&a, &model[k], &pred_c[k][i], err, sizeof err) != 0) {
                fprintf(stderr, "iwarp bench fem: %s: %s\n", mesh, err);
                rc = 1;
                ok = false;
            }
        }
        for (unsigned run = 0; run < 2 * CODINGS && ok && !interrupt_requested(); run++) {
            unsigned style = run % 2, k = run / 2;
            fem_run_t *r = style == 0 ? &runs[k][i] : &mp[k][i];
            if (fem_kernel_run(&a, SIDE, SIDE, style == 0 ? FEM_CONSET : FEM_MSGPASS, codings[k], ctx->threads, r,
                               err, sizeof err) != 0) {
                if (!interrupt_requested()) {
                    fprintf(stderr, "iwarp bench fem: %s: %s\n", mesh, err);
                    rc = 1;
                }
                ok = false;
            } else if (r->wrong != 0) {
                fprintf(stderr, "iwarp bench fem: %s: %llu entries of y wrong\n", mesh, (unsigned long long)r->wrong);
                rc = 1;
                ok = false;
            } else {
                bench_record_begin(ctx, "fem", mesh);
                bench_string(ctx, "kind", "product");
                bench_string(ctx, "style", style == 0 ? "conset" : "msgpass");
                bench_string(ctx, "coding", codings[k] == FEM_LIW ? "liw" : "one_op");
                bench_u64(ctx, "entries", r->nnz);
                bench_u64(ctx, "compute_clocks_min", r->compute_min);
                bench_u64(ctx, "compute_clocks_max", r->compute_max);
                bench_double(ctx, "mflops", 2.0 * (double)r->nnz / ((double)r->compute_max / 20e6) / 1e6);
                bench_u64(ctx, "exchange_clocks", r->exchange);
                bench_double(ctx, "predicted_exchange_clocks", style == 0 ? pred_c[k][i] : pred_m[k][i]);
                bench_double(ctx, "exchange_mbps", 4.0 * (double)s->words / ((double)r->exchange / 20e6) / 1e6);
                bench_u64(ctx, "paper_compute_cycles", paper_tables56[i].cycles);
                bench_double(ctx, "paper_mflops", paper_tables56[i].mflops);
                bench_u64(ctx, "paper_predicted_exchange",
                          style == 0 ? paper_tables56[i].predicted_conset : paper_tables56[i].predicted_msgpass);
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
    bench_plot_init(ctx, &bw, "Exchange bandwidth on 8x8 (as the paper's Figure 6)", "mesh",
                    "MB/s, all cells", false, false);
    plot_categories(&bw, fem_mesh_names, FEM_MESHES);
    bw.config = config;
    bw.legend_title = "scheme (bar: predicted)";
    plot_series_t *bs[4] = {plot_add(&bw, "ConSet emulated", false), NULL,
                            plot_add(&bw, "message passing emulated", false), NULL};
    bs[1] = plot_add_model(&bw, "ConSet predicted", bs[0]);
    bs[3] = plot_add_model(&bw, "message passing predicted", bs[2]);
    for (unsigned i = 0; i < FEM_MESHES; i++)
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
        printf("\nTable 5: one sparse matrix-vector product on the emulated 8x8, the local part (programs/fem/spmv.inc,\n"
               "each cell's assembled CSR rows): clocks of the slowest cell; MFLOPS: 2 a stored entry, over the array\n"
               "%-7s %9s %11s %9s %9s %9s\n",
               "mesh", "entries", "compute", "paper", "MFLOPS", "paper");
        for (unsigned i = 0; i < FEM_MESHES; i++)
            if (ran[i])
                printf("%-7s %9llu %11llu %9u %9.1f %9.2f\n", fem_mesh_names[i], (unsigned long long)runs[0][i].nnz,
                       (unsigned long long)runs[0][i].compute_max, paper_tables56[i].cycles,
                       2.0 * (double)runs[0][i].nnz / ((double)runs[0][i].compute_max / 20e6) / 1e6,
                       paper_tables56[i].mflops);
        printf("\nTable 6: the exchange of the shared nodes' partial sums, clocks between the barriers around it; y\n"
               "checked on every cell. ConSet: the phases, each word gathered through its index into the gate and added\n"
               "at the receiver; message passing: gathered into a buffer and sent (runtime/msg.s), added at the\n"
               "receiver alike. predicted: the paper's models with the loops' clocks a word counted in the assembled\n"
               "programs (ConSet: phases x %d + AS's phases at b a word; message passing: 2c + a a word a message);\n"
               "dev: predicted against the paper's predicted\n",
               MODEL_PER_PHASE);
        for (unsigned k = 0; k < CODINGS; k++)
            print_table6(k, &model[k], runs[k], mp[k], pred_c[k], pred_m[k], ran);
    }
    return rc;
}
