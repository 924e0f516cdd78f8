/*
 * Collective communication patterns on the emulated array (docs/collectives.md), after the buffered
 * collectives paper (communication patterns with buffered sends on the Fujitsu AP3000): tree broadcast and reduce, ring multi-broadcast
 * (spread) and multi-reduce, the pipelined (increasing ring) broadcast, and the buffered point-to-point send,
 * each on M x N matrices with a row stride Lda >= N. Message passing (runtime/coll.s over runtime/msg.s:
 * naive or chunked) and ConSet (programs/coll/conset_coll.s: the tree or ring as connections, data streamed
 * through the gates).
 *
 * A case names the pattern, the implementation, the groups (every row at once, every column, or the whole
 * array) and the matrix. The host lays out every cell's memory (coll_layout.c), runs the case (coll_run.c for
 * message passing, coll_conset.c for ConSet) and checks every word of every cell's matrix region, the gaps
 * between rows and the guards around it included.
 */
#ifndef EXPERIMENTS_COLL_H
#define EXPERIMENTS_COLL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "emu.h"

typedef enum coll_pattern {
    COLL_BCAST,        /* one binomial-tree broadcast of the root's block */
    COLL_REDUCE,       /* one binomial-tree sum (fp32) of every cell's block into the root's */
    COLL_MBCAST_TREE,  /* P tree broadcasts, root r into block r: every cell ends with all P blocks */
    COLL_MBCAST_RING,  /* the same by P - 1 ring shifts (spread) */
    COLL_MBCAST_PIPE,  /* the same by P pipelined (increasing ring) broadcasts, roots 0, 1, ... */
    COLL_MREDUCE_TREE, /* P tree reduces, root r gets the sum of every cell's block r */
    COLL_MREDUCE_RING, /* the same by P - 1 ring shifts that add as they pass */
    COLL_BSEND,        /* buffered sends: rank 0 to rank P - 1 and back (a ping-pong) */
    COLL_PATTERNS
} coll_pattern_t;

typedef enum coll_impl { COLL_NAIVE, COLL_CHUNKED, COLL_CONSET, COLL_IMPLS } coll_impl_t;

/* The largest side of a block (--block MxN), words or rows. */
#define COLL_MAX_BLOCK_SIDE (1u << 20)

/* Which cells form a group; every group of the array runs the pattern at the same time. */
typedef enum coll_groups { COLL_ROWS, COLL_COLUMNS, COLL_WHOLE, COLL_GROUPINGS } coll_groups_t;

typedef struct coll_case {
    coll_pattern_t pattern;
    coll_impl_t impl;
    coll_groups_t groups;
    unsigned width, height; /* the array */
    unsigned root;          /* rank of the root (COLL_BCAST, COLL_REDUCE) */
    unsigned m, n;          /* a block: m rows of n words (fp32) */
    unsigned lda;           /* the matrix's row stride in words: >= n, and >= P n for the multi patterns */
    unsigned chunk;         /* words a chunk (COLL_CHUNKED) */
    uint32_t delay;         /* COLL_BSEND: clocks the receiver waits before it posts its receive */
} coll_case_t;

typedef struct coll_result {
    uint64_t clocks;       /* from the start barrier to the last cell done */
    uint64_t wrong;        /* words of any cell's matrix region that do not hold what they should */
    uint64_t bytes;        /* what the pattern delivers a cell: its MB/s is bytes over clocks */
    uint64_t send_return;  /* COLL_BSEND: clocks from the start to the sender's return from its first send */
    uint64_t recv_post;    /* COLL_BSEND: clocks from the start to the receiver's first receive */
    unsigned phases;       /* COLL_CONSET: the compiler's phases */
} coll_result_t;

/* Names as the command line and the JSON records spell them; NULL past the end. */
const char *coll_pattern_name(coll_pattern_t p);
const char *coll_impl_name(coll_impl_t i);
const char *coll_groups_name(coll_groups_t g);
int coll_pattern_parse(const char *s, coll_pattern_t *p);
int coll_impl_parse(const char *s, coll_impl_t *i);
int coll_groups_parse(const char *s, coll_groups_t *g);

/* Cells a group. */
unsigned coll_group_size(const coll_case_t *c);
/* The group and rank of a cell (id = y * width + x). */
void coll_group_of(const coll_case_t *c, unsigned cell, unsigned *group, unsigned *rank);
/* The cell of a rank in a group. */
unsigned coll_cell_of(const coll_case_t *c, unsigned group, unsigned rank);
bool coll_is_multi(coll_pattern_t p);

/* A case's shape is one the programs can run: a message when it is not, 0 when it is. */
int coll_case_check(const coll_case_t *c, char *err, size_t cap);

/* Every cell's memory as the programs find it (the parameter block, the matrix region with its values and
 * guards); and the check of every word of the matrix region after the run. */
int coll_layout(emu_array_t *a, const coll_case_t *c, char *err, size_t cap);
uint64_t coll_check(const emu_array_t *a, const coll_case_t *c);

/* Bytes the pattern delivers a cell (see coll_result_t). */
uint64_t coll_bytes(const coll_case_t *c);

/* Runs a case (either runtime) and checks it: 0, or -1 with err saying why (a wrong word is not an error:
 * it is counted in out->wrong). */
int coll_run(const coll_case_t *c, unsigned threads, coll_result_t *out, char *err, size_t cap);
/* The case's array with `program` (a path under the source root) on every cell and the memory laid out; NULL
 * with err set. Then coll_finish runs it to the end and fills out (clocks, checks, bytes). */
emu_array_t *coll_array(const coll_case_t *c, unsigned threads, const char *program, char *err, size_t cap);
int coll_finish(emu_array_t *a, const coll_case_t *c, coll_result_t *out, char *err, size_t cap);
/* The ConSet half (coll_conset.c), called by coll_run. */
int coll_conset_run(const coll_case_t *c, unsigned threads, coll_result_t *out, char *err, size_t cap);

/* MB/s at the machine's 20 MHz. */
double coll_mbps(uint64_t bytes, uint64_t clocks);

#endif
