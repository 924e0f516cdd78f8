/* The .cset parser: one directive a line, every error kept with its line and column, never a crash. */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cset.h"
#include "file.h"
#include "grow.h"
#include "line_tokens.h"

typedef line_token_t token_t;

/* An `after ID` not resolved until the whole file is read (it may name a later connection). */
typedef struct pending {
    unsigned conn;
    token_t id;
    unsigned line;
} pending_t;

typedef struct parser {
    cset_t *s;
    cset_diags_t *d;
    size_t nerrors;
    unsigned line;
    unsigned array_line, capacity_line, compiler_line, first_conn_line;
    token_t task;     /* the current task's name; len 0 = the default "main" */
    line_tokens_t tk; /* the current line's words */
    pending_t *pend;
    size_t npend, pend_cap;
} parser_t;

static void diag_add(cset_diags_t *d, unsigned line, unsigned col, const char *fmt, va_list ap)
    __attribute__((format(printf, 4, 0)));
static void diag_add(cset_diags_t *d, unsigned line, unsigned col, const char *fmt, va_list ap)
{
    char buf[512];
    vsnprintf(buf, sizeof buf, fmt, ap);
    cset_diag_t *v = grow_double(d->v, d->n, &d->cap, sizeof *v, 16, SIZE_MAX);
    if (v == NULL)
        return;
    d->v = v;
    char *msg = strdup(buf);
    if (msg == NULL)
        return;
    d->v[d->n++] = (cset_diag_t){line, col, msg};
}

static void error_at(parser_t *p, unsigned line, unsigned col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void error_at(parser_t *p, unsigned line, unsigned col, const char *fmt, ...)
{
    p->nerrors++;
    va_list ap;
    va_start(ap, fmt);
    diag_add(p->d, line, col, fmt, ap);
    va_end(ap);
}

/* A token as it may be shown in a message: printable ASCII, at most 40 characters. */
static const char *show(const token_t *t, char *buf, size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < t->len && n + 4 < cap; i++) {
        if (n >= 40) {
            memcpy(buf + n, "...", 3);
            n += 3;
            break;
        }
        char c = t->text[i];
        buf[n++] = c >= 0x20 && c < 0x7f ? c : '?';
    }
    buf[n] = '\0';
    return buf;
}

/* Decimal digits only; false when empty, not a number or above max. */
static bool parse_uint(const char *s, size_t len, uint64_t max, uint64_t *v)
{
    if (len == 0)
        return false;
    uint64_t x = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        x = x * 10 + (uint64_t)(s[i] - '0');
        if (x > max)
            return false;
    }
    *v = x;
    return true;
}

/* "AxB" with separator sep. */
static bool parse_pair(const token_t *t, char sep, uint64_t max, uint64_t *a, uint64_t *b)
{
    const char *mid = memchr(t->text, sep, t->len);
    if (mid == NULL)
        return false;
    size_t n = (size_t)(mid - t->text);
    return parse_uint(t->text, n, max, a) && parse_uint(mid + 1, t->len - n - 1, max, b);
}

static bool id_ok(const token_t *t)
{
    for (size_t i = 0; i < t->len; i++) {
        char c = t->text[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
              c == '-' || c == ':'))
            return false;
    }
    return t->len > 0;
}

/* Checks an id token; returns false (with an error) when it cannot name a connection or task. */
static bool check_id(parser_t *p, const token_t *t, const char *what)
{
    char buf[64];
    if (!id_ok(t)) {
        error_at(p, p->line, t->col, "'%s' is not a valid %s (letters, digits, '_', '.', '-', ':')",
                 show(t, buf, sizeof buf), what);
        return false;
    }
    if (line_token_is(t, "after")) {
        error_at(p, p->line, t->col, "'after' is a keyword, not a %s", what);
        return false;
    }
    return true;
}

/* Column just past the last token: where a missing field belongs. */
static unsigned end_col(const parser_t *p)
{
    const token_t *last = &p->tk.v[p->tk.n - 1];
    return last->col + (unsigned)last->len;
}

