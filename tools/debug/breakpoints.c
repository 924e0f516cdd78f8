/* Stop points in general, and breakpoints: a PC or symbol on one cell, a set of cells or all, with conditions
 * and ignore counts. A breakpoint fires before the clock at which a cell of its set issues the bundle there. */
#include <stdlib.h>
#include <string.h>

#include "dbg.h"

dbg_point_t *dbg_point_new(dbg_t *d, dbg_point_kind_t kind, const char *text)
{
    dbg_point_t *p = calloc(1, sizeof *p);
    dbg_point_t **grown = realloc(d->points, sizeof *grown * (d->npoints + 1));
    if (p == NULL || grown == NULL) {
        free(p);
        if (grown != NULL)
            d->points = grown;
        return NULL;
    }
    d->points = grown;
    p->kind = kind;
    p->enabled = true;
    p->text = strdup(text);
    p->old = calloc(d->ncells, sizeof *p->old);
    p->have = calloc(d->ncells, sizeof *p->have);
    p->gate = -1;
    p->event_arg = -1;
    if (kind == DBG_BREAK)
        p->addr = malloc(sizeof *p->addr * d->ncells);
    if (p->text == NULL || p->old == NULL || p->have == NULL || (kind == DBG_BREAK && p->addr == NULL)) {
        dbg_point_free(p);
        return NULL;
    }
    p->id = d->next_id++;
    d->points[d->npoints++] = p;
    return p;
}

void dbg_point_free(dbg_point_t *p)
{
    if (p == NULL)
        return;
    free(p->text);
    free(p->cond_text);
    expr_free(p->cond);
    expr_free(p->expr);
    free(p->addr);
    free(p->old);
    free(p->have);
    free(p);
}

dbg_point_t *dbg_point_find(dbg_t *d, unsigned id)
{
    for (unsigned i = 0; i < d->npoints; i++)
        if (d->points[i]->id == id)
            return d->points[i];
    return NULL;
}

void dbg_point_delete(dbg_t *d, unsigned id)
{
    for (unsigned i = 0; i < d->npoints; i++)
        if (d->points[i]->id == id) {
            dbg_point_free(d->points[i]);
            memmove(&d->points[i], &d->points[i + 1], sizeof *d->points * (d->npoints - i - 1));
            d->npoints--;
            return;
        }
}

bool dbg_has_breaks(const dbg_t *d)
{
    for (unsigned i = 0; i < d->npoints; i++)
        if (d->points[i]->enabled && d->points[i]->kind == DBG_BREAK)
            return true;
    return false;
}

bool dbg_point_hit(dbg_t *d, dbg_point_t *p, unsigned cell, bool *cond_failed)
{
    *cond_failed = false;
    if (p->cond != NULL) {
        int64_t v;
        char err[256];
        if (dbg_eval(d, p->cond, cell, &v, err, sizeof err) != 0) {
            /* Stop and say so: a condition that cannot be evaluated is a mistake to show, not to hide. */
            dbg_str_printf(&d->stop_msg, "error in the condition of %u on (%u,%u): %s\n", p->id, dbg_cell_x(d, cell),
                           dbg_cell_y(d, cell), err);
            *cond_failed = true;
            return true;
        }
        if (v == 0)
            return false;
    }
    if (d->goal != NULL && d->goal->replay)
        return true; /* time travel looks for hits; it does not consume ignore counts */
    if (p->ignore > 0) {
        p->ignore--;
        return false;
    }
    p->hits++;
    return true;
}

enum { LISTED_CELLS = 8 };

bool dbg_check_breaks(dbg_t *d, uint64_t clock)
{
    bool any = false;
    for (unsigned k = 0; k < d->npoints; k++) {
        dbg_point_t *p = d->points[k];
        if (!p->enabled || p->kind != DBG_BREAK)
            continue;
        unsigned nhit = 0;
        char cells[LISTED_CELLS * 12 + 32] = "";
        size_t used = 0;
        for (unsigned i = 0; i < d->ncells; i++) {
            if (p->addr[i] == DBG_NO_ADDR)
                continue;
            const ca_t *ca = dbg_ca(d, i);
            if (ca->s.state != CA_RUNNING || ca->s.ready_at > clock || ca->s.pc != p->addr[i])
                continue;
            bool failed;
            if (!dbg_point_hit(d, p, i, &failed))
                continue;
            if (failed)
                d->reason = DBG_STOP_EVAL;
            if (nhit < LISTED_CELLS)
                used += (size_t)snprintf(cells + used, sizeof cells - used, "%s(%u,%u)", nhit ? " " : "",
                                         dbg_cell_x(d, i), dbg_cell_y(d, i));
            if (d->stop_cell < 0)
                d->stop_cell = (int)i;
            nhit++;
        }
        if (nhit == 0)
            continue;
        if (nhit > LISTED_CELLS)
            snprintf(cells + used, sizeof cells - used, " and %u more", nhit - LISTED_CELLS);
        dbg_str_printf(&d->stop_msg, "%s %u hit on %s at clock %llu\n",
                       p->temporary ? "temporary breakpoint" : "breakpoint", p->id, cells, (unsigned long long)clock);
        p->fired = true;
        any = true;
    }
    return any;
}

