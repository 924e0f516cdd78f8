/*
 * The assembler: source text to an isa_image_t (the language is described in docs/assembly.md).
 *
 * Two passes: the first reads the source (includes, macros, conditionals), lays out the sections and
 * encodes every operation with its extension words left blank; the second evaluates the expressions
 * left open (forward references) and patches them in. Operation sizes never depend on symbol values,
 * so the layout of the first pass is final.
 *
 * Errors never stop the first pass early (up to ASM_MAX_ERRORS); every one is kept as a diagnostic.
 */
#ifndef ISA_ASM_H
#define ISA_ASM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "image.h"

enum {
    ASM_DEFAULT_TEXT_BASE = 0x1000,
    ASM_MAX_ERRORS = 100,            /* the assembler stops after this many errors */
    ASM_DEFAULT_MAX_LINES = 1000000, /* source lines read, macro and .rept expansions included */
};

typedef struct asm_diag {
    char *file;    /* as opened ("<command line>" for -D) */
    unsigned line; /* 1-based; 0 when the message is about the whole file */
    unsigned col;  /* 1-based byte column; 0 when unknown */
    bool is_error; /* else a warning */
    char *msg;     /* without the "file:line:col: error: " prefix */
} asm_diag_t;

typedef struct asm_options {
    const char *const *include_dirs; /* searched in order after the including file's directory */
    size_t ninclude_dirs;
    const char *const *defines; /* "NAME=value" or "NAME" (= 1), like .equ before the first line */
    size_t ndefines;
    uint32_t text_base; /* ASM_DEFAULT_TEXT_BASE unless changed */
    uint32_t max_lines; /* bound on lines processed (runaway macros); 0 = ASM_DEFAULT_MAX_LINES */
} asm_options_t;

typedef struct asm_result {
    isa_image_t image; /* empty when there were errors */
    asm_diag_t *diags; /* in the order found */
    size_t ndiags;
    size_t nerrors;
} asm_result_t;

void asm_options_init(asm_options_t *o);

/* Assembles the files as if concatenated (labels are shared). Returns 0 when there was no error, else -1;
 * either way *out holds the diagnostics and must be released with asm_result_free. */
int asm_assemble_files(const char *const *paths, size_t npaths, const asm_options_t *o, asm_result_t *out);
/* The same for text in memory (it may contain NUL bytes); name is used in diagnostics and
 * its directory for .include. */
int asm_assemble_string(const char *name, const char *src, size_t len, const asm_options_t *o, asm_result_t *out);

void asm_result_free(asm_result_t *r);
/* Writes "file:line:col: error: message" lines. */
void asm_print_diags(const asm_result_t *r, FILE *out);
/* One diagnostic in that format, into buf (truncated to cap); returns what snprintf returns. */
int asm_format_diag(const asm_diag_t *d, char *buf, size_t cap);

#endif
