/* libFuzzer harness: machine description files (docs/machine.md) over the defaults. Whatever loads must be a
 * machine the emulator accepts or refuses with a message: a 1x1 array is created from it when it is small. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "emu.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64];
    if (fuzz_temp_file(data, size, path, sizeof path) != 0)
        return 0;
    emu_machine_t m;
    emu_machine_defaults(&m);
    char err[512];
    int rc = emu_machine_load(&m, path, err, sizeof err);
    unlink(path);
    if (rc != 0)
        return 0;
    FILE *devnull = fopen("/dev/null", "w");
    if (devnull != NULL) {
        emu_machine_print(&m, devnull);
        fclose(devnull);
    }
    /* Creating the array allocates every cell's memory: only for small ones, so the fuzzer stays fast. */
    m.width = m.height = 1;
    if (m.mem_bytes <= (1u << 20) && m.agent.channels <= 64 && m.agent.queue_depth <= 64) {
        emu_array_t *a = NULL;
        if (emu_array_create(&a, &m, err, sizeof err) == 0)
            emu_array_free(a);
    }
    return 0;
}
