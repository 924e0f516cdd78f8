/* iwarp asm: assemble source files into an image. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm.h"
#include "commands.h"
#include "file.h"
#include "program_load.h"

static void asm_usage(FILE *out)
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

static char *default_output(const char *src)
{
    size_t n = strlen(src);
    const char *slash = strrchr(src, '/');
    const char *dot = strrchr(src, '.');
    if (dot != NULL && (slash == NULL || dot > slash))
        n = (size_t)(dot - src);
    char *out = malloc(n + 5);
    if (out != NULL) {
        memcpy(out, src, n);
        memcpy(out + n, ".img", 5);
    }
    return out;
}

typedef struct asm_args {
    const char *output;
    const char **includes, **defines, **files;
    size_t nincludes, ndefines, nfiles;
    uint32_t text_base;
} asm_args_t;

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

static int parse_args(int argc, char **argv, asm_args_t *a)
{
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *v;
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            asm_usage(stdout);
            return 0;
        } else if (strncmp(arg, "-o", 2) == 0) {
            if ((v = option_value(argc, argv, &i, "-o")) == NULL)
                return 2;
            a->output = v;
        } else if (strncmp(arg, "-I", 2) == 0) {
            if ((v = option_value(argc, argv, &i, "-I")) == NULL)
                return 2;
            a->includes[a->nincludes++] = v;
        } else if (strncmp(arg, "-D", 2) == 0) {
            if ((v = option_value(argc, argv, &i, "-D")) == NULL)
                return 2;
            a->defines[a->ndefines++] = v;
        } else if (strcmp(arg, "--text-base") == 0) {
            if ((v = option_value(argc, argv, &i, "--text-base")) == NULL)
                return 2;
            char *end;
            errno = 0;
            unsigned long base = strtoul(v, &end, 0);
            if (*end != '\0' || errno != 0 || base > 0xfffffffcul || base % 4 != 0) {
                fprintf(stderr, "iwarp asm: --text-base needs a word-aligned 32-bit address (a multiple of 4, 0..0xfffffffc), not '%s'\n", v);
                return 2;
            }
            a->text_base = (uint32_t)base;
        } else if (arg[0] == '-' && arg[1] != '\0') {
            fprintf(stderr, "iwarp asm: unknown option '%s'\n", arg);
            asm_usage(stderr);
            return 2;
        } else {
            a->files[a->nfiles++] = arg;
        }
    }
    if (a->nfiles == 0) {
        fprintf(stderr, "iwarp asm: no input files\n");
        asm_usage(stderr);
        return 2;
    }
    return -1;
}

static int write_image(const asm_result_t *r, const char *path)
{
    file_out_t out;
    char err[512];
    if (file_out_open(&out, path, "wb", err, sizeof err) != 0) {
        fprintf(stderr, "iwarp asm: cannot write %s\n", err);
        return 1;
    }
    if (isa_image_write(&r->image, out.f) != 0) {
        file_out_abort(&out);
        fprintf(stderr, "iwarp asm: error writing %s\n", path);
        return 1;
    }
    if (file_out_commit(&out, err, sizeof err) != 0) {
        fprintf(stderr, "iwarp asm: cannot write %s\n", err);
        return 1;
    }
    return 0;
}

int cmd_asm(int argc, char **argv)
{
    size_t n = argc > 0 ? (size_t)argc : 1;
    asm_args_t a = {.text_base = ASM_DEFAULT_TEXT_BASE};
    a.includes = calloc(n + 2, sizeof *a.includes); /* and the two folders iwarp run searches too */
    a.defines = calloc(n, sizeof *a.defines);
    a.files = calloc(n, sizeof *a.files);
    int rc = 1;
    if (a.includes == NULL || a.defines == NULL || a.files == NULL) {
        fprintf(stderr, "iwarp asm: out of memory\n");
        goto out;
    }
    rc = parse_args(argc, argv, &a);
    if (rc >= 0)
        goto out;
    /* After -I, as iwarp run does: the runtimes (coa.inc, msg.s, conset.s ...) and the source root. */
    char runtime_dir[1024], root_dir[1024];
    a.includes[a.nincludes++] = iwarp_path(runtime_dir, sizeof runtime_dir, "runtime");
    snprintf(root_dir, sizeof root_dir, "%s", iwarp_root());
    a.includes[a.nincludes++] = root_dir;
    asm_options_t opt;
    asm_options_init(&opt);
    opt.include_dirs = a.includes;
    opt.ninclude_dirs = a.nincludes;
    opt.defines = a.defines;
    opt.ndefines = a.ndefines;
    opt.text_base = a.text_base;
    asm_result_t res;
    int failed = asm_assemble_files(a.files, a.nfiles, &opt, &res);
    asm_print_diags(&res, stderr);
    rc = 1;
    if (!failed) {
        char *def = a.output ? NULL : default_output(a.files[0]);
        const char *path = a.output ? a.output : def;
        char err[1024];
        if (path != NULL && (file_out_not_input(path, a.files, a.nfiles, err, sizeof err) != 0 ||
                             file_out_not_input(path, (const char *const *)res.image.files, res.image.nfiles, err,
                                                sizeof err) != 0)) {
            fprintf(stderr, "iwarp asm: %s\n", err);
            rc = 2;
        } else {
            rc = path != NULL ? write_image(&res, path) : 1;
        }
        free(def);
    }
    asm_result_free(&res);
out:
    free(a.includes);
    free(a.defines);
    free(a.files);
    return rc;
}
