/*
 * A mesh partitioned by METIS (libmetis-dev: METIS_PartMeshDual, elements that share a face are neighbours)
 * into one part per cell, and the communication pattern of its sparse matrix-vector product: a node whose
 * elements lie in several parts is shared, and each part sends every other part that shares it one word for
 * it (the partial sums the receiver adds). The ConSet paper's Table 4 comes from here. docs/fem.md.
 */
#ifndef TOOLS_FEM_PARTITION_H
#define TOOLS_FEM_PARTITION_H

#include <stddef.h>
#include <stdint.h>

#include "fem_mesh.h"

typedef struct fem_partition {
    unsigned parts;
    size_t nelems;
    uint32_t *epart; /* the part of each element */
    uint32_t *words; /* parts x parts: words[a * parts + b], a word a node a and b share (0 on the diagonal) */
} fem_partition_t;

/* Partitions m into `parts` (2 or more) with METIS's default options and a fixed seed. */
int fem_partition(const fem_mesh_t *m, unsigned parts, fem_partition_t *p, char *err, size_t cap);

/* The same, kept in `path`: read from it when it holds a partition of this mesh into this many parts, else
 * made and written there. *made says which. */
int fem_partition_cached(const fem_mesh_t *m, unsigned parts, const char *path, fem_partition_t *p, int *made,
                         char *err, size_t cap);

void fem_partition_free(fem_partition_t *p);

/* The paper's Table 4 for a partitioned mesh. */
typedef struct fem_stats {
    size_t elements, nodes;
    unsigned elems_min, elems_max;   /* elements a part */
    unsigned comm_min, comm_max;     /* words a part sends and receives each product (the paper's 'comm.') */
    unsigned degree_max;             /* the most parts any part sends to (and receives from) */
    unsigned connections;            /* ordered pairs with words */
    uint64_t words;                  /* over all connections */
    unsigned words_min, words_max;   /* a connection's */
} fem_stats_t;

void fem_partition_stats(const fem_mesh_t *m, const fem_partition_t *p, fem_stats_t *s);

#endif
