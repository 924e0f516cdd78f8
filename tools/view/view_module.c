/* The SDL2 viewer as a module (iwarp-view.so): `iwarp view` and `iwarp demo` load it (view_loader.c). Everything
 * else in it is hidden (the link's --exclude-libs): this is the one name it exports. */
#include <string.h>

#include "commands.h"
#include "view_module.h"

__attribute__((visibility("default"))) int iwarp_view_module_run(const char *command, int argc, char **argv);

int iwarp_view_module_run(const char *command, int argc, char **argv)
{
    return strcmp(command, "demo") == 0 ? cmd_demo(argc, argv) : cmd_view(argc, argv);
}
