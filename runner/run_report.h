/* The report of a finished run, as a table for people and as JSON for machines. */
#ifndef RUNNER_RUN_REPORT_H
#define RUNNER_RUN_REPORT_H

#include <stdio.h>

#include "emu.h"
#include "phase_account.h"
#include "thread_tuner.h"

typedef struct run_report {
    const char *program;
    const emu_array_t *array;
    emu_run_status_t status;
    double host_seconds;
    const thread_tuner_t *tuner; /* --threads auto: the count it ended on; NULL otherwise */
    phase_account_t *phases;     /* a ConSet run's per-phase account; NULL otherwise */
} run_report_t;

enum { RUN_REPORT_MAX_CELL_ROWS = 16 }; /* larger arrays print totals only */

void run_report_text(const run_report_t *r, FILE *out);
void run_report_json(const run_report_t *r, FILE *out);

/* The fault or deadlock that ended the run, if any, in a few lines. */
void run_report_problem(const run_report_t *r, FILE *out);

/* Sum of every cell's CA statistics. */
void run_report_totals(const emu_array_t *a, ca_stats_t *sum);

#endif
