/*
 * A structural check of a gmsh .msh file (formats 2.x and 4.1, ASCII or binary) before gmsh reads it, so that a
 * broken file is refused with `file:line: what`: gmsh itself says only "Error loading" for most of them, and sizes
 * its allocations by counts it has not checked. In ASCII it checks the sections' pairing and, in $Nodes and
 * $Elements, the counts and the numbers on every line; in binary, every count against the bytes that follow
 * (fem_msh_binary.c). It does not build a mesh (gmsh does). Other formats (.geo) are left to gmsh. docs/fem.md.
 */
#ifndef EXPERIMENTS_FEM_MSH_CHECK_H
#define EXPERIMENTS_FEM_MSH_CHECK_H

#include <stddef.h>

/* 0 when the text looks like a well-formed .msh file; -1 with `file:line: what` in err. */
int fem_msh_check(const char *text, size_t len, const char *file, char *err, size_t cap);

#endif
