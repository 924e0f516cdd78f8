/* libFuzzer harness: the option parser of `iwarp model` (model_cli_parse) on an argument vector of the input's lines,
 * then on a vector that parses (it must, whatever came before). No model is computed; `copy` and `coll` are handed on
 * unparsed. */
#include "fuzz_cli.h"
#include "model_cli.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int parse(int argc, char **argv)
{
    model_cli_t o;
    return model_cli_parse(argc, argv, &o);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *good[] = {"model", "conset", NULL};
    return fuzz_cli_run(data, size, "model", parse, good);
}
