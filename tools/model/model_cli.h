/* The command line of `iwarp model` (docs/model.md), parsed apart from the models so a harness (fuzz/) and the
 * tests can take it alone: nothing is computed or measured. `model copy` and `model coll` take their own options:
 * the parse only says which, and the command hands them argv from the model's name on. */
#ifndef TOOLS_MODEL_MODEL_CLI_H
#define TOOLS_MODEL_MODEL_CLI_H

#include <stdbool.h>
#include <stdio.h>

typedef enum model_cli_model {
    MODEL_CLI_CONSET,
    MODEL_CLI_MSGPASS,
    MODEL_CLI_CACHING,
    MODEL_CLI_COPY, /* tools/copy/cmd_model_copy.c parses the rest */
    MODEL_CLI_COLL, /* tools/coll/cmd_model_coll.c parses the rest */
} model_cli_model_t;

typedef struct model_cli {
    model_cli_model_t model;
    bool json, quick;
} model_cli_t;

void model_cli_usage(FILE *out);
/* Parses argv (argv[0] is the command's name). Returns 0, 1 after --help (the usage is on stdout), or -1 after
 * saying on stderr what is wrong. */
int model_cli_parse(int argc, char **argv, model_cli_t *o);

#endif
