/* Turning a path into an image: assembly sources are assembled, images are read. Shared by run, bench,
 * debug and view so they all accept the same kinds of files with the same include path. */
#ifndef RUNNER_PROGRAM_LOAD_H
#define RUNNER_PROGRAM_LOAD_H

#include <stddef.h>

#include "emu.h"
#include "image.h"

typedef struct program_source {
    const char *const *defines; /* "NAME=value" for the assembler */
    size_t ndefines;
    const char *const *include_dirs; /* searched before the built-in runtime/ and programs/ folders */
    size_t ninclude_dirs;
    uint32_t text_base; /* where .text starts: the machine's text_base (0: the assembler's default) */
} program_source_t;

/* The folder holding runtime/ and programs/: $IWARP_ROOT, else the source tree the binary was built from. */
const char *iwarp_root(void);

/* Fills buf with iwarp_root()/rel; returns buf. */
char *iwarp_path(char *buf, size_t cap, const char *rel);

/* Loads `path` (.img: read; anything else: assembled). Diagnostics go to stderr. Returns 0 or -1. */
int program_load(const char *path, const program_source_t *src, isa_image_t *out);

/* Assembles <source root>/<rel> (with optional defines) and adds it to the array; NULL after printing why. */
const emu_program_t *program_add(emu_array_t *a, const char *rel, const char *const *defines, size_t ndefines);

/* Clocks of one trip round the loop from label `from` to label `to` of p, bypass stalls included
 * (emu_program_loop_clocks); 0 when the labels do not bound a loop. For models whose clocks a word come out of the
 * assembled code (bench caching, iwarp fem). */
uint64_t program_loop_clocks(const emu_program_t *p, const char *from, const char *to);

#endif
