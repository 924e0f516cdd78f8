/* The iwarp driver: one binary, a subcommand per use (assemble, run, bench, debug, view, ...). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "iwarp_config.h"

typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} command_t;

static const command_t commands[] = {
#define IWARP_CMD(name, summary) {#name, cmd_##name, summary},
#include "commands.def"
#undef IWARP_CMD
};

static void usage(FILE *out)
{
    fprintf(out, "usage: iwarp <command> [options]   (iwarp <command> --help for its options)\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].summary);
}

int main(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("iwarp %s\n", IWARP_VERSION);
        return 0;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i].name) == 0) {
            int status = commands[i].run(argc - 1, argv + 1);
            /* A report that did not reach its reader (a full disk, a closed pipe) is a failure, whatever the
             * command did: checked once here for every command's standard output. */
            if (fflush(stdout) != 0 || ferror(stdout)) {
                fprintf(stderr, "iwarp %s: writing standard output failed: %s\n", argv[1], strerror(errno));
                return status == 0 ? 1 : status;
            }
            return status;
        }
    fprintf(stderr, "iwarp: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return 2;
}
