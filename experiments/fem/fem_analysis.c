/* A mesh's Table 4 column (fem_analysis.h). */
#include "fem_analysis.h"

#include <stdio.h>
#include <string.h>

#include "fem_pattern.h"

/* The ConSet paper, Table 4 (as printed). */
const fem_paper_table4_t fem_paper_table4[FEM_MESHES] = {
    {20998, 11000, 307, 346, 47, 133, 8, 12, 2},
    {20141, 10240, 294, 341, 46, 189, 5, 12, 2},
    {204873, 105000, 2987, 3444, 116, 638, 13, 12, 3},
    {20000, 22451, 286, 330, 357, 1070, 22, 12, 5},
};

const fem_paper_table4_t *fem_paper_row(const char *mesh)
{
    for (unsigned i = 0; i < FEM_MESHES; i++)
        if (strcmp(mesh, fem_mesh_names[i]) == 0)
            return &fem_paper_table4[i];
    return NULL;
}

/* |here - paper| / paper */
static double off(double here, double paper)
{
    return (here > paper ? here - paper : paper - here) / paper;
}

double fem_paper_distance(const fem_stats_t *s, unsigned phases, const fem_paper_table4_t *p)
{
    return (off(s->comm_min, p->comm_min) + off(s->comm_max, p->comm_max) + off(s->degree_max, p->degree) +
            off(phases, p->phases)) /
           4;
}

/* The steps after the mesh: its partition (kept in part_path when given, else made now), its pattern's statistics,
 * the connection set and the compiler's phases. Frees a on an error. */
static int partition_and_compile(fem_analysis_t *a, unsigned width, unsigned height, const char *part_path, char *err,
                                 size_t cap)
{
    int rc;
    unsigned parts = width * height;
    if (part_path != NULL) {
        rc = fem_partition_cached(&a->mesh, parts, a->how, part_path, &a->part, &a->part_made, err, cap);
    } else {
        rc = fem_partition(&a->mesh, parts, a->how, &a->part, err, cap);
        a->part_made = 1;
    }
    if (rc == 0) {
        fem_partition_stats(&a->mesh, &a->part, &a->stats);
        rc = fem_pattern_cset(&a->part, width, height, &a->set, err, cap);
    }
    if (rc == 0)
        rc = fem_pattern_phases(&a->set, &a->phases, err, cap);
    if (rc != 0)
        fem_analysis_free(a);
    return rc;
}

int fem_analyse(const char *mesh, unsigned width, unsigned height, fem_partitioner_t how, const char *cache_dir,
                fem_analysis_t *a, char *err, size_t cap)
{
    memset(a, 0, sizeof *a);
    a->how = how;
    if (fem_mesh_load(mesh, cache_dir, &a->mesh, &a->mesh_made, err, cap) != 0)
        return -1;
    /* A user's mesh is partitioned afresh; a built-in one's partition is kept beside it. */
    if (fem_paper_row(mesh) == NULL)
        return partition_and_compile(a, width, height, NULL, err, cap);
    char path[4200];
    /* METIS's under the name it has always had; RCB's beside it */
    snprintf(path, sizeof path, "%s/%s.v%d.%spart%u", cache_dir, mesh, FEM_MESH_RECIPE, how == FEM_RCB ? "rcb." : "",
             width * height);
    return partition_and_compile(a, width, height, path, err, cap);
}

int fem_analyse_mesh(const fem_mesh_t *mesh, unsigned width, unsigned height, fem_partitioner_t how, fem_analysis_t *a,
                     char *err, size_t cap)
{
    memset(a, 0, sizeof *a);
    a->how = how;
    if (fem_mesh_copy(mesh, &a->mesh) != 0) {
        snprintf(err, cap, "out of memory");
        return -1;
    }
    return partition_and_compile(a, width, height, NULL, err, cap);
}

void fem_analysis_free(fem_analysis_t *a)
{
    fem_mesh_free(&a->mesh);
    fem_partition_free(&a->part);
    cset_free(&a->set);
    memset(a, 0, sizeof *a);
}
