/* Lays a plot out and draws it on a canvas: title and configuration, axes with their ticks, the series (lines
 * broken at gaps, markers, models dashed in their measurement's colour, points side by side on a category
 * axis), rings on marked points and the legend. */
#include "plot.h"
#include "plot_axis.h"
#include "plot_canvas.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

enum { FRAME_W = 450, FRAME_H = 350, LEFT = 80, BOTTOM = 60, LEGEND_GAP = 12 };

/* Three shades a hue, dark to light: a series, then the ones related to it (plot_add_related). */
static const char *const palette[][3] = {
    {"#1f4e9c", "#5b9bd5", "#9cc3ee"}, {"#b2182b", "#e0605a", "#f4a582"}, {"#1b7837", "#5aae61", "#a6dba0"},
    {"#c45a00", "#f28e2b", "#fdbf6f"}, {"#5e3c99", "#8e6cc4", "#c2a5e6"}, {"#7f4f24", "#b07d48", "#d9b38c"},
    {"#00727a", "#17becf", "#9edae5"}, {"#a6246e", "#e377c2", "#f7b6d2"}, {"#404040", "#7f7f7f", "#bfbfbf"},
    {"#6b6b00", "#bcbd22", "#dbdb8d"},
};
enum { NHUES = sizeof palette / sizeof palette[0] };

static const char *colour_of(const plot_series_t *s)
{
    return palette[s->hue % NHUES][s->shade % 3];
}

typedef struct layout {
    plot_axis_t ax, ay;
    double x0, x1, y0, y1; /* the frame: x0 left, y0 bottom (larger), y1 top */
    int width, height, top;
    bool categorical;
    size_t nmeasured; /* series with a slot of their own on a category axis */
} layout_t;

static int top_of(const plot_t *p)
{
    return 40 + (p->config != NULL ? 16 : 0) + (p->note != NULL ? 16 : 0);
}

static size_t legend_chars(const plot_t *p)
{
    size_t longest = p->legend_title != NULL ? strlen(p->legend_title) : 0;
    if (p->mark_label != NULL && strlen(p->mark_label) > longest)
        longest = strlen(p->mark_label); /* counted whether or not a point is marked: a little room at worst */
    for (size_t s = 0; s < p->nseries; s++)
        longest = strlen(p->series[s].name) > longest ? strlen(p->series[s].name) : longest;
    return longest < 60 ? longest : 60;
}

/* The widest line above the frame: a long title or configuration widens the image rather than running off it
 * (10 px a character of bold 16 px, 7 px of 12 px, with room). */
static int header_width(const plot_t *p)
{
    int w = p->title != NULL ? 10 * (int)strlen(p->title) + 30 : 0;
    const char *const lines[] = {p->config, p->note};
    for (size_t i = 0; i < 2; i++)
        if (lines[i] != NULL && 7 * (int)strlen(lines[i]) + 30 > w)
            w = 7 * (int)strlen(lines[i]) + 30;
    return w;
}

void plot_size(const plot_t *p, int *width, int *height)
{
    /* 6.5 px a character is what a 12 px sans-serif takes, give or take */
    *width = LEFT + FRAME_W + LEGEND_GAP + 42 + (int)(6.5 * (double)legend_chars(p)) + 16;
    int header = header_width(p);
    *width = header > *width ? header : *width;
    *height = top_of(p) + FRAME_H + BOTTOM;
}

static bool drawable(const plot_axis_t *a, double v)
{
    return isfinite(v) && (!a->log || v > 0);
}

static void fit(const plot_t *p, layout_t *l)
{
    double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;
    bool x_whole = true, y_whole = true;
    plot_axis_t probe_x = {.log = p->log_x}, probe_y = {.log = p->log_y};
    for (size_t s = 0; s < p->nseries; s++)
        for (size_t i = 0; i < p->series[s].n; i++) {
            const plot_series_t *sr = &p->series[s];
            if (!drawable(&probe_x, sr->x[i]) || !drawable(&probe_y, sr->y[i]))
                continue;
            xlo = fmin(xlo, sr->x[i]);
            xhi = fmax(xhi, sr->x[i]);
            x_whole = x_whole && sr->x[i] == floor(sr->x[i]);
            y_whole = y_whole && sr->y[i] == floor(sr->y[i]);
            if (sr->marked[i] && p->fit_unmarked)
                continue;
            ylo = fmin(ylo, sr->y[i]);
            yhi = fmax(yhi, sr->y[i]);
        }
    if (!isfinite(xlo))
        xlo = 1, xhi = 10;
    if (!isfinite(ylo))
        ylo = 1, yhi = 10;
    plot_axis_fit(&l->ax, p->log_x, xlo, xhi, x_whole);
    plot_axis_fit(&l->ay, p->log_y, ylo, yhi, y_whole);
    l->categorical = p->categories != NULL && p->ncategories > 0;
    if (l->categorical) {
        memset(&l->ax, 0, sizeof l->ax);
        l->ax.lo = -0.5; /* half a category of room at each end */
        l->ax.hi = (double)p->ncategories - 0.5;
    }
    for (size_t s = 0; s < p->nseries; s++)
        l->nmeasured += p->series[s].model_of < 0;
}

