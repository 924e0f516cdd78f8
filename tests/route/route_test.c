#include "route_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "golden.h"
#include "iwarp_config.h"
#include "conset/route_tables.h"
#include "splitmix64.h"
#include "conset/torus.h"

void rt_source_path(char *buf, size_t cap, const char *rel)
{
    snprintf(buf, cap, "%s/%s", IWARP_SOURCE_ROOT, rel);
}

char *rt_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        fail_msg("cannot open %s", path);
    fseek(f, 0, SEEK_END);
    *len = (size_t)ftell(f);
    rewind(f);
    char *b = malloc(*len + 1);
    assert_non_null(b);
    assert_int_equal(fread(b, 1, *len, f), *len);
    b[*len] = '\0';
    fclose(f);
    return b;
}

void rt_parse(cset_t *s, const char *text)
{
    cset_diags_t d;
    size_t errors = cset_parse(s, text, strlen(text), &d);
    if (errors != 0) {
        cset_print_diags(&d, "test.cset", stderr);
        cset_diags_free(&d);
        fail_msg("the test's connection set has %zu errors", errors);
    }
    cset_diags_free(&d);
}

void rt_pattern(cset_t *s, pattern_kind_t k, unsigned w, unsigned h, uint32_t words, unsigned capacity)
{
    char err[256];
    if (pattern_generate(s, k, w, h, words, capacity, err, sizeof err) != 0)
        fail_msg("pattern %s %ux%u: %s", pattern_name(k), w, h, err);
}

void rt_compile(const cset_t *s, unsigned capacity, route_plan_t *plan)
{
    route_options_t o;
    route_options_init(&o);
    o.capacity = capacity;
    char err[256];
    if (route_compile(s, &o, plan, err, sizeof err) != 0)
        fail_msg("route_compile: %s", err);
}

unsigned rt_lower_bound(const cset_t *s, unsigned capacity)
{
    torus_t t = torus_make(s->width, s->height);
    unsigned total = 0;
    for (unsigned task = 0; task < s->ntasks; task++) {
        uint64_t uses = 0;
        for (unsigned i = 0; i < s->nconns; i++)
            if (s->conns[i].task == task)
                uses += torus_distance(&t, s->conns[i].src, s->conns[i].dst) + 1u;
        uint64_t room = (uint64_t)t.n * capacity;
        total += (unsigned)((uses + room - 1) / room);
    }
    return total;
}

static void check_path(const cset_t *s, const route_plan_t *plan, unsigned ci)
{
    const torus_t *t = &plan->torus;
    const route_conn_t *c = &plan->conns[ci];
    const cset_conn_t *sc = &s->conns[ci];
    if (c->ncells < 1 || plan->cells[c->first] != sc->src || plan->cells[c->first + c->ncells - 1] != sc->dst)
        fail_msg("connection %s: its path does not run from its source to its destination", sc->id);
    if (sc->src == sc->dst && c->ncells != 1)
        fail_msg("connection %s to itself takes %u cells", sc->id, c->ncells);
    for (unsigned k = 0; k + 1 < c->ncells; k++) {
        unsigned u = plan->cells[c->first + k], d = plan->dirs[c->first + k];
        if (d >= TORUS_DIRS || !torus_has_link(t, d) || torus_neighbour(t, u, d) != plan->cells[c->first + k + 1])
            fail_msg("connection %s: hop %u is not a link of the torus", sc->id, k);
        for (unsigned j = 0; j < k; j++)
            if (plan->cells[c->first + j] == u)
                fail_msg("connection %s visits cell %u twice", sc->id, u);
    }
}

typedef struct span {
    uint64_t start, end;
} span_t;

static int span_cmp(const void *x, const void *y)
{
    const span_t *a = x, *b = y;
    return a->start < b->start ? -1 : a->start > b->start;
}

/* No two spans of one cell's timeline overlap. */
static void check_timeline(span_t *v, unsigned n, unsigned phase, unsigned cell, const char *what)
{
    qsort(v, n, sizeof *v, span_cmp);
    for (unsigned k = 1; k < n; k++)
        if (v[k].start < v[k - 1].end)
            fail_msg("phase %u, cell %u: two %s overlap in the schedule", phase, cell, what);
}

