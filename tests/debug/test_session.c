/* The command table, arguments and errors, completion and script checks of a session. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "dbg_test.h"

static void test_every_abbreviation_names_one_command(void **state)
{
    (void)state;
    size_t n;
    const dbg_command_t *cmds = dbg_commands(&n);
    for (size_t i = 0; i < n; i++) {
        char prefix[64];
        size_t len = strlen(cmds[i].name);
        assert_true(cmds[i].min_abbrev >= 1 && cmds[i].min_abbrev <= len);
        for (size_t k = cmds[i].min_abbrev; k <= len; k++) {
            snprintf(prefix, sizeof prefix, "%.*s", (int)k, cmds[i].name);
            if (dbg_command_find(prefix) != &cmds[i])
                fail_msg("'%s' should name %s", prefix, cmds[i].name);
        }
        /* One letter fewer than the shortest abbreviation names another command or none. */
        snprintf(prefix, sizeof prefix, "%.*s", (int)cmds[i].min_abbrev - 1, cmds[i].name);
        if (cmds[i].min_abbrev > 1)
            assert_ptr_not_equal(dbg_command_find(prefix), &cmds[i]);
        if (cmds[i].alias != NULL)
            assert_ptr_equal(dbg_command_find(cmds[i].alias), &cmds[i]);
        /* Help: a summary line and an example. */
        assert_non_null(strchr(cmds[i].help, '\n'));
        assert_non_null(strstr(cmds[i].help, "Example: "));
    }
    assert_null(dbg_command_find("xyzzy"));
}

static void test_bad_commands_and_arguments_give_one_line_and_the_session_goes_on(void **state)
{
    (void)state;
    dbg_t *d = dt_open("programs/net/pathway.run", 0, 0, NULL, 0);
    static const char *const bad[] = {
        "frobnicate",
        "break nosuchsym",
        "break 0x1002",
        "break source @9,9",
        "break @1,",
        "tbreak +",
        "watch",
        "watch r5 +",
        "watch channel 99",
        "watch channel 1 ~ 2",
        "watch stall gx0",
        "catch nothing",
        "catch phase x",
        "catch open extra",
        "delete 99",
        "enable x",
        "disable 7",
        "ignore",
        "ignore 1 x",
        "condition 7",
        "condition",
        "cell 8,0",
        "cell 1,2,3",
        "cell *,0",
        "regs foo",
        "regs 0,0 all x",
        "mem",
        "mem 0x7fff0 8",
        "mem 0 0",
        "dis nosuch",
        "dis 9,9",
        "print",
        "print 1/0",
        "print (9,9).r1",
        "print count(40)",
        "channels 1",
        "channels 1,1 2",
        "links 0,0,0",
        "pathway",
        "pathway 0",
        "pathway 1,1 99",
        "spools x",
        "phase now",
        "stats 9,9",
        "map big",
        "hash x",
        "info",
        "info foo",
        "step 0",
        "step 2 lightyears",
        "next x",
        "next 1 2",
        "until",
        "until r5 ==",
        "finish now",
        "continue x",
        "continue 0",
        "goto",
        "goto x",
        "reverse-step",
        "reverse-step x",
        "reverse-continue",
        "reverse-continue now",
        "snapshot",
        "snapshot load",
        "snapshot frob x",
        "snapshot load /nonexistent",
        "snapshot save /nonexistent/dir/x",
        "source",
        "source /nonexistent",
        "set foo bar",
        "set words 0",
        "set echo maybe",
        "help foo",
        "expect",
        "assert",
        "assert nosuch",
        "run x",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        dt_fail(d, bad[i]);
    /* And the session is intact: it runs the program to the end. */
    assert_non_null(strstr(dt_do(d, "continue"), "the run is done"));
    dt_fail(d, "continue");
    dt_fail(d, "step");
    dt_fail(d, "next");
    dt_fail(d, "finish");
    dt_fail(d, "until clock > 5");
    assert_non_null(strstr(dt_do(d, "run 10"), "restarted at clock 0"));
    assert_int_equal(emu_array_clock(d->a), 10);
    dt_close(d);
}

static void test_cell_sets_take_numbers_ranges_stars_and_all(void **state)
{
    (void)state;
    dbg_t *d = dt_open("programs/net/pathway.run", 0, 0, NULL, 0);
    dbg_cells_t c;
    char text[64];
    assert_int_equal(dbg_parse_cells(d, "3,2", &c), 0);
    dbg_cells_text(d, &c, text, sizeof text);
    assert_string_equal(text, "(3,2)");
    assert_int_equal(dbg_parse_cells(d, "(1-2,*)", &c), 0);
    dbg_cells_text(d, &c, text, sizeof text);
    assert_string_equal(text, "cells 1-2,0-7");
    assert_int_equal(dbg_parse_cells(d, "all", &c), 0);
    dbg_cells_text(d, &c, text, sizeof text);
    assert_string_equal(text, "all cells");
    assert_int_equal(dbg_parse_cells(d, "*,*", &c), 0);
    assert_true(c.all);
    assert_int_equal(dbg_parse_cells(d, "2-1,0", &c), -1);
    assert_int_equal(dbg_parse_cells(d, "0,8", &c), -1);
    dt_close(d);
}

/* The completions of a line as one string: "a b c". */
static const char *completions(dbg_t *d, const char *line, char *buf, size_t cap)
{
    const char *text = line + strlen(line);
    while (text > line && strchr(" \t@([.)", text[-1]) == NULL) /* as the console breaks words */
        text--;
    dbg_str_t words = {NULL, 0, 0};
    dbg_complete(d, line, text, &words);
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < words.len; i += strlen(words.s + i) + 1)
        used += (size_t)snprintf(buf + used, cap - used, "%s%s", used ? " " : "", words.s + i);
    dbg_str_free(&words);
    return buf;
}