static const char *kind_name(const dbg_point_t *p)
{
    switch (p->kind) {
    case DBG_BREAK: return p->temporary ? "tbreak" : "breakpoint";
    case DBG_WATCH:
    case DBG_WATCH_CHAN:
    case DBG_WATCH_STALL: return "watchpoint";
    case DBG_CATCH: return "catchpoint";
    }
    return "?";
}

/* "what" of a point: location or expression, and its cells. */
static void point_what(dbg_t *d, const dbg_point_t *p, char *buf, size_t cap)
{
    char cells[64];
    dbg_cells_text(d, &p->cells, cells, sizeof cells);
    if (p->kind != DBG_BREAK) {
        snprintf(buf, cap, "%s on %s", p->text, cells);
        return;
    }
    dbg_cells_t where;
    memset(&where, 0, sizeof where);
    int first = -1;
    for (unsigned i = 0; i < d->ncells; i++)
        if (p->addr[i] != DBG_NO_ADDR) {
            dbg_cells_add(&where, i);
            first = first < 0 ? (int)i : first;
        }
    dbg_cells_text(d, &where, cells, sizeof cells);
    char addr[128] = "", line[96] = "";
    if (first >= 0) {
        dbg_addr_text(d, (unsigned)first, p->addr[first], addr, sizeof addr);
        dbg_line_text(d, (unsigned)first, p->addr[first], line, sizeof line);
    }
    snprintf(buf, cap, "%s%s%s on %s", addr, *line ? " " : "", line, cells);
}

void dbg_print_point(dbg_t *d, const dbg_point_t *p)
{
    char what[256];
    point_what(d, p, what, sizeof what);
    dbg_printf(d, "%s %u: %s\n", kind_name(p), p->id, what);
}

void dbg_info_points(dbg_t *d)
{
    if (d->npoints == 0) {
        dbg_printf(d, "no breakpoints, watchpoints or catchpoints\n");
        return;
    }
    dbg_printf(d, "%-3s %-11s %-4s %5s  %s\n", "id", "type", "on", "hits", "what");
    for (unsigned i = 0; i < d->npoints; i++) {
        const dbg_point_t *p = d->points[i];
        char what[256];
        point_what(d, p, what, sizeof what);
        dbg_printf(d, "%-3u %-11s %-4s %5llu  %s\n", p->id, kind_name(p), p->enabled ? "yes" : "no",
                   (unsigned long long)p->hits, what);
        if (p->cond_text != NULL)
            dbg_printf(d, "%27s if %s\n", "", p->cond_text);
        if (p->ignore > 0)
            dbg_printf(d, "%27s ignore the next %llu hits\n", "", (unsigned long long)p->ignore);
    }
}

int dbg_set_condition(dbg_t *d, dbg_point_t *p, const char *text)
{
    expr_free(p->cond);
    free(p->cond_text);
    p->cond = NULL;
    p->cond_text = NULL;
    if (text == NULL || *text == '\0')
        return 0;
    char err[256];
    p->cond = expr_parse(text, err, sizeof err);
    if (p->cond == NULL)
        return dbg_error(d, "condition: %s", err);
    p->cond_text = strdup(text);
    return 0;
}

int dbg_point_args(dbg_t *d, char *args, bool all_by_default, dbg_cells_t *cells, char **cond)
{
    dbg_take_cond(args, cond);
    int has = dbg_take_cells(d, args, cells);
    if (has < 0)
        return -1;
    if (has == 0 && all_by_default) {
        dbg_parse_cells(d, "all", cells);
    } else if (has == 0) {
        memset(cells, 0, sizeof *cells);
        dbg_cells_add(cells, d->sel);
    }
    return 0;
}

int dbg_point_done(dbg_t *d, dbg_point_t *p, int rc, const char *cond)
{
    if (rc == 0 && cond != NULL)
        rc = dbg_set_condition(d, p, cond);
    if (rc != 0) {
        dbg_point_delete(d, p->id);
        d->next_id--; /* nothing was made: the number is free again */
        return -1;
    }
    dbg_print_point(d, p);
    return 0;
}

