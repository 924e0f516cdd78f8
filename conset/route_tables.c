/* The cell tables: per cell and phase a forwarding pattern and the AS schedule (route_tables.h). */
#include "route_tables.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu.h"
#include "route_links.h"
#include "sched.h"

_Static_assert((int)CSET_MAX_SIDE == (int)EMU_MAX_DIM, "connection sets name arrays the emulator can build");

/* A growing list of words (one cell's blob). */
typedef struct words {
    uint32_t *v;
    size_t n, cap;
} words_t;

static int push(words_t *w, uint32_t x)
{
    if (w->n == w->cap) {
        size_t cap = w->cap ? 2 * w->cap : 64;
        uint32_t *grown = realloc(w->v, sizeof *grown * cap);
        if (grown == NULL)
            return -1;
        w->v = grown;
        w->cap = cap;
    }
    w->v[w->n++] = x;
    return 0;
}

static int put(words_t *w, uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
    /* || sequences the pushes (| would leave their order unspecified) and stops at the first failure. */
    return push(w, a) != 0 || push(w, b) != 0 || push(w, c) != 0 || push(w, d) != 0 ? -1 : 0;
}

/* A pathway end on a link, as the agent's forwarding entries encode it (the route's directions are the
 * agent's). */
static uint32_t link_end(unsigned dir, unsigned channel)
{
    return coa_end_encode((coa_end_t){COA_END_LINK, (uint8_t)dir, (uint8_t)channel});
}

typedef struct xfer {
    uint64_t start;
    unsigned conn;
} xfer_t;

static int xfer_cmp(const void *x, const void *y)
{
    const xfer_t *a = x, *b = y;
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    return a->conn < b->conn ? -1 : a->conn > b->conn;
}

/*
 * The cell's walk through its schedule: segments in which the same send and the same receive are going,
 * stretches where neither is going left out. Both ends of a connection are in it at the same schedule
 * time, so a cell that follows its segments pairs a send with a receive only where the schedule does.
 * Every start and end is even (durations are 2 clocks a word, and a start is 0 or another's end), so each
 * segment is whole words.
 */
static int segments(const route_plan_t *plan, const xfer_t *sends, unsigned ns, const xfer_t *recvs, unsigned nr,
                    words_t *w, uint32_t *count)
{
    const route_conn_t *c = plan->conns;
    uint64_t t = 0;
    unsigned i = 0, j = 0;
    *count = 0;
    while (i < ns || j < nr) {
        bool s_on = i < ns && c[sends[i].conn].start <= t, r_on = j < nr && c[recvs[j].conn].start <= t;
        if (s_on && c[sends[i].conn].end == c[sends[i].conn].start) { /* nothing to move */
            i++;
            continue;
        }
        if (r_on && c[recvs[j].conn].end == c[recvs[j].conn].start) {
            j++;
            continue;
        }
        uint64_t b = UINT64_MAX;
        if (i < ns)
            b = s_on ? c[sends[i].conn].end : c[sends[i].conn].start;
        if (j < nr) {
            uint64_t rb = r_on ? c[recvs[j].conn].end : c[recvs[j].conn].start;
            b = rb < b ? rb : b;
        }
        if (!s_on && !r_on) { /* an idle stretch */
            t = b;
            continue;
        }
        if ((b - t) % SCHED_CLOCKS_PER_WORD != 0 || t % SCHED_CLOCKS_PER_WORD != 0)
            return -2; /* not whole words: a scheduler bug */
        const route_conn_t *sc = s_on ? &c[sends[i].conn] : NULL, *rc = r_on ? &c[recvs[j].conn] : NULL;
        uint32_t out = sc != NULL && sc->start == t ? plan->chans[sc->first] : 0;
        uint32_t in = rc != NULL && rc->start == t ? plan->chans[rc->first + rc->ncells - 1] : 0;
        uint32_t mode = (sc != NULL ? ROUTE_SEGMENT_SEND : 0) | (rc != NULL ? ROUTE_SEGMENT_RECEIVE : 0);
        if (put(w, out | in << 8, (uint32_t)((b - t) / SCHED_CLOCKS_PER_WORD), mode,
                (uint32_t)(t > UINT32_MAX ? UINT32_MAX : t)) != 0)
            return -1;
        ++*count;
        t = b;
        if (sc != NULL && sc->end == b)
            i++;
        if (rc != NULL && rc->end == b)
            j++;
    }
    return 0;
}

