/*
 * Recursive coordinate bisection of a mesh's elements, the geometric partitioner iwarp offers beside METIS
 * (fem_partition.h): the elements' centroids are cut by a plane across the longest side of their bounding box
 * so that the two halves get elements in proportion to the parts they will hold, and each half is cut again
 * until there is one part a cell (64 parts: 6 levels of bisection). The ConSet paper (section 5.2) does not
 * name the partitioner behind its Table 4; this is the simplest geometric one, a second choice whose parts are
 * cut by coordinates alone rather than by the mesh's connectivity. docs/fem.md.
 */
#ifndef EXPERIMENTS_FEM_RCB_H
#define EXPERIMENTS_FEM_RCB_H

#include <stdint.h>

#include "fem_mesh.h"

/* epart[e], the part of each of m's elements, for `parts` (1 or more, at most m->nelems) parts. Part sizes
 * follow the cuts: with a power of two parts every part has floor or ceil of nelems / parts elements. Ties in
 * a coordinate go by element number, so the result is the same every time. -1 when out of memory. */
int fem_rcb(const fem_mesh_t *m, unsigned parts, uint32_t *epart);

#endif
