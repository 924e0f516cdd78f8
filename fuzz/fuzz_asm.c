/* libFuzzer harness: the assembler on arbitrary source text. Any crash, leak or undefined behaviour is a
 * bug; errors in the text are expected and just reported into the result. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "asm.h"
#include "dis.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    asm_options_t o;
    asm_options_init(&o);
    o.max_lines = 2000; /* keep runaway .rept and macro recursion fast */
    asm_result_t r;
    if (asm_assemble_string("fuzz.s", (const char *)data, size, &o, &r) == 0) {
        /* A successful image must also list without trouble. */
        FILE *devnull = fopen("/dev/null", "w");
        if (devnull != NULL) {
            dis_image(&r.image, devnull, DIS_RAW | DIS_LINES);
            fclose(devnull);
        }
    }
    for (size_t i = 0; i < r.ndiags; i++) {
        char buf[256];
        asm_format_diag(&r.diags[i], buf, sizeof buf);
    }
    asm_result_free(&r);
    return 0;
}
