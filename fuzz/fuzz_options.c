/* libFuzzer harness: the command-line option parsers: --args lists, --array sizes, counts (--max-cycles and
 * the like), --set KEY=VALUE against the machine, and the whole option parser of `iwarp view` / `iwarp demo`
 * (view_cli_parse) on an argument vector made of the input's lines. The first byte picks the parser. */
#include <getopt.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "emu.h"
#include "fuzz_util.h"
#include "run_desc.h"
#include "view_cli.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { MAX_ARGV = 24 };

static void machine_set(char *text)
{
    emu_machine_t m;
    emu_machine_defaults(&m);
    char *eq = strchr(text, '=');
    if (eq == NULL)
        return;
    *eq = '\0';
    char err[256];
    emu_machine_set(&m, text, eq + 1, err, sizeof err);
}

static void view_options(char *text)
{
    char *argv[MAX_ARGV + 1];
    int argc = 0;
    argv[argc++] = "view";
    char *save = NULL;
    for (char *w = strtok_r(text, "\n", &save); w != NULL && argc < MAX_ARGV; w = strtok_r(NULL, "\n", &save))
        argv[argc++] = w;
    argv[argc] = NULL;
    view_cli_t c;
    if (view_cli_parse(&c, argc, argv, "view", false) >= 0)
        view_cli_free(&c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    char *text = fuzz_text(data + 1, size - 1);
    if (text == NULL)
        return 0;
    uint32_t args[RUN_DESC_MAX_ARGS];
    unsigned nargs, w, h;
    uint64_t v;
    switch (data[0] % 5) {
    case 0: run_parse_args(text, args, &nargs); break;
    case 1: emu_parse_array_size(text, &w, &h); break;
    case 2: emu_parse_count(text, &v); break;
    case 3: machine_set(text); break;
    default: view_options(text); break;
    }
    free(text);
    return 0;
}
