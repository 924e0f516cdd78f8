/* iwarp dis: disassemble an image into a listing that reassembles to the same image. */
#include <stdio.h>

#include "commands.h"
#include "dis.h"
#include "dis_cli.h"

int cmd_dis(int argc, char **argv)
{
    dis_cli_t o;
    int parsed = dis_cli_parse(argc, argv, &o);
    if (parsed != 0)
        return parsed > 0 ? 0 : 2;
    isa_image_t img;
    char err[512];
    if (isa_image_load_file(o.path, &img, err, sizeof err) != 0) {
        fprintf(stderr, "iwarp dis: %s\n", err);
        return 1;
    }
    int rc = dis_image(&img, stdout, o.flags);
    isa_image_free(&img);
    if (rc != 0 || fflush(stdout) != 0) {
        fprintf(stderr, "iwarp dis: error writing the listing\n");
        return 1;
    }
    return 0;
}
