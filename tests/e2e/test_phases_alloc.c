/*
 * A ConSet run whose cells' logs (emu_array_watch) find no memory: the per-phase account (runner/phase_account.h)
 * would add up a log with a hole into wrong clocks, so it says it is incomplete instead, and `iwarp run` says so
 * on stderr and in its exit status. realloc is wrapped at link time (meson.build), as tests/route/test_alloc.c
 * does: the emulator keeps no allocator hook of its own, and only a test needs one.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "command.h"
#include "commands.h"
#include "iwarp_config.h"
#include "json.h"
#include "phase_account.h"
#include "phase_report.h"
#include "run_desc.h"

void *__real_realloc(void *p, size_t n);
void *__wrap_realloc(void *p, size_t n);

/* The wrapper's state is the test's, as a wrapped allocator's must be: a mutable global, in this test only.
 * What fails: nothing, every realloc (while the array runs, when a cell's log is the only thing that grows), or
 * only a first allocation the size of a new log (emu/watch.c starts a log at 64 events), for a whole `iwarp run`
 * whose other reallocs must succeed. */
typedef enum { FAIL_NONE, FAIL_ALL, FAIL_NEW_LOGS } fail_mode_t;
static fail_mode_t failing;
static unsigned failed;

void *__wrap_realloc(void *p, size_t n)
{
    if (failing == FAIL_ALL || (failing == FAIL_NEW_LOGS && p == NULL && n == 64 * sizeof(emu_watch_event_t))) {
        failed++;
        return NULL;
    }
    return __real_realloc(p, n);
}

static const char *const butterfly = IWARP_SOURCE_ROOT "/programs/patterns/conset_butterfly.run";

typedef struct watched_run {
    run_desc_t desc;
    emu_array_t *a;
    phase_account_t *pa;
} watched_run_t;

/* The butterfly run with its account read from the cells' logs, as `iwarp run` keeps it, every realloc failing
 * while the array runs when `starved`. */
static void run_watched(watched_run_t *r, bool starved)
{
    emu_machine_t m;
    emu_machine_defaults(&m);
    assert_int_equal(run_desc_parse_file(butterfly, &m, &r->desc, stderr), 0);
    assert_int_equal(run_desc_build(&r->desc, NULL, 0, NULL, 0, &r->a), 0);
    emu_array_set_threads(r->a, 1); /* the wrapper's counts are no thread's in particular */
    r->pa = phase_account_create(r->a);
    assert_non_null(r->pa);
    assert_int_equal(phase_account_watch(r->pa, r->a), 0);
    failed = 0;
    failing = starved ? FAIL_ALL : FAIL_NONE;
    emu_run_status_t st = emu_array_run(r->a, 100000000);
    failing = FAIL_NONE;
    assert_int_equal(st, EMU_RUN_DONE);
    if (starved && failed == 0)
        fail_msg("no realloc failed while the array ran: the test no longer starves the cells' logs");
}

static void run_free(watched_run_t *r)
{
    phase_account_free(r->pa);
    emu_array_free(r->a);
    run_desc_free(&r->desc);
}

static unsigned cells_that_lost(emu_array_t *a)
{
    unsigned n = 0;
    for (unsigned y = 0; y < emu_array_height(a); y++)
        for (unsigned x = 0; x < emu_array_width(a); x++) {
            const emu_watch_event_t *ev;
            emu_array_watch_take(a, x, y, &ev);
            n += emu_array_watch_lost(a, x, y) != 0;
        }
    return n;
}

static void test_a_log_that_finds_no_memory_counts_what_it_lost(void **state)
{
    (void)state;
    watched_run_t r;
    run_watched(&r, false);
    assert_int_equal(cells_that_lost(r.a), 0);
    run_free(&r);
    run_watched(&r, true);
    assert_int_equal(cells_that_lost(r.a), emu_array_width(r.a) * emu_array_height(r.a));
    run_free(&r);
}

static char *text_of(void (*write)(phase_account_t *pa, FILE *out), phase_account_t *pa)
{
    char *text = NULL;
    size_t len;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    write(pa, f);
    assert_int_equal(fclose(f), 0);
    return text;
}

