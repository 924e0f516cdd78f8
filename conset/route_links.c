#include "route_links.h"

#include <stdlib.h>

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

uint64_t route_phase_link_weighted_clocks(const route_plan_t *plan, unsigned phase)
{
    const route_phase_t *ph = &plan->phases[phase];
    size_t nlinks = (size_t)plan->torus.n * TORUS_DIRS;
    uint64_t *cuts = malloc(2 * (size_t)ph->nconns * sizeof *cuts + 1);
    unsigned *load = calloc(nlinks, sizeof *load);
    if (cuts == NULL || load == NULL || ph->nconns == 0) {
        free(cuts);
        free(load);
        return 0;
    }
    size_t ncuts = 0;
    for (unsigned k = 0; k < ph->nconns; k++) {
        cuts[ncuts++] = plan->conns[ph->conns[k]].start;
        cuts[ncuts++] = plan->conns[ph->conns[k]].end;
    }
    qsort(cuts, ncuts, sizeof *cuts, cmp_u64);
    /* The schedule's clock 0 is the phase's start, even when its first connection starts later. */
    uint64_t weighted = cuts[0];
    for (size_t i = 0; i + 1 < ncuts; i++) {
        uint64_t from = cuts[i], to = cuts[i + 1];
        if (from == to)
            continue;
        unsigned most = 1;
        for (unsigned k = 0; k < ph->nconns; k++) {
            const route_conn_t *c = &plan->conns[ph->conns[k]];
            if (c->start > from || c->end < to)
                continue;
            for (unsigned j = 0; j + 1 < c->ncells; j++) {
                size_t l = (size_t)plan->cells[c->first + j] * TORUS_DIRS + plan->dirs[c->first + j];
                if (++load[l] > most)
                    most = load[l];
            }
        }
        weighted += (to - from) * most;
        /* Only the links just counted need clearing: cheaper than the whole array on a large torus. */
        for (unsigned k = 0; k < ph->nconns; k++) {
            const route_conn_t *c = &plan->conns[ph->conns[k]];
            if (c->start > from || c->end < to)
                continue;
            for (unsigned j = 0; j + 1 < c->ncells; j++)
                load[(size_t)plan->cells[c->first + j] * TORUS_DIRS + plan->dirs[c->first + j]] = 0;
        }
    }
    free(cuts);
    free(load);
    return weighted;
}
