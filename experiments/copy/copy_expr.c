/* Copy-transfer model expressions (copy_expr.h): a recursive-descent parser that evaluates as it goes.
 *
 *   group      := seq [ 'where' constraint { ',' constraint } ]
 *   seq        := par { '->' par }
 *   par        := atom { '||' atom }
 *   atom       := TRANSFER | NUMBER | '(' group ')'
 *   constraint := [ NUMBER '*' ] 'Q' '<=' atom        Q: the group the clause ends
 */
#include "copy_expr.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { NO_PATTERN = -2 };

/* A partial result: its throughput and the patterns it reads and writes (none for numbers and the network). */
typedef struct value {
    double mbps;
    long read, write;
} value_t;

typedef struct parser {
    const char *s;
    size_t at, len;
    unsigned depth;
    const copy_table_t *t;
    copy_result_t *out;
    char *err;
    size_t cap;
} parser_t;

static int fail(parser_t *p, size_t at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(parser_t *p, size_t at, const char *fmt, ...)
{
    char what[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    snprintf(p->err, p->cap, "expr:%zu: %s", at + 1, what);
    return -1;
}

static void skip_space(parser_t *p)
{
    while (p->at < p->len && (p->s[p->at] == ' ' || p->s[p->at] == '\t'))
        p->at++;
}

static bool take(parser_t *p, const char *op)
{
    skip_space(p);
    size_t n = strlen(op);
    if (p->len - p->at >= n && memcmp(p->s + p->at, op, n) == 0) {
        p->at += n;
        return true;
    }
    return false;
}

static bool word_char(char c)
{
    return isalnum((unsigned char)c) || c == '!' || c == '@' || c == '.' || c == '_';
}

/* The word at p->at: its extent. */
static size_t word_end(const parser_t *p)
{
    size_t e = p->at;
    while (e < p->len && word_char(p->s[e]))
        e++;
    return e;
}

static bool is_word(const parser_t *p, size_t end, const char *w)
{
    return end - p->at == strlen(w) && memcmp(p->s + p->at, w, end - p->at) == 0;
}

static int number(parser_t *p, size_t end, double *v)
{
    char buf[64];
    size_t n = end - p->at;
    if (n >= sizeof buf)
        return -1;
    memcpy(buf, p->s + p->at, n);
    buf[n] = '\0';
    for (size_t i = 0; i < n; i++)
        if (!isdigit((unsigned char)buf[i]) && buf[i] != '.')
            return -1;
    char *e;
    errno = 0;
    *v = strtod(buf, &e);
    return *e == '\0' && errno == 0 && isfinite(*v) ? 0 : -1;
}

static int group(parser_t *p, value_t *v);

static int transfer(parser_t *p, size_t end, value_t *v)
{
    copy_transfer_t x, used;
    size_t at = p->at;
    if (!copy_transfer_parse(p->s + at, end - at, &x))
        return fail(p, at, "'%.*s' is not a basic transfer (such as 1C64, !S0, 1F0, 0D1, Nd, Nadp@4), a name nor a number",
                    (int)(end - at), p->s + at);
    char why[160];
    if (copy_table_lookup(p->t, &x, &v->mbps, &used, why, sizeof why) != 0)
        return fail(p, at, "%s", why);
    bool patterned = x.kind != COPY_NET_DATA && x.kind != COPY_NET_ADDRESS && x.kind != COPY_NAMED;
    v->read = patterned ? x.read : NO_PATTERN;
    v->write = patterned ? x.write : NO_PATTERN;
    copy_result_t *o = p->out;
    if (o->nterms < COPY_TERMS_MAX)
        o->terms[o->nterms++] = (copy_term_t){x, used, v->mbps, (unsigned)at + 1};
    p->at = end;
    return 0;
}

static int atom(parser_t *p, value_t *v)
{
    skip_space(p);
    if (p->at == p->len)
        return fail(p, p->at, "expected a transfer, a number or '(' at the end");
    if (p->s[p->at] == '(') {
        if (++p->depth > COPY_DEPTH_MAX)
            return fail(p, p->at, "parentheses nested deeper than %d", COPY_DEPTH_MAX);
        size_t open = p->at++;
        if (group(p, v) != 0)
            return -1;
        if (!take(p, ")"))
            return fail(p, p->at, "expected ')' to close the '(' at column %zu", open + 1);
        p->depth--;
        return 0;
    }
    size_t end = word_end(p);
    if (end == p->at)
        return fail(p, p->at, "expected a transfer, a number or '(' but found '%c'", p->s[p->at]);
    if (is_word(p, end, "where") || is_word(p, end, "Q"))
        return fail(p, p->at, "expected a transfer, a number or '(' but found '%.*s'", (int)(end - p->at),
                    p->s + p->at);
    double n;
    if (isdigit((unsigned char)p->s[p->at]) && number(p, end, &n) == 0) {
        if (!(n > 0))
            return fail(p, p->at, "a throughput must be above 0");
        *v = (value_t){n, NO_PATTERN, NO_PATTERN};
        p->at = end;
        return 0;
    }
    return transfer(p, end, v);
}

/* A lone '|' where '||' was meant. */
static int lone_bar(parser_t *p)
{
    skip_space(p);
    if (p->at < p->len && p->s[p->at] == '|' && (p->at + 1 >= p->len || p->s[p->at + 1] != '|'))
        return fail(p, p->at, "a lone '|': in parallel is '||'");
    return 0;
}

static int par(parser_t *p, value_t *v)
{
    if (atom(p, v) != 0 || lone_bar(p) != 0)
        return -1;
    while (take(p, "||")) {
        value_t w;
        if (atom(p, &w) != 0 || lone_bar(p) != 0)
            return -1;
        v->mbps = fmin(v->mbps, w.mbps);
        if (v->read == NO_PATTERN)
            v->read = w.read;
        if (w.write != NO_PATTERN)
            v->write = w.write;
    }
    return 0;
}

static void pattern_text(long pt, char *buf, size_t cap)
{
    if (pt == COPY_INDEXED)
        snprintf(buf, cap, "! (indexed)");
    else
        snprintf(buf, cap, "%ld", pt);
}

static int seq(parser_t *p, value_t *v)
{
    if (par(p, v) != 0)
        return -1;
    double inverse = 1.0 / v->mbps;
    while (take(p, "->")) {
        skip_space(p);
        size_t at = p->at;
        value_t w;
        if (par(p, &w) != 0)
            return -1;
        /* The paper: the pattern a step writes must be the one the next step reads. */
        if (v->write != NO_PATTERN && w.read != NO_PATTERN && v->write != w.read) {
            char a[24], b[24];
            pattern_text(w.read, a, sizeof a);
            pattern_text(v->write, b, sizeof b);
            return fail(p, at, "this step reads pattern %s but the step before writes pattern %s", a, b);
        }
        inverse += 1.0 / w.mbps;
        if (v->read == NO_PATTERN)
            v->read = w.read;
        if (w.write != NO_PATTERN)
            v->write = w.write;
    }
    v->mbps = 1.0 / inverse;
    return 0;
}

static int constraint(parser_t *p, double *q)
{
    skip_space(p);
    double k = 1;
    size_t end = word_end(p);
    if (end > p->at && isdigit((unsigned char)p->s[p->at])) {
        size_t at = p->at;
        if (number(p, end, &k) != 0 || !(k > 0))
            return fail(p, at, "expected a factor above 0 before '* Q'");
        p->at = end;
        if (!take(p, "*"))
            return fail(p, p->at, "expected '*' between the factor and Q");
        skip_space(p);
        end = word_end(p);
    }
    if (!is_word(p, end, "Q"))
        return fail(p, p->at, "expected a constraint such as '2 * Q <= 0C1'");
    p->at = end;
    if (!take(p, "<="))
        return fail(p, p->at, "expected '<=' after Q");
    value_t bound;
    if (atom(p, &bound) != 0)
        return -1;
    if (bound.mbps / k < *q) {
        *q = bound.mbps / k;
        p->out->constrained = true;
    }
    return 0;
}

/* A sequence and the constraints on it. */
static int group(parser_t *p, value_t *v)
{
    if (seq(p, v) != 0)
        return -1;
    skip_space(p);
    size_t end = word_end(p);
    if (is_word(p, end, "where")) {
        p->at = end;
        do {
            if (constraint(p, &v->mbps) != 0)
                return -1;
        } while (take(p, ","));
    }
    return 0;
}

int copy_eval(const char *expr, const copy_table_t *t, copy_result_t *out, char *err, size_t cap)
{
    memset(out, 0, sizeof *out);
    parser_t p = {.s = expr, .len = strlen(expr), .t = t, .out = out, .err = err, .cap = cap};
    value_t v;
    if (group(&p, &v) != 0)
        return -1;
    skip_space(&p);
    if (p.at != p.len)
        return fail(&p, p.at, "unexpected '%c': expected '->', '||', 'where' or the end", p.s[p.at]);
    out->mbps = v.mbps;
    return 0;
}
