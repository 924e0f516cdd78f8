/*
 * APR's rip-up and reroute, by negotiated congestion (McMurchie and Ebeling's PathFinder): cells may go over
 * capacity (and timelines over the schedule budget) at a price that rises every round, plus a history that
 * remembers where they went over before; every connection through something over is ripped up and rerouted,
 * until nothing is over or the rounds run out.
 */
#include <stdlib.h>
#include <string.h>

#include "apr_internal.h"
#include "splitmix64.h"

static uint64_t channels_over(const apr_t *a)
{
    uint64_t over = 0;
    size_t total = (size_t)a->nphases * a->t.n;
    for (size_t k = 0; k < total; k++)
        if (a->use[k] > a->cap)
            over += a->use[k] - a->cap;
    return over;
}

/* Clocks over the budget, in longest connections (rounded up), so that it adds to channels_over. */
static uint64_t units_over(const apr_t *a, uint64_t load, uint64_t budget)
{
    return budget && load > budget ? (load - budget + a->dref - 1) / a->dref : 0;
}

static uint64_t time_over(const apr_t *a)
{
    uint64_t over = 0;
    for (unsigned p = 0; p < a->nphases; p++)
        for (size_t k = (size_t)p * a->t.n; k < (size_t)(p + 1) * a->t.n; k++)
            over += units_over(a, a->sload[k], a->budget[p]) + units_over(a, a->rload[k], a->budget[p]);
    return over;
}

uint64_t apr_phase_bound(const apr_t *a, unsigned p)
{
    uint64_t most = 0;
    for (size_t k = (size_t)p * a->t.n; k < (size_t)(p + 1) * a->t.n; k++) {
        if (a->sload[k] > most)
            most = a->sload[k];
        if (a->rload[k] > most)
            most = a->rload[k];
    }
    return most;
}

uint64_t apr_schedule_bound(const apr_t *a)
{
    uint64_t sum = 0;
    for (unsigned p = 0; p < a->nphases; p++)
        sum += apr_phase_bound(a, p);
    return sum;
}

static bool touches_over(const apr_t *a, unsigned ci, bool with_time)
{
    const apr_conn_t *c = &a->c[ci];
    size_t base = (size_t)c->phase * a->t.n;
    uint64_t budget = a->budget[c->phase];
    if (with_time && budget && (a->sload[base + c->src] > budget || a->rload[base + c->dst] > budget))
        return true;
    if (!a->crowded[c->phase])
        return false;
    for (unsigned k = 0; k < c->len; k++)
        if (a->use[base + c->path[k]] > a->cap)
            return true;
    return false;
}

void apr_set_prices(apr_t *a, uint64_t pres, uint64_t tpres)
{
    a->pres = pres;
    a->tpres = tpres;
    apr_update_costs(a); /* the price is in every cell's cost that is over capacity or full */
}

static uint64_t raise_price(uint64_t p)
{
    uint64_t next = p * APR_PRES_MULT / 2;
    return next < APR_PRES_MAX ? next : APR_PRES_MAX;
}

/* One round: what is over gets history and a higher price, then every connection through it is rerouted, in
 * an order shuffled by the seed (a fixed order can cycle). */
static int round_once(apr_t *a, bool with_time, unsigned *list)
{
    a->stats.rounds++;
    /* A path is over capacity only in a crowded phase: most are not, and their paths need no look. */
    for (unsigned p = 0; p < a->nphases; p++) {
        a->crowded[p] = false;
        for (size_t k = (size_t)p * a->t.n; k < (size_t)(p + 1) * a->t.n; k++)
            if (a->use[k] > a->cap) {
                a->hist[k] += APR_HIST_INC * (uint32_t)(a->use[k] - a->cap);
                a->crowded[p] = true;
            }
    }
    for (unsigned p = 0; with_time && p < a->nphases; p++)
        for (size_t k = (size_t)p * a->t.n; k < (size_t)(p + 1) * a->t.n; k++) {
            a->shist[k] += APR_HIST_INC * (uint32_t)units_over(a, a->sload[k], a->budget[p]);
            a->rhist[k] += APR_HIST_INC * (uint32_t)units_over(a, a->rload[k], a->budget[p]);
        }
    apr_set_prices(a, raise_price(a->pres), with_time ? raise_price(a->tpres) : a->tpres); /* and the histories */
    unsigned n = 0;
    for (unsigned k = 0; k < a->n; k++)
        if (touches_over(a, a->order[k], with_time))
            list[n++] = a->order[k];
    splitmix64_shuffle(&a->rng, list, n);
    for (unsigned i = 0; i < n; i++)
        apr_rip_up(a, list[i]);
    for (unsigned i = 0; i < n; i++)
        if (apr_route_one(a, list[i]) != 0)
            return -1;
    return 0;
}

