/* libFuzzer harness: the option parser of `iwarp asm` (asm_cli_parse) on an argument vector of the input's lines,
 * then on a vector that parses (it must, whatever came before). Nothing is read or assembled. */
#include "asm_cli.h"
#include "fuzz_cli.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int parse(int argc, char **argv)
{
    asm_cli_t o;
    int rc = asm_cli_parse(argc, argv, &o);
    if (rc == 0)
        asm_cli_free(&o);
    return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *good[] = {"asm", "a.s", NULL};
    return fuzz_cli_run(data, size, "asm", parse, good);
}
