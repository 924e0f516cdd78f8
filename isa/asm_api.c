/* The assembler's entry points: set up a run, read the sources, run the second pass, clean up. */
#include <stdlib.h>
#include <string.h>

#include "asm_internal.h"

void asm_options_init(asm_options_t *o)
{
    memset(o, 0, sizeof *o);
    o->text_base = ASM_DEFAULT_TEXT_BASE;
}

static void free_state(asm_t *as)
{
    for (int s = 0; s < SEC_COUNT; s++)
        free(as->sec[s].bytes);
    free(as->files);
    free(as->syms.all);
    free(as->macros);
    free(as->numlabels);
    free(as->fixups);
    free(as->lines);
    free(as->toks);
    free(as->srcs);
    free(as->conds);
    free(as->collect.lines);
    asm_arena_free(&as->arena);
    free(as);
}

/* -D NAME=value: an .equ read from a line of its own, so values may be expressions. */
static void define_from_option(asm_t *as, const char *def, uint32_t index)
{
    const char *eq = strchr(def, '=');
    size_t nlen = eq != NULL ? (size_t)(eq - def) : strlen(def);
    char *text = asm_printf(as, "%.*s = %s", (int)nlen, def, eq != NULL ? eq + 1 : "1");
    asm_line_t line = {text, strlen(text), {ASM_FILE_CMDLINE, index, 1, NULL}};
    bool ok = nlen > 0 && asm_is_ident_start((unsigned char)def[0]);
    for (size_t i = 1; ok && i < nlen; i++)
        ok = asm_is_ident_char((unsigned char)def[i]);
    if (!ok) {
        asm_error(as, line.loc, "-D needs NAME or NAME=value, not '%s'", def);
        return;
    }
    asm_process_line(as, &line);
}

typedef struct run_input {
    const char *const *paths;
    size_t npaths;
    const char *name, *src;
    size_t len;
} run_input_t;

/* Everything that may run out of memory happens below the setjmp; as is all there is to clean up. */
static void assemble(asm_t *as, const run_input_t *in)
{
    if (setjmp(as->oom) != 0) {
        isa_image_free(&as->res->image);
        as->res->nerrors++;
        return;
    }
    const asm_options_t *opt = as->opt;
    for (size_t i = 0; i < opt->ndefines && !as->stop; i++)
        define_from_option(as, opt->defines[i], (uint32_t)i + 1);
    if (in->paths != NULL) {
        for (size_t i = 0; i < in->npaths && !as->stop; i++)
            if (asm_push_file(as, in->paths[i], strlen(in->paths[i]), NULL))
                asm_run(as);
    } else {
        asm_push_string(as, in->name, in->src, in->len);
        asm_run(as);
    }
    asm_finish(as);
}

static int run(const run_input_t *in, const asm_options_t *opt, asm_result_t *out)
{
    memset(out, 0, sizeof *out);
    asm_options_t defaults;
    if (opt == NULL) {
        asm_options_init(&defaults);
        opt = &defaults;
    }
    asm_t *as = calloc(1, sizeof *as);
    if (as == NULL) {
        out->nerrors = 1;
        return -1;
    }
    as->opt = opt;
    as->res = out;
    as->text_base = opt->text_base;
    as->max_lines = opt->max_lines ? opt->max_lines : ASM_DEFAULT_MAX_LINES;
    as->cur = SEC_TEXT;
    assemble(as, in);
    free_state(as);
    return out->nerrors ? -1 : 0;
}

int asm_assemble_files(const char *const *paths, size_t npaths, const asm_options_t *o, asm_result_t *out)
{
    run_input_t in = {paths, npaths, NULL, NULL, 0};
    return run(&in, o, out);
}

int asm_assemble_string(const char *name, const char *src, size_t len, const asm_options_t *o, asm_result_t *out)
{
    run_input_t in = {NULL, 0, name != NULL ? name : "<string>", src, len};
    return run(&in, o, out);
}