static void directive_array(parser_t *p)
{
    uint64_t w, h;
    if (p->tk.n != 2) {
        error_at(p, p->line, p->tk.n < 2 ? end_col(p) : p->tk.v[2].col, "array wants one WxH, e.g. 'array 8x8'");
        return;
    }
    const token_t *t = &p->tk.v[1];
    char buf[64];
    if (!parse_pair(t, 'x', CSET_MAX_SIDE, &w, &h) || w < 1 || h < 1) {
        error_at(p, p->line, t->col, "array wants WxH with sides 1..%u, not '%s'", CSET_MAX_SIDE,
                 show(t, buf, sizeof buf));
        return;
    }
    if (p->array_line != 0) {
        error_at(p, p->line, p->tk.v[0].col, "array given twice (first at line %u)", p->array_line);
        return;
    }
    if (p->first_conn_line != 0) {
        error_at(p, p->line, p->tk.v[0].col, "array must come before the first conn (line %u)", p->first_conn_line);
        return;
    }
    p->array_line = p->line;
    p->s->width = (unsigned)w;
    p->s->height = (unsigned)h;
}

static void directive_capacity(parser_t *p)
{
    uint64_t v;
    if (p->tk.n != 2) {
        error_at(p, p->line, p->tk.n < 2 ? end_col(p) : p->tk.v[2].col, "capacity wants one number, 1..%u",
                 CSET_MAX_CAPACITY);
        return;
    }
    const token_t *t = &p->tk.v[1];
    char buf[64];
    if (!parse_uint(t->text, t->len, CSET_MAX_CAPACITY, &v) || v < 1) {
        error_at(p, p->line, t->col, "capacity must be 1..%u channels, not '%s'", CSET_MAX_CAPACITY,
                 show(t, buf, sizeof buf));
        return;
    }
    if (p->capacity_line != 0) {
        error_at(p, p->line, p->tk.v[0].col, "capacity given twice (first at line %u)", p->capacity_line);
        return;
    }
    p->capacity_line = p->line;
    p->s->capacity = (unsigned)v;
}

/* `compiler paper` or `compiler ours`: which compiler the set is meant for, so that a run description's route
 * line, which compiles with iwarp route's defaults, can reproduce the paper's phases. */
static void directive_compiler(parser_t *p)
{
    bool paper = p->tk.n == 2 && line_token_is(&p->tk.v[1], "paper");
    if (p->tk.n != 2 || (!paper && !line_token_is(&p->tk.v[1], "ours"))) {
        error_at(p, p->line, p->tk.n < 2 ? end_col(p) : p->tk.v[1].col, "compiler wants paper or ours");
        return;
    }
    if (p->compiler_line != 0) {
        error_at(p, p->line, p->tk.v[0].col, "compiler given twice (first at line %u)", p->compiler_line);
        return;
    }
    p->compiler_line = p->line;
    p->s->paper = paper;
}

static void directive_task(parser_t *p)
{
    if (p->tk.n != 2) {
        error_at(p, p->line, p->tk.n < 2 ? end_col(p) : p->tk.v[2].col, "task wants one name");
        return;
    }
    if (check_id(p, &p->tk.v[1], "task name"))
        p->task = p->tk.v[1];
}

/* A cell "X,Y" inside the array; false with an error. */
static bool parse_cell(parser_t *p, const token_t *t, const char *what, unsigned *cell)
{
    uint64_t x, y;
    char buf[64];
    if (!parse_pair(t, ',', 0xffffffffu, &x, &y)) {
        error_at(p, p->line, t->col, "%s wants a cell X,Y, not '%s'", what, show(t, buf, sizeof buf));
        return false;
    }
    if (x >= p->s->width || y >= p->s->height) {
        error_at(p, p->line, t->col, "%s %s is outside the %ux%u array", what, show(t, buf, sizeof buf), p->s->width,
                 p->s->height);
        return false;
    }
    *cell = (unsigned)(y * p->s->width + x);
    return true;
}

static bool add_pending(parser_t *p, unsigned conn, const token_t *id)
{
    pending_t *pend = grow_double(p->pend, p->npend, &p->pend_cap, sizeof *pend, 16, SIZE_MAX);
    if (pend == NULL)
        return false;
    p->pend = pend;
    p->pend[p->npend++] = (pending_t){conn, *id, p->line};
    return true;
}

