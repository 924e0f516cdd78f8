/* The plots' rules, each by a test that fails when the rule is broken: categorical x axes (names in order,
 * staggered when crowded, points without joining lines), models dashed in their measurement's colour, related
 * series in one hue, axes fitted to the data with one number format, the legend's and the title's texts, gaps
 * left as gaps, marked points ringed and left out of the fit, log y over decades, and PNG and PDF beside SVG. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <math.h>

#include "plot.h"

static char *svg_of(const plot_t *p)
{
    char path[] = "/tmp/iwarp_plot_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    char err[512];
    assert_int_equal(plot_write_svg(p, path, err, sizeof err), 0);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    remove(path);
    return buf;
}

static void test_categories_name_their_points_in_order(void **state)
{
    (void)state;
    static const char *const names[] = {"1Q1", "!Q!", "a<b"};
    plot_t p;
    plot_init(&p, "t", "x", "y", false, false);
    plot_series_t *s = plot_add(&p, "s", false);
    for (unsigned i = 0; i < 3; i++)
        plot_point(s, i, 10 + i);
    plot_categories(&p, names, 3);
    const char *svg = svg_of(&p);
    const char *a = strstr(svg, ">1Q1<"), *b = strstr(svg, ">!Q!<"), *c = strstr(svg, ">a&lt;b<");
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(c);
    assert_true(a < b && b < c);
    assert_null(strstr(svg, ">0.5<")); /* no numeric ticks on a categorical axis */
}

/* Label y positions: one row when the names fit, two when they do not. */
static unsigned label_rows(const char *svg)
{
    double ys[64];
    unsigned n = 0, rows = 0;
    for (const char *p = strstr(svg, "font-size='11'"); p != NULL && n < 64; p = strstr(p + 1, "font-size='11'")) {
        const char *y = p;
        while (y > svg && strncmp(y, " y='", 4) != 0)
            y--;
        ys[n++] = atof(y + 4);
    }
    for (unsigned i = 0; i < n; i++) {
        bool seen = false;
        for (unsigned j = 0; j < i; j++)
            seen |= ys[j] == ys[i];
        rows += !seen;
    }
    return rows;
}

static void test_crowded_names_stagger(void **state)
{
    (void)state;
    static const char *const short_names[] = {"a", "b", "c"};
    static const char *const long_names[] = {"transpose", "gather", "cyclic", "transpose", "gather", "cyclic",
                                             "transpose", "gather", "cyclic", "transpose"};
    plot_t p;
    plot_init(&p, "t", "x", "y", false, false);
    plot_series_t *s = plot_add(&p, "s", false);
    for (unsigned i = 0; i < 10; i++)
        plot_point(s, i, i);
    plot_categories(&p, short_names, 3);
    assert_int_equal(label_rows(svg_of(&p)), 1);
    plot_categories(&p, long_names, 10);
    assert_int_equal(label_rows(svg_of(&p)), 2);
}

static unsigned count(const char *svg, const char *what)
{
    unsigned n = 0;
    for (const char *p = strstr(svg, what); p != NULL; p = strstr(p + 1, what))
        n++;
    return n;
}

/* The attribute `attr` of the first element that holds `what`. */
static void attr_of(const char *svg, const char *what, const char *attr, char *out, size_t cap)
{
    const char *p = strstr(svg, what);
    assert_non_null(p);
    while (p > svg && *p != '<')
        p--;
    const char *a = strstr(p, attr);
    assert_non_null(a);
    a += strlen(attr);
    size_t n = strcspn(a, "'");
    snprintf(out, cap, "%.*s", (int)(n < cap ? n : cap - 1), a);
}

/* Tick labels (class 'tick') in document order, as text. */
static unsigned tick_labels(const char *svg, char labels[][32], unsigned cap)
{
    unsigned n = 0;
    for (const char *p = strstr(svg, "class='tick'"); p != NULL && n < cap; p = strstr(p + 1, "class='tick'")) {
        const char *t = strchr(p, '>') + 1;
        size_t len = strcspn(t, "<");
        snprintf(labels[n++], 32, "%.*s", (int)(len < 31 ? len : 31), t);
    }
    return n;
}

