/* Running a sweep's cases and keeping their records: the results file holds one JSON line per case, appended
 * under a lock as each case ends, so several workers, or Slurm array tasks, can share it (docs/sweep.md). */
#ifndef TOOLS_SWEEP_RESULTS_H
#define TOOLS_SWEEP_RESULTS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "csv.h"
#include "json_value.h"
#include "sweep.h"

typedef struct sweep_run_options {
    const char *results; /* the JSON lines file */
    const char *iwarp;   /* the binary each case runs */
    unsigned jobs;       /* cases at once */
    unsigned limit;      /* run at most this many pending cases (0: all) */
    int only_case;       /* run this case only (-1: every pending one) */
    bool quiet;          /* no progress lines */
    uint64_t max_output; /* a case's standard output kept at most, in bytes: past it, the case is stopped */
} sweep_run_options_t;

/* The records of this sweep in the results file, by case: rec[k] is the last record of case k, or kind JV_NULL
 * when there is none. Lines that are not JSON (a record torn by a kill) and other sweeps' records are skipped.
 * A missing file has no records. 0, or -1 with a message; free with sweep_records_free. */
int sweep_records(const sweep_t *s, const char *results, jv_t **rec, char *err, size_t errlen);
void sweep_records_free(const sweep_t *s, jv_t *rec);

/* Runs the pending cases (those without a record), `jobs` at a time. Returns 0 when every case run exited 0,
 * 1 when some failed (their records say how), -1 with a message when the sweep itself could not go on. */
int sweep_run(const sweep_t *s, const sweep_run_options_t *o, char *err, size_t errlen);

/* Every record's output as table rows, in case order (docs/sweep.md); write it with csv_write, free it with
 * csv_free. 0 or -1 with a message. */
int sweep_gather(const sweep_t *s, const char *results, csv_table_t *t, char *err, size_t errlen);
/* A plot (path.svg, and .png and .pdf beside it) of column Y against column X of the table, a line per value of
 * column GROUP (per combination for GROUP "a,b"): spec "X:Y" or "X:Y:GROUP". Rows without numbers in X and Y are
 * left out; rows whose "saturated" column is true or whose "converged" is false are ringed and kept out of the y
 * axis's fit. log_y, or y spanning over two decades, makes the y axis logarithmic. 0 or -1 with a message. */
int sweep_plot(const sweep_t *s, const csv_table_t *t, const char *spec, bool log_y, const char *path, char *err,
               size_t errlen);
/* The unit of a column the sweeps usually plot (by its last dotted part), or NULL; and "name (unit)". */
const char *sweep_column_unit(const char *column);
void sweep_column_label(const char *column, char *buf, size_t cap);

typedef struct sweep_slurm_options {
    const char *script;     /* where the job script goes */
    const char *sweep_file; /* the sweep file the tasks read */
    const char *results;
    const char *iwarp;
    const char *const *sbatch; /* extra #SBATCH options */
    unsigned nsbatch;
    uint64_t max_output; /* passed on to each task (sweep_run_options_t) */
} sweep_slurm_options_t;

/* Writes a job-array script with one task per pending case; *pending gets their number (0: no script). */
int sweep_write_slurm(const sweep_t *s, const sweep_slurm_options_t *o, unsigned *pending, char *err, size_t errlen);

#endif
