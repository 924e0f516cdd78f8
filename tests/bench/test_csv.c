/* CSV tables (common/csv.h): columns as field names first come, empty cells, RFC 4180 quoting. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"

static char *written(const csv_table_t *t, int *rc)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    *rc = csv_write(t, f);
    fclose(f);
    return text;
}

static void test_columns_follow_the_records(void **state)
{
    (void)state;
    csv_table_t t;
    csv_init(&t);
    csv_row(&t);
    csv_set(&t, "bench", "logp");
    csv_set(&t, "clocks", "330.5");
    csv_row(&t);
    csv_set(&t, "bench", "speed");
    csv_set(&t, "threads", "2"); /* a new column: the first record leaves it empty */
    csv_row(&t);
    csv_set(&t, "threads", "1"); /* a record may skip the first columns */
    csv_set(&t, "threads", "4"); /* the last value set wins */
    int rc;
    char *text = written(&t, &rc);
    assert_int_equal(rc, 0);
    assert_string_equal(text, "bench,clocks,threads\r\nlogp,330.5,\r\nspeed,,2\r\n,,4\r\n");
    free(text);
    csv_free(&t);
}

static void test_fields_are_quoted_when_they_must_be(void **state)
{
    (void)state;
    csv_table_t t;
    csv_init(&t);
    csv_row(&t);
    csv_set(&t, "case, name", "EEL 1 hop");
    csv_set(&t, "unit", "say \"per message\"");
    csv_set(&t, "note", "two\nlines");
    int rc;
    char *text = written(&t, &rc);
    assert_int_equal(rc, 0);
    assert_string_equal(text, "\"case, name\",unit,note\r\nEEL 1 hop,\"say \"\"per message\"\"\",\"two\nlines\"\r\n");
    free(text);
    csv_free(&t);
}

static void test_a_field_without_a_record_is_refused(void **state)
{
    (void)state;
    csv_table_t t;
    csv_init(&t);
    csv_set(&t, "bench", "x");
    int rc;
    char *text = written(&t, &rc);
    assert_int_equal(rc, -1);
    free(text);
    csv_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_columns_follow_the_records),
        cmocka_unit_test(test_fields_are_quoted_when_they_must_be),
        cmocka_unit_test(test_a_field_without_a_record_is_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
