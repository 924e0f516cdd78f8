#include "celldata.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "file.h"

static const char magic[8] = {'I', 'W', 'C', 'D', 'A', 'T', '0', '1'};
enum { MAX_BLOB_WORDS = 1u << 24 };

int celldata_init(celldata_t *d, unsigned width, unsigned height)
{
    memset(d, 0, sizeof *d);
    if (width < 1 || height < 1 || width > EMU_MAX_DIM || height > EMU_MAX_DIM)
        return -1;
    d->width = width;
    d->height = height;
    d->blobs = calloc((size_t)width * height, sizeof *d->blobs);
    d->nwords = calloc((size_t)width * height, sizeof *d->nwords);
    if (d->blobs == NULL || d->nwords == NULL) {
        celldata_free(d);
        return -1;
    }
    return 0;
}

void celldata_free(celldata_t *d)
{
    if (d->blobs != NULL)
        for (unsigned i = 0; i < d->width * d->height; i++)
            free(d->blobs[i]);
    free(d->blobs);
    free(d->nwords);
    memset(d, 0, sizeof *d);
}

int celldata_append(celldata_t *d, unsigned x, unsigned y, const uint32_t *words, size_t n)
{
    unsigned i = y * d->width + x;
    if (x >= d->width || y >= d->height || d->nwords[i] + n > MAX_BLOB_WORDS)
        return -1;
    uint32_t *grown = realloc(d->blobs[i], sizeof *grown * (d->nwords[i] + n + 1));
    if (grown == NULL)
        return -1;
    memcpy(grown + d->nwords[i], words, sizeof *words * n);
    d->blobs[i] = grown;
    d->nwords[i] += (uint32_t)n;
    return 0;
}

static void put(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static uint32_t get(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

int celldata_write(const celldata_t *d, const char *path, char *err, size_t errlen)
{
    unsigned n = d->width * d->height;
    size_t header = 8 + 8 + 8 * (size_t)n;
    file_out_t out;
    if (file_out_open(&out, path, "wb", err, errlen) != 0)
        return -1;
    FILE *f = out.f;
    uint8_t w[4];
    int rc = fwrite(magic, 1, 8, f) == 8 ? 0 : -1;
    put(w, d->width);
    rc |= fwrite(w, 1, 4, f) == 4 ? 0 : -1;
    put(w, d->height);
    rc |= fwrite(w, 1, 4, f) == 4 ? 0 : -1;
    size_t at = header;
    for (unsigned i = 0; i < n; i++) {
        put(w, (uint32_t)at);
        rc |= fwrite(w, 1, 4, f) == 4 ? 0 : -1;
        put(w, 4 * d->nwords[i]);
        rc |= fwrite(w, 1, 4, f) == 4 ? 0 : -1;
        at += 4 * (size_t)d->nwords[i];
    }
    for (unsigned i = 0; i < n; i++)
        for (uint32_t k = 0; k < d->nwords[i]; k++) {
            put(w, d->blobs[i][k]);
            rc |= fwrite(w, 1, 4, f) == 4 ? 0 : -1;
        }
    if (rc != 0) {
        file_out_abort(&out);
        return err_set(err, errlen, "%s: write failed", path);
    }
    return file_out_commit(&out, err, errlen);
}

int celldata_read(celldata_t *d, const char *path, char *err, size_t errlen)
{
    memset(d, 0, sizeof *d);
    uint8_t *buf;
    size_t len;
    if (file_read_max(path, FILE_MAX_CELLDATA, &buf, &len, err, errlen) != 0)
        return -1;
    int rc = 0;
    if (len < 16 || memcmp(buf, magic, 8) != 0 || celldata_init(d, get(buf + 8), get(buf + 12)) != 0) {
        rc = err_set(err, errlen, "%s: not a cell data file", path);
    } else {
        unsigned n = d->width * d->height;
        if (len < 16 + 8 * (size_t)n)
            rc = err_set(err, errlen, "%s: truncated", path);
        /* Every blob in the file, and what they come to together, before anything is allocated: cells may share a
         * blob, so a small file could otherwise ask for much memory. */
        uint64_t total = 0;
        for (unsigned i = 0; rc == 0 && i < n; i++) {
            uint32_t off = get(buf + 16 + 8 * i), bytes = get(buf + 20 + 8 * i);
            if (off > len || bytes > len - off || bytes % 4 != 0 || off % 4 != 0)
                rc = err_set(err, errlen, "%s: blob of cell %u lies outside the file", path, i);
            else if ((total += bytes) > FILE_MAX_CELLDATA)
                rc = err_set(err, errlen, "%s: its cells' data come to more than %u bytes", path,
                             (unsigned)FILE_MAX_CELLDATA);
        }
        uint32_t *words = rc == 0 ? malloc(len) : NULL; /* one blob's words at most */
        if (rc == 0 && words == NULL)
            rc = err_set(err, errlen, "%s: out of memory", path);
        for (unsigned i = 0; rc == 0 && i < n; i++) {
            uint32_t off = get(buf + 16 + 8 * i), bytes = get(buf + 20 + 8 * i);
            for (uint32_t k = 0; k < bytes / 4; k++)
                words[k] = get(buf + off + 4 * k);
            if (celldata_append(d, i % d->width, i / d->width, words, bytes / 4) != 0)
                rc = err_set(err, errlen, "%s: out of memory", path);
        }
        free(words);
    }
    free(buf);
    if (rc != 0)
        celldata_free(d);
    return rc;
}

int celldata_load(const celldata_t *d, emu_array_t *a, uint32_t addr, char *err, size_t errlen)
{
    if (d->width != emu_array_width(a) || d->height != emu_array_height(a))
        return err_set(err, errlen, "cell data for a %ux%u array, but the array is %ux%u", d->width, d->height,
                       emu_array_width(a), emu_array_height(a));
    for (unsigned y = 0; y < d->height; y++)
        for (unsigned x = 0; x < d->width; x++) {
            unsigned i = y * d->width + x;
            /* Memory is little-endian whatever the host. */
            uint8_t *bytes = malloc(4 * (size_t)d->nwords[i] + 1);
            if (bytes == NULL)
                return err_set(err, errlen, "out of memory");
            for (uint32_t k = 0; k < d->nwords[i]; k++)
                put(bytes + 4 * k, d->blobs[i][k]);
            int rc = emu_array_poke(a, x, y, addr, bytes, 4 * d->nwords[i]);
            free(bytes);
            if (rc != 0)
                return err_set(err, errlen, "cell (%u,%u): %u words at 0x%x run past its memory", x, y, d->nwords[i],
                               addr);
        }
    return 0;
}
