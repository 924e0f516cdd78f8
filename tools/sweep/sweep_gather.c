/* Gathering: the records of a sweep as one CSV table, a row per JSON record a case printed (a bench document
 * gives a row per element of its "records"), in case order, with the case's parameters in front. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "err.h"
#include "plot.h"
#include "sweep_results.h"

static bool is_param(const sweep_t *s, const char *name)
{
    for (unsigned i = 0; i < s->nparams; i++)
        if (strcmp(s->params[i].name, name) == 0)
            return true;
    return false;
}

/* Scalars become cells; objects their members, named a.b; arrays their compact JSON text. */
static void flatten(csv_table_t *t, const sweep_t *s, const char *prefix, const jv_t *v)
{
    for (size_t i = 0; i < v->n; i++) {
        char name[512];
        const char *key = v->keys[i];
        const jv_t *m = &v->items[i];
        /* An output field named like a parameter (or the case or status column) keeps its own column. */
        bool clash = *prefix == '\0' && (is_param(s, key) || strcmp(key, "case") == 0 || strcmp(key, "status") == 0);
        snprintf(name, sizeof name, "%s%s%s", prefix, clash ? "output." : "", key);
        switch (m->kind) {
        case JV_NULL: csv_set(t, name, ""); break;
        case JV_BOOL: csv_set(t, name, m->boolean ? "true" : "false"); break;
        case JV_NUMBER:
        case JV_STRING: csv_set(t, name, m->text); break;
        case JV_OBJECT: {
            char inner[520];
            snprintf(inner, sizeof inner, "%s.", name);
            flatten(t, s, inner, m);
            break;
        }
        case JV_ARRAY: {
            char *text = jv_compact(m);
            csv_set(t, name, text != NULL ? text : "");
            free(text);
            break;
        }
        }
    }
}

static void row(csv_table_t *t, const sweep_t *s, unsigned k, const jv_t *rec, const jv_t *out)
{
    char num[32];
    csv_row(t);
    snprintf(num, sizeof num, "%u", k);
    csv_set(t, "case", num);
    const jv_t *params = jv_get(rec, "params"), *status = jv_get(rec, "status");
    for (unsigned i = 0; i < s->nparams; i++) {
        const jv_t *p = params != NULL ? jv_get(params, s->params[i].name) : NULL;
        csv_set(t, s->params[i].name, p != NULL && p->kind == JV_STRING ? p->text : "");
    }
    csv_set(t, "status", status != NULL && status->kind == JV_NUMBER ? status->text : "");
    if (out != NULL && out->kind == JV_OBJECT)
        flatten(t, s, "", out);
}

int sweep_gather(const sweep_t *s, const char *results, csv_table_t *t, char *err, size_t errlen)
{
    jv_t *rec;
    csv_init(t);
    if (sweep_records(s, results, &rec, err, errlen) != 0)
        return -1;
    for (unsigned k = 0; k < s->ncases; k++) {
        if (rec[k].kind != JV_OBJECT)
            continue;
        const jv_t *o = jv_get(&rec[k], "output");
        size_t rows = 0;
        for (size_t i = 0; o != NULL && o->kind == JV_ARRAY && i < o->n; i++) {
            const jv_t *v = &o->items[i], *records = jv_get(v, "records");
            const jv_t *list = records != NULL && records->kind == JV_ARRAY ? records : v->kind == JV_ARRAY ? v : NULL;
            for (size_t e = 0; list != NULL && e < list->n; e++, rows++)
                row(t, s, k, &rec[k], &list->items[e]);
            if (list == NULL) {
                row(t, s, k, &rec[k], v);
                rows++;
            }
        }
        if (rows == 0)
            row(t, s, k, &rec[k], NULL);
    }
    sweep_records_free(s, rec);
    return t->failed ? err_set(err, errlen, "out of memory for the table") : 0;
}

static int column(const csv_table_t *t, const char *name)
{
    for (size_t c = 0; c < t->ncolumns; c++)
        if (strcmp(t->columns[c], name) == 0)
            return (int)c;
    return -1;
}

static const char *cell(const csv_row_t *r, int c)
{
    return c >= 0 && (size_t)c < r->ncells && r->cells[c] != NULL ? r->cells[c] : "";
}

static bool number(const char *text, double *v)
{
    char *end;
    *v = strtod(text, &end);
    return end != text && *end == '\0' && isfinite(*v);
}

static int by_x(const void *a, const void *b)
{
    const double *x = a, *y = b;
    return (*x > *y) - (*x < *y);
}

/* A row is marked when its record says the point saturated or did not converge (traffic's JSON). */
static bool row_marked(const csv_table_t *t, const csv_row_t *r)
{
    int sat = -1, conv = -1;
    for (size_t c = 0; c < t->ncolumns; c++) {
        const char *dot = strrchr(t->columns[c], '.'), *name = dot != NULL ? dot + 1 : t->columns[c];
        if (strcmp(name, "saturated") == 0)
            sat = (int)c;
        else if (strcmp(name, "converged") == 0)
            conv = (int)c;
    }
    const char *sv = cell(r, sat), *cv = cell(r, conv);
    return strcmp(sv, "true") == 0 || strcmp(sv, "1") == 0 || strcmp(cv, "false") == 0 || strcmp(cv, "0") == 0;
}

