/*
 * The routing graph: the W x H torus of cells with its wrap-around links, in the direction numbering of the
 * communication agent (docs/network.md: 0 +X, 1 -X, 2 +Y, 3 -Y; +Y goes to y + 1). A side of 1 has no links
 * in that dimension; a side of 2 has two links (+ and -) to the same neighbour.
 */
#ifndef CONSET_TORUS_H
#define CONSET_TORUS_H

#include <stdbool.h>

enum { TORUS_DIRS = 4 };

typedef struct torus {
    unsigned w, h, n; /* n = w * h cells, id = y * w + x */
} torus_t;

static inline torus_t torus_make(unsigned w, unsigned h)
{
    return (torus_t){w, h, w * h};
}

static inline bool torus_has_link(const torus_t *t, unsigned dir)
{
    return dir < 2 ? t->w > 1 : t->h > 1;
}

static inline unsigned torus_neighbour(const torus_t *t, unsigned cell, unsigned dir)
{
    unsigned x = cell % t->w, y = cell / t->w;
    switch (dir) {
    case 0: x = x + 1 == t->w ? 0 : x + 1; break;
    case 1: x = x == 0 ? t->w - 1 : x - 1; break;
    case 2: y = y + 1 == t->h ? 0 : y + 1; break;
    default: y = y == 0 ? t->h - 1 : y - 1; break;
    }
    return y * t->w + x;
}

static inline unsigned torus_opposite(unsigned dir)
{
    return dir ^ 1u;
}

static inline unsigned torus_ring(unsigned a, unsigned b, unsigned side)
{
    unsigned d = a > b ? a - b : b - a;
    return d < side - d ? d : side - d;
}

/* Hops on a shortest path. */
static inline unsigned torus_distance(const torus_t *t, unsigned a, unsigned b)
{
    return torus_ring(a % t->w, b % t->w, t->w) + torus_ring(a / t->w, b / t->w, t->h);
}

#endif
