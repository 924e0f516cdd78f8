/* The command line of `iwarp dis`, by hand (dis_cli.h). */
#include "dis_cli.h"

#include <string.h>

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
    *o = (dis_cli_t){0, NULL};
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            dis_cli_usage(stdout);
            return 1;
        } else if (strcmp(argv[i], "--no-symbols") == 0) {
            o->flags |= DIS_NO_SYMBOLS;
        } else if (strcmp(argv[i], "--raw") == 0) {
            o->flags |= DIS_RAW;
        } else if (strcmp(argv[i], "--lines") == 0) {
            o->flags |= DIS_LINES;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            fprintf(stderr, "iwarp dis: unknown option '%s'\n", argv[i]);
            dis_cli_usage(stderr);
            return -1;
        } else if (o->path != NULL) {
            fprintf(stderr, "iwarp dis: one image at a time\n");
            return -1;
        } else {
            o->path = argv[i];
        }
    }
    if (o->path == NULL) {
        dis_cli_usage(stderr);
        return -1;
    }
    return 0;
}
