/* FNV-1a (Fowler, Noll and Vo), the one hash function of the tree: symbol and name tables (32 bits), program
 * fingerprints and file checksums (64 bits). Deterministic on every host: bytes, never host words. */
#ifndef ISA_FNV_H
#define ISA_FNV_H

#include <stddef.h>
#include <stdint.h>

#define FNV32_OFFSET 2166136261u
#define FNV32_PRIME 16777619u
#define FNV64_OFFSET 0xcbf29ce484222325ull
#define FNV64_PRIME 0x100000001b3ull

static inline uint32_t fnv1a32(uint32_t h, const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * FNV32_PRIME;
    return h;
}

static inline uint64_t fnv1a64(uint64_t h, const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * FNV64_PRIME;
    return h;
}

/* A 64-bit value's bytes, least significant first, whatever the host's byte order. */
static inline uint64_t fnv1a64_u64(uint64_t h, uint64_t v)
{
    for (unsigned k = 0; k < 8; k++)
        h = (h ^ (v >> (8 * k) & 0xffu)) * FNV64_PRIME;
    return h;
}

#endif