static void check_phase(const cset_t *s, const route_plan_t *plan, unsigned p)
{
    const route_phase_t *ph = &plan->phases[p];
    unsigned cells = plan->torus.n;
    unsigned *use = calloc(cells, sizeof *use);
    uint32_t *chans = calloc(cells, sizeof *chans);
    span_t *sends = malloc(sizeof *sends * (ph->nconns + 1u)), *recvs = malloc(sizeof *recvs * (ph->nconns + 1u));
    assert_non_null(use);
    assert_non_null(chans);
    assert_non_null(sends);
    assert_non_null(recvs);
    uint64_t latest = 0;
    for (unsigned k = 0; k < ph->nconns; k++) {
        unsigned ci = ph->conns[k];
        const route_conn_t *c = &plan->conns[ci];
        if (c->phase != p)
            fail_msg("connection %s is listed in phase %u but says phase %u", s->conns[ci].id, p, c->phase);
        if (s->conns[ci].task != ph->task)
            fail_msg("phase %u mixes tasks", p);
        if (k > 0 && ph->conns[k - 1] >= ci)
            fail_msg("phase %u: connections not in ascending order", p);
        if (c->end != c->start + 2ull * s->conns[ci].words)
            fail_msg("connection %s lasts %llu clocks for %u words", s->conns[ci].id,
                     (unsigned long long)(c->end - c->start), s->conns[ci].words);
        if (c->end > latest)
            latest = c->end;
        for (unsigned j = 0; j < c->ncells; j++) {
            unsigned v = plan->cells[c->first + j], ch = plan->chans[c->first + j];
            use[v]++;
            if (ch < 4 || ch > 19)
                fail_msg("connection %s: channel %u at cell %u is not a user channel", s->conns[ci].id, ch, v);
            if (chans[v] & (1u << ch))
                fail_msg("phase %u, cell %u: channel %u given twice", p, v, ch);
            chans[v] |= 1u << ch;
        }
    }
    for (unsigned v = 0; v < cells; v++)
        if (use[v] > plan->capacity)
            fail_msg("phase %u, cell %u: %u channels used, capacity %u", p, v, use[v], plan->capacity);
    if (ph->clocks != latest)
        fail_msg("phase %u: %llu predicted clocks, but its last connection ends at %llu", p,
                 (unsigned long long)ph->clocks, (unsigned long long)latest);
    for (unsigned v = 0; v < cells; v++) {
        unsigned ns = 0, nr = 0;
        for (unsigned k = 0; k < ph->nconns; k++) {
            const route_conn_t *c = &plan->conns[ph->conns[k]];
            if (s->conns[ph->conns[k]].src == v)
                sends[ns++] = (span_t){c->start, c->end};
            if (s->conns[ph->conns[k]].dst == v)
                recvs[nr++] = (span_t){c->start, c->end};
        }
        check_timeline(sends, ns, p, v, "sends");
        check_timeline(recvs, nr, p, v, "receives");
    }
    free(use);
    free(chans);
    free(sends);
    free(recvs);
}

