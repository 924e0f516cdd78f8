/* libFuzzer harness: demo narrative files (programs/demos/NAME.txt, docs/demos.md). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "demo.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    if (text == NULL)
        return 0;
    demo_t d;
    char err[512];
    if (demo_parse(&d, "fuzz", text, err, sizeof err) == 0)
        demo_free(&d);
    free(text);
    return 0;
}
