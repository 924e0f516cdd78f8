/*
 * Finite element meshes for the ConSet paper's section 5.2 experiment, made and read by gmsh (its C API,
 * libgmsh-dev, loaded only by these calls: fem_gmsh.h): the paper's four kinds (a plate of random nodes, a cracked
 * plate refined at the crack tip at two sizes, a 3D valley of soft soil in hard rock) generated with fixed seeds, or a
 * user's own gmsh .msh file. A mesh here is what the communication pattern needs: its elements of the highest
 * dimension, each a list of nodes. docs/fem.md.
 */
#ifndef EXPERIMENTS_FEM_MESH_H
#define EXPERIMENTS_FEM_MESH_H

#include <stddef.h>
#include <stdint.h>

typedef struct fem_mesh {
    unsigned dim;  /* of its elements: 2 or 3 */
    size_t nnodes; /* nodes that some element uses, numbered 0 .. nnodes - 1 */
    size_t nelems;
    uint32_t *elem_ptr; /* nelems + 1: element e's nodes are elem_nodes[elem_ptr[e] .. elem_ptr[e + 1]) */
    uint32_t *elem_nodes;
    double *coords;      /* 3 a node */
    unsigned face_nodes; /* nodes two neighbouring elements share: 2 (triangles, quads), 3 (tets), 4 (hexes) */
} fem_mesh_t;

/* The built-in meshes, by name: "m11k", "c10k", "c100k", "g20k". */
extern const char *const fem_mesh_names[];
enum { FEM_MESHES = 4 };

/* Reads a gmsh file (any format gmsh reads: .msh 2 and 4, .geo, ...; a .geo is meshed first). Errors say
 * `path: what`. */
int fem_mesh_read(const char *path, fem_mesh_t *m, char *err, size_t cap);

/* The built-in meshes' recipe, numbered: it is in the cache's names (NAME.v2.msh, and the partitions'), so that a
 * cache made by an older recipe is never read as this one's. 2: m11k's sides have 1,000 nodes. */
enum { FEM_MESH_RECIPE = 2 };

/* The built-in mesh `name`, from cache_dir/NAME.vR.msh (R: FEM_MESH_RECIPE) when it is there, else made by gmsh and
 * written there first (cache_dir is made as needed); a name that is not built in is a path to read. *made says which.
 */
int fem_mesh_load(const char *name, const char *cache_dir, fem_mesh_t *m, int *made, char *err, size_t cap);

/* Where fem_mesh_load's mesh came from, for a report: a built-in one made by gmsh now or from the cache, a
 * user's .geo meshed by gmsh now (it is a program, run each time), a user's .msh read as it is. */
const char *fem_mesh_origin(const char *name, int made);

/* A copy of `from` that owns its arrays (fem_mesh_free frees it). -1 when out of memory, `to` left empty. */
int fem_mesh_copy(const fem_mesh_t *from, fem_mesh_t *to);

void fem_mesh_free(fem_mesh_t *m);

#endif
