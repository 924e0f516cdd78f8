/* The JSON reader iwarp sweep embeds and flattens command output with (common/json_value.h): values as
 * RFC 8259 has them, numbers kept as written, strings decoded, errors at line:col, and the compact form. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "json_value.h"

static char *compact_all(const char *text)
{
    jv_t *v;
    size_t n;
    char err[128];
    if (jv_parse_all(text, strlen(text), &v, &n, err, sizeof err) != 0)
        fail_msg("'%s' did not parse: %s", text, err);
    char *out = calloc(1, 1);
    for (size_t i = 0; i < n; i++) {
        char *c = jv_compact(&v[i]);
        assert_non_null(c);
        char *joined = malloc(strlen(out) + strlen(c) + 2);
        assert_non_null(joined);
        strcpy(joined, out);
        if (i > 0)
            strcat(joined, "\n");
        strcat(joined, c);
        free(out);
        free(c);
        out = joined;
    }
    jv_free_all(v, n);
    return out;
}

static void expect_compact(const char *text, const char *want)
{
    char *got = compact_all(text);
    assert_string_equal(got, want);
    free(got);
}

static void expect_error(const char *text, const char *want)
{
    jv_t *v;
    size_t n;
    char err[128] = "";
    assert_int_equal(jv_parse_all(text, strlen(text), &v, &n, err, sizeof err), -1);
    if (strcmp(err, want) != 0)
        fail_msg("'%s': error '%s', wanted '%s'", text, err, want);
}

static void test_values_compact_with_numbers_as_written(void **state)
{
    (void)state;
    expect_compact("{ \"a\" : [1, -2.50, 3e+7, true, false, null],\n \"b\": {} }",
                   "{\"a\":[1,-2.50,3e+7,true,false,null],\"b\":{}}");
    expect_compact("{\"x\":1}\n{\"x\":2}\n", "{\"x\":1}\n{\"x\":2}");
    expect_compact("  ", "");
    expect_compact("\"tab\\there \\\"q\\\" \\u00e9 \\ud83d\\ude00 \\/\"",
                   "\"tab\\u0009here \\\"q\\\" \xc3\xa9 \xf0\x9f\x98\x80 /\"");
}

static void test_members_are_found_by_name(void **state)
{
    (void)state;
    jv_t *v;
    size_t n;
    const char *text = "{\"records\":[{\"case\":\"a\"}],\"status\":0}";
    assert_int_equal(jv_parse_all(text, strlen(text), &v, &n, NULL, 0), 0);
    assert_int_equal(n, 1);
    const jv_t *r = jv_get(&v[0], "records");
    assert_non_null(r);
    assert_int_equal(r->kind, JV_ARRAY);
    assert_string_equal(jv_get(&r->items[0], "case")->text, "a");
    assert_null(jv_get(&v[0], "missing"));
    assert_null(jv_get(r, "case"));
    jv_free_all(v, n);
}

static void test_malformed_json_is_an_error_at_its_place(void **state)
{
    (void)state;
    expect_error("{\"a\":1,}", "1:8: expected a member name");
    expect_error("[1 2]", "1:4: expected ',' or ']'");
    expect_error("{\"a\" 1}", "1:6: expected ':'");
    expect_error("\n  nul", "2:3: expected a JSON value");
    expect_error("01", "1:2: expected a blank or the end after a value");
    expect_error("{}[]", "1:3: expected a blank or the end after a value");
    expect_error("-", "1:2: expected a digit");
    expect_error("1.", "1:3: expected a digit after '.'");
    expect_error("1e", "1:3: expected a digit in the exponent");
    expect_error("\"abc", "1:5: unterminated string");
    expect_error("\"a\nb\"", "1:3: control character in a string");
    expect_error("\"\\x\"", "1:4: bad escape in a string");
    expect_error("\"\\u0000\"", "1:8: \\u0000 in a string");
    char deep[200];
    memset(deep, '[', 100);
    deep[100] = '\0';
    expect_error(deep, "1:66: nested too deep");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values_compact_with_numbers_as_written),
        cmocka_unit_test(test_members_are_found_by_name),
        cmocka_unit_test(test_malformed_json_is_an_error_at_its_place),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
