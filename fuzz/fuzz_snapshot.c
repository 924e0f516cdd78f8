/* libFuzzer harness: snapshot files (`snapshot save` in the console), loaded by the console's `snapshot load` onto
 * the small array they may have been taken from. A file that loads is looked at and run with the console's
 * commands, each cell in turn: a value the checks let through that the emulator or the tools index with shows
 * there (a state counted into an array by `stats`, a gate named by `info`, a queue pushed to by `continue`).
 * This harness is built with IWARP_SNAPSHOT_NO_CHECKSUM (fuzz/meson.build): the file's checksum is not
 * checked, so mutations reach the checks of every field instead of ending at the sum. fuzz_seeds writes valid
 * snapshots of that array as seeds. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include "dbg.h"
#include "fuzz_array.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* What the console shows of a cell and the array, and a few clocks run on from the snapshot's. */
static const char *const after_load[] = {
    "stats",       "channels", "links",    "spools",    "regs",      "pathway 0",    "info registers",
    "map",         "hash",     "cell 1,0", "stats 1,0", "channels",  "spools",       "info registers",
    "continue 50", "stats",    "channels", "map",       "stats 0,0", "channels 0,0", "continue 2000",
    "stats",       "map",      "hash",
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64];
    if (fuzz_temp_file(data, size, path, sizeof path) != 0)
        return 0;
    FILE *out = fopen("/dev/null", "w");
    emu_array_t *a = out != NULL ? fuzz_array_create() : NULL;
    dbg_t *d = a != NULL ? dbg_create(a, "fuzz.s", 4000, out) : NULL;
    if (d == NULL) {
        if (a != NULL)
            emu_array_free(a);
    } else {
        char line[128];
        snprintf(line, sizeof line, "snapshot load %s", path);
        if (dbg_execute(d, line) == 0)
            for (size_t i = 0; i < sizeof after_load / sizeof after_load[0] && !d->quit; i++)
                dbg_execute(d, after_load[i]);
        dbg_free(d);
    }
    unlink(path);
    if (out != NULL)
        fclose(out);
    return 0;
}
