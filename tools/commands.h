#ifndef TOOLS_COMMANDS_H
#define TOOLS_COMMANDS_H

#define IWARP_CMD(name, summary) int cmd_##name(int argc, char **argv);
#include "commands.def"
#undef IWARP_CMD

/* `iwarp model copy`, which cmd_model hands its arguments (tools/copy). */
int model_copy_cmd(int argc, char **argv);

#endif
