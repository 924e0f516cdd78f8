/*
 * Sweeps (docs/sweep.md): a file names an iwarp command with {placeholders} and the values of each parameter;
 * parameters declared `cross` are crossed, those declared `zip` go together (the same number of values each).
 * Every combination is a case: one iwarp command, run locally or as a Slurm array task, whose output becomes one
 * JSON line appended to the results file.
 *
 *     name = uniform-curve
 *     command = traffic --pattern {pattern} --rate {rate} --json
 *     cross pattern = uniform, tornado
 *     cross rate = 0.01:0.05:0.01
 */
#ifndef TOOLS_SWEEP_SWEEP_H
#define TOOLS_SWEEP_SWEEP_H

#include <stdbool.h>
#include <stddef.h>

enum {
    SWEEP_MAX_PARAMS = 16,
    SWEEP_MAX_VALUES = 4096, /* per parameter */
    SWEEP_MAX_CASES = 100000,
    SWEEP_MAX_ARGS = 256,  /* words of a case's command */
    SWEEP_MAX_TEXT = 4096, /* a case's command */
};

typedef struct sweep_param {
    char *name;
    char **values;
    unsigned nvalues;
    bool zip;
} sweep_param_t;

typedef struct sweep {
    char *name;
    char *command; /* with {placeholders} */
    sweep_param_t params[SWEEP_MAX_PARAMS];
    unsigned nparams;
    unsigned ncases;
} sweep_t;

/* Parses a sweep file's text; errors are "file:line:col: what" (the first one). 0 or -1. */
int sweep_parse(sweep_t *s, const char *file, const char *text, size_t len, char *err, size_t errlen);
/* Reads and parses a file (its name, without folder and extension, is the default sweep name). */
int sweep_load(sweep_t *s, const char *path, char *err, size_t errlen);
void sweep_free(sweep_t *s);

/* The value index of each parameter in case k (0 <= k < ncases): the first parameter varies slowest, and the
 * zip parameters count as one, at the place of the first of them. */
void sweep_case_values(const sweep_t *s, unsigned k, unsigned *index);
/* "name=value name=value ..." in the order the parameters are declared: what identifies a case's record. */
void sweep_case_key(const sweep_t *s, unsigned k, char *buf, size_t cap);
/* The command of case k with its placeholders filled in. */
void sweep_case_command(const sweep_t *s, unsigned k, char *buf, size_t cap);
/* Splits a command into words at blanks (no quoting: values hold no blanks). Returns the number of words; the
 * words point into buf, which it changes. */
unsigned sweep_split(char *buf, char **words, unsigned max);

#endif
