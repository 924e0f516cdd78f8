/* End-to-end test helpers: run programs and run descriptions the way `iwarp run` does. */
#ifndef TESTS_E2E_H
#define TESTS_E2E_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "emu.h"
#include "run_desc.h"

typedef struct e2e_run {
    run_desc_t desc;
    emu_array_t *array;
    emu_run_status_t status;
    char *console; /* every console line, "[x,y] text\n" */
    size_t console_len;
} e2e_run_t;

/* Loads a run description file (path relative to the source root) and runs it to the end. */
void e2e_run_file(e2e_run_t *r, const char *rel_path);
/* The same with a path as it is. */
void e2e_run_path(e2e_run_t *r, const char *path);
/* Runs one program (relative to the source root) on every cell of a WxH array with the given args. */
void e2e_run_program(e2e_run_t *r, const char *rel_path, unsigned w, unsigned h, const uint32_t *args, unsigned nargs);
/* The same from a run description text and a program given as assembly text in a temporary folder. */
void e2e_run_source(e2e_run_t *r, const char *asm_text, const char *options);
void e2e_free(e2e_run_t *r);
/* Writes TEXT to the file PATH (the test fails if it cannot). */
void e2e_write_text(const char *path, const char *text);

uint32_t e2e_a0(const e2e_run_t *r, unsigned x, unsigned y);
/* Fails the test with the fault or deadlock report when the run did not end with every cell halted. */
void e2e_assert_done(const e2e_run_t *r);

/* Golden cycle counts (tests/golden/cycles.txt, "name cycles" lines; names have no spaces): checks `name`,
 * or records it when IWARP_REBASELINE=1. */
void e2e_check_golden(const char *name, uint64_t cycles);

#endif
