/* The command line of `iwarp debug`: the program's options (tools/run/program_options.c) and the console's own. */
#include "debug_cli.h"
#include "cli_opts.h"

#include <string.h>

void debug_cli_usage(FILE *out)
{
    fprintf(out,
            "usage: iwarp debug [options] PROGRAM.s|PROGRAM.img|DESCRIPTION.run\n"
            "An interactive console over a live array (docs/console.md). The program arguments are those of\n"
            "`iwarp run`: --array WxH, --args A,B,..., --machine FILE, --set KEY=VALUE, -D NAME=VALUE, -I DIR,\n"
            "--max-cycles N (--threads is accepted; a debugged array runs on one thread, with the same results).\n"
            "  -x FILE      run the commands in FILE, then exit (repeatable)\n"
            "  -e COMMAND   run COMMAND first (repeatable)\n"
            "  --echo       print each command before its output, as a transcript\n"
            "  --batch      exit after the -e commands instead of reading more\n"
            "Without -x or --batch, commands come from the terminal (GNU readline, history in $IWARP_HISTORY or\n"
            "~/.iwarp_history) or, when standard input is not a terminal, from it.\n"
            "Exit status: 0; 1 when a script's expect or assert failed or an error went unchecked; 2 on bad usage.\n");
}

/* Appends a string option to one of the lists. */
static int push(const char **list, unsigned *n, const char *value, const char *what)
{
    if (*n == DEBUG_CLI_MAX_ITEMS) {
        fprintf(stderr, "iwarp debug: at most %d %s\n", DEBUG_CLI_MAX_ITEMS, what);
        return -1;
    }
    list[(*n)++] = value;
    return 0;
}

int debug_cli_parse(int argc, char **argv, debug_cli_t *o)
{
    enum { O_ECHO = 256, O_BATCH, O_HELP };
    static const struct option longopts[] = {
        PROGRAM_LONG_OPTIONS,
        {"echo", no_argument, NULL, O_ECHO},
        {"batch", no_argument, NULL, O_BATCH},
        {"help", no_argument, NULL, O_HELP},
        {NULL, 0, NULL, 0},
    };
    memset(o, 0, sizeof *o);
    program_options_init(&o->p);
    cli_opts_t cli;
    cli_opts_start(&cli, "debug", argc, argv, PROGRAM_SHORT_OPTIONS "x:e:h", longopts);
    int c;
    while ((c = cli_opts_next(&cli)) != -1) {
        int rc = program_options_take(&o->p, c, optarg, "debug"); /* --threads: a debugged array runs on one */
        if (rc != 0) {
            if (rc < 0)
                return -1;
            continue;
        }
        switch (c) {
        case 'x': rc = push(o->scripts, &o->nscripts, optarg, "-x scripts"); break;
        case 'e': rc = push(o->cmds, &o->ncmds, optarg, "-e commands"); break;
        case O_ECHO: o->echo = true; break;
        case O_BATCH: o->batch = true; break;
        case O_HELP:
        case 'h': debug_cli_usage(stdout); return 1;
        default: return -1;
        }
        if (rc != 0)
            return -1;
    }
    if (optind != argc - 1) {
        debug_cli_usage(stderr);
        return -1;
    }
    o->p.file = argv[optind];
    return 0;
}
