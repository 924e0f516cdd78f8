/* iwarp bench traffic --booksim as a person runs it (the binary is argv[1]) with a stand-in for BookSim 2
 * (tests/bench/fake_booksim.sh, argv[2]) that checks the config it is given and answers in BookSim's words: the
 * config docs/traffic.md shows is the one written, the figures read from its output reach the table, --json and
 * --csv, and each way BookSim can fail is said, naming PATH, with iwarp's own figures still reported. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <dirent.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "command.h"
#include "test_dir.h"
#include "iwarp_config.h"

static const char *iwarp, *fake;
static char dir[64];

/* The stand-in's figures under --quick: 10 sample periods of 200 cycles and 37 of drain, in 0.25 s. */
enum { QUICK_CLOCKS = 2000, FAKE_CYCLES = 2037 };
static const double fake_seconds = 0.25;

static int make_dir(void **state)
{
    (void)state;
    return test_dir_make(dir, sizeof dir, "iwarp-bench-booksim");
}

static int remove_dir(void **state)
{
    (void)state;
    return test_dir_remove(dir);
}

/* Each test starts with empty log/ (the stand-in's copies), tmp/ (TMPDIR: iwarp's private folders) and out/. */
static int fresh(void **state)
{
    (void)state;
    char cmd[512], *out;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'/log '%s'/tmp '%s'/out && mkdir '%s'/log '%s'/tmp '%s'/out", dir, dir, dir,
             dir, dir, dir);
    int rc = command_run(cmd, &out);
    free(out);
    return rc;
}

/* `ENV iwarp bench --quick --out OUT ARGS` with TMPDIR and the stand-in's log in the test's folder: stdout in
 * *out, stderr in *err; the exit status. */
static int bench(const char *env, const char *args, char **out, char **err)
{
    char cmd[4096], errpath[256];
    snprintf(errpath, sizeof errpath, "%s/stderr", dir);
    snprintf(cmd, sizeof cmd,
             "TMPDIR='%s/tmp' FAKE_BOOKSIM_LOG='%s/log' %s '%s' bench --quick --out '%s/out' %s 2>'%s'", dir, dir, env,
             iwarp, dir, args, errpath);
    int rc = command_run(cmd, out);
    snprintf(cmd, sizeof cmd, "cat '%s'", errpath);
    assert_int_equal(command_run(cmd, err), 0);
    return rc;
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "r");
    if (f == NULL)
        fail_msg("cannot read %s", path);
    char *text = command_read_all(f);
    fclose(f);
    return text;
}

/* The entries of folder PATH (not . and ..). */
static unsigned entries(const char *path)
{
    DIR *d = opendir(path);
    assert_non_null(d);
    unsigned n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}

/* The config of the 0.25 point as docs/traffic.md shows it (the full run's), made the --quick one's. */
static char *documented_config(void)
{
    char *doc = read_file(IWARP_SOURCE_ROOT "/docs/traffic.md");
    const char *mark = "// iwarp bench traffic --booksim: 8x8 torus, uniform, 16-flit packets, 0.25";
    char *start = strstr(doc, mark);
    assert_non_null(start);
    char *end = strstr(start, "```");
    assert_non_null(end);
    *end = '\0';
    char *period = strstr(start, "sample_period = 4000;");
    assert_non_null(period);
    char *config = malloc(strlen(start) + 1);
    assert_non_null(config);
    snprintf(config, strlen(start) + 1, "%.*ssample_period = 200;%s", (int)(period - start), start,
             period + strlen("sample_period = 4000;"));
    free(doc);
    return config;
}

static json_t *traffic_record(json_t *records, const char *case_name)
{
    size_t i;
    json_t *r;
    json_array_foreach(records, i, r)
    {
        if (strcmp(json_string_value(json_object_get(r, "case")), case_name) == 0)
            return r;
    }
    fail_msg("no record %s", case_name);
    return NULL;
}

static double number(json_t *r, const char *key)
{
    json_t *v = json_object_get(r, key);
    if (!json_is_number(v))
        fail_msg("%s is not a number", key);
    return json_number_value(v);
}

/* Each of the table's three rows (in the text report OUT) has WANT in it. */
static void each_row_has(const char *out, const char *want)
{
    const char *rows[] = {"uniform 0.05 ", "uniform 0.25 ", "uniform 0.25 2 threads "};
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const char *row = strstr(out, rows[i]);
        assert_non_null(row);
        char line[256];
        snprintf(line, sizeof line, "%.*s", (int)strcspn(row, "\n"), row);
        if (strstr(line, want) == NULL)
            fail_msg("no '%s' in the row '%s'", want, line);
    }
}