static int add_break(dbg_t *d, char *args, bool temporary)
{
    char *cond;
    dbg_cells_t cells;
    /* Code is shared by cells: a breakpoint watches them all by default. */
    if (dbg_point_args(d, args, true, &cells, &cond) != 0)
        return -1;
    char *loc = dbg_trim(args);
    char here[32];
    if (*loc == '\0') { /* no location: the selected cell's pc */
        snprintf(here, sizeof here, "0x%x", dbg_ca(d, d->sel)->s.pc);
        loc = here;
    }
    dbg_point_t *p = dbg_point_new(d, DBG_BREAK, loc);
    if (p == NULL)
        return dbg_error(d, "out of memory");
    p->temporary = temporary;
    p->cells = cells;
    char err[256] = "", first_err[256] = "";
    unsigned found = 0;
    for (unsigned i = 0; i < d->ncells; i++) {
        p->addr[i] = DBG_NO_ADDR;
        if (!dbg_cells_has(&cells, i) || dbg_ca(d, i)->prog == NULL)
            continue;
        p->addr[i] = dbg_resolve_code(d, loc, i, err, sizeof err);
        if (p->addr[i] != DBG_NO_ADDR)
            found++;
        else if (first_err[0] == '\0')
            snprintf(first_err, sizeof first_err, "%s", err);
    }
    int rc = found > 0 ? 0 : dbg_error(d, "%s", first_err[0] ? first_err : "none of these cells runs a program");
    return dbg_point_done(d, p, rc, cond);
}

int dbg_cmd_break(dbg_t *d, char *args)
{
    return add_break(d, args, false);
}
int dbg_cmd_tbreak(dbg_t *d, char *args)
{
    return add_break(d, args, true);
}

/* Point numbers from args, or every point when there are none. Calls fn on each. */
static int for_points(dbg_t *d, char *args, void (*fn)(dbg_t *d, dbg_point_t *p))
{
    char *w = dbg_word(&args);
    if (w == NULL) {
        for (unsigned i = d->npoints; i-- > 0;)
            fn(d, d->points[i]);
        return 0;
    }
    for (; w != NULL; w = dbg_word(&args)) {
        uint64_t id;
        dbg_point_t *p = dbg_parse_u64(w, &id) == 0 && id < UINT32_MAX ? dbg_point_find(d, (unsigned)id) : NULL;
        if (p == NULL)
            return dbg_error(d, "no breakpoint, watchpoint or catchpoint number '%s' (info breakpoints lists them)", w);
        fn(d, p);
    }
    return 0;
}

static void delete_one(dbg_t *d, dbg_point_t *p)
{
    dbg_point_delete(d, p->id);
}
static void enable_one(dbg_t *d, dbg_point_t *p)
{
    (void)d;
    p->enabled = true;
}
static void disable_one(dbg_t *d, dbg_point_t *p)
{
    (void)d;
    p->enabled = false;
}

int dbg_cmd_delete(dbg_t *d, char *args)
{
    return for_points(d, args, delete_one);
}
int dbg_cmd_enable(dbg_t *d, char *args)
{
    return for_points(d, args, enable_one);
}
int dbg_cmd_disable(dbg_t *d, char *args)
{
    return for_points(d, args, disable_one);
}

static dbg_point_t *point_arg(dbg_t *d, char **args, const char *usage)
{
    char *w = dbg_word(args);
    uint64_t id;
    if (w == NULL || dbg_parse_u64(w, &id) != 0 || id >= UINT32_MAX) {
        dbg_error(d, "usage: %s", usage);
        return NULL;
    }
    dbg_point_t *p = dbg_point_find(d, (unsigned)id);
    if (p == NULL)
        dbg_error(d, "no breakpoint, watchpoint or catchpoint number %llu", (unsigned long long)id);
    return p;
}

int dbg_cmd_ignore(dbg_t *d, char *args)
{
    dbg_point_t *p = point_arg(d, &args, "ignore N COUNT");
    if (p == NULL)
        return -1;
    char *w = dbg_word(&args);
    uint64_t n;
    if (w == NULL || dbg_parse_u64(w, &n) != 0 || dbg_word(&args) != NULL)
        return dbg_error(d, "usage: ignore N COUNT");
    p->ignore = n;
    if (n == 1)
        dbg_printf(d, "stop point %u ignores its next hit\n", p->id);
    else
        dbg_printf(d, "stop point %u ignores its next %llu hits\n", p->id, (unsigned long long)n);
    return 0;
}

int dbg_cmd_condition(dbg_t *d, char *args)
{
    dbg_point_t *p = point_arg(d, &args, "condition N [EXPRESSION]");
    if (p == NULL)
        return -1;
    char *text = dbg_trim(args);
    if (dbg_set_condition(d, p, text) != 0)
        return -1;
    if (p->cond == NULL)
        dbg_printf(d, "stop point %u is unconditional\n", p->id);
    else
        dbg_printf(d, "stop point %u stops only if %s\n", p->id, p->cond_text);
    return 0;
}
