/* What drawing a plot needs of an output format: lines, filled shapes, circles and text. The SVG writer and the
 * cairo one (PNG, PDF) each provide these, so that every format shows the same figure. Colours are "#rrggbb";
 * a NULL fill or stroke draws none. `role` names what a line is ("series", "model", "grid", ...) for formats
 * that can keep it (SVG's class), so tests can find a series' lines. */
#ifndef TOOLS_PLOT_CANVAS_H
#define TOOLS_PLOT_CANVAS_H

#include <stdbool.h>
#include <stddef.h>

typedef enum { PLOT_ANCHOR_START, PLOT_ANCHOR_MIDDLE, PLOT_ANCHOR_END } plot_anchor_t;

typedef struct plot_canvas {
    void *ctx;
    void (*line)(void *ctx, const char *role, const double *xy, size_t n, const char *colour, double width,
                 const char *dash);
    void (*shape)(void *ctx, const char *role, const double *xy, size_t n, const char *fill, const char *stroke,
                  double width);
    void (*circle)(void *ctx, const char *role, double x, double y, double r, const char *fill, const char *stroke,
                   double width);
    void (*text)(void *ctx, const char *role, double x, double y, const char *s, double size, plot_anchor_t anchor,
                 bool bold, bool vertical, const char *colour);
} plot_canvas_t;

/* The image's size for plot p, in pixels (points in a PDF). */
void plot_size(const struct plot *p, int *width, int *height);
/* Draws plot p on c. */
void plot_render(const struct plot *p, const plot_canvas_t *c);

#endif