/* The stand-in was given the config docs/traffic.md shows, as the only argument, from a private folder under
 * TMPDIR that is gone after the run; its figures are in every record: BookSim's cycles over its own run time, and
 * the ratio to iwarp's clocks per second. */
static void test_the_config_written_and_the_figures_read(void **state)
{
    (void)state;
    char *out, *err, args[1024];
    snprintf(args, sizeof args, "--json --booksim '%s'", fake);
    assert_int_equal(bench("", args, &out, &err), 0);
    assert_string_equal(err, "");

    char path[512];
    snprintf(path, sizeof path, "%s/log/args", dir);
    char *log = read_file(path);
    char tmp_prefix[300];
    snprintf(tmp_prefix, sizeof tmp_prefix, "%s/tmp/iwarp-booksim-", dir);
    const char *want[] = {"uniform-0.05.cfg", "uniform-0.05.cfg", "uniform-0.05.cfg",
                          "uniform-0.25.cfg", "uniform-0.25.cfg", "uniform-0.25.cfg"};
    char *save, *line = strtok_r(log, "\n", &save);
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++, line = strtok_r(NULL, "\n", &save)) {
        assert_non_null(line); /* three runs a point: none for the two-thread case */
        assert_memory_equal(line, tmp_prefix, strlen(tmp_prefix));
        const char *slash = strrchr(line, '/');
        assert_string_equal(slash + 1, want[i]);
    }
    assert_null(line);
    free(log);
    snprintf(path, sizeof path, "%s/tmp", dir);
    assert_int_equal(entries(path), 0); /* the private folder is removed */

    snprintf(path, sizeof path, "%s/log/uniform-0.25.cfg", dir);
    char *written = read_file(path), *documented = documented_config();
    assert_string_equal(written, documented);
    free(written);
    free(documented);

    json_error_t jerr;
    json_t *doc = json_loads(out, 0, &jerr);
    assert_non_null(doc);
    json_t *records = json_object_get(doc, "records");
    const struct {
        const char *name;
        double injection_rate;
    } cases[] = {{"uniform 0.05", 0.003125}, {"uniform 0.25", 0.015625}, {"uniform 0.25 2 threads", 0.015625}};
    for (size_t i = 0; i < 3; i++) {
        json_t *r = traffic_record(records, cases[i].name);
        assert_int_equal((int)number(r, "network_clocks"), QUICK_CLOCKS);
        assert_true(number(r, "booksim_injection_rate") == cases[i].injection_rate);
        assert_int_equal((int)number(r, "booksim_cycles"), FAKE_CYCLES);
        assert_true(number(r, "booksim_run_seconds") == fake_seconds);
        assert_true(number(r, "booksim_wall_seconds") > 0);
        double bcps = number(r, "booksim_cycles_per_second");
        assert_true(fabs(bcps - FAKE_CYCLES / fake_seconds) < 1e-9 * bcps);
        double ratio = number(r, "ratio_to_booksim"), cps = number(r, "clocks_per_second");
        assert_true(fabs(ratio - cps / bcps) < 1e-9 * ratio);
        assert_true(json_is_null(json_object_get(r, "booksim_error")));
    }
    json_decref(doc);
    free(out);
    free(err);
}

/* The table has BookSim's column and the ratio on each row; the CSV a column per field, BookSim's figures in it. */
static void test_the_table_and_the_csv_show_them(void **state)
{
    (void)state;
    char *out, *err, args[1024];
    snprintf(args, sizeof args, "--booksim '%s' traffic", fake);
    assert_int_equal(bench("", args, &out, &err), 0);
    assert_non_null(strstr(out, "BookSim c/s    ratio\n"));
    each_row_has(out, " 8148 "); /* 2037 cycles / 0.25 s */
    free(out);
    free(err);

    snprintf(args, sizeof args, "--csv --booksim '%s'", fake);
    assert_int_equal(bench("", args, &out, &err), 0);
    char *save, *line = strtok_r(out, "\n", &save);
    while (line != NULL && line[0] == '#')
        line = strtok_r(NULL, "\n", &save);
    assert_non_null(line);
    const char *columns[] = {
        "booksim_injection_rate",    "booksim_cycles",   "booksim_run_seconds", "booksim_wall_seconds",
        "booksim_cycles_per_second", "ratio_to_booksim", "booksim_error"};
    for (size_t i = 0; i < sizeof columns / sizeof columns[0]; i++)
        assert_non_null(strstr(line, columns[i]));
    unsigned rows_seen = 0;
    while ((line = strtok_r(NULL, "\n", &save)) != NULL) {
        assert_non_null(strstr(line, ",2037,0.25,"));
        assert_non_null(strstr(line, ",8148,"));
        rows_seen++;
    }
    assert_int_equal(rows_seen, 3);
    free(out);
    free(err);
}

