#include "progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* 12345678 -> "12.3 M" */
static void human(char *buf, size_t cap, double v)
{
    if (v >= 1e9)
        snprintf(buf, cap, "%.2f G", v / 1e9);
    else if (v >= 1e6)
        snprintf(buf, cap, "%.2f M", v / 1e6);
    else if (v >= 1e3)
        snprintf(buf, cap, "%.1f k", v / 1e3);
    else
        snprintf(buf, cap, "%.0f ", v);
}

void progress_init(progress_t *p, const char *what, bool quiet)
{
    memset(p, 0, sizeof *p);
    const char *force = getenv("IWARP_PROGRESS");
    p->on = !quiet && (force != NULL && force[0] != '\0' ? strcmp(force, "0") != 0 : isatty(STDERR_FILENO) == 1);
    p->what = what;
    p->t0 = p->shown = now_s();
}

/* At most five lines a second, and none when off. */
static bool due(progress_t *p, double t)
{
    if (!p->on || t - p->shown < 0.2)
        return false;
    p->shown = t;
    return true;
}

/* Over the last line, blanking what is left of a longer one. */
static void show(progress_t *p, const char *line, int n)
{
    fprintf(stderr, "\r%s%*s", line, p->width > n ? p->width - n : 0, "");
    fflush(stderr);
    p->width = n;
}

void progress_update(progress_t *p, uint64_t clock, uint64_t end)
{
    double t = now_s();
    if (!due(p, t))
        return;
    char done[32], rate[32], line[200];
    human(done, sizeof done, (double)clock);
    human(rate, sizeof rate, t > p->t0 ? (double)(clock - p->c0) / (t - p->t0) : 0);
    int n = snprintf(line, sizeof line, "%s: clock %s, %sclocks/s, %.0f s", p->what, done, rate, t - p->t0);
    if (n >= (int)sizeof line)
        n = (int)sizeof line - 1; /* a long name: the line is cut, and nothing is added after it */
    else if (end != 0 && end > clock && clock > p->c0) {
        double left = (double)(end - clock) * (t - p->t0) / (double)(clock - p->c0);
        char e[32];
        human(e, sizeof e, (double)end);
        n += snprintf(line + n, sizeof line - (size_t)n, " (limit %sclocks: at most %.0f s more)", e, left);
        if (n >= (int)sizeof line)
            n = (int)sizeof line - 1;
    }
    show(p, line, n);
}

void progress_step(progress_t *p, const char *what)
{
    double t = now_s();
    if (!due(p, t))
        return;
    char line[200];
    int n = snprintf(line, sizeof line, "%s: %s, %.0f s", p->what, what, t - p->t0);
    if (n >= (int)sizeof line)
        n = (int)sizeof line - 1;
    show(p, line, n);
}

void progress_done(progress_t *p)
{
    if (p->on && p->width > 0) {
        fprintf(stderr, "\r%*s\r", p->width, "");
        fflush(stderr);
    }
    p->width = 0;
}
