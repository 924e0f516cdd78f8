/* iwarp traffic as a person runs it (the binary is argv[1]; docs/traffic.md shows these commands): the table,
 * one JSON record per point, the plots of a curve, the same records whatever the threads, and a clear message
 * for every option out of range. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "command.h"
#include "test_dir.h"
#include "iwarp_config.h"

static const char *iwarp;

static int tool(char **out, const char *args)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "'%s' traffic %s 2>&1", iwarp, args);
    return command_run(cmd, out);
}

static void expect(const char *args, int status, const char *text)
{
    char *out;
    int st = tool(&out, args);
    if (st != status || strstr(out, text) == NULL)
        fail_msg("iwarp traffic %s: status %d (wanted %d), output:\n%s\n(wanted it to contain: %s)", args, st, status,
                 out, text);
    free(out);
}

static unsigned count(const char *text, const char *needle)
{
    unsigned n = 0;
    for (const char *p = text; (p = strstr(p, needle)) != NULL; p += strlen(needle))
        n++;
    return n;
}

static void test_a_curve_prints_a_row_per_rate_and_draws_both_plots(void **state)
{
    (void)state;
    char dir[256], args[512], path[512];
    assert_int_equal(test_dir_make(dir, sizeof dir, "iwarp-traffic-test"), 0);
    snprintf(args, sizeof args, "--rate 0.01:0.03:0.01 --sample 500 --warmup 500 --out %s", dir);
    char *out;
    int st = tool(&out, args);
    if (st != 0 || count(out, "\n 0.0") != 3 || strstr(out, "latency.svg") == NULL)
        fail_msg("status %d, output:\n%s", st, out);
    free(out);
    static const char *const plots[] = {"latency.svg", "accepted.svg", "latency.png", "accepted.pdf"};
    for (size_t i = 0; i < sizeof plots / sizeof plots[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, plots[i]);
        assert_int_equal(access(path, R_OK), 0);
    }
    /* the configuration under the title: array, routing, injection, message size */
    snprintf(path, sizeof path, "%s/latency.svg", dir);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    static char svg[1 << 16];
    svg[fread(svg, 1, sizeof svg - 1, f)] = '\0';
    fclose(f);
    const char *config = strstr(svg, "class='config'");
    assert_non_null(config);
    assert_non_null(strstr(config, "8x8 torus, routed messages (dimension order), Bernoulli injection"));
    assert_non_null(strstr(config, "data words a message"));
    assert_int_equal(test_dir_remove(dir), 0);
}

static void test_json_is_a_record_per_point_and_the_threads_change_nothing(void **state)
{
    (void)state;
    char *one, *two;
    const char *args = "--pattern uniform,tornado --rate 0.02,0.3 --size 1-16 --sample 400 --warmup 400 --json";
    char with_threads[512];
    snprintf(with_threads, sizeof with_threads, "%s --threads 2", args);
    assert_int_equal(tool(&one, args), 0);
    assert_int_equal(tool(&two, with_threads), 0);
    assert_int_equal(count(one, "{\"command\":\"traffic\""), 4);
    assert_int_equal(count(one, "\n"), 4);
    assert_int_equal(count(one, "\"errors\":0,"), 4);
    assert_non_null(strstr(one, "\"pattern\":\"tornado\""));
    assert_non_null(strstr(one, "\"latency_by_hops\":[{\"hops\":"));
    assert_string_equal(one, two);
    free(one);
    free(two);
    /* Every link's utilization on request: 4 a cell. */
    char *links;
    assert_int_equal(tool(&links, "--array 3x2 --rate 0.05 --sample 300 --warmup 300 --json --links"), 0);
    const char *l = strstr(links, "\"link_utilization\":[");
    assert_non_null(l);
    assert_int_equal(count(l, ","), 4 * 6 - 1 + count(strchr(l, ']'), ","));
    assert_non_null(strstr(links, "\"busiest_link\":\"("));
    free(links);
}

