/* Messages, byte buffers and file reading for the viewer. */
#include "util.h"

#include "file.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void view_bytes_free(view_bytes_t *b)
{
    free(b->data);
    memset(b, 0, sizeof *b);
}

void *view_bytes_extend(view_bytes_t *b, size_t n)
{
    if (b->failed)
        return NULL;
    if (n > SIZE_MAX / 2 - b->len) {
        b->failed = true;
        return NULL;
    }
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + n)
            cap *= 2;
        uint8_t *grown = realloc(b->data, cap);
        if (grown == NULL) {
            b->failed = true;
            return NULL;
        }
        b->data = grown;
        b->cap = cap;
    }
    b->len += n;
    return b->data + b->len - n;
}

void view_bytes_put(view_bytes_t *b, const void *p, size_t n)
{
    if (n == 0)
        return;
    uint8_t *at = view_bytes_extend(b, n);
    if (at != NULL)
        memcpy(at, p, n);
}

void view_bytes_varint(view_bytes_t *b, uint64_t v)
{
    uint8_t tmp[10];
    size_t n = 0;
    do {
        tmp[n] = (uint8_t)(v & 0x7f);
        v >>= 7;
        if (v != 0)
            tmp[n] |= 0x80;
        n++;
    } while (v != 0);
    view_bytes_put(b, tmp, n);
}

void view_bytes_string(view_bytes_t *b, const char *s, size_t n)
{
    view_bytes_varint(b, n);
    view_bytes_put(b, s, n);
}

int view_write_file(const char *path, const void *data, size_t len, char *err, size_t errlen)
{
    file_out_t out;
    if (file_out_open(&out, path, "wb", err, errlen) != 0)
        return -1;
    if (fwrite(data, 1, len, out.f) != len) {
        int e = errno;
        file_out_abort(&out);
        return err_set(err, errlen, "%s: %s", path, strerror(e));
    }
    return file_out_commit(&out, err, errlen);
}

int view_read_file(const char *path, view_bytes_t *out, size_t max, bool nul, char *err, size_t errlen)
{
    uint8_t *data;
    size_t len;
    if (file_read_max(path, max, &data, &len, err, errlen) != 0)
        return -1;
    view_bytes_put(out, data, len);
    free(data);
    if (nul)
        view_bytes_put(out, "", 1);
    return out->failed ? err_set(err, errlen, "%s: out of memory", path) : 0;
}
