/* The compiler's driver: tasks through APR, channel numbers, AS per phase (route.h). */
#include "route.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apr.h"
#include "err.h"
#include "sched.h"

void route_options_init(route_options_t *o)
{
    o->capacity = 0;
    o->iterations = ROUTE_DEFAULT_ITERATIONS;
    o->seed = ROUTE_DEFAULT_SEED;
    o->link_aware = false;
    o->paper = false;
    o->one_timeline = false;
}

void route_plan_free(route_plan_t *plan)
{
    for (unsigned p = 0; p < plan->nphases; p++)
        free(plan->phases[p].conns);
    free(plan->phases);
    free(plan->conns);
    free(plan->cells);
    free(plan->dirs);
    free(plan->chans);
    memset(plan, 0, sizeof *plan);
}

/*
 * Scratch arrays for one subset of the connections at a time, in the subset's own numbering: a task for APR,
 * then a phase for AS. Sized for the whole set once, and filled for each subset from its own connections
 * only, so that many small tasks or phases cost no more than a few large ones.
 */
typedef struct subset {
    unsigned *local; /* connection number -> its index in the subset, for the connections in it */
    unsigned *mark;  /* mark[i] == tag: connection i is in the subset being built */
    unsigned tag;
    unsigned *src, *dst, *after_start, *after;
    uint32_t *words;              /* APR's */
    uint64_t *dur, *start;        /* AS's */
    unsigned *link_start, *links; /* AS's, link-aware only (allocated by schedule: the paths are known then) */
} subset_t;

static void subset_free(subset_t *x)
{
    free(x->local);
    free(x->mark);
    free(x->src);
    free(x->dst);
    free(x->after_start);
    free(x->after);
    free(x->words);
    free(x->dur);
    free(x->start);
    free(x->link_start);
    free(x->links);
}

static int subset_alloc(const cset_t *set, subset_t *x)
{
    size_t n = set->nconns + 1u, edges = 1;
    for (unsigned i = 0; i < set->nconns; i++)
        edges += set->conns[i].nafter;
    memset(x, 0, sizeof *x);
    x->local = malloc(sizeof *x->local * n);
    x->mark = calloc(n, sizeof *x->mark);
    x->src = malloc(sizeof *x->src * n);
    x->dst = malloc(sizeof *x->dst * n);
    x->after_start = malloc(sizeof *x->after_start * n);
    x->after = malloc(sizeof *x->after * edges);
    x->words = malloc(sizeof *x->words * n);
    x->dur = malloc(sizeof *x->dur * n);
    x->start = malloc(sizeof *x->start * n);
    bool ok = x->local != NULL && x->mark != NULL && x->src != NULL && x->dst != NULL && x->after_start != NULL &&
              x->after != NULL && x->words != NULL && x->dur != NULL && x->start != NULL;
    return ok ? 0 : -1;
}

/* The subset conns[0 .. n): ends, words and the constraints between its members (in a phase, those on
 * connections of earlier phases are over before it starts; a task holds all of its own). Returns how many
 * constraints it kept. */
static unsigned subset_build(subset_t *x, const cset_t *set, const unsigned *conns, unsigned n)
{
    x->tag++;
    for (unsigned k = 0; k < n; k++) {
        x->mark[conns[k]] = x->tag;
        x->local[conns[k]] = k;
    }
    unsigned m = 0;
    for (unsigned k = 0; k < n; k++) {
        const cset_conn_t *c = &set->conns[conns[k]];
        x->src[k] = c->src;
        x->dst[k] = c->dst;
        x->words[k] = c->words;
        x->dur[k] = (uint64_t)SCHED_CLOCKS_PER_WORD * c->words;
        x->after_start[k] = m;
        for (unsigned a = 0; a < c->nafter; a++)
            if (x->mark[c->after[a]] == x->tag)
                x->after[m++] = x->local[c->after[a]];
    }
    x->after_start[n] = m;
    return m;
}

/* Phases never mix tasks, so neither may a constraint (the parser makes sure; a set built in memory may not). */
static int check_constraints(const cset_t *set, char *err, size_t errlen)
{
    for (unsigned i = 0; i < set->nconns; i++) {
        const cset_conn_t *c = &set->conns[i];
        for (unsigned a = 0; a < c->nafter; a++)
            if (set->conns[c->after[a]].task != c->task)
                return err_set(err, errlen, "connection '%s' is used after '%s' of another task", c->id,
                               set->conns[c->after[a]].id);
    }
    return 0;
}

/* Each task's connections, ascending: (*conns)[(*start)[t] .. (*start)[t + 1]) (a counting sort by task). */
static int group_by_task(const cset_t *set, unsigned **start, unsigned **conns)
{
    *start = calloc(set->ntasks + 2u, sizeof **start);
    *conns = malloc(sizeof **conns * (set->nconns + 1u));
    if (*start == NULL || *conns == NULL)
        return -1;
    for (unsigned i = 0; i < set->nconns; i++)
        (*start)[set->conns[i].task + 2]++;
    for (unsigned t = 0; t < set->ntasks; t++)
        (*start)[t + 2] += (*start)[t + 1];
    for (unsigned i = 0; i < set->nconns; i++)
        (*conns)[(*start)[set->conns[i].task + 1]++] = i;
    return 0;
}

