/* libFuzzer harness: the option parser of `iwarp sweep` (sweep_cli_parse) on an argument vector of the input's
 * lines, then on a vector that parses (it must, whatever came before). Nothing runs. */
#include "fuzz_cli.h"
#include "sweep_cli.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int parse(int argc, char **argv)
{
    sweep_cli_t o;
    return sweep_cli_parse(argc, argv, &o);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *good[] = {"sweep", "a.sweep", NULL};
    return fuzz_cli_run(data, size, "sweep", parse, good);
}
