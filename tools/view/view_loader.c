/* `iwarp view` and `iwarp demo` as the iwarp binary runs them: the SDL2 viewer is a module of its own
 * (iwarp-view.so, built beside the binary), loaded only by these two commands. Linked into the binary, SDL2,
 * SDL2_ttf and the fifty libraries under them were loaded by every command: 10.4M host instructions and about
 * 20 ms of every `iwarp run`, sweep case and test (docs/architecture.md). `iwarp demo --web` needs no SDL2 and
 * runs here. */
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "demo_web.h"
#include "view_module.h"

#ifdef IWARP_VIEW_MODULE
/* The module's path: IWARP_VIEW_MODULE relative to the folder of the running binary (never a user's path or a
 * search path: no file of anyone else's is loaded). */
static int module_path(char *buf, size_t cap)
{
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return -1;
    self[n] = '\0';
    char *slash = strrchr(self, '/');
    if (slash == NULL)
        return -1;
    slash[1] = '\0';
    int len = snprintf(buf, cap, "%s%s", self, IWARP_VIEW_MODULE);
    return len < 0 || (size_t)len >= cap ? -1 : 0;
}

static int via_module(const char *command, int argc, char **argv)
{
    char path[PATH_MAX + 64];
    if (module_path(path, sizeof path) != 0) {
        fprintf(stderr, "iwarp %s: cannot find the viewer module beside the iwarp binary (/proc/self/exe)\n", command);
        return 2;
    }
    void *module = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    void *entry = module != NULL ? dlsym(module, VIEW_MODULE_ENTRY) : NULL;
    /* POSIX makes dlsym's object pointer a function's; ISO C has no cast between the two, a copy does it. */
    view_module_run_fn *run = NULL;
    _Static_assert(sizeof run == sizeof entry, "dlsym returns a function's address as a void *");
    memcpy(&run, &entry, sizeof run);
    if (run == NULL) {
        fprintf(stderr,
                "iwarp %s: the viewer module could not be loaded: %s\n"
                "  (it is built beside the binary, as %s; SDL2 and SDL2_ttf must be installed: scripts/setup.sh)\n",
                command, dlerror(), IWARP_VIEW_MODULE);
        return 2;
    }
    /* The module stays loaded: the process ends with the command, and SDL2 may have threads of its own. */
    return run(command, argc, argv);
}
#else
static int via_module(const char *command, int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr,
            "iwarp %s: this build has no viewer (SDL2 and SDL2_ttf were not found); install libsdl2-dev and "
            "libsdl2-ttf-dev (scripts/setup.sh does) and reconfigure with -Dviewer=enabled\n",
            command);
    return 2;
}
#endif

int cmd_view(int argc, char **argv)
{
    return via_module("view", argc, argv);
}

int cmd_demo(int argc, char **argv)
{
    /* The web page needs no SDL2: it was built by emscripten, and --web copies it. */
    if (demo_web_wanted(argc, argv))
        return demo_web_cmd(argc, argv);
    return via_module("demo", argc, argv);
}
