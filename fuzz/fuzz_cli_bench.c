/* libFuzzer harness: the option parser of `iwarp bench` (bench_cli_parse) on an argument vector of the input's
 * lines, then on a vector that parses (it must, whatever came before). Nothing runs. */
#include "fuzz_cli.h"
#include "bench_cli.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int parse(int argc, char **argv)
{
    bench_cli_t o;
    return bench_cli_parse(argc, argv, &o);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *good[] = {"bench", NULL};
    return fuzz_cli_run(data, size, "bench", parse, good);
}