static void test_options_out_of_range_are_refused_with_a_reason(void **state)
{
    (void)state;
    expect("--rate 1.5", 2, "--rate wants a rate in 0..1");
    expect("--rate 0.2:0.1:0.01", 2, "--rate wants");
    expect("--rate 0:1:0.001", 2, "at most 64 points");
    expect("--rate 0.6 --size 1 --injection onoff --duty 0.5", 2, "rate 0.6 is out of range");
    expect("--size 0", 2, "--size wants words per message in 1..");
    expect("--size 8-4", 2, "--size A-B wants");
    expect("--pattern uniform,nope", 2, "--pattern wants");
    /* empty names are refused wherever they stand, not only at the end (issue 33) */
    expect("--pattern ,uniform", 2, "--pattern wants");
    expect("--pattern uniform,,bitrev", 2, "--pattern wants");
    /* a range longer than the parser's buffer is refused, not cut to another one: this step is 1e4, not 0.1 */
    expect("--rate 0:0.5:0.1000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
           "000000000000000000000000000000000e5",
           2, "--rate wants a rate in 0..1");
    /* out of range: the range is said */
    expect("--latency-limit 0", 2, "--latency-limit wants 1..1e12 clocks");
    expect("--hotspot 40,1", 2, "--hotspot wants X,Y of a cell, each 0..31");
    expect("--warmup 1073741825", 2, "--warmup wants 0..2^30 clocks");
    expect("--array 0x4", 2, "--array wants WxH");
    expect("--array 8x4 --pattern transpose", 2, "transpose needs a square array");
    expect("--array 6x6 --pattern shuffle", 2, "shuffle needs W*H a power of 2");
    expect("--samples 4:2", 2, "--samples wants MIN:MAX");
    expect("--duty 0", 2, "--duty wants a fraction 0 < F <= 1");
    expect("--injection poisson", 2, "--injection wants bernoulli or onoff");
    expect("--hotspot 9,9", 2, "--hotspot 9,9 is outside the 8x8 array");
    expect("--hotspot 3,4x", 2, "--hotspot wants X,Y of a cell");
    expect("--threads 0", 2, "--threads wants 1..64");
    expect("--set queue_depth=0", 2, "--set queue_depth=0:");
    expect("--set channels=16", 2, "channels must be at least 20");
    expect("--tolerance 2", 2, "--tolerance wants");
    expect("extra", 2, "unexpected argument 'extra'");
    expect("--links", 2, "--links goes with --json");
    expect("--routing xy", 2, "--routing wants dor or fixed");
    expect("--routing fixed --pattern hotspot", 2, "fixed pathways need a pattern where each cell sends to one cell");
}

/* The commands docs/traffic.md shows run as shown (with shorter periods, so the test stays quick). */
static void test_the_documented_commands_run(void **state)
{
    (void)state;
    FILE *f = fopen(IWARP_SOURCE_ROOT "/docs/traffic.md", "r");
    assert_non_null(f);
    char *text = command_read_all(f);
    fclose(f);
    char dir[256];
    assert_int_equal(test_dir_make(dir, sizeof dir, "iwarp-traffic-doc"), 0);
    unsigned ran = 0;
    static const char prefix[] = "build/tools/iwarp traffic";
    for (char *line = text; line != NULL && *line;) {
        char *nl = strchr(line, '\n');
        if (nl != NULL)
            *nl = '\0';
        if (strncmp(line, prefix, sizeof prefix - 1) == 0) {
            char *hash = strchr(line, '#');
            if (hash != NULL)
                *hash = '\0';
            char args[1024];
            snprintf(args, sizeof args, "%s --warmup 200 --sample 200 --samples 1:2 --drain 2000 --out %s",
                     line + sizeof prefix - 1, dir);
            char *out;
            int st = tool(&out, args);
            if (st != 0)
                fail_msg("iwarp traffic%s: status %d\n%s", args, st, out);
            free(out);
            ran++;
        }
        line = nl != NULL ? nl + 1 : NULL;
    }
    free(text);
    assert_true(ran >= 5);
    assert_int_equal(test_dir_remove(dir), 0);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s IWARP\n", argv[0]);
        return 2;
    }
    iwarp = argv[1];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_curve_prints_a_row_per_rate_and_draws_both_plots),
        cmocka_unit_test(test_json_is_a_record_per_point_and_the_threads_change_nothing),
        cmocka_unit_test(test_options_out_of_range_are_refused_with_a_reason),
        cmocka_unit_test(test_the_documented_commands_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