static void directive_conn(parser_t *p)
{
    static const char *const fields[] = {"ID", "SRC", "DST", "WORDS"};
    if (p->tk.n < 5) {
        error_at(p, p->line, end_col(p), "expected %s: conn ID SRC DST WORDS [after ID...]", fields[p->tk.n - 1]);
        return;
    }
    if (p->first_conn_line == 0)
        p->first_conn_line = p->line;
    bool ok = check_id(p, &p->tk.v[1], "connection id");
    const token_t *id = &p->tk.v[1];
    unsigned prev = ok ? cset_find(p->s, id->text, id->len) : CSET_NONE;
    if (prev != CSET_NONE) {
        char buf[64];
        error_at(p, p->line, id->col, "connection '%s' is already defined at line %u", show(id, buf, sizeof buf),
                 p->s->conns[prev].line);
        ok = false;
    }
    unsigned src = 0, dst = 0;
    ok = parse_cell(p, &p->tk.v[2], "SRC", &src) && ok;
    ok = parse_cell(p, &p->tk.v[3], "DST", &dst) && ok;
    uint64_t words = 0;
    const token_t *w = &p->tk.v[4];
    if (!parse_uint(w->text, w->len, CSET_MAX_WORDS, &words) || words < 1) {
        char buf[64];
        error_at(p, p->line, w->col, "WORDS must be 1..%u, not '%s'", CSET_MAX_WORDS, show(w, buf, sizeof buf));
        ok = false;
    }
    if (p->tk.n > 5 && !line_token_is(&p->tk.v[5], "after")) {
        char buf[64];
        error_at(p, p->line, p->tk.v[5].col, "unexpected '%s' (only 'after ID...' may follow WORDS)",
                 show(&p->tk.v[5], buf, sizeof buf));
        return;
    }
    if (p->tk.n == 6) {
        error_at(p, p->line, end_col(p), "after wants at least one connection id");
        ok = false;
    }
    for (size_t i = 6; i < p->tk.n; i++)
        ok = check_id(p, &p->tk.v[i], "connection id") && ok;
    if (!ok)
        return;
    if (p->s->nconns >= CSET_MAX_CONNS) {
        error_at(p, p->line, p->tk.v[0].col, "more than %u connections", (unsigned)CSET_MAX_CONNS);
        return;
    }
    /* The whole name, however long: a prefix would merge tasks that differ after it. */
    char *name = p->task.len ? strndup(p->task.text, p->task.len) : strdup("main");
    unsigned task = name != NULL ? cset_task(p->s, name) : CSET_NONE;
    free(name);
    char *cid = strndup(id->text, id->len);
    unsigned c = cid != NULL && task != CSET_NONE ? cset_add(p->s, cid, src, dst, (uint32_t)words, task) : CSET_NONE;
    free(cid);
    if (c == CSET_NONE) {
        error_at(p, p->line, p->tk.v[0].col, "out of memory");
        return;
    }
    p->s->conns[c].line = p->line;
    for (size_t i = 6; i < p->tk.n; i++)
        if (!add_pending(p, c, &p->tk.v[i]))
            error_at(p, p->line, p->tk.v[i].col, "out of memory");
}

static void parse_line(parser_t *p, const char *line, size_t len)
{
    unsigned col = 1;
    line_status_t st = line_split(line, len, &p->tk, &col);
    if (st != LINE_OK) {
        if (st == LINE_CONTROL_CHAR)
            error_at(p, p->line, col, "unexpected control character 0x%02x", (unsigned char)line[col - 1]);
        else
            error_at(p, p->line, 1, "out of memory");
        return;
    }
    if (p->tk.n == 0)
        return;
    const token_t *k = &p->tk.v[0];
    if (line_token_is(k, "array"))
        directive_array(p);
    else if (line_token_is(k, "capacity"))
        directive_capacity(p);
    else if (line_token_is(k, "compiler"))
        directive_compiler(p);
    else if (line_token_is(k, "task"))
        directive_task(p);
    else if (line_token_is(k, "conn"))
        directive_conn(p);
    else {
        char buf[64];
        error_at(p, p->line, k->col, "unknown directive '%s' (array, capacity, compiler, task, conn)",
                 show(k, buf, sizeof buf));
    }
}

/* Resolves the `after` ids now that every connection is known. added[f] is the pending entry of the f-th
 * constraint in the order of the connections' after lists, all of connection 0's first (the pending entries
 * come connection by connection, and a repeated id adds nothing); *nadded is how many there are. */
