/* iwarp route as a person runs it (the binary is argv[1]): options, exit statuses, output files, messages. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "command.h"
#include "route_test.h"

static const char *iwarp;
static char dir[] = "/tmp/route_cli_XXXXXX";

/* Runs `iwarp route ARGS` with stderr, and stdout unless ARGS sends it elsewhere, read into *out; returns the
 * exit status. */
static int route(char **out, const char *args)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "cd %s && %s route %s 2>&1", dir, iwarp, args);
    if (strchr(args, '>') != NULL) /* 2>&1 first: stderr to the pipe, then stdout where ARGS says */
        snprintf(cmd, sizeof cmd, "cd %s && %s route 2>&1 %s", dir, iwarp, args);
    return command_run(cmd, out);
}

static void write_file(const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static char *slurp(const char *name, size_t *len)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return rt_read_file(path, len);
}

static void expect(const char *args, int status, const char *text)
{
    char *out;
    int st = route(&out, args);
    if (st != status || strstr(out, text) == NULL)
        fail_msg("iwarp route %s: status %d (expected %d), output:\n%s\n(expected to contain '%s')", args, st, status,
                 out, text);
    free(out);
}

static void test_help_and_bad_usage(void **state)
{
    (void)state;
    expect("--help", 0, "usage: iwarp route");
    expect("", 2, "usage: iwarp route");
    expect("a.cset b.cset", 2, "usage: iwarp route");
    expect("--capacity 17 a.cset", 2, "--capacity wants 1..16, not '17'");
    expect("--iterations x a.cset", 2, "--iterations wants");
    expect("--pattern ring --words 4", 2, "--pattern wants torus, butterfly or alltoall, not 'ring'");
    expect("--pattern torus", 2, "needs --words");
    expect("--words 4 a.cset", 2, "go with --pattern");
    expect("--pattern torus --words 4 --array 33x1", 2, "--array wants WxH");
    expect("--pattern butterfly --words 4 --array 6x8", 2, "powers of two");
}

static void test_errors_in_a_file_are_reported_at_file_line_col(void **state)
{
    (void)state;
    write_file("bad.cset", "array 4x4\nconn a 0,0 4,0 8\nconn b 0,0 1,0 0\n");
    expect("bad.cset", 2, "bad.cset:2:12: DST 4,0 is outside the 4x4 array\nbad.cset:3:16: WORDS must be");
    expect("missing.cset", 2, "missing.cset: cannot read");
}

static void test_a_generated_pattern_compiles_to_the_same_tables_as_its_file(void **state)
{
    (void)state;
    expect("--pattern butterfly --words 32 -o gen.cdat --cset gen.cset", 0, "phases: 2");
    expect("gen.cset -o file.cdat", 0, "route gen.cset: 384 connections, 1 task, array 8x8, capacity 12");
    size_t n1, n2;
    char *a = slurp("gen.cdat", &n1), *b = slurp("file.cdat", &n2);
    assert_int_equal(n1, n2);
    assert_memory_equal(a, b, n1);
    assert_memory_equal(a, "IWCDAT01", 8);
    free(a);
    free(b);
    /* The capacity given on the command line wins over the file's. */
    expect("gen.cset --capacity 16", 0, "phases: 1 ");
}

static void test_report_and_json(void **state)
{
    (void)state;
    write_file("two.cset", "array 3x1\nconn a 0,0 2,0 5\nconn b 2,0 0,0 6 after a\n");
    expect("two.cset --report", 0, "0..10       path 0,0:4 2,0:4\n");
    expect("two.cset --report", 0, "10..22       path 2,0:5 0,0:5\n");
    expect("two.cset --json", 0, "\"phase_count\": 1");
    expect("two.cset --json --report", 0, "\"channels\": [");
    expect("two.cset --json", 0, "\"predicted_clocks\": 22");
}

/* --paper: the ConSet paper's compiler, said in the report and the JSON; not with --links. The link-weighted
 * column: a (0,0 -> 2,0) and b (1,0 -> 3,0) have neither end in common, so AS runs them at once, and both cross
 * the link +X out of 1,0 (5 words x 2 clocks = 10 clocks, the link shared by 2: 20). */
static void test_paper_mode_and_the_link_weighted_column(void **state)
{
    (void)state;
    write_file("share.cset", "array 8x1\nconn a 0,0 2,0 5\nconn b 1,0 3,0 5\n");
    expect("share.cset --paper", 0, "compiler: the ConSet paper's (section 4.4");
    expect("share.cset --paper", 0,
           "link.weighted\n    0  main                  2         10       2     0.75         2             20\n");
    expect("share.cset", 0, "link-weighted clocks: 20 (");
    expect("share.cset --paper --json", 0, "\"paper\": true");
    expect("share.cset --json", 0, "\"paper\": false");
    expect("share.cset --json", 0, "\"link_weighted_clocks\": 20");
    expect("share.cset --paper --links", 2, "--paper and --links do not go together");
    /* The set may say it itself; a pattern generated with --paper is written so. */
    write_file("paper.cset", "array 4x1\ncompiler paper\nconn a 0,0 1,0 5\nconn b 0,0 1,0 5\n");
    expect("paper.cset", 0, "compiler: the ConSet paper's (section 4.4");
    expect("paper.cset --links", 2, "paper.cset says `compiler paper`, which does not go with --links");
    expect("--pattern torus --words 4 --array 2x2 --paper --cset torus.cset", 0, "compiler: the ConSet paper's");
    expect("torus.cset", 0, "compiler: the ConSet paper's");
    expect("--pattern alltoall --words 4 --paper", 0, "phases: 30 (lower bound 27; 30 after the sequential pass");
}