static int append_path(route_plan_t *plan, size_t *cap, size_t *used, const uint16_t *cells, const uint8_t *dirs,
                       unsigned len)
{
    if (*used + len > *cap) {
        size_t ncap = *cap ? *cap : 1024;
        while (ncap < *used + len)
            ncap *= 2;
        uint16_t *c = realloc(plan->cells, sizeof *c * ncap);
        if (c != NULL)
            plan->cells = c;
        uint8_t *d = realloc(plan->dirs, ncap);
        if (d != NULL)
            plan->dirs = d;
        uint8_t *ch = realloc(plan->chans, ncap);
        if (ch != NULL)
            plan->chans = ch;
        if (c == NULL || d == NULL || ch == NULL)
            return -1;
        *cap = ncap;
    }
    memcpy(plan->cells + *used, cells, sizeof *cells * len);
    memcpy(plan->dirs + *used, dirs, len > 1 ? len - 1 : 0);
    plan->dirs[*used + len - 1] = 0;
    *used += len;
    return 0;
}

/* APR, task by task: each connection's phase and path; the phases are numbered task by task. */
static int route_tasks(const cset_t *set, const route_options_t *o, route_plan_t *plan, subset_t *x, char *err,
                       size_t errlen)
{
    unsigned *start, *conns;
    size_t cap = 0, used = 0, phases_cap = 0;
    int rc = group_by_task(set, &start, &conns) != 0 ? err_set(err, errlen, "out of memory") : 0;
    for (unsigned task = 0; task < set->ntasks && rc == 0; task++) {
        const unsigned *mine = conns + start[task];
        unsigned n = start[task + 1] - start[task];
        subset_build(x, set, mine, n);
        apr_input_t in = {
            .torus = plan->torus,
            .capacity = plan->capacity,
            .iterations = o->iterations,
            .seed = o->seed,
            .paper = plan->paper,
            .nconns = n,
            .src = x->src,
            .dst = x->dst,
            .words = x->words,
            .after_start = x->after_start,
            .after = x->after,
        };
        apr_t *a = apr_route(&in);
        if (a == NULL) {
            rc = err_set(err, errlen, "out of memory routing task %s", set->tasks[task]);
            break;
        }
        for (unsigned j = 0; j < n && rc == 0; j++) {
            route_conn_t *c = &plan->conns[mine[j]];
            unsigned len;
            const uint16_t *path = apr_path(a, j, &len);
            c->phase = plan->nphases + apr_phase_of(a, j);
            c->first = (unsigned)used;
            c->ncells = len;
            rc = append_path(plan, &cap, &used, path, apr_dirs(a, j), len);
        }
        const apr_stats_t *st = apr_stats(a);
        plan->lower_bound += st->lower_bound;
        plan->greedy_phases += st->greedy_phases;
        plan->rounds += st->rounds;
        plan->searches += st->searches;
        unsigned phases = apr_phases(a);
        apr_free(a);
        if (rc == 0 && plan->nphases + phases + 1u > phases_cap) {
            phases_cap = 2 * (plan->nphases + phases + 1u);
            route_phase_t *grown = realloc(plan->phases, sizeof *grown * phases_cap);
            if (grown != NULL)
                plan->phases = grown;
            else
                rc = -1;
        }
        if (rc != 0) {
            rc = err_set(err, errlen, "out of memory");
            break;
        }
        for (unsigned p = 0; p < phases; p++)
            plan->phases[plan->nphases++] = (route_phase_t){.task = task};
    }
    free(start);
    free(conns);
    return rc;
}

static int fill_phases(route_plan_t *plan)
{
    unsigned n = plan->set->nconns;
    for (unsigned i = 0; i < n; i++)
        plan->phases[plan->conns[i].phase].nconns++;
    for (unsigned p = 0; p < plan->nphases; p++) {
        plan->phases[p].conns = malloc(sizeof(unsigned) * (plan->phases[p].nconns + 1u));
        if (plan->phases[p].conns == NULL)
            return -1;
        plan->phases[p].nconns = 0;
    }
    for (unsigned i = 0; i < n; i++) {
        route_phase_t *ph = &plan->phases[plan->conns[i].phase];
        ph->conns[ph->nconns++] = i;
    }
    return 0;
}

