/* iwarp dis: disassemble an image into a listing that reassembles to the same image. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "dis.h"

static void dis_usage(FILE *out)
{
    fprintf(out, "usage: iwarp dis [--no-symbols] [--raw] [--lines] image.img\n"
                 "\n"
                 "Writes an assembly listing of the image to stdout; `iwarp asm` turns it back into the same image.\n"
                 "  --no-symbols   no labels; addresses in hex\n"
                 "  --raw          comments with each line's address and words\n"
                 "  --lines        comments with the source file:line of each bundle\n");
}

int cmd_dis(int argc, char **argv)
{
    unsigned flags = 0;
    const char *path = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            dis_usage(stdout);
            return 0;
        } else if (strcmp(argv[i], "--no-symbols") == 0) {
            flags |= DIS_NO_SYMBOLS;
        } else if (strcmp(argv[i], "--raw") == 0) {
            flags |= DIS_RAW;
        } else if (strcmp(argv[i], "--lines") == 0) {
            flags |= DIS_LINES;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            fprintf(stderr, "iwarp dis: unknown option '%s'\n", argv[i]);
            dis_usage(stderr);
            return 2;
        } else if (path != NULL) {
            fprintf(stderr, "iwarp dis: one image at a time\n");
            return 2;
        } else {
            path = argv[i];
        }
    }
    if (path == NULL) {
        dis_usage(stderr);
        return 2;
    }
    isa_image_t img;
    char err[512];
    if (isa_image_load_file(path, &img, err, sizeof err) != 0) {
        fprintf(stderr, "iwarp dis: %s\n", err);
        return 1;
    }
    int rc = dis_image(&img, stdout, flags);
    isa_image_free(&img);
    if (rc != 0 || fflush(stdout) != 0) {
        fprintf(stderr, "iwarp dis: error writing the listing\n");
        return 1;
    }
    return 0;
}
