/* A cell: memory, computation agent and the port that joins it to the rest of the cell. */
#include "array_internal.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static void console_put(emu_cell_t *c, const char *text)
{
    for (; *text; text++) {
        if (*text == '\n' || c->console_len + 1 >= EMU_CONSOLE_LINE) {
            emu_cell_flush_console(c);
            if (*text == '\n')
                continue;
        }
        c->console[c->console_len++] = *text;
    }
}

void emu_cell_flush_console(emu_cell_t *c)
{
    if (c->console_len == 0)
        return;
    c->console[c->console_len] = '\0';
    if (c->array->output != NULL)
        c->array->output(c->array->output_user, c->x, c->y, c->console);
    c->console_len = 0;
}

static int cell_cr_read(void *ctx, uint32_t index, uint32_t *value)
{
    emu_cell_t *c = ctx;
    const emu_machine_t *m = &c->array->machine;
    switch (index) {
    case EMU_CR_CELL_X: *value = c->x; return 0;
    case EMU_CR_CELL_Y: *value = c->y; return 0;
    case EMU_CR_ARRAY_W: *value = m->width; return 0;
    case EMU_CR_ARRAY_H: *value = m->height; return 0;
    case EMU_CR_CLOCK_LO: *value = (uint32_t)c->now; return 0;
    case EMU_CR_CLOCK_HI: *value = (uint32_t)(c->now >> 32); return 0;
    case EMU_CR_MEM_BYTES: *value = m->mem_bytes; return 0;
    case EMU_CR_CELL_ID: *value = c->y * m->width + c->x; return 0;
    default: return -1;
    }
}

static int cell_cr_write(void *ctx, uint32_t index, uint32_t value)
{
    emu_cell_t *c = ctx;
    char buf[16];
    switch (index) {
    case EMU_CR_DEBUG_PUTC:
        buf[0] = (char)value;
        buf[1] = '\0';
        console_put(c, buf);
        return 0;
    case EMU_CR_DEBUG_PUTI:
        snprintf(buf, sizeof buf, "%" PRId32, (int32_t)value);
        console_put(c, buf);
        return 0;
    case EMU_CR_DEBUG_PUTX:
        snprintf(buf, sizeof buf, "0x%" PRIx32, value);
        console_put(c, buf);
        return 0;
    default: return -1;
    }
}

static ca_gate_status_t cell_gate_status(void *ctx, unsigned gate) { return CA_GATE_UNBOUND; }
static uint32_t cell_gate_pop(void *ctx, unsigned gate) { return 0; }
static void cell_gate_push(void *ctx, unsigned gate, uint32_t word) {}

static const ca_port_ops_t cell_port_ops = {
    .gate_in_status = cell_gate_status,
    .gate_in_pop = cell_gate_pop,
    .gate_out_status = cell_gate_status,
    .gate_out_push = cell_gate_push,
    .cr_read = cell_cr_read,
    .cr_write = cell_cr_write,
};

int emu_cell_init(emu_cell_t *c, emu_array_t *a, unsigned x, unsigned y)
{
    memset(c, 0, sizeof *c);
    c->x = x;
    c->y = y;
    c->array = a;
    c->mem = calloc(1, a->machine.mem_bytes);
    if (c->mem == NULL)
        return -1;
    ca_init(&c->ca, c->mem, a->machine.mem_bytes, a->machine.mem_guard, (ca_port_t){&cell_port_ops, c});
    return 0;
}

void emu_cell_free(emu_cell_t *c)
{
    free(c->mem);
    c->mem = NULL;
}

uint64_t emu_cell_step(emu_cell_t *c, uint64_t now)
{
    c->now = now;
    return ca_step(&c->ca, now);
}