static void json_of(phase_account_t *pa, FILE *out)
{
    json_writer_t j;
    json_init(&j, out, false);
    json_begin_object(&j, NULL);
    phase_report_json(pa, &j);
    json_end_object(&j);
    json_finish(&j);
}

static void test_an_account_with_a_hole_shows_why_and_no_clocks(void **state)
{
    (void)state;
    watched_run_t r;
    run_watched(&r, false);
    char *text = text_of(phase_report_text, r.pa);
    assert_null(phase_account_error(r.pa));
    assert_non_null(strstr(text, "\n  sum "));
    free(text);
    run_free(&r);

    run_watched(&r, true);
    text = text_of(phase_report_text, r.pa);
    /* The cells are read in row order: the first one's log is the first found with a hole. */
    const char *why = "out of memory while logging cell (0,0); the account is incomplete";
    assert_string_equal(phase_account_error(r.pa), why);
    assert_string_equal(text, "phases   out of memory while logging cell (0,0); the account is incomplete\n");
    free(text);
    text = text_of(json_of, r.pa);
    assert_non_null(strstr(text, "\"phases\":null"));
    assert_non_null(strstr(text, "\"phases_sum\":null"));
    assert_non_null(strstr(text, "\"phases_error\":\"out of memory while logging cell (0,0); the account is "
                                 "incomplete\""));
    free(text);
    run_free(&r);
}

/* Runs `iwarp run` in this process (its allocations wrapped) with its stdout and stderr in files; its status. */
static int iwarp_run(char **argv, int argc, char **out, char **err)
{
    char opath[] = "/tmp/iwarp-phases-alloc-out-XXXXXX", epath[] = "/tmp/iwarp-phases-alloc-err-XXXXXX";
    int ofd = mkstemp(opath), efd = mkstemp(epath);
    assert_true(ofd >= 0 && efd >= 0);
    fflush(stdout);
    fflush(stderr);
    int saved_out = dup(STDOUT_FILENO), saved_err = dup(STDERR_FILENO);
    assert_true(saved_out >= 0 && saved_err >= 0);
    assert_true(dup2(ofd, STDOUT_FILENO) >= 0 && dup2(efd, STDERR_FILENO) >= 0);
    optind = 0; /* getopt starts afresh, as in a new process */
    int status = cmd_run(argc, argv);
    fflush(stdout);
    fflush(stderr);
    assert_true(dup2(saved_out, STDOUT_FILENO) >= 0 && dup2(saved_err, STDERR_FILENO) >= 0);
    close(saved_out);
    close(saved_err);
    FILE *fo = fdopen(ofd, "r"), *fe = fdopen(efd, "r");
    assert_true(fo != NULL && fe != NULL);
    rewind(fo);
    rewind(fe);
    *out = command_read_all(fo);
    *err = command_read_all(fe);
    fclose(fo);
    fclose(fe);
    unlink(opath);
    unlink(epath);
    return status;
}

static void test_iwarp_run_says_the_account_is_incomplete_and_fails(void **state)
{
    (void)state;
    char *argv[] = {"run", (char *)butterfly, "--phases", "--threads", "1", NULL};
    char *out, *err;
    failed = 0;
    failing = FAIL_NEW_LOGS;
    int status = iwarp_run(argv, 5, &out, &err);
    failing = FAIL_NONE;
    if (failed == 0)
        fail_msg("no new log failed: emu/watch.c no longer starts a log at 64 events? (stderr: %s)", err);
    assert_string_equal(out, "phases   out of memory while logging cell (0,0); the account is incomplete\n");
    assert_non_null(strstr(err, "iwarp run: phase account: out of memory while logging cell (0,0); the account "
                                "is incomplete\n"));
    assert_int_equal(status, 1);
    free(out);
    free(err);

    status = iwarp_run(argv, 5, &out, &err);
    assert_int_equal(status, 0);
    assert_non_null(strstr(out, "\n  sum "));
    assert_null(strstr(err, "phase account"));
    free(out);
    free(err);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_log_that_finds_no_memory_counts_what_it_lost),
        cmocka_unit_test(test_an_account_with_a_hole_shows_why_and_no_clocks),
        cmocka_unit_test(test_iwarp_run_says_the_account_is_incomplete_and_fails),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
