/*
 * A personalized exchange over the whole emulated array under ConSet (programs/copy/exchange.s): for each
 * ordered pair of cells, a count of words from addresses in the sender's memory to addresses in the
 * receiver's. From a spec the host makes the connection set and its phases, lays out every cell's memory
 * (source words, descriptors, and index arrays where a block's addresses are not a constant stride), runs
 * it in one of the copy-transfer paper's styles, and checks every word of every destination region. xQy
 * all-to-all and the kernels of `iwarp bench copy` are specs. docs/copy.md.
 */
#ifndef EXPERIMENTS_COPY_EXCHANGE_H
#define EXPERIMENTS_COPY_EXCHANGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "conset/route_memo.h"
#include "copy_measure.h"

/* Where programs/copy/exchange.s leaves room for a spec's data: sources and destinations lie in
 * [COPY_EXCHANGE_DATA, COPY_EXCHANGE_END), apart. */
enum { COPY_EXCHANGE_DATA = 0x200000, COPY_EXCHANGE_END = 0x3f0000 };

typedef struct copy_exchange_spec {
    unsigned width, height;
    const void *ctx;
    unsigned (*count)(const void *ctx, unsigned from, unsigned to);
    /* The address of word k of the block from `from` to `to`: in the sender's memory, in the receiver's. */
    uint32_t (*src)(const void *ctx, unsigned from, unsigned to, unsigned k);
    uint32_t (*dst)(const void *ctx, unsigned from, unsigned to, unsigned k);
    uint32_t dst_lo, dst_hi; /* every cell's destination region: all of it is checked */
} copy_exchange_spec_t;

typedef struct copy_exchange_run {
    uint64_t clocks; /* the slowest cell, from the start barrier to the end barrier */
    uint64_t wrong;  /* destination words of any cell that do not hold what they should */
    uint64_t words;  /* from one cell to another (not counting each cell's words to itself) */
    unsigned phases;
    uint64_t indexed_blocks, strided_blocks; /* how the host described the blocks */
    /* Words between cells by how their blocks were described, [send indexed][receive indexed]: what the
     * model needs to weigh the patterns. */
    uint64_t class_words[2][2];
} copy_exchange_run_t;

/* style: COPY_PACKING, COPY_CHAINED, or COPY_BASIC for the network alone (nothing is stored: every
 * destination word must still be its guard). memo: where the exchange's compiled tables are kept for the next
 * run of the same connection set (the bench's styles and kernels share many), or NULL to compile them here. */
int copy_exchange_run(const copy_exchange_spec_t *s, copy_style_t style, unsigned threads, route_memo_t *memo,
                      copy_exchange_run_t *out, char *err, size_t cap);

/* MB/s per cell: its share of the words between cells in the clocks 2N takes more than N. */
double copy_exchange_mbps(const copy_exchange_run_t *at_n, const copy_exchange_run_t *at_2n, unsigned cells);

#endif