/* Where series s's points sit across a category: side by side, so that none hides another. */
static double slot(const plot_t *p, const layout_t *l, size_t s)
{
    if (!l->categorical || l->nmeasured < 2)
        return 0;
    size_t own = p->series[s].model_of >= 0 ? (size_t)p->series[s].model_of : s, k = 0;
    for (size_t i = 0; i < own; i++)
        k += p->series[i].model_of < 0;
    double w = fmin(0.7 / (double)l->nmeasured, 0.18);
    return ((double)k - (double)(l->nmeasured - 1) / 2) * w;
}

static double px_x(const layout_t *l, double v)
{
    return plot_axis_px(&l->ax, v, l->x0, l->x1);
}

/* A point beyond the axis (a marked one left out of the fit) sits just inside its edge, under an arrow. */
enum { BEYOND = 16 };
static double px_y(const layout_t *l, double v)
{
    double y = plot_axis_px(&l->ay, v, l->y0, l->y1);
    return y < l->y1 ? l->y1 + BEYOND : y > l->y0 ? l->y0 - BEYOND : y;
}

/* The marker of a series: its hue picks the shape, its shade whether it is filled (a ring around its twin's
 * filled one shows both where they coincide). */
static void marker(const plot_canvas_t *c, const plot_series_t *s, double x, double y)
{
    const char *col = colour_of(s);
    bool hollow = s->shade == 1;
    const char *fill = hollow ? NULL : col;
    /* a third shade's dot is smaller, so the first one's shows round it; all smaller where dense */
    double r = (hollow ? 5.0 : s->shade == 2 ? 2.4 : 3.6) * (s->n > 16 ? 0.7 : 1), w = hollow ? 1.8 : 0;
    const char *stroke = hollow ? col : NULL;
    switch (s->hue % 5) {
    case 0: c->circle(c->ctx, "marker", x, y, r, fill, stroke, w); break;
    case 1: {
        double q = r * 0.9, xy[] = {x - q, y - q, x + q, y - q, x + q, y + q, x - q, y + q};
        c->shape(c->ctx, "marker", xy, 4, fill, stroke, w);
        break;
    }
    case 2: {
        double xy[] = {x, y - r * 1.3, x + r * 1.2, y + r * 0.9, x - r * 1.2, y + r * 0.9};
        c->shape(c->ctx, "marker", xy, 3, fill, stroke, w);
        break;
    }
    case 3: {
        double xy[] = {x, y - r * 1.4, x + r * 1.2, y, x, y + r * 1.4, x - r * 1.2, y};
        c->shape(c->ctx, "marker", xy, 4, fill, stroke, w);
        break;
    }
    default: {
        double xy[] = {x, y + r * 1.3, x + r * 1.2, y - r * 0.9, x - r * 1.2, y - r * 0.9};
        c->shape(c->ctx, "marker", xy, 3, fill, stroke, w);
        break;
    }
    }
}

static const char *dash_of(const plot_series_t *s)
{
    return s->dashed ? "7,4" : NULL;
}

static double width_of(const plot_series_t *s)
{
    return s->shade == 0 ? 2.6 : 1.5; /* a twin's thinner line shows on top of a coinciding wider one */
}

static bool has_markers(const plot_series_t *s)
{
    return !s->dashed || s->points_only;
}

/* The line of a series, broken at gaps and at points the axis can't show; on a category axis a model's short
 * bars at each point. Measured series on a category axis get no joining line. */
