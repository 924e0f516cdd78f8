/* The command line of `iwarp asm`, by hand (asm_cli.h). */
#include "asm_cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "asm.h"

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

/* Value of an option given as "-X value" or "-Xvalue"; NULL (after a message) when missing. */
static const char *option_value(int argc, char **argv, int *i, const char *opt)
{
    size_t n = strlen(opt);
    if (argv[*i][n] != '\0')
        return argv[*i] + n;
    if (*i + 1 >= argc) {
        fprintf(stderr, "iwarp asm: %s needs a value\n", opt);
        return NULL;
    }
    return argv[++*i];
}

static int parse_args(int argc, char **argv, asm_cli_t *a)
{
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *v;
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            asm_cli_usage(stdout);
            return 1;
        } else if (strncmp(arg, "-o", 2) == 0) {
            if ((v = option_value(argc, argv, &i, "-o")) == NULL)
                return -1;
            a->output = v;
        } else if (strncmp(arg, "-I", 2) == 0) {
            if ((v = option_value(argc, argv, &i, "-I")) == NULL)
                return -1;
            a->includes[a->nincludes++] = v;
        } else if (strncmp(arg, "-D", 2) == 0) {
            if ((v = option_value(argc, argv, &i, "-D")) == NULL)
                return -1;
            a->defines[a->ndefines++] = v;
        } else if (strcmp(arg, "--text-base") == 0) {
            if ((v = option_value(argc, argv, &i, "--text-base")) == NULL)
                return -1;
            /* strtoul alone would read '' as 0 and skip a leading space or sign */
            char *end;
            errno = 0;
            unsigned long base = strtoul(v, &end, 0);
            if (*v < '0' || *v > '9' || *end != '\0' || errno != 0 || base > 0xfffffffcul || base % 4 != 0) {
                fprintf(stderr,
                        "iwarp asm: --text-base needs a word-aligned 32-bit address (a multiple of 4, 0..0xfffffffc), "
                        "not '%s'\n",
                        v);
                return -1;
            }
            a->text_base = (uint32_t)base;
        } else if (arg[0] == '-' && arg[1] != '\0') {
            fprintf(stderr, "iwarp asm: unknown option '%s'\n", arg);
            asm_cli_usage(stderr);
            return -1;
        } else {
            a->files[a->nfiles++] = arg;
        }
    }
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
