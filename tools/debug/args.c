/* Arguments of commands: words, numbers, cell sets (the `cells` syntax of run descriptions), code locations. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "dbg.h"

char *dbg_trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}

char *dbg_word(char **p)
{
    char *s = *p;
    while (isspace((unsigned char)*s))
        s++;
    if (*s == '\0') {
        *p = s;
        return NULL;
    }
    char *w = s;
    while (*s && !isspace((unsigned char)*s))
        s++;
    if (*s)
        *s++ = '\0';
    *p = s;
    return w;
}

int dbg_parse_u64(const char *s, uint64_t *v)
{
    return s != NULL ? emu_parse_count(s, v) : -1;
}

/* One side of a cell spec: N, N-M or *, within 0..max-1. */
static int parse_range(const char *s, const char *end, unsigned max, unsigned *lo, unsigned *hi)
{
    if (end - s == 1 && *s == '*') {
        *lo = 0;
        *hi = max - 1;
        return 0;
    }
    char *e;
    if (!isdigit((unsigned char)*s))
        return -1;
    unsigned long a = strtoul(s, &e, 10), b = a;
    if (e < end && *e == '-') {
        if (!isdigit((unsigned char)e[1]))
            return -1;
        b = strtoul(e + 1, &e, 10);
    }
    if (e != end || a > b || b >= max)
        return -1;
    *lo = (unsigned)a;
    *hi = (unsigned)b;
    return 0;
}

int dbg_parse_cells(dbg_t *d, const char *s, dbg_cells_t *out)
{
    memset(out, 0, sizeof *out);
    if (strcmp(s, "all") == 0 || strcmp(s, "*") == 0) {
        for (unsigned i = 0; i < d->ncells; i++)
            dbg_cells_add(out, i);
        out->all = true;
        return 0;
    }
    const char *p = s;
    size_t n = strlen(s);
    if (n >= 2 && s[0] == '(' && s[n - 1] == ')') { /* (3,2) as well as 3,2 */
        p = s + 1;
        n -= 2;
    }
    const char *comma = memchr(p, ',', n);
    unsigned x0, x1, y0, y1;
    if (comma == NULL || parse_range(p, comma, d->w, &x0, &x1) != 0 ||
        parse_range(comma + 1, p + n, d->h, &y0, &y1) != 0)
        return dbg_error(d, "'%s' is not a cell set of this %ux%u array: X,Y with numbers, ranges N-M or *, or all", s,
                         d->w, d->h);
    for (unsigned y = y0; y <= y1; y++)
        for (unsigned x = x0; x <= x1; x++)
            dbg_cells_add(out, y * d->w + x);
    out->all = x0 == 0 && y0 == 0 && x1 == d->w - 1 && y1 == d->h - 1;
    return 0;
}

int dbg_parse_cell(dbg_t *d, const char *s)
{
    dbg_cells_t c;
    if (dbg_parse_cells(d, s, &c) != 0)
        return -1;
    int found = -1;
    for (unsigned i = 0; i < d->ncells; i++)
        if (dbg_cells_has(&c, i)) {
            if (found >= 0)
                return dbg_error(d, "'%s' names several cells; one cell is X,Y", s);
            found = (int)i;
        }
    return found;
}

/* An optional cell "X,Y" at the start of args (a word with a comma); without it, the selected cell. */
int dbg_cell_arg(dbg_t *d, char **args, unsigned *cell)
{
    *cell = d->sel;
    char *s = *args;
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strcspn(s, " \t");
    if (n == 0 || memchr(s, ',', n) == NULL)
        return 0;
    char *w = dbg_word(args);
    int c = dbg_parse_cell(d, w);
    if (c < 0)
        return -1;
    *cell = (unsigned)c;
    return 0;
}

int dbg_take_cells(dbg_t *d, char *args, dbg_cells_t *cells)
{
    char *at = strrchr(args, '@');
    if (at == NULL)
        return 0;
    char *spec = at + 1;
    while (isspace((unsigned char)*spec))
        spec++;
    char *end = spec;
    while (*end && !isspace((unsigned char)*end))
        end++;
    char *rest = dbg_trim(end);
    if (*rest != '\0')
        return dbg_error(d, "unexpected '%s' after the cells", rest);
    *end = '\0';
    int rc = dbg_parse_cells(d, spec, cells);
    *at = '\0';
    return rc == 0 ? 1 : -1;
}

void dbg_take_cond(char *args, char **cond)
{
    *cond = NULL;
    for (char *p = args; (p = strstr(p, "if")) != NULL; p += 2) {
        bool starts = p == args || isspace((unsigned char)p[-1]);
        bool ends = p[2] == '\0' || isspace((unsigned char)p[2]);
        if (starts && ends) {
            *cond = dbg_trim(p + 2);
            *p = '\0';
            return;
        }
    }
}

