/* The console's expressions: C arithmetic over a cell's registers, memory, symbols and the clock. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "dbg_test.h"
#include "expr.h"
#include "nesting.h"

static int64_t eval_ok(dbg_t *d, const char *text)
{
    char err[256];
    expr_t *e = expr_parse(text, err, sizeof err);
    if (e == NULL)
        fail_msg("'%s' does not parse: %s", text, err);
    int64_t v = 0;
    if (dbg_eval(d, e, d->sel, &v, err, sizeof err) != 0)
        fail_msg("'%s' does not evaluate: %s", text, err);
    expr_free(e);
    return v;
}

static void eval_fails(dbg_t *d, const char *text, const char *why)
{
    char err[256] = "";
    expr_t *e = expr_parse(text, err, sizeof err);
    int64_t v;
    if (e != NULL) {
        assert_int_not_equal(dbg_eval(d, e, d->sel, &v, err, sizeof err), 0);
        expr_free(e);
    }
    if (strstr(err, why) == NULL)
        fail_msg("'%s' failed with '%s', not with '%s'", text, err, why);
}

static int setup(void **state)
{
    *state = dt_open("tests/debug/programs/calls.s", 2, 2, NULL, 0);
    return 0;
}

static int teardown(void **state)
{
    dt_close(*state);
    return 0;
}

static void test_arithmetic_follows_c_precedence(void **state)
{
    dbg_t *d = *state;
    assert_int_equal(eval_ok(d, "1 + 2 * 3"), 7);
    assert_int_equal(eval_ok(d, "(1 + 2) * 3"), 9);
    assert_int_equal(eval_ok(d, "1 << 4 | 1"), 17);
    assert_int_equal(eval_ok(d, "7 - 3 - 2"), 2);
    assert_int_equal(eval_ok(d, "-7 / 2"), -3);
    assert_int_equal(eval_ok(d, "-7 % 2"), -1);
    assert_int_equal(eval_ok(d, "1 < 2 && 3 >= 3 || 0"), 1);
    assert_int_equal(eval_ok(d, "!5 + ~0"), -1);
    assert_int_equal(eval_ok(d, "6 & 3 ^ 1"), 3);
    assert_int_equal(eval_ok(d, "'A' + 0b11"), 68);
}

static void test_short_hex_literals_are_signed_words_like_registers(void **state)
{
    dbg_t *d = *state;
    assert_int_equal(eval_ok(d, "0xffffffff"), -1);
    assert_int_equal(eval_ok(d, "0xffffffff == -1"), 1);
    assert_int_equal(eval_ok(d, "0x100000000"), 0x100000000LL);
    assert_int_equal(eval_ok(d, "4294967295"), 4294967295LL);
}

static void test_registers_symbols_and_memory_of_the_cell(void **state)
{
    dbg_t *d = *state;
    dt_do(d, "break leaf");
    dt_do(d, "continue");
    assert_int_equal(eval_ok(d, "pc == leaf"), 1);
    assert_int_equal(eval_ok(d, "ra"), eval_ok(d, "r1"));
    assert_int_equal(eval_ok(d, "sp"), 0x80000 - 4);
    assert_int_equal(eval_ok(d, "[counter]"), 0); /* r20 is 0 in the first call */
    assert_int_equal(eval_ok(d, "[table + 4]"), 2);
    assert_int_equal(eval_ok(d, "w[table + 8] + h[table + 12] + b[table]"), 3 + 4 + 1);
    assert_int_equal(eval_ok(d, "bundles > 0 && !halted && !waiting"), 1);
    assert_int_equal(eval_ok(d, "clock"), (int64_t)emu_array_clock(d->a));
    assert_int_equal(eval_ok(d, "count(0) + credits(0)"), 0);
}

static void test_another_cell_is_named_by_its_coordinates(void **state)
{
    dbg_t *d = *state;
    dt_do(d, "cell 0,0");
    assert_int_equal(eval_ok(d, "x * 10 + y"), 0);
    assert_int_equal(eval_ok(d, "(1,1).x * 10 + (1,1).y"), 11);
    assert_int_equal(eval_ok(d, "(1,0).id"), 1);
    assert_int_equal(eval_ok(d, "(0,1).pc == pc"), 1); /* every cell runs the same program in step */
}

static void test_bad_expressions_say_why(void **state)
{
    dbg_t *d = *state;
    eval_fails(d, "1 +", "ends too early");
    eval_fails(d, "(1", "missing ')'");
    eval_fails(d, "[4", "missing ']'");
    eval_fails(d, "1 $ 2", "unexpected");
    eval_fails(d, "12abc", "bad number");
    eval_fails(d, "nosuchsymbol", "no symbol");
    eval_fails(d, "1 / 0", "division by zero");
    eval_fails(d, "[0x7fffffff]", "outside the memory");
    eval_fails(d, "(5,5).r1", "outside the 2x2 array");
    eval_fails(d, "count(99)", "channels are");
    eval_fails(d, "'ab'", "character constant");
    /* 64-bit arithmetic refuses what it cannot hold rather than print a number nobody wrote */
    eval_fails(d, "0x1ffffffffffffffffff", "number too large");
    eval_fails(d, "99999999999999999999", "number too large");
    eval_fails(d, "1 << 99", "shift by 99");
    eval_fails(d, "1 >> -1", "shift by -1");
    assert_int_equal(eval_ok(d, "1 << 62"), 1ll << 62);
}

/* 60,000 '(' or 100,000 '-' overflowed the console's stack (the parser, the evaluator and expr_free recurse once
 * per level): now an error at the level past the limit, in `print`, a breakpoint's address and its condition. */
static void test_expressions_nested_too_deeply_are_refused(void **state)
{
    dbg_t *d = *state;
    char *parens = nesting_text("", '(', 60000, "1"), *minus = nesting_text("", '-', 100000, "1");
    eval_fails(d, parens, "column 257: expression nested too deeply (limit 256)");
    eval_fails(d, minus, "column 257: expression nested too deeply (limit 256)");
    free(parens);
    free(minus);
    static const char *const commands[] = {"print ", "break *", "break _start if "};
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        char *cmd = nesting_text(commands[i], '(', 60000, "1");
        const char *why = dt_fail(d, cmd);
        if (strstr(why, "expression nested too deeply (limit 256)") == NULL)
            fail_msg("'%s(((...' failed with '%s'", commands[i], why);
        free(cmd);
    }
    char *at_limit = nesting_text("", '-', 255, "1");
    assert_int_equal(eval_ok(d, at_limit), -1);
    free(at_limit);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_arithmetic_follows_c_precedence),
        cmocka_unit_test(test_short_hex_literals_are_signed_words_like_registers),
        cmocka_unit_test(test_registers_symbols_and_memory_of_the_cell),
        cmocka_unit_test(test_another_cell_is_named_by_its_coordinates),
        cmocka_unit_test(test_bad_expressions_say_why),
        cmocka_unit_test(test_expressions_nested_too_deeply_are_refused),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
