/* libFuzzer harness: the option parser of `iwarp debug` (debug_cli_parse) on an argument vector of the input's lines,
 * then on a vector that parses (it must, whatever came before). No session starts. */
#include "debug_cli.h"
#include "fuzz_cli.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int parse(int argc, char **argv)
{
    debug_cli_t o;
    return debug_cli_parse(argc, argv, &o);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *good[] = {"debug", "p.s", NULL};
    return fuzz_cli_run(data, size, "debug", parse, good);
}
