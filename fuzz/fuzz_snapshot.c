/* libFuzzer harness: snapshot files (`snapshot save` in the console). A file that loads is restored onto the
 * small array it may have been taken from and run on: a damaged snapshot must be refused, never crash the
 * emulator later. fuzz_seeds writes valid snapshots of that array as seeds. */
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>

#include "emu.h"
#include "fuzz_array.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64];
    if (fuzz_temp_file(data, size, path, sizeof path) != 0)
        return 0;
    char err[512];
    emu_snapshot_t *s = emu_snapshot_load(path, err, sizeof err);
    unlink(path);
    if (s == NULL)
        return 0;
    emu_snapshot_bytes(s);
    emu_array_t *a = fuzz_array_create();
    if (a != NULL) {
        if (emu_snapshot_restore(a, s, err, sizeof err) == 0) {
            emu_array_run(a, emu_array_clock(a) + 200);
            emu_array_hash(a, true, true);
        }
        emu_array_free(a);
    }
    emu_snapshot_free(s);
    return 0;
}
