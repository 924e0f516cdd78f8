/* The address relation caching model (model_caching.h), term by term as the paper derives it. */
#include "model_caching.h"

#include <math.h>
#include <stdio.h>

/* Section 4, "Model validation": iWarp's rates from its specification (20 MHz, every memory operation two
 * clocks, no cache), the Paragon's measured; the loop counts as the authors counted them. */
const caching_machine_t caching_iwarp = {"iWarp", 2e7, 1e7, 1e7, 1e7, 1e7};
const caching_machine_t caching_paragon = {"Paragon", 5e7, 9e6, 0.9e6, 8.2e6, 0.9e6};
const caching_loops_t caching_iwarp_static = {5, 6, 2};
const caching_loops_t caching_iwarp_dynamic = {7, 8, 3};
const caching_loops_t caching_paragon_static = {6, 7, 11};

double caching_t_uncached_assembly(const caching_machine_t *m, const caching_loops_t *l, double n_g)
{
    /* t_g: the relation computed on line; t_au: read the data word, write the address and the data word. */
    return n_g / m->r_i + 1 / m->r_rr + 2 / m->r_wc + l->n_au / m->r_i;
}

double caching_t_cached_assembly(const caching_machine_t *m, const caching_loops_t *l)
{
    /* t_ac: read the tuple, read the data word, write the address and the data word. */
    return 2 / m->r_rc + 1 / m->r_rr + 2 / m->r_wc + l->n_ac / m->r_i;
}

double caching_threshold(const caching_machine_t *m, const caching_loops_t *l)
{
    return 2 * m->r_i / m->r_rc + l->n_ac - l->n_au;
}

caching_break_even_t caching_break_even(const caching_machine_t *m, const caching_loops_t *l, double n_g,
                                        uint64_t *n_i)
{
    double den = (n_g + l->n_au - l->n_ac) * m->r_rc - 2 * m->r_i;
    *n_i = 0;
    /* The rates are round numbers of words per second: compare with a relative tolerance, not to zero. */
    if (fabs(den) <= 1e-9 * 2 * m->r_i)
        return CACHING_AT_INFINITY;
    if (den < 0)
        return CACHING_NEVER;
    double x = m->r_rc / m->r_wc * (((n_g + l->n_o) * m->r_wc + 2 * m->r_i) / den);
    *n_i = (uint64_t)ceil(x - 1e-9 * x);
    return CACHING_BREAKS_EVEN;
}

void caching_break_even_text(caching_break_even_t k, uint64_t n_i, char *buf, size_t cap)
{
    if (k == CACHING_BREAKS_EVEN)
        snprintf(buf, cap, "%llu", (unsigned long long)n_i);
    else
        snprintf(buf, cap, "%s", k == CACHING_AT_INFINITY ? "INF" : "NONE");
}

double caching_speedup(const caching_machine_t *m, const caching_loops_t *l, double n_g)
{
    return caching_t_uncached_assembly(m, l, n_g) / caching_t_cached_assembly(m, l);
}
