/* libFuzzer harness: the JSON reader of iwarp sweep (common/json_value.h) on arbitrary bytes. Any crash,
 * leak or undefined behaviour is a bug; so is an error without its place, and a value whose compact form does
 * not parse back to the same compact form. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "json_value.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    jv_t *v;
    size_t n;
    char err[128] = "";
    if (jv_parse_all((const char *)data, size, &v, &n, err, sizeof err) != 0) {
        if (err[0] < '1' || err[0] > '9' || strchr(err, ':') == NULL)
            abort();
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        char *c = jv_compact(&v[i]);
        if (c == NULL)
            abort();
        jv_t *again;
        size_t m;
        if (jv_parse_all(c, strlen(c), &again, &m, NULL, 0) != 0 || m != 1)
            abort();
        char *c2 = jv_compact(&again[0]);
        if (c2 == NULL || strcmp(c, c2) != 0)
            abort();
        free(c2);
        free(c);
        jv_free_all(again, m);
    }
    jv_free_all(v, n);
    return 0;
}
