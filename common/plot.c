/* Building a plot: its series, their points, gaps and marks, and which series are related or model others. */
#include "plot.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

void plot_init(plot_t *p, const char *title, const char *x_label, const char *y_label, bool log_x, bool log_y)
{
    memset(p, 0, sizeof *p);
    p->title = title;
    p->x_label = x_label;
    p->y_label = y_label;
    p->log_x = log_x;
    p->log_y = log_y;
}

void plot_categories(plot_t *p, const char *const *names, size_t n)
{
    p->categories = names;
    p->ncategories = n;
}

static plot_series_t *add(plot_t *p, const char *name, int hue, int shade)
{
    if (p->nseries == PLOT_MAX_SERIES)
        return NULL;
    plot_series_t *s = &p->series[p->nseries++];
    memset(s, 0, sizeof *s);
    s->name = name;
    s->model_of = -1;
    s->hue = hue;
    s->shade = shade;
    return s;
}

plot_series_t *plot_add(plot_t *p, const char *name, bool dashed)
{
    plot_series_t *s = add(p, name, p->nhues, 0);
    if (s != NULL) {
        p->nhues++;
        s->dashed = dashed;
    }
    return s;
}

plot_series_t *plot_add_points(plot_t *p, const char *name)
{
    plot_series_t *s = plot_add(p, name, false);
    if (s != NULL)
        s->points_only = true;
    return s;
}

plot_series_t *plot_add_model(plot_t *p, const char *name, const plot_series_t *of)
{
    if (of == NULL)
        return NULL;
    plot_series_t *s = add(p, name, of->hue, of->shade);
    if (s != NULL) {
        s->dashed = true;
        s->model_of = (int)(of - p->series);
    }
    return s;
}

plot_series_t *plot_add_related(plot_t *p, const char *name, const plot_series_t *to)
{
    if (to == NULL)
        return NULL;
    int shade = 0; /* one past the shades its hue has so far, among the measured series */
    for (size_t i = 0; i < p->nseries; i++)
        if (p->series[i].hue == to->hue && p->series[i].model_of < 0 && p->series[i].shade >= shade)
            shade = p->series[i].shade + 1;
    plot_series_t *s = add(p, name, to->hue, shade > 2 ? 2 : shade);
    if (s != NULL)
        s->dashed = to->dashed;
    return s;
}

static void put(plot_series_t *s, double x, double y, bool marked)
{
    if (s == NULL || s->n == PLOT_MAX_POINTS || !isfinite(x))
        return;
    s->x[s->n] = x;
    s->y[s->n] = isfinite(y) ? y : NAN;
    s->marked[s->n] = marked && isfinite(y);
    s->n++;
}

void plot_point(plot_series_t *s, double x, double y)
{
    put(s, x, y, false);
}

void plot_point_marked(plot_series_t *s, double x, double y)
{
    put(s, x, y, true);
}

void plot_gap(plot_series_t *s)
{
    if (s != NULL && s->n > 0)
        put(s, s->x[s->n - 1], NAN, false);
}

void plot_log_y_if_decades(plot_t *p)
{
    double lo = INFINITY, hi = 0;
    for (size_t s = 0; s < p->nseries; s++)
        for (size_t i = 0; i < p->series[s].n; i++)
            if (p->series[s].y[i] > 0) {
                lo = fmin(lo, p->series[s].y[i]);
                hi = fmax(hi, p->series[s].y[i]);
            }
    if (hi > 0 && hi / lo > 100) {
        p->log_y = true;
        p->fit_unmarked = false; /* a log axis shows the marked points too without squashing the rest */
    }
}

int plot_make_dirs(const char *dir)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", dir);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(buf, 0777) != 0 && errno != EEXIST)
            return -1;
        *p = '/';
    }
    return mkdir(buf, 0777) == 0 || errno == EEXIST ? 0 : -1;
}

int plot_make_parent(const char *path)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash == NULL || slash == dir)
        return 0;
    *slash = '\0';
    return plot_make_dirs(dir);
}
