/* The checks a cell's own saved state (emu_cell_saved_t) read from a file passes before the cell runs on it (a
 * snapshot's restore): the console line and the marks are appended to at their lengths. */
#include "cell.h"
#include "err.h"

int emu_cell_saved_check(const emu_cell_saved_t *s, char *err, size_t errlen)
{
    if (s->console_len >= EMU_CONSOLE_LINE)
        return err_set(err, errlen, "console_len is %u, the line holds %u", s->console_len, EMU_CONSOLE_LINE - 1u);
    if (s->nmarks > EMU_MAX_MARKS_PER_CLOCK)
        return err_set(err, errlen, "nmarks is %u, a clock holds %u", s->nmarks, (unsigned)EMU_MAX_MARKS_PER_CLOCK);
    return 0;
}
