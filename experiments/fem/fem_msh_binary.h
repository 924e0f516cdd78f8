/* The structural check of a binary gmsh .msh file (fem_msh_binary.c), called by fem_msh_check once the
 * $MeshFormat line says binary. */
#ifndef EXPERIMENTS_FEM_MSH_BINARY_H
#define EXPERIMENTS_FEM_MSH_BINARY_H

#include <stdbool.h>
#include <stddef.h>

/* Checks the file from offset `at` (just after the `version 1 8` line; version 2.x when v2, else 4.1). 0, or -1
 * with `file:line: byte N ...: what` in err. */
int fem_msh_binary_check(const char *text, size_t len, size_t at, bool v2, const char *file, char *err, size_t cap);

#endif