static void test_categories_draw_points_without_lines(void **state)
{
    (void)state;
    static const char *const names[] = {"a", "b", "c"};
    plot_t p;
    plot_init(&p, "t", "x", "y", false, false);
    plot_series_t *s = plot_add(&p, "measured", false), *m = plot_add_model(&p, "model", s);
    for (unsigned i = 0; i < 3; i++) {
        plot_point(s, i, 10 + i);
        plot_point(m, i, 11 + i);
    }
    plot_categories(&p, names, 3);
    const char *svg = svg_of(&p);
    assert_int_equal(count(svg, "class='series'"), 0);
    assert_int_equal(count(svg, "class='model'"), 3); /* a short bar beside each point */
    assert_int_equal(count(svg, "class='marker'"), 3 + 1 /* the legend's */);
}

static void test_model_is_dashed_in_its_series_colour(void **state)
{
    (void)state;
    plot_t p;
    plot_init(&p, "t", "x", "y", false, false);
    plot_series_t *a = plot_add(&p, "a", false), *b = plot_add(&p, "b", false);
    plot_series_t *ma = plot_add_model(&p, "a model", a), *mb = plot_add_model(&p, "b model", b);
    for (unsigned i = 1; i < 5; i++) {
        plot_point(a, i, i);
        plot_point(b, i, 2 * i);
        plot_point(ma, i, i + 0.5);
        plot_point(mb, i, 2 * i + 0.5);
    }
    const char *svg = svg_of(&p);
    char sa[16], sb[16], ca[16], cb[16], dash[16];
    attr_of(svg, "class='series'", "stroke='", sa, sizeof sa);
    attr_of(strstr(svg, "class='series'") + 1, "class='series'", "stroke='", sb, sizeof sb);
    attr_of(svg, "class='model'", "stroke='", ca, sizeof ca);
    attr_of(strstr(svg, "class='model'") + 1, "class='model'", "stroke='", cb, sizeof cb);
    attr_of(svg, "class='model'", "stroke-dasharray='", dash, sizeof dash);
    assert_string_not_equal(sa, sb);
    assert_string_equal(sa, ca);
    assert_string_equal(sb, cb);
    assert_true(strlen(dash) > 0);
}

static void test_related_series_share_a_hue_and_shape(void **state)
{
    (void)state;
    plot_t p;
    plot_init(&p, "t", "x", "y", false, false);
    plot_series_t *first = NULL;
    for (unsigned k = 0; k < 5; k++) {
        plot_series_t *u = plot_add(&p, "uncached", false), *c = plot_add_related(&p, "cached", u);
        assert_int_equal(u->hue, c->hue);
        assert_int_not_equal(u->shade, c->shade);
        first = first ? first : u;
    }
    assert_int_equal(p.nhues, 5); /* ten series, five hues: not ten unrelated colours */
    plot_point(&p.series[0], 1, 1);
    plot_point(&p.series[1], 1, 1);
    const char *svg = svg_of(&p);
    /* the twin's marker is a ring around the first one's dot, so a coinciding point still shows both */
    assert_non_null(strstr(svg, "class='marker' cx='"));
    assert_true(count(svg, "class='marker'") >= 2);
    assert_non_null(strstr(svg, "fill='none' stroke='#5b9bd5'"));
    (void)first;
}

static void test_axes_fit_the_data(void **state)
{
    (void)state;
    plot_t p;
    plot_init(&p, "t", "messages", "y", false, false);
    plot_series_t *s = plot_add(&p, "s", false);
    for (unsigned i = 1; i <= 32; i *= 2)
        plot_point(s, i, i);
    char labels[40][32];
    unsigned n = tick_labels(svg_of(&p), labels, 40);
    assert_true(n > 4);
    for (unsigned i = 0; i < n; i++)
        assert_true(atof(labels[i]) <= 34); /* both axes end near 32, not at 40 */
}

/* A count on the x axis (queue depths 1 to 4) gets whole-number ticks, not 1.5 and 2.5; a y that hardly varies
 * (511 to 516 clocks) is drawn from zero, not magnified into a cliff. */
