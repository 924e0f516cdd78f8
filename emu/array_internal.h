/* Internals of the array and its cells, shared by the files of emu/ only. */
#ifndef EMU_ARRAY_INTERNAL_H
#define EMU_ARRAY_INTERNAL_H

#include "emu.h"

enum { EMU_CONSOLE_LINE = 256 };

typedef struct emu_cell {
    unsigned x, y;
    emu_array_t *array;
    uint8_t *mem;
    ca_t ca;
    uint64_t now; /* clock of the step in progress, for control-register reads */
    char console[EMU_CONSOLE_LINE];
    unsigned console_len;
} emu_cell_t;

struct emu_array {
    emu_machine_t machine;
    unsigned ncells;
    emu_cell_t *cells; /* row-major: index y * width + x */
    emu_program_t **programs;
    unsigned nprograms;
    uint64_t clock;
    bool stop_requested;
    emu_output_fn output;
    void *output_user;
};

static inline emu_cell_t *emu_array_cell(emu_array_t *a, unsigned x, unsigned y)
{
    return &a->cells[y * a->machine.width + x];
}

int emu_cell_init(emu_cell_t *c, emu_array_t *a, unsigned x, unsigned y);
void emu_cell_free(emu_cell_t *c);
/* One clock of the cell; returns the next clock at which it can change anything. */
uint64_t emu_cell_step(emu_cell_t *c, uint64_t now);
/* Sends what is left in a cell's console buffer. */
void emu_cell_flush_console(emu_cell_t *c);
void emu_array_finish(emu_array_t *a);

#endif
