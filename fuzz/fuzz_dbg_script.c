/* libFuzzer harness: debugger scripts (`iwarp debug --script`, `source`), line by line as the console runs
 * them, on the small array of fuzz_array.h with a short clock limit. Commands that touch files (`snapshot`,
 * `source`) are left out: what they read or write is named by the input and would reach the host's files;
 * snapshot files have their own harness. */
#include <ctype.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dbg.h"
#include "fuzz_array.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { MAX_LINES = 48, MAX_CYCLES = 4000 };

/* Whether the line's command is an abbreviation of `snapshot` or `source` (both need two letters). */
static int touches_files(const char *line)
{
    while (isspace((unsigned char)*line))
        line++;
    size_t n = 0;
    while (line[n] != '\0' && !isspace((unsigned char)line[n]))
        n++;
    return n >= 2 && (strncmp(line, "snapshot", n) == 0 || strncmp(line, "source", n) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    FILE *out = fopen("/dev/null", "w");
    emu_array_t *a = text != NULL && out != NULL ? fuzz_array_create() : NULL;
    dbg_t *d = a != NULL ? dbg_create(a, "fuzz.s", MAX_CYCLES, out) : NULL;
    if (d == NULL) {
        if (a != NULL)
            emu_array_free(a);
    } else {
        char *save = NULL;
        unsigned n = 0;
        for (char *line = strtok_r(text, "\n", &save); line != NULL && n < MAX_LINES && !d->quit;
             line = strtok_r(NULL, "\n", &save), n++)
            if (!touches_files(line))
                dbg_execute(d, line);
        dbg_free(d);
    }
    if (out != NULL)
        fclose(out);
    free(text);
    return 0;
}
