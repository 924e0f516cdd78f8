/* What the harnesses of the commands' option parsers share: the input as an argument vector (one argument a line,
 * empty ones kept, since `--task ''` is an input too), and the parser's stderr caught in memory, so that a
 * refusal can be required to say something and the fuzzer's log is not flooded with usage texts. */
#ifndef FUZZ_CLI_H
#define FUZZ_CLI_H

#include <getopt.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { FUZZ_CLI_MAX_ARGV = 160 }; /* past the parsers' 64-entry limits (-D, -I, --set, -x, -e) */

/* A command's parser: 0, 1 after --help, -1 after a message on stderr. It frees what it keeps itself. */
typedef int (*fuzz_cli_parser_t)(int argc, char **argv);

/* Runs parse on "NAME" followed by the input's lines, then on `good` (a vector that parses: NAME and what the
 * command cannot do without). Aborts when a refusal writes nothing on stderr, a parser returns anything but 0, 1
 * or -1, or `good` does not parse after the input: a parse must not take up where the last one left getopt
 * (glibc keeps a pointer into the last vector, which ASan does not watch inside libc). */
static inline int fuzz_cli_run(const uint8_t *data, size_t size, const char *name, fuzz_cli_parser_t parse,
                               char **good)
{
    if (size > 4096)
        return 0;
    char *text = malloc(size + 1);
    if (text == NULL)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    char *argv[FUZZ_CLI_MAX_ARGV + 1];
    int argc = 0;
    argv[argc++] = (char *)name;
    for (char *p = size > 0 ? text : NULL; p != NULL && argc < FUZZ_CLI_MAX_ARGV;) {
        char *nl = strchr(p, '\n');
        if (nl != NULL)
            *nl = '\0';
        argv[argc++] = p;
        p = nl != NULL ? nl + 1 : NULL;
    }
    argv[argc] = NULL;
    char *said = NULL;
    size_t said_len = 0;
    FILE *real = stderr, *mem = open_memstream(&said, &said_len);
    if (mem != NULL)
        stderr = mem;
    int rc = parse(argc, argv);
    int good_argc = 0;
    while (good[good_argc] != NULL)
        good_argc++;
    int good_rc = parse(good_argc, good);
    if (mem != NULL) {
        stderr = real;
        fclose(mem);
    }
    if ((rc != 0 && rc != 1 && rc != -1) || good_rc != 0)
        abort();
    if (rc == -1 && mem != NULL && said_len == 0)
        abort(); /* a refusal must say what is wrong */
    free(said);
    free(text);
    return 0;
}

#endif
