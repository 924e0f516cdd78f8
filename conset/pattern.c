/* Pattern generators (pattern.h). */
#include "pattern.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "torus.h"

static const char *const names[] = {"torus", "butterfly", "alltoall"};

int pattern_parse(const char *name, pattern_kind_t *k)
{
    for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(name, names[i]) == 0) {
            *k = (pattern_kind_t)i;
            return 0;
        }
    return -1;
}

const char *pattern_name(pattern_kind_t k)
{
    return (unsigned)k < sizeof names / sizeof names[0] ? names[k] : "?";
}

static int add(cset_t *s, unsigned task, unsigned src, unsigned dst, uint32_t words)
{
    char id[32];
    snprintf(id, sizeof id, "c%u_%u", src, dst);
    return cset_add(s, id, src, dst, words, task) == CSET_NONE ? -1 : 0;
}

static unsigned gray(unsigned x)
{
    return x ^ (x >> 1);
}

static unsigned gray_inverse(unsigned g)
{
    unsigned x = 0;
    for (; g != 0; g >>= 1)
        x ^= g;
    return x;
}

static unsigned log2_exact(unsigned v)
{
    unsigned b = 0;
    while ((1u << b) < v)
        b++;
    return (1u << b) == v ? b : ~0u;
}

static int torus(cset_t *s, unsigned task, uint32_t words)
{
    torus_t t = torus_make(s->width, s->height);
    for (unsigned v = 0; v < t.n; v++) {
        unsigned seen[TORUS_DIRS], nseen = 0;
        for (unsigned d = 0; d < TORUS_DIRS; d++) {
            unsigned u = torus_neighbour(&t, v, d);
            bool dup = u == v;
            for (unsigned k = 0; k < nseen; k++)
                dup = dup || seen[k] == u;
            if (dup)
                continue;
            seen[nseen++] = u;
            if (add(s, task, v, u, words) != 0)
                return -1;
        }
    }
    return 0;
}

static int butterfly(cset_t *s, unsigned task, uint32_t words)
{
    unsigned bx = log2_exact(s->width), by = log2_exact(s->height);
    for (unsigned v = 0; v < s->width * s->height; v++) {
        unsigned label = gray(v % s->width) | gray(v / s->width) << bx;
        for (unsigned b = 0; b < bx + by; b++) {
            unsigned other = label ^ (1u << b);
            unsigned x = gray_inverse(other & (s->width - 1)), y = gray_inverse(other >> bx);
            if (add(s, task, v, y * s->width + x, words) != 0)
                return -1;
        }
    }
    return 0;
}

static int alltoall(cset_t *s, unsigned task, uint32_t words)
{
    unsigned n = s->width * s->height;
    for (unsigned v = 0; v < n; v++)
        for (unsigned u = 0; u < n; u++)
            if (u != v && add(s, task, v, u, words) != 0)
                return -1;
    return 0;
}

int pattern_generate(cset_t *s, pattern_kind_t k, unsigned width, unsigned height, uint32_t words, unsigned capacity,
                     char *err, size_t errlen)
{
    const char *bad = NULL;
    if (cset_init(s, width, height, capacity) != 0)
        bad = "the array or the capacity is out of range (sides 1..32, capacity 1..16)";
    else if (words < 1 || words > CSET_MAX_WORDS)
        bad = "words must be 1..2147483647";
    else if (k == PATTERN_BUTTERFLY && (log2_exact(width) == ~0u || log2_exact(height) == ~0u))
        bad = "the butterfly needs sides that are powers of two";
    else if (k == PATTERN_ALLTOALL && (uint64_t)width * height * (width * height - 1) > CSET_MAX_CONNS)
        bad = "all-to-all on this array has more connections than a set may hold";
    if (bad != NULL) {
        snprintf(err, errlen, "%s (%ux%u)", bad, width, height);
        return -1;
    }
    unsigned task = cset_task(s, pattern_name(k));
    int rc = task == CSET_NONE        ? -1
             : k == PATTERN_TORUS     ? torus(s, task, words)
             : k == PATTERN_BUTTERFLY ? butterfly(s, task, words)
                                      : alltoall(s, task, words);
    if (rc != 0) {
        cset_free(s);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    return 0;
}
