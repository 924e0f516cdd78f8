/* libFuzzer harness: the option parser of `iwarp run` (run_cli_parse) on an argument vector of the input's lines,
 * then on a vector that parses (it must, whatever came before). Nothing is loaded or run. */
#include "fuzz_cli.h"
#include "run_cli.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int parse(int argc, char **argv)
{
    run_cli_t o;
    return run_cli_parse(argc, argv, &o);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *good[] = {"run", "p.s", NULL};
    return fuzz_cli_run(data, size, "run", parse, good);
}