/* Channel numbers: at each cell of a phase, its connections in connection order take 4, 5, 6, ... */
static int assign_channels(route_plan_t *plan)
{
    uint8_t *next = calloc(plan->torus.n, 1);
    if (next == NULL)
        return -1;
    for (unsigned p = 0; p < plan->nphases; p++) {
        const route_phase_t *ph = &plan->phases[p];
        for (unsigned k = 0; k < ph->nconns; k++) {
            const route_conn_t *c = &plan->conns[ph->conns[k]];
            for (unsigned j = 0; j < c->ncells; j++)
                plan->chans[c->first + j] = (uint8_t)(ROUTE_FIRST_CHANNEL + next[plan->cells[c->first + j]]++);
        }
        for (unsigned k = 0; k < ph->nconns; k++) {
            const route_conn_t *c = &plan->conns[ph->conns[k]];
            for (unsigned j = 0; j < c->ncells; j++)
                next[plan->cells[c->first + j]] = 0;
        }
    }
    free(next);
    return 0;
}

/* Phase p as the scheduler sees it, in the phase's own numbering: each connection's ends and clocks, the
 * constraints between connections of the phase and, link-aware, the directed links each one crosses. */
static sched_input_t phase_input(const route_plan_t *plan, unsigned p, subset_t *x, uint64_t seed)
{
    const route_phase_t *ph = &plan->phases[p];
    unsigned m = subset_build(x, plan->set, ph->conns, ph->nconns);
    sched_input_t in = {
        .cells = plan->torus.n,
        .n = ph->nconns,
        .src = x->src,
        .dst = x->dst,
        .dur = x->dur,
        .after_start = m ? x->after_start : NULL,
        .after = m ? x->after : NULL,
        .seed = seed,
        .greedy_only = plan->paper,
        .one_timeline = plan->one_timeline,
    };
    if (plan->link_aware) {
        /* Link id: the cell it leaves times 4, plus the direction. */
        unsigned nl = 0;
        for (unsigned k = 0; k < ph->nconns; k++) {
            const route_conn_t *c = &plan->conns[ph->conns[k]];
            x->link_start[k] = nl;
            for (unsigned j = 0; j + 1 < c->ncells; j++)
                x->links[nl++] = 4u * plan->cells[c->first + j] + plan->dirs[c->first + j];
        }
        x->link_start[ph->nconns] = nl;
        in.nlinks = 4u * plan->torus.n;
        in.link_start = x->link_start;
        in.links = x->links;
    }
    return in;
}

/* AS, phase by phase: each connection's start and end. */
static int schedule(route_plan_t *plan, uint64_t seed, subset_t *x)
{
    if (plan->link_aware) {
        size_t hops = 1;
        for (unsigned i = 0; i < plan->set->nconns; i++)
            hops += plan->conns[i].ncells;
        x->link_start = malloc(sizeof *x->link_start * (plan->set->nconns + 1u));
        x->links = malloc(sizeof *x->links * hops);
        if (x->link_start == NULL || x->links == NULL)
            return -1;
    }
    for (unsigned p = 0; p < plan->nphases; p++) {
        sched_input_t in = phase_input(plan, p, x, seed);
        int64_t clocks = sched_phase(&in, x->start);
        if (clocks < 0)
            return -1;
        route_phase_t *ph = &plan->phases[p];
        ph->clocks = (uint64_t)clocks;
        for (unsigned k = 0; k < ph->nconns; k++) {
            route_conn_t *c = &plan->conns[ph->conns[k]];
            c->start = x->start[k];
            c->end = x->start[k] + x->dur[k];
        }
    }
    return 0;
}

int route_compile(const cset_t *set, const route_options_t *o, route_plan_t *plan, char *err, size_t errlen)
{
    memset(plan, 0, sizeof *plan);
    unsigned capacity = o->capacity ? o->capacity : set->capacity;
    if (capacity < 1 || capacity > CSET_MAX_CAPACITY)
        return err_set(err, errlen, "capacity must be 1..%u channels, not %u", CSET_MAX_CAPACITY, capacity);
    if (check_constraints(set, err, errlen) != 0)
        return -1;
    bool paper = o->paper || set->paper;
    if (paper && o->link_aware)
        return err_set(err, errlen, "the ConSet paper's compiler has no congestion-aware scheduler (paper and links)");
    plan->set = set;
    plan->torus = torus_make(set->width, set->height);
    plan->capacity = capacity;
    plan->link_aware = o->link_aware;
    plan->paper = paper;
    plan->one_timeline = o->one_timeline;
    plan->conns = calloc(set->nconns + 1u, sizeof *plan->conns);
    subset_t x;
    int rc = subset_alloc(set, &x);
    if (plan->conns == NULL || rc != 0)
        rc = err_set(err, errlen, "out of memory");
    if (rc == 0)
        rc = route_tasks(set, o, plan, &x, err, errlen);
    if (rc == 0 && (fill_phases(plan) != 0 || assign_channels(plan) != 0 || schedule(plan, o->seed, &x) != 0))
        rc = err_set(err, errlen, "out of memory");
    subset_free(&x);
    if (rc != 0)
        route_plan_free(plan);
    return rc;
}
