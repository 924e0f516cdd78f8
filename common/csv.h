/* A table of records for CSV: fields are named as records arrive, the columns are every name in the order
 * it first came, and a record without a field leaves its cell empty (RFC 4180 quoting). */
#ifndef TOOLS_CSV_H
#define TOOLS_CSV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct csv_row {
    char **cells; /* one per column known when it was last set; NULL: empty */
    size_t ncells;
} csv_row_t;

typedef struct csv_table {
    char **columns;
    size_t ncolumns;
    csv_row_t *rows;
    size_t nrows;
    bool failed; /* out of memory: the table is not complete */
} csv_table_t;

void csv_init(csv_table_t *t);
/* Starts a new record; the fields set next belong to it. */
void csv_row(csv_table_t *t);
/* Sets a field of the current record (a new column if the name is new). */
void csv_set(csv_table_t *t, const char *column, const char *text);
/* Writes the header and every record; returns 0, or -1 when the table is incomplete or writing failed. */
int csv_write(const csv_table_t *t, FILE *out);
void csv_free(csv_table_t *t);

#endif