static void test_completion_knows_commands_cells_symbols_and_registers(void **state)
{
    (void)state;
    dbg_t *d = dt_open("programs/net/pathway.run", 0, 0, NULL, 0);
    char buf[8192];
    assert_string_equal(completions(d, "brea", buf, sizeof buf), "break");
    assert_string_equal(completions(d, "rev", buf, sizeof buf), "reverse-step reverse-continue");
    assert_string_equal(completions(d, "break sou", buf, sizeof buf), "source");
    assert_string_equal(completions(d, "break destination @5,", buf, sizeof buf), "5,0 5,1 5,2 5,3 5,4 5,5 5,6 5,7");
    assert_string_equal(completions(d, "cell 7,7", buf, sizeof buf), "7,7");
    assert_string_equal(completions(d, "print r12", buf, sizeof buf), "r12 r120 r121 r122 r123 r124 r125 r126 r127");
    assert_string_equal(completions(d, "print (3,2).a", buf, sizeof buf), "a0 a1 a2 a3 a4 a5 a6 a7");
    assert_string_equal(completions(d, "catch o", buf, sizeof buf), "open");
    assert_string_equal(completions(d, "info sn", buf, sizeof buf), "snapshots");
    assert_string_equal(completions(d, "help wa", buf, sizeof buf), "watch");
    assert_string_equal(completions(d, "snapshot l", buf, sizeof buf), "load list");
    assert_string_equal(completions(d, "step 3 c", buf, sizeof buf), "clocks");
    assert_string_equal(completions(d, "until clo", buf, sizeof buf), "clock");
    assert_string_equal(completions(d, "info se", buf, sizeof buf), "settings");
    assert_string_equal(completions(d, "set snap", buf, sizeof buf), "snapshot-interval snapshot-keep");
    assert_string_equal(completions(d, "set echo o", buf, sizeof buf), "on off");
    assert_string_equal(completions(d, "set words ", buf, sizeof buf), "");
    dt_close(d);
}