static void resolve_after(parser_t *p, size_t *added, size_t *nadded)
{
    cset_t *s = p->s;
    *nadded = 0;
    for (size_t i = 0; i < p->npend; i++) {
        const pending_t *q = &p->pend[i];
        char buf[64], buf2[64];
        unsigned e = cset_find(s, q->id.text, q->id.len);
        if (e == CSET_NONE) {
            error_at(p, q->line, q->id.col, "no connection '%s' (named after 'after')", show(&q->id, buf, sizeof buf));
            continue;
        }
        if (e == q->conn) {
            error_at(p, q->line, q->id.col, "connection '%s' cannot be used after itself", s->conns[e].id);
            continue;
        }
        if (s->conns[e].task != s->conns[q->conn].task) {
            const char *theirs = s->tasks[s->conns[e].task], *ours = s->tasks[s->conns[q->conn].task];
            token_t t1 = {theirs, strlen(theirs), 0}, t2 = {ours, strlen(ours), 0};
            error_at(p, q->line, q->id.col,
                     "'%s' belongs to task %s, not %s: ordering constraints stay within a task (phases never mix "
                     "tasks)",
                     s->conns[e].id, show(&t1, buf, sizeof buf), show(&t2, buf2, sizeof buf2));
            continue;
        }
        unsigned had = s->conns[q->conn].nafter;
        if (cset_add_after(s, q->conn, e) != 0) {
            error_at(p, q->line, q->id.col, "out of memory");
            continue;
        }
        if (s->conns[q->conn].nafter > had)
            added[(*nadded)++] = i;
    }
}

/* The constraints as a graph along "is followed by": connection e has an edge to each connection after it.
 * Edges are numbered f = the position of the constraint in the after lists, connection by connection. */
typedef struct follow {
    unsigned n;
    size_t *start; /* edges of e: start[e] .. start[e + 1] */
    unsigned *to;  /* the later connection */
    size_t *edge;  /* its constraint's number f */
} follow_t;

static void follow_free(follow_t *g)
{
    free(g->start);
    free(g->to);
    free(g->edge);
}

static int follow_build(const cset_t *s, size_t nedges, follow_t *g)
{
    g->n = s->nconns;
    g->start = calloc((size_t)s->nconns + 2, sizeof *g->start);
    g->to = malloc(sizeof *g->to * (nedges ? nedges : 1));
    g->edge = malloc(sizeof *g->edge * (nedges ? nedges : 1));
    if (g->start == NULL || g->to == NULL || g->edge == NULL)
        return -1;
    for (unsigned i = 0; i < s->nconns; i++)
        for (unsigned k = 0; k < s->conns[i].nafter; k++)
            g->start[s->conns[i].after[k] + 2]++;
    for (unsigned e = 0; e < s->nconns; e++)
        g->start[e + 2] += g->start[e + 1];
    /* While they are put in, start[e + 1] is where e's next edge goes; at the end it is where e's edges end. */
    size_t f = 0;
    for (unsigned i = 0; i < s->nconns; i++)
        for (unsigned k = 0; k < s->conns[i].nafter; k++, f++) {
            size_t at = g->start[s->conns[i].after[k] + 1]++;
            g->to[at] = i;
            g->edge[at] = f;
        }
    return 0;
}

/* Tarjan's strongly connected components, without recursion: comp[v] numbers v's component. Only an edge
 * inside a component can be on a cycle. */
