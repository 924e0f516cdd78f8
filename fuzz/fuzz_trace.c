/* libFuzzer harness: recordings (.iwt, docs/trace.md) as `iwarp view` replays them: open, scan, and rebuild the
 * model at the first and last clocks, at every keyframe and in between. A damaged recording must be refused or
 * played to its last whole record, never crash the viewer. fuzz_seeds writes valid recordings as seeds. */
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>

#include "fuzz_util.h"
#include "trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64];
    if (fuzz_temp_file(data, size, path, sizeof path) != 0)
        return 0;
    view_trace_t t;
    char err[512];
    int rc = view_trace_open_file(&t, path, err, sizeof err);
    unlink(path);
    if (rc != 0)
        return 0;
    view_cursor_t c;
    if (view_cursor_init(&c, &t) == 0) {
        view_cursor_seek(&c, &t, t.last_clock);
        view_cursor_seek(&c, &t, t.first_clock);
        for (size_t k = 0; k < t.nkeys && k < 64; k++)
            if (view_cursor_seek(&c, &t, t.keys[k].clock + 1) != 0)
                break;
        view_cursor_seek(&c, &t, t.first_clock + (t.last_clock - t.first_clock) / 2);
        view_trace_phase(&t, t.last_clock);
        view_cursor_free(&c);
    }
    for (unsigned cell = 0; cell < 4; cell++) {
        const char *file;
        unsigned line;
        const char *text;
        size_t text_len;
        view_static_line(&t.st, cell, 0x1000, &file, &line, &text, &text_len);
    }
    view_trace_close(&t);
    return 0;
}
