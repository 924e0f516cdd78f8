/*
 * The communication pattern of a partitioned mesh as a ConSet connection set (one connection from part a to
 * part b carrying a word for each node they share; part i is cell i of a width x height array), and the phases
 * the communication compiler makes of it with the paper's 12 logical channels. docs/fem.md.
 */
#ifndef EXPERIMENTS_FEM_PATTERN_H
#define EXPERIMENTS_FEM_PATTERN_H

#include <stddef.h>

#include "conset/cset.h"
#include "fem_partition.h"

int fem_pattern_cset(const fem_partition_t *p, unsigned width, unsigned height, cset_t *set, char *err, size_t cap);

/* The compiler's phases for the pattern (capacity: logical channels a cell may use at once). */
int fem_pattern_phases(const cset_t *set, unsigned *phases, char *err, size_t cap);

#endif
