/* What gdb users reach for: `list` (source around the pc or a function), `x/FMT` (memory as words, numbers,
 * instructions or a string) and `display` (expressions shown at every stop). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "dbg.h"

/* The file and line of a code address of the cell's program, or false. */
static bool code_line(const emu_program_t *p, uint32_t addr, const char **file, unsigned *line)
{
    const isa_line_t *l = isa_image_line(&p->image, addr);
    if (l == NULL || l->file >= p->image.nfiles)
        return false;
    *file = p->image.files[l->file];
    *line = l->line;
    return true;
}

int dbg_cmd_list(dbg_t *d, char *args)
{
    unsigned cell;
    const emu_program_t *p = dbg_cell_program(d, &args, &cell);
    if (p == NULL)
        return -1;
    const ca_t *ca = dbg_ca(d, cell);
    char *text = dbg_trim(args);
    uint32_t addr = ca->s.pc;
    if (*text != '\0') {
        char err[256];
        addr = dbg_resolve_code(d, text, cell, err, sizeof err);
        if (addr == DBG_NO_ADDR)
            return dbg_error(d, "%s", err);
    }
    const char *file;
    unsigned line;
    if (!code_line(p, addr, &file, &line))
        return dbg_error(d, "no source line for 0x%x", addr);
    dbg_source_t src = {NULL, NULL, 0};
    unsigned first = line > 5 ? line - 5 : 1, shown = 0, here = 0;
    const char *cur_file;
    if (!ca_done(ca) && code_line(p, ca->s.pc, &cur_file, &here) && strcmp(cur_file, file) != 0)
        here = 0;
    for (unsigned l = first; l < first + 10; l++) {
        const char *t = dbg_source_line(&src, file, l);
        if (t == NULL)
            break;
        dbg_printf(d, "%s%5u  %s\n", l == here ? "=>" : "  ", l, t);
        shown++;
    }
    dbg_source_free(&src);
    if (shown == 0)
        return dbg_error(d, "cannot read %s", file);
    return 0;
}

/* x/NF ADDR: N units in format F (x hex words, d signed words, u unsigned, i instructions, s a string). */
int dbg_cmd_examine(dbg_t *d, char *args)
{
    char *text = dbg_trim(args);
    uint64_t n = 1;
    char fmt = 'x';
    if (*text == '/') {
        text++;
        char *end = text;
        if (isdigit((unsigned char)*end)) {
            n = strtoull(end, &end, 10);
        }
        if (*end != '\0' && !isspace((unsigned char)*end))
            fmt = *end++;
        if (*end != '\0' && !isspace((unsigned char)*end))
            return dbg_error(d, "x/NF: N a count, F one of x d u i s (x/8x buffer)");
        text = end;
    }
    if (n == 0 || n > 4096 || strchr("xdwuis", fmt) == NULL)
        return dbg_error(d, "x/NF: N is 1..4096, F one of x d u i s (x/8x buffer)");
    unsigned cell;
    if (dbg_cell_arg(d, &text, &cell) != 0)
        return -1;
    text = dbg_trim(text);
    if (*text == '\0')
        return dbg_error(d, "usage: x/NF [X,Y] ADDRESS");
    char count[32];
    snprintf(count, sizeof count, " %llu", (unsigned long long)n);
    if (fmt == 'i' || fmt == 'x' || fmt == 'w') {
        /* the listing and the hex dump exist: `dis ADDR N`, `mem ADDR N` */
        size_t len = strlen(text) + 64;
        char *line = malloc(len);
        if (line == NULL)
            return dbg_error(d, "out of memory");
        snprintf(line, len, "%u,%u %s%s", dbg_cell_x(d, cell), dbg_cell_y(d, cell), text, count);
        int rc = fmt == 'i' ? dbg_cmd_dis(d, line) : dbg_cmd_mem(d, line);
        free(line);
        return rc;
    }
    int64_t addr;
    if (dbg_eval_text(d, text, cell, &addr) != 0)
        return -1;
    const ca_t *ca = dbg_ca(d, cell);
    uint32_t a = (uint32_t)addr;
    if (fmt == 's') {
        char s[512];
        size_t k = 0;
        for (; k + 1 < sizeof s && (uint64_t)a + k < ca->mem_bytes; k++) {
            uint8_t b;
            ca_mem_read(ca, a + (uint32_t)k, &b, 1);
            if (b == 0)
                break;
            s[k] = isprint(b) ? (char)b : '.';
        }
        s[k] = '\0';
        char where[160];
        dbg_addr_text(d, cell, a, where, sizeof where);
        dbg_printf(d, "%-24s \"%s\"\n", where, s);
        return 0;
    }
    a &= ~3u;
    if ((uint64_t)a + 4 * n > ca->mem_bytes)
        return dbg_error(d, "0x%x..0x%llx is not inside the memory of (%u,%u)", a, (unsigned long long)a + 4 * n - 1,
                         dbg_cell_x(d, cell), dbg_cell_y(d, cell));
    for (uint64_t i = 0; i < n; i++, a += 4) {
        uint32_t w;
        ca_mem_read(ca, a, &w, 4);
        if (i % 4 == 0) {
            char where[160];
            dbg_addr_text(d, cell, a, where, sizeof where);
            dbg_printf(d, "%-24s", where);
        }
        if (fmt == 'd')
            dbg_printf(d, " %11d", (int32_t)w);
        else
            dbg_printf(d, " %10u", w);
        if (i % 4 == 3 || i + 1 == n)
            dbg_printf(d, "\n");
    }
    return 0;
}

int dbg_cmd_display(dbg_t *d, char *args)
{
    char *text = dbg_trim(args);
    if (*text == '\0') {
        dbg_print_displays(d);
        return 0;
    }
    if (d->ndisplays == sizeof d->displays / sizeof d->displays[0])
        return dbg_error(d, "at most %zu displays (undisplay N removes one)",
                         sizeof d->displays / sizeof d->displays[0]);
    int64_t v;
    if (dbg_eval_text(d, text, d->sel, &v) != 0) /* refused now rather than at every stop */
        return -1;
    char *copy = strdup(text);
    if (copy == NULL)
        return dbg_error(d, "out of memory");
    d->displays[d->ndisplays++] = copy;
    dbg_printf(d, "%u: %s = %lld\n", d->ndisplays, text, (long long)v);
    return 0;
}

int dbg_cmd_undisplay(dbg_t *d, char *args)
{
    char *text = dbg_trim(args);
    if (*text == '\0') {
        for (unsigned i = 0; i < d->ndisplays; i++)
            free(d->displays[i]);
        d->ndisplays = 0;
        return 0;
    }
    uint64_t k;
    if (dbg_parse_u64(text, &k) != 0 || k == 0 || k > d->ndisplays)
        return dbg_error(d, "undisplay N: N is 1..%u (display lists them)", d->ndisplays);
    free(d->displays[k - 1]);
    memmove(&d->displays[k - 1], &d->displays[k], (d->ndisplays - k) * sizeof d->displays[0]);
    d->ndisplays--;
    return 0;
}

void dbg_print_displays(dbg_t *d)
{
    for (unsigned i = 0; i < d->ndisplays; i++) {
        int64_t v;
        char err[256];
        expr_t *e = expr_parse(d->displays[i], err, sizeof err);
        if (e != NULL && dbg_eval(d, e, d->sel, &v, err, sizeof err) == 0)
            dbg_printf(d, "%u: %s = %lld\n", i + 1, d->displays[i], (long long)v);
        else
            dbg_printf(d, "%u: %s: %s\n", i + 1, d->displays[i], err);
        expr_free(e);
    }
}