int apr_remove_phase_negotiated(apr_t *a, unsigned q, unsigned *list)
{
    apr_saved_t s;
    if (apr_save(a, &s) != 0)
        return -1;
    unsigned n = 0;
    for (unsigned k = 0; k < a->n; k++) {
        unsigned i = a->order[k];
        if (a->c[i].phase == q) {
            apr_rip_up(a, i);
            list[n++] = i;
        }
    }
    apr_remove_phase(a, q);
    apr_clear_history(a);
    apr_set_budget(a, a->nphases);
    apr_set_prices(a, APR_PRES0, APR_PRES0);
    int rc = 0;
    /* The first placement follows the routing order: long connections first. */
    for (unsigned i = 0; i < n && rc == 0; i++)
        rc = apr_route_one(a, list[i]);
    /* The schedule is only priced here: the removal is done when no cell is over capacity. */
    uint64_t least = channels_over(a);
    for (unsigned round = 0, stall = 0; rc == 0 && least > 0 && round < a->iterations && stall < APR_STALL; round++) {
        rc = round_once(a, false, list);
        uint64_t over = channels_over(a);
        stall = over < least ? 0 : stall + 1;
        least = over < least ? over : least;
    }
    apr_set_prices(a, 0, 0);
    bool done = rc == 0 && channels_over(a) == 0;
    if (!done)
        apr_restore(a, &s);
    apr_clear_history(a);
    apr_saved_free(&s);
    return rc != 0 ? -1 : done ? 1 : 0;
}

/* Negotiates channels and timelines together until nothing is over, for at most a->iterations rounds (and
 * APR_STALL without progress). *best keeps the plan with no cell over capacity whose schedule bound is least
 * (best_bound); returns 1 when a round ended with nothing over at all (that plan is then the current one),
 * 0 when none did, -1 when out of memory. */
static int negotiate_time(apr_t *a, unsigned *list, apr_saved_t *best, uint64_t *best_bound)
{
    apr_clear_history(a);
    apr_set_prices(a, APR_PRES0, APR_PRES0);
    uint64_t least = channels_over(a) + time_over(a);
    int rc = 0, clean = 0;
    for (unsigned round = 0, stall = 0; rc == 0 && !clean && round < a->iterations && stall < APR_STALL; round++) {
        rc = round_once(a, true, list);
        uint64_t over = channels_over(a), tover = time_over(a);
        if (rc == 0 && over == 0) {
            uint64_t bound = apr_schedule_bound(a);
            if (bound < *best_bound) {
                apr_saved_t now;
                if (apr_save(a, &now) != 0)
                    rc = -1;
                else {
                    apr_saved_free(best);
                    *best = now;
                    *best_bound = bound;
                }
            }
            clean = tover == 0;
        }
        stall = over + tover < least ? 0 : stall + 1;
        least = over + tover < least ? over + tover : least;
    }
    apr_set_prices(a, 0, 0);
    apr_clear_history(a);
    return rc != 0 ? -1 : clean;
}

int apr_balance(apr_t *a, unsigned *list)
{
    apr_set_budget(a, a->nphases);
    apr_saved_t best;
    if (apr_save(a, &best) != 0)
        return -1;
    uint64_t best_bound = apr_schedule_bound(a);
    int rc = 0;
    /* The fair budget can leave no slack at all (63 connections a cell over 21 phases is 3 in every one):
     * when the negotiation cannot meet it, a budget one longest connection larger is tried, up to what the
     * phases already need; the tightening then lowers the budgets of the phases it can. */
    for (uint64_t budget = a->budget_new; rc == 0 && time_over(a) > 0; budget += a->dref) {
        for (unsigned p = 0; p < a->nphases; p++)
            a->budget[p] = budget;
        a->budget_new = budget;
        rc = negotiate_time(a, list, &best, &best_bound);
        apr_restore(a, &best);
        if (rc != 0)
            break;
        rc = 0;
        uint64_t longest = 0;
        for (unsigned p = 0; p < a->nphases; p++)
            if (apr_phase_bound(a, p) > longest)
                longest = apr_phase_bound(a, p);
        if (budget >= longest)
            break;
    }
    apr_saved_free(&best);
    return rc < 0 ? -1 : 0;
}

/* Timelines of phase p at its busiest: the fewer, the easier that phase gets shorter. */
static unsigned at_bound(const apr_t *a, unsigned p, uint64_t bound)
{
    unsigned n = 0;
    for (size_t k = (size_t)p * a->t.n; k < (size_t)(p + 1) * a->t.n; k++)
        n += (a->sload[k] == bound) + (a->rload[k] == bound);
    return n;
}

int apr_tighten(apr_t *a, unsigned *list)
{
    if (a->nphases < 2 || time_over(a) != 0)
        return 0; /* one phase cannot shorten, and a plan over budget was already the best balancing found */
    bool *tried = calloc(a->nphases, sizeof *tried);
    if (tried == NULL)
        return -1;
    int rc = 0;
    for (unsigned failures = 0; rc == 0 && failures < APR_TIGHTEN_FAILURES;) {
        unsigned q = APR_NONE, fewest = 0;
        for (unsigned p = 0; p < a->nphases; p++) {
            uint64_t b = apr_phase_bound(a, p);
            unsigned n = at_bound(a, p, b);
            if (!tried[p] && b > a->dref && (q == APR_NONE || n < fewest)) {
                q = p;
                fewest = n;
            }
        }
        if (q == APR_NONE)
            break;
        apr_saved_t before;
        if (apr_save(a, &before) != 0) {
            rc = -1;
            break;
        }
        /* One longest connection less: with connections alike, one slot less. Each phase is tried once. */
        uint64_t old = a->budget[q], best_bound = apr_schedule_bound(a);
        a->budget[q] = apr_phase_bound(a, q) - a->dref;
        tried[q] = true;
        apr_saved_t best;
        int clean = apr_save(a, &best) != 0 ? -1 : negotiate_time(a, list, &best, &best_bound);
        apr_saved_free(&best);
        if (clean < 0)
            rc = -1;
        else if (clean == 0) {
            apr_restore(a, &before);
            a->budget[q] = old;
            failures++;
        }
        apr_saved_free(&before);
    }
    free(tried);
    return rc;
}
