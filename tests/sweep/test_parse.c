/* The sweep file (docs/sweep.md): cases in the documented order, ranges, keys and commands, and an error with
 * file:line:col for every malformed line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file.h"
#include "iwarp_config.h"
#include "sweep/sweep.h"

static void parse_ok(sweep_t *s, const char *text)
{
    char err[512];
    if (sweep_parse(s, "t.sweep", text, strlen(text), err, sizeof err) != 0)
        fail_msg("did not parse: %s\n%s", err, text);
}

static void parse_bad(const char *text, const char *want)
{
    sweep_t s;
    char err[512] = "";
    if (sweep_parse(&s, "t.sweep", text, strlen(text), err, sizeof err) == 0) {
        sweep_free(&s);
        fail_msg("parsed, but should fail with '%s':\n%s", want, text);
    }
    if (strstr(err, want) == NULL)
        fail_msg("error '%s' does not contain '%s'", err, want);
}

static void test_cross_varies_the_last_parameter_fastest_and_zip_goes_together(void **state)
{
    (void)state;
    sweep_t s;
    parse_ok(&s, "# a comment\n"
                 "name = t1\n"
                 "command = traffic --pattern {p} --rate {r} --seed {seed}   # trailing comment\n"
                 "cross p = uniform, tornado\n"
                 "zip r = 0.1, 0.2, 0.3\n"
                 "zip seed = 7,8,9\n");
    assert_string_equal(s.name, "t1");
    assert_int_equal(s.ncases, 6);
    char key[256], cmd[512];
    sweep_case_key(&s, 0, key, sizeof key);
    assert_string_equal(key, "p=uniform r=0.1 seed=7");
    sweep_case_key(&s, 2, key, sizeof key);
    assert_string_equal(key, "p=uniform r=0.3 seed=9");
    sweep_case_key(&s, 4, key, sizeof key);
    assert_string_equal(key, "p=tornado r=0.2 seed=8");
    sweep_case_command(&s, 5, cmd, sizeof cmd);
    assert_string_equal(cmd, "traffic --pattern tornado --rate 0.3 --seed 9");
    char *words[16];
    assert_int_equal(sweep_split(cmd, words, 16), 7);
    assert_string_equal(words[6], "9");
    sweep_free(&s);
}

static void test_a_range_counts_its_steps_to_the_end(void **state)
{
    (void)state;
    sweep_t s;
    parse_ok(&s, "command = traffic --rate {r} --array {a}\ncross r = 0.01:0.6:0.01\ncross a = 4x4, 8x8\n");
    assert_int_equal(s.params[0].nvalues, 60);
    assert_string_equal(s.params[0].values[59], "0.6");
    assert_string_equal(s.params[0].values[2], "0.03");
    assert_int_equal(s.ncases, 120);
    sweep_free(&s);
    parse_ok(&s, "command = traffic --samples {m}\ncross m = 3:10, 1:2\n"); /* two numbers: not a range */
    assert_int_equal(s.ncases, 2);
    sweep_free(&s);
}

static void test_malformed_lines_are_errors_at_their_line_and_column(void **state)
{
    (void)state;
    parse_bad("cross r = 1, 2\n", "t.sweep:1:1: no 'command = ...' line");
    parse_bad("command = traffic --rate {r}\ncross r = 1,,2\n", "t.sweep:2:13: expected a value");
    parse_bad("command = traffic --rate {r}\ncross r = 1 2\n", "t.sweep:2:13: expected ',' between values");
    parse_bad("command = traffic --rate {r}\ncross r = 1, {2}\n", "t.sweep:2:14: '{' cannot be in a value");
    parse_bad("command = traffic --rate {x}\ncross r = 1\n", "t.sweep:1:26: {x} names no parameter");
    parse_bad("command = traffic --rate {r}\ncross r = 1\ncross s = 2\n", "parameter 's' is not used");
    parse_bad("command = traffic --rate {r\ncross r = 1\n", "t.sweep:1:26: a '{' without '}'");
    parse_bad("command = fly --rate {r}\ncross r = 1\n", "t.sweep:1:11: 'fly' is not an iwarp command");
    parse_bad("command = sweep x {r}\ncross r = 1\n", "'sweep' is not an iwarp command a sweep can run");
    parse_bad("command = traffic {r} {s}\nzip r = 1, 2\nzip s = 1\n", "zip parameter 's' has 1 values");
    parse_bad("command = traffic {r}\ncross r = 1\ncross r = 2\n", "t.sweep:3:7: parameter 'r' is declared twice");
    parse_bad("command = traffic {r}\ncommand = run\ncross r = 1\n", "t.sweep:2:1: 'command' is given twice");
    parse_bad("command = traffic {r}\nzap r = 1\n", "t.sweep:2:1: expected 'name =', 'command =', 'cross NAME ='");
    parse_bad("command = traffic {r}\ncross r = 0.5:0.1:0.1\n", "t.sweep:2:11: a range A:B:STEP wants");
    parse_bad("command = traffic {r}\ncross r = 0:1:0.00001\n", "the range gives more than 4096 values");
    parse_bad("command = traffic {a} {b}\ncross a = 0:999:1\ncross b = 0:999:1\n",
              "1000000 cases: a sweep has at most");
    parse_bad("name = a b\ncommand = traffic\n", "t.sweep:1:9: a sweep name holds");
    parse_bad("command = traffic 'x'\n", "t.sweep:1:19: the command is split at blanks");
    parse_bad("command =\n", "t.sweep:1:10: 'command' wants a value");
}

/* Every ```sweep block of docs/sweep.md parses, the first is programs/sweeps/curves.sweep, and its cases are
 * numbered as the page says. */
static void test_the_documented_sweeps_parse_as_described(void **state)
{
    (void)state;
    uint8_t *data;
    size_t len;
    char err[512];
    if (file_read_all(IWARP_SOURCE_ROOT "/docs/sweep.md", &data, &len, err, sizeof err) != 0)
        fail_msg("%s", err);
    const char *text = (const char *)data, *end = text + len;
    unsigned blocks = 0;
    for (const char *p = text; (p = strstr(p, "```sweep\n")) != NULL && p < end; blocks++) {
        p += 9;
        const char *close = strstr(p, "```");
        assert_non_null(close);
        sweep_t s;
        if (sweep_parse(&s, "docs/sweep.md", p, (size_t)(close - p), err, sizeof err) != 0)
            fail_msg("%s", err);
        if (blocks == 0) {
            assert_int_equal(s.ncases, 96);
            char key[256];
            sweep_case_key(&s, 12, key, sizeof key);
            assert_string_equal(key, "pattern=uniform depth=8 rate=0.01");
            sweep_case_key(&s, 1, key, sizeof key);
            assert_string_equal(key, "pattern=uniform depth=4 rate=0.02");
        } else {
            assert_int_equal(s.ncases, 6);
        }
        sweep_free(&s);
        p = close + 3;
    }
    free(data);
    assert_int_equal(blocks, 2);
    sweep_t s;
    if (sweep_load(&s, IWARP_SOURCE_ROOT "/programs/sweeps/curves.sweep", err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_string_equal(s.name, "curves");
    assert_int_equal(s.ncases, 96);
    sweep_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cross_varies_the_last_parameter_fastest_and_zip_goes_together),
        cmocka_unit_test(test_a_range_counts_its_steps_to_the_end),
        cmocka_unit_test(test_malformed_lines_are_errors_at_their_line_and_column),
        cmocka_unit_test(test_the_documented_sweeps_parse_as_described),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
