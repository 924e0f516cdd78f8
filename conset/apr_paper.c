/*
 * The ConSet paper's rip-up and reroute (section 4.4.1, step 4 of APR: "repeat k times: ripup and reroute"), for
 * the paper mode (apr_input_t.paper). The paper says: "During these phases some number of previously assigned
 * routes are selected to be ripped up and the node costs are decremented to reflect this change; after ripup the
 * connections are rerouted one by one. In this manner it is often possible to find a route for a previously
 * unroutable connection." It does not say which routes, how many, in what order, or what a round keeps; our
 * reading, each choice the plainest we could find (docs/conset.md):
 *
 * - With several phases, the connections of the last phase are the "previously unroutable" ones: they found no
 *   room in the copies of the graph before it. They are ripped up every round.
 * - Of the other routes ("previously assigned"), one in APR_PAPER_SAMPLE is selected by the seed.
 * - All are rerouted one by one with the paper's node costs and capacity (never exceeded), the unroutable first
 *   (they get the first chance at the room the others leave), each group in the routing order of step 1.
 * - A round is kept unless it needs more phases than before (in the one-phase algorithm, a round that left a
 *   connection unroutable), or a connection finds no room between the phases of the connections it comes
 *   after and before; otherwise it is undone. Phases left empty are dropped.
 *
 * Nothing else: no price for going over capacity, no history, no schedule budget.
 */
#include <stdlib.h>

#include "apr_internal.h"
#include "splitmix64.h"

/* The routes to rip up into list, in the order they are rerouted; returns how many. */
static unsigned select_routes(apr_t *a, unsigned *list)
{
    unsigned n = 0, last = a->nphases > 1 ? a->nphases - 1 : APR_NONE;
    for (unsigned k = 0; k < a->n; k++)
        if (a->c[a->order[k]].phase == last)
            list[n++] = a->order[k];
    for (unsigned k = 0; k < a->n; k++)
        if (a->c[a->order[k]].phase != last && splitmix64_next(&a->rng) % APR_PAPER_SAMPLE == 0)
            list[n++] = a->order[k];
    return n;
}

static void drop_empty_phases(apr_t *a)
{
    for (unsigned p = a->nphases; p-- > 0;) {
        bool empty = true;
        for (unsigned i = 0; i < a->n && empty; i++)
            empty = a->c[i].phase != p;
        if (empty)
            apr_remove_phase(a, p);
    }
}

int apr_paper_rounds(apr_t *a, unsigned *list)
{
    for (unsigned round = 0; round < a->iterations; round++) {
        apr_saved_t s;
        if (apr_save(a, &s) != 0)
            return -1;
        unsigned before = a->nphases, n = select_routes(a, list);
        a->stats.rounds++;
        for (unsigned i = 0; i < n; i++)
            apr_rip_up(a, list[i]);
        int rc = 0;
        for (unsigned i = 0; i < n && rc == 0; i++)
            rc = apr_route_one(a, list[i]);
        if (rc < 0) {
            apr_saved_free(&s);
            return -1;
        }
        if (rc == 0)
            drop_empty_phases(a);
        if (rc != 0 || a->nphases > before)
            apr_restore(a, &s);
        apr_saved_free(&s);
    }
    return 0;
}
