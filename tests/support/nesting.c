#include "nesting.h"

#include <setjmp.h> /* cmocka.h needs these first */
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

char *nesting_text(const char *before, char c, size_t n, const char *after)
{
    size_t b = strlen(before), a = strlen(after);
    char *text = malloc(b + n + a + 1);
    assert_non_null(text);
    memcpy(text, before, b);
    memset(text + b, c, n);
    memcpy(text + b + n, after, a + 1);
    return text;
}
