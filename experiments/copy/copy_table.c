/* A machine's table of basic-transfer throughputs (copy_table.h). */
#include "copy_table.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "file.h"
#include "line_tokens.h"

static copy_transfer_t local(long r, long w)
{
    return (copy_transfer_t){.kind = COPY_LOCAL, .read = r, .write = w};
}

static copy_transfer_t endpoint(copy_kind_t k, long r, long w)
{
    return (copy_transfer_t){.kind = k, .read = r, .write = w};
}

static copy_transfer_t net(copy_kind_t k, unsigned congestion)
{
    return (copy_transfer_t){.kind = k, .congestion = congestion};
}

static void table_init(copy_table_t *t, const char *machine, unsigned word_bytes, unsigned congestion)
{
    memset(t, 0, sizeof *t);
    snprintf(t->machine, sizeof t->machine, "%s", machine);
    t->word_bytes = word_bytes;
    t->congestion = congestion;
}

/* The paper's columns: Table 1 (local copies), 2 (send), 3 (receive: only 0D1 is legible in our copy of the
 * text), 4 (network at congestion 1, 2 and 4). It takes congestion 2 as representative of both machines. */
static void table_fill(copy_table_t *t, const double c[5], const copy_entry_t *more, size_t nmore, const double nd[3],
                       const double nadp[3])
{
    const long x = COPY_INDEXED;
    copy_transfer_t locals[5] = {local(1, 1), local(1, 64), local(64, 1), local(1, x), local(x, 1)};
    for (unsigned i = 0; i < 5; i++)
        copy_table_set(t, &locals[i], c[i]);
    for (size_t i = 0; i < nmore; i++)
        copy_table_set(t, &more[i].t, more[i].mbps);
    static const unsigned congestion[3] = {1, 2, 4};
    for (unsigned i = 0; i < 3; i++) {
        copy_transfer_t d = net(COPY_NET_DATA, congestion[i]), a = net(COPY_NET_ADDRESS, congestion[i]);
        copy_table_set(t, &d, nd[i]);
        copy_table_set(t, &a, nadp[i]);
    }
}

void copy_table_t3d(copy_table_t *t)
{
    table_init(t, "Cray T3D", 8, 2);
    const copy_entry_t more[] = {
        {endpoint(COPY_SEND, 1, 0), 126},
        {endpoint(COPY_SEND, 64, 0), 35},
        {endpoint(COPY_SEND, COPY_INDEXED, 0), 32},
        {endpoint(COPY_DEPOSIT, 0, 1), 142},
    };
    table_fill(t, (const double[5]){93, 67.9, 33.3, 38.5, 32.9}, more, sizeof more / sizeof more[0],
               (const double[3]){142, 69, 35}, (const double[3]){62, 38, 20});
}

void copy_table_paragon(copy_table_t *t)
{
    table_init(t, "Intel Paragon", 8, 2);
    const copy_entry_t more[] = {
        {endpoint(COPY_SEND, 1, 0), 52},
        {endpoint(COPY_FETCH, 1, 0), 160},
        {endpoint(COPY_SEND, 64, 0), 42},
        {endpoint(COPY_SEND, COPY_INDEXED, 0), 36},
        {endpoint(COPY_DEPOSIT, 0, 1), 160},
    };
    table_fill(t, (const double[5]){67.6, 27.6, 31.1, 35.2, 45.1}, more, sizeof more / sizeof more[0],
               (const double[3]){176, 90, 44}, (const double[3]){88, 45, 22});
}

/* A pattern at s[*i]: '!' or a decimal stride. */
static bool pattern_parse(const char *s, size_t len, size_t *i, long *out)
{
    if (*i < len && s[*i] == '!') {
        (*i)++;
        *out = COPY_INDEXED;
        return true;
    }
    long v = 0;
    size_t start = *i;
    while (*i < len && isdigit((unsigned char)s[*i])) {
        if (v > (LONG_MAX - 9) / 10)
            return false;
        v = v * 10 + (s[*i] - '0');
        (*i)++;
    }
    *out = v;
    return *i > start;
}

