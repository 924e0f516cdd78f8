/* iwarp debug: the console over a live array. Takes what `iwarp run` takes (a program with --array/--args, or a
 * run description), then reads commands from -e, -x scripts, the terminal (readline) or a pipe. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "dbg.h"
#include "debug_cli.h"
#include "file.h"
#include "phase_predict.h"
#include "run_desc.h"

/* The run description: a .run file, or one program on every cell of --array. */
static int describe(const debug_cli_t *o, const emu_machine_t *m, run_desc_t *desc)
{
    if (run_desc_is_path(o->p.file)) {
        if (o->p.nargs > 0 || o->p.array_given) {
            fprintf(stderr, "iwarp debug: --args and --array do not go with a run description (it gives them)\n");
            return -1;
        }
        return run_desc_parse_file(o->p.file, m, desc, stderr);
    }
    emu_machine_t single = *m;
    if (o->p.array_given) {
        single.width = o->p.width;
        single.height = o->p.height;
    }
    if (run_desc_single(desc, o->p.file, &single, o->p.args, o->p.nargs) != 0) {
        fprintf(stderr, "iwarp debug: out of memory\n");
        return -1;
    }
    return 0;
}

static char *history_path(void)
{
    const char *env = getenv("IWARP_HISTORY");
    if (env != NULL)
        return *env ? strdup(env) : NULL; /* IWARP_HISTORY= (empty): no history file */
    const char *home = getenv("HOME");
    if (home == NULL || *home == '\0')
        return NULL;
    size_t n = strlen(home) + sizeof "/.iwarp_history";
    char *path = malloc(n);
    if (path != NULL)
        snprintf(path, n, "%s/.iwarp_history", home);
    return path;
}

int cmd_debug(int argc, char **argv)
{
    debug_cli_t o;
    int parsed = debug_cli_parse(argc, argv, &o);
    if (parsed != 0)
        return parsed > 0 ? 0 : 2;
    emu_machine_t m;
    bool described = run_desc_is_path(o.p.file);
    if (run_machine_of_options(&m, !described, o.p.machine_file, o.p.sets, o.p.nsets, "debug") != 0)
        return 2;
    run_desc_t desc;
    memset(&desc, 0, sizeof desc);
    if (describe(&o, &m, &desc) != 0) {
        run_desc_free(&desc);
        return 2;
    }
    emu_array_t *a;
    if (run_desc_build(&desc, o.p.defines, o.p.ndefines, o.p.includes, o.p.nincludes, &a) != 0) {
        run_desc_free(&desc);
        return 2;
    }
    dbg_t *d = dbg_create(a, o.p.file, o.p.max_given ? o.p.max_cycles : desc.max_cycles, stdout);
    if (d != NULL && d->phases != NULL && phase_predict_attach(d->phases, &desc) != 0)
        fprintf(stderr, "iwarp debug: out of memory for the phases' link-weighted lengths\n");
    run_desc_free(&desc);
    if (d == NULL) {
        emu_array_free(a);
        return 2;
    }
    d->echo = o.echo;
    bool interactive = o.nscripts == 0 && !o.batch && isatty(STDIN_FILENO);
    d->interactive = interactive;
    if (interactive) {
        printf("iwarp debug: %s on a %ux%u array, clock 0 (help lists the commands, Ctrl-D leaves)\n", o.p.file, d->w,
               d->h);
        dbg_print_where(d, d->sel);
    }
    for (unsigned i = 0; i < o.ncmds && !d->quit; i++)
        dbg_execute(d, o.cmds[i]);
    for (unsigned i = 0; i < o.nscripts && !d->quit; i++) {
        const char *why;
        FILE *f = file_open_read(o.scripts[i], &why);
        if (f == NULL) {
            fprintf(stderr, "iwarp debug: cannot read script '%s': %s\n", o.scripts[i], why);
            dbg_free(d);
            return 2;
        }
        dbg_read_stream(d, f, o.scripts[i]); /* at the top level, as if typed: `source` inside it nests */
        fclose(f);
    }
    if (!d->quit && o.nscripts == 0 && !o.batch) {
        if (interactive) {
            char *history = history_path();
            dbg_console(d, history);
            free(history);
        } else {
            dbg_read_stream(d, stdin, NULL);
        }
    }
    if (d->error_pending)
        d->failures++;
    int failures = d->failures;
    dbg_free(d);
    return interactive || failures == 0 ? 0 : 1;
}
