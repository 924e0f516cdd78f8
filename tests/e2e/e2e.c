#include "e2e.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "golden.h"
#include "iwarp_config.h"

static void collect(void *user, unsigned x, unsigned y, const char *text)
{
    e2e_run_t *r = user;
    size_t need = strlen(text) + 32;
    char *grown = realloc(r->console, r->console_len + need);
    assert_non_null(grown);
    r->console = grown;
    r->console_len += (size_t)snprintf(r->console + r->console_len, need, "[%u,%u] %s\n", x, y, text);
}

static void run_desc(e2e_run_t *r)
{
    static const char *const none[1] = {NULL};
    assert_int_equal(run_desc_build(&r->desc, none, 0, none, 0, &r->array), 0);
    emu_array_set_output(r->array, collect, r);
    r->status = emu_array_run(r->array, r->desc.max_cycles);
}

static void source_path(char *buf, size_t cap, const char *rel)
{
    snprintf(buf, cap, "%s/%s", IWARP_SOURCE_ROOT, rel);
}

void e2e_run_path(e2e_run_t *r, const char *path)
{
    memset(r, 0, sizeof *r);
    emu_machine_t m;
    emu_machine_defaults(&m);
    assert_int_equal(run_desc_parse_file(path, &m, &r->desc, stderr), 0);
    run_desc(r);
}

void e2e_run_file(e2e_run_t *r, const char *rel_path)
{
    char path[1024];
    source_path(path, sizeof path, rel_path);
    e2e_run_path(r, path);
}

void e2e_run_program(e2e_run_t *r, const char *rel_path, unsigned w, unsigned h, const uint32_t *args, unsigned nargs)
{
    memset(r, 0, sizeof *r);
    char path[1024];
    source_path(path, sizeof path, rel_path);
    emu_machine_t m;
    emu_machine_defaults(&m);
    m.width = w;
    m.height = h;
    assert_int_equal(run_desc_single(&r->desc, path, &m, args, nargs), 0);
    run_desc(r);
}

void e2e_write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    assert_true(fputs(text, f) >= 0);
    assert_int_equal(fclose(f), 0);
}

void e2e_run_source(e2e_run_t *r, const char *asm_text, const char *options)
{
    memset(r, 0, sizeof *r);
    char dir[] = "/tmp/iwarp-e2e-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char prog[1100], run[1100];
    snprintf(prog, sizeof prog, "%s/example.s", dir);
    snprintf(run, sizeof run, "%s/example.run", dir);
    e2e_write_text(prog, asm_text);
    char text[4096];
    snprintf(text, sizeof text, "%s\nprogram example example.s\ncells all example\n", options);
    e2e_write_text(run, text);
    emu_machine_t m;
    emu_machine_defaults(&m);
    int rc = run_desc_parse_file(run, &m, &r->desc, stderr);
    if (rc == 0)
        run_desc(r);
    unlink(prog);
    unlink(run);
    rmdir(dir);
    assert_int_equal(rc, 0);
}

void e2e_free(e2e_run_t *r)
{
    emu_array_free(r->array);
    run_desc_free(&r->desc);
    free(r->console);
    memset(r, 0, sizeof *r);
}

uint32_t e2e_a0(const e2e_run_t *r, unsigned x, unsigned y)
{
    return ca_reg(emu_array_ca(r->array, x, y), ISA_REG_A0);
}

void e2e_assert_done(const e2e_run_t *r)
{
    if (r->status == EMU_RUN_DONE)
        return;
    unsigned x, y;
    char line[400] = "";
    if (emu_array_first_fault(r->array, &x, &y))
        emu_format_fault(r->array, x, y, line, sizeof line);
    fail_msg("run ended with status %s: %s %s", emu_run_status_name(r->status), line, emu_array_deadlock(r->array));
}

void e2e_check_golden(const char *name, uint64_t cycles)
{
    golden_check("tests/golden/cycles.txt", name, cycles, "cycles", "e2e");
}
