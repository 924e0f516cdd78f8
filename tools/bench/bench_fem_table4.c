/*
 * bench fem's Table 4 for one mesh (the ConSet paper, section 5.2, Table 4): the mesh's size, then a row for
 * the paper's partition and one for each of ours (METIS, RCB), every figure with its difference from the
 * paper's, and the distance (fem_paper_distance) that sums them up; for a user's mesh (bench fem --mesh), the
 * rows of the two partitioners alone. docs/fem.md.
 */
#include <stdio.h>

#include "bench.h"
#include "fem_analysis.h"

/* "a/b" and, when paper is given, " (+d/-e)" with the differences from it. */
static void pair(char *buf, size_t cap, unsigned a, unsigned b, const unsigned *paper)
{
    if (paper == NULL)
        snprintf(buf, cap, "%u/%u", a, b);
    else
        snprintf(buf, cap, "%u/%u (%+d/%+d)", a, b, (int)a - (int)paper[0], (int)b - (int)paper[1]);
}

static void one(char *buf, size_t cap, unsigned a, const unsigned *paper)
{
    if (paper == NULL)
        snprintf(buf, cap, "%u", a);
    else
        snprintf(buf, cap, "%u (%+d)", a, (int)a - (int)paper[0]);
}

/* The paper's Table 4 for a mesh of the bench: its own four only (a user's file is none of them, whatever its name). */
static const fem_paper_table4_t *paper_of(const bench_fem_mesh_t *m)
{
    return m->file == NULL ? fem_paper_row(m->name) : NULL;
}

void bench_fem_table4(bench_context_t *ctx, const bench_fem_mesh_t *mesh, const fem_analysis_t *const by[])
{
    const fem_paper_table4_t *p = paper_of(mesh);
    const char *name = mesh->name;
    for (unsigned k = 0; k < FEM_PARTITIONERS; k++) {
        const fem_analysis_t *a = by[k];
        const fem_stats_t *s = &a->stats;
        bench_record_begin(ctx, "fem", name);
        bench_string(ctx, "kind", "structure");
        if (mesh->file != NULL)
            bench_string(ctx, "mesh_file", mesh->file);
        bench_string(ctx, "partitioner", fem_partitioner_names[a->how]);
        bench_u64(ctx, "dim", a->mesh.dim);
        bench_u64(ctx, "elements", s->elements);
        bench_u64(ctx, "nodes", s->nodes);
        bench_u64(ctx, "elements_min", s->elems_min);
        bench_u64(ctx, "elements_max", s->elems_max);
        bench_u64(ctx, "comm_words_min", s->comm_min);
        bench_u64(ctx, "comm_words_max", s->comm_max);
        bench_u64(ctx, "degree_max", s->degree_max);
        bench_u64(ctx, "connections", s->connections);
        bench_u64(ctx, "words", s->words);
        bench_u64(ctx, "logical_channels", a->set.capacity);
        bench_u64(ctx, "phases", a->phases);
        if (p != NULL) {
            bench_u64(ctx, "paper_elements", p->elements);
            bench_u64(ctx, "paper_nodes", p->nodes);
            bench_u64(ctx, "paper_comm_words_min", p->comm_min);
            bench_u64(ctx, "paper_comm_words_max", p->comm_max);
            bench_u64(ctx, "paper_degree", p->degree);
            bench_u64(ctx, "paper_phases", p->phases);
            bench_double(ctx, "paper_distance", fem_paper_distance(s, a->phases, p));
        }
        bench_record_end(ctx);
    }
    if (!bench_report(ctx))
        return;
    const fem_analysis_t *a = by[0];
    if (p != NULL)
        printf("%s: %uD, %zu elements (paper %u), %zu nodes (paper %u)\n", name, a->mesh.dim, a->stats.elements,
               p->elements, a->stats.nodes, p->nodes);
    else /* a user's mesh: what gmsh did with it, and no paper beside it */
        printf("%s: %uD, %zu elements, %zu nodes (%s; the paper has no figures for it)\n", name, a->mesh.dim,
               a->stats.elements, a->stats.nodes, fem_mesh_origin(mesh->file, 0));
    printf("  %-9s %-21s %-20s %-9s %-7s %11s%s\n", "partition", "elements a cell", "words a cell", "degree", "phases",
           "connections", p != NULL ? " distance" : "");
    char el[48], cm[48], dg[24], ph[24];
    if (p != NULL) {
        pair(el, sizeof el, p->elems_min, p->elems_max, NULL);
        pair(cm, sizeof cm, p->comm_min, p->comm_max, NULL);
        printf("  %-9s %-21s %-20s %-9u %u\n", "paper", el, cm, p->degree, p->phases);
    }
    for (unsigned k = 0; k < FEM_PARTITIONERS; k++) {
        const fem_stats_t *s = &by[k]->stats;
        const unsigned pe[2] = {p != NULL ? p->elems_min : 0, p != NULL ? p->elems_max : 0},
                       pc[2] = {p != NULL ? p->comm_min : 0, p != NULL ? p->comm_max : 0};
        pair(el, sizeof el, s->elems_min, s->elems_max, p != NULL ? pe : NULL);
        pair(cm, sizeof cm, s->comm_min, s->comm_max, p != NULL ? pc : NULL);
        one(dg, sizeof dg, s->degree_max, p != NULL ? &p->degree : NULL);
        one(ph, sizeof ph, by[k]->phases, p != NULL ? &p->phases : NULL);
        char distance[24] = "";
        if (p != NULL)
            snprintf(distance, sizeof distance, " %7.0f%%", 100 * fem_paper_distance(s, by[k]->phases, p));
        printf("  %-9s %-21s %-20s %-9s %-7s %11u%s\n", fem_partitioner_label(by[k]->how), el, cm, dg, ph,
               s->connections, distance);
    }
}
