/* Line plots written as SVG: enough for the benches' figures (linear or log axes, several series, legend). Each
 * series has its own colour, marker shape and, when dashed, dash pattern, so none hides another where they
 * overlap; axes are fitted to the data. */
#ifndef TOOLS_PLOT_H
#define TOOLS_PLOT_H

#include <stdbool.h>
#include <stddef.h>

enum { PLOT_MAX_SERIES = 12, PLOT_MAX_POINTS = 64 };

typedef struct plot_series {
    const char *name;
    double x[PLOT_MAX_POINTS];
    double y[PLOT_MAX_POINTS];
    size_t n;
    bool dashed;
    bool points_only; /* markers without a line: measurements quoted from a paper */
} plot_series_t;

typedef struct plot {
    const char *title;
    const char *note; /* a line under the title (e.g. a --quick run's), or NULL */
    const char *x_label;
    const char *y_label;
    bool log_x, log_y;
    plot_series_t series[PLOT_MAX_SERIES];
    size_t nseries;
    const char *const *categories; /* when set: x = 0 .. ncategories - 1 names these, one tick each */
    size_t ncategories;
} plot_t;

void plot_init(plot_t *p, const char *title, const char *x_label, const char *y_label, bool log_x, bool log_y);
/* Adds a series and returns it (NULL when full); add points with plot_point. */
plot_series_t *plot_add(plot_t *p, const char *name, bool dashed);
/* A series drawn as markers only (no line), for published measurements beside emulated curves. */
plot_series_t *plot_add_points(plot_t *p, const char *name);
void plot_point(plot_series_t *s, double x, double y);
/* Makes the x axis name its points: point x = i stands for names[i] (the array must outlive the plot). */
void plot_categories(plot_t *p, const char *const *names, size_t n);
/* Writes the SVG; returns 0, or -1 with errno from stdio. Creates the file's folder if needed. */
int plot_write_svg(const plot_t *p, const char *path);

/* mkdir -p for a folder; returns 0 or -1. */
int plot_make_dirs(const char *dir);

#endif
