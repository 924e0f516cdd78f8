/* libFuzzer harness: the option parser of `iwarp dis` (dis_cli_parse) on an argument vector of the input's lines,
 * then on a vector that parses (it must, whatever came before). No image is read. */
#include "dis_cli.h"
#include "fuzz_cli.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int parse(int argc, char **argv)
{
    dis_cli_t o;
    return dis_cli_parse(argc, argv, &o);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *good[] = {"dis", "a.img", NULL};
    return fuzz_cli_run(data, size, "dis", parse, good);
}
