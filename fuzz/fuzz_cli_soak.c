/* libFuzzer harness: the option parser of `iwarp soak` (soak_cli_parse) on an argument vector of the input's lines,
 * then on a vector that parses (it must, whatever came before). Nothing runs. */
#include "fuzz_cli.h"
#include "soak_cli.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int parse(int argc, char **argv)
{
    soak_cli_t o;
    return soak_cli_parse(argc, argv, &o);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *good[] = {"soak", NULL};
    return fuzz_cli_run(data, size, "soak", parse, good);
}
