/*
 * Connection sets (.cset, docs/conset.md): the input of the communication compiler. A set names an array,
 * a channel capacity and connections `ID SRC DST WORDS [after ID...]`, grouped into tasks. This header is the
 * in-memory model, the parser (every error kept as a file:line:col diagnostic) and the writer. It depends on
 * nothing but libc, so the fuzz harness builds it alone.
 */
#ifndef CONSET_CSET_H
#define CONSET_CSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum {
    CSET_DEFAULT_SIDE = 8,      /* the 64-cell iWarp of seed 004, section 5 */
    CSET_DEFAULT_CAPACITY = 12, /* seed 004, section 5: ConSet used 12 of the 16 user channels */
    CSET_MAX_CAPACITY = 16,     /* the user channels 4..19 (docs/runtime.md) */
    CSET_MAX_SIDE = 32,         /* EMU_MAX_DIM (checked where both are visible) */
    CSET_MAX_WORDS = 0x7fffffff,
    CSET_MAX_CONNS = 1 << 20,
};
#define CSET_NONE 0xffffffffu

typedef struct cset_conn {
    char *id;
    unsigned src, dst; /* cell ids, y * width + x */
    uint32_t words;
    unsigned task;
    unsigned *after; /* indices of the connections this one is used after (same task) */
    unsigned nafter;
    unsigned line; /* where it was defined; 0 when built in memory */
} cset_conn_t;

/* Names to numbers: open addressing (CSET_NONE = empty), at most half full. */
typedef struct cset_index {
    unsigned *slot;
    unsigned cap;
} cset_index_t;

typedef struct cset {
    unsigned width, height;
    unsigned capacity;
    bool paper;   /* `compiler paper`: compile as the ConSet paper's compiler (route_options_t.paper) */
    char **tasks; /* numbered in the order of their first connection; names of any length */
    unsigned ntasks;
    size_t tasks_cap;
    cset_index_t task_index;
    cset_conn_t *conns; /* in the file's order: the index is the connection number in the tables */
    unsigned nconns;
    size_t conns_cap;
    cset_index_t conn_index; /* by id */
} cset_t;

typedef struct cset_diag {
    unsigned line, col; /* 1-based */
    char *msg;
} cset_diag_t;

typedef struct cset_diags {
    cset_diag_t *v; /* sorted by line and column once cset_parse returns */
    size_t n, cap;
} cset_diags_t;

/* An empty set; returns 0, or -1 when the sizes are out of range. */
int cset_init(cset_t *s, unsigned width, unsigned height, unsigned capacity);
void cset_free(cset_t *s);

/* Task number of `name`, added if new; CSET_NONE when out of memory. */
unsigned cset_task(cset_t *s, const char *name);
/* Appends a connection; returns its index, or CSET_NONE (duplicate id, bad cell, out of memory). */
unsigned cset_add(cset_t *s, const char *id, unsigned src, unsigned dst, uint32_t words, unsigned task);
/* Records that connection `later` is used after `earlier`; returns 0 or -1 (out of memory). */
int cset_add_after(cset_t *s, unsigned later, unsigned earlier);
/* Index of the connection named id (len bytes), or CSET_NONE. */
unsigned cset_find(const cset_t *s, const char *id, size_t len);

/* Parses text (len bytes, NUL bytes allowed) into *s, which it initializes. Returns the number of errors;
 * the diagnostics are in *d (release with cset_diags_free), and *s is valid (without the bad lines) either
 * way, to be released with cset_free. */
size_t cset_parse(cset_t *s, const char *text, size_t len, cset_diags_t *d);
/* Reads and parses a file; an unreadable file is one diagnostic at line 0. */
size_t cset_parse_file(cset_t *s, const char *path, cset_diags_t *d);
void cset_diags_free(cset_diags_t *d);
/* "name:line:col: message" lines. */
void cset_print_diags(const cset_diags_t *d, const char *name, FILE *out);

/* Writes the set in the .cset syntax (parsing it back gives the same set, in the same order). */
int cset_write(const cset_t *s, FILE *out);

#endif