int sweep_plot(const sweep_t *s, const csv_table_t *t, const char *spec, bool log_y, const char *path, char *err,
               size_t errlen)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s", spec);
    char *xname = buf, *yname = strchr(buf, ':'), *gname = NULL;
    if (yname != NULL) {
        *yname++ = '\0';
        gname = strchr(yname, ':');
        if (gname != NULL)
            *gname++ = '\0';
    }
    if (yname == NULL || *xname == '\0' || *yname == '\0' || (gname != NULL && *gname == '\0'))
        return err_set(err, errlen, "--plot wants X:Y or X:Y:GROUP (column names), not '%s'", spec);
    int xc = column(t, xname), yc = column(t, yname);
    const char *missing = xc < 0 ? xname : yc < 0 ? yname : NULL;
    /* GROUP may name several columns, a,b: a line per combination of their values. */
    int gc[SWEEP_MAX_PARAMS];
    unsigned ngroup = 0;
    for (char *save = NULL, *g = gname != NULL ? strtok_r(gname, ",", &save) : NULL; g != NULL && missing == NULL;
         g = strtok_r(NULL, ",", &save)) {
        if (ngroup == SWEEP_MAX_PARAMS)
            return err_set(err, errlen, "--plot %s: at most %d group columns", spec, SWEEP_MAX_PARAMS);
        gc[ngroup] = column(t, g);
        if (gc[ngroup++] < 0)
            missing = g;
    }
    if (missing != NULL)
        return err_set(err, errlen, "--plot %s: the table has no column '%s'", spec, missing);
    char title[600];
    snprintf(title, sizeof title, "%s against %s (sweep %s)", yname, xname, s->name);
    char xlabel[300], ylabel[300], legend[300] = "";
    sweep_column_label(xname, xlabel, sizeof xlabel);
    sweep_column_label(yname, ylabel, sizeof ylabel);
    for (unsigned k = 0; k < ngroup; k++) {
        size_t len = strlen(legend);
        sweep_column_label(t->columns[gc[k]], legend + len + (k ? 2 : 0), sizeof legend - len - (k ? 2 : 0));
        if (k)
            memcpy(legend + len, ", ", 2);
    }
    plot_t p;
    plot_init(&p, title, xlabel, ylabel, false, log_y);
    p.legend_title = ngroup > 0 ? legend : NULL;
    p.config = s->command; /* the configuration: the command each case ran, with its {placeholders} */
    p.mark_label = "saturated or not converged";
    p.fit_unmarked = true;
    /* Points as (x, y) pairs per series, sorted by x so each line reads left to right. */
    double pts[PLOT_MAX_SERIES][PLOT_MAX_POINTS][3]; /* x, y, marked */
    size_t npts[PLOT_MAX_SERIES] = {0};
    char names[PLOT_MAX_SERIES][160];
    size_t nseries = 0;
    for (size_t r = 0; r < t->nrows; r++) {
        double x, y;
        if (!number(cell(&t->rows[r], xc), &x) || !number(cell(&t->rows[r], yc), &y))
            continue;
        char g[160] = "";
        size_t glen = 0;
        for (unsigned k = 0; k < ngroup && glen < sizeof g; k++)
            glen += (size_t)snprintf(g + glen, sizeof g - glen, "%s%s", k ? " " : "", cell(&t->rows[r], gc[k]));
        if (ngroup == 0)
            snprintf(g, sizeof g, "%s", yname);
        size_t i = 0;
        while (i < nseries && strcmp(names[i], g) != 0)
            i++;
        if (i == nseries) {
            if (nseries == PLOT_MAX_SERIES)
                return err_set(err, errlen, "--plot %s: more than %d lines", spec, PLOT_MAX_SERIES);
            snprintf(names[nseries++], sizeof names[0], "%s", g);
        }
        if (npts[i] == PLOT_MAX_POINTS)
            return err_set(err, errlen, "--plot %s: more than %d points on the line '%s'", spec, PLOT_MAX_POINTS, g);
        pts[i][npts[i]][0] = x;
        pts[i][npts[i]][1] = y;
        pts[i][npts[i]][2] = row_marked(t, &t->rows[r]);
        npts[i]++;
    }
    if (nseries == 0)
        return err_set(err, errlen, "--plot %s: no row has numbers in both columns", spec);
    for (size_t i = 0; i < nseries; i++) {
        qsort(pts[i], npts[i], sizeof pts[i][0], by_x);
        plot_series_t *ps = plot_add(&p, names[i], false);
        for (size_t k = 0; k < npts[i]; k++)
            (pts[i][k][2] != 0 ? plot_point_marked : plot_point)(ps, pts[i][k][0], pts[i][k][1]);
    }
    plot_log_y_if_decades(&p);
    char why[1024];
    if (plot_write_all(&p, path, why, sizeof why) != 0)
        return err_set(err, errlen, "cannot write the plot: %s", why);
    return 0;
}