static bool network_parse(const char *s, size_t len, copy_transfer_t *out)
{
    size_t i;
    if (len >= 4 && memcmp(s, "Nadp", 4) == 0) {
        *out = (copy_transfer_t){.kind = COPY_NET_ADDRESS};
        i = 4;
    } else if (len >= 2 && memcmp(s, "Nd", 2) == 0) {
        *out = (copy_transfer_t){.kind = COPY_NET_DATA};
        i = 2;
    } else {
        return false;
    }
    if (i == len)
        return true;
    if (s[i] != '@')
        return false;
    i++;
    long c;
    if (!pattern_parse(s, len, &i, &c) || i != len || c < 1 || c > 1024)
        return false;
    out->congestion = (unsigned)c;
    return true;
}

/* An identifier that is not a transfer. */
static bool name_parse(const char *s, size_t len, copy_transfer_t *out)
{
    if (len == 0 || len >= COPY_NAME_MAX || !(isalpha((unsigned char)s[0]) || s[0] == '_'))
        return false;
    for (size_t i = 1; i < len; i++)
        if (!(isalnum((unsigned char)s[i]) || s[i] == '_'))
            return false;
    if ((len == 5 && memcmp(s, "where", 5) == 0) || (len == 1 && s[0] == 'Q'))
        return false;
    *out = (copy_transfer_t){.kind = COPY_NAMED};
    memcpy(out->name, s, len);
    return true;
}

bool copy_transfer_parse(const char *s, size_t len, copy_transfer_t *out)
{
    if (len > 0 && s[0] == 'N' && network_parse(s, len, out))
        return true;
    if (len > 0 && !isdigit((unsigned char)s[0]) && s[0] != '!')
        return name_parse(s, len, out);
    size_t i = 0;
    long r, w;
    if (!pattern_parse(s, len, &i, &r) || i >= len || s[i] == '\0' || !strchr("CSFRD", s[i]))
        return false;
    char k = s[i++];
    if (!pattern_parse(s, len, &i, &w) || i != len)
        return false;
    /* Sends leave by the FIFO and receives arrive by it: their far side is the fixed location 0. */
    if ((k == 'S' || k == 'F') && (w != 0 || r == 0))
        return false;
    if ((k == 'R' || k == 'D') && (r != 0 || w == 0))
        return false;
    if (k == 'C' && r == 0 && w == 0)
        return false;
    *out = (copy_transfer_t){.kind = (copy_kind_t)k, .read = r, .write = w};
    return true;
}

static void pattern_name(long p, char *buf, size_t cap)
{
    if (p == COPY_INDEXED)
        snprintf(buf, cap, "!");
    else
        snprintf(buf, cap, "%ld", p);
}

void copy_transfer_name(const copy_transfer_t *t, char *buf, size_t cap)
{
    if (t->kind == COPY_NAMED) {
        snprintf(buf, cap, "%s", t->name);
        return;
    }
    if (t->kind == COPY_NET_DATA || t->kind == COPY_NET_ADDRESS) {
        const char *n = t->kind == COPY_NET_DATA ? "Nd" : "Nadp";
        if (t->congestion)
            snprintf(buf, cap, "%s@%u", n, t->congestion);
        else
            snprintf(buf, cap, "%s", n);
        return;
    }
    char r[24], w[24];
    pattern_name(t->read, r, sizeof r);
    pattern_name(t->write, w, sizeof w);
    snprintf(buf, cap, "%s%c%s", r, (char)t->kind, w);
}

bool copy_transfer_equal(const copy_transfer_t *a, const copy_transfer_t *b)
{
    return a->kind == b->kind && a->read == b->read && a->write == b->write && a->congestion == b->congestion &&
           (a->kind != COPY_NAMED || strcmp(a->name, b->name) == 0);
}

