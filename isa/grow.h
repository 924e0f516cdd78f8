/*
 * Room for one more element in a buffer that grows by doubling, for the logs and lists appended to one element at
 * a time: doubling keeps what realloc copies linear in the elements appended. Here at the bottom layer, beside
 * fnv.h, so that the machine (emu/) uses it as the tools do. Inline: a caller asks before every append, and the
 * answer is nearly always that there is room.
 */
#ifndef ISA_GROW_H
#define ISA_GROW_H

#include <stdint.h>
#include <stdlib.h>

/* `buf` holds `n` elements of `size` bytes in room for `*cap`. While there is room for one more, buf; when it is
 * full, buf reallocated to twice `*cap` elements (`first` from none) and *cap that many; NULL when out of memory or
 * when that would be more than `most` elements (the most the caller's count can hold) or SIZE_MAX bytes: then buf,
 * still the caller's, and *cap are as they were. */
static inline void *grow_double(void *buf, size_t n, size_t *cap, size_t size, size_t first, size_t most)
{
    if (n < *cap)
        return buf;
    if (*cap > SIZE_MAX / 2)
        return NULL;
    size_t want = *cap ? 2 * *cap : first;
    if (want > most || want > SIZE_MAX / size)
        return NULL;
    void *grown = realloc(buf, want * size);
    if (grown != NULL)
        *cap = want;
    return grown;
}

#endif
