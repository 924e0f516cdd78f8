/* The time-slot matching schedule (sched_internal.h). */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "sched_internal.h"

#define NONE 0xffffffffu

typedef struct match {
    const sched_input_t *in;
    uint64_t *send_free, *recv_free; /* when each timeline is free again */
    uint64_t *send_left, *recv_left; /* clocks not yet placed */
    uint64_t *ready;                 /* per connection: when the connections it follows have ended */
    unsigned *waiting;               /* per connection: how many of those are not placed */
    unsigned *succ_start, *succ;
    bool *done;
    unsigned *cand, ncand;       /* connections that could start now, best first */
    unsigned *adj_start, *adj;   /* per sender: its candidates, best first */
    unsigned *by_send, *by_recv; /* the matching: candidate index per sender and receiver, or NONE */
    unsigned *fill;
    uint32_t *seen, gen; /* receivers visited in the current augmenting search */
} match_t;

/* Busiest ends first, then the longest connection, then the connection number. */
static uint64_t urgency(const match_t *m, unsigned c)
{
    uint64_t s = m->send_left[m->in->src[c]], r = m->recv_left[m->in->dst[c]];
    return s > r ? s : r;
}

static int cand_cmp(const void *x, const void *y, const match_t *m)
{
    unsigned a = *(const unsigned *)x, b = *(const unsigned *)y;
    uint64_t ua = urgency(m, a), ub = urgency(m, b);
    if (ua != ub)
        return ua > ub ? -1 : 1;
    if (m->in->dur[a] != m->in->dur[b])
        return m->in->dur[a] > m->in->dur[b] ? -1 : 1;
    return a < b ? -1 : a > b;
}

/* Insertion sort: the candidates of one moment are few, and qsort has no context argument in C17. */
static void sort_cands(match_t *m)
{
    for (unsigned i = 1; i < m->ncand; i++) {
        unsigned c = m->cand[i], j = i;
        while (j > 0 && cand_cmp(&m->cand[j - 1], &c, m) > 0) {
            m->cand[j] = m->cand[j - 1];
            j--;
        }
        m->cand[j] = c;
    }
}

/* Kuhn's augmenting path from sender v; true when v got matched. */
static bool augment(match_t *m, unsigned v)
{
    for (unsigned k = m->adj_start[v]; k < m->adj_start[v + 1]; k++) {
        unsigned i = m->adj[k], u = m->in->dst[m->cand[i]];
        if (m->seen[u] == m->gen)
            continue;
        m->seen[u] = m->gen;
        if (m->by_recv[u] == NONE || augment(m, m->in->src[m->cand[m->by_recv[u]]])) {
            m->by_recv[u] = i;
            m->by_send[v] = i;
            return true;
        }
    }
    return false;
}

/* A largest matching of the candidates, built from the best ones: first greedily, then by augmenting. */
static void match_now(match_t *m)
{
    const sched_input_t *in = m->in;
    unsigned cells = in->cells;
    memset(m->adj_start, 0, sizeof *m->adj_start * (cells + 1u));
    for (unsigned i = 0; i < m->ncand; i++)
        m->adj_start[in->src[m->cand[i]] + 1]++;
    for (unsigned v = 0; v < cells; v++)
        m->adj_start[v + 1] += m->adj_start[v];
    memset(m->fill, 0, sizeof *m->fill * cells);
    for (unsigned i = 0; i < m->ncand; i++) {
        unsigned v = in->src[m->cand[i]];
        m->adj[m->adj_start[v] + m->fill[v]++] = i;
    }
    for (unsigned v = 0; v < cells; v++)
        m->by_send[v] = m->by_recv[v] = NONE;
    for (unsigned i = 0; i < m->ncand; i++) {
        unsigned c = m->cand[i];
        if (m->by_send[in->src[c]] == NONE && m->by_recv[in->dst[c]] == NONE) {
            m->by_send[in->src[c]] = i;
            m->by_recv[in->dst[c]] = i;
        }
    }
    for (unsigned i = 0; i < m->ncand; i++) {
        unsigned v = in->src[m->cand[i]];
        if (m->by_send[v] != NONE)
            continue;
        if (++m->gen == 0) {
            memset(m->seen, 0, sizeof *m->seen * cells);
            m->gen = 1;
        }
        augment(m, v);
    }
}

static void start_at(match_t *m, unsigned c, uint64_t t, uint64_t *start)
{
    const sched_input_t *in = m->in;
    uint64_t end = t + in->dur[c];
    start[c] = t;
    m->done[c] = true;
    m->send_free[in->src[c]] = m->recv_free[in->dst[c]] = end;
    m->send_left[in->src[c]] -= in->dur[c];
    m->recv_left[in->dst[c]] -= in->dur[c];
    if (m->succ_start != NULL)
        for (unsigned k = m->succ_start[c]; k < m->succ_start[c + 1]; k++) {
            unsigned s = m->succ[k];
            m->waiting[s]--;
            if (end > m->ready[s])
                m->ready[s] = end;
        }
}