static void series_line(const plot_t *p, const layout_t *l, const plot_canvas_t *c, size_t s)
{
    const plot_series_t *sr = &p->series[s];
    bool model = sr->model_of >= 0;
    const char *role = model ? "model" : "series";
    if (l->categorical) {
        if (!model && !sr->dashed)
            return;
        for (size_t i = 0; i < sr->n; i++)
            if (drawable(&l->ay, sr->y[i])) {
                double x = px_x(l, sr->x[i] + slot(p, l, s)), y = px_y(l, sr->y[i]);
                double xy[] = {x - 9, y, x + 9, y};
                c->line(c->ctx, role, xy, 2, colour_of(sr), 2.6, NULL);
            }
        return;
    }
    if (sr->points_only)
        return;
    double xy[2 * PLOT_MAX_POINTS];
    size_t k = 0;
    for (size_t i = 0; i <= sr->n; i++) {
        bool ok = i < sr->n && drawable(&l->ax, sr->x[i]) && drawable(&l->ay, sr->y[i]);
        if (ok) {
            xy[2 * k] = px_x(l, sr->x[i]);
            xy[2 * k + 1] = px_y(l, sr->y[i]);
            k++;
            continue;
        }
        if (k >= 2)
            c->line(c->ctx, role, xy, k, colour_of(sr), width_of(sr), dash_of(sr));
        k = 0;
    }
}

static void series_marks(const plot_t *p, const layout_t *l, const plot_canvas_t *c, size_t s)
{
    const plot_series_t *sr = &p->series[s];
    for (size_t i = 0; i < sr->n; i++) {
        if (!drawable(&l->ax, sr->x[i]) || !drawable(&l->ay, sr->y[i]))
            continue;
        double x = px_x(l, sr->x[i] + slot(p, l, s)), y = px_y(l, sr->y[i]);
        if (has_markers(sr) && sr->model_of < 0)
            marker(c, sr, x, y);
        if (!sr->marked[i])
            continue;
        c->circle(c->ctx, "mark", x, y, 7, NULL, "#000000", 1.4);
        if (!plot_axis_holds(&l->ay, sr->y[i])) { /* beyond the fitted axis: an arrow to the frame's edge */
            double dir = plot_axis_px(&l->ay, sr->y[i], l->y0, l->y1) < l->y1 ? -1 : 1, tip = y + dir * (BEYOND - 1);
            double xy[] = {x, tip, x - 4, tip - dir * 7, x + 4, tip - dir * 7};
            c->shape(c->ctx, "mark", xy, 3, "#000000", NULL, 0);
        }
    }
}

static void axes(const plot_t *p, const layout_t *l, const plot_canvas_t *c)
{
    char label[48];
    for (size_t i = 0; i < l->ay.nticks; i++) {
        double y = px_y(l, l->ay.ticks[i]), xy[] = {l->x0, y, l->x1, y};
        c->line(c->ctx, "grid", xy, 2, "#dddddd", 1, NULL);
        plot_axis_label(&l->ay, l->ay.ticks[i], label, sizeof label);
        c->text(c->ctx, "tick", l->x0 - 6, y + 4, label, 12, PLOT_ANCHOR_END, false, false, "#000000");
    }
    bool stagger = false;
    if (l->categorical) {
        size_t widest = 0;
        for (size_t i = 0; i < p->ncategories; i++)
            widest = strlen(p->categories[i]) > widest ? strlen(p->categories[i]) : widest;
        stagger = 6.0 * (double)widest > (l->x1 - l->x0) / (double)p->ncategories;
        for (size_t i = 0; i < p->ncategories; i++) {
            double x = px_x(l, (double)i), xy[] = {x, l->y0, x, l->y1};
            c->line(c->ctx, "grid", xy, 2, "#eeeeee", 1, NULL);
            c->text(c->ctx, "category", x, l->y0 + 18 + (stagger && i % 2 ? 13 : 0), p->categories[i], 11,
                    PLOT_ANCHOR_MIDDLE, false, false, "#000000");
        }
    } else {
        for (size_t i = 0; i < l->ax.nticks; i++) {
            double x = px_x(l, l->ax.ticks[i]), xy[] = {x, l->y0, x, l->y1};
            c->line(c->ctx, "grid", xy, 2, "#dddddd", 1, NULL);
            plot_axis_label(&l->ax, l->ax.ticks[i], label, sizeof label);
            c->text(c->ctx, "tick", x, l->y0 + 18, label, 12, PLOT_ANCHOR_MIDDLE, false, false, "#000000");
        }
    }
    double frame[] = {l->x0, l->y1, l->x1, l->y1, l->x1, l->y0, l->x0, l->y0};
    c->shape(c->ctx, "frame", frame, 4, NULL, "#000000", 1);
    char text[256];
    snprintf(text, sizeof text, "%s%s", p->x_label ? p->x_label : "", plot_axis_scale_note(&l->ax));
    c->text(c->ctx, "x-label", (l->x0 + l->x1) / 2, l->y0 + (stagger ? 50 : 40), text, 13, PLOT_ANCHOR_MIDDLE, false,
            false, "#000000");
    snprintf(text, sizeof text, "%s%s", p->y_label ? p->y_label : "", plot_axis_scale_note(&l->ay));
    c->text(c->ctx, "y-label", 20, (l->y0 + l->y1) / 2, text, 13, PLOT_ANCHOR_MIDDLE, false, true, "#000000");
}

