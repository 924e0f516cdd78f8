/* libFuzzer harness: the option parser of `iwarp traffic` (traffic_cli_parse) on an argument vector of the input's
 * lines, then on a vector that parses (it must, whatever came before). Nothing runs. */
#include "fuzz_cli.h"
#include "traffic_cli.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int parse(int argc, char **argv)
{
    traffic_cli_t o;
    return traffic_cli_parse(argc, argv, &o);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *good[] = {"traffic", NULL};
    return fuzz_cli_run(data, size, "traffic", parse, good);
}
