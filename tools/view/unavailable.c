/* Built without SDL2: the viewer and the demos are not available, and say how to get them. */
#include <stdio.h>

#include "commands.h"
#include "demo_web.h"

static int unavailable(const char *what)
{
    fprintf(stderr,
            "iwarp %s: this build has no viewer (SDL2 and SDL2_ttf were not found); install libsdl2-dev and "
            "libsdl2-ttf-dev (scripts/setup.sh does) and reconfigure with -Dviewer=enabled\n",
            what);
    return 2;
}

int cmd_view(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return unavailable("view");
}

int cmd_demo(int argc, char **argv)
{
    /* The web page needs no SDL2: it was built by emscripten, and --web copies it. */
    if (demo_web_wanted(argc, argv))
        return demo_web_cmd(argc, argv);
    return unavailable("demo");
}
