/*
 * Run descriptions (docs/run.md): which program runs on which cells with which arguments, on which array.
 * `iwarp run`, `iwarp debug` and `iwarp view` all accept them, so they share this parser and loader.
 */
#ifndef RUNNER_RUN_DESC_H
#define RUNNER_RUN_DESC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "emu.h"

enum { RUN_DESC_MAX_ARGS = 8, RUN_DESC_MAX_LIST = 64 };

typedef enum run_arg_kind {
    RUN_ARG_NUMBER,
    RUN_ARG_X,  /* the cell's x */
    RUN_ARG_Y,  /* the cell's y */
    RUN_ARG_ID, /* y * width + x */
    RUN_ARG_W,  /* array width */
    RUN_ARG_H,  /* array height */
} run_arg_kind_t;

typedef struct run_arg {
    run_arg_kind_t kind;
    uint32_t value;
} run_arg_t;

typedef struct run_program {
    char *name;
    char *path; /* resolved against the description's folder */
} run_program_t;

/* Cells x0..x1, y0..y1 (inclusive) run program `program` with `args`. Later rules win. */
typedef struct run_rule {
    unsigned x0, x1, y0, y1;
    unsigned program;
    run_arg_t args[RUN_DESC_MAX_ARGS];
    unsigned nargs;
    unsigned line;
} run_rule_t;

typedef struct run_desc {
    char *path;
    emu_machine_t machine;
    char *defines[RUN_DESC_MAX_LIST];
    size_t ndefines;
    char *includes[RUN_DESC_MAX_LIST];
    size_t nincludes;
    run_program_t *programs;
    unsigned nprograms;
    run_rule_t *rules;
    unsigned nrules;
    uint64_t max_cycles;
    unsigned threads;
    bool threads_auto; /* `threads auto`: chosen as the run goes (thread_tuner.h); threads is then 1 */
    char *celldata[RUN_DESC_MAX_LIST];         /* cell data files (resolved paths) ... */
    uint32_t celldata_addr[RUN_DESC_MAX_LIST]; /* ... and where each goes in every cell's memory */
    bool celldata_routed[RUN_DESC_MAX_LIST];   /* a connection set, compiled into cell tables when built */
    unsigned celldata_line[RUN_DESC_MAX_LIST]; /* the line that names it, for errors found when built */
    size_t ncelldata;
    /* Kept by run_desc_build from each connection set it compiled (routed cell data): its phases' link-weighted
     * lengths (conset/route_tables.h), for the run's ConSet account (phase_predict.h), which would otherwise
     * compile the set again. */
    uint64_t *celldata_phase_clocks[RUN_DESC_MAX_LIST];
    unsigned celldata_nphases[RUN_DESC_MAX_LIST];
} run_desc_t;

/* Parses a description over `base` machine settings. Errors: "file:line:col: message", every one of the
 * file (up to a limit) to `errors`. Returns 0, or -1 with nothing left to free. */
int run_desc_parse_file(const char *path, const emu_machine_t *base, run_desc_t *out, FILE *errors);
/* The same from text in memory (name is used in messages and for relative paths). */
int run_desc_parse_string(const char *name, const char *text, size_t len, const emu_machine_t *base, run_desc_t *out,
                          FILE *errors);
void run_desc_free(run_desc_t *d);
/* Whether a path names a run description rather than a program: it ends in .run. */
bool run_desc_is_path(const char *path);

/* The files a run reads: the description, each program and each cell data file (at most cap, in out). An output
 * of the run must be none of them (file_out_not_input). Returns the count. */
size_t run_desc_inputs(const run_desc_t *d, const char **out, size_t cap);

/* A description for one program on every cell of the machine's array (what `iwarp run prog.s` means). */
int run_desc_single(run_desc_t *d, const char *program_path, const emu_machine_t *m, const uint32_t *args,
                    unsigned nargs);

/* --args A,B,...: 1 to RUN_DESC_MAX_ARGS numbers, each decimal or 0x hex, maybe negative, that fit 32 bits
 * (-2^31 .. 2^32-1); no empty fields. Returns 0, or -1 and leaves *nargs 0. */
int run_parse_args(const char *s, uint32_t *args, unsigned *nargs);

/* The machine a command line asks for: the defaults, the machine file, then each KEY=VALUE of --set. A single
 * program (not a run description) runs on 1x1 unless the file or --set say otherwise (or --array, which
 * the caller applies after). Errors go to stderr, after "iwarp WHO: " where no file names them. */
int run_machine_of_options(emu_machine_t *m, bool single_program, const char *machine_file, const char *const *sets,
                           unsigned nsets, const char *who);

/* Creates the array, assembles or reads every program once, and loads each cell; keeps what its connection sets'
 * compiles say about their phases in d (celldata_lengths). Messages to stderr. extra_defines/includes come from the
 * command line and go before the description's own. */
int run_desc_build(run_desc_t *d, const char *const *extra_defines, size_t nextra_defines,
                   const char *const *extra_includes, size_t nextra_includes, emu_array_t **out);

#endif
