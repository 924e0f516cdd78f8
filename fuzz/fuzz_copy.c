/* libFuzzer harness: the copy-transfer model's two parsers (docs/copy.md). An even first byte: the rest is an
 * expression, evaluated with the T3D table; one that evaluates must give a throughput above 0 and no larger
 * than its largest figure. An odd first byte: the rest is a table file; one that parses must read back the
 * same from what copy_table_write makes of it. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "copy_expr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void expression(const char *text)
{
    copy_table_t t;
    copy_table_t3d(&t);
    copy_result_t r;
    char err[300];
    if (copy_eval(text, &t, &r, err, sizeof err) != 0) {
        if (strncmp(err, "expr:", 5) != 0)
            abort();
        return;
    }
    if (!(r.mbps > 0) || !isfinite(r.mbps))
        abort();
}

static void table(const char *text, size_t len)
{
    copy_table_t *t = malloc(2 * sizeof *t);
    if (t == NULL)
        return;
    char err[300];
    if (copy_table_parse(text, len, "fuzz.table", &t[0], err, sizeof err) == 0) {
        char *buf = NULL;
        size_t blen = 0;
        FILE *f = open_memstream(&buf, &blen);
        if (f == NULL)
            abort();
        copy_table_write(&t[0], f);
        fclose(f);
        if (copy_table_parse(buf, blen, "fuzz.table", &t[1], err, sizeof err) != 0)
            abort();
        if (!copy_table_equal(&t[0], &t[1]))
            abort();
        free(buf);
    } else if (strncmp(err, "fuzz.table:", 11) != 0) {
        abort();
    }
    free(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 8192)
        return 0;
    char *text = malloc(size);
    if (text == NULL)
        return 0;
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';
    if (data[0] % 2 == 0)
        expression(text);
    else
        table(text, size - 1);
    free(text);
    return 0;
}
