/* PNG and PDF through cairo: the same drawing calls as the SVG, on an image or a PDF surface. */
#include "plot.h"
#include "file.h"
#include "plot_canvas.h"

#include <cairo-pdf.h>
#include <cairo.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void set_colour(cairo_t *cr, const char *hex)
{
    unsigned v = (unsigned)strtoul(hex + 1, NULL, 16);
    cairo_set_source_rgb(cr, ((v >> 16) & 0xff) / 255.0, ((v >> 8) & 0xff) / 255.0, (v & 0xff) / 255.0);
}

static void set_dash(cairo_t *cr, const char *dash)
{
    double d[8];
    int n = 0;
    for (const char *s = dash; s != NULL && *s && n < 8;) {
        char *end;
        d[n++] = strtod(s, &end);
        s = *end == ',' ? end + 1 : end;
        if (end == s && *end != '\0')
            break;
    }
    cairo_set_dash(cr, d, n, 0);
}

static void path(cairo_t *cr, const double *xy, size_t n)
{
    cairo_new_path(cr);
    for (size_t i = 0; i < n; i++)
        cairo_line_to(cr, xy[2 * i], xy[2 * i + 1]);
}

static void fill_stroke(cairo_t *cr, const char *fill, const char *stroke, double width)
{
    if (fill != NULL) {
        set_colour(cr, fill);
        if (stroke != NULL)
            cairo_fill_preserve(cr);
        else
            cairo_fill(cr);
    }
    if (stroke != NULL) {
        set_colour(cr, stroke);
        cairo_set_line_width(cr, width);
        cairo_set_dash(cr, NULL, 0, 0);
        cairo_stroke(cr);
    }
    cairo_new_path(cr);
}

static void cr_line(void *ctx, const char *role, const double *xy, size_t n, const char *colour, double width,
                    const char *dash)
{
    (void)role;
    cairo_t *cr = ctx;
    path(cr, xy, n);
    set_colour(cr, colour);
    cairo_set_line_width(cr, width);
    set_dash(cr, dash);
    cairo_stroke(cr);
    cairo_set_dash(cr, NULL, 0, 0);
}

static void cr_shape(void *ctx, const char *role, const double *xy, size_t n, const char *fill, const char *stroke,
                     double width)
{
    (void)role;
    cairo_t *cr = ctx;
    path(cr, xy, n);
    cairo_close_path(cr);
    fill_stroke(cr, fill, stroke, width);
}

static void cr_circle(void *ctx, const char *role, double x, double y, double r, const char *fill, const char *stroke,
                      double width)
{
    (void)role;
    cairo_t *cr = ctx;
    cairo_new_path(cr);
    cairo_arc(cr, x, y, r, 0, 6.283185307179586);
    fill_stroke(cr, fill, stroke, width);
}

static void cr_text(void *ctx, const char *role, double x, double y, const char *s, double size, plot_anchor_t anchor,
                    bool bold, bool vertical, const char *colour)
{
    (void)role;
    cairo_t *cr = ctx;
    cairo_save(cr);
    cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL,
                           bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, size);
    cairo_text_extents_t e;
    cairo_text_extents(cr, s, &e);
    double shift = anchor == PLOT_ANCHOR_START ? 0 : anchor == PLOT_ANCHOR_MIDDLE ? e.x_advance / 2 : e.x_advance;
    cairo_translate(cr, x, y);
    if (vertical)
        cairo_rotate(cr, -1.5707963267948966);
    cairo_move_to(cr, -shift, 0);
    set_colour(cr, colour);
    cairo_show_text(cr, s);
    cairo_restore(cr);
}

/* cairo's output goes through a file_out (isa/file.h): a temporary file of its own beside path, each write checked,
 * renamed into place whole; two writers of one path never share a temporary name. */
static cairo_status_t to_file(void *closure, const unsigned char *data, unsigned int len)
{
    return fwrite(data, 1, len, closure) == len ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

/* PNG at twice the SVG's pixels, so that it reads as sharply as the vector formats; PDF in points. */
static int write_cairo(const plot_t *p, const char *path, bool png, char *err, size_t errlen)
{
    if (plot_make_parent(path) != 0) {
        snprintf(err, errlen, "%s: cannot make its folder: %s", path, strerror(errno));
        return -1;
    }
    file_out_t out;
    if (file_out_open(&out, path, "wb", err, errlen) != 0)
        return -1;
    int w, h;
    plot_size(p, &w, &h);
    double scale = png ? 2 : 1;
    cairo_surface_t *s = png ? cairo_image_surface_create(CAIRO_FORMAT_RGB24, 2 * w, 2 * h)
                             : cairo_pdf_surface_create_for_stream(to_file, out.f, w, h);
    cairo_t *cr = cairo_create(s);
    cairo_scale(cr, scale, scale);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    plot_canvas_t c = {cr, cr_line, cr_shape, cr_circle, cr_text};
    plot_render(p, &c);
    cairo_destroy(cr);
    cairo_status_t st = png ? cairo_surface_write_to_png_stream(s, to_file, out.f)
                            : (cairo_surface_finish(s), cairo_surface_status(s));
    cairo_surface_destroy(s);
    if (st != CAIRO_STATUS_SUCCESS) {
        /* A failed write of the stream sets the FILE's error, whose errno is the reason; cairo's own is the rest. */
        snprintf(err, errlen, "%s: %s", path,
                 st == CAIRO_STATUS_WRITE_ERROR && ferror(out.f) ? strerror(errno) : cairo_status_to_string(st));
        file_out_abort(&out);
        return -1;
    }
    return file_out_commit(&out, err, errlen);
}

int plot_write_png(const plot_t *p, const char *path, char *err, size_t errlen)
{
    return write_cairo(p, path, true, err, errlen);
}

int plot_write_pdf(const plot_t *p, const char *path, char *err, size_t errlen)
{
    return write_cairo(p, path, false, err, errlen);
}

int plot_write_all(const plot_t *p, const char *svg_path, char *err, size_t errlen)
{
    char other[1100];
    size_t n = strlen(svg_path);
    size_t stem = n > 4 && strcmp(svg_path + n - 4, ".svg") == 0 ? n - 4 : n;
    if (plot_write_svg(p, svg_path, err, errlen) != 0)
        return -1;
    snprintf(other, sizeof other, "%.*s.png", (int)stem, svg_path);
    if (plot_write_png(p, other, err, errlen) != 0)
        return -1;
    snprintf(other, sizeof other, "%.*s.pdf", (int)stem, svg_path);
    return plot_write_pdf(p, other, err, errlen);
}
