/*
 * Cell data files (.cdat): a blob of words for each cell of an array, loaded into each cell's memory at an
 * address the run description names (`celldata FILE at ADDR`, docs/run.md). The communication compiler
 * writes its per-cell phase tables this way (docs/conset.md).
 *
 * Layout, little-endian 32-bit words:
 *   "IWCDAT01" (8 bytes) | width | height | for each cell, row-major: byte offset, byte length | blobs
 */
#ifndef EMU_CELLDATA_H
#define EMU_CELLDATA_H

#include <stddef.h>
#include <stdint.h>

#include "emu.h"

typedef struct celldata {
    unsigned width, height;
    uint32_t **blobs;  /* [y * width + x], words */
    uint32_t *nwords;  /* words in each blob */
} celldata_t;

int celldata_init(celldata_t *d, unsigned width, unsigned height);
void celldata_free(celldata_t *d);
/* Appends words to a cell's blob; returns 0 or -1 (out of memory). */
int celldata_append(celldata_t *d, unsigned x, unsigned y, const uint32_t *words, size_t n);
int celldata_write(const celldata_t *d, const char *path, char *err, size_t errlen);
/* Reads and checks a file (every offset and length in range). */
int celldata_read(celldata_t *d, const char *path, char *err, size_t errlen);
/* Loads each cell's blob at addr; the file's array must match the array's. */
int celldata_load(const celldata_t *d, emu_array_t *a, uint32_t addr, char *err, size_t errlen);

#endif