/* set and info settings read one table (tools/debug/settings.def), and registers go by any of their names. */
static void test_settings_and_registers_are_set_by_their_names(void **state)
{
    (void)state;
    dbg_t *d = dt_open("programs/net/pathway.run", 0, 0, NULL, 0);
    char help[4096];
    snprintf(help, sizeof help, "%s", dt_do(d, "help set"));
    char settings[1024];
    snprintf(settings, sizeof settings, "%s", dt_do(d, "info settings"));
    unsigned n = 0;
    for (char *line = strtok(settings, "\n"); line != NULL; line = strtok(NULL, "\n"), n++) {
        char name[64], with_value[80];
        assert_int_equal(sscanf(line, "%63s", name), 1);
        snprintf(with_value, sizeof with_value, "  %s ", name);
        if (strstr(help, with_value) == NULL)
            fail_msg("help set does not explain the setting %s", name);
    }
    assert_int_equal(n, 4);
    dt_do(d, "set words 1024");
    dt_fail(d, "set words 1025");
    dt_do(d, "set snapshot-keep 64");
    dt_fail(d, "set snapshot-keep 65");
    dt_do(d, "set echo on");
    assert_non_null(strstr(dt_do(d, "info settings"), "echo on\nwords 1024\n"));
    assert_non_null(strstr(dt_fail(d, "set colour on"), "no setting 'colour'"));
    assert_non_null(strstr(dt_do(d, "set a0 = 7"), "r3 = 0x00000007"));
    assert_non_null(strstr(dt_do(d, "print a0"), "7"));
    assert_non_null(strstr(dt_do(d, "set sp = 0x100"), "r2 = 0x00000100"));
    dt_fail(d, "set zero = 1");
    dt_close(d);
}

static void test_expect_checks_the_previous_output_and_counts_failures(void **state)
{
    (void)state;
    dbg_t *d = dt_open("tests/debug/programs/calls.s", 1, 1, NULL, 0);
    dt_do(d, "echo hello world");
    dt_do(d, "expect hello");
    dt_do(d, "expect \"lo wo\"");
    dt_do(d, "expect not goodbye");
    assert_int_equal(d->failures, 0);
    dt_do(d, "expect goodbye");
    assert_int_equal(d->failures, 1);
    assert_non_null(strstr(d->capture.s, "expect failed"));
    /* An error checked by the next expect is expected; one left unchecked is a failure. */
    dbg_execute(d, "frobnicate");
    dt_do(d, "expect \"unknown command\"");
    dt_do(d, "echo next");
    assert_int_equal(d->failures, 1);
    dbg_execute(d, "frobnicate");
    dt_do(d, "echo next");
    assert_int_equal(d->failures, 2);
    dt_do(d, "assert 1 + 1 == 2");
    dt_do(d, "assert halted");
    assert_int_equal(d->failures, 3);
    assert_non_null(strstr(d->capture.s, "assert failed on (0,0) at clock 0: halted"));
    dt_close(d);
}

static void test_temporary_breakpoints_ignore_counts_and_conditions(void **state)
{
    (void)state;
    dbg_t *d = dt_open("tests/debug/programs/calls.s", 1, 1, NULL, 0);
    dt_do(d, "tbreak bump");
    assert_non_null(strstr(dt_do(d, "continue"), "temporary breakpoint 1 hit"));
    assert_non_null(strstr(dt_do(d, "info breakpoints"), "no breakpoints"));
    dt_do(d, "break bump if r20 == 3");
    dt_do(d, "continue");
    assert_int_equal(ca_reg(dbg_ca(d, 0), 20), 3);
    dt_do(d, "condition 2");
    dt_do(d, "ignore 2 1");
    dt_do(d, "continue"); /* the 5th call (r20 == 4) is ignored: the run ends */
    assert_true(d->ended);
    assert_non_null(strstr(dt_do(d, "info breakpoints"), "breakpoint  yes      1"));
    dt_close(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_abbreviation_names_one_command),
        cmocka_unit_test(test_bad_commands_and_arguments_give_one_line_and_the_session_goes_on),
        cmocka_unit_test(test_cell_sets_take_numbers_ranges_stars_and_all),
        cmocka_unit_test(test_completion_knows_commands_cells_symbols_and_registers),
        cmocka_unit_test(test_settings_and_registers_are_set_by_their_names),
        cmocka_unit_test(test_expect_checks_the_previous_output_and_counts_failures),
        cmocka_unit_test(test_temporary_breakpoints_ignore_counts_and_conditions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
