/*
 * A gmsh file read by gmsh in this process, into a fem_mesh_t: the elements of the highest dimension, renumbered
 * onto the nodes they use. iwarp calls it only in the child that fem_sandbox.h starts, since gmsh runs what a .geo
 * file says; the fuzz harness calls it directly. docs/fem.md.
 */
#ifndef EXPERIMENTS_FEM_GMSH_READ_H
#define EXPERIMENTS_FEM_GMSH_READ_H

#include <stddef.h>

#include "fem_gmsh.h"
#include "fem_mesh.h"

/* Opens path with gmsh (a .geo is meshed), takes its mesh into m; -1 with `path: what` in err. */
int fem_gmsh_read(const fem_gmsh_t *gmsh, const char *path, fem_mesh_t *m, char *err, size_t cap);

#endif
