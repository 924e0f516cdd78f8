/* libFuzzer harness: run descriptions (docs/run.md), the parser `iwarp run`, `debug` and `view` share. Every
 * input must parse or give `file:line:col` messages; nothing is built (that would assemble the programs the
 * input names, a different parser with its own harness). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "emu.h"
#include "iwarp_config.h"
#include "run_desc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *errors = fopen("/dev/null", "w");
    if (errors == NULL)
        return 0;
    emu_machine_t base;
    emu_machine_defaults(&base);
    run_desc_t d;
    /* Named inside the source tree, so relative program paths resolve as in a shipped description. */
    if (run_desc_parse_string(IWARP_SOURCE_ROOT "/programs/fuzz.run", (const char *)data, size, &base, &d, errors) == 0)
        run_desc_free(&d);
    fclose(errors);
    return 0;
}
