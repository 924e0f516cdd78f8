/*
 * One mesh through the experiment's first steps: made or read (gmsh, cached), partitioned into one part a cell
 * (METIS, cached), its pattern's statistics and the communication compiler's phases: the ConSet paper's Table 4
 * column for it, beside the paper's own for the four meshes it names. docs/fem.md.
 */
#ifndef EXPERIMENTS_FEM_ANALYSIS_H
#define EXPERIMENTS_FEM_ANALYSIS_H

#include <stdbool.h>
#include <stddef.h>

#include "conset/cset.h"
#include "fem_mesh.h"
#include "fem_partition.h"

typedef struct fem_analysis {
    fem_mesh_t mesh;
    fem_partitioner_t how;
    fem_partition_t part;
    fem_stats_t stats;
    cset_t set;
    unsigned phases;
    int mesh_made, part_made; /* 1 when this call made them (not from the cache) */
} fem_analysis_t;

/* `mesh`: a built-in name or a gmsh file, partitioned by `how`. The cache (meshes and partitions) is cache_dir. */
int fem_analyse(const char *mesh, unsigned width, unsigned height, fem_partitioner_t how, const char *cache_dir,
                fem_analysis_t *a, char *err, size_t cap);
/* The same for a mesh already read (fem_mesh_load), as bench fem reads a user's meshes before it runs anything:
 * a keeps a copy of it, partitioned by `how` now (a user's mesh has no cached partition). */
int fem_analyse_mesh(const fem_mesh_t *mesh, unsigned width, unsigned height, fem_partitioner_t how, fem_analysis_t *a,
                     char *err, size_t cap);
void fem_analysis_free(fem_analysis_t *a);

/* The paper's Table 4 for the four meshes it names (in fem_mesh_names order). comm: words a processor sends
 * and receives in a product, min and max; degree: the largest in/out-degree. */
typedef struct fem_paper_table4 {
    unsigned elements, nodes, elems_min, elems_max, comm_min, comm_max, degree, channels, phases;
} fem_paper_table4_t;
extern const fem_paper_table4_t fem_paper_table4[];

/* The paper's mesh a name stands for, or NULL. */
const fem_paper_table4_t *fem_paper_row(const char *mesh);

/* How far a column is from the paper's, over the figures the partitioner and the compiler decide and the
 * paper gives: words a cell min and max, the in/out-degree and the phases. The mean of |here - paper| / paper
 * over those four: 0 when all match, 0.5 when each is half again or half of the paper's. */
double fem_paper_distance(const fem_stats_t *s, unsigned phases, const fem_paper_table4_t *p);

#endif
