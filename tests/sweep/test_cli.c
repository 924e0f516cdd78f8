/* iwarp sweep as a person runs it (the binary is argv[1]): a sweep interrupted (after some cases, with a record
 * torn by a kill, and killed outright) and resumed gives the same records and the same CSV as one that ran
 * through; a failing case is recorded with its status; bad options get a reason. */
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
#include "iwarp_config.h"

static const char *iwarp;
static char dir[] = "/tmp/iwarp-sweep-XXXXXX";

static int sh(char **out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int sh(char **out, const char *fmt, ...)
{
    char cmd[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    char *text;
    int st = command_run(cmd, &text);
    if (out != NULL)
        *out = text;
    else
        free(text);
    return st;
}

static void write_file(const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

static char *read_sorted(const char *name)
{
    char *text;
    assert_int_equal(sh(&text, "sort '%s/%s'", dir, name), 0);
    return text;
}

static unsigned lines(const char *name)
{
    char *text;
    assert_int_equal(sh(&text, "cat '%s/%s' 2>/dev/null | wc -l", dir, name), 0);
    unsigned n = (unsigned)strtoul(text, NULL, 10);
    free(text);
    return n;
}

static const char sweep_text[] = "name = t\n"
                                 "command = traffic --pattern {p} --rate {r} --warmup 200 --sample 200 --samples 2:2 "
                                 "--json\n"
                                 "cross p = uniform, neighbour\n"
                                 "cross r = 0.01:0.04:0.01\n";

static void test_an_interrupted_sweep_resumes_to_the_same_records(void **state)
{
    (void)state;
    write_file("t.sweep", sweep_text);
    assert_int_equal(sh(NULL, "cd '%s' && '%s' sweep t.sweep --results a.jsonl --csv a.csv --quiet", dir, iwarp), 0);
    assert_int_equal(lines("a.jsonl"), 8);

    /* Two cases, then one more after a record torn by a kill mid-write, then a run killed outright, then the
     * rest. */
    assert_int_equal(
        sh(NULL, "cd '%s' && '%s' sweep t.sweep --results b.jsonl --csv b.csv --limit 2 --quiet", dir, iwarp), 0);
    assert_int_equal(lines("b.jsonl"), 2);
    assert_int_equal(sh(NULL, "printf '%%s' '{\"sweep\":\"t\",\"case\":5,\"key\":\"p=neigh' >> '%s/b.jsonl'", dir), 0);
    assert_int_equal(
        sh(NULL, "cd '%s' && '%s' sweep t.sweep --results b.jsonl --csv b.csv --limit 1 --quiet", dir, iwarp), 0);
    assert_int_equal(lines("b.jsonl"), 3);
    sh(NULL,
       "cd '%s' && { '%s' sweep t.sweep --results b.jsonl --csv b.csv --jobs 1 --quiet & pid=$!; sleep 0.2; "
       "kill -9 $pid; wait; } >/dev/null 2>&1",
       dir, iwarp);
    assert_int_equal(sh(NULL, "cd '%s' && '%s' sweep t.sweep --results b.jsonl --csv b.csv --quiet", dir, iwarp), 0);
    assert_int_equal(lines("b.jsonl"), 8);

    char *a = read_sorted("a.jsonl"), *b = read_sorted("b.jsonl");
    assert_string_equal(a, b);
    free(a);
    free(b);
    assert_int_equal(sh(NULL, "cmp '%s/a.csv' '%s/b.csv'", dir, dir), 0);
    /* A rerun of a finished sweep runs nothing and adds nothing. */
    assert_int_equal(sh(NULL, "cd '%s' && '%s' sweep t.sweep --results a.jsonl --csv a.csv --quiet", dir, iwarp), 0);
    assert_int_equal(lines("a.jsonl"), 8);
    /* The table: a row per case, the parameters in front. */
    char *csv;
    assert_int_equal(sh(&csv, "head -2 '%s/a.csv'", dir), 0);
    assert_non_null(strstr(csv, "case,p,r,status,command,array,pattern,"));
    assert_non_null(strstr(csv, "\n0,uniform,0.01,0,traffic,8x8,uniform,"));
    free(csv);
    /* Plots from the table: a line per pattern. */
    char *out;
    assert_int_equal(sh(&out,
                        "cd '%s' && '%s' sweep t.sweep --results a.jsonl --csv a.csv --gather --plot "
                        "offered:latency_mean:p",
                        dir, iwarp),
                     0);
    assert_non_null(strstr(out, "plot:    "));
    free(out);
    assert_int_equal(sh(&out, "cat '%s/t-latency_mean-vs-offered.svg'", dir), 0);
    assert_non_null(strstr(out, "<svg"));
    assert_non_null(strstr(out, ">uniform<"));
    assert_non_null(strstr(out, ">neighbour<"));
    /* the legend names what tells the lines apart; the y axis its unit */
    assert_non_null(strstr(out, "class='legend-title'"));
    assert_non_null(strstr(out, ">p<"));
    assert_non_null(strstr(out, "latency_mean (clocks)"));
    free(out);
    assert_int_equal(sh(NULL, "test -s '%s/t-latency_mean-vs-offered.png' && test -s '%s/t-latency_mean-vs-offered.pdf'",
                        dir, dir),
                     0);
    assert_int_equal(sh(&out,
                        "cd '%s' && '%s' sweep t.sweep --results a.jsonl --csv a.csv --gather --plot "
                        "nope:latency_mean 2>&1",
                        dir, iwarp),
                     1);
    assert_non_null(strstr(out, "the table has no column 'nope'"));
    free(out);
}

static void test_a_failing_case_is_recorded_with_its_status_and_stderr(void **state)
{
    (void)state;
    write_file("f.sweep", "command = traffic --rate {r} --warmup 100 --sample 100 --samples 1:1 --json\n"
                          "cross r = 0.01, 5\n");
    char *out;
    assert_int_equal(sh(&out, "cd '%s' && '%s' sweep f.sweep --results f.jsonl --csv f.csv 2>&1", dir, iwarp), 1);
    assert_non_null(strstr(out, "case 1 r=5: failed"));
    free(out);
    assert_int_equal(sh(&out, "grep '\"case\":1,' '%s/f.jsonl'", dir), 0);
    assert_non_null(strstr(out, "\"status\":2,\"output\":[],\"stderr\":\"iwarp traffic: --rate wants"));
    free(out);
    /* One case alone, as a Slurm array task runs it: already recorded, so nothing happens. */
    assert_int_equal(sh(NULL, "cd '%s' && '%s' sweep f.sweep --results f.jsonl --case 0 --quiet", dir, iwarp), 0);
    assert_int_equal(lines("f.jsonl"), 2);
}

/* A case that prints more than --max-output is stopped and keeps none of it; a long standard error keeps its end. */
static void test_output_past_the_limit_stops_the_case_and_stderr_keeps_its_tail(void **state)
{
    (void)state;
    write_file("o.sweep", "command = run {p} --array {a} --args 5 --json\n"
                          "cross p = " IWARP_SOURCE_ROOT "/programs/bench/compute.s\n"
                          "cross a = 1x1, 8x8\n");
    char *out;
    /* 1x1's report is about 1.3 KB, 8x8's about 63 KB. */
    assert_int_equal(
        sh(&out, "cd '%s' && '%s' sweep o.sweep --results o.jsonl --csv o.csv --max-output 8K 2>&1", dir, iwarp), 1);
    assert_non_null(strstr(out, "a=1x1: ok"));
    assert_non_null(strstr(out, "a=8x8: failed (its output passed --max-output)"));
    free(out);
    assert_int_equal(sh(&out, "grep '\"case\":1,' '%s/o.jsonl'", dir), 0);
    assert_non_null(strstr(out, "\"output\":null,\"error\":\"its standard output passed --max-output (8192 bytes)"));
    free(out);
    assert_int_equal(sh(&out, "grep '\"case\":0,' '%s/o.jsonl'", dir), 0);
    assert_non_null(strstr(out, "\"status\":0,\"output\":[{\"program\""));
    free(out);

    /* An assembly with a hundred errors prints some 4.7 KB on stderr: the record has its last 2000 characters. */
    char *bad = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&bad, &len);
    assert_non_null(f);
    for (unsigned i = 1; i <= 120; i++)
        fprintf(f, "  bogus%u r1, r2\n", i);
    assert_int_equal(fclose(f), 0);
    write_file("bad.s", bad);
    free(bad);
    write_file("e.sweep", "command = asm bad.s -o {o}\ncross o = x.img\n");
    assert_int_equal(sh(NULL, "cd '%s' && '%s' sweep e.sweep --results e.jsonl --csv e.csv --quiet", dir, iwarp), 1);
    assert_int_equal(sh(&out, "cat '%s/e.jsonl'", dir), 0);
    const char *err = strstr(out, "\"stderr\":\"");
    assert_non_null(err);
    assert_non_null(strstr(err, "too many errors, stopping\\n\"}"));
    assert_null(strstr(err, "bad.s:1:3:"));
    assert_non_null(strstr(err, "bad.s:99:3:"));
    free(out);
}

static void test_the_slurm_script_runs_each_pending_case_as_an_array_task(void **state)
{
    (void)state;
    write_file("s.sweep", sweep_text);
    char *out;
    assert_int_equal(sh(NULL, "cd '%s' && '%s' sweep s.sweep --results s.jsonl --limit 3 --quiet", dir, iwarp), 0);
    assert_int_equal(
        sh(&out, "cd '%s' && '%s' sweep s.sweep --results s.jsonl --slurm job.sh --sbatch --time=5", dir, iwarp), 0);
    assert_non_null(strstr(out, "(5 array tasks)"));
    free(out);
    assert_int_equal(sh(&out, "cat '%s/job.sh'", dir), 0);
    assert_non_null(strstr(out, "#SBATCH --array=3-7\n"));
    assert_non_null(strstr(out, "#SBATCH --time=5\n"));
    assert_non_null(strstr(out, "--case \"$SLURM_ARRAY_TASK_ID\" --results '/"));
    free(out);
    /* What a task does: its case, appended to the same results. */
    assert_int_equal(sh(NULL, "cd '%s' && SLURM_ARRAY_TASK_ID=6 sh job.sh", dir), 0);
    assert_int_equal(lines("s.jsonl"), 4);
}

static void test_bad_options_get_a_reason(void **state)
{
    (void)state;
    write_file("o.sweep", sweep_text);
    static const char *const bad[][2] = {
        {"o.sweep --jobs 0", "--jobs wants 1..1024"},
        {"o.sweep --case 8", "--case 8: o.sweep has cases 0..7"},
        {"o.sweep --limit x", "--limit wants"},
        {"o.sweep --submit", "--submit, --wait and --sbatch go with --slurm"},
        {"o.sweep --slurm j.sh --wait", "--wait goes with --submit"},
        {"o.sweep --slurm j.sh --sbatch time=5", "--sbatch wants"},
        {"o.sweep --plot latency", "--plot wants up to 4 of X:Y[:GROUP]"},
        {"missing.sweep", "missing.sweep"},
        {"", "which sweep file?"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *out;
        int st = sh(&out, "cd '%s' && '%s' sweep %s 2>&1", dir, iwarp, bad[i][0]);
        if (st != 2 || strstr(out, bad[i][1]) == NULL)
            fail_msg("iwarp sweep %s: status %d, output:\n%s(wanted: %s)", bad[i][0], st, out, bad[i][1]);
        free(out);
    }
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s IWARP\n", argv[0]);
        return 2;
    }
    /* The tests run it from their own folder: the path must not be relative. */
    static char absolute[4096];
    if (argv[1][0] != '/' && getcwd(absolute, sizeof absolute - 1024) != NULL) {
        strcat(absolute, "/");
        strncat(absolute, argv[1], 1000);
        iwarp = absolute;
    } else {
        iwarp = argv[1];
    }
    if (mkdtemp(dir) == NULL)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_an_interrupted_sweep_resumes_to_the_same_records),
        cmocka_unit_test(test_a_failing_case_is_recorded_with_its_status_and_stderr),
        cmocka_unit_test(test_output_past_the_limit_stops_the_case_and_stderr_keeps_its_tail),
        cmocka_unit_test(test_the_slurm_script_runs_each_pending_case_as_an_array_task),
        cmocka_unit_test(test_bad_options_get_a_reason),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (rc == 0 && system(cmd) != 0)
        rc = 1;
    return rc;
}
