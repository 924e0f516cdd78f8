/* iwarp bench as a person runs it (the binary is argv[1]): its records as CSV and as JSON, and the emulated
 * clocks they report are the ones the end-to-end tests pin (tests/golden/cycles.txt). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "command.h"
#include "iwarp_config.h"

static const char *iwarp;

static int bench(char **out, const char *args)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "'%s' bench --out /tmp/iwarp-bench-test %s", iwarp, args);
    return command_run(cmd, out);
}

/* The pinned value of NAME in tests/golden/cycles.txt. */
static unsigned long golden(const char *name)
{
    FILE *f = fopen(IWARP_SOURCE_ROOT "/tests/golden/cycles.txt", "r");
    assert_non_null(f);
    char line[512], key[256];
    unsigned long value = 0;
    bool found = false;
    while (!found && fgets(line, sizeof line, f) != NULL)
        found = sscanf(line, "%255s %lu", key, &value) == 2 && strcmp(key, name) == 0;
    fclose(f);
    if (!found)
        fail_msg("no golden value %s", name);
    return value;
}

/* Splits one CSV line without quoted fields (the bench's never need quotes) into at most max fields. */
static size_t split(char *line, char **fields, size_t max)
{
    size_t n = 0;
    for (char *p = line; n < max;) {
        fields[n++] = p;
        char *comma = strchr(p, ',');
        if (comma == NULL)
            break;
        *comma = '\0';
        p = comma + 1;
    }
    return n;
}

static size_t column(char **header, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(header[i], name) == 0)
            return i;
    fail_msg("no column %s", name);
    return 0;
}

static void test_csv_has_a_row_per_case_with_the_pinned_clocks(void **state)
{
    (void)state;
    char *out;
    assert_int_equal(bench(&out, "--quick --csv patterns"), 0);
    enum { MAX_FIELDS = 64 };
    char *header[MAX_FIELDS], *fields[MAX_FIELDS];
    char *save, *line = strtok_r(out, "\r\n", &save);
    assert_non_null(line);
    size_t nh = split(line, header, MAX_FIELDS);
    size_t c_case = column(header, nh, "case"), c_emulated = column(header, nh, "emulated_clocks");
    assert_int_equal(column(header, nh, "bench"), 0);
    unsigned rows = 0, pinned = 0;
    static const struct {
        const char *name, *golden;
    } pins[] = {{"torus conset 32", "conset_torus_8x8_32"},
                {"butterfly conset 32", "conset_butterfly_8x8_32"},
                {"butterfly conset_links 32", "conset_butterfly_links_8x8_32"}};
    while ((line = strtok_r(NULL, "\r\n", &save)) != NULL) {
        size_t n = split(line, fields, MAX_FIELDS);
        assert_int_equal(n, nh);
        assert_string_equal(fields[0], "patterns");
        rows++;
        for (size_t i = 0; i < sizeof pins / sizeof pins[0]; i++)
            if (strcmp(fields[c_case], pins[i].name) == 0) {
                assert_int_equal(strtoul(fields[c_emulated], NULL, 10), golden(pins[i].golden));
                pinned++;
            }
    }
    assert_int_equal(rows, 3 * 2 * 3); /* three patterns, two sizes (quick), three models */
    assert_int_equal(pinned, 3);
    free(out);
}

static void test_json_and_csv_give_the_same_records(void **state)
{
    (void)state;
    char *csv, *json;
    assert_int_equal(bench(&csv, "--quick --csv logp"), 0);
    assert_int_equal(bench(&json, "--quick --json logp"), 0);
    unsigned lines = 0, records = 0;
    for (const char *p = csv; (p = strstr(p, "\r\n")) != NULL; p += 2)
        lines++;
    for (const char *p = json; (p = strstr(p, "\"bench\": \"logp\"")) != NULL; p++)
        records++;
    assert_true(records > 10);
    assert_int_equal(lines, records + 1); /* and the header */
    /* EEL over one hop, the same number in both */
    const char *row = strstr(csv, "\r\nlogp,EEL 1 hop,");
    assert_non_null(row);
    const char *rec = strstr(json, "\"case\": \"EEL 1 hop\"");
    assert_non_null(rec);
    const char *clocks = strstr(rec, "\"clocks\": ");
    assert_non_null(clocks);
    char from_json[32];
    snprintf(from_json, sizeof from_json, "%.*s", (int)strcspn(clocks + 10, ",\n"), clocks + 10);
    char needle[64];
    snprintf(needle, sizeof needle, ",%s,", from_json);
    assert_non_null(strstr(row, needle));
    free(csv);
    free(json);
}

/* The text report leaves the same table beside its plots. */
static void test_the_report_writes_its_table_beside_the_plots(void **state)
{
    (void)state;
    char *csv, *report;
    assert_int_equal(bench(&csv, "--quick --csv logp"), 0);
    unlink("/tmp/iwarp-bench-test/results.csv");
    assert_int_equal(bench(&report, "--quick logp"), 0);
    assert_non_null(strstr(report, "every measured case as a row: /tmp/iwarp-bench-test/results.csv"));
    char *table;
    assert_int_equal(command_run("cat /tmp/iwarp-bench-test/results.csv", &table), 0);
    assert_string_equal(table, csv);
    free(csv);
    free(report);
    free(table);
}

static void test_one_format_at_a_time(void **state)
{
    (void)state;
    char *out;
    assert_int_equal(bench(&out, "--json --csv speed 2>&1"), 2);
    assert_non_null(strstr(out, "--json or --csv, not both"));
    free(out);
    char cmd[256]; /* a folder that cannot be made fails before anything runs */
    snprintf(cmd, sizeof cmd, "'%s' bench --quick --out /proc/iwarp-no logp 2>&1", iwarp);
    assert_int_equal(command_run(cmd, &out), 2);
    assert_non_null(strstr(out, "cannot write into /proc/iwarp-no"));
    free(out);
    assert_int_equal(bench(&out, "--quick nosuchbench 2>&1"), 2);
    assert_non_null(strstr(out, "no bench named 'nosuchbench'"));
    free(out);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s IWARP\n", argv[0]);
        return 2;
    }
    iwarp = argv[1];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_csv_has_a_row_per_case_with_the_pinned_clocks),
        cmocka_unit_test(test_json_and_csv_give_the_same_records),
        cmocka_unit_test(test_the_report_writes_its_table_beside_the_plots),
        cmocka_unit_test(test_one_format_at_a_time),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
