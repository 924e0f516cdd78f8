/* libFuzzer harness: the structural check of ASCII gmsh .msh files that `iwarp fem` runs before gmsh reads one
 * (fem_msh_check). Any text: a refusal must name the file and a line within the text. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fem_msh_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 16)
        return 0;
    char err[512];
    if (fem_msh_check((const char *)data, size, "f.msh", err, sizeof err) != 0) {
        unsigned line = 0;
        if (sscanf(err, "f.msh:%u:", &line) != 1 || line == 0)
            abort();
        size_t lines = 1;
        for (size_t i = 0; i < size; i++)
            lines += data[i] == '\n';
        if (line > lines)
            abort();
    }
    return 0;
}
