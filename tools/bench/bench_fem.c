/*
 * iwarp bench fem: the finite element experiment of the ConSet paper (section 5.2), its structural part: the four
 * meshes made by gmsh (cached in out/fem/cache), partitioned by METIS into the 64 cells of the 8x8 array, their
 * communication patterns and the communication compiler's phases, as the paper's Table 4 beside its own; and
 * the distribution of words per connection, as its Figure 5. docs/fem.md.
 */
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "fem_analysis.h"
#include "interrupt.h"
#include "plot.h"

enum { SIDE = 8, BINS = 8 };

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
        printf("The ConSet paper's Table 4 on 8x8: meshes by gmsh, partitions by METIS (one part a cell), phases by\n"
               "the communication compiler with 12 logical channels; beside each, the paper's figure. words a cell:\n"
               "sent and received in one product, one a shared node and neighbour.\n"
               "%-7s %4s %9s %9s %9s %9s %10s %10s %6s %6s %7s %7s\n",
               "mesh", "dim", "elements", "paper", "nodes", "paper", "el./cell", "paper", "degree", "paper", "phases",
               "paper");
    plot_t pl;
    bench_plot_init(ctx, &pl, "Words per connection (as the ConSet paper's Figure 5)",
                    "words a connection carries (1, 2-3, 4-7, ...)", "connections", false, false);
    static const char *const bins[BINS] = {"1", "2", "4", "8", "16", "32", "64", "128+"};
    plot_categories(&pl, bins, BINS);
    int rc = 0;
    for (unsigned i = 0; i < FEM_MESHES && !interrupt_requested(); i++) {
        const char *mesh = fem_mesh_names[i];
        if (ctx->quick && strcmp(mesh, "c100k") == 0)
            continue; /* --quick: the three small meshes (c100k takes gmsh seconds to make) */
        fem_analysis_t a;
        char err[1024];
        if (fem_analyse(mesh, SIDE, SIDE, cache, &a, err, sizeof err) != 0) {
            fprintf(stderr, "iwarp bench fem: %s\n", err);
            rc = 1;
            continue;
        }
        const fem_stats_t *s = &a.stats;
        const fem_paper_table4_t *p = &fem_paper_table4[i];
        bench_record_begin(ctx, "fem", mesh);
        bench_string(ctx, "kind", "structure");
        bench_u64(ctx, "dim", a.mesh.dim);
        bench_u64(ctx, "elements", s->elements);
        bench_u64(ctx, "nodes", s->nodes);
        bench_u64(ctx, "elements_min", s->elems_min);
        bench_u64(ctx, "elements_max", s->elems_max);
        bench_u64(ctx, "comm_words_min", s->comm_min);
        bench_u64(ctx, "comm_words_max", s->comm_max);
        bench_u64(ctx, "degree_max", s->degree_max);
        bench_u64(ctx, "connections", s->connections);
        bench_u64(ctx, "words", s->words);
        bench_u64(ctx, "logical_channels", a.set.capacity);
        bench_u64(ctx, "phases", a.phases);
        bench_u64(ctx, "paper_elements", p->elements);
        bench_u64(ctx, "paper_nodes", p->nodes);
        bench_u64(ctx, "paper_degree", p->degree);
        bench_u64(ctx, "paper_phases", p->phases);
        bench_record_end(ctx);
        if (bench_report(ctx)) {
            char el[24], pel[24], cm[24], pcm[24];
            snprintf(el, sizeof el, "%u/%u", s->elems_min, s->elems_max);
            snprintf(pel, sizeof pel, "%u/%u", p->elems_min, p->elems_max);
            snprintf(cm, sizeof cm, "%u/%u", s->comm_min, s->comm_max);
            snprintf(pcm, sizeof pcm, "%u/%u", p->comm_min, p->comm_max);
            printf("%-7s %4u %9zu %9u %9zu %9u %10s %10s %6u %6u %7u %7u\n", mesh, a.mesh.dim, s->elements, p->elements,
                   s->nodes, p->nodes, el, pel, s->degree_max, p->degree, a.phases, p->phases);
            printf("%-7s words a cell %s (paper %s); %u connections, %u to %u words each\n", "", cm, pcm,
                   s->connections, s->words_min, s->words_max);
        }
        unsigned count[BINS] = {0};
        for (size_t k = 0; k < (size_t)a.part.parts * a.part.parts; k++)
            if (a.part.words[k] > 0)
                count[bin_of(a.part.words[k])]++;
        plot_series_t *series = plot_add(&pl, mesh, i % 2 == 1);
        for (unsigned b = 0; b < BINS; b++)
            plot_point(series, b, count[b]);
        fem_analysis_free(&a);
    }
    bench_write_plot(ctx, &pl, "fem", "fem_words_per_connection.svg");
    return rc;
}
