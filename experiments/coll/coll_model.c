/* The buffered collectives paper's relative costs of the collective patterns (coll_model.h). */
#include "coll_model.h"

static double lg2_up(unsigned p)
{
    unsigned k = 0;
    while ((1u << k) < p)
        k++;
    return k;
}

coll_factor_t coll_model_factor(coll_pattern_t p, unsigned cells)
{
    double n = cells;
    switch (p) {
    case COLL_BCAST:
    case COLL_REDUCE: return (coll_factor_t){lg2_up(cells), lg2_up(cells)};
    case COLL_MBCAST_TREE:
    case COLL_MREDUCE_TREE: return (coll_factor_t){n * lg2_up(cells), n * lg2_up(cells)};
    case COLL_MBCAST_RING:
    case COLL_MREDUCE_RING: return (coll_factor_t){n - 1, 2 * (n - 1)};
    case COLL_MBCAST_PIPE: return (coll_factor_t){2 * n, 2 * n};
    case COLL_BSEND: return (coll_factor_t){2, 2};
    case COLL_PATTERNS: break;
    }
    return (coll_factor_t){0, 0};
}

coll_case_t coll_model_message(const coll_case_t *c)
{
    coll_case_t one = *c;
    one.pattern = COLL_BCAST;
    one.groups = COLL_ROWS;
    one.width = 2;
    one.height = 1;
    one.root = 0;
    one.delay = 0;
    return one;
}
