/*
 * The options of every command that runs programs (run, debug, view, demo): the program or run description
 * and what shapes its array (docs/run.md). One parser, so that `--array 2x+2` or `--max-cycles -1` gets the
 * same answer from each. A command splices PROGRAM_LONG_OPTIONS into its own getopt_long table and
 * PROGRAM_SHORT_OPTIONS into its short ones, and hands every option to program_options_take first.
 */
#ifndef TOOLS_RUN_PROGRAM_OPTIONS_H
#define TOOLS_RUN_PROGRAM_OPTIONS_H

#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>

#include "run_desc.h"

enum { PROGRAM_OPTIONS_MAX_LIST = 64 };

typedef struct program_options {
    const char *file; /* program, image or run description (the command sets it) */
    const char *machine_file;
    const char *sets[PROGRAM_OPTIONS_MAX_LIST], *defines[PROGRAM_OPTIONS_MAX_LIST],
        *includes[PROGRAM_OPTIONS_MAX_LIST];
    unsigned nsets, ndefines, nincludes;
    uint32_t args[RUN_DESC_MAX_ARGS];
    unsigned nargs;
    unsigned width, height; /* 1x1 unless --array */
    bool array_given;
    unsigned threads; /* 0 unless --threads */
    bool threads_auto; /* --threads auto (threads 0) */
    uint64_t max_cycles; /* 1e9 unless --max-cycles */
    bool max_given;
} program_options_t;

/* getopt_long codes of the shared long options (above any a command uses for its own). */
enum {
    PROGRAM_OPT_ARRAY = 0x1000,
    PROGRAM_OPT_ARGS,
    PROGRAM_OPT_MACHINE,
    PROGRAM_OPT_SET,
    PROGRAM_OPT_MAX_CYCLES,
    PROGRAM_OPT_THREADS,
};

#define PROGRAM_LONG_OPTIONS                                                                                       \
    {"array", required_argument, NULL, PROGRAM_OPT_ARRAY}, {"args", required_argument, NULL, PROGRAM_OPT_ARGS},     \
        {"machine", required_argument, NULL, PROGRAM_OPT_MACHINE},                                                 \
        {"set", required_argument, NULL, PROGRAM_OPT_SET},                                                         \
        {"max-cycles", required_argument, NULL, PROGRAM_OPT_MAX_CYCLES},                                           \
        {"threads", required_argument, NULL, PROGRAM_OPT_THREADS}
#define PROGRAM_SHORT_OPTIONS "D:I:"

void program_options_init(program_options_t *o);
/* Takes option c (a getopt_long result) with its argument when it is one of the shared ones. Returns 1 when
 * it took it, 0 when c is not one of them, -1 after printing "iwarp WHO: what is wrong" on stderr. */
int program_options_take(program_options_t *o, int c, const char *arg, const char *who);

#endif
