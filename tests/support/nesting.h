/* Deeply nested inputs for the parsers' depth limits: a character repeated between two texts. */
#ifndef TESTS_SUPPORT_NESTING_H
#define TESTS_SUPPORT_NESTING_H

#include <stddef.h>

/* `before`, n copies of c, then `after`, in a string the caller frees; fails the test when out of memory. */
char *nesting_text(const char *before, char c, size_t n, const char *after);

#endif
