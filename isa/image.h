/*
 * The executable image: what the assembler writes and the loader reads (format in docs/assembly.md).
 *
 * All fields little-endian 32-bit words:
 *   "IWARPIMG" (8 bytes) | version | entry | text_base | text_words | data_base | data_bytes |
 *   bss_bytes | nsyms | nlines | nfiles | strtab_bytes |
 *   text words | data bytes padded to 4 | symbols {name, value, kind} | lines {addr, file, line, col} |
 *   files {name} | string table (NUL-terminated names; name fields are offsets into it)
 */
#ifndef ISA_IMAGE_H
#define ISA_IMAGE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum { ISA_IMAGE_VERSION = 1 };

typedef enum isa_symbol_kind {
    ISA_SYM_TEXT = 0,  /* a label in .text */
    ISA_SYM_DATA = 1,  /* a label in .data */
    ISA_SYM_ABS = 2,   /* an .equ constant */
} isa_symbol_kind_t;

typedef struct isa_symbol {
    char *name;
    uint32_t value;
    isa_symbol_kind_t kind;
} isa_symbol_t;

/* Source position of the bundle that starts at addr. */
typedef struct isa_line {
    uint32_t addr;
    uint32_t file; /* index into files */
    uint32_t line;
    uint32_t col;
} isa_line_t;

typedef struct isa_image {
    uint32_t entry;
    uint32_t text_base; /* byte address */
    uint32_t text_words;
    uint32_t *text;
    uint32_t data_base; /* byte address */
    uint32_t data_bytes;
    uint8_t *data;
    uint32_t bss_bytes; /* zeroed at load, directly after data; not stored in the file */
    size_t nsyms;
    isa_symbol_t *syms;  /* sorted by value, then name */
    size_t nlines;
    isa_line_t *lines;   /* sorted by addr */
    size_t nfiles;
    char **files;
} isa_image_t;

/* Serialises the image; returns 0 or -1 with errno set by stdio. */
int isa_image_write(const isa_image_t *img, FILE *out);
/* Parses an image from memory. Never trusts the input: every count and offset is checked.
 * Returns 0, or -1 with a message in err. The caller frees with isa_image_free. */
int isa_image_parse(const uint8_t *buf, size_t len, isa_image_t *out, char *err, size_t errlen);
/* Reads a file and parses it; the message in err starts with the path. */
int isa_image_load_file(const char *path, isa_image_t *out, char *err, size_t errlen);
void isa_image_free(isa_image_t *img);

/* Sorts symbols and lines into the documented order (the assembler calls it before writing). */
void isa_image_sort(isa_image_t *img);

/* Lookups for the disassembler and the debugger. */
const isa_symbol_t *isa_image_symbol(const isa_image_t *img, const char *name);
/* The label at or before addr in the same section (text labels only for text addresses); NULL if none. */
const isa_symbol_t *isa_image_symbol_before(const isa_image_t *img, uint32_t addr);
/* The source line of the bundle containing addr; NULL if unknown. */
const isa_line_t *isa_image_line(const isa_image_t *img, uint32_t addr);

#endif
