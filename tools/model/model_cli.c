/* The command line of `iwarp model`: which model, and the options of conset, msgpass and caching. */
#include "model_cli.h"
#include "cli_opts.h"

#include <string.h>

void model_cli_usage(FILE *out)
{
    fprintf(
        out,
        "usage: iwarp model conset|msgpass|caching [--json] [--quick]\n"
        "       iwarp model copy [options] [EXPR]   (iwarp model copy --help)\n"
        "       iwarp model coll [options]          (iwarp model coll --help)\n"
        "  conset   the ConSet model (the ConSet paper, sections 2 and 4.2.1) for the torus, butterfly and all-to-all "
        "patterns,\n"
        "           with the paper's predicted columns of Tables 1-3 and the deviation\n"
        "  msgpass  the message-passing model (the ConSet paper, 3.1 and 4.3.1: c = 400, a = 2) beside the same model\n"
        "           with c and a fitted to the emulated flood test (runs it: --quick for fewer sizes)\n"
        "  caching  address relation caching (Dinda and O'Hallaron): break-even repetitions and assembly speedup by\n"
        "           n_g for iWarp (static and dynamic loop counts) and the Paragon, beside the paper's Pred-Stat\n");
}

int model_cli_parse(int argc, char **argv, model_cli_t *o)
{
    enum { OPT_JSON = 256, OPT_QUICK, OPT_HELP };
    static const struct option longopts[] = {
        {"json", no_argument, NULL, OPT_JSON},
        {"quick", no_argument, NULL, OPT_QUICK},
        {"help", no_argument, NULL, OPT_HELP},
        {NULL, 0, NULL, 0},
    };
    static const struct {
        const char *name;
        model_cli_model_t model;
    } models[] = {
        {"conset", MODEL_CLI_CONSET},
        {"msgpass", MODEL_CLI_MSGPASS},
        {"caching", MODEL_CLI_CACHING},
    };
    *o = (model_cli_t){MODEL_CLI_CONSET, false, false};
    if (argc >= 2 && strcmp(argv[1], "copy") == 0) {
        o->model = MODEL_CLI_COPY;
        return 0;
    }
    if (argc >= 2 && strcmp(argv[1], "coll") == 0) {
        o->model = MODEL_CLI_COLL;
        return 0;
    }
    cli_opts_t cli;
    cli_opts_start(&cli, "model", argc, argv, "h", longopts);
    int c;
    while ((c = cli_opts_next(&cli)) != -1) {
        switch (c) {
        case OPT_JSON: o->json = true; break;
        case OPT_QUICK: o->quick = true; break;
        case OPT_HELP:
        case 'h': model_cli_usage(stdout); return 1;
        default: model_cli_usage(stderr); return -1;
        }
    }
    if (optind != argc - 1) {
        model_cli_usage(stderr);
        return -1;
    }
    for (size_t i = 0; i < sizeof models / sizeof models[0]; i++)
        if (strcmp(argv[optind], models[i].name) == 0) {
            o->model = models[i].model;
            return 0;
        }
    fprintf(stderr, "iwarp model: no model named '%s'\n", argv[optind]);
    model_cli_usage(stderr);
    return -1;
}