/* BookSim failing at run time: stderr names PATH, the case and why; the table still has iwarp's figures with
 * BookSim's column saying failed; the records have the reason; the private folder is kept for the user; status 1. */
static void test_a_failing_booksim_leaves_iwarps_figures(void **state)
{
    (void)state;
    char *out, *err, args[1024], want[1024];
    snprintf(args, sizeof args, "--booksim '%s'", fake);
    assert_int_equal(bench("FAKE_BOOKSIM=fail", args, &out, &err), 1);
    each_row_has(out, "      2000 "); /* iwarp's clocks, and its figures after them */
    each_row_has(out, " failed        -");
    for (size_t i = 0; i < 2; i++) {
        snprintf(want, sizeof want,
                 "bench traffic: --booksim %s: %s, run 1: exited with status 3; its last line: 'fake booksim: told "
                 "to fail'; its output: %s/tmp/iwarp-booksim-",
                 fake, i == 0 ? "uniform 0.05" : "uniform 0.25", dir);
        assert_non_null(strstr(err, want));
    }
    char path[512];
    snprintf(path, sizeof path, "%s/tmp", dir);
    assert_int_equal(entries(path), 1); /* kept: its configs and outputs */
    assert_non_null(strstr(out, "its configs and output are kept in"));
    free(out);
    free(err);

    snprintf(args, sizeof args, "--json --booksim '%s'", fake);
    assert_int_equal(bench("FAKE_BOOKSIM=fail", args, &out, &err), 1);
    json_error_t jerr;
    json_t *doc = json_loads(out, 0, &jerr);
    assert_non_null(doc);
    json_t *r = traffic_record(json_object_get(doc, "records"), "uniform 0.25");
    assert_true(number(r, "clocks_per_second") > 0);
    assert_true(json_is_null(json_object_get(r, "booksim_cycles_per_second")));
    assert_true(json_is_null(json_object_get(r, "ratio_to_booksim")));
    assert_non_null(strstr(json_string_value(json_object_get(r, "booksim_error")), "exited with status 3"));
    json_decref(doc);
    free(out);
    free(err);
}

/* Is process PID gone (or a zombie waiting for its reaper)? */
static bool gone(long pid)
{
    char path[64], stat[256] = "";
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return true;
    bool zombie = fgets(stat, sizeof stat, f) != NULL && strstr(stat, ") Z ") != NULL;
    fclose(f);
    return zombie;
}

/* Past IWARP_BOOKSIM_WALL_SECONDS the run is stopped with every process it started; the other ways it can fail
 * each say why. */
static void test_each_failure_says_why(void **state)
{
    (void)state;
    char *out, *err, args[1024];
    snprintf(args, sizeof args, "--booksim '%s'", fake);
    time_t t0 = time(NULL);
    assert_int_equal(bench("FAKE_BOOKSIM=hang IWARP_BOOKSIM_WALL_SECONDS=1", args, &out, &err), 1);
    assert_true(time(NULL) - t0 < 60); /* two runs of a second, not the stand-in's 300 */
    assert_non_null(strstr(err, "uniform 0.05, run 1: still running after 1 s (the limit, "
                                "IWARP_BOOKSIM_WALL_SECONDS): stopped"));
    /* The process the stand-in started, if it got that far within the second: under a slow host (valgrind runs
     * the stand-in's shell too) it may have been stopped before, with nothing of its own to stop. */
    char path[512];
    snprintf(path, sizeof path, "%s/log/sleep.pid", dir);
    if (access(path, F_OK) == 0) {
        char *pid_text = read_file(path);
        long pid = atol(pid_text);
        free(pid_text);
        assert_true(pid > 0);
        bool ended = false;
        for (int i = 0; i < 200 && !ended; i++) { /* its reaper may take a moment */
            ended = gone(pid);
            if (!ended)
                nanosleep(&(struct timespec){0, 10000000}, NULL);
        }
        assert_true(ended);
    }
    free(out);
    free(err);

    const struct {
        const char *env, *why;
    } failures[] = {
        {"FAKE_BOOKSIM=garbage", "printed no 'Time taken is N cycles' line; its last line: 'no figures here'"},
        {"FAKE_BOOKSIM=short", "ran 1999 cycles, fewer than the 2000 its config injects for"},
    };
    for (size_t i = 0; i < sizeof failures / sizeof failures[0]; i++) {
        assert_int_equal(bench(failures[i].env, args, &out, &err), 1);
        char want[512];
        snprintf(want, sizeof want, "bench traffic: --booksim %s: uniform 0.05, run 1: %s", fake, failures[i].why);
        assert_non_null(strstr(err, want));
        assert_non_null(strstr(out, " failed "));
        free(out);
        free(err);
    }

    /* executable, but not a program the system can run: execv's reason comes back from the child */
    char noformat[512];
    snprintf(noformat, sizeof noformat, "%s/noformat", dir);
    FILE *f = fopen(noformat, "w");
    assert_non_null(f);
    fputs("\177ELF not really\n", f); /* an ELF magic number and nothing an ELF needs */
    fclose(f);
    assert_int_equal(chmod(noformat, 0755), 0);
    snprintf(args, sizeof args, "--booksim '%s'", noformat);
    assert_int_equal(bench("", args, &out, &err), 1);
    assert_non_null(strstr(err, "uniform 0.05, run 1: cannot be run: Exec format error"));
    free(out);
    free(err);
}

