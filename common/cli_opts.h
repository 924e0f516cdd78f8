/* How every command's option parser runs getopt_long: each parse starts afresh, and what is wrong with an option
 * is said in the command's words ("iwarp asm: unknown option '--x'"), the same for every command, rather than in
 * glibc's (which name argv[0], the bare command, and change with the locale). */
#ifndef COMMON_CLI_OPTS_H
#define COMMON_CLI_OPTS_H

#include <getopt.h>

typedef struct cli_opts {
    const char *who; /* the command as its messages name it after "iwarp ": "asm", "model copy" */
    int argc;
    char **argv;
    const char *shortopts;
    const struct option *longopts;
    int optind_before; /* optind before the last call: tells an option in error from the elements skipped */
} cli_opts_t;

/* Starts a parse of argv (argv[0] is the command's name) with getopt_long's short options (no leading '+', '-'
 * or ':') and long options; nothing an earlier parse left in getopt is used. */
void cli_opts_start(cli_opts_t *p, const char *who, int argc, char **argv, const char *shortopts,
                    const struct option *longopts);
/* The next option as getopt_long returns it (its argument in optarg), or -1 when the options are done (the
 * operands are argv[optind..argc-1], in their order, wherever they stood among the options). After an option
 * that is not one of the command's, is ambiguous or is given a value it does not take: '?'; after a missing
 * value: ':'; either after saying so on stderr. */
int cli_opts_next(cli_opts_t *p);
/* Says on stderr that arg, an operand, is one too many. */
void cli_opts_unexpected(const cli_opts_t *p, const char *arg);

#endif
