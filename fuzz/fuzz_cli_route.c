/* libFuzzer harness: the option parser of `iwarp route` (route_cli_parse) on an argument vector of the input's lines,
 * then on a vector that parses (it must, whatever came before). No set is read or made (-o is compared with FILE by
 * stat). */
#include "fuzz_cli.h"
#include "route_cli.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int parse(int argc, char **argv)
{
    route_cli_t o;
    return route_cli_parse(argc, argv, &o);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *good[] = {"route", "a.cset", NULL};
    return fuzz_cli_run(data, size, "route", parse, good);
}
