/*
 * A seccomp filter for the process that runs gmsh on a user's file (fem_sandbox.h): it may read files and compute,
 * but not start a program, open a file for writing, make, remove or rename one, or open a socket. The word check
 * of a .geo file (fem_geo_check.h) refuses the commands that would; this is the second wall, should a way round
 * the check exist. Linux on x86-64 and AArch64 only; elsewhere it installs nothing and says so. docs/fem.md.
 */
#ifndef EXPERIMENTS_FEM_SECCOMP_H
#define EXPERIMENTS_FEM_SECCOMP_H

#include <stddef.h>

/* Installs the filter on the calling process (and any it starts); irreversible. -1 with what failed in err. */
int fem_seccomp_install(char *err, size_t cap);

#endif
