/* docs/conset.md: every ```cset block parses without an error and compiles to a plan with every property. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "route_test.h"

static char *read_doc(void)
{
    char path[1024];
    size_t len;
    rt_source_path(path, sizeof path, "docs/conset.md");
    return rt_read_file(path, &len);
}

static void test_every_cset_example_parses_and_compiles(void **state)
{
    (void)state;
    char *doc = read_doc();
    unsigned blocks = 0;
    for (char *at = strstr(doc, "\n```cset\n"); at != NULL; at = strstr(at, "\n```cset\n")) {
        at += strlen("\n```cset\n");
        char *end = strstr(at, "\n```");
        assert_non_null(end);
        *end = '\0';
        cset_t s;
        rt_parse(&s, at);
        route_plan_t plan;
        rt_compile(&s, 0, &plan);
        rt_check_plan(&s, &plan);
        route_plan_free(&plan);
        cset_free(&s);
        blocks++;
        at = end + 1;
    }
    assert_true(blocks >= 1);
    free(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_cset_example_parses_and_compiles),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
