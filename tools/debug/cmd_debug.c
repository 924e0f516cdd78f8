/* Built without GNU readline: the console is not available, and says how to get it. */
#include <stdio.h>

#include "commands.h"

int cmd_debug(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "iwarp debug: this build has no console (GNU readline was not found); install libreadline-dev "
                    "(scripts/setup.sh does) and reconfigure with -Ddebugger=enabled\n");
    return 2;
}