/* --one-timeline: two cells sending each other 256 words (2 clocks a word) overlap on two timelines, take turns on
 * one; the report and the JSON say which. */
static void test_one_timeline_serializes_a_cells_send_and_receive(void **state)
{
    (void)state;
    write_file("two.cset", "array 2x1\nconn a 0,0 1,0 256\nconn b 1,0 0,0 256\n");
    expect("two.cset", 0, "predicted clocks: 512 (");
    expect("two.cset --one-timeline", 0, "schedule: one timeline a cell");
    expect("two.cset --one-timeline", 0, "predicted clocks: 1024 (");
    expect("two.cset --one-timeline --paper", 0, "predicted clocks: 1024 (");
    expect("two.cset --one-timeline --json", 0, "\"one_timeline\": true");
    expect("two.cset --json", 0, "\"one_timeline\": false");
}

static void test_an_output_that_cannot_be_written_is_status_1(void **state)
{
    (void)state;
    write_file("one.cset", "conn a 0,0 1,0 5\n");
    expect("one.cset -o /nonexistent/dir/out.cdat", 1, "/nonexistent/dir/out.cdat");
}

static void test_a_timed_phase_too_long_for_the_cells_is_status_2_and_writes_nothing(void **state)
{
    (void)state;
    write_file("long.cset", "array 2x1\nconn a 0,0 1,0 1073741824\n");
    expect("long.cset --links -o long.cdat", 2,
           "iwarp route: long.cset: phase 0 of the timed schedule (--links) lasts 2147483648 clocks");
    char path[512];
    snprintf(path, sizeof path, "%s/long.cdat", dir);
    assert_int_not_equal(access(path, F_OK), 0);
    expect("long.cset -o long.cdat", 0, "predicted clocks: 2147483648");
}

static void test_numbers_are_decimal_whole_and_in_range(void **state)
{
    (void)state;
    write_file("one.cset", "conn a 0,0 1,0 5\n");
    /* Decimal as in the .cset syntax: a leading 0 is not octal, 0x is not hex. */
    expect("--pattern torus --words 010", 0, "pattern torus 8x8, 10 words");
    expect("--pattern torus --words 0x10", 2, "--words wants 1..2147483647, not '0x10'");
    expect("--capacity 0x10 one.cset", 2, "--capacity wants 1..16, not '0x10'");
    expect("--capacity 012 one.cset", 0, "capacity 12");
    /* Past the range: strtoull's ERANGE is not UINT64_MAX. */
    expect("--seed 18446744073709551615 one.cset", 0, "1 connection");
    expect("--seed 18446744073709551616 one.cset", 2,
           "--seed wants 0..18446744073709551615, not '18446744073709551616'");
    expect("--seed 99999999999999999999999 one.cset", 2, "--seed wants 0..18446744073709551615");
    expect("--iterations 100001 one.cset", 2, "--iterations wants 0..100000, not '100001'");
    /* Trailing text, signs, spaces and empty arguments. */
    expect("--iterations 12abc one.cset", 2, "--iterations wants 0..100000, not '12abc'");
    expect("--seed -1 one.cset", 2, "--seed wants");
    expect("--seed ' 1' one.cset", 2, "--seed wants");
    expect("--seed '' one.cset", 2, "--seed wants");
    expect("--words 4x --pattern torus", 2, "--words wants");
}

static void test_an_unwritable_standard_output_is_status_1(void **state)
{
    (void)state;
    if (access("/dev/full", W_OK) != 0)
        skip();
    write_file("one.cset", "conn a 0,0 1,0 5\n");
    expect("one.cset >/dev/full", 1, "iwarp route: cannot write to standard output: No space left on device");
    expect("one.cset --report >/dev/full", 1, "cannot write to standard output");
    expect("one.cset --json >/dev/full", 1, "cannot write to standard output");
    expect("--help >/dev/full", 1, "cannot write to standard output");
    /* The tables were written all the same. */
    expect("one.cset -o full.cdat >/dev/full", 1, "cannot write to standard output");
    size_t n;
    char *d = slurp("full.cdat", &n);
    assert_memory_equal(d, "IWCDAT01", 8);
    free(d);
    expect("one.cset >/dev/null", 0, "");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_route_cli PATH/TO/iwarp\n");
        return 2;
    }
    /* The tests run in a folder of their own: the binary's path must not be relative. */
    static char abs[4096];
    char cwd[2048];
    if (argv[1][0] != '/' && getcwd(cwd, sizeof cwd) != NULL)
        snprintf(abs, sizeof abs, "%s/%s", cwd, argv[1]);
    else
        snprintf(abs, sizeof abs, "%s", argv[1]);
    iwarp = abs;
    if (mkdtemp(dir) == NULL)
        return 2;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_help_and_bad_usage),
        cmocka_unit_test(test_errors_in_a_file_are_reported_at_file_line_col),
        cmocka_unit_test(test_a_generated_pattern_compiles_to_the_same_tables_as_its_file),
        cmocka_unit_test(test_report_and_json),
        cmocka_unit_test(test_paper_mode_and_the_link_weighted_column),
        cmocka_unit_test(test_one_timeline_serializes_a_cells_send_and_receive),
        cmocka_unit_test(test_an_output_that_cannot_be_written_is_status_1),
        cmocka_unit_test(test_a_timed_phase_too_long_for_the_cells_is_status_2_and_writes_nothing),
        cmocka_unit_test(test_numbers_are_decimal_whole_and_in_range),
        cmocka_unit_test(test_an_unwritable_standard_output_is_status_1),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        rc = rc ? rc : 1;
    return rc;
}
