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

/* Scratch arrays of one task, in the task's own numbering. */
typedef struct task_input {
    unsigned *conns; /* global numbers of the task's connections, ascending */
    unsigned *local; /* global -> local (only the task's entries are meaningful) */
    unsigned *src, *dst, *after_start, *after;
    uint32_t *words;
} task_input_t;

static void task_input_free(task_input_t *t)
{
    free(t->conns);
    free(t->local);
    free(t->src);
    free(t->dst);
    free(t->after_start);
    free(t->after);
    free(t->words);
}

static int task_input(const cset_t *set, unsigned task, task_input_t *t, unsigned *n, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    size_t total = set->nconns + 1u, edges = 1;
    for (unsigned i = 0; i < set->nconns; i++)
        edges += set->conns[i].nafter;
    t->conns = malloc(sizeof *t->conns * total);
    t->local = malloc(sizeof *t->local * total);
    t->src = malloc(sizeof *t->src * total);
    t->dst = malloc(sizeof *t->dst * total);
    t->words = malloc(sizeof *t->words * total);
    t->after_start = malloc(sizeof *t->after_start * total);
    t->after = malloc(sizeof *t->after * edges);
    if (t->conns == NULL || t->local == NULL || t->src == NULL || t->dst == NULL || t->words == NULL ||
        t->after_start == NULL || t->after == NULL)
        return err_set(err, errlen, "out of memory");
    unsigned k = 0;
    for (unsigned i = 0; i < set->nconns; i++)
        if (set->conns[i].task == task) {
            t->local[i] = k;
            t->conns[k++] = i;
        }
    *n = k;
    unsigned m = 0;
    for (unsigned j = 0; j < k; j++) {
        const cset_conn_t *c = &set->conns[t->conns[j]];
        t->src[j] = c->src;
        t->dst[j] = c->dst;
        t->words[j] = c->words;
        t->after_start[j] = m;
        for (unsigned a = 0; a < c->nafter; a++) {
            if (set->conns[c->after[a]].task != task)
                return err_set(err, errlen, "connection '%s' is used after '%s' of another task", c->id,
                               set->conns[c->after[a]].id);
            t->after[m++] = t->local[c->after[a]];
        }
    }
    t->after_start[k] = m;
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

static int route_tasks(const cset_t *set, const route_options_t *o, route_plan_t *plan, char *err, size_t errlen)
{
    size_t cap = 0, used = 0;
    for (unsigned task = 0; task < set->ntasks; task++) {
        task_input_t t;
        unsigned n = 0;
        if (task_input(set, task, &t, &n, err, errlen) != 0) {
            task_input_free(&t);
            return -1;
        }
        apr_input_t in = {
            .torus = plan->torus,
            .capacity = plan->capacity,
            .iterations = o->iterations,
            .seed = o->seed,
            .nconns = n,
            .src = t.src,
            .dst = t.dst,
            .words = t.words,
            .after_start = t.after_start,
            .after = t.after,
        };
        apr_t *a = apr_route(&in);
        if (a == NULL) {
            task_input_free(&t);
            return err_set(err, errlen, "out of memory routing task %s", set->tasks[task]);
        }
        int rc = 0;
        for (unsigned j = 0; j < n && rc == 0; j++) {
            route_conn_t *rc_conn = &plan->conns[t.conns[j]];
            unsigned len;
            const uint16_t *path = apr_path(a, j, &len);
            rc_conn->phase = plan->nphases + apr_phase_of(a, j);
            rc_conn->first = (unsigned)used;
            rc_conn->ncells = len;
            rc = append_path(plan, &cap, &used, path, apr_dirs(a, j), len);
        }
        const apr_stats_t *st = apr_stats(a);
        plan->lower_bound += st->lower_bound;
        plan->greedy_phases += st->greedy_phases;
        plan->rounds += st->rounds;
        plan->searches += st->searches;
        unsigned phases = apr_phases(a);
        apr_free(a);
        task_input_free(&t);
        if (rc != 0)
            return err_set(err, errlen, "out of memory");
        route_phase_t *grown = realloc(plan->phases, sizeof *grown * (plan->nphases + phases + 1u));
        if (grown == NULL)
            return err_set(err, errlen, "out of memory");
        plan->phases = grown;
        for (unsigned p = 0; p < phases; p++)
            plan->phases[plan->nphases++] = (route_phase_t){.task = task};
    }
    return 0;
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

/* Scratch arrays for the scheduler's input of one phase at a time, sized for the whole set. */
typedef struct phase_scratch {
    unsigned *local; /* connection number -> its index in the phase being built */
    unsigned *src, *dst, *after_start, *after;
    unsigned *link_start, *links; /* only when link-aware */
    uint64_t *dur, *start;
} phase_scratch_t;

static void phase_scratch_free(phase_scratch_t *x)
{
    free(x->local);
    free(x->src);
    free(x->dst);
    free(x->after_start);
    free(x->after);
    free(x->link_start);
    free(x->links);
    free(x->dur);
    free(x->start);
}

static int phase_scratch_alloc(const route_plan_t *plan, phase_scratch_t *x)
{
    const cset_t *set = plan->set;
    size_t n = set->nconns + 1u, edges = 1, hops = 1;
    for (unsigned i = 0; i < set->nconns; i++) {
        edges += set->conns[i].nafter;
        hops += plan->conns[i].ncells;
    }
    memset(x, 0, sizeof *x);
    x->local = malloc(sizeof *x->local * n);
    x->src = malloc(sizeof *x->src * n);
    x->dst = malloc(sizeof *x->dst * n);
    x->after_start = malloc(sizeof *x->after_start * n);
    x->after = malloc(sizeof *x->after * edges);
    x->dur = malloc(sizeof *x->dur * n);
    x->start = malloc(sizeof *x->start * n);
    bool ok = x->local != NULL && x->src != NULL && x->dst != NULL && x->after_start != NULL && x->after != NULL &&
              x->dur != NULL && x->start != NULL;
    if (plan->link_aware) {
        x->link_start = malloc(sizeof *x->link_start * n);
        x->links = malloc(sizeof *x->links * hops);
        ok = ok && x->link_start != NULL && x->links != NULL;
    }
    return ok ? 0 : -1;
}

/* Phase p as the scheduler sees it, in the phase's own numbering: each connection's ends and clocks, the
 * constraints between connections of the phase and, link-aware, the directed links each one crosses. */
static sched_input_t phase_input(const route_plan_t *plan, unsigned p, phase_scratch_t *x, uint64_t seed)
{
    const cset_t *set = plan->set;
    const route_phase_t *ph = &plan->phases[p];
    for (unsigned k = 0; k < ph->nconns; k++)
        x->local[ph->conns[k]] = k;
    unsigned m = 0;
    for (unsigned k = 0; k < ph->nconns; k++) {
        const cset_conn_t *c = &set->conns[ph->conns[k]];
        x->src[k] = c->src;
        x->dst[k] = c->dst;
        x->dur[k] = (uint64_t)SCHED_CLOCKS_PER_WORD * c->words;
        x->after_start[k] = m;
        /* Those in earlier phases are over before this one starts. */
        for (unsigned a = 0; a < c->nafter; a++)
            if (plan->conns[c->after[a]].phase == p)
                x->after[m++] = x->local[c->after[a]];
    }
    x->after_start[ph->nconns] = m;
    sched_input_t in = {
        .cells = plan->torus.n,
        .n = ph->nconns,
        .src = x->src,
        .dst = x->dst,
        .dur = x->dur,
        .after_start = m ? x->after_start : NULL,
        .after = m ? x->after : NULL,
        .seed = seed,
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

static int schedule(route_plan_t *plan, uint64_t seed)
{
    phase_scratch_t x;
    int rc = phase_scratch_alloc(plan, &x);
    for (unsigned p = 0; p < plan->nphases && rc == 0; p++) {
        sched_input_t in = phase_input(plan, p, &x, seed);
        int64_t clocks = sched_phase(&in, x.start);
        if (clocks < 0) {
            rc = -1;
            break;
        }
        route_phase_t *ph = &plan->phases[p];
        ph->clocks = (uint64_t)clocks;
        for (unsigned k = 0; k < ph->nconns; k++) {
            route_conn_t *c = &plan->conns[ph->conns[k]];
            c->start = x.start[k];
            c->end = x.start[k] + x.dur[k];
        }
    }
    phase_scratch_free(&x);
    return rc;
}

int route_compile(const cset_t *set, const route_options_t *o, route_plan_t *plan, char *err, size_t errlen)
{
    memset(plan, 0, sizeof *plan);
    unsigned capacity = o->capacity ? o->capacity : set->capacity;
    if (capacity < 1 || capacity > CSET_MAX_CAPACITY)
        return err_set(err, errlen, "capacity must be 1..%u channels, not %u", CSET_MAX_CAPACITY, capacity);
    plan->set = set;
    plan->torus = torus_make(set->width, set->height);
    plan->capacity = capacity;
    plan->link_aware = o->link_aware;
    plan->conns = calloc(set->nconns + 1u, sizeof *plan->conns);
    if (plan->conns == NULL)
        return err_set(err, errlen, "out of memory");
    if (route_tasks(set, o, plan, err, errlen) != 0) {
        route_plan_free(plan);
        return -1;
    }
    if (fill_phases(plan) != 0 || assign_channels(plan) != 0 || schedule(plan, o->seed) != 0) {
        route_plan_free(plan);
        return err_set(err, errlen, "out of memory");
    }
    return 0;
}
