/*
 * A machine's table for the copy-transfer model of Stricker and Gross ("Optimizing Memory System Performance
 * for Communication in Parallel Computers", docs/references.md): the throughput of each basic transfer in
 * MB/s of useful data. Built in: the paper's Cray T3D and Intel Paragon figures; any other machine (the
 * emulated iWarp's, as `iwarp bench copy` measures it) comes from a table file. docs/copy.md.
 */
#ifndef EXPERIMENTS_COPY_TABLE_H
#define EXPERIMENTS_COPY_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* An access pattern: a stride (0 a fixed location such as a FIFO, 1 contiguous, n >= 2 strided) or indexed. */
enum { COPY_INDEXED = -1 };

/* The basic transfers. A network transfer has no patterns but a congestion. */
typedef enum copy_kind {
    COPY_LOCAL = 'C',   /* xCy: a local memory-to-memory copy by the processor */
    COPY_SEND = 'S',    /* xS0: load-send */
    COPY_FETCH = 'F',   /* xF0: fetch-send by a DMA or spool */
    COPY_RECEIVE = 'R', /* 0Ry: receive-store by the processor */
    COPY_DEPOSIT = 'D', /* 0Dy: receive-deposit by a deposit engine or spool */
    COPY_NET_DATA = 'd',    /* Nd: data only over the network */
    COPY_NET_ADDRESS = 'a', /* Nadp: address-data pairs over the network */
    COPY_NAMED = 'n',       /* a figure the table names, such as the network under one pattern's schedule */
} copy_kind_t;

enum { COPY_TABLE_MAX = 96, COPY_NAME_MAX = 24 };

typedef struct copy_transfer {
    copy_kind_t kind;
    long read, write;    /* patterns; 0 for the network */
    unsigned congestion; /* the network's; 0: the table's own */
    char name[COPY_NAME_MAX]; /* COPY_NAMED's: a letter or '_', then letters, digits, '_' */
} copy_transfer_t;

typedef struct copy_entry {
    copy_transfer_t t;
    double mbps;
} copy_entry_t;

typedef struct copy_table {
    char machine[48];
    unsigned word_bytes; /* the paper's tables count 8-byte words; iWarp's are 4 */
    unsigned congestion; /* what a plain Nd or Nadp stands for */
    unsigned n;
    copy_entry_t e[COPY_TABLE_MAX];
} copy_table_t;

/* The paper's tables 1-4 for the T3D and the Paragon (what its text shows; docs/copy.md lists the gaps). */
void copy_table_t3d(copy_table_t *t);
void copy_table_paragon(copy_table_t *t);

/* Parses a transfer's name ("1C64", "!S0", "0D1", "Nd", "Nadp@4") of exactly len characters; any other
 * identifier is a named figure. */
bool copy_transfer_parse(const char *s, size_t len, copy_transfer_t *out);
/* The name back, as the parser takes it. */
void copy_transfer_name(const copy_transfer_t *t, char *buf, size_t cap);

/* Field by field (the structs have padding). */
bool copy_transfer_equal(const copy_transfer_t *a, const copy_transfer_t *b);
bool copy_table_equal(const copy_table_t *a, const copy_table_t *b);

/* Sets (or adds) an entry; -1 when the table is full. */
int copy_table_set(copy_table_t *t, const copy_transfer_t *x, double mbps);

/* The throughput of transfer x. A stride beyond the largest the table lists for that side stands for it (the
 * paper: "the throughput for stride 64 applies to any larger stride"); *used is the entry taken. Returns -1
 * with a message in err when the table has no figure for it. */
int copy_table_lookup(const copy_table_t *t, const copy_transfer_t *x, double *mbps, copy_transfer_t *used,
                      char *err, size_t cap);

/* Reads a table file: `machine = NAME`, `word_bytes = N`, `congestion = N` and `TRANSFER = MB/s` lines, '#'
 * comments. Errors say `file:line:col: what`. */
int copy_table_parse(const char *text, size_t len, const char *file, copy_table_t *t, char *err, size_t cap);
int copy_table_load(const char *path, copy_table_t *t, char *err, size_t cap);
/* The table as a file that copy_table_parse reads back to the same table. */
void copy_table_write(const copy_table_t *t, FILE *out);

#endif
