/* The command line of `iwarp view`, shared with `iwarp demo` (a demo is a run description with a
 * narrative and settings for the viewer). */
#ifndef VIEW_VIEW_CLI_H
#define VIEW_VIEW_CLI_H

#include <stdbool.h>
#include <stdint.h>

#include "program_options.h"
#include "run_desc.h"
#include "viewer.h"


typedef struct view_cli {
    viewer_opts_t v;
    program_options_t p; /* p.file: a program, run description or recording */
    const char *screenshot;
    const char *animation;   /* --animation FILE.gif */
    uint64_t from, to, step; /* its clocks (--from, --to, --step) */
    bool to_given;
    double anim_fps;
    uint64_t at;
    bool at_given;
    char *narrative_owned; /* read from --narrative */
    /* what was given on the command line, so a demo's defaults do not override it */
    bool speed_given, select_given, paused_given;
} view_cli_t;

/* Parses options (argv[0] is the command's name); `who` names the command in messages. When need_file is
 * false, a missing file is allowed (the demo supplies it). Returns 0, 1 after --help, -1 on bad usage. */
int view_cli_parse(view_cli_t *c, int argc, char **argv, const char *who, bool need_file);
/* Runs what was asked: a window, a screenshot or a benchmark. Returns the exit status. */
int view_cli_run(view_cli_t *c, const char *who);
void view_cli_free(view_cli_t *c);

#endif