static void test_whole_counts_and_flat_data_read_true(void **state)
{
    (void)state;
    plot_t p;
    plot_init(&p, "t", "queue depth", "g", false, false);
    plot_series_t *s = plot_add(&p, "s", false);
    for (unsigned q = 1; q <= 4; q++)
        plot_point(s, q, 516 - 1.5 * q);
    char labels[40][32];
    unsigned n = tick_labels(svg_of(&p), labels, 40);
    bool zero = false;
    for (unsigned i = 0; i < n; i++) {
        if (strchr(labels[i], '.') != NULL)
            fail_msg("a fractional tick on axes of whole numbers: %s", labels[i]);
        zero |= strcmp(labels[i], "0") == 0;
    }
    assert_true(zero);
}

static void test_one_number_format_per_axis(void **state)
{
    (void)state;
    plot_t p;
    plot_init(&p, "t", "x", "y", false, false);
    plot_series_t *s = plot_add(&p, "s", false);
    plot_point(s, 1, 0);
    plot_point(s, 2, 2.1e6);
    const char *svg = svg_of(&p);
    char labels[40][32];
    unsigned n = tick_labels(svg, labels, 40);
    int decimals = -1;
    for (unsigned i = 0; i < n; i++) {
        if (strchr(labels[i], 'e') != NULL)
            fail_msg("exponent in a linear tick label: %s", labels[i]);
        const char *dot = strchr(labels[i], '.');
        int d = dot ? (int)strlen(dot + 1) : 0;
        if (strcmp(labels[i], "1") == 0 || strcmp(labels[i], "2") == 0)
            continue; /* the x axis's labels */
        if (decimals >= 0 && d != decimals && atof(labels[i]) < 100)
            fail_msg("labels with %d and %d decimals (%s)", decimals, d, labels[i]);
        decimals = atof(labels[i]) < 100 ? d : decimals;
    }
    assert_non_null(strstr(svg, "×10⁶")); /* the axis label says what the labels are scaled by */
}

static void test_legend_and_title_name_parameter_and_configuration(void **state)
{
    (void)state;
    plot_t p;
    plot_init(&p, "latency vs offered load", "x", "y", false, false);
    p.config = "8x8 torus, 16-word messages, dimension-order routing";
    p.legend_title = "message size (words)";
    plot_point(plot_add(&p, "16", false), 1, 1);
    const char *svg = svg_of(&p);
    assert_non_null(strstr(svg, "class='legend-title'"));
    assert_non_null(strstr(svg, ">message size (words)<"));
    assert_non_null(strstr(svg, "class='config'"));
    assert_non_null(strstr(svg, ">8x8 torus, 16-word messages, dimension-order routing<"));
}

static void test_gaps_stay_gaps(void **state)
{
    (void)state;
    plot_t p;
    plot_init(&p, "t", "x", "y", false, false);
    plot_series_t *s = plot_add(&p, "s", false);
    plot_point(s, 1, 1);
    plot_point(s, 2, 2);
    plot_point(s, 3, NAN); /* missing */
    plot_point(s, 4, 4);
    plot_point(s, 5, 5);
    const char *svg = svg_of(&p);
    assert_int_equal(count(svg, "class='series'"), 2);
    assert_int_equal(count(svg, "class='marker'"), 4 + 1);
}

static void test_marked_points_are_ringed_and_kept_out_of_the_fit(void **state)
{
    (void)state;
    plot_t p;
    plot_init(&p, "t", "x", "y", false, false);
    p.mark_label = "saturated";
    p.fit_unmarked = true;
    plot_series_t *s = plot_add(&p, "s", false);
    for (unsigned i = 1; i <= 4; i++)
        plot_point(s, i, 10 * i);
    plot_point_marked(s, 5, 5000);
    const char *svg = svg_of(&p);
    assert_int_equal(count(svg, "class='mark'"), 2); /* the ring and the arrow off the fitted axis */
    assert_non_null(strstr(svg, ">saturated<"));
    char labels[40][32];
    unsigned n = tick_labels(svg, labels, 40);
    for (unsigned i = 0; i < n; i++)
        assert_true(atof(labels[i]) <= 50); /* the marked 5000 does not squash the others */
    p.fit_unmarked = false;
    n = tick_labels(svg_of(&p), labels, 40);
    double top = 0;
    for (unsigned i = 0; i < n; i++)
        top = fmax(top, atof(labels[i]));
    assert_true(top >= 5000);
}