/* The record of phase p at cell v, appended to w. */
static int phase_record(const route_plan_t *plan, unsigned p, unsigned v, words_t *w, xfer_t *sends, xfer_t *recvs)
{
    const route_phase_t *ph = &plan->phases[p];
    const cset_t *set = plan->set;
    size_t count_at = w->n;
    if (push(w, 0) != 0) /* n_fwd, known once the entries are out */
        return -1;
    uint32_t nfwd = 0;
    unsigned nsend = 0, nrecv = 0;
    for (unsigned k = 0; k < ph->nconns; k++) {
        unsigned ci = ph->conns[k];
        const route_conn_t *c = &plan->conns[ci];
        for (unsigned j = 0; j < c->ncells; j++) {
            unsigned at = c->first + j;
            if (plan->cells[at] != v)
                continue;
            uint32_t route = j + 1 < c->ncells ? link_end(plan->dirs[at], plan->chans[at + 1]) : 0;
            uint32_t source = j > 0 ? link_end(torus_opposite(plan->dirs[at - 1]), plan->chans[at - 1]) : 0;
            if (put(w, plan->chans[at], route, source, 0) != 0)
                return -1;
            nfwd++;
        }
        if (set->conns[ci].src == v)
            sends[nsend++] = (xfer_t){c->start, ci};
        if (set->conns[ci].dst == v)
            recvs[nrecv++] = (xfer_t){c->start, ci};
    }
    w->v[count_at] = nfwd;
    size_t counts_at = w->n;
    if (put(w, nsend, nrecv, (uint32_t)(ph->clocks > UINT32_MAX ? UINT32_MAX : ph->clocks), 0) != 0)
        return -1;
    qsort(sends, nsend, sizeof *sends, xfer_cmp);
    qsort(recvs, nrecv, sizeof *recvs, xfer_cmp);
    for (unsigned k = 0; k < nsend; k++) {
        const route_conn_t *c = &plan->conns[sends[k].conn];
        if (put(w, sends[k].conn, plan->chans[c->first], set->conns[sends[k].conn].words,
                set->conns[sends[k].conn].dst) != 0)
            return -1;
    }
    for (unsigned k = 0; k < nrecv; k++) {
        const route_conn_t *c = &plan->conns[recvs[k].conn];
        if (put(w, recvs[k].conn, plan->chans[c->first + c->ncells - 1], set->conns[recvs[k].conn].words,
                set->conns[recvs[k].conn].src) != 0)
            return -1;
    }
    uint32_t nseg;
    int rc = segments(plan, sends, nsend, recvs, nrecv, w, &nseg);
    if (rc != 0)
        return rc;
    w->v[counts_at + 3] = nseg;
    return 0;
}

int route_tables_check(const route_plan_t *plan, char *err, size_t errlen)
{
    for (unsigned p = 0; plan->link_aware && p < plan->nphases; p++)
        if (plan->phases[p].clocks > ROUTE_TIMED_MAX_CLOCKS) {
            snprintf(err, errlen,
                     "phase %u of the timed schedule (--links) lasts %llu clocks, more than the %u the cells can "
                     "count; compile without --links, or with shorter connections",
                     p, (unsigned long long)plan->phases[p].clocks, (unsigned)ROUTE_TIMED_MAX_CLOCKS);
            return -1;
        }
    return 0;
}