bool copy_table_equal(const copy_table_t *a, const copy_table_t *b)
{
    if (strcmp(a->machine, b->machine) != 0 || a->word_bytes != b->word_bytes || a->congestion != b->congestion ||
        a->n != b->n)
        return false;
    for (unsigned i = 0; i < a->n; i++)
        if (!copy_transfer_equal(&a->e[i].t, &b->e[i].t) || a->e[i].mbps != b->e[i].mbps)
            return false;
    return true;
}

int copy_table_set(copy_table_t *t, const copy_transfer_t *x, double mbps)
{
    for (unsigned i = 0; i < t->n; i++)
        if (copy_transfer_equal(&t->e[i].t, x)) {
            t->e[i].mbps = mbps;
            return 0;
        }
    if (t->n == COPY_TABLE_MAX)
        return -1;
    t->e[t->n++] = (copy_entry_t){*x, mbps};
    return 0;
}

/* The largest stride the table lists on one side of this kind of transfer, 0 if none. */
static long largest_stride(const copy_table_t *t, copy_kind_t k, bool read_side)
{
    long best = 0;
    for (unsigned i = 0; i < t->n; i++) {
        if (t->e[i].t.kind != k)
            continue;
        long p = read_side ? t->e[i].t.read : t->e[i].t.write;
        if (p >= 2 && p > best)
            best = p;
    }
    return best;
}

int copy_table_lookup(const copy_table_t *t, const copy_transfer_t *x, double *mbps, copy_transfer_t *used,
                      char *err, size_t cap)
{
    copy_transfer_t want = *x;
    if ((want.kind == COPY_NET_DATA || want.kind == COPY_NET_ADDRESS) && want.congestion == 0)
        want.congestion = t->congestion;
    long lr = largest_stride(t, want.kind, true), lw = largest_stride(t, want.kind, false);
    if (lr >= 2 && want.read > lr)
        want.read = lr;
    if (lw >= 2 && want.write > lw)
        want.write = lw;
    for (unsigned i = 0; i < t->n; i++)
        if (copy_transfer_equal(&t->e[i].t, &want)) {
            *mbps = t->e[i].mbps;
            *used = want;
            return 0;
        }
    char n[COPY_NAME_MAX], m[COPY_NAME_MAX];
    copy_transfer_name(x, n, sizeof n);
    copy_transfer_name(&want, m, sizeof m);
    if (copy_transfer_equal(&want, x) || (x->kind == COPY_NET_DATA || x->kind == COPY_NET_ADDRESS))
        snprintf(err, cap, "the %s table has no figure for %s", t->machine, m);
    else
        snprintf(err, cap, "the %s table has no figure for %s (looked up as %s, its largest stride)", t->machine, n,
                 m);
    return -1;
}

