/* The values the computation agent's operations work on (emu/ca.c, ca_ops.inc): bit patterns as floats and back,
 * saturating conversions, shifts, register pairs and little-endian memory words. */
#ifndef EMU_CA_VALUES_H
#define EMU_CA_VALUES_H

#include <math.h>
#include <stdint.h>
#include <string.h>

static inline float u2f(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* NaN results are canonical so that runs agree bit for bit on any host. */
static inline uint32_t f2u(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return isnan(f) ? 0x7fc00000u : u;
}

static inline double u2d(uint64_t u)
{
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

static inline uint64_t d2u(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return isnan(d) ? 0x7ff8000000000000ull : u;
}

/* Float to int: truncate toward zero, saturate out of range, NaN gives 0 (documented in docs/isa.md). */
static inline uint32_t sat_to_i32(double v)
{
    if (isnan(v))
        return 0;
    if (v >= 2147483648.0)
        return 0x7fffffffu;
    if (v <= -2147483649.0)
        return 0x80000000u;
    return (uint32_t)(int32_t)v;
}

static inline uint32_t shift_right_arith(uint32_t a, uint32_t n)
{
    uint32_t sign = (a & 0x80000000u) ? 0xffffffffu : 0u;
    if (n >= 32)
        return sign;
    if (n == 0)
        return a;
    return (a >> n) | (sign << (32 - n));
}

static inline uint64_t pair(const uint32_t *regs, unsigned r) { return (uint64_t)regs[r + 1] << 32 | regs[r]; }

static inline uint32_t load_le(const uint8_t *p, unsigned size)
{
    switch (size) {
    case 1: return p[0];
    case 2: return (uint32_t)p[0] | (uint32_t)p[1] << 8;
    default: return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    }
}

/* Spelled out per size (not a loop), so the compiler can make each one store. */
static inline void store_le(uint8_t *p, unsigned size, uint32_t v)
{
    switch (size) {
    case 1: p[0] = (uint8_t)v; break;
    case 2:
        p[0] = (uint8_t)v;
        p[1] = (uint8_t)(v >> 8);
        break;
    default:
        p[0] = (uint8_t)v;
        p[1] = (uint8_t)(v >> 8);
        p[2] = (uint8_t)(v >> 16);
        p[3] = (uint8_t)(v >> 24);
        break;
    }
}

#endif