/* A PATH that cannot be run at all, and a bad limit, stop the bench before anything runs (status 2). */
static void test_a_bad_path_stops_the_bench_before_it_runs(void **state)
{
    (void)state;
    char *out, *err, args[1024], want[1024], noexec[512];
    snprintf(noexec, sizeof noexec, "%s/noexec", dir);
    FILE *f = fopen(noexec, "w");
    assert_non_null(f);
    fputs("#!/bin/sh\nexit 0\n", f);
    fclose(f);
    assert_int_equal(chmod(noexec, 0644), 0);
    const struct {
        const char *path, *env, *why;
    } bad[] = {
        {"/nonexistent/booksim", "", "iwarp bench: --booksim /nonexistent/booksim: No such file or directory\n"},
        {dir, "", "is a folder, not a BookSim binary\n"},
        {noexec, "", "cannot be run: Permission denied\n"},
        {fake, "IWARP_BOOKSIM_WALL_SECONDS=0",
         "iwarp bench: IWARP_BOOKSIM_WALL_SECONDS=0: wants a whole number from 1 to 86400\n"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(args, sizeof args, "--booksim '%s'", bad[i].path);
        assert_int_equal(bench(bad[i].env, args, &out, &err), 2);
        assert_non_null(strstr(err, bad[i].why));
        if (bad[i].path != fake) {
            snprintf(want, sizeof want, "--booksim %s: ", bad[i].path);
            assert_non_null(strstr(err, want));
        }
        assert_string_equal(out, ""); /* no bench ran */
        free(out);
        free(err);
    }
    snprintf(args, sizeof args, "--booksim '%s' patterns", fake);
    assert_int_equal(bench("", args, &out, &err), 2);
    assert_non_null(strstr(err, "--booksim is for the traffic bench"));
    free(out);
    free(err);
    char path[512];
    snprintf(path, sizeof path, "%s/log/args", dir);
    assert_int_equal(access(path, F_OK), -1); /* the stand-in never ran */
    snprintf(path, sizeof path, "%s/out", dir);
    assert_int_equal(entries(path), 0); /* no report's folder either */
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s IWARP FAKE_BOOKSIM\n", argv[0]);
        return 2;
    }
    static char paths[2][4096], here[2048];
    if (getcwd(here, sizeof here) == NULL) {
        perror("getcwd");
        return 2;
    }
    for (int i = 0; i < 2; i++) /* the messages name the paths as given: make them absolute once */
        snprintf(paths[i], sizeof paths[i], "%s%s%s", argv[i + 1][0] == '/' ? "" : here,
                 argv[i + 1][0] == '/' ? "" : "/", argv[i + 1]);
    iwarp = paths[0];
    fake = paths[1];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_the_config_written_and_the_figures_read, fresh),
        cmocka_unit_test_setup(test_the_table_and_the_csv_show_them, fresh),
        cmocka_unit_test_setup(test_a_failing_booksim_leaves_iwarps_figures, fresh),
        cmocka_unit_test_setup(test_each_failure_says_why, fresh),
        cmocka_unit_test_setup(test_a_bad_path_stops_the_bench_before_it_runs, fresh),
    };
    return cmocka_run_group_tests(tests, make_dir, remove_dir);
}
