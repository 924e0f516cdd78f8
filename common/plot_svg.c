/* The SVG canvas: each drawing call one element, lines classed by their role (series, model, grid, ...). */
#include "plot.h"
#include "plot_canvas.h"

#include "file.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static void escaped(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        if (*s == '<')
            fputs("&lt;", f);
        else if (*s == '>')
            fputs("&gt;", f);
        else if (*s == '&')
            fputs("&amp;", f);
        else if (*s == '\'')
            fputs("&apos;", f);
        else
            fputc(*s, f);
    }
}

static void paint(FILE *f, const char *fill, const char *stroke, double width)
{
    fprintf(f, " fill='%s'", fill ? fill : "none");
    if (stroke != NULL)
        fprintf(f, " stroke='%s' stroke-width='%.1f'", stroke, width);
}

static void svg_line(void *ctx, const char *role, const double *xy, size_t n, const char *colour, double width,
                     const char *dash)
{
    FILE *f = ctx;
    fprintf(f, "<polyline class='%s' fill='none' stroke='%s' stroke-width='%.1f'", role, colour, width);
    if (dash != NULL)
        fprintf(f, " stroke-dasharray='%s'", dash);
    fputs(" points='", f);
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%s%.1f,%.1f", i ? " " : "", xy[2 * i], xy[2 * i + 1]);
    fputs("'/>\n", f);
}

static void svg_shape(void *ctx, const char *role, const double *xy, size_t n, const char *fill, const char *stroke,
                      double width)
{
    FILE *f = ctx;
    fprintf(f, "<polygon class='%s'", role);
    paint(f, fill, stroke, width);
    fputs(" points='", f);
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%s%.1f,%.1f", i ? " " : "", xy[2 * i], xy[2 * i + 1]);
    fputs("'/>\n", f);
}

static void svg_circle(void *ctx, const char *role, double x, double y, double r, const char *fill,
                       const char *stroke, double width)
{
    FILE *f = ctx;
    fprintf(f, "<circle class='%s' cx='%.1f' cy='%.1f' r='%.1f'", role, x, y, r);
    paint(f, fill, stroke, width);
    fputs("/>\n", f);
}

static void svg_text(void *ctx, const char *role, double x, double y, const char *s, double size,
                     plot_anchor_t anchor, bool bold, bool vertical, const char *colour)
{
    static const char *const anchors[] = {"start", "middle", "end"};
    FILE *f = ctx;
    fprintf(f, "<text class='%s' x='%.1f' y='%.1f' text-anchor='%s' font-size='%g' fill='%s'%s", role, x, y,
            anchors[anchor], size, colour, bold ? " font-weight='bold'" : "");
    if (vertical)
        fprintf(f, " transform='rotate(-90 %.1f %.1f)'", x, y);
    fputc('>', f);
    escaped(f, s);
    fputs("</text>\n", f);
}

int plot_write_svg(const plot_t *p, const char *path, char *err, size_t errlen)
{
    if (plot_make_parent(path) != 0) {
        snprintf(err, errlen, "%s: cannot make its folder: %s", path, strerror(errno));
        return -1;
    }
    file_out_t out; /* whole or not at all (file.h) */
    if (file_out_open(&out, path, "w", err, errlen) != 0)
        return -1;
    int w, h;
    plot_size(p, &w, &h);
    fprintf(out.f, "<svg xmlns='http://www.w3.org/2000/svg' width='%d' height='%d' font-family='DejaVu Sans, sans-serif'>\n",
            w, h);
    plot_canvas_t c = {out.f, svg_line, svg_shape, svg_circle, svg_text};
    plot_render(p, &c);
    fputs("</svg>\n", out.f);
    return file_out_commit(&out, err, errlen);
}
