/* The JSON writer (common/json.c) read back by the sweep's reader (common/json_value.c, written apart
 * and fuzzed; jansson cannot link beside the writer, whose names it shares): any nesting depth, and doubles
 * that read back as the same bits. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include "json.h"
#include "json_value.h"

static jv_t *written(void (*write)(json_writer_t *), bool pretty)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    json_writer_t j;
    json_init(&j, f, pretty);
    write(&j);
    json_finish(&j);
    fclose(f);
    jv_t *docs;
    size_t n;
    char err[200];
    if (jv_parse_all(text, len, &docs, &n, err, sizeof err) != 0 || n != 1)
        fail_msg("not one JSON document (%s):\n%s", err, text);
    free(text);
    return docs;
}

enum { DEEP = 50 }; /* past the writer's old fixed table of 32 scopes, inside the reader's limit of 64 */

/* {"a": [[[ ... {"x": 1, "y": [2, 3]}, 4 ... ]]], "b": 5}: deeper than any fixed table of scopes. */
static void write_deep(json_writer_t *j)
{
    json_begin_object(j, NULL);
    json_begin_array(j, "a");
    for (unsigned i = 0; i < DEEP; i++)
        json_begin_array(j, NULL);
    json_begin_object(j, NULL);
    json_u64(j, "x", 1);
    json_begin_array(j, "y");
    json_u64(j, NULL, 2);
    json_u64(j, NULL, 3);
    json_end_array(j);
    json_end_object(j);
    for (unsigned i = 0; i < DEEP; i++) {
        json_u64(j, NULL, 4);
        json_end_array(j);
    }
    json_end_array(j);
    json_u64(j, "b", 5);
    json_end_object(j);
}

static void test_any_depth_nests_right(void **state)
{
    (void)state;
    for (int pretty = 0; pretty < 2; pretty++) {
        jv_t *doc = written(write_deep, pretty);
        const jv_t *v = jv_get(doc, "a");
        for (unsigned i = 0; i <= DEEP; i++) {
            assert_non_null(v);
            assert_int_equal(v->kind, JV_ARRAY);
            assert_int_equal(v->n, i == 0 ? 1 : 2); /* "a" holds one array; each inner one an item and a 4 */
            if (i > 0)
                assert_string_equal(v->items[1].text, "4");
            v = &v->items[0];
        }
        assert_int_equal(v->kind, JV_OBJECT);
        assert_string_equal(jv_get(v, "x")->text, "1");
        assert_int_equal(jv_get(v, "y")->n, 2);
        assert_string_equal(jv_get(doc, "b")->text, "5");
        jv_free_all(doc, 1);
    }
}

static const double samples[] = {0.1, 1.0 / 3.0, 2.0 / 3.0, 1e-300, 123456789.123456789, 6.02214076e23, -0.0, 5e-324};

static void write_doubles(json_writer_t *j)
{
    json_begin_array(j, NULL);
    for (size_t i = 0; i < sizeof samples / sizeof samples[0]; i++)
        json_double(j, NULL, samples[i]);
    json_double(j, NULL, NAN);
    json_end_array(j);
}

static void test_doubles_read_back_exactly(void **state)
{
    (void)state;
    jv_t *doc = written(write_doubles, false);
    size_t n = sizeof samples / sizeof samples[0];
    assert_int_equal(doc->n, n + 1);
    for (size_t i = 0; i < n; i++) {
        double got = strtod(doc->items[i].text, NULL);
        if (memcmp(&got, &samples[i], sizeof got) != 0 && !(got == 0 && samples[i] == 0))
            fail_msg("%.17g came back as %.17g", samples[i], got);
    }
    assert_int_equal(doc->items[n].kind, JV_NULL);
    char text[32];
    json_format_double(text, 0.1);
    assert_string_equal(text, "0.1"); /* the shortest form, not 0.10000000000000001 */
    jv_free_all(doc, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_any_depth_nests_right),
        cmocka_unit_test(test_doubles_read_back_exactly),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
