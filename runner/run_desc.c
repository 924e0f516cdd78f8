/* Run descriptions: parsing (with file:line:col errors, every one reported) and loading onto an array. */
#include "run_desc.h"

#include "file.h"

#include <errno.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "celldata.h"
#include "line_tokens.h"
#include "program_load.h"
#include "conset/route_tables.h"

enum { MAX_ERRORS = 50, MAX_TOKENS = 24 };

typedef line_token_t token_t;

typedef struct parser {
    const char *name;
    char *dir;
    run_desc_t *d;
    FILE *errors;
    unsigned line;
    unsigned nerrors;
} parser_t;

static void error_at(parser_t *p, unsigned col, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void error_at(parser_t *p, unsigned col, const char *fmt, ...)
{
    p->nerrors++;
    if (p->nerrors > MAX_ERRORS || p->errors == NULL)
        return;
    fprintf(p->errors, "%s:%u:%u: ", p->name, p->line, col);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(p->errors, fmt, ap);
    va_end(ap);
    fputc('\n', p->errors);
}

/* A file the description names must be there now, so that its line is reported with the others. */
static void check_readable(parser_t *p, const token_t *t, const char *path)
{
    if (path != NULL && access(path, R_OK) != 0)
        error_at(p, t->col, "%s: %s", path, strerror(errno));
}

static char *tok_dup(const token_t *t)
{
    char *s = malloc(t->len + 1);
    if (s != NULL) {
        memcpy(s, t->text, t->len);
        s[t->len] = '\0';
    }
    return s;
}

/* Path relative to the description's folder unless absolute. */
static char *resolve(const parser_t *p, const token_t *t)
{
    char *rel = tok_dup(t);
    if (rel == NULL || rel[0] == '/' || p->dir == NULL)
        return rel;
    size_t n = strlen(p->dir) + strlen(rel) + 2;
    char *full = malloc(n);
    if (full != NULL)
        snprintf(full, n, "%s/%s", p->dir, rel);
    free(rel);
    return full;
}

static bool parse_u64(const token_t *t, uint64_t *v)
{
    char buf[32];
    if (t->len == 0 || t->len >= sizeof buf || t->text[0] == '-')
        return false;
    memcpy(buf, t->text, t->len);
    buf[t->len] = '\0';
    char *end;
    errno = 0;
    unsigned long long x = strtoull(buf, &end, 0);
    if (errno != 0 || *end != '\0')
        return false;
    *v = x;
    return true;
}

/* "N", "N-M" or "*" along one side of the array. */
static bool parse_range(parser_t *p, const char *s, size_t len, unsigned col, unsigned size, unsigned *lo, unsigned *hi)
{
    if (len == 1 && s[0] == '*') {
        *lo = 0;
        *hi = size - 1;
        return true;
    }
    const char *dash = memchr(s, '-', len);
    token_t a = {s, dash ? (size_t)(dash - s) : len, col};
    token_t b = dash ? (token_t){dash + 1, len - a.len - 1, col} : a;
    uint64_t x0, x1;
    if (!parse_u64(&a, &x0) || !parse_u64(&b, &x1) || x0 > x1) {
        error_at(p, col, "expected N, N-M or * for a cell range, not '%.*s'", (int)len, s);
        return false;
    }
    if (x1 >= size) {
        error_at(p, col, "cell coordinate %llu is outside the array (0..%u)", (unsigned long long)x1, size - 1);
        return false;
    }
    *lo = (unsigned)x0;
    *hi = (unsigned)x1;
    return true;
}

static bool parse_cells(parser_t *p, const token_t *t, run_rule_t *r)
{
    const emu_machine_t *m = &p->d->machine;
    if (line_token_is(t, "all")) {
        *r = (run_rule_t){0, m->width - 1, 0, m->height - 1, 0, {{0, 0}}, 0, p->line};
        return true;
    }
    const char *comma = memchr(t->text, ',', t->len);
    if (comma == NULL) {
        error_at(p, t->col, "expected 'all' or X,Y for cells (each N, N-M or *), not '%.*s'", (int)t->len, t->text);
        return false;
    }
    size_t xl = (size_t)(comma - t->text);
    r->line = p->line;
    return parse_range(p, t->text, xl, t->col, m->width, &r->x0, &r->x1) &&
           parse_range(p, comma + 1, t->len - xl - 1, t->col + (unsigned)xl + 1, m->height, &r->y0, &r->y1);
}

static bool parse_arg(parser_t *p, const token_t *t, run_arg_t *a)
{
    static const struct {
        const char *name;
        run_arg_kind_t kind;
    } names[] = {{"x", RUN_ARG_X}, {"y", RUN_ARG_Y}, {"id", RUN_ARG_ID}, {"w", RUN_ARG_W}, {"h", RUN_ARG_H}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (line_token_is(t, names[i].name)) {
            *a = (run_arg_t){names[i].kind, 0};
            return true;
        }
    char buf[32];
    if (t->len < sizeof buf) {
        memcpy(buf, t->text, t->len);
        buf[t->len] = '\0';
        char *end;
        errno = 0;
        long long v = strtoll(buf, &end, 0);
        if (errno == 0 && *end == '\0' && v >= -2147483648LL && v <= 4294967295LL) {
            *a = (run_arg_t){RUN_ARG_NUMBER, (uint32_t)v};
            return true;
        }
    }
    error_at(p, t->col, "argument '%.*s' is not a 32-bit number or one of x, y, id, w, h", (int)t->len, t->text);
    return false;
}

static int find_program(const run_desc_t *d, const token_t *t)
{
    for (unsigned i = 0; i < d->nprograms; i++)
        if (strlen(d->programs[i].name) == t->len && strncmp(d->programs[i].name, t->text, t->len) == 0)
            return (int)i;
    return -1;
}

static void add_list(parser_t *p, char **list, size_t *n, const token_t *t, bool is_path)
{
    if (*n == RUN_DESC_MAX_LIST) {
        error_at(p, t->col, "too many entries (at most %d)", RUN_DESC_MAX_LIST);
        return;
    }
    list[(*n)++] = is_path ? resolve(p, t) : tok_dup(t);
}

static void st_array(parser_t *p, token_t *tk, unsigned n)
{
    run_desc_t *d = p->d;
    const token_t *kw = &tk[0];
    unsigned w, h;
    char buf[32] = "";
    if (n == 2 && tk[1].len < sizeof buf)
        memcpy(buf, tk[1].text, tk[1].len);
    if (n != 2 || emu_parse_array_size(buf, &w, &h) != 0) { /* the same rule as --array */
        error_at(p, n > 1 ? tk[1].col : kw->col, "'array' wants WxH with sides 1..%u", EMU_MAX_DIM);
        return;
    }
    if (d->nrules > 0)
        error_at(p, kw->col, "'array' must come before the first 'cells' line");
    d->machine.width = w;
    d->machine.height = h;
}

static void st_machine(parser_t *p, token_t *tk, unsigned n)
{
    run_desc_t *d = p->d;
    const token_t *kw = &tk[0];
    char err[256];
    if (n != 2) {
        error_at(p, kw->col, "'machine' wants one file name");
        return;
    }
    char *path = resolve(p, &tk[1]);
    if (path == NULL || emu_machine_load(&d->machine, path, err, sizeof err) != 0)
        error_at(p, tk[1].col, "%s", path ? err : "out of memory");
    free(path);
}

static void st_set(parser_t *p, token_t *tk, unsigned n)
{
    run_desc_t *d = p->d;
    const token_t *kw = &tk[0];
    char err[256];
    /* set KEY = VALUE, or set KEY VALUE */
    unsigned v = n == 4 && line_token_is(&tk[2], "=") ? 3 : 2;
    if (n != v + 1) {
        error_at(p, kw->col, "'set' wants KEY = VALUE");
        return;
    }
    char *key = tok_dup(&tk[1]), *value = tok_dup(&tk[v]);
    if (key && value && emu_machine_set(&d->machine, key, value, err, sizeof err) != 0)
        error_at(p, tk[1].col, "%s", err);
    free(key);
    free(value);
}

static void st_define(parser_t *p, token_t *tk, unsigned n)
{
    run_desc_t *d = p->d;
    const token_t *kw = &tk[0];
    if (n != 2 || memchr(tk[1].text, '=', tk[1].len) == NULL) {
        error_at(p, kw->col, "'define' wants NAME=VALUE (no spaces)");
        return;
    }
    add_list(p, d->defines, &d->ndefines, &tk[1], false);
}

static void st_include(parser_t *p, token_t *tk, unsigned n)
{
    run_desc_t *d = p->d;
    const token_t *kw = &tk[0];
    if (n != 2) {
        error_at(p, kw->col, "'include' wants one folder");
        return;
    }
    add_list(p, d->includes, &d->nincludes, &tk[1], true);
}

static void st_program(parser_t *p, token_t *tk, unsigned n)
{
    run_desc_t *d = p->d;
    const token_t *kw = &tk[0];
    if (n != 3) {
        error_at(p, kw->col, "'program' wants NAME PATH");
        return;
    }
    if (find_program(d, &tk[1]) >= 0) {
        error_at(p, tk[1].col, "program '%.*s' is already defined", (int)tk[1].len, tk[1].text);
        return;
    }
    run_program_t *grown = realloc(d->programs, sizeof *grown * (d->nprograms + 1));
    if (grown == NULL)
        return;
    d->programs = grown;
    d->programs[d->nprograms++] = (run_program_t){tok_dup(&tk[1]), resolve(p, &tk[2])};
    check_readable(p, &tk[2], d->programs[d->nprograms - 1].path);
}

static void st_cells(parser_t *p, token_t *tk, unsigned n)
{
    run_desc_t *d = p->d;
    const token_t *kw = &tk[0];
    if (n < 3) {
        error_at(p, kw->col, "'cells' wants SPEC PROGRAM [ARG...]");
        return;
    }
    run_rule_t r;
    if (!parse_cells(p, &tk[1], &r))
        return;
    int prog = find_program(d, &tk[2]);
    if (prog < 0) {
        error_at(p, tk[2].col, "no program named '%.*s' (define it with 'program NAME PATH' first)", (int)tk[2].len,
                 tk[2].text);
        return;
    }
    r.program = (unsigned)prog;
    if (n - 3 > RUN_DESC_MAX_ARGS) {
        error_at(p, tk[3 + RUN_DESC_MAX_ARGS].col, "at most %d arguments (a0..a7)", RUN_DESC_MAX_ARGS);
        return;
    }
    r.nargs = n - 3;
    for (unsigned i = 0; i < r.nargs; i++)
        if (!parse_arg(p, &tk[3 + i], &r.args[i]))
            return;
    run_rule_t *grown = realloc(d->rules, sizeof *grown * (d->nrules + 1));
    if (grown == NULL)
        return;
    d->rules = grown;
    d->rules[d->nrules++] = r;
}

static void st_celldata(parser_t *p, token_t *tk, unsigned n)
{
    run_desc_t *d = p->d;
    const token_t *kw = &tk[0];
    uint64_t addr;
    if (n != 4 || !line_token_is(&tk[2], "at") || !parse_u64(&tk[3], &addr) || addr > 0xffffffffull || addr % 4 != 0) {
        error_at(p, kw->col, "'%.*s' wants FILE at ADDRESS (a multiple of 4)", (int)kw->len, kw->text);
        return;
    }
    if (d->ncelldata == RUN_DESC_MAX_LIST) {
        error_at(p, kw->col, "too many 'celldata' and 'route' lines");
        return;
    }
    d->celldata_addr[d->ncelldata] = (uint32_t)addr;
    d->celldata_routed[d->ncelldata] = line_token_is(kw, "route");
    d->celldata_line[d->ncelldata] = p->line;
    d->celldata[d->ncelldata++] = resolve(p, &tk[1]);
    check_readable(p, &tk[1], d->celldata[d->ncelldata - 1]);
}

static void st_max_cycles(parser_t *p, token_t *tk, unsigned n)
{
    run_desc_t *d = p->d;
    const token_t *kw = &tk[0];
    uint64_t v;
    bool threads = line_token_is(kw, "threads");
    if (threads && n == 2 && line_token_is(&tk[1], "auto")) {
        d->threads = 1;
        d->threads_auto = true;
        return;
    }
    if (n != 2 || !parse_u64(&tk[1], &v) || v == 0 || (threads && v > 256)) {
        error_at(p, n > 1 ? tk[1].col : kw->col, "'%.*s' wants a positive number%s", (int)kw->len, kw->text,
                 threads ? " (up to 256) or auto" : "");
        return;
    }
    if (threads) {
        d->threads = (unsigned)v;
        d->threads_auto = false;
    } else
        d->max_cycles = v;
}

/* The statements of a run description, in the order docs/run.md lists them. */
static const struct {
    const char *keyword;
    void (*parse)(parser_t *p, token_t *tk, unsigned n);
} statements[] = {
    {"array", st_array},
    {"machine", st_machine},
    {"set", st_set},
    {"define", st_define},
    {"include", st_include},
    {"program", st_program},
    {"cells", st_cells},
    {"celldata", st_celldata},
    {"route", st_celldata},
    {"max_cycles", st_max_cycles},
    {"threads", st_max_cycles},
};

static void statement(parser_t *p, token_t *tk, unsigned n)
{
    size_t count = sizeof statements / sizeof statements[0];
    for (size_t i = 0; i < count; i++)
        if (line_token_is(&tk[0], statements[i].keyword)) {
            statements[i].parse(p, tk, n);
            return;
        }
    char known[256] = "";
    for (size_t i = 0; i < count; i++)
        snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s", i ? ", " : "", statements[i].keyword);
    error_at(p, tk[0].col, "unknown statement '%.*s' (%s)", (int)tk[0].len, tk[0].text, known);
}

int run_desc_parse_string(const char *name, const char *text, size_t len, const emu_machine_t *base, run_desc_t *d,
                          FILE *errors)
{
    memset(d, 0, sizeof *d);
    d->path = strdup(name);
    d->machine = *base;
    d->max_cycles = 1000000000ull;
    d->threads = 1;
    char *name_copy = strdup(name);
    parser_t p = {name, name_copy ? strdup(dirname(name_copy)) : NULL, d, errors, 0, 0};
    free(name_copy);

    size_t at = 0;
    line_tokens_t words = {NULL, 0, 0};
    while (at < len) {
        size_t end = at;
        while (end < len && text[end] != '\n')
            end++;
        p.line++;
        unsigned col = 1;
        line_status_t st = line_split(text + at, end - at, &words, &col);
        if (st == LINE_CONTROL_CHAR)
            error_at(&p, col, "unexpected control character 0x%02x", (unsigned char)text[at + col - 1]);
        else if (st == LINE_NO_MEMORY)
            error_at(&p, 1, "out of memory");
        else if (words.n > MAX_TOKENS)
            error_at(&p, words.v[MAX_TOKENS].col, "too many words on one line");
        else if (words.n > 0)
            statement(&p, words.v, (unsigned)words.n);
        at = end + 1;
    }
    if (p.nerrors == 0 && d->nrules == 0) {
        p.line = p.line ? p.line : 1;
        error_at(&p, 1, "no 'cells' line: nothing would run");
    }
    if (p.nerrors > MAX_ERRORS && errors != NULL)
        fprintf(errors, "%s: %u more errors not shown\n", name, p.nerrors - MAX_ERRORS);
    free(p.dir);
    line_tokens_free(&words);
    if (p.nerrors == 0)
        return 0;
    run_desc_free(d); /* a description with errors is not used: the caller owes nothing */
    return -1;
}

int run_desc_parse_file(const char *path, const emu_machine_t *base, run_desc_t *out, FILE *errors)
{
    uint8_t *text;
    size_t len;
    char err[512];
    if (file_read_max(path, FILE_MAX_TEXT, &text, &len, err, sizeof err) != 0) {
        memset(out, 0, sizeof *out);
        if (errors != NULL)
            fprintf(errors, "%s\n", err);
        return -1;
    }
    int rc = run_desc_parse_string(path, text != NULL ? (const char *)text : "", len, base, out, errors);
    free(text);
    return rc;
}

bool run_desc_is_path(const char *path)
{
    size_t n = strlen(path);
    return n > 4 && strcmp(path + n - 4, ".run") == 0;
}

size_t run_desc_inputs(const run_desc_t *d, const char **out, size_t cap)
{
    size_t n = 0;
    if (d->path != NULL && n < cap)
        out[n++] = d->path;
    for (unsigned i = 0; i < d->nprograms && n < cap; i++)
        out[n++] = d->programs[i].path;
    for (size_t i = 0; i < d->ncelldata && n < cap; i++)
        out[n++] = d->celldata[i];
    return n;
}

void run_desc_free(run_desc_t *d)
{
    free(d->path);
    for (size_t i = 0; i < d->ndefines; i++)
        free(d->defines[i]);
    for (size_t i = 0; i < d->nincludes; i++)
        free(d->includes[i]);
    for (size_t i = 0; i < d->ncelldata; i++) {
        free(d->celldata[i]);
        free(d->celldata_phase_clocks[i]);
    }
    for (unsigned i = 0; i < d->nprograms; i++) {
        free(d->programs[i].name);
        free(d->programs[i].path);
    }
    free(d->programs);
    free(d->rules);
    memset(d, 0, sizeof *d);
}

int run_desc_single(run_desc_t *d, const char *program_path, const emu_machine_t *m, const uint32_t *args,
                    unsigned nargs)
{
    memset(d, 0, sizeof *d);
    d->path = strdup(program_path);
    d->machine = *m;
    d->max_cycles = 1000000000ull;
    d->threads = 1;
    d->programs = calloc(1, sizeof *d->programs);
    d->rules = calloc(1, sizeof *d->rules);
    if (d->path == NULL || d->programs == NULL || d->rules == NULL)
        return -1;
    d->programs[0] = (run_program_t){strdup("main"), strdup(program_path)};
    d->nprograms = 1;
    run_rule_t *r = &d->rules[0];
    *r = (run_rule_t){0, m->width - 1, 0, m->height - 1, 0, {{0, 0}}, nargs > 8 ? 8 : nargs, 0};
    for (unsigned i = 0; i < r->nargs; i++)
        r->args[i] = (run_arg_t){RUN_ARG_NUMBER, args[i]};
    d->nrules = 1;
    return 0;
}

static uint32_t arg_value(const run_arg_t *a, unsigned x, unsigned y, const emu_machine_t *m)
{
    switch (a->kind) {
    case RUN_ARG_X: return x;
    case RUN_ARG_Y: return y;
    case RUN_ARG_ID: return y * m->width + x;
    case RUN_ARG_W: return m->width;
    case RUN_ARG_H: return m->height;
    default: return a->value;
    }
}

int run_parse_args(const char *s, uint32_t *args, unsigned *nargs)
{
    *nargs = 0;
    for (const char *p = s;;) {
        bool negative = *p == '-';
        uint64_t v;
        size_t n = emu_parse_count_prefix(negative ? p + 1 : p, &v);
        const char *end = (negative ? p + 1 : p) + n;
        if (n == 0 || *nargs == RUN_DESC_MAX_ARGS || (*end != ',' && *end != '\0') ||
            (negative ? v > 0x80000000ull : v > UINT32_MAX)) {
            *nargs = 0;
            return -1;
        }
        args[(*nargs)++] = negative ? (uint32_t)(0 - v) : (uint32_t)v;
        if (*end == '\0')
            return 0;
        p = end + 1;
    }
}

int run_machine_of_options(emu_machine_t *m, bool single_program, const char *machine_file, const char *const *sets,
                           unsigned nsets, const char *who)
{
    char err[512];
    emu_machine_defaults(m);
    if (single_program)
        m->width = m->height = 1;
    if (machine_file != NULL && emu_machine_load(m, machine_file, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    for (unsigned i = 0; i < nsets; i++) {
        char key[128];
        const char *eq = strchr(sets[i], '=');
        if (eq == NULL || (size_t)(eq - sets[i]) >= sizeof key) {
            fprintf(stderr, "iwarp %s: --set wants KEY=VALUE, not '%s'\n", who, sets[i]);
            return -1;
        }
        snprintf(key, sizeof key, "%.*s", (int)(eq - sets[i]), sets[i]);
        if (emu_machine_set(m, key, eq + 1, err, sizeof err) != 0) {
            fprintf(stderr, "iwarp %s: --set %s: %s\n", who, sets[i], err);
            return -1;
        }
    }
    if (emu_machine_check(m, err, sizeof err) != 0) {
        fprintf(stderr, "iwarp %s: %s\n", who, err);
        return -1;
    }
    return 0;
}

int run_desc_build(run_desc_t *d, const char *const *extra_defines, size_t nextra_defines,
                   const char *const *extra_includes, size_t nextra_includes, emu_array_t **out)
{
    char err[512];
    *out = NULL;
    emu_array_t *a;
    if (emu_array_create(&a, &d->machine, err, sizeof err) != 0) {
        fprintf(stderr, "%s: %s\n", d->path, err);
        return -1;
    }
    emu_array_set_threads(a, d->threads);
    const char *defines[2 * RUN_DESC_MAX_LIST], *includes[2 * RUN_DESC_MAX_LIST];
    size_t nd = 0, ni = 0;
    for (size_t i = 0; i < nextra_defines && nd < RUN_DESC_MAX_LIST; i++)
        defines[nd++] = extra_defines[i];
    for (size_t i = 0; i < d->ndefines; i++)
        defines[nd++] = d->defines[i];
    for (size_t i = 0; i < nextra_includes && ni < RUN_DESC_MAX_LIST; i++)
        includes[ni++] = extra_includes[i];
    for (size_t i = 0; i < d->nincludes; i++)
        includes[ni++] = d->includes[i];
    program_source_t src = {defines, nd, includes, ni, d->machine.text_base};

    const emu_program_t **progs = calloc(d->nprograms ? d->nprograms : 1, sizeof *progs);
    int rc = progs != NULL ? 0 : -1;
    /* Only the programs some rule uses are assembled; each once, shared by its cells. */
    for (unsigned r = 0; rc == 0 && r < d->nrules; r++) {
        unsigned pi = d->rules[r].program;
        if (progs[pi] != NULL)
            continue;
        isa_image_t image;
        if (program_load(d->programs[pi].path, &src, &image) != 0) {
            rc = -1;
            break;
        }
        progs[pi] = emu_array_add_program(a, &image, err, sizeof err);
        if (progs[pi] == NULL) {
            fprintf(stderr, "%s: %s\n", d->programs[pi].path, err);
            rc = -1;
        }
    }
    for (unsigned y = 0; rc == 0 && y < d->machine.height; y++)
        for (unsigned x = 0; rc == 0 && x < d->machine.width; x++) {
            const run_rule_t *rule = NULL;
            for (unsigned r = 0; r < d->nrules; r++) {
                const run_rule_t *c = &d->rules[r];
                if (x >= c->x0 && x <= c->x1 && y >= c->y0 && y <= c->y1)
                    rule = c;
            }
            if (rule == NULL)
                continue;
            uint32_t args[RUN_DESC_MAX_ARGS];
            for (unsigned i = 0; i < rule->nargs; i++)
                args[i] = arg_value(&rule->args[i], x, y, &d->machine);
            if (emu_array_load(a, x, y, progs[rule->program], args, rule->nargs, err, sizeof err) != 0) {
                fprintf(stderr, "%s:%u: %s\n", d->path, rule->line, err);
                rc = -1;
            }
        }
    free(progs);
    /* After the programs: loading an image clears the cell's memory. */
    for (size_t i = 0; rc == 0 && i < d->ncelldata; i++) {
        celldata_t cd;
        route_phase_lengths_t lengths = {0};
        free(d->celldata_phase_clocks[i]); /* an earlier build's */
        d->celldata_phase_clocks[i] = NULL;
        d->celldata_nphases[i] = 0;
        /* The line of the run description first, then the file's own error (which starts with its path). */
        if (d->celldata_routed[i] ? route_file_tables(d->celldata[i], &cd, &lengths, err, sizeof err) != 0
                                  : celldata_read(&cd, d->celldata[i], err, sizeof err) != 0) {
            fprintf(stderr, "%s:%u: %s\n", d->path, d->celldata_line[i], err);
            rc = -1;
            continue;
        }
        d->celldata_phase_clocks[i] = lengths.clocks;
        d->celldata_nphases[i] = lengths.n;
        if (celldata_load(&cd, a, d->celldata_addr[i], err, sizeof err) != 0) {
            fprintf(stderr, "%s:%u: %s: %s\n", d->path, d->celldata_line[i], d->celldata[i], err);
            rc = -1;
        }
        celldata_free(&cd);
    }
    if (rc != 0) {
        emu_array_free(a);
        return -1;
    }
    *out = a;
    return 0;
}
