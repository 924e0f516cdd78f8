/* Plots of measured series beside their models, written as SVG, PNG and PDF. The rules a reviewer asks of a
 * figure live here, not in each bench: a model is drawn dashed in its measurement's colour; related series
 * (cached/uncached, strided loads/stores) share a hue and a marker shape in shades; category axes get points
 * without joining lines, side by side; a missing point leaves a gap; a saturated or unconverged point is ringed
 * and named in the legend, and may be left out of the axis fit so that it does not squash the rest; axes are
 * fitted to the data with one number format for all tick labels. */
#ifndef TOOLS_PLOT_H
#define TOOLS_PLOT_H

#include <stdbool.h>
#include <stddef.h>

enum { PLOT_MAX_SERIES = 12, PLOT_MAX_POINTS = 64 };

typedef struct plot_series {
    const char *name;
    double x[PLOT_MAX_POINTS];
    double y[PLOT_MAX_POINTS]; /* NaN: a gap, the line breaks there */
    bool marked[PLOT_MAX_POINTS];
    size_t n;
    bool dashed;
    bool points_only; /* markers without a line: measurements quoted from a paper */
    int model_of;     /* >= 0: a model of that series, drawn dashed in its colour without markers */
    int hue;          /* palette entry; related series share one */
    int shade;        /* 0 for the first series of a hue, 1, 2 for the ones related to it */
} plot_series_t;

typedef struct plot {
    const char *title;
    const char *config; /* a line under the title naming the configuration (array, sizes, routing), or NULL */
    const char *note;   /* a warning line under that (e.g. a --quick run's), or NULL */
    const char *x_label;
    const char *y_label;
    const char *legend_title; /* names what tells the series apart, with its units (e.g. "message size (words)") */
    const char *mark_label;   /* what a ringed point means (e.g. "not converged"); "marked" when NULL */
    bool log_x, log_y;
    bool fit_unmarked; /* fit the y axis to the unmarked points; marked ones beyond it sit on its edge */
    plot_series_t series[PLOT_MAX_SERIES];
    size_t nseries;
    int nhues;
    const char *const *categories; /* when set: x = 0 .. ncategories - 1 names these, one tick each */
    size_t ncategories;
} plot_t;

void plot_init(plot_t *p, const char *title, const char *x_label, const char *y_label, bool log_x, bool log_y);
/* Adds a series with a hue of its own and returns it (NULL when full); add points with plot_point. A dashed
 * series is a prediction without a measured partner; plot_add_model ties one to its measurement. */
plot_series_t *plot_add(plot_t *p, const char *name, bool dashed);
/* A series drawn as markers only (no line), for published measurements beside emulated curves. */
plot_series_t *plot_add_points(plot_t *p, const char *name);
/* The model (prediction) of series `of`: dashed, in its colour, no markers; on a category axis a short bar
 * beside each of its points. NULL when full or `of` is NULL. */
plot_series_t *plot_add_model(plot_t *p, const char *name, const plot_series_t *of);
/* A series related to `to` (its cached or uncached twin, say): the same hue and marker shape, another shade. */
plot_series_t *plot_add_related(plot_t *p, const char *name, const plot_series_t *to);
/* A point; y = NaN (or any non-finite y) leaves a gap that the line does not cross. */
void plot_point(plot_series_t *s, double x, double y);
/* A point that is saturated or unconverged: ringed, and named in the legend by the plot's mark_label. */
void plot_point_marked(plot_series_t *s, double x, double y);
void plot_gap(plot_series_t *s);
/* Makes the x axis name its points: point x = i stands for names[i] (the array must outlive the plot). */
void plot_categories(plot_t *p, const char *const *names, size_t n);
/* Turns a linear y axis logarithmic when the positive data, marked points included, span more than two
 * decades; the axis then fits all points (fit_unmarked off), since a log axis shows them without squashing. */
void plot_log_y_if_decades(plot_t *p);

/* Write the plot, whole or not at all (file_out, isa/file.h), making its folder; each returns 0, or -1 with
 * "path: why" in err. */
int plot_write_svg(const plot_t *p, const char *path, char *err, size_t errlen);
int plot_write_png(const plot_t *p, const char *path, char *err, size_t errlen);
int plot_write_pdf(const plot_t *p, const char *path, char *err, size_t errlen);
/* path ends in .svg: writes it and the .png and .pdf beside it; returns 0, or -1 with the first failure's why. */
int plot_write_all(const plot_t *p, const char *svg_path, char *err, size_t errlen);

/* mkdir -p for a folder; returns 0 or -1. */
int plot_make_dirs(const char *dir);
/* mkdir -p for the folder a file path names; returns 0 or -1. */
int plot_make_parent(const char *path);

#endif
