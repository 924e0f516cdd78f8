#include "dbg_test.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "run_desc.h"
#include "state_hash.h"

static emu_array_t *build(const char *rel, unsigned w, unsigned h, const uint32_t *args, unsigned nargs,
                          uint64_t *max_cycles)
{
    emu_machine_t m;
    emu_machine_defaults(&m);
    run_desc_t desc;
    memset(&desc, 0, sizeof desc);
    size_t n = strlen(rel);
    if (n > 4 && strcmp(rel + n - 4, ".run") == 0) {
        assert_int_equal(run_desc_parse_file(rel, &m, &desc, stderr), 0);
    } else {
        m.width = w;
        m.height = h;
        assert_int_equal(run_desc_single(&desc, rel, &m, args, nargs), 0);
    }
    static const char *const none[1] = {NULL};
    emu_array_t *a = NULL;
    assert_int_equal(run_desc_build(&desc, none, 0, none, 0, &a), 0);
    if (max_cycles != NULL)
        *max_cycles = desc.max_cycles;
    run_desc_free(&desc);
    return a;
}

dbg_t *dt_open(const char *rel, unsigned w, unsigned h, const uint32_t *args, unsigned nargs)
{
    uint64_t max;
    emu_array_t *a = build(rel, w, h, args, nargs, &max);
    FILE *out = fopen("/dev/null", "w");
    assert_non_null(out);
    dbg_t *d = dbg_create(a, rel, max, out);
    assert_non_null(d);
    return d;
}

void dt_close(dbg_t *d)
{
    FILE *out = d->out;
    dbg_free(d);
    fclose(out);
}

const char *dt_do(dbg_t *d, const char *cmd)
{
    int rc = dbg_execute(d, cmd);
    if (rc != 0)
        fail_msg("'%s' failed: %s", cmd, d->capture.s ? d->capture.s : "");
    return d->capture.s ? d->capture.s : "";
}

const char *dt_fail(dbg_t *d, const char *cmd)
{
    /* expect adds to the output of the command it checks: look only at what it printed itself. */
    size_t before = strncmp(cmd, "expect", 6) == 0 ? d->capture.len : 0;
    int rc = dbg_execute(d, cmd);
    const char *out = d->capture.s ? d->capture.s + before : "";
    if (rc == 0)
        fail_msg("'%s' should have failed; it printed: %s", cmd, out);
    /* One line, starting with "error: ". */
    const char *nl = strchr(out, '\n');
    if (strncmp(out, "error: ", 7) != 0 || nl == NULL || nl[1] != '\0')
        fail_msg("'%s' should give one line \"error: ...\", not: %s", cmd, out);
    d->error_pending = false;
    return out;
}

uint64_t dt_batch_hash(const char *rel, unsigned w, unsigned h, const uint32_t *args, unsigned nargs, uint64_t n)
{
    emu_array_t *a = build(rel, w, h, args, nargs, NULL);
    uint64_t hash = state_hash_at(a, n, NULL);
    emu_array_free(a);
    return hash;
}