static int64_t run(match_t *m, uint64_t *start)
{
    const sched_input_t *in = m->in;
    uint64_t t = 0, makespan = 0;
    for (unsigned placed = 0; placed < in->n;) {
        m->ncand = 0;
        for (unsigned c = 0; c < in->n; c++)
            if (!m->done[c] && m->waiting[c] == 0 && m->ready[c] <= t && m->send_free[in->src[c]] <= t &&
                m->recv_free[in->dst[c]] <= t)
                m->cand[m->ncand++] = c;
        sort_cands(m);
        match_now(m);
        for (unsigned v = 0; v < in->cells; v++)
            if (m->by_send[v] != NONE) {
                unsigned c = m->cand[m->by_send[v]];
                start_at(m, c, t, start);
                placed++;
                if (t + in->dur[c] > makespan)
                    makespan = t + in->dur[c];
            }
        /* On to the next moment something comes free. */
        uint64_t next = UINT64_MAX;
        for (unsigned v = 0; v < in->cells; v++) {
            if (m->send_free[v] > t && m->send_free[v] < next)
                next = m->send_free[v];
            if (m->recv_free[v] > t && m->recv_free[v] < next)
                next = m->recv_free[v];
        }
        for (unsigned c = 0; c < in->n; c++)
            if (!m->done[c] && m->waiting[c] == 0 && m->ready[c] > t && m->ready[c] < next)
                next = m->ready[c];
        if (placed < in->n && next == UINT64_MAX)
            return -1; /* not reached: something is always running or about to be ready */
        t = next;
    }
    return (int64_t)makespan;
}

int64_t sched_match(const sched_input_t *in, uint64_t *start)
{
    unsigned cells = in->cells, n = in->n, e = in->after_start ? in->after_start[n] : 0;
    match_t m = {.in = in};
    m.send_free = calloc(cells, sizeof *m.send_free);
    m.recv_free = calloc(cells, sizeof *m.recv_free);
    m.send_left = calloc(cells, sizeof *m.send_left);
    m.recv_left = calloc(cells, sizeof *m.recv_left);
    m.ready = calloc(n + 1u, sizeof *m.ready);
    m.waiting = calloc(n + 1u, sizeof *m.waiting);
    m.done = calloc(n + 1u, sizeof *m.done);
    m.cand = malloc(sizeof *m.cand * (n + 1u));
    m.adj_start = calloc(cells + 1u, sizeof *m.adj_start);
    m.adj = malloc(sizeof *m.adj * (n + 1u));
    m.by_send = malloc(sizeof *m.by_send * cells);
    m.by_recv = malloc(sizeof *m.by_recv * cells);
    m.seen = calloc(cells, sizeof *m.seen);
    m.fill = calloc(cells, sizeof *m.fill);
    if (e) {
        m.succ_start = calloc(n + 1u, sizeof *m.succ_start);
        m.succ = malloc(sizeof *m.succ * e);
    }
    int64_t rc = -1;
    if (m.send_free == NULL || m.recv_free == NULL || m.send_left == NULL || m.recv_left == NULL || m.ready == NULL ||
        m.waiting == NULL || m.done == NULL || m.cand == NULL || m.adj_start == NULL || m.adj == NULL ||
        m.by_send == NULL || m.by_recv == NULL || m.seen == NULL || m.fill == NULL ||
        (e && (m.succ_start == NULL || m.succ == NULL)))
        goto out;
    for (unsigned c = 0; c < n; c++) {
        m.send_left[in->src[c]] += in->dur[c];
        m.recv_left[in->dst[c]] += in->dur[c];
    }
    if (e) {
        for (unsigned c = 0; c < n; c++) {
            m.waiting[c] = in->after_start[c + 1] - in->after_start[c];
            for (unsigned k = in->after_start[c]; k < in->after_start[c + 1]; k++)
                m.succ_start[in->after[k] + 1]++;
        }
        for (unsigned c = 0; c < n; c++)
            m.succ_start[c + 1] += m.succ_start[c];
        unsigned *fill = calloc(n + 1u, sizeof *fill);
        if (fill == NULL)
            goto out;
        for (unsigned c = 0; c < n; c++)
            for (unsigned k = in->after_start[c]; k < in->after_start[c + 1]; k++)
                m.succ[m.succ_start[in->after[k]] + fill[in->after[k]]++] = c;
        free(fill);
    }
    rc = run(&m, start);
out:
    free(m.send_free);
    free(m.recv_free);
    free(m.send_left);
    free(m.recv_left);
    free(m.ready);
    free(m.waiting);
    free(m.done);
    free(m.cand);
    free(m.adj_start);
    free(m.adj);
    free(m.by_send);
    free(m.by_recv);
    free(m.seen);
    free(m.fill);
    free(m.succ_start);
    free(m.succ);
    return rc;
}
