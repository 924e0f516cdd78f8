#ifndef TOOLS_COMMANDS_H
#define TOOLS_COMMANDS_H

#define IWARP_CMD(name, summary) int cmd_##name(int argc, char **argv);
#include "commands.def"
#undef IWARP_CMD

#endif
