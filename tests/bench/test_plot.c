/* The SVG plots' categorical x axes: a tick and a label per name, in order and escaped, staggered onto two
 * lines when the names would run into each other, and the numbers of a plain axis otherwise. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "plot.h"

static char *svg_of(const plot_t *p)
{
    char path[] = "/tmp/iwarp_plot_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(plot_write_svg(p, path), 0);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_categories_name_their_points_in_order),
        cmocka_unit_test(test_crowded_names_stagger),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
