/* libFuzzer harness: the sweep file parser (docs/sweep.md) on arbitrary text. Any crash, leak or undefined
 * behaviour is a bug; so is a file that parses but has a case whose command keeps a placeholder, or whose key
 * does not name every parameter. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sweep/sweep.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { MAX_CASES_CHECKED = 512 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sweep_t s;
    char err[512];
    if (sweep_parse(&s, "fuzz.sweep", (const char *)data, size, err, sizeof err) != 0) {
        if (strncmp(err, "fuzz.sweep:", 11) != 0)
            abort(); /* every error names its place */
        return 0;
    }
    if (s.ncases == 0 || s.ncases > SWEEP_MAX_CASES)
        abort();
    for (unsigned k = 0; k < s.ncases && k < MAX_CASES_CHECKED; k++) {
        char key[SWEEP_MAX_TEXT], cmd[SWEEP_MAX_TEXT];
        sweep_case_key(&s, k, key, sizeof key);
        sweep_case_command(&s, k, cmd, sizeof cmd);
        if (strpbrk(cmd, "{}") != NULL)
            abort();
        for (unsigned i = 0; i < s.nparams; i++)
            if (strstr(key, s.params[i].name) == NULL)
                abort();
        char *words[SWEEP_MAX_ARGS];
        if (sweep_split(cmd, words, SWEEP_MAX_ARGS) == 0)
            abort();
    }
    sweep_free(&s);
    return 0;
}
