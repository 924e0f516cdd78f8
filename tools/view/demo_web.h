/* iwarp demo NAME --web DIR: the web page (docs/web.md) with one demo preselected, written into a folder for a course
 * site. Needs no SDL2: the page was built by scripts/build-web.sh, and this copies it. */
#ifndef VIEW_DEMO_WEB_H
#define VIEW_DEMO_WEB_H

#include <stdbool.h>

/* Whether the command line asks for --web (then demo_web_cmd takes it, whatever the build's viewer). */
bool demo_web_wanted(int argc, char **argv);
/* `iwarp demo NAME --web DIR [--page BUILT]`; argv[0] is the command's name. Returns the exit status. */
int demo_web_cmd(int argc, char **argv);

#endif
