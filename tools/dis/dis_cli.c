/* The command line of `iwarp dis` (dis_cli.h). */
#include "dis_cli.h"

#include "cli_opts.h"
#include "dis.h"

void dis_cli_usage(FILE *out)
{
    fprintf(out, "usage: iwarp dis [--no-symbols] [--raw] [--lines] image.img\n"
                 "\n"
                 "Writes an assembly listing of the image to stdout; `iwarp asm` turns it back into the same image.\n"
                 "  --no-symbols   no labels; addresses in hex\n"
                 "  --raw          comments with each line's address and words\n"
                 "  --lines        comments with the source file:line of each bundle\n");
}

int dis_cli_parse(int argc, char **argv, dis_cli_t *o)
{
    enum { OPT_NO_SYMBOLS = 256, OPT_RAW, OPT_LINES, OPT_HELP };
    static const struct option longopts[] = {
        {"no-symbols", no_argument, NULL, OPT_NO_SYMBOLS},
        {"raw", no_argument, NULL, OPT_RAW},
        {"lines", no_argument, NULL, OPT_LINES},
        {"help", no_argument, NULL, OPT_HELP},
        {NULL, 0, NULL, 0},
    };
    *o = (dis_cli_t){0, NULL};
    cli_opts_t cli;
    cli_opts_start(&cli, "dis", argc, argv, "h", longopts);
    int c;
    while ((c = cli_opts_next(&cli)) != -1) {
        switch (c) {
        case OPT_NO_SYMBOLS: o->flags |= DIS_NO_SYMBOLS; break;
        case OPT_RAW: o->flags |= DIS_RAW; break;
        case OPT_LINES: o->flags |= DIS_LINES; break;
        case OPT_HELP:
        case 'h': dis_cli_usage(stdout); return 1;
        default: dis_cli_usage(stderr); return -1;
        }
    }
    if (argc - optind > 1) {
        fprintf(stderr, "iwarp dis: one image at a time\n");
        return -1;
    }
    if (optind >= argc) {
        dis_cli_usage(stderr);
        return -1;
    }
    o->path = argv[optind];
    return 0;
}
