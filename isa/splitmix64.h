/*
 * The project's one random generator, splitmix64 (Steele, Lea and Flood, 2014): the whole state is one word the
 * caller keeps, so the same seed repeats a run exactly. The communication compiler's router and scheduler (seeded
 * with route_options_t.seed), traffic's generators, soak and the tests draw from it. It sits here, at the bottom,
 * beside the one hash (fnv.h), so that every layer may use it.
 */
#ifndef ISA_SPLITMIX64_H
#define ISA_SPLITMIX64_H

#include <stdint.h>

static inline uint64_t splitmix64_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Fisher-Yates, from the end: one draw per element but the first. */
static inline void splitmix64_shuffle(uint64_t *state, unsigned *v, unsigned n)
{
    for (unsigned i = n; i > 1; i--) {
        unsigned j = (unsigned)(splitmix64_next(state) % i), t = v[i - 1];
        v[i - 1] = v[j];
        v[j] = t;
    }
}

#endif