static void legend(const plot_t *p, const layout_t *l, const plot_canvas_t *c)
{
    double x = l->x1 + LEGEND_GAP, y = l->y1 + 10;
    if (p->legend_title != NULL) {
        c->text(c->ctx, "legend-title", x, y + 4, p->legend_title, 12, PLOT_ANCHOR_START, true, false, "#000000");
        y += 20;
    }
    bool any_mark = false;
    for (size_t s = 0; s < p->nseries; s++, y += 20) {
        const plot_series_t *sr = &p->series[s];
        for (size_t i = 0; i < sr->n; i++)
            any_mark |= sr->marked[i];
        bool model = sr->model_of >= 0 || sr->dashed;
        if (l->categorical && model) { /* the short solid bar the plot draws */
            double xy[] = {x + 4, y, x + 22, y};
            c->line(c->ctx, "legend", xy, 2, colour_of(sr), 2.6, NULL);
        } else if (!sr->points_only && !l->categorical) {
            double xy[] = {x, y, x + 26, y};
            c->line(c->ctx, "legend", xy, 2, colour_of(sr), model ? 2.2 : width_of(sr), model ? "7,4" : NULL);
        }
        if (has_markers(sr) && sr->model_of < 0)
            marker(c, sr, x + 13, y);
        c->text(c->ctx, "legend", x + 32, y + 4, sr->name, 12, PLOT_ANCHOR_START, false, false, "#000000");
    }
    if (any_mark) {
        c->circle(c->ctx, "legend", x + 13, y, 7, NULL, "#000000", 1.4);
        c->text(c->ctx, "legend", x + 32, y + 4, p->mark_label ? p->mark_label : "marked", 12, PLOT_ANCHOR_START,
                false, false, "#000000");
    }
}

void plot_render(const plot_t *p, const plot_canvas_t *c)
{
    layout_t l = {0};
    plot_size(p, &l.width, &l.height);
    l.top = top_of(p);
    l.x0 = LEFT;
    l.x1 = LEFT + FRAME_W;
    l.y1 = l.top;
    l.y0 = l.top + FRAME_H;
    fit(p, &l);
    double bg[] = {0, 0, l.width, 0, l.width, l.height, 0, l.height};
    c->shape(c->ctx, "background", bg, 4, "#ffffff", NULL, 0);
    double mid, ty = 24;
    if (header_width(p) > l.x1 + l.x0)
        mid = l.width / 2.0; /* centred on the image when centring on the frame would cut it */
    else
        mid = (l.x0 + l.x1) / 2;
    c->text(c->ctx, "title", mid, ty, p->title ? p->title : "", 16, PLOT_ANCHOR_MIDDLE, true, false, "#000000");
    if (p->config != NULL)
        c->text(c->ctx, "config", mid, ty += 16, p->config, 12, PLOT_ANCHOR_MIDDLE, false, false, "#333333");
    if (p->note != NULL)
        c->text(c->ctx, "note", mid, ty += 16, p->note, 12, PLOT_ANCHOR_MIDDLE, false, false, "#b45309");
    axes(p, &l, c);
    /* wide lines first, so a related series' thinner line stays visible on top of a coinciding one */
    for (int shade = 0; shade < 3; shade++)
        for (size_t s = 0; s < p->nseries; s++)
            if (p->series[s].shade == shade)
                series_line(p, &l, c, s);
    for (size_t s = 0; s < p->nseries; s++)
        series_marks(p, &l, c, s);
    legend(p, &l, c);
}
