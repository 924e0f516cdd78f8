#include "program_load.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm.h"
#include "iwarp_config.h"

const char *iwarp_root(void)
{
    const char *env = getenv("IWARP_ROOT");
    return env != NULL && *env ? env : IWARP_SOURCE_ROOT;
}

char *iwarp_path(char *buf, size_t cap, const char *rel)
{
    snprintf(buf, cap, "%s/%s", iwarp_root(), rel);
    return buf;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

int program_load(const char *path, const program_source_t *src, isa_image_t *out)
{
    char err[512];
    if (ends_with(path, ".img")) {
        if (isa_image_load_file(path, out, err, sizeof err) != 0) {
            fprintf(stderr, "%s\n", err);
            return -1;
        }
        return 0;
    }
    enum { BUILTIN_DIRS = 2 };
    size_t ndirs = (src ? src->ninclude_dirs : 0) + BUILTIN_DIRS;
    const char **dirs = calloc(ndirs, sizeof *dirs);
    char runtime_dir[1024], root_dir[1024];
    if (dirs == NULL) {
        fprintf(stderr, "out of memory\n");
        return -1;
    }
    size_t n = 0;
    for (size_t i = 0; src && i < src->ninclude_dirs; i++)
        dirs[n++] = src->include_dirs[i];
    dirs[n++] = iwarp_path(runtime_dir, sizeof runtime_dir, "runtime");
    snprintf(root_dir, sizeof root_dir, "%s", iwarp_root());
    dirs[n++] = root_dir;

    asm_options_t o;
    asm_options_init(&o);
    o.include_dirs = dirs;
    o.ninclude_dirs = n;
    if (src != NULL) {
        o.defines = src->defines;
        o.ndefines = src->ndefines;
        if (src->text_base != 0)
            o.text_base = src->text_base;
    }
    asm_result_t r;
    const char *paths[1] = {path};
    int rc = asm_assemble_files(paths, 1, &o, &r);
    asm_print_diags(&r, stderr);
    if (rc == 0 && r.image.text_words == 0) {
        /* It would only fault at its first clock, far from the cause. */
        fprintf(stderr, "%s: the program has no instructions\n", path);
        rc = -1;
    }
    if (rc == 0) {
        *out = r.image;
        memset(&r.image, 0, sizeof r.image);
    }
    asm_result_free(&r);
    free(dirs);
    return rc == 0 ? 0 : -1;
}

uint64_t program_loop_clocks(const emu_program_t *p, const char *from, const char *to)
{
    const isa_symbol_t *a = isa_image_symbol(&p->image, from), *b = isa_image_symbol(&p->image, to);
    return a != NULL && b != NULL && b->value > a->value ? emu_program_loop_clocks(p, a->value, b->value) : 0;
}

const emu_program_t *program_add(emu_array_t *a, const char *rel, const char *const *defines, size_t ndefines)
{
    char path[1024], err[512];
    iwarp_path(path, sizeof path, rel);
    program_source_t src = {defines, ndefines, NULL, 0, emu_array_machine(a)->text_base};
    isa_image_t image;
    if (program_load(path, &src, &image) != 0)
        return NULL;
    const emu_program_t *p = emu_array_add_program(a, &image, err, sizeof err);
    if (p == NULL)
        fprintf(stderr, "%s: %s\n", path, err);
    return p;
}
