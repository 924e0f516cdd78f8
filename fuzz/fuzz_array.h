/* A small array the harnesses of run-time formats (snapshots, debugger expressions and scripts) work on: 2x1
 * cells of 64 KB running a short loop that stores to memory, so that registers, memory and the clock all
 * change. fuzz_seeds writes snapshots of this very array as seeds, so mutations start from files it accepts. */
#ifndef FUZZ_ARRAY_H
#define FUZZ_ARRAY_H

#include <string.h>

#include "asm.h"
#include "emu.h"

static const char fuzz_program_source[] = "        .text\n"
                                          "_start: li   r20, 40\n"
                                          "        li   r21, 0x8000\n"
                                          "1:      add  r22, r22, r20\n"
                                          "        stw  r22, [r21]\n"
                                          "        add  r21, r21, 4\n"
                                          "        loop r20, 1b\n"
                                          "        halt\n";

/* Returns the array, or NULL (out of memory, or the program no longer assembles: then the harness is moot). */
static inline emu_array_t *fuzz_array_create(void)
{
    emu_machine_t m;
    emu_machine_defaults(&m);
    m.width = 2;
    m.height = 1;
    m.mem_bytes = 64 * 1024;
    char err[256];
    emu_array_t *a = NULL;
    if (emu_array_create(&a, &m, err, sizeof err) != 0)
        return NULL;
    asm_options_t o;
    asm_options_init(&o);
    asm_result_t r;
    if (asm_assemble_string("fuzz.s", fuzz_program_source, strlen(fuzz_program_source), &o, &r) != 0) {
        asm_result_free(&r);
        emu_array_free(a);
        return NULL;
    }
    const emu_program_t *p = emu_array_add_program(a, &r.image, err, sizeof err);
    asm_result_free(&r);
    if (p == NULL || emu_array_load(a, 0, 0, p, NULL, 0, err, sizeof err) != 0 ||
        emu_array_load(a, 1, 0, p, NULL, 0, err, sizeof err) != 0) {
        emu_array_free(a);
        return NULL;
    }
    return a;
}

#endif
