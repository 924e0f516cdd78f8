/* libFuzzer harness: the console's expressions (`print`, conditions, `watch`, `assert`; docs/console.md),
 * parsed and evaluated on both cells of the small array of fuzz_array.h, before and after it ran. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "expr.h"
#include "fuzz_array.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    if (text == NULL)
        return 0;
    char err[512];
    expr_t *e = expr_parse(text, err, sizeof err);
    free(text);
    if (e == NULL)
        return 0;
    emu_array_t *a = fuzz_array_create();
    if (a != NULL) {
        for (int pass = 0; pass < 2; pass++) {
            for (unsigned x = 0; x < 2; x++) {
                expr_env_t env = {.a = a, .x = x, .y = 0};
                int64_t v;
                expr_eval(e, &env, &v, err, sizeof err);
            }
            emu_array_run(a, 300);
        }
        emu_array_free(a);
    }
    expr_free(e);
    return 0;
}
