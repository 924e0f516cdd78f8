/* The command line of `iwarp asm` (docs/assembly.md), parsed apart from the assembler so a harness (fuzz/) and the
 * tests can take it alone: nothing is read or written. getopt_long through common/cli_opts.h, as every command:
 * "-Ivalue" and "-I value" alike, files anywhere among the options (in their order), "--" before a file that
 * starts with '-'. */
#ifndef TOOLS_ASM_ASM_CLI_H
#define TOOLS_ASM_ASM_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Room after the -I folders for the two the command adds (runtime/ and the source root). */
enum { ASM_CLI_MORE_INCLUDES = 2 };

typedef struct asm_cli {
    const char *output;
    const char **includes, **defines, **files; /* pointers into argv, in lists as long as argv */
    size_t nincludes, ndefines, nfiles;
    uint32_t text_base;
} asm_cli_t;

void asm_cli_usage(FILE *out);
/* Parses argv (argv[0] is the command's name). Returns 0 with the lists allocated (asm_cli_free releases them),
 * 1 after --help (the usage is on stdout), or -1 after saying on stderr what is wrong; after 1 or -1 nothing is
 * left allocated. */
int asm_cli_parse(int argc, char **argv, asm_cli_t *a);
void asm_cli_free(asm_cli_t *a);

#endif
