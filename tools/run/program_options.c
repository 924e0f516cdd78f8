/* The options of every command that runs programs (program_options.h). */
#include "program_options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu.h"

void program_options_init(program_options_t *o)
{
    memset(o, 0, sizeof *o);
    o->width = o->height = 1;
    o->max_cycles = 1000000000ull;
}

static int push(const char **list, unsigned *n, const char *value, const char *who, const char *what)
{
    if (*n == PROGRAM_OPTIONS_MAX_LIST) {
        fprintf(stderr, "iwarp %s: at most %d %s\n", who, PROGRAM_OPTIONS_MAX_LIST, what);
        return -1;
    }
    list[(*n)++] = value;
    return 1;
}

int program_options_take(program_options_t *o, int c, const char *arg, const char *who)
{
    switch (c) {
    case PROGRAM_OPT_ARRAY:
        if (emu_parse_array_size(arg, &o->width, &o->height) != 0) {
            fprintf(stderr, "iwarp %s: --array wants WxH with sides 1..%u, not '%s'\n", who, EMU_MAX_DIM, arg);
            return -1;
        }
        o->array_given = true;
        return 1;
    case PROGRAM_OPT_ARGS:
        if (run_parse_args(arg, o->args, &o->nargs) != 0) {
            fprintf(stderr, "iwarp %s: --args wants up to 8 comma-separated 32-bit numbers, not '%s'\n", who, arg);
            return -1;
        }
        return 1;
    case PROGRAM_OPT_MACHINE: o->machine_file = arg; return 1;
    case PROGRAM_OPT_SET: return push(o->sets, &o->nsets, arg, who, "--set options");
    case 'D': return push(o->defines, &o->ndefines, arg, who, "-D options");
    case 'I': return push(o->includes, &o->nincludes, arg, who, "-I options");
    case PROGRAM_OPT_MAX_CYCLES:
        if (emu_parse_count(arg, &o->max_cycles) != 0 || o->max_cycles == 0) {
            fprintf(stderr, "iwarp %s: --max-cycles wants 1..2^64-1 cycles, not '%s'\n", who, arg);
            return -1;
        }
        o->max_given = true;
        return 1;
    case PROGRAM_OPT_THREADS: {
        if (strcmp(arg, "auto") == 0) {
            o->threads = 0;
            o->threads_auto = true;
            return 1;
        }
        o->threads_auto = false;
        char *end;
        unsigned long n = strtoul(arg, &end, 10);
        if (*arg < '0' || *arg > '9' || *end != '\0' || n < 1 || n > 256) {
            fprintf(stderr, "iwarp %s: --threads wants 1..256 or auto, not '%s'\n", who, arg);
            return -1;
        }
        o->threads = (unsigned)n;
        return 1;
    }
    default: return 0;
    }
}
