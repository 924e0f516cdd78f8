/* Long work as a person sees it: a progress line on a terminal (a pseudo-terminal made by script(1)), none in a
 * pipe or with --quiet, and Ctrl-C stopping `iwarp run` and `iwarp traffic` with the report so far (status 130). */
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

static const char *iwarp;

/* A run that no host finishes in the seconds it is given (compute.s: ~2,560 clocks an iteration), stopped by a
 * signal after them: the test does not depend on how fast the emulator is. Its limit is raised too: by default a run
 * stops at 10^9 clocks, which one cell computing reaches in under two seconds. */
#define ENDLESS "run programs/bench/compute.s --args 100000000 --max-cycles 1000000000000000"
#define ENDLESS_RUN(secs) "timeout --preserve-status -s INT " secs " '%s' " ENDLESS

static void test_progress_shows_on_a_terminal_only(void **state)
{
    (void)state;
    char cmd[1024], *out;
    snprintf(cmd, sizeof cmd, "script -qfec \"" ENDLESS_RUN("1.5") "\" /dev/null", iwarp);
    assert_int_equal(command_run(cmd, &out), 130);
    if (strstr(out, "compute.s: clock ") == NULL || strstr(out, "clocks/s") == NULL)
        fail_msg("no progress line on a terminal:\n%s", out);
    assert_non_null(strstr(out, "status   stopped"));
    free(out);
    snprintf(cmd, sizeof cmd, ENDLESS_RUN("1") " 2>&1", iwarp);
    assert_int_equal(command_run(cmd, &out), 130);
    assert_null(strstr(out, "compute.s: clock "));
    assert_non_null(strstr(out, "status   stopped"));
    free(out);
    snprintf(cmd, sizeof cmd, "script -qfec \"" ENDLESS_RUN("1") " --quiet\" /dev/null", iwarp);
    assert_int_equal(command_run(cmd, &out), 130);
    assert_null(strstr(out, "compute.s: clock "));
    assert_non_null(strstr(out, "iwarp run: interrupted at clock "));
    free(out);
}

static void test_ctrl_c_stops_a_run_with_its_report(void **state)
{
    (void)state;
    char cmd[1024], *out;
    snprintf(cmd, sizeof cmd,
             "timeout --preserve-status -s INT 1 '%s' " ENDLESS " 2>&1", iwarp);
    assert_int_equal(command_run(cmd, &out), 130);
    if (strstr(out, "status   stopped") == NULL || strstr(out, "iwarp run: interrupted at clock ") == NULL ||
        strstr(out, "(0,0)") == NULL)
        fail_msg("no report of the run so far:\n%s", out);
    free(out);
    snprintf(cmd, sizeof cmd,
             "timeout --preserve-status -s INT 1 '%s' " ENDLESS " --json", iwarp);
    assert_int_equal(command_run(cmd, &out), 130);
    assert_non_null(strstr(out, "\"status\": \"stopped\""));
    free(out);
}

/* A kill (SIGTERM) stops a recorded run as Ctrl-C does: the recording is written whole and no temporary file is
 * left beside it. A bench interrupted in its first bench (patterns takes a minute on any host) marks its table
 * partial and does not point latest at it. */
static void test_interrupted_work_is_marked_and_cleaned(void **state)
{
    (void)state;
    char dir[] = "/tmp/iwarp-int-XXXXXX", cmd[2048], *out;
    assert_non_null(mkdtemp(dir));
    snprintf(cmd, sizeof cmd,
             "timeout --preserve-status -s TERM 1 '%s' " ENDLESS " --record "
             "%s/rec.iwt > /dev/null 2>&1; ls %s",
             iwarp, dir, dir);
    command_run(cmd, &out);
    if (strcmp(out, "rec.iwt\n") != 0)
        fail_msg("after the kill the folder holds:\n%s", out);
    free(out);
    snprintf(cmd, sizeof cmd, "timeout --preserve-status -s INT 2 '%s' bench patterns --out %s/b > /dev/null 2>&1",
             iwarp, dir);
    assert_int_equal(command_run(cmd, &out), 130);
    free(out);
    snprintf(cmd, sizeof cmd, "head -1 %s/b/*/results.csv; ls %s/b", dir, dir);
    command_run(cmd, &out);
    if (strstr(out, "# partial: interrupted") == NULL || strstr(out, "latest") != NULL)
        fail_msg("the interrupted bench left:\n%s", out);
    free(out);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    command_run(cmd, &out);
    free(out);
}

/* iwarp traffic (points no host finishes in the time given, so the test does not depend on the emulator's speed):
 * the progress line names the point being measured; Ctrl-C in a sweep of rates keeps the points
 * measured to the end, says it was interrupted, writes their plots and exits 130. */
static void test_traffic_shows_progress_and_stops_on_ctrl_c(void **state)
{
    (void)state;
    char cmd[1024], *out;
    snprintf(cmd, sizeof cmd,
             "script -qfec \"timeout --preserve-status -s INT 1.5 '%s' traffic --rate 0.2 --warmup 100000000\" "
             "/dev/null",
             iwarp);
    assert_int_equal(command_run(cmd, &out), 130);
    if (strstr(out, "traffic: uniform at rate 0.2 (1 of 1): clock ") == NULL)
        fail_msg("no progress line on a terminal:\n%s", out);
    free(out);
    snprintf(cmd, sizeof cmd, "timeout --preserve-status -s INT 1 '%s' traffic --rate 0.2 --warmup 100000000 2>&1",
             iwarp);
    assert_int_equal(command_run(cmd, &out), 130);
    assert_non_null(strstr(out, "iwarp traffic: interrupted (Ctrl-C)"));
    assert_null(strstr(out, "(1 of 1): clock "));
    free(out);
    snprintf(cmd, sizeof cmd,
             "timeout --preserve-status -s INT 1.5 '%s' traffic --rate 0.01:0.3:0.01 --out /tmp/iwarp-progress-%d "
             "2>&1",
             iwarp, (int)getpid());
    assert_int_equal(command_run(cmd, &out), 130);
    if (strstr(out, "iwarp traffic: interrupted (Ctrl-C)") == NULL || strstr(out, "\n 0.0100 ") == NULL ||
        strstr(out, " 0.3000 ") != NULL)
        fail_msg("not the points measured before Ctrl-C:\n%s", out);
    free(out);
    snprintf(cmd, sizeof cmd, "test -s /tmp/iwarp-progress-%d/latency.svg && rm -rf /tmp/iwarp-progress-%d",
             (int)getpid(), (int)getpid());
    assert_int_equal(system(cmd), 0);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_progress IWARP\n");
        return 2;
    }
    iwarp = argv[1];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_progress_shows_on_a_terminal_only),
        cmocka_unit_test(test_ctrl_c_stops_a_run_with_its_report),
        cmocka_unit_test(test_traffic_shows_progress_and_stops_on_ctrl_c),
        cmocka_unit_test(test_interrupted_work_is_marked_and_cleaned),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
