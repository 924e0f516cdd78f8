/* SVG line plots: axes with round tick values (decades on log axes), a line and markers per series, a legend. */
#include "plot.h"

#include "file.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

enum { WIDTH = 720, HEIGHT = 460, LEFT = 80, RIGHT = 190, TOP = 44, BOTTOM = 56 };

static const char *const colours[PLOT_MAX_SERIES] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
                                                     "#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#393b79", "#637939"};

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

plot_series_t *plot_add(plot_t *p, const char *name, bool dashed)
{
    if (p->nseries == PLOT_MAX_SERIES)
        return NULL;
    plot_series_t *s = &p->series[p->nseries++];
    s->name = name;
    s->dashed = dashed;
    s->n = 0;
    return s;
}

plot_series_t *plot_add_points(plot_t *p, const char *name)
{
    plot_series_t *s = plot_add(p, name, false);
    if (s != NULL)
        s->points_only = true;
    return s;
}

void plot_point(plot_series_t *s, double x, double y)
{
    if (s != NULL && s->n < PLOT_MAX_POINTS && isfinite(x) && isfinite(y)) {
        s->x[s->n] = x;
        s->y[s->n] = y;
        s->n++;
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

typedef struct axis {
    bool log;
    double lo, hi; /* in axis units (log10 of the value on a log axis) */
    double step;   /* between ticks on a linear axis: 1, 2 or 5 times a power of ten */
} axis_t;

static double to_axis(const axis_t *a, double v)
{
    return a->log ? log10(v > 0 ? v : 1e-300) : v;
}

/* A log axis spans the data with a little room (not whole decades past it); a linear one starts at 0 for data
 * that is all positive (bandwidths, clocks) and ends at a round value just above the largest. */
static void fit_axis(axis_t *a, double lo, double hi)
{
    if (a->log) {
        lo = log10(lo > 0 ? lo : 1);
        hi = log10(hi > 0 ? hi : 1);
        double room = fmax(0.05, (hi - lo) * 0.04);
        lo -= room;
        hi += room;
        if (hi - lo < 0.5) {
            double mid = (hi + lo) / 2;
            lo = mid - 0.25;
            hi = mid + 0.25;
        }
    } else {
        if (lo > 0)
            lo = 0;
        if (hi <= lo)
            hi = lo + 1;
        /* four to eight round steps: 1, 2 or 5 times a decade */
        double raw = (hi * 1.02 - lo) / 5, decade = pow(10, floor(log10(raw))), f = raw / decade;
        a->step = decade * (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10);
        lo = floor(lo / a->step) * a->step;
        hi = ceil(hi * 1.02 / a->step) * a->step;
    }
    a->lo = lo;
    a->hi = hi;
}

static double px(const axis_t *a, double v, double from, double to)
{
    return from + (to_axis(a, v) - a->lo) / (a->hi - a->lo) * (to - from);
}

static void fmt_value(char *buf, size_t cap, double v)
{
    if (fabs(v) < 1e-12)
        snprintf(buf, cap, "0");
    else if (fabs(v) >= 1e6 || fabs(v) < 1e-2)
        snprintf(buf, cap, "%.3g", v); /* 1.6e+06, not a 2e+06 beside another 2e+06 */
    else
        snprintf(buf, cap, "%.6g", v);
}

/* A tick at v, labelled with `name` (escaped, `drop` px lower), or with v when name is NULL. */
static void escaped(FILE *f, const char *s);
static void tick_named(FILE *f, const axis_t *a, bool horizontal, double v, const char *name, int drop)
{
    double x0 = LEFT, x1 = WIDTH - RIGHT, y0 = HEIGHT - BOTTOM, y1 = TOP;
    char label[32];
    fmt_value(label, sizeof label, v);
    if (name != NULL) {
        double x = px(a, v, x0, x1);
        fprintf(f, "<line x1='%.1f' y1='%.1f' x2='%.1f' y2='%.1f' stroke='#ddd'/>\n", x, y0, x, y1);
        fprintf(f, "<text x='%.1f' y='%.1f' text-anchor='middle' font-size='11'>", x, y0 + 18 + drop);
        escaped(f, name);
        fprintf(f, "</text>\n");
        return;
    }
    if (horizontal) {
        double x = px(a, v, x0, x1);
        fprintf(f, "<line x1='%.1f' y1='%.1f' x2='%.1f' y2='%.1f' stroke='#ddd'/>\n", x, y0, x, y1);
        fprintf(f, "<text x='%.1f' y='%.1f' text-anchor='middle' font-size='12'>%s</text>\n", x, y0 + 18, label);
    } else {
        double y = px(a, v, y0, y1);
        fprintf(f, "<line x1='%.1f' y1='%.1f' x2='%.1f' y2='%.1f' stroke='#ddd'/>\n", x0, y, x1, y);
        fprintf(f, "<text x='%.1f' y='%.1f' text-anchor='end' font-size='12'>%s</text>\n", x0 - 6, y + 4, label);
    }
}

static void tick(FILE *f, const axis_t *a, bool horizontal, double v)
{
    tick_named(f, a, horizontal, v, NULL, 0);
}

/* Round values inside the axis: 1, 2, 5 times the decades on a log axis (decades only when that is too many),
 * the axis's round step on a linear one. */
static void ticks(FILE *f, const axis_t *a, bool horizontal)
{
    if (!a->log) {
        unsigned n = (unsigned)lround((a->hi - a->lo) / a->step);
        for (unsigned i = 0; i <= n; i++)
            tick(f, a, horizontal, a->lo + a->step * i);
        return;
    }
    static const double steps[] = {1, 2, 5};
    bool all = a->hi - a->lo <= 3;
    for (double d = floor(a->lo); d <= ceil(a->hi); d++)
        for (size_t k = 0; k < (all ? 3 : 1); k++) {
            double v = steps[k] * pow(10, d);
            if (log10(v) >= a->lo && log10(v) <= a->hi)
                tick(f, a, horizontal, v);
        }
}

/* Series s's marker at (x, y): a circle, square, triangle, diamond, cross or star, by s. */
static void marker(FILE *f, size_t s, double x, double y, const char *col)
{
    double r = 3.5;
    switch (s % 6) {
    case 0: fprintf(f, "<circle cx='%.1f' cy='%.1f' r='%.1f' fill='%s'/>\n", x, y, r, col); break;
    case 1:
        fprintf(f, "<rect x='%.1f' y='%.1f' width='%.1f' height='%.1f' fill='%s'/>\n", x - r, y - r, 2 * r, 2 * r, col);
        break;
    case 2:
        fprintf(f, "<polygon points='%.1f,%.1f %.1f,%.1f %.1f,%.1f' fill='%s'/>\n", x, y - r * 1.3, x - r * 1.2, y + r,
                x + r * 1.2, y + r, col);
        break;
    case 3:
        fprintf(f, "<polygon points='%.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f' fill='%s'/>\n", x, y - r * 1.4,
                x + r * 1.2, y, x, y + r * 1.4, x - r * 1.2, y, col);
        break;
    case 4:
        fprintf(f, "<path d='M%.1f %.1fL%.1f %.1fM%.1f %.1fL%.1f %.1f' stroke='%s' stroke-width='2.5'/>\n", x - r,
                y - r, x + r, y + r, x - r, y + r, x + r, y - r, col);
        break;
    default:
        fprintf(f, "<circle cx='%.1f' cy='%.1f' r='%.1f' fill='white' stroke='%s' stroke-width='2'/>\n", x, y, r, col);
        break;
    }
}

/* Dashed series get dash patterns of their own, so two dashed lines on top of each other still show both. */
static const char *dashes(size_t s)
{
    static const char *const d[] = {"6,4", "2,3", "10,3,2,3", "4,2,4,6"};
    return d[s % 4];
}

static void escaped(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        if (*s == '<')
            fputs("&lt;", f);
        else if (*s == '>')
            fputs("&gt;", f);
        else if (*s == '&')
            fputs("&amp;", f);
        else
            fputc(*s, f);
    }
}

int plot_write_svg(const plot_t *p, const char *path)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash != NULL) {
        *slash = '\0';
        if (plot_make_dirs(dir) != 0)
            return -1;
    }
    double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;
    for (size_t s = 0; s < p->nseries; s++)
        for (size_t i = 0; i < p->series[s].n; i++) {
            xlo = fmin(xlo, p->series[s].x[i]);
            xhi = fmax(xhi, p->series[s].x[i]);
            ylo = fmin(ylo, p->series[s].y[i]);
            yhi = fmax(yhi, p->series[s].y[i]);
        }
    if (!isfinite(xlo)) {
        xlo = ylo = 1;
        xhi = yhi = 10;
    }
    axis_t ax = {p->log_x, 0, 0, 1}, ay = {p->log_y, 0, 0, 1};
    fit_axis(&ax, xlo, xhi);
    fit_axis(&ay, ylo, yhi);
    if (p->categories != NULL && p->ncategories > 0) {
        /* half a category of room at each end */
        ax = (axis_t){false, -0.5, (double)p->ncategories - 0.5, 1};
    }

    file_out_t out; /* whole or not at all (file.h) */
    char err[512];
    if (file_out_open(&out, path, "w", err, sizeof err) != 0)
        return -1;
    FILE *f = out.f;
    /* The legend sits right of the plot; the image widens so that its longest name fits (7 px a character
     * is what a 12 px sans-serif takes at most, give or take). */
    size_t longest = 0;
    for (size_t s = 0; s < p->nseries; s++)
        longest = strlen(p->series[s].name) > longest ? strlen(p->series[s].name) : longest;
    int width = WIDTH - RIGHT + 42 + 7 * (int)(longest < 200 ? longest : 200) + 12;
    fprintf(f, "<svg xmlns='http://www.w3.org/2000/svg' width='%d' height='%d' font-family='sans-serif'>\n",
            width > WIDTH ? width : WIDTH, HEIGHT);
    fprintf(f, "<rect width='100%%' height='100%%' fill='white'/>\n");
    fprintf(f, "<text x='%d' y='24' text-anchor='middle' font-size='16' font-weight='bold'>",
            (WIDTH - RIGHT + LEFT) / 2);
    escaped(f, p->title);
    fprintf(f, "</text>\n");
    if (p->note != NULL) {
        fprintf(f, "<text x='%d' y='40' text-anchor='middle' font-size='12' fill='#b45309'>",
                (WIDTH - RIGHT + LEFT) / 2);
        escaped(f, p->note);
        fprintf(f, "</text>\n");
    }
    bool stagger = false;
    if (p->categories != NULL && p->ncategories > 0) {
        /* Every other name a line lower when the names would run into each other (6 px a character). */
        size_t widest = 0;
        for (size_t i = 0; i < p->ncategories; i++)
            widest = strlen(p->categories[i]) > widest ? strlen(p->categories[i]) : widest;
        stagger = 6.0 * (double)widest > (double)(WIDTH - RIGHT - LEFT) / (double)p->ncategories;
        for (size_t i = 0; i < p->ncategories; i++)
            tick_named(f, &ax, true, (double)i, p->categories[i], stagger && i % 2 ? 13 : 0);
    } else {
        ticks(f, &ax, true);
    }
    ticks(f, &ay, false);
    fprintf(f, "<rect x='%d' y='%d' width='%d' height='%d' fill='none' stroke='black'/>\n", LEFT, TOP,
            WIDTH - RIGHT - LEFT, HEIGHT - BOTTOM - TOP);
    fprintf(f, "<text x='%d' y='%d' text-anchor='middle' font-size='13'>", (WIDTH - RIGHT + LEFT) / 2,
            HEIGHT - (stagger ? 3 : 14));
    escaped(f, p->x_label);
    fprintf(f, "</text>\n<text x='18' y='%d' text-anchor='middle' font-size='13' transform='rotate(-90 18 %d)'>",
            (HEIGHT - BOTTOM + TOP) / 2, (HEIGHT - BOTTOM + TOP) / 2);
    escaped(f, p->y_label);
    fprintf(f, "</text>\n");
    for (size_t s = 0; s < p->nseries; s++) {
        const plot_series_t *sr = &p->series[s];
        const char *col = colours[s % PLOT_MAX_SERIES];
        char dash[64] = "";
        if (sr->dashed)
            snprintf(dash, sizeof dash, " stroke-dasharray='%s'", dashes(s));
        if (!sr->points_only) {
            fprintf(f, "<polyline fill='none' stroke='%s' stroke-width='2'%s points='", col, dash);
            for (size_t i = 0; i < sr->n; i++)
                fprintf(f, "%.1f,%.1f ", px(&ax, sr->x[i], LEFT, WIDTH - RIGHT),
                        px(&ay, sr->y[i], HEIGHT - BOTTOM, TOP));
            fprintf(f, "'/>\n");
        }
        for (size_t i = 0; i < sr->n; i++)
            marker(f, s, px(&ax, sr->x[i], LEFT, WIDTH - RIGHT), px(&ay, sr->y[i], HEIGHT - BOTTOM, TOP), col);
        int ly = TOP + 10 + 20 * (int)s;
        if (!sr->points_only)
            fprintf(f, "<line x1='%d' y1='%d' x2='%d' y2='%d' stroke='%s' stroke-width='2'%s/>\n", WIDTH - RIGHT + 12,
                    ly, WIDTH - RIGHT + 36, ly, col, dash);
        marker(f, s, WIDTH - RIGHT + 24, ly, col);
        fprintf(f, "<text x='%d' y='%d' font-size='12'>", WIDTH - RIGHT + 42, ly + 4);
        escaped(f, sr->name);
        fprintf(f, "</text>\n");
    }
    fprintf(f, "</svg>\n");
    return file_out_commit(&out, err, sizeof err);
}
