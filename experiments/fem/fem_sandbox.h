/*
 * gmsh reads a user's mesh file in a child process, never in iwarp's own: a .geo file is a program (loops, and
 * commands that fem_geo_check.h refuses), and gmsh's readers are large C++ code that a crafted file may break.
 * The child (fork, no shell) has limits on its CPU time, memory and wall-clock time and a seccomp filter
 * (fem_seccomp.h); it sends the mesh back over a pipe, and this process checks every count and index of what
 * arrives before using it. docs/fem.md.
 */
#ifndef EXPERIMENTS_FEM_SANDBOX_H
#define EXPERIMENTS_FEM_SANDBOX_H

#include <stddef.h>

#include "fem_mesh.h"

/* The defaults; each can be set by an environment variable of the same name with IWARP_ in front
 * (IWARP_GMSH_CPU_SECONDS=5). */
enum {
    FEM_GMSH_CPU_SECONDS = 60,   /* c100k, the largest built-in mesh, takes about 3 s to read */
    FEM_GMSH_WALL_SECONDS = 120, /* a machine shared by other jobs, or a file that says Sleep */
    FEM_GMSH_MEMORY_MIB = 4096,  /* of address space: gmsh and its libraries map about 300 MiB */
};

typedef struct fem_limits {
    unsigned cpu_seconds, wall_seconds;
    unsigned long memory_mib;
} fem_limits_t;

/* The defaults, or the environment's values; -1 with the variable and its value in err when one is not a
 * positive whole number. */
int fem_limits_get(fem_limits_t *l, char *err, size_t cap);

/* Reads path with gmsh in a child within the limits, into m. -1 with `path: what` in err (gmsh's error, a limit
 * reached, a child that ended without a mesh). */
int fem_sandbox_read(const char *path, const fem_limits_t *l, fem_mesh_t *m, char *err, size_t cap);

#endif