/* One `key = value` line. */
static int table_line(const line_tokens_t *tok, const char *file, unsigned line, copy_table_t *t, char *err,
                      size_t cap)
{
    if (tok->n == 0)
        return 0;
    bool machine = line_token_is(&tok->v[0], "machine");
    if ((machine ? tok->n < 3 : tok->n != 3) || !line_token_is(&tok->v[1], "=")) {
        unsigned col = tok->n >= 2 ? tok->v[1].col : tok->v[0].col;
        snprintf(err, cap, "%s:%u:%u: expected `NAME = VALUE`", file, line, col);
        return -1;
    }
    const line_token_t *k = &tok->v[0], *v = &tok->v[2];
    char value[64] = "";
    if (!machine) {
        if (v->len >= sizeof value) {
            snprintf(err, cap, "%s:%u:%u: value too long", file, line, v->col);
            return -1;
        }
        memcpy(value, v->text, v->len);
        value[v->len] = '\0';
    }
    if (machine) {
        /* A name of several words: everything from the first to the last. */
        const line_token_t *last = &tok->v[tok->n - 1];
        size_t n = (size_t)(last->text + last->len - v->text);
        if (n >= sizeof t->machine) {
            snprintf(err, cap, "%s:%u:%u: machine name longer than %zu characters", file, line, v->col,
                     sizeof t->machine - 1);
            return -1;
        }
        memcpy(t->machine, v->text, n);
        t->machine[n] = '\0';
        return 0;
    }
    char *end;
    errno = 0;
    if (line_token_is(k, "word_bytes") || line_token_is(k, "congestion")) {
        unsigned long n = strtoul(value, &end, 10);
        if (*end != '\0' || errno != 0 || n < 1 || n > 1024 || !isdigit((unsigned char)value[0])) {
            snprintf(err, cap, "%s:%u:%u: expected a whole number from 1 to 1024", file, line, v->col);
            return -1;
        }
        if (line_token_is(k, "word_bytes"))
            t->word_bytes = (unsigned)n;
        else
            t->congestion = (unsigned)n;
        return 0;
    }
    copy_transfer_t x;
    if (!copy_transfer_parse(k->text, k->len, &x)) {
        snprintf(err, cap, "%s:%u:%u: not a basic transfer (such as 1C64, !S0, 1F0, 0D1, Nd@2), a name, nor "
                           "machine, word_bytes or congestion",
                 file, line, k->col);
        return -1;
    }
    double mbps = strtod(value, &end);
    if (*end != '\0' || errno != 0 || !isfinite(mbps) || !(mbps > 0)) {
        snprintf(err, cap, "%s:%u:%u: expected a throughput in MB/s above 0", file, line, v->col);
        return -1;
    }
    if (copy_table_set(t, &x, mbps) != 0) {
        snprintf(err, cap, "%s:%u:%u: more than %d transfers in one table", file, line, k->col, COPY_TABLE_MAX);
        return -1;
    }
    return 0;
}

int copy_table_parse(const char *text, size_t len, const char *file, copy_table_t *t, char *err, size_t cap)
{
    table_init(t, file, 4, 1);
    line_tokens_t tok = {0};
    unsigned line = 1;
    int rc = 0;
    for (size_t at = 0; at <= len && rc == 0; line++) {
        size_t end = at;
        while (end < len && text[end] != '\n')
            end++;
        unsigned col = 0;
        line_status_t s = line_split(text + at, end - at, &tok, &col);
        if (s == LINE_CONTROL_CHAR) {
            snprintf(err, cap, "%s:%u:%u: control character", file, line, col);
            rc = -1;
        } else if (s == LINE_NO_MEMORY) {
            snprintf(err, cap, "%s:%u:1: out of memory", file, line);
            rc = -1;
        } else {
            rc = table_line(&tok, file, line, t, err, cap);
        }
        at = end + 1;
    }
    line_tokens_free(&tok);
    if (rc == 0 && t->n == 0) {
        snprintf(err, cap, "%s:%u:1: the table lists no transfer", file, line - 1);
        rc = -1;
    }
    return rc;
}

int copy_table_load(const char *path, copy_table_t *t, char *err, size_t cap)
{
    uint8_t *data;
    size_t len;
    if (file_read_max(path, 1u << 20, &data, &len, err, cap) != 0)
        return -1;
    int rc = copy_table_parse((const char *)data, len, path, t, err, cap);
    free(data);
    return rc;
}

void copy_table_write(const copy_table_t *t, FILE *out)
{
    fprintf(out, "machine = %s\nword_bytes = %u\ncongestion = %u\n", t->machine, t->word_bytes, t->congestion);
    for (unsigned i = 0; i < t->n; i++) {
        char n[COPY_NAME_MAX];
        copy_transfer_name(&t->e[i].t, n, sizeof n);
        /* The shortest form that reads back exactly. */
        char v[40];
        snprintf(v, sizeof v, "%.15g", t->e[i].mbps);
        if (strtod(v, NULL) != t->e[i].mbps)
            snprintf(v, sizeof v, "%.17g", t->e[i].mbps);
        fprintf(out, "%s = %s\n", n, v);
    }
}