int route_tables(const route_plan_t *plan, celldata_t *out, char *err, size_t errlen)
{
    const torus_t *t = &plan->torus;
    if (route_tables_check(plan, err, errlen) != 0) {
        memset(out, 0, sizeof *out);
        return -1;
    }
    if (celldata_init(out, t->w, t->h) != 0) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    unsigned most = 1;
    for (unsigned p = 0; p < plan->nphases; p++)
        if (plan->phases[p].nconns > most)
            most = plan->phases[p].nconns;
    xfer_t *sends = malloc(sizeof *sends * most), *recvs = malloc(sizeof *recvs * most);
    words_t w = {0};
    int rc = sends != NULL && recvs != NULL ? 0 : -1;
    for (unsigned v = 0; v < t->n && rc == 0; v++) {
        w.n = 0;
        rc = put(&w, ROUTE_TABLE_MAGIC, plan->nphases, plan->link_aware ? ROUTE_TABLE_TIMED : 0, 0);
        for (unsigned p = 0; p < plan->nphases && rc == 0; p++)
            rc = push(&w, 0); /* the record offsets, filled in below */
        for (unsigned p = 0; p < plan->nphases && rc == 0; p++) {
            w.v[ROUTE_TABLE_HEADER_WORDS + p] = (uint32_t)(w.n * 4);
            rc = phase_record(plan, p, v, &w, sends, recvs);
        }
        if (rc == 0)
            rc = celldata_append(out, v % t->w, v / t->w, w.v, w.n);
    }
    free(w.v);
    free(sends);
    free(recvs);
    if (rc != 0) {
        celldata_free(out);
        snprintf(err, errlen, "%s",
                 rc == -2 ? "internal: a schedule time that is not whole words"
                          : "out of memory (or a cell's table over the cell data limit)");
    }
    return rc != 0 ? -1 : 0;
}

/* The phases' link-weighted lengths of a compiled plan; -1 when out of memory. */
static int phase_lengths(const route_plan_t *plan, route_phase_lengths_t *out)
{
    out->clocks = malloc(plan->nphases * sizeof *out->clocks + 1);
    if (out->clocks == NULL)
        return -1;
    for (unsigned p = 0; p < plan->nphases; p++)
        out->clocks[p] = route_phase_link_weighted_clocks(plan, p);
    out->n = plan->nphases;
    return 0;
}

int route_file_tables(const char *path, celldata_t *out, route_phase_lengths_t *lengths, char *err, size_t errlen)
{
    cset_t set;
    cset_diags_t d;
    size_t nerr = cset_parse_file(&set, path, &d);
    int rc = nerr != 0 ? -1 : 0;
    if (nerr != 0 && d.n == 0) /* the parser counted errors it had no memory to describe */
        snprintf(err, errlen, "%s: %zu error%s (out of memory for %s)", path, nerr, nerr > 1 ? "s" : "",
                 nerr > 1 ? "their messages" : "its message");
    else if (nerr != 0) {
        const cset_diag_t *first = &d.v[0];
        char more[64] = "";
        if (nerr > 1)
            snprintf(more, sizeof more, " (and %zu more error%s)", nerr - 1, nerr > 2 ? "s" : "");
        if (first->line == 0)
            snprintf(err, errlen, "%s: %s%s", path, first->msg, more);
        else
            snprintf(err, errlen, "%s:%u:%u: %s%s", path, first->line, first->col, first->msg, more);
    }
    cset_diags_free(&d);
    route_options_t o;
    route_options_init(&o);
    route_plan_t plan;
    char why[256];
    if (rc == 0 && (rc = route_compile(&set, &o, &plan, why, sizeof why)) == 0) {
        rc = route_tables(&plan, out, why, sizeof why);
        if (rc == 0 && lengths != NULL && phase_lengths(&plan, lengths) != 0) {
            celldata_free(out);
            snprintf(why, sizeof why, "out of memory for the phases' lengths");
            rc = -1;
        }
        route_plan_free(&plan);
    }
    if (rc != 0 && nerr == 0)
        snprintf(err, errlen, "%s: %s", path, why);
    cset_free(&set);
    return rc;
}
