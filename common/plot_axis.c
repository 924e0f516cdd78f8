/* Axes fitted to the data: the span ends a little past the extreme points (not at the next round step, which
 * put 32 messages on an axis to 40), the ticks are round values inside it, and all labels share one format. */
#include "plot_axis.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static double to_axis(const plot_axis_t *a, double v)
{
    return a->log ? log10(v > 0 ? v : 1e-300) : v;
}

double plot_axis_px(const plot_axis_t *a, double v, double from, double to)
{
    return from + (to_axis(a, v) - a->lo) / (a->hi - a->lo) * (to - from);
}

bool plot_axis_holds(const plot_axis_t *a, double v)
{
    double t = to_axis(a, v), eps = (a->hi - a->lo) * 1e-9;
    return t >= a->lo - eps && t <= a->hi + eps;
}

/* Decimals that show v exactly enough at this step (0 for whole steps). */
static int decimals_for(double step)
{
    int d = 0;
    while (d < 6 && fabs(step * pow(10, d) - round(step * pow(10, d))) > 1e-6 * step * pow(10, d))
        d++;
    return d;
}

static void fit_log(plot_axis_t *a, double lo, double hi)
{
    lo = log10(lo > 0 ? lo : 1);
    hi = log10(hi > 0 ? hi : 1);
    double room = fmax(0.04, (hi - lo) * 0.04);
    lo -= room;
    hi += room;
    if (hi - lo < 0.6) {
        double mid = (hi + lo) / 2;
        lo = mid - 0.3;
        hi = mid + 0.3;
    }
    a->lo = lo;
    a->hi = hi;
    /* 1, 2, 5 times the decades when the span is short, decades alone (or every other) when it is long */
    static const double steps[] = {1, 2, 5};
    size_t per = hi - lo <= 3 ? 3 : 1;
    int every = hi - lo > 12 ? 2 : 1;
    for (int d = (int)floor(lo); d <= (int)ceil(hi); d++) {
        if (d % every != 0)
            continue;
        for (size_t k = 0; k < per && a->nticks < PLOT_AXIS_MAX_TICKS; k++) {
            double v = steps[k] * pow(10, d);
            if (log10(v) >= lo && log10(v) <= hi)
                a->ticks[a->nticks++] = v;
        }
    }
    double tlo = a->nticks ? a->ticks[0] : 1, thi = a->nticks ? a->ticks[a->nticks - 1] : 1;
    a->sci = tlo < 0.01 || thi >= 1e5;
    for (size_t i = 0; i < a->nticks && !a->sci; i++) {
        int d = a->ticks[i] < 1 ? (int)ceil(-log10(a->ticks[i]) - 1e-9) : 0;
        a->decimals = d > a->decimals ? d : a->decimals;
    }
}

static void fit_linear(plot_axis_t *a, double lo, double hi, bool whole)
{
    /* Magnitudes near zero (or all one value) read against it, and so do ones that hardly vary (511 to 516 clocks
     * drawn from 510 looked like a fivefold rise); data far above zero that vary get the axis. */
    if (lo >= 0 && (lo < hi * 0.2 || hi <= lo || hi - lo < hi * 0.05))
        lo = 0;
    if (hi <= lo)
        hi = lo + (lo != 0 ? fabs(lo) * 0.1 : 1);
    double span = hi - lo, room = span * 0.04;
    a->lo = lo == 0 ? 0 : lo - room;
    a->hi = hi + room;
    if (hi <= 0 && hi >= -room)
        a->hi = hi;
    /* four to eight round steps: 1, 2 or 5 times a decade */
    double raw = (a->hi - a->lo) / 5, decade = pow(10, floor(log10(raw))), f = raw / decade;
    double step = decade * (f <= 1.5 ? 1 : f <= 3 ? 2 : f <= 7 ? 5 : 10);
    if (whole && step < 1)
        step = 1; /* no tick at a queue depth of 2.5 */
    for (double v = ceil(a->lo / step - 1e-9) * step; v <= a->hi + step * 1e-9 && a->nticks < PLOT_AXIS_MAX_TICKS;
         v += step)
        a->ticks[a->nticks++] = fabs(v) < step * 1e-9 ? 0 : v;
    double big = fmax(fabs(a->lo), fabs(a->hi));
    if (big >= 1e5 || (big > 0 && big < 1e-2))
        a->exponent = 3 * (int)floor(log10(big) / 3);
    a->decimals = decimals_for(step / pow(10, a->exponent));
}

void plot_axis_fit(plot_axis_t *a, bool log, double lo, double hi, bool whole)
{
    memset(a, 0, sizeof *a);
    a->log = log;
    if (log)
        fit_log(a, lo, hi);
    else
        fit_linear(a, lo, hi, whole);
}

void plot_axis_label(const plot_axis_t *a, double v, char *buf, size_t cap)
{
    if (a->sci) {
        int e = (int)floor(log10(v) + 1e-9);
        snprintf(buf, cap, "%.0fe%d", v / pow(10, e), e);
        return;
    }
    snprintf(buf, cap, "%.*f", a->decimals, v / pow(10, a->exponent));
}

const char *plot_axis_scale_note(const plot_axis_t *a)
{
    switch (a->exponent) {
    case 0: return "";
    case 3: return " (×10³)";
    case 6: return " (×10⁶)";
    case 9: return " (×10⁹)";
    case -3: return " (×10⁻³)";
    case -6: return " (×10⁻⁶)";
    default: return " (scaled)";
    }
}
