/* Helpers of the viewer's tests. */
#include "view_test.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "iwarp_config.h"

const char *view_test_path(char *buf, size_t cap, const char *rel)
{
    snprintf(buf, cap, "%s/%s", IWARP_SOURCE_ROOT, rel);
    return buf;
}

static void quiet(void *user, unsigned x, unsigned y, const char *text)
{
    (void)user, (void)x, (void)y, (void)text;
}

void view_test_build(view_test_run_t *r, const char *rel_path)
{
    char path[4096];
    emu_machine_t m;
    emu_machine_defaults(&m);
    memset(r, 0, sizeof *r);
    assert_int_equal(run_desc_parse_file(view_test_path(path, sizeof path, rel_path), &m, &r->desc, stderr), 0);
    assert_int_equal(run_desc_build(&r->desc, NULL, 0, NULL, 0, &r->a), 0);
    emu_array_set_output(r->a, quiet, NULL);
}

void view_test_free(view_test_run_t *r)
{
    emu_array_free(r->a);
    run_desc_free(&r->desc);
    memset(r, 0, sizeof *r);
}