static void test_log_y_over_decades(void **state)
{
    (void)state;
    plot_t p;
    plot_init(&p, "t", "x", "y", false, false);
    plot_series_t *s = plot_add(&p, "s", false);
    plot_point(s, 1, 10);
    plot_point(s, 2, 500);
    plot_log_y_if_decades(&p);
    assert_false(p.log_y);
    p.fit_unmarked = true;
    plot_point_marked(s, 3, 5000); /* a marked point counts: the log axis shows it without squashing */
    plot_log_y_if_decades(&p);
    assert_true(p.log_y);
    assert_false(p.fit_unmarked);
}

static void test_png_and_pdf_beside_svg(void **state)
{
    (void)state;
    char dir[] = "/tmp/iwarp_plotdir_XXXXXX", path[256];
    assert_non_null(mkdtemp(dir));
    plot_t p;
    plot_init(&p, "t", "x", "y", false, false);
    plot_point(plot_add(&p, "s", false), 1, 1);
    snprintf(path, sizeof path, "%s/a.svg", dir);
    char err[512];
    assert_int_equal(plot_write_all(&p, path, err, sizeof err), 0);
    static const char *const ext[] = {"svg", "png", "pdf"}, *const magic[] = {"<svg", "\x89PNG", "%PDF"};
    for (unsigned i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/a.%s", dir, ext[i]);
        FILE *f = fopen(path, "rb");
        assert_non_null(f);
        char head[8] = {0};
        assert_true(fread(head, 1, 4, f) == 4);
        fclose(f);
        assert_memory_equal(head, magic[i], 4);
        remove(path);
    }
    rmdir(dir);
}

/* A plot that cannot be written says which file and why, and leaves nothing behind: not the file, and no
 * temporary file beside it (the PNG and PDF went through fixed "NAME.tmp" names before, which two writers of one
 * plot shared: one's rename took the other's file away, and the message had no reason). */
static void test_a_failed_write_says_why_and_leaves_nothing(void **state)
{
    (void)state;
    char dir[] = "/tmp/iwarp_plotfail_XXXXXX", path[256], err[512];
    assert_non_null(mkdtemp(dir));
    plot_t p;
    plot_init(&p, "t", "x", "y", false, false);
    plot_point(plot_add(&p, "s", false), 1, 1);
    /* the PNG's name is taken by a folder: the SVG is written, the PNG is not */
    snprintf(path, sizeof path, "%s/a.png", dir);
    assert_int_equal(mkdir(path, 0700), 0);
    snprintf(path, sizeof path, "%s/a.svg", dir);
    assert_int_equal(plot_write_all(&p, path, err, sizeof err), -1);
    assert_non_null(strstr(err, "a.png: is a directory"));
    snprintf(path, sizeof path, "%s/a.png", dir);
    assert_int_equal(rmdir(path), 0);
    /* a folder that cannot be made: its parent is a file */
    snprintf(path, sizeof path, "%s/a.svg/b.pdf", dir);
    assert_int_equal(plot_write_pdf(&p, path, err, sizeof err), -1);
    if (strstr(err, "b.pdf: ") == NULL || strstr(err, "Not a directory") == NULL)
        fail_msg("%s", err);
    snprintf(path, sizeof path, "%s/a.svg", dir);
    assert_int_equal(remove(path), 0);
    assert_int_equal(rmdir(dir), 0); /* fails if anything else was left in it */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_categories_name_their_points_in_order),
        cmocka_unit_test(test_a_failed_write_says_why_and_leaves_nothing),
        cmocka_unit_test(test_crowded_names_stagger),
        cmocka_unit_test(test_categories_draw_points_without_lines),
        cmocka_unit_test(test_model_is_dashed_in_its_series_colour),
        cmocka_unit_test(test_related_series_share_a_hue_and_shape),
        cmocka_unit_test(test_axes_fit_the_data),
        cmocka_unit_test(test_whole_counts_and_flat_data_read_true),
        cmocka_unit_test(test_one_number_format_per_axis),
        cmocka_unit_test(test_legend_and_title_name_parameter_and_configuration),
        cmocka_unit_test(test_gaps_stay_gaps),
        cmocka_unit_test(test_marked_points_are_ringed_and_kept_out_of_the_fit),
        cmocka_unit_test(test_log_y_over_decades),
        cmocka_unit_test(test_png_and_pdf_beside_svg),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
