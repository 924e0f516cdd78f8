/*
 * What a gmsh .geo file may not say, checked before gmsh reads it. A .geo file is a program: its commands can
 * run shell commands (SystemCall), exit the process (Exit), write files (Save, Print, Printf > file, CreateDir),
 * read other files that nobody checked (Include, Merge) and set options that do any of these. Those words are
 * refused wherever they stand, comments and strings included: gmsh's skipping of an If or For block that does not
 * run reads comments and strings differently from its parser, so text that the parser takes for a comment can
 * be read as commands after a skipped block. docs/fem.md lists the words and why.
 */
#ifndef EXPERIMENTS_FEM_GEO_CHECK_H
#define EXPERIMENTS_FEM_GEO_CHECK_H

#include <stddef.h>

/* 0 when the text uses none of the refused words; -1 with `file:line:col: what` in err for the first. */
int fem_geo_check(const char *text, size_t len, const char *file, char *err, size_t cap);

#endif
