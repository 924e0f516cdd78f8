/* The sweep file: `key = value` lines, `cross NAME = values` and `zip NAME = values`, `#` comments. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file.h"
#include "sweep.h"

typedef struct sweep_reader {
    const char *file;
    const char *line; /* the current line */
    unsigned lineno;
    char *err;
    size_t errlen;
    bool failed;
    const char *cmd_line, *cmd_at; /* where the command was given, for its errors */
    unsigned cmd_lineno;
} sweep_reader_t;

static int failf(sweep_reader_t *r, const char *at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int failf(sweep_reader_t *r, const char *at, const char *fmt, ...)
{
    if (!r->failed && r->err != NULL && r->errlen > 0) {
        int n = snprintf(r->err, r->errlen, "%s:%u:%u: ", r->file, r->lineno, (unsigned)(at - r->line) + 1);
        va_list ap;
        va_start(ap, fmt);
        if (n >= 0 && (size_t)n < r->errlen)
            vsnprintf(r->err + n, r->errlen - (size_t)n, fmt, ap);
        va_end(ap);
    }
    r->failed = true;
    return -1;
}

static bool is_name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

/* A value may hold what a command-line word may, less the characters the file and the placeholders use. */
static bool is_value_char(char c)
{
    return c > ' ' && c < 127 && c != ',' && c != '#' && c != '{' && c != '}' && c != '"' && c != '\'' && c != '\\';
}

static const char *skip_blanks(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
        p++;
    return p;
}

static int add_value(sweep_reader_t *r, sweep_param_t *pp, const char *at, const char *v, size_t n)
{
    if (pp->nvalues == SWEEP_MAX_VALUES)
        return failf(r, at, "more than %d values for '%s'", SWEEP_MAX_VALUES, pp->name);
    if (pp->nvalues % 64 == 0) {
        char **grown = realloc(pp->values, (pp->nvalues + 64) * sizeof *grown);
        if (grown == NULL)
            return failf(r, at, "out of memory");
        pp->values = grown;
    }
    /* Two equal values would make two cases with one key: one row of the table lost, the case run again at
     * every resume. */
    for (unsigned i = 0; !pp->zip && i < pp->nvalues; i++)
        if (strlen(pp->values[i]) == n && memcmp(pp->values[i], v, n) == 0)
            return failf(r, at, "'%.*s' is already a value of '%s'", (int)n, v, pp->name);
    if ((pp->values[pp->nvalues] = strndup(v, n)) == NULL)
        return failf(r, at, "out of memory");
    pp->nvalues++;
    return 0;
}

static bool parse_number(const char *s, size_t n, double *v)
{
    char buf[64];
    if (n == 0 || n >= sizeof buf)
        return false;
    memcpy(buf, s, n);
    buf[n] = '\0';
    char *end;
    errno = 0;
    *v = strtod(buf, &end);
    return *end == '\0' && errno == 0 && isfinite(*v);
}

/* A:B:STEP with three numbers is a range: A, A+STEP, ... up to B (counted, so no sum drifts past B). */
static int add_item(sweep_reader_t *r, sweep_param_t *pp, const char *at, size_t n)
{
    const char *c1 = memchr(at, ':', n), *c2 = c1 ? memchr(c1 + 1, ':', (size_t)(at + n - c1 - 1)) : NULL;
    double lo, hi, step;
    if (c2 == NULL || memchr(c2 + 1, ':', (size_t)(at + n - c2 - 1)) != NULL ||
        !parse_number(at, (size_t)(c1 - at), &lo) || !parse_number(c1 + 1, (size_t)(c2 - c1 - 1), &hi) ||
        !parse_number(c2 + 1, (size_t)(at + n - c2 - 1), &step))
        return add_value(r, pp, at, at, n);
    if (!(step > 0) || hi < lo)
        return failf(r, at, "a range A:B:STEP wants STEP > 0 and A <= B");
    double count = floor((hi - lo) / step + 1e-9) + 1;
    if (count > SWEEP_MAX_VALUES)
        return failf(r, at, "the range gives more than %d values", SWEEP_MAX_VALUES);
    for (unsigned k = 0; k < (unsigned)count; k++) {
        char buf[40];
        int len = snprintf(buf, sizeof buf, "%.10g", lo + k * step);
        if (add_value(r, pp, at, buf, (size_t)len) != 0)
            return -1;
    }
    return 0;
}

static int parse_param(sweep_reader_t *r, sweep_t *s, const char *p, const char *end, bool zip)
{
    p = skip_blanks(p, end);
    const char *name = p;
    while (p < end && is_name_char(*p))
        p++;
    if (p == name)
        return failf(r, name, "expected a parameter name (letters, digits, '_', '-')");
    size_t nlen = (size_t)(p - name);
    for (unsigned i = 0; i < s->nparams; i++)
        if (strlen(s->params[i].name) == nlen && memcmp(s->params[i].name, name, nlen) == 0)
            return failf(r, name, "parameter '%.*s' is declared twice", (int)nlen, name);
    if (s->nparams == SWEEP_MAX_PARAMS)
        return failf(r, name, "more than %d parameters", SWEEP_MAX_PARAMS);
    p = skip_blanks(p, end);
    if (p >= end || *p != '=')
        return failf(r, p, "expected '=' after the parameter name");
    sweep_param_t *pp = &s->params[s->nparams++];
    pp->zip = zip;
    if ((pp->name = strndup(name, nlen)) == NULL)
        return failf(r, name, "out of memory");
    for (p++;;) {
        p = skip_blanks(p, end);
        const char *v = p;
        while (p < end && is_value_char(*p))
            p++;
        char c = p < end ? *p : ',';
        if (p == v)
            return failf(r, v, c != ',' ? "'%c' cannot be in a value" : "expected a value", c);
        if (add_item(r, pp, v, (size_t)(p - v)) != 0)
            return -1;
        p = skip_blanks(p, end);
        if (p >= end)
            return 0;
        if (*p != ',')
            return failf(r, p,
                         is_value_char(*p) ? "expected ',' between values (a value holds no blanks)"
                                           : "'%c' cannot be in a value",
                         *p);
        p++;
    }
}

static int parse_setting(sweep_reader_t *r, sweep_t *s, const char *key, size_t klen, const char *p, const char *end)
{
    p = skip_blanks(p, end);
    if (p >= end || *p != '=')
        return failf(r, p, "expected '='");
    p = skip_blanks(p + 1, end);
    const char *v = p, *vend = end;
    while (vend > v && (vend[-1] == ' ' || vend[-1] == '\t' || vend[-1] == '\r'))
        vend--;
    char **slot = klen == 4 && memcmp(key, "name", 4) == 0 ? &s->name : &s->command;
    if (*slot != NULL)
        return failf(r, key, "'%.*s' is given twice", (int)klen, key);
    if (v == vend)
        return failf(r, v, "'%.*s' wants a value", (int)klen, key);
    if (slot == &s->name)
        for (const char *c = v; c < vend; c++)
            if (!is_name_char(*c))
                return failf(r, c, "a sweep name holds letters, digits, '_' and '-'");
    if ((size_t)(vend - v) >= SWEEP_MAX_TEXT / 2)
        return failf(r, v, "the %.*s is too long", (int)klen, key);
    if ((*slot = strndup(v, (size_t)(vend - v))) == NULL)
        return failf(r, v, "out of memory");
    if (slot == &s->command) {
        r->cmd_line = r->line;
        r->cmd_at = v;
        r->cmd_lineno = r->lineno;
        for (const char *c = v; c < vend; c++)
            if (*c == '"' || *c == '\'' || *c == '\\')
                return failf(r, c, "the command is split at blanks, without quotes or escapes");
    }
    return 0;
}

static const char *const commands[] = {
#define IWARP_CMD(name, summary) #name,
#include "commands.def"
#undef IWARP_CMD
};

/* The command's placeholders name parameters, every parameter is used, the first word is a command. */
static int check_command(sweep_reader_t *r, sweep_t *s)
{
    r->line = r->cmd_line;
    r->lineno = r->cmd_lineno;
    const char *cmd = s->command, *at = r->cmd_at;
    size_t first = strcspn(cmd, " \t");
    bool known = false;
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        known = known || (strlen(commands[i]) == first && memcmp(commands[i], cmd, first) == 0);
    if (!known || (first == 5 && memcmp(cmd, "sweep", 5) == 0))
        return failf(r, at, "'%.*s' is not an iwarp command a sweep can run (run, bench, traffic, model, ...)",
                     (int)first, cmd);
    bool used[SWEEP_MAX_PARAMS] = {false};
    for (const char *p = cmd; (p = strpbrk(p, "{}")) != NULL;) {
        const char *close = *p == '{' ? strchr(p, '}') : NULL;
        if (close == NULL)
            return failf(r, at + (p - cmd), "a '{' without '}' or a '}' without '{'");
        unsigned i = 0;
        while (i < s->nparams && !(strlen(s->params[i].name) == (size_t)(close - p - 1) &&
                                   memcmp(s->params[i].name, p + 1, (size_t)(close - p - 1)) == 0))
            i++;
        if (i == s->nparams)
            return failf(r, at + (p - cmd), "{%.*s} names no parameter", (int)(close - p - 1), p + 1);
        used[i] = true;
        p = close + 1;
    }
    for (unsigned i = 0; i < s->nparams; i++)
        if (!used[i])
            return failf(r, at, "parameter '%s' is not used in the command (write {%s} where it goes)",
                         s->params[i].name, s->params[i].name);
    return 0;
}

static int finish(sweep_reader_t *r, sweep_t *s, const char *text)
{
    r->line = text;
    r->lineno = 1;
    if (s->command == NULL)
        return failf(r, text, "no 'command = ...' line");
    if (check_command(r, s) != 0)
        return -1;
    const char *cmd_line = r->cmd_at;
    double cases = 1;
    unsigned zip_len = 0;
    for (unsigned i = 0; i < s->nparams; i++) {
        const sweep_param_t *pp = &s->params[i];
        if (!pp->zip) {
            cases *= pp->nvalues;
        } else if (zip_len == 0) {
            zip_len = pp->nvalues;
            cases *= zip_len;
        } else if (pp->nvalues != zip_len) {
            return failf(r, cmd_line, "zip parameter '%s' has %u values, the first zip parameter %u", pp->name,
                         pp->nvalues, zip_len);
        }
    }
    if (cases > SWEEP_MAX_CASES)
        return failf(r, cmd_line, "%.0f cases: a sweep has at most %d", cases, SWEEP_MAX_CASES);
    /* Zip parameters make one case of the k-th values together: two equal k-tuples would be one key twice. */
    for (unsigned a = 0; a < zip_len; a++)
        for (unsigned b = a + 1; b < zip_len; b++) {
            bool same = true;
            for (unsigned i = 0; same && i < s->nparams; i++)
                same = !s->params[i].zip || strcmp(s->params[i].values[a], s->params[i].values[b]) == 0;
            if (same)
                return failf(r, cmd_line, "the zip parameters' values %u and %u make the same case", a + 1, b + 1);
        }
    s->ncases = (unsigned)cases;
    return 0;
}

int sweep_parse(sweep_t *s, const char *file, const char *text, size_t len, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    sweep_reader_t r = {.file = file, .err = err, .errlen = errlen};
    const char *end = text + len;
    for (const char *line = text; line < end && !r.failed;) {
        const char *nl = memchr(line, '\n', (size_t)(end - line)), *lend = nl ? nl : end;
        r.line = line;
        r.lineno++;
        const char *hash = memchr(line, '#', (size_t)(lend - line)), *cend = hash ? hash : lend;
        const char *p = skip_blanks(line, cend);
        if (memchr(line, '\0', (size_t)(lend - line)) != NULL) {
            failf(&r, line, "a NUL character");
            break;
        }
        if (p < cend) {
            const char *w = p;
            while (p < cend && is_name_char(*p))
                p++;
            size_t wl = (size_t)(p - w);
            if (wl == 5 && memcmp(w, "cross", 5) == 0 && p < cend && (*p == ' ' || *p == '\t')) {
                parse_param(&r, s, p, cend, false);
            } else if (wl == 3 && memcmp(w, "zip", 3) == 0 && p < cend && (*p == ' ' || *p == '\t')) {
                parse_param(&r, s, p, cend, true);
            } else if ((wl == 4 && memcmp(w, "name", 4) == 0) || (wl == 7 && memcmp(w, "command", 7) == 0)) {
                parse_setting(&r, s, w, wl, p, cend);
            } else {
                failf(&r, w, "expected 'name =', 'command =', 'cross NAME =' or 'zip NAME ='");
            }
        }
        line = nl ? nl + 1 : end;
    }
    if (!r.failed && finish(&r, s, text) != 0)
        r.failed = true;
    if (r.failed) {
        sweep_free(s);
        return -1;
    }
    return 0;
}

int sweep_load(sweep_t *s, const char *path, char *err, size_t errlen)
{
    uint8_t *data;
    size_t len;
    if (file_read_max(path, FILE_MAX_TEXT, &data, &len, err, errlen) != 0)
        return -1;
    int rc = sweep_parse(s, path, (const char *)data, len, err, errlen);
    uint8_t *text = data;
    free(text);
    if (rc == 0 && s->name == NULL) {
        const char *base = strrchr(path, '/');
        base = base ? base + 1 : path;
        size_t n = strcspn(base, ".");
        s->name = strndup(base, n ? n : strlen(base));
        if (s->name == NULL) {
            sweep_free(s);
            snprintf(err, errlen, "out of memory");
            return -1;
        }
    }
    return rc;
}

void sweep_free(sweep_t *s)
{
    free(s->name);
    free(s->command);
    for (unsigned i = 0; i < s->nparams; i++) {
        for (unsigned k = 0; k < s->params[i].nvalues; k++)
            free(s->params[i].values[k]);
        free(s->params[i].values);
        free(s->params[i].name);
    }
    memset(s, 0, sizeof *s);
}

void sweep_case_values(const sweep_t *s, unsigned k, unsigned *index)
{
    /* Mixed radix, the last dimension fastest; the zip group is one dimension, at its first parameter. */
    int zip_dim = -1;
    for (unsigned i = 0; i < s->nparams && zip_dim < 0; i++)
        if (s->params[i].zip)
            zip_dim = (int)i;
    unsigned rest = k;
    for (int i = (int)s->nparams - 1; i >= 0; i--) {
        if (s->params[i].zip && i != zip_dim)
            continue;
        index[i] = rest % s->params[i].nvalues;
        rest /= s->params[i].nvalues;
    }
    for (unsigned i = 0; i < s->nparams; i++)
        if (s->params[i].zip)
            index[i] = index[zip_dim];
}

void sweep_case_key(const sweep_t *s, unsigned k, char *buf, size_t cap)
{
    unsigned index[SWEEP_MAX_PARAMS];
    sweep_case_values(s, k, index);
    size_t len = 0;
    buf[0] = '\0';
    for (unsigned i = 0; i < s->nparams && len < cap; i++)
        len += (size_t)snprintf(buf + len, cap - len, "%s%s=%s", i ? " " : "", s->params[i].name,
                                s->params[i].values[index[i]]);
}

void sweep_case_command(const sweep_t *s, unsigned k, char *buf, size_t cap)
{
    unsigned index[SWEEP_MAX_PARAMS];
    sweep_case_values(s, k, index);
    size_t len = 0;
    for (const char *p = s->command; *p && len + 1 < cap;) {
        const char *close = *p == '{' ? strchr(p, '}') : NULL;
        if (close == NULL) {
            buf[len++] = *p++;
            continue;
        }
        for (unsigned i = 0; i < s->nparams; i++)
            if (strlen(s->params[i].name) == (size_t)(close - p - 1) &&
                memcmp(s->params[i].name, p + 1, (size_t)(close - p - 1)) == 0) {
                int n = snprintf(buf + len, cap - len, "%s", s->params[i].values[index[i]]);
                len = n < 0 ? len : len + (size_t)n < cap ? len + (size_t)n : cap - 1;
            }
        p = close + 1;
    }
    buf[len < cap ? len : cap - 1] = '\0';
}

unsigned sweep_split(char *buf, char **words, unsigned max)
{
    unsigned n = 0;
    for (char *save = NULL, *t = strtok_r(buf, " \t", &save); t != NULL && n < max; t = strtok_r(NULL, " \t", &save))
        words[n++] = t;
    return n;
}
