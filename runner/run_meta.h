/* What a set of results needs to be read again later: which product and commit made it, on which machine
 * description, with which options, on which host and when. Every bench JSON document and CSV table carries it
 * (docs/bench.md, "Results"). */
#ifndef RUNNER_RUN_META_H
#define RUNNER_RUN_META_H

#include <stdio.h>

#include "json.h"

typedef struct run_meta {
    char version[32], commit[64], date[32], host[128];
    char options[1024]; /* the command line as given */
    char machine[2048]; /* the machine description, "key = value" lines (docs/machine.md) */
} run_meta_t;

/* Fills the record for this run: argv is the command's (argv[0] its name). */
void run_meta_init(run_meta_t *m, int argc, char **argv);
/* {"product": "iwarp", "version", "commit", "date", "host", "options", "machine": {key: value...}} */
void run_meta_json(const run_meta_t *m, json_writer_t *j);
/* The same as "# key: value" lines, before a CSV table's header (comment lines, e.g. pandas' comment='#'). */
void run_meta_csv(const run_meta_t *m, FILE *out);

#endif
