/* The per-phase account of a ConSet run (phase_account.h) for people and for tools: a table with a sum line
 * and the paper's switch beside the mean, and the `phases` array of `iwarp run --json`. */
#ifndef RUNNER_PHASE_REPORT_H
#define RUNNER_PHASE_REPORT_H

#include <stdio.h>

#include "json.h"
#include "phase_account.h"

/* An incomplete account (phase_account_error) is one line saying why, in place of the table. */
void phase_report_text(phase_account_t *pa, FILE *out);
/* Writes `phases` (an array of objects, one per switch) and `phases_sum` into the object being written; for an
 * incomplete account, both null and `phases_error` saying why. */
void phase_report_json(phase_account_t *pa, json_writer_t *j);

#endif