void dbg_cells_text(const dbg_t *d, const dbg_cells_t *s, char *buf, size_t cap)
{
    unsigned n = 0, x0 = d->w, x1 = 0, y0 = d->h, y1 = 0;
    for (unsigned i = 0; i < d->ncells; i++)
        if (dbg_cells_has(s, i)) {
            unsigned x = dbg_cell_x(d, i), y = dbg_cell_y(d, i);
            n++;
            x0 = x < x0 ? x : x0;
            x1 = x > x1 ? x : x1;
            y0 = y < y0 ? y : y0;
            y1 = y > y1 ? y : y1;
        }
    if (n == d->ncells && n > 1)
        snprintf(buf, cap, "all cells");
    else if (n == 1)
        snprintf(buf, cap, "(%u,%u)", x0, y0);
    else if (n == 0)
        snprintf(buf, cap, "no cell");
    else if (n == (x1 - x0 + 1) * (y1 - y0 + 1)) /* a rectangle: write it as it would be typed */
        snprintf(buf, cap, "cells %u-%u,%u-%u", x0, x1, y0, y1);
    else
        snprintf(buf, cap, "%u cells", n);
}

int dbg_eval(dbg_t *d, expr_t *e, unsigned cell, int64_t *v, char *err, size_t errlen)
{
    expr_env_t env = {d->a, dbg_cell_x(d, cell), dbg_cell_y(d, cell), NULL};
    unsigned level = cell == d->sel ? dbg_selected_frame(d) : 0;
    if (level == 0)
        return expr_eval(e, &env, v, err, errlen);
    /* `up` or `frame N` chose a caller: its pc and registers, unwound afresh (nothing has run since). */
    dbg_frame_t *f = malloc(sizeof *f * (size_t)(level + 1));
    if (f == NULL)
        return snprintf(err, errlen, "out of memory"), -1;
    bool more;
    char why[160];
    if (dbg_unwind(d, cell, f, level + 1, &more, why, sizeof why) == level + 1)
        env.frame = &f[level].r;
    int rc = expr_eval(e, &env, v, err, errlen);
    free(f);
    return rc;
}

int dbg_eval_text(dbg_t *d, const char *text, unsigned cell, int64_t *v)
{
    char err[256];
    expr_t *e = expr_parse(text, err, sizeof err);
    if (e == NULL)
        return dbg_error(d, "%s", err);
    int rc = dbg_eval(d, e, cell, v, err, sizeof err);
    expr_free(e);
    if (rc != 0)
        return dbg_error(d, "%s", err);
    return 0;
}

static bool same_file(const char *path, const char *name)
{
    const char *slash = strrchr(path, '/');
    return strcmp(path, name) == 0 || strcmp(slash ? slash + 1 : path, name) == 0;
}

/* file.s:LINE: the first instruction of that line, or of the next line that has code (as gdb does). */
static uint32_t resolve_line(const emu_program_t *p, const char *file, unsigned long line, char *err, size_t errlen)
{
    const isa_image_t *img = &p->image;
    const isa_line_t *best = NULL;
    bool file_known = false;
    for (size_t i = 0; i < img->nlines; i++) {
        const isa_line_t *l = &img->lines[i];
        if (l->file >= img->nfiles || !same_file(img->files[l->file], file))
            continue;
        file_known = true;
        if (l->line >= line &&
            (best == NULL || l->line < best->line || (l->line == best->line && l->addr < best->addr)))
            best = l;
    }
    if (best == NULL) {
        if (file_known)
            snprintf(err, errlen, "no code at or after %s:%lu", file, line);
        else
            snprintf(err, errlen, "no source file '%s' in the program", file);
        return DBG_NO_ADDR;
    }
    return best->addr;
}

uint32_t dbg_resolve_code(dbg_t *d, const char *loc, unsigned cell, char *err, size_t errlen)
{
    const ca_t *ca = dbg_ca(d, cell);
    if (ca->prog == NULL) {
        snprintf(err, errlen, "(%u,%u) runs no program", dbg_cell_x(d, cell), dbg_cell_y(d, cell));
        return DBG_NO_ADDR;
    }
    uint32_t addr;
    const char *colon = strrchr(loc, ':');
    if (colon != NULL && colon != loc && colon[1] != '\0' && strspn(colon + 1, "0123456789") == strlen(colon + 1)) {
        char file[256];
        snprintf(file, sizeof file, "%.*s", (int)(colon - loc), loc);
        addr = resolve_line(ca->prog, file, strtoul(colon + 1, NULL, 10), err, errlen);
        if (addr == DBG_NO_ADDR)
            return addr;
    } else {
        expr_t *e = expr_parse(*loc == '*' ? loc + 1 : loc, err, errlen);
        if (e == NULL)
            return DBG_NO_ADDR;
        /* Registers and memory in a location are the selected cell's (break *ra); symbols are looked up in the
         * program of the cell, so a cell running another program is its own context. */
        unsigned ctx = dbg_ca(d, d->sel)->prog == ca->prog ? d->sel : cell;
        int64_t v;
        int rc = dbg_eval(d, e, ctx, &v, err, errlen);
        expr_free(e);
        if (rc != 0)
            return DBG_NO_ADDR;
        addr = (uint32_t)v;
    }
    if (emu_program_bundle(ca->prog, addr) == NULL) {
        snprintf(err, errlen, "no instruction starts at 0x%x in the program of (%u,%u)", addr, dbg_cell_x(d, cell),
                 dbg_cell_y(d, cell));
        return DBG_NO_ADDR;
    }
    return addr;
}
