/* docs/machine.md's table of keys is the machine's rows (emu/machine_keys.def, comm_agent/coa_keys.def) as
 * emu_machine_doc_table writes them, line for line: a key added, or a default, range or meaning changed, fails
 * here until the docs say the same. IWARP_REBASELINE=1 writes the rows' table into the docs instead. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "command.h"
#include "machine.h"

static const char doc_path[] = "docs/machine.md";

static char *read_all(const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char *text = command_read_all(f);
    fclose(f);
    assert_non_null(text);
    return text;
}

/* What emu_machine_print writes of m, or with m NULL the docs table the rows make. */
static char *machine_text(const emu_machine_t *m)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    if (m != NULL)
        emu_machine_print(m, f);
    else
        emu_machine_doc_table(f);
    fclose(f);
    return text;
}

/* The docs' table: from its header line to the first line that does not start with '|'. */
static void find_table(const char *doc, const char **start, const char **end)
{
    *start = strstr(doc, "| key | default |");
    if (*start == NULL)
        fail_msg("%s has no table of keys (a line starting `| key | default |`)", doc_path);
    const char *p = *start;
    while (*p == '|') {
        const char *nl = strchr(p, '\n');
        p = nl != NULL ? nl + 1 : p + strlen(p);
    }
    *end = p;
}

static void test_the_docs_table_is_the_rows(void **state)
{
    (void)state;
    char *doc = read_all(doc_path), *want = machine_text(NULL);
    const char *start, *end;
    find_table(doc, &start, &end);
    const char *rebaseline = getenv("IWARP_REBASELINE");
    if (rebaseline != NULL && strcmp(rebaseline, "1") == 0) {
        FILE *f = fopen(doc_path, "wb");
        assert_non_null(f);
        fprintf(f, "%.*s%s%s", (int)(start - doc), doc, want, end);
        assert_int_equal(fclose(f), 0);
    } else {
        size_t n = (size_t)(end - start);
        if (n != strlen(want) || memcmp(start, want, n) != 0)
            fail_msg("%s's table of keys is not the machine's rows; they make (IWARP_REBASELINE=1 writes it):\n%s",
                     doc_path, want);
    }
    free(want);
    free(doc);
}

/* Every key the table lists is one --set takes with its default, and the defaults print as they load. */
static void test_every_row_sets_and_prints_its_default(void **state)
{
    (void)state;
    emu_machine_t m, back;
    emu_machine_defaults(&m);
    char *text = machine_text(&m);
    emu_machine_defaults(&back);
    char err[200];
    for (char *line = strtok(text, "\n"); line != NULL; line = strtok(NULL, "\n")) {
        char *eq = strstr(line, " = ");
        assert_non_null(eq);
        *eq = '\0';
        if (emu_machine_set(&back, line, eq + 3, err, sizeof err) != 0)
            fail_msg("%s: %s", line, err);
    }
    free(text);
    assert_true(emu_machine_same(&m, &back));
    assert_int_equal(emu_machine_in_range(&m, err, sizeof err), 0);
}

/* A machine from outside with a key out of its row's range is refused, the key named. */
static void test_a_key_out_of_range_is_named(void **state)
{
    (void)state;
    emu_machine_t m;
    emu_machine_defaults(&m);
    m.agent.queue_depth = 5000;
    char err[200];
    assert_int_equal(emu_machine_in_range(&m, err, sizeof err), -1);
    assert_string_equal(err, "queue_depth is 5000, the key allows 1 to 1024");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_docs_table_is_the_rows),
        cmocka_unit_test(test_every_row_sets_and_prints_its_default),
        cmocka_unit_test(test_a_key_out_of_range_is_named),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