static int components(const follow_t *g, unsigned *comp)
{
    unsigned n = g->n, counter = 0, ncomp = 0, top = 0, depth = 0;
    unsigned *index = malloc(sizeof *index * n), *low = malloc(sizeof *low * n);
    unsigned *stack = malloc(sizeof *stack * n), *frame = malloc(sizeof *frame * n);
    size_t *next = malloc(sizeof *next * n); /* per frame: its next edge */
    bool *on = calloc(n, sizeof *on);
    int rc = index != NULL && low != NULL && stack != NULL && frame != NULL && next != NULL && on != NULL ? 0 : -1;
    for (unsigned v = 0; v < n && rc == 0; v++)
        index[v] = CSET_NONE;
    for (unsigned r = 0; r < n && rc == 0; r++) {
        if (index[r] != CSET_NONE)
            continue;
        index[r] = low[r] = counter++;
        stack[top++] = r;
        on[r] = true;
        frame[0] = r;
        next[0] = g->start[r];
        depth = 1;
        while (depth > 0) {
            unsigned v = frame[depth - 1];
            if (next[depth - 1] < g->start[v + 1]) {
                unsigned w = g->to[next[depth - 1]++];
                if (index[w] == CSET_NONE) {
                    index[w] = low[w] = counter++;
                    stack[top++] = w;
                    on[w] = true;
                    frame[depth] = w;
                    next[depth++] = g->start[w];
                } else if (on[w] && index[w] < low[v])
                    low[v] = index[w];
                continue;
            }
            if (low[v] == index[v]) {
                unsigned w;
                do {
                    w = stack[--top];
                    on[w] = false;
                    comp[w] = ncomp;
                } while (w != v);
                ncomp++;
            }
            if (--depth > 0 && low[v] < low[frame[depth - 1]])
                low[frame[depth - 1]] = low[v];
        }
    }
    free(index);
    free(low);
    free(stack);
    free(frame);
    free(next);
    free(on);
    return rc;
}

/* The error of the cycle closed by the constraint `y after x`, where path[at_y .. top] is the search's path
 * from y down to x: it names the cycle from y backwards, at the `after x` of y's line. */
static void report_cycle(parser_t *p, const size_t *added, size_t f, const unsigned *path, unsigned at_y, unsigned top)
{
    const cset_t *s = p->s;
    char msg[400];
    size_t n = (size_t)snprintf(msg, sizeof msg, "%s", s->conns[path[at_y]].id);
    for (unsigned d = top + 1; d-- > at_y && n < sizeof msg;)
        n += (size_t)snprintf(msg + n, sizeof msg - n, " after %s", s->conns[path[d]].id);
    const pending_t *q = &p->pend[added[f]];
    error_at(p, q->line, q->id.col, "ordering constraints form a cycle: %s", msg);
}

/*
 * Reports each cycle of ordering constraints once and drops the constraint that closes it, in linear time.
 * In each strongly connected component a depth-first search along "is followed by" starts at the component's
 * highest-numbered connection: every edge back to a connection on the search's path closes a cycle, and
 * without those edges the rest is acyclic. A component that is one simple cycle is thus blamed on the
 * connection written last, at its `after` naming the connection before it on the cycle.
 */
static void break_cycles(parser_t *p, const size_t *added, size_t nedges)
{
    cset_t *s = p->s;
    if (nedges == 0)
        return;
    unsigned n = s->nconns;
    follow_t g = {0};
    unsigned *comp = malloc(sizeof *comp * n), *path = malloc(sizeof *path * n),
             *depth_of = malloc(sizeof *depth_of * n);
    size_t *next = malloc(sizeof *next * n); /* per depth of the path: its next edge */
    uint8_t *state = calloc(n, 1);           /* 0 not reached, 1 on the path, 2 done */
    bool *drop = calloc(nedges, sizeof *drop);
    if (comp == NULL || path == NULL || next == NULL || depth_of == NULL || state == NULL || drop == NULL ||
        follow_build(s, nedges, &g) != 0 || components(&g, comp) != 0) {
        error_at(p, 0, 0, "out of memory");
        goto out;
    }
    for (unsigned r = n; r-- > 0;) {
        if (state[r] != 0)
            continue;
        unsigned depth = 1;
        path[0] = r;
        next[0] = g.start[r];
        depth_of[r] = 0;
        state[r] = 1;
        while (depth > 0) {
            unsigned v = path[depth - 1];
            if (next[depth - 1] == g.start[v + 1]) {
                state[v] = 2;
                depth--;
                continue;
            }
            size_t j = next[depth - 1]++;
            unsigned w = g.to[j];
            if (comp[w] != comp[v])
                continue;
            if (state[w] == 1) {
                report_cycle(p, added, g.edge[j], path, depth_of[w], depth - 1);
                drop[g.edge[j]] = true;
            } else if (state[w] == 0) {
                depth_of[w] = depth;
                path[depth] = w;
                next[depth++] = g.start[w];
                state[w] = 1;
            }
        }
    }
    /* Drop the closing constraints, keeping the others in the order they were written. */
    size_t f = 0;
    for (unsigned i = 0; i < n; i++) {
        cset_conn_t *c = &s->conns[i];
        unsigned kept = 0;
        for (unsigned k = 0; k < c->nafter; k++, f++)
            if (!drop[f])
                c->after[kept++] = c->after[k];
        c->nafter = kept;
    }
out:
    follow_free(&g);
    free(comp);
    free(path);
    free(next);
    free(depth_of);
    free(state);
    free(drop);
}

