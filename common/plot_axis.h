/* A plot axis fitted to its data: the span, the round tick values and the one number format of their labels. */
#ifndef TOOLS_PLOT_AXIS_H
#define TOOLS_PLOT_AXIS_H

#include <stdbool.h>
#include <stddef.h>

enum { PLOT_AXIS_MAX_TICKS = 40 };

typedef struct plot_axis {
    bool log;
    double lo, hi; /* in axis units (log10 of the value on a log axis) */
    double ticks[PLOT_AXIS_MAX_TICKS];
    size_t nticks;
    int decimals;  /* of every label, so that 0.5 and 1 read 0.5 and 1.0 */
    int exponent;  /* labels are value / 10^exponent when nonzero; the axis label says so */
    bool sci;      /* log axis over a span that plain numbers can't show: every label as 2e6 */
} plot_axis_t;

/* Fits the axis to data in [lo, hi] (values; lo > 0 on a log axis) with a little room; a linear axis starts at 0
 * when the data start below a fifth of their top, or vary by less than 5% of it (a zoomed axis would make 1% look
 * like a cliff). `whole`: every value is a whole number (a count, a depth), so the ticks are too. */
void plot_axis_fit(plot_axis_t *a, bool log, double lo, double hi, bool whole);
/* The position of value v between from (the axis's low end) and to. */
double plot_axis_px(const plot_axis_t *a, double v, double from, double to);
/* Whether value v lies within the axis. */
bool plot_axis_holds(const plot_axis_t *a, double v);
/* A tick's label in the axis's one format. */
void plot_axis_label(const plot_axis_t *a, double v, char *buf, size_t cap);
/* " (×10⁶)" when the labels are scaled, else "". */
const char *plot_axis_scale_note(const plot_axis_t *a);

#endif
