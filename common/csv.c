/* CSV tables: columns made from the field names as records arrive. */
#include "csv.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void csv_init(csv_table_t *t)
{
    memset(t, 0, sizeof *t);
}

void csv_row(csv_table_t *t)
{
    csv_row_t *grown = realloc(t->rows, (t->nrows + 1) * sizeof *grown);
    if (grown == NULL) {
        t->failed = true;
        return;
    }
    t->rows = grown;
    t->rows[t->nrows++] = (csv_row_t){NULL, 0};
}

static size_t column_index(csv_table_t *t, const char *name)
{
    for (size_t i = 0; i < t->ncolumns; i++)
        if (strcmp(t->columns[i], name) == 0)
            return i;
    char **grown = realloc(t->columns, (t->ncolumns + 1) * sizeof *grown);
    char *copy = strdup(name);
    if (grown == NULL || copy == NULL) {
        if (grown != NULL)
            t->columns = grown;
        free(copy);
        t->failed = true;
        return SIZE_MAX;
    }
    t->columns = grown;
    t->columns[t->ncolumns] = copy;
    return t->ncolumns++;
}

void csv_set(csv_table_t *t, const char *column, const char *text)
{
    size_t c = column_index(t, column);
    if (c == SIZE_MAX || t->nrows == 0) {
        t->failed = true;
        return;
    }
    csv_row_t *r = &t->rows[t->nrows - 1];
    if (c >= r->ncells) {
        char **grown = realloc(r->cells, (c + 1) * sizeof *grown);
        if (grown == NULL) {
            t->failed = true;
            return;
        }
        memset(grown + r->ncells, 0, (c + 1 - r->ncells) * sizeof *grown);
        r->cells = grown;
        r->ncells = c + 1;
    }
    char *copy = strdup(text);
    if (copy == NULL) {
        t->failed = true;
        return;
    }
    free(r->cells[c]);
    r->cells[c] = copy;
}

/* RFC 4180: a field with a comma, a quote or a line break is quoted, its quotes doubled. */
static void field(FILE *out, const char *s)
{
    if (strpbrk(s, ",\"\r\n") == NULL) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    for (; *s != '\0'; s++) {
        if (*s == '"')
            fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

int csv_write(const csv_table_t *t, FILE *out)
{
    if (t->failed)
        return -1;
    for (size_t c = 0; c < t->ncolumns; c++) {
        if (c > 0)
            fputc(',', out);
        field(out, t->columns[c]);
    }
    fputs("\r\n", out);
    for (size_t r = 0; r < t->nrows; r++) {
        const csv_row_t *row = &t->rows[r];
        for (size_t c = 0; c < t->ncolumns; c++) {
            if (c > 0)
                fputc(',', out);
            if (c < row->ncells && row->cells[c] != NULL)
                field(out, row->cells[c]);
        }
        fputs("\r\n", out);
    }
    return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}

void csv_free(csv_table_t *t)
{
    for (size_t r = 0; r < t->nrows; r++) {
        for (size_t c = 0; c < t->rows[r].ncells; c++)
            free(t->rows[r].cells[c]);
        free(t->rows[r].cells);
    }
    free(t->rows);
    for (size_t c = 0; c < t->ncolumns; c++)
        free(t->columns[c]);
    free(t->columns);
    memset(t, 0, sizeof *t);
}