void rt_check_plan(const cset_t *s, const route_plan_t *plan)
{
    assert_ptr_equal(plan->set, s);
    assert_int_equal(plan->torus.w, s->width);
    assert_int_equal(plan->torus.h, s->height);
    assert_true(plan->capacity >= 1 && plan->capacity <= 16);
    unsigned *seen = calloc(s->nconns + 1u, sizeof *seen);
    assert_non_null(seen);
    for (unsigned p = 0; p < plan->nphases; p++) {
        if (p > 0 && plan->phases[p].task < plan->phases[p - 1].task)
            fail_msg("phases of task %u come after those of task %u", plan->phases[p].task, plan->phases[p - 1].task);
        for (unsigned k = 0; k < plan->phases[p].nconns; k++)
            seen[plan->phases[p].conns[k]]++;
        check_phase(s, plan, p);
    }
    for (unsigned i = 0; i < s->nconns; i++) {
        if (seen[i] != 1)
            fail_msg("connection %s is in %u phases", s->conns[i].id, seen[i]);
        check_path(s, plan, i);
        const route_conn_t *c = &plan->conns[i];
        for (unsigned k = 0; k < s->conns[i].nafter; k++) {
            const route_conn_t *e = &plan->conns[s->conns[i].after[k]];
            if (c->phase < e->phase || (c->phase == e->phase && c->start < e->end))
                fail_msg("connection %s (phase %u, start %llu) is not after %s (phase %u, end %llu)", s->conns[i].id,
                         c->phase, (unsigned long long)c->start, s->conns[s->conns[i].after[k]].id, e->phase,
                         (unsigned long long)e->end);
        }
    }
    free(seen);
    unsigned lb = rt_lower_bound(s, plan->capacity);
    if (plan->nphases < lb)
        fail_msg("%u phases, below the lower bound %u", plan->nphases, lb);
    /* The channels the routes take, over what one phase holds, is a lower bound too (per task). */
    for (unsigned task = 0; task < s->ntasks; task++) {
        uint64_t uses = 0;
        unsigned phases = 0;
        for (unsigned i = 0; i < s->nconns; i++)
            if (s->conns[i].task == task)
                uses += plan->conns[i].ncells;
        for (unsigned p = 0; p < plan->nphases; p++)
            phases += plan->phases[p].task == task;
        uint64_t room = (uint64_t)plan->torus.n * plan->capacity;
        if (phases < (uses + room - 1) / room)
            fail_msg("task %u: %u phases for %llu channel uses of %llu per phase", task, phases,
                     (unsigned long long)uses, (unsigned long long)room);
    }
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

/* A pathway end on a link, as the agent's forwarding entries encode it (the route's directions are the
 * agent's). */
static uint32_t link_end(unsigned dir, unsigned ch)
{
    return coa_end_encode((coa_end_t){COA_END_LINK, (uint8_t)dir, (uint8_t)ch});
}

/* One side (sends or receives) of a cell's segments as they are replayed. */
typedef struct seg_side {
    const xfer_t *list;
    unsigned n, next; /* list[next] is the one going or the next to start */
    bool going;
    uint32_t done; /* its words moved so far */
} seg_side_t;

/* Takes a segment's side: a new transfer only when none is going and on the channel the next one has, the
 * words within it; returns its schedule time at the start of the segment, or UINT64_MAX when not going. */
static uint64_t seg_take(const route_plan_t *plan, seg_side_t *sd, bool on, uint32_t channel, uint32_t words,
                         bool at_dest, const char *what, unsigned v, unsigned p, unsigned k)
{
    if (!on) {
        if (channel != 0 || sd->going)
            fail_msg("cell %u phase %u segment %u: the %s %s", v, p, k, what,
                     sd->going ? "going pauses" : "channel is set without a transfer");
        return UINT64_MAX;
    }
    if (channel != 0) {
        if (sd->going || sd->next >= sd->n)
            fail_msg("cell %u phase %u segment %u: a %s starts while %s", v, p, k, what,
                     sd->going ? "one is going" : "none is left");
        const route_conn_t *c = &plan->conns[sd->list[sd->next].conn];
        uint32_t want = plan->chans[at_dest ? c->first + c->ncells - 1 : c->first];
        if (channel != want)
            fail_msg("cell %u phase %u segment %u: %s channel %u, expected %u", v, p, k, what, channel, want);
        sd->going = true;
        sd->done = 0;
    } else if (!sd->going) {
        fail_msg("cell %u phase %u segment %u: a %s goes on that never started", v, p, k, what);
    }
    const route_conn_t *c = &plan->conns[sd->list[sd->next].conn];
    uint64_t t = c->start + 2ull * sd->done;
    uint32_t total = plan->set->conns[sd->list[sd->next].conn].words;
    sd->done += words;
    if (sd->done > total)
        fail_msg("cell %u phase %u segment %u: the %s moves %u of %u words", v, p, k, what, sd->done, total);
    if (sd->done == total) {
        sd->going = false;
        sd->next++;
    }
    return t;
}

/* The segments replayed: every send and receive moved whole, in list order, each segment's send and receive
 * at the same schedule time, and the segments in schedule order. Returns the words they took. */
static size_t check_segments(const route_plan_t *plan, unsigned v, unsigned p, const xfer_t *sends, unsigned ns,
                             const xfer_t *recvs, unsigned nr, uint32_t nseg, const uint32_t *w, size_t avail)
{
    if ((size_t)nseg * ROUTE_SEGMENT_WORDS > avail)
        fail_msg("cell %u phase %u: %u segments do not fit the record", v, p, nseg);
    seg_side_t out = {.list = sends, .n = ns}, in = {.list = recvs, .n = nr};
    uint64_t end = 0;
    for (unsigned k = 0; k < nseg; k++, w += ROUTE_SEGMENT_WORDS) {
        uint32_t words = w[1], mode = w[2];
        if (words == 0 || mode == 0 || mode > (ROUTE_SEGMENT_SEND | ROUTE_SEGMENT_RECEIVE))
            fail_msg("cell %u phase %u segment %u: %u words, mode %u", v, p, k, words, mode);
        if (w[0] >> 16 != 0)
            fail_msg("cell %u phase %u segment %u: channels word 0x%x", v, p, k, w[0]);
        uint64_t ts = seg_take(plan, &out, mode & ROUTE_SEGMENT_SEND, w[0] & 0xff, words, false, "send", v, p, k);
        uint64_t tr = seg_take(plan, &in, mode & ROUTE_SEGMENT_RECEIVE, w[0] >> 8, words, true, "receive", v, p, k);
        if (ts != UINT64_MAX && tr != UINT64_MAX && ts != tr)
            fail_msg("cell %u phase %u segment %u: pairs a send at clock %llu with a receive at %llu", v, p, k,
                     (unsigned long long)ts, (unsigned long long)tr);
        uint64_t t = ts != UINT64_MAX ? ts : tr;
        if (w[3] != t)
            fail_msg("cell %u phase %u segment %u: start %u, the schedule says %llu", v, p, k, w[3],
                     (unsigned long long)t);
        if (t < end)
            fail_msg("cell %u phase %u segment %u: starts at clock %llu, before the last one ended (%llu)", v, p, k,
                     (unsigned long long)t, (unsigned long long)end);
        end = t + 2ull * words;
    }
    if (out.next != ns || in.next != nr)
        fail_msg("cell %u phase %u: the segments move %u of %u sends and %u of %u receives", v, p, out.next, ns,
                 in.next, nr);
    return (size_t)nseg * ROUTE_SEGMENT_WORDS;
}

/* Phase record of cell v, checked word by word from *at; returns the words it took. */
static size_t check_record(const route_plan_t *plan, unsigned p, unsigned v, const uint32_t *w, size_t avail)
{
    const cset_t *s = plan->set;
    const route_phase_t *ph = &plan->phases[p];
    size_t at = 0;
#define WORD(expect, what)                                                                                             \
    do {                                                                                                               \
        if (at >= avail)                                                                                               \
            fail_msg("cell %u phase %u: the record ends early (%s)", v, p, what);                                      \
        if (w[at] != (uint32_t)(expect))                                                                               \
            fail_msg("cell %u phase %u word %zu (%s): 0x%x, expected 0x%x", v, p, at, what, w[at],                     \
                     (uint32_t)(expect));                                                                              \
        at++;                                                                                                          \
    } while (0)
    unsigned nfwd = 0;
    for (unsigned k = 0; k < ph->nconns; k++) {
        const route_conn_t *c = &plan->conns[ph->conns[k]];
        for (unsigned j = 0; j < c->ncells; j++)
            nfwd += plan->cells[c->first + j] == v;
    }
    WORD(nfwd, "n_fwd");
    xfer_t *sends = malloc(sizeof *sends * (ph->nconns + 1u)), *recvs = malloc(sizeof *recvs * (ph->nconns + 1u));
    assert_non_null(sends);
    assert_non_null(recvs);
    unsigned ns = 0, nr = 0;
    for (unsigned k = 0; k < ph->nconns; k++) {
        unsigned ci = ph->conns[k];
        const route_conn_t *c = &plan->conns[ci];
        for (unsigned j = 0; j < c->ncells; j++) {
            unsigned a = c->first + j;
            if (plan->cells[a] != v)
                continue;
            WORD(plan->chans[a], "channel");
            WORD(j + 1 < c->ncells ? link_end(plan->dirs[a], plan->chans[a + 1]) : 0, "route");
            WORD(j > 0 ? link_end(plan->dirs[a - 1] ^ 1u, plan->chans[a - 1]) : 0, "source");
            WORD(0, "pool");
        }
        if (s->conns[ci].src == v)
            sends[ns++] = (xfer_t){c->start, ci};
        if (s->conns[ci].dst == v)
            recvs[nr++] = (xfer_t){c->start, ci};
    }
    WORD(ns, "n_send");
    WORD(nr, "n_recv");
    WORD(ph->clocks, "predicted clocks");
    if (at >= avail)
        fail_msg("cell %u phase %u: the record ends before n_seg", v, p);
    uint32_t nseg = w[at++];
    qsort(sends, ns, sizeof *sends, xfer_cmp);
    qsort(recvs, nr, sizeof *recvs, xfer_cmp);
    for (unsigned k = 0; k < ns; k++) {
        const route_conn_t *c = &plan->conns[sends[k].conn];
        WORD(sends[k].conn, "send: connection");
        WORD(plan->chans[c->first], "send: channel");
        WORD(s->conns[sends[k].conn].words, "send: words");
        WORD(s->conns[sends[k].conn].dst, "send: destination");
    }
    for (unsigned k = 0; k < nr; k++) {
        const route_conn_t *c = &plan->conns[recvs[k].conn];
        WORD(recvs[k].conn, "receive: connection");
        WORD(plan->chans[c->first + c->ncells - 1], "receive: channel");
        WORD(s->conns[recvs[k].conn].words, "receive: words");
        WORD(s->conns[recvs[k].conn].src, "receive: source");
    }
    at += check_segments(plan, v, p, sends, ns, recvs, nr, nseg, w + at, avail - at);
#undef WORD
    free(sends);
    free(recvs);
    return at;
}

void rt_check_tables(const route_plan_t *plan, const celldata_t *d)
{
    assert_int_equal(d->width, plan->torus.w);
    assert_int_equal(d->height, plan->torus.h);
    for (unsigned v = 0; v < plan->torus.n; v++) {
        const uint32_t *w = d->blobs[v];
        size_t n = d->nwords[v];
        unsigned P = plan->nphases;
        assert_true(n >= 4u + P);
        assert_int_equal(w[0], 0x54455343);
        assert_int_equal(w[1], P);
        assert_int_equal(w[2], plan->link_aware ? ROUTE_TABLE_TIMED : 0);
        assert_int_equal(w[3], 0);
        size_t at = 4 + P;
        for (unsigned p = 0; p < P; p++) {
            if (w[4 + p] != at * 4)
                fail_msg("cell %u: phase %u's record is at byte %u, expected %zu", v, p, w[4 + p], at * 4);
            at += check_record(plan, p, v, w + at, n - at);
        }
        assert_int_equal(at, n);
    }
}

void rt_random_set(cset_t *s, uint64_t seed, unsigned w, unsigned h, unsigned n, unsigned capacity, bool ordered)
{
    assert_int_equal(cset_init(s, w, h, capacity), 0);
    uint64_t r = seed;
    unsigned ntasks = 1 + (unsigned)(splitmix64_next(&r) % 3);
    for (unsigned i = 0; i < n; i++) {
        char id[32], task[16];
        snprintf(id, sizeof id, "r%u", i);
        snprintf(task, sizeof task, "t%u", (unsigned)(splitmix64_next(&r) % ntasks));
        unsigned t = cset_task(s, task);
        unsigned src = (unsigned)(splitmix64_next(&r) % (w * h)), dst = (unsigned)(splitmix64_next(&r) % (w * h));
        uint32_t words = 1 + (uint32_t)(splitmix64_next(&r) % 300);
        unsigned c = cset_add(s, id, src, dst, words, t);
        assert_int_not_equal(c, CSET_NONE);
        /* Constraints only point backwards, so the set stays acyclic. */
        for (unsigned k = 0; ordered && c > 0 && k < 2; k++) {
            unsigned e = (unsigned)(splitmix64_next(&r) % c);
            if (splitmix64_next(&r) % 4 == 0 && s->conns[e].task == t)
                assert_int_equal(cset_add_after(s, c, e), 0);
        }
    }
}

void rt_check_golden(const char *name, uint64_t value)
{
    golden_check("tests/route/golden/phases.txt", name, value, "value", "route");
}
