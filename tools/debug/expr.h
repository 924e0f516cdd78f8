/*
 * Expressions of the console (`print`, `until`, `watch`, conditions, `assert`): C-like integer arithmetic over
 * one cell's registers, memory and symbols, and the array's clock (docs/console.md, "Expressions").
 *
 * Values are 64-bit signed. 32-bit quantities (registers, memory words, symbol values, hex literals of up to
 * 8 digits) are sign-extended, so `r5 == -1` and `r5 == 0xffffffff` agree. Symbols are looked up when the
 * expression is evaluated, in the program of the cell it is evaluated on: one expression serves every cell,
 * whatever program it runs.
 */
#ifndef TOOLS_DEBUG_EXPR_H
#define TOOLS_DEBUG_EXPR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "emu.h"

typedef struct expr expr_t;

/* A caller's frame, as the console's `up`/`frame N` select it: its pc and the registers the unwinder recovered. */
typedef struct expr_frame {
    uint32_t pc;
    uint32_t regs[ISA_NUM_REGS];
    bool known[ISA_NUM_REGS]; /* false: the frame's value is lost (an ra the call overwrote) */
    unsigned level;
} expr_frame_t;

/* Where an expression is evaluated: the cell that unqualified names refer to, and optionally one of its caller
 * frames (NULL: the innermost, the live registers). */
typedef struct expr_env {
    const emu_array_t *a;
    unsigned x, y;
    const expr_frame_t *frame;
} expr_env_t;

/* Parses text; returns NULL with a one-line message in err. */
expr_t *expr_parse(const char *text, char *err, size_t errlen);
/* Returns 0, or -1 with a message (unknown symbol, memory out of range, division by zero). The expression
 * caches symbol lookups, hence not const. */
int expr_eval(expr_t *e, const expr_env_t *env, int64_t *value, char *err, size_t errlen);
void expr_free(expr_t *e);

/* Names an expression may use besides registers and symbols (pseudo-variables and functions), NULL-ended. */
extern const char *const expr_names[];

#endif
