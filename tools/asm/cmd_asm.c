/* iwarp asm: assemble source files into an image. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm.h"
#include "asm_cli.h"
#include "commands.h"
#include "file.h"
#include "program_load.h"

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
    asm_cli_t a;
    int parsed = asm_cli_parse(argc, argv, &a);
    if (parsed != 0)
        return parsed > 0 ? 0 : 2;
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
    int rc = 1;
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
    asm_cli_free(&a);
    return rc;
}
