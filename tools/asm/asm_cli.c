/* The command line of `iwarp asm` (asm_cli.h). */
#include "asm_cli.h"

#include <errno.h>
#include <stdlib.h>

#include "asm.h"
#include "cli_opts.h"

void asm_cli_usage(FILE *out)
{
    fprintf(out,
            "usage: iwarp asm [-o out.img] [-I dir]... [-D NAME[=value]]... [--text-base ADDR] file.s...\n"
            "\n"
            "Assembles the files as if they were one (labels are shared) into an image.\n"
            "  -o FILE            output image (default: the first file with .img in place of .s)\n"
            "  -I DIR             search DIR for .include files, after the including file's directory (then\n"
            "                     runtime/ and the source root, as iwarp run does)\n"
            "  -D NAME[=value]    define NAME like .equ (value defaults to 1)\n"
            "  --text-base ADDR   address of .text (default 0x%x)\n"
            "Diagnostics go to stderr as file:line:col: error: message. Exit status: 0 ok, 1 errors, 2 usage.\n",
            ASM_DEFAULT_TEXT_BASE);
}

static int parse_args(int argc, char **argv, asm_cli_t *a)
{
    enum { OPT_TEXT_BASE = 256, OPT_HELP };
    static const struct option longopts[] = {
        {"text-base", required_argument, NULL, OPT_TEXT_BASE},
        {"help", no_argument, NULL, OPT_HELP},
        {NULL, 0, NULL, 0},
    };
    cli_opts_t cli;
    cli_opts_start(&cli, "asm", argc, argv, "o:I:D:h", longopts);
    int c;
    while ((c = cli_opts_next(&cli)) != -1) {
        switch (c) {
        case 'o': a->output = optarg; break;
        case 'I': a->includes[a->nincludes++] = optarg; break;
        case 'D': a->defines[a->ndefines++] = optarg; break;
        case OPT_TEXT_BASE: {
            /* strtoul alone would read '' as 0 and skip a leading space or sign */
            char *end;
            errno = 0;
            unsigned long base = strtoul(optarg, &end, 0);
            if (*optarg < '0' || *optarg > '9' || *end != '\0' || errno != 0 || base > 0xfffffffcul || base % 4 != 0) {
                fprintf(stderr,
                        "iwarp asm: --text-base needs a word-aligned 32-bit address (a multiple of 4, 0..0xfffffffc), "
                        "not '%s'\n",
                        optarg);
                return -1;
            }
            a->text_base = (uint32_t)base;
            break;
        }
        case OPT_HELP:
        case 'h': asm_cli_usage(stdout); return 1;
        case ':': return -1; /* "-o needs a value" is enough */
        default: asm_cli_usage(stderr); return -1;
        }
    }
    /* The files, in their order, wherever they stood among the options. */
    for (int i = optind; i < argc; i++)
        a->files[a->nfiles++] = argv[i];
    if (a->nfiles == 0) {
        fprintf(stderr, "iwarp asm: no input files\n");
        asm_cli_usage(stderr);
        return -1;
    }
    return 0;
}

void asm_cli_free(asm_cli_t *a)
{
    free(a->includes);
    free(a->defines);
    free(a->files);
    a->includes = a->defines = a->files = NULL;
}

int asm_cli_parse(int argc, char **argv, asm_cli_t *a)
{
    /* Each option takes at least one argument, so lists as long as argv hold any line. */
    size_t n = argc > 0 ? (size_t)argc : 1;
    *a = (asm_cli_t){.text_base = ASM_DEFAULT_TEXT_BASE};
    a->includes = calloc(n + ASM_CLI_MORE_INCLUDES, sizeof *a->includes);
    a->defines = calloc(n, sizeof *a->defines);
    a->files = calloc(n, sizeof *a->files);
    int rc = -1;
    if (a->includes == NULL || a->defines == NULL || a->files == NULL)
        fprintf(stderr, "iwarp asm: out of memory\n");
    else
        rc = parse_args(argc, argv, a);
    if (rc != 0)
        asm_cli_free(a);
    return rc;
}