/* Sorts by line and column, keeping the order found among equals (qsort is not stable: carry the index). */
typedef struct ranked {
    cset_diag_t d;
    size_t seq;
} ranked_t;

static int ranked_cmp(const void *a, const void *b)
{
    const ranked_t *x = a, *y = b;
    if (x->d.line != y->d.line)
        return x->d.line < y->d.line ? -1 : 1;
    if (x->d.col != y->d.col)
        return x->d.col < y->d.col ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void sort_diags(cset_diags_t *d)
{
    ranked_t *r = malloc(sizeof *r * (d->n ? d->n : 1));
    if (r == NULL)
        return;
    for (size_t i = 0; i < d->n; i++)
        r[i] = (ranked_t){d->v[i], i};
    qsort(r, d->n, sizeof *r, ranked_cmp);
    for (size_t i = 0; i < d->n; i++)
        d->v[i] = r[i].d;
    free(r);
}

size_t cset_parse(cset_t *s, const char *text, size_t len, cset_diags_t *d)
{
    memset(d, 0, sizeof *d);
    cset_init(s, CSET_DEFAULT_SIDE, CSET_DEFAULT_SIDE, CSET_DEFAULT_CAPACITY);
    parser_t p = {.s = s, .d = d};
    size_t i = 0;
    while (i < len) {
        const char *nl = memchr(text + i, '\n', len - i);
        size_t n = nl ? (size_t)(nl - (text + i)) : len - i;
        p.line++;
        parse_line(&p, text + i, n);
        i += n + (nl != NULL);
    }
    size_t *added = malloc(sizeof *added * (p.npend ? p.npend : 1));
    size_t nedges = 0;
    if (added == NULL)
        error_at(&p, 0, 0, "out of memory");
    else
        resolve_after(&p, added, &nedges);
    break_cycles(&p, added, nedges);
    free(added);
    line_tokens_free(&p.tk);
    free(p.pend);
    /* Messages are found in two passes (lines, then the `after` names): show them in file order. */
    sort_diags(d);
    return p.nerrors;
}

size_t cset_parse_file(cset_t *s, const char *path, cset_diags_t *d)
{
    uint8_t *text;
    size_t len;
    char err[300];
    if (file_read_max(path, FILE_MAX_TEXT, &text, &len, err, sizeof err) != 0) {
        memset(d, 0, sizeof *d);
        cset_init(s, CSET_DEFAULT_SIDE, CSET_DEFAULT_SIDE, CSET_DEFAULT_CAPACITY);
        /* err is "path: why"; the printed diagnostic names the path itself */
        size_t plen = strlen(path);
        const char *why = strncmp(err, path, plen) == 0 && strncmp(err + plen, ": ", 2) == 0 ? err + plen + 2 : err;
        cset_diag_t diag = {0, 0, NULL};
        char buf[340];
        snprintf(buf, sizeof buf, "cannot read: %s", why);
        diag.msg = strdup(buf);
        d->v = malloc(sizeof *d->v);
        if (d->v != NULL && diag.msg != NULL) {
            d->v[0] = diag;
            d->n = d->cap = 1;
        } else
            free(diag.msg);
        return 1;
    }
    size_t n = cset_parse(s, text ? (const char *)text : "", len, d);
    free(text);
    return n;
}

void cset_diags_free(cset_diags_t *d)
{
    for (size_t i = 0; i < d->n; i++)
        free(d->v[i].msg);
    free(d->v);
    memset(d, 0, sizeof *d);
}

void cset_print_diags(const cset_diags_t *d, const char *name, FILE *out)
{
    for (size_t i = 0; i < d->n; i++) {
        if (d->v[i].line == 0)
            fprintf(out, "%s: %s\n", name, d->v[i].msg);
        else
            fprintf(out, "%s:%u:%u: %s\n", name, d->v[i].line, d->v[i].col, d->v[i].msg);
    }
}
