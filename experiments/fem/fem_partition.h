/*
 * A mesh partitioned into one part per cell, by METIS (libmetis-dev: METIS_PartMeshDual, elements that share a
 * face are neighbours) or by recursive coordinate bisection of the elements' centroids (fem_rcb.h), and the communication pattern of its sparse matrix-vector product: a node whose
 * elements lie in several parts is shared, and each part sends every other part that shares it one word for
 * it (the partial sums the receiver adds). The ConSet paper's Table 4 comes from here. docs/fem.md.
 */
#ifndef EXPERIMENTS_FEM_PARTITION_H
#define EXPERIMENTS_FEM_PARTITION_H

#include <stddef.h>
#include <stdint.h>

#include "fem_mesh.h"

typedef struct fem_partition {
    unsigned parts;
    size_t nelems;
    uint32_t *epart; /* the part of each element */
    uint32_t *words; /* parts x parts: words[a * parts + b], a word a node a and b share (0 on the diagonal) */
} fem_partition_t;

/* Who cuts the mesh. The ConSet paper does not name its partitioner, so METIS, the field's library, is the
 * default and RCB the second choice printed beside it (docs/fem.md). */
typedef enum fem_partitioner {
    FEM_METIS, /* METIS_PartMeshDual, default options, seed 1: parts by the mesh's connectivity */
    FEM_RCB,   /* recursive coordinate bisection: parts by the elements' centroids alone */
    FEM_PARTITIONERS
} fem_partitioner_t;

/* "metis", "rcb" (as the options spell them), in the enum's order. */
extern const char *const fem_partitioner_names[FEM_PARTITIONERS];
/* The name as written in reports: "METIS", "RCB". */
const char *fem_partitioner_label(fem_partitioner_t how);
/* 0 and *how for "metis" or "rcb"; -1 for anything else. */
int fem_partitioner_parse(const char *name, fem_partitioner_t *how);

/* Partitions m into `parts` (2 or more); METIS with its default options and a fixed seed. */
int fem_partition(const fem_mesh_t *m, unsigned parts, fem_partitioner_t how, fem_partition_t *p, char *err,
                  size_t cap);

/* The same, kept in `path`: read from it when it holds a partition of this mesh into this many parts, else
 * made and written there. *made says which. */
int fem_partition_cached(const fem_mesh_t *m, unsigned parts, fem_partitioner_t how, const char *path,
                         fem_partition_t *p, int *made, char *err, size_t cap);

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
