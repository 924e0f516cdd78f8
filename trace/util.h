/* Small things every part of the viewer uses: messages into a caller's buffer, growable byte buffers,
 * whole files read into one. No SDL. */
#ifndef VIEW_UTIL_H
#define VIEW_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "err.h" /* err_set */

/* A growable byte buffer: the recorder's output in live mode, a file's contents, an encoded image. */
typedef struct view_bytes {
    uint8_t *data;
    size_t len, cap;
    bool failed; /* out of memory: later appends are dropped */
} view_bytes_t;

void view_bytes_free(view_bytes_t *b);
void view_bytes_put(view_bytes_t *b, const void *p, size_t n);
/* Makes the buffer n bytes longer and returns where they start (to be filled), or NULL when out of memory. */
void *view_bytes_extend(view_bytes_t *b, size_t n);
void view_bytes_varint(view_bytes_t *b, uint64_t v);

/* A change of a 64-bit value as a small number: new - old (wrapping), zigzagged so that small steps either
 * way take few varint bytes; and back. */
static inline uint64_t view_zigzag(uint64_t old_value, uint64_t new_value)
{
    uint64_t d = new_value - old_value;
    return (d << 1) ^ (0 - (d >> 63));
}
static inline uint64_t view_unzigzag(uint64_t old_value, uint64_t z)
{
    return old_value + ((z >> 1) ^ (0 - (z & 1)));
}
void view_bytes_string(view_bytes_t *b, const char *s, size_t n);

/* Appends a whole file (up to `max` bytes; more is an error) and a NUL byte when `nul`. Returns 0, or -1
 * with a message naming the path. */
/* Writes bytes as a whole file (file.h: complete or not at all). Returns 0, or -1 with "path: why". */
int view_write_file(const char *path, const void *data, size_t len, char *err, size_t errlen);
int view_read_file(const char *path, view_bytes_t *out, size_t max, bool nul, char *err, size_t errlen);

#endif
