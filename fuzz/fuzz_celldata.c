/* libFuzzer harness: cell data files (.cdat, docs/run.md), which the communication compiler writes and run
 * descriptions load. A file that reads must load into an array of its size or be refused with a message. */
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>

#include "celldata.h"
#include "emu.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64];
    if (fuzz_temp_file(data, size, path, sizeof path) != 0)
        return 0;
    celldata_t d;
    char err[512];
    int rc = celldata_read(&d, path, err, sizeof err);
    unlink(path);
    if (rc != 0)
        return 0;
    /* Loading walks every blob against a cell's memory: only arrays small enough to create quickly. */
    if (d.width * d.height <= 16) {
        emu_machine_t m;
        emu_machine_defaults(&m);
        m.width = d.width;
        m.height = d.height;
        m.mem_bytes = 64 * 1024;
        emu_array_t *a = NULL;
        if (emu_array_create(&a, &m, err, sizeof err) == 0) {
            celldata_load(&d, a, 0x4000, err, sizeof err);
            emu_array_free(a);
        }
    }
    celldata_free(&d);
    return 0;
}
